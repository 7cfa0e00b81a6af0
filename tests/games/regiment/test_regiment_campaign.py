"""The Regiment between sessions: characters with state, improvements, saved squads, squad rosters."""
import hashlib
import json
from pathlib import Path

import pypdf
import pytest
import yaml

from conftest import REPO, beside, pages, pdf_text, text_runs
from regiment_characters import JOE


# Seven improvements before a final one: two +1 STAT, three moves, both advanced ones.
VETERAN = JOE.replace("""improvements:
  - +1 guts
  - Fight back
""", """improvements:
  - +1 guts
  - Fight back
  - Heavy weapon
  - Section 8
  - 1-tough
  - get +1grit
  - +1 lucky
  - go home
""")


def write(tmp_path: Path, text: str, name: str = "char.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def page_lines(path: Path) -> list[list[str]]:
    return [(p.extract_text() or "").splitlines() for p in pypdf.PdfReader(str(path)).pages]


STAT_LABELS = ("BATTLE", "LUCKY", "GUTS", "TACTICS", "LEADERSHIP")


def stats_printed(runs) -> dict[str, str]:
    """The value printed in each stat's box, found by position: right of (the last) stat label."""
    return {label: beside(runs, label) for label in STAT_LABELS}


def stat_text(stats: dict) -> dict[str, str]:
    """What stats_printed() reads for these stats: +N, -N, or a bare 0."""
    return {label: (f"{stats[label.lower()]:+d}" if stats[label.lower()] else "0") for label in STAT_LABELS}


def joined(runs):
    """The runs with the pieces of one phrase joined: a phrase may be drawn in more than one run
    (a letter-spaced run carries its words as ActualText of its own), the pieces on one baseline,
    each starting where the previous one ends or a space further."""
    out = []
    for x, y, t in sorted(runs, key=lambda r: (-round(r[1], 1), r[0])):
        if out and abs(out[-1][1] - y) <= 0.5 and t != "✔" and out[-1][2] != "✔" \
                and 0 <= x - (out[-1][0] + out[-1][3]) <= 4:
            px, py, pt, pw = out[-1]
            out[-1] = (px, py, f"{pt} {t}", x - px + len(t) * 4.2)
        else:
            out.append((x, y, t, len(t) * 4.2))  # a generous width for a small label's letters
    return [(x, y, t) for x, y, t, _ in out]


def ticked(runs, label: str) -> list[bool]:
    """For each line of the page that starts with `label` (top to bottom): is a check mark drawn just left of it?"""
    lines = sorted((r for r in joined(runs) if r[2].startswith(label)), key=lambda r: (-r[1], r[0]))
    assert lines, f"no {label!r} on the page"
    return [any(r[2] == "✔" and abs(r[1] - y) <= 4 and 0 < x - r[0] <= 15 for r in runs) for x, y, _ in lines]


def row_ticks(runs, left: str, right: str) -> int:
    """How many check marks are drawn on a track: the row between a label and the label at its end."""
    lx, ly, _ = next(r for r in runs if r[2] == left)
    rx = next(r[0] for r in runs if r[2] == right and abs(r[1] - ly) <= 4)
    return sum(1 for x, y, t in runs if t == "✔" and abs(y - ly) <= 4 and lx < x < rx)


def ticked_moves(runs) -> list[str]:
    """The move names (\"Name:\") with a check mark drawn just left of them."""
    return [t.split(":")[0] for x, y, t in sorted(runs, key=lambda r: -r[1]) if t.endswith(":") and
            any(r[2] == "✔" and abs(r[1] - y) <= 4 and 0 < x - r[0] <= 15 for r in runs)]


def page_runs_without_footer(path: Path) -> list[list[tuple[float, float, str]]]:
    """Every page's text runs, footer (and its possibly wrapped origin line) left out, sorted by position."""
    out = []
    for i in range(pages(path)):
        runs = text_runs(path, i)
        footer_y = max(y for x, y, t in runs if t.startswith("The Regiment · "))
        out.append(sorted((round(x), round(y), t) for x, y, t in runs if y > footer_y + 1))
    return out


# -- stat moves --------------------------------------------------------------------
def test_stat_moves_apply_to_random_characters(regiment):
    from sheets.base.dice import Dice
    from sheets.games.regiment.characters import roll_character

    seen = set()
    for seed in range(60):
        for pb_id, move, stat in (("soldier", "Battle tested", "battle"), ("medic", "Nerves of steel", "guts")):
            ch = roll_character(regiment.data, regiment.data.playbooks[pb_id], Dice.seeded(seed))
            if move in ch.move_names:
                seen.add(move)
                assert ch.stats[stat] == min(3, ch.base_stats[stat] + 1), (seed, ch.stats)
            else:
                assert ch.stats == ch.base_stats
    assert seen == {"Battle tested", "Nerves of steel"}  # both bonuses were exercised


def test_random_battle_tested_soldier_prints_plus_one_battle(cli, regiment, tmp_path):
    from sheets.base.dice import Dice
    from sheets.games.regiment.characters import roll_character

    seed = next(s for s in range(200) if "Battle tested" in roll_character(
        regiment.data, regiment.data.playbooks["soldier"], Dice.seeded(s)).move_names)
    ch = roll_character(regiment.data, regiment.data.playbooks["soldier"], Dice.seeded(seed))
    assert ch.stats["battle"] == ch.base_stats["battle"] + 1 == 3  # every soldier stat set has battle +2
    result = cli("playbook", "soldier", "--random", "--seed", seed, "-o", tmp_path / "r.pdf")
    assert result.exit_code == 0, result
    assert stats_printed(text_runs(tmp_path / "r.pdf", 0)) == stat_text(ch.stats)


def test_stat_moves_apply_to_characters_from_files(cli, tmp_path):
    path = write(tmp_path, JOE.replace("improvements:\n  - +1 guts\n  - Fight back\n", ""))
    result = cli("playbook", "--character", path, "--json")
    assert result.exit_code == 0, result
    data = json.loads(result.stdout)
    assert data["stats"]["battle"] == 3 and data["base_stats"]["battle"] == 2


def test_stat_move_taken_as_improvement_applies_with_its_cap(cli, tmp_path):
    base = JOE.replace("moves: [Battle tested, Stone cold]", "moves: [Comrade in arms, Stone cold]")
    text = base.replace("  - Fight back\n", "  - Battle tested\n")
    data = json.loads(cli("playbook", "--character", write(tmp_path, text), "--json").stdout)
    assert data["stats"]["battle"] == 3 and data["stats"]["guts"] == 2
    assert "Battle tested" in data["moves"]
    # Battle tested counts: a +1 battle after it would make +4
    result = cli("playbook", "--character", write(tmp_path, text + "  - +1 battle\n"), "--json")
    assert result.exit_code == 1 and "would make battle +4" in result.stderr
    # +1 battle first (+3), then Battle tested gives nothing more: "max +3"
    text = base.replace("  - Fight back\n", "  - +1 battle\n  - Battle tested\n")
    data = json.loads(cli("playbook", "--character", write(tmp_path, text), "--json").stdout)
    assert data["stats"]["battle"] == 3
    assert data["improvements"] == ["+1 guts", "+1 battle", "Battle tested"]


# -- the printed sheet ----------------------------------------------------------------
def test_state_is_printed_and_ticked(cli, tmp_path):
    result = cli("playbook", "--character", write(tmp_path, JOE), "-o", tmp_path / "joe.pdf")
    assert result.exit_code == 0, result
    first, second = text_runs(tmp_path / "joe.pdf", 0), text_runs(tmp_path / "joe.pdf", 1)
    assert stats_printed(first) == stat_text({"battle": 3, "guts": 2, "leadership": 0, "lucky": 1, "tactics": -1})
    assert row_ticks(first, "GEAR", "SMOKES") == 1
    assert row_ticks(first, "WOUNDS", "TOUGH") == 3
    assert row_ticks(first, "STRESS", "GRIT") == 1
    assert row_ticks(first, "EXPERIENCE", "IMPROVE") == 2
    # the four conditions are tick boxes: suppressed as written, critical from the 3 wounds
    assert [ticked(first, c)[0] for c in ("Suppressed", "Pinned", "Critical", "Stabilized")] == [True, False, True, False]
    assert ticked(first, "get +1 stat (max +3)") == [True, False]  # the second +1 STAT box stays open
    assert beside(first, "get +1 stat (max +3)", occurrence=0, max_dx=130) == "guts"
    assert ticked(first, "soldier move") == [True, False, False]
    for label in ("get +1 grit", "get 1 tough", "go home", "new character"):  # open
        assert ticked(first, label) == [False], label
    assert ticked_moves(second) == ["Once More into the Breach", "Battle tested", "Fight back", "Stone cold"]


def test_advanced_and_final_improvements_are_ticked(cli, tmp_path):
    result = cli("playbook", "--character", write(tmp_path, VETERAN), "-o", tmp_path / "v.pdf")
    assert result.exit_code == 0, result
    first = text_runs(tmp_path / "v.pdf", 0)
    assert ticked(first, "get +1 stat (max +3)") == [True, True]
    assert [beside(first, "get +1 stat (max +3)", occurrence=i, max_dx=130) for i in (0, 1)] == ["guts", "lucky"]
    for label in ("get +1 grit", "get 1 tough", "go home"):
        assert ticked(first, label) == [True], label
    assert ticked(first, "new character") == [False]
    assert ticked(first, "soldier move") == [True] * 3


def test_critical_from_stress(cli, tmp_path):
    text = JOE.replace("wounds: 3", "wounds: 0").replace("stress: 1", "stress: 4").replace("conditions: [suppressed]", "")
    data = json.loads(cli("playbook", "--character", write(tmp_path, text), "--json").stdout)
    assert data["conditions"] == ["critical"]
    text = text.replace("stress: 4", "stress: 3")
    assert json.loads(cli("playbook", "--character", write(tmp_path, text), "--json").stdout)["conditions"] == []


def test_blank_and_filled_playbooks_have_the_same_fields(regiment, tmp_path):
    """Every value sits in a named box: a blank sheet and a filled one list the same data-fields."""
    import re

    from sheets.pipeline.sheet import render_html
    from sheets.games.regiment.characters import resolve_character
    from sheets.games.regiment.sheets import blank_playbook, filled_playbooks
    from sheets.library.yaml_source import load_yaml

    ch = resolve_character(load_yaml(write(tmp_path, VETERAN)), regiment.data)
    fields = re.compile(r'data-field="([^"]+)"')
    filled = fields.findall(render_html(filled_playbooks(regiment, [ch], "x.pdf")))
    blank = fields.findall(render_html(blank_playbook(regiment, ch.playbook)))
    assert filled == blank
    assert len(filled) == len(set(filled))  # unique names


def test_blank_and_filled_rosters_have_the_same_fields(regiment, tmp_path):
    import re

    from sheets.pipeline.sheet import render_html
    from sheets.games.regiment.sheets import squad_sheet
    from sheets.games.regiment.squads import load_squad

    roster = load_squad(make_squad(tmp_path), regiment.data)
    fields = re.compile(r'data-field="(roster\.[^"]+)"')
    filled = fields.findall(render_html(squad_sheet(regiment, roster, "x.pdf")))
    blank = fields.findall(render_html(squad_sheet(regiment, None, "x.pdf")))
    assert filled == blank and len(blank) == len(set(blank))


# -- --json -----------------------------------------------------------------------------
def test_json_has_the_resolved_character(cli, tmp_path):
    result = cli("playbook", "--character", write(tmp_path, JOE), "--json")
    assert result.exit_code == 0, result
    data = json.loads(result.stdout)
    assert data["name"] == "Joe Kowalski" and data["playbook"] == "soldier"
    assert data["stats"] == {"battle": 3, "guts": 2, "leadership": 0, "lucky": 1, "tactics": -1}
    assert data["moves"] == ["Once More into the Breach", "Battle tested", "Fight back", "Stone cold"]
    assert (data["xp"], data["gear"], data["wounds"], data["stress"]) == (2, 1, 3, 1)
    assert data["conditions"] == ["suppressed", "critical"]
    assert data["improvements"] == ["+1 guts", "Fight back"]
    assert not list(tmp_path.glob("output/*.pdf"))


def test_json_needs_a_character(cli):
    result = cli("playbook", "soldier", "--random", "--json")
    assert result.exit_code == 1 and "--json" in result.stderr


# -- refusals -----------------------------------------------------------------------------
def improvements(*items: str) -> tuple[str, str]:
    return ("  - +1 guts\n  - Fight back\n", "".join(f"  - {i}\n" for i in items))


REFUSALS = [
    (("xp: 2", "xp: 5"), "xp", "5 marked, but a Soldier's EXPERIENCE track has 4 boxes to mark"),
    (("gear: 1", "gear: 7"), "gear", "7 marked, but a Soldier's GEAR track has 6 boxes to mark"),
    (("wounds: 3", "wounds: 6"), "wounds", "6 marked, but a Soldier's WOUNDS track has 5 boxes to mark"),
    (("stress: 1", "stress: 6"), "stress", "6 marked, but a Soldier's STRESS track has 5 boxes to mark"),
    (("stress: 1", "stress: -1"), "stress", "-1 is too low: at least 0"),
    (("wounds: 3\nstress: 1\nconditions: [suppressed]", "wounds: 1\nstress: 3\nconditions: [critical]"), "conditions[0]",
     "critical needs 3+ wounds or 4+ stress, and this file marks 1 wound, 3 stress (The Regiment's rules, Recovery & healing: "
     "\"When you have 3+ wounds or 4+ stress, you have the critical condition ... until you're stabilized and the "
     "condition is removed\")"),
    (("wounds: 3\nstress: 1\nconditions: [suppressed]", "wounds: 2\nstress: 1\nconditions: [stabilized]"), "conditions[0]",
     "stabilized removes the critical condition, which needs 3+ wounds or 4+ stress, and this file marks 2 wounds, "
     "1 stress (The Regiment's rules, Recovery & healing"),
    (("conditions: [suppressed]", "conditions: [critical, stabilized]"), "conditions[1]",
     "critical and stabilized contradict each other: stabilizing removes the critical condition (The Regiment's "
     "rules, Recovery & healing"),
    (("conditions: [suppressed]", "conditions: [shaken]"), "conditions[0]", "unknown condition 'shaken'"),
    (("conditions: [suppressed]", "conditions: [pinned, pinned]"), "conditions[1]", "'pinned' is listed twice"),
    (improvements("+1 battle"), "improvements[0]",
     "'+1 battle' would make battle +4; no stat goes above +3 (it is +3 counting moves"),
    (improvements("+1 guts", "+1 lucky", "+1 tactics"), "improvements[2]",
     "a Soldier can take +1 STAT at most 2 times (the playbook prints 2 boxes); this is the 3rd"),
    (improvements("Battle tested"), "improvements[0]", "'Battle tested' cannot be taken as an improvement: the character already holds it"),
    (improvements("Fight back", "Fight back"), "improvements[1]", "the character already holds it"),
    (improvements("Once More into the Breach"), "improvements[0]", "every Soldier has it"),
    (improvements("Medic"), "improvements[0]", "'Medic' is a Medic move; a Soldier improves only with moves of its own playbook"),
    (improvements("Fight back", "Heavy weapon", "Section 8", "Comrade in arms"), "improvements[3]",
     "at most 3 times (the playbook prints 3 boxes); this is the 4th"),
    (improvements("+1 guts", "Fight back", "Heavy weapon", "+1 grit"), "improvements[3]",
     "'+1 grit' is an advanced improvement: it needs 4 improvements before it, and 3 came before"),
    (improvements("+1 guts", "Fight back", "Heavy weapon", "Section 8", "1 tough", "1 tough"), "improvements[5]",
     "'1 tough' is taken twice"),
    (improvements("+1 guts", "Fight back", "Heavy weapon", "Section 8", "1 tough", "+1 grit", "new character"),
     "improvements[6]", "'new character' is a final improvement: it needs 7 improvements before it, and 6 came before"),
    (improvements("+1 guts", "Fight back", "Heavy weapon", "Section 8", "1 tough", "+1 grit", "+1 lucky", "go home",
                  "new character"), "improvements[8]", "comes after 'go home', a final improvement"),
    (improvements("+2 guts"), "improvements[0]", "unknown improvement '+2 guts'"),
]


@pytest.mark.parametrize("change,field,message", REFUSALS, ids=[r[1] + ":" + r[2][:30] for r in REFUSALS])
def test_refusals_are_located_and_write_nothing(cli, tmp_path, change, field, message):
    text = JOE.replace(*change)
    assert text != JOE
    path = write(tmp_path, text)
    result = cli("playbook", "--character", path)
    assert result.exit_code == 1, result
    assert message in result.stderr, result.stderr
    item = field.split("[")[0]
    index = int(field.split("[")[1].rstrip("]")) if "[" in field else None
    lines = text.splitlines()
    key_line = next(i for i, line in enumerate(lines, 1) if line.startswith(f"{item}:"))
    line = key_line + 1 + index if item == "improvements" and index is not None else key_line
    assert f"{path}:{line}: {field}: " in result.stderr, result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "output").exists()
    assert cli("playbook", "--character", path, "--json").exit_code == 1


# -- --save ---------------------------------------------------------------------------------
def test_save_writes_files_that_print_the_same_pages(cli, tmp_path):
    result = cli("playbook", "--random", "--count", "3", "--seed", "7", "--save", tmp_path / "squad",
                 "-o", tmp_path / "rolled.pdf")
    assert result.exit_code == 0, result
    squad = yaml.safe_load((tmp_path / "squad" / "squad.yaml").read_text())
    assert len(squad["members"]) == 3
    for name in squad["members"]:
        assert f"wrote {tmp_path / 'squad' / name}" in result.stdout or name in result.stdout
    # Compared by text run and position, not text order: a filled playbook is its values stamped
    # over a cached blank (their text comes after the page's).
    rolled = page_runs_without_footer(tmp_path / "rolled.pdf")
    assert len(rolled) == 6
    # each file alone, with --character
    for i, name in enumerate(squad["members"]):
        out = tmp_path / f"one-{i}.pdf"
        assert cli("playbook", "--character", tmp_path / "squad" / name, "-o", out).exit_code == 0
        alone = page_runs_without_footer(out)
        assert alone == rolled[2 * i:2 * i + 2]
        assert len(alone[0]) > 40
        assert any(t == squad_name(tmp_path / "squad" / name) for _, _, t in alone[0])  # the values are there
    # all of them, with sheets squad: the roster page, then the same pages
    assert cli("squad", tmp_path / "squad" / "squad.yaml", "-o", tmp_path / "squad.pdf").exit_code == 0
    assert "SQUAD ROSTER" in page_lines(tmp_path / "squad.pdf")[0][0]
    printed = page_runs_without_footer(tmp_path / "squad.pdf")
    assert len(printed) == 7
    # A squad's pages are laid out whole (not stamped): a chosen item is its own run, and the page
    # sits a point or two lower under the roster's stylesheet. Compare each page's words instead.
    def words(page):
        return sorted(w for _, _, t in page for w in t.split())
    assert [words(p) for p in printed[1:]] == [words(p) for p in rolled]


def squad_name(path: Path) -> str:
    return yaml.safe_load(path.read_text())["name"]


def test_save_keeps_the_previous_version(cli, tmp_path):
    folder = tmp_path / "squad"
    assert cli("playbook", "soldier", "--random", "--seed", "1", "--save", folder).exit_code == 0
    first = {p.name: p.read_bytes() for p in folder.iterdir()}
    assert cli("playbook", "soldier", "--random", "--seed", "2", "--save", folder).exit_code == 0
    assert (folder / "squad.yaml.bak").read_bytes() == first["squad.yaml"]
    assert b"seed 2" in (folder / "squad.yaml").read_bytes()


def test_save_needs_a_roll(cli, tmp_path):
    result = cli("playbook", "soldier", "--save", tmp_path / "x")
    assert result.exit_code == 1 and "--save DIR keeps rolled soldiers" in result.stderr


# -- sheets squad ---------------------------------------------------------------------------
ADA_INLINE = """\
  - playbook: operator
    name: Ada Mercer
    rank: S/Sgt
    profile: Cool
    background: Engineer
    stats: {battle: 2, guts: 1, leadership: 0, lucky: 0, tactics: 2}
    moves: [Explosives, EW]
    loadout: SAW
    stress: 4
    bonds: {Joe Kowalski: 2}
"""


def make_squad(tmp_path: Path, joe: str = JOE, ada: str = ADA_INLINE) -> Path:
    chars = tmp_path / "chars"
    chars.mkdir(exist_ok=True)
    (chars / "joe.yaml").write_text(joe + "bonds: {Walter Brzezinski: 1, Ada Mercer: -1, Doc Keller: 2}\n")
    walter = REPO / "content/regiment/characters/walter-brzezinski.yaml"
    (chars / "walter.yaml").write_text(walter.read_text())
    return write(tmp_path, "designation: 3rd Squad\nop: 1\nleader: Sgt Walter Brzezinski\nmembers:\n"
                           "  - chars/walter.yaml\n  - chars/joe.yaml\n" + ada, "squad.yaml")


def test_squad_prints_roster_and_playbooks(cli, tmp_path, regiment):
    squad = make_squad(tmp_path)
    before = {p: hashlib.sha256(p.read_bytes()).hexdigest() for p in tmp_path.rglob("*.yaml")}
    result = cli("squad", squad, "-o", tmp_path / "s.pdf")
    assert result.exit_code == 0, result
    assert "wrote" in result.stdout
    assert pages(tmp_path / "s.pdf") == 7
    roster = page_lines(tmp_path / "s.pdf")[0]
    assert "SQUAD DESIGNATION 3rd Squad OP 1 SQUAD LEADER Sgt Walter Brzezinski" in roster
    assert "1 Walter Brzezinski Sniper Sgt +1 0 +1 -1 +2" in roster
    assert "2 Joe Kowalski Soldier Cpl +3 +2 0 +1 -1 ✔ ✔" in roster  # sup, crit (his marks on the line under it)
    assert "3 Ada Mercer Operator S/Sgt +2 +1 0 0 +2 ✔" in roster  # critical (4 stress)
    # every mark ticked once: wounds, stress and XP on each soldier's track line, and his conditions
    from sheets.games.regiment.squads import load_squad
    members = load_squad(squad, regiment.data).members
    assert "".join(roster).count("✔") == sum(m.wounds + m.stress + m.xp + len(m.all_conditions) for m in members)
    # the bond grid: row = whose bond, column = with whom
    assert "2 Joe Kowalski +1 -1" in roster and "3 Ada Mercer +2" in roster
    assert any("Joe Kowalski → Doc Keller +2" in line for line in roster)
    text = pdf_text(tmp_path / "s.pdf")
    # members take the squad's name (stamped onto their playbooks); Walter's own squad block wins
    designations = [beside(text_runs(tmp_path / "s.pdf", page), "SQUAD DESIGNATION", max_dx=120) for page in (1, 3, 5)]
    assert designations == ["2nd Squad", "3rd Squad", "3rd Squad"]
    assert "· joe.yaml · warsheets" in text and "chars/" not in text  # the file's name, never its folder
    after = {p: hashlib.sha256(p.read_bytes()).hexdigest() for p in tmp_path.rglob("*.yaml")}
    assert before == after  # printing never changes the user's files


def test_squad_member_problems_name_their_own_file(cli, tmp_path):
    squad = make_squad(tmp_path, joe=JOE.replace("gear: 1", "gear: 9"), ada=ADA_INLINE.replace("rank: S/Sgt", "rank: Pfc"))
    result = cli("squad", squad, "-o", tmp_path / "s.pdf")
    assert result.exit_code == 1
    line = JOE.splitlines().index("gear: 1") + 1
    assert f"{tmp_path / 'chars' / 'joe.yaml'}:{line}: gear: 9 marked" in result.stderr
    assert f"{squad}:9: members[2].rank: rank 'Pfc' is not allowed for an Operator" in result.stderr
    assert not (tmp_path / "s.pdf").exists()


def test_squad_file_problems(cli, tmp_path):
    squad = write(tmp_path, "designation: X\nmembers:\n  - nobody.yaml\n", "squad.yaml")
    result = cli("squad", squad)
    assert result.exit_code == 1 and f"{squad}:3: members[0]: character file 'nobody.yaml' not found" in result.stderr
    squad = write(tmp_path, "designation: X\nop: 9\nmembers: []\n", "squad.yaml")
    result = cli("squad", squad)
    assert result.exit_code == 1
    assert f"{squad}:2: op:" in result.stderr and f"{squad}:3: members:" in result.stderr
    make_squad(tmp_path)
    squad = write(tmp_path, "members:\n  - chars/joe.yaml\n  - ./chars/joe.yaml\n", "twice.yaml")
    result = cli("squad", squad)
    assert result.exit_code == 1 and f"{squad}:3: members[1]: './chars/joe.yaml' is listed twice" in result.stderr


# -- the kit -----------------------------------------------------------------------------------
def test_kit_has_a_blank_squad_roster(whole_kit):
    roster = whole_kit.folder / "regiment-squad-roster.pdf"
    assert roster.is_file() and "regiment-squad-roster.pdf" in whole_kit.stdout
    assert pages(roster) == 1
    lines = page_lines(roster)[0]
    assert "SQUAD ROSTER" in lines[0] and "✔" not in "".join(lines)
    assert "# NAME PLAYBOOK RANK BAT GUT LEA LUC TAC SUP PIN CRIT STAB" in lines
    assert lines.count("WOUNDS STRESS XP") == 8  # each row's tracks on a line of their own
    assert "1 2 3 4 5 6 7 8" in lines


def test_saved_character_files_resolve_to_the_same_character(regiment):
    """What --save writes reads back as the same soldier: choices, effective stats, moves."""
    from sheets.base.dice import Dice
    from sheets.games.regiment.characters import character_file_data, character_json
    from sheets.games.regiment.characters import resolve_character
    from sheets.games.regiment.sheets import roll_squad
    from sheets.library.yaml_source import parse_yaml

    for seed in range(30):
        for ch in roll_squad(regiment, Dice.seeded(seed), 4):
            text = yaml.safe_dump(character_file_data(ch), sort_keys=False)
            again = resolve_character(parse_yaml(text, "saved.yaml"), regiment.data)
            assert character_json(again) == character_json(ch)


def test_a_large_squad_still_gets_a_one_page_roster(regiment, tmp_path):
    from sheets.pipeline.build import build_one
    from sheets.base.dice import Dice
    from sheets.games.regiment.sheets import roll_squad, squad_sheet
    from sheets.games.regiment.squads import SquadRoster

    members = roll_squad(regiment, Dice.seeded(3), 24)
    path = build_one(squad_sheet(regiment, SquadRoster("Big Squad", 2, None, members), "x.pdf"), tmp_path / "x.pdf")
    lines = page_lines(path)
    assert len(lines) == 1 + 2 * 24
    assert any(line.startswith(f"24 {members[23].name} ") for line in lines[0])
    # the first playbook starts on page 2: its name is its head, under the header band
    assert any(members[0].playbook.name.upper() in line for line in lines[1][:3])


def test_write_keeping_previous(tmp_path):
    from sheets.base.output import write_keeping_previous

    path = tmp_path / "joe.yaml"
    write_keeping_previous(path, b"one\n")
    write_keeping_previous(path, b"one\n")
    assert not (tmp_path / "joe.yaml.bak").exists()  # nothing changed, nothing to keep
    write_keeping_previous(path, b"two\n")
    assert path.read_bytes() == b"two\n" and (tmp_path / "joe.yaml.bak").read_bytes() == b"one\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["joe.yaml", "joe.yaml.bak"]  # no temp files left


def test_save_into_a_file_is_refused(cli, tmp_path):
    target = write(tmp_path, "not a folder\n", "taken.yaml")
    result = cli("playbook", "--random", "--seed", "1", "--save", target)
    assert result.exit_code == 1 and "give a folder" in result.stderr
    assert target.read_text() == "not a folder\n"

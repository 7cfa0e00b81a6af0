"""The Regiment's user files over a campaign (issue 18, item 6): `--save` into a squad that is
already there, `sheets validate` on character and squad files, critical and stabilized, and
the tough and grit totals."""
import hashlib
import json
from pathlib import Path

import pytest
import yaml

from conftest import REPO, beside, pdf_text, text_runs
from regiment_characters import JOE_IN_PLAY

SOLDIER = JOE_IN_PLAY

# Stone cold gives 1-grit; the two advanced improvements add 1 tough and +1 grit.
HARDENED = SOLDIER + """\
improvements: [+1 guts, Fight back, Heavy weapon, Section 8, 1-tough, get +1grit]
"""

OPERATOR = """\
playbook: operator
name: Ada Mercer
rank: S/Sgt
profile: Cool
background: Engineer
stats: {battle: 2, guts: 1, leadership: 0, lucky: 0, tactics: 2}
moves: [Made it through selection, EW]
loadout: SAW
"""


def write(folder: Path, text: str, name: str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def digests(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir()) if p.is_file()}


def as_json(cli, path: Path) -> dict:
    result = cli("playbook", "--character", path, "--json")
    assert result.exit_code == 0, result
    return json.loads(result.stdout)


# -- --save into a folder that holds a squad ------------------------------------------------
EDITED_SQUAD = """\
# The squad of the Ardennes campaign.
designation: 2nd Squad   # named after session one
op: 2
leader: Sgt Haines
members:
  - {first}
  - {second}   # the one with the pocket watch
  - playbook: operator    # written inline
    name: Ada Mercer
    rank: S/Sgt
    profile: Cool
    background: Engineer
    stats: {{battle: 2, guts: 1, leadership: 0, lucky: 0, tactics: 2}}
    moves: [Explosives, EW]
    loadout: SAW
    notes: |
      Came over from the engineers.
# kept: a note at the end
"""


def test_save_into_a_squad_adds_the_new_soldiers_and_keeps_everything_else(cli, tmp_path):
    folder = tmp_path / "squad"
    assert cli("playbook", "--random", "--count", "2", "--seed", "7", "--save", folder, "-o", tmp_path / "a.pdf").exit_code == 0
    first, second = yaml.safe_load((folder / "squad.yaml").read_text())["members"]
    edited = EDITED_SQUAD.format(first=first, second=second)
    (folder / "squad.yaml").write_text(edited)
    (folder / first).write_text((folder / first).read_text().replace("xp: 0", "xp: 3"))  # played since
    before = digests(folder)

    result = cli("playbook", "medic", "--random", "--seed", "8", "--save", folder, "-o", tmp_path / "b.pdf")
    assert result.exit_code == 0, result
    added = sorted(set(digests(folder)) - set(before) - {"squad.yaml.bak"})
    assert len(added) == 1 and f"wrote squad/{added[0]}" in result.stdout
    # the squad file is the user's text with two lines inserted at the end of members, nothing else
    squad = (folder / "squad.yaml").read_text()
    assert squad == edited.replace(
        "      Came over from the engineers.\n",
        "      Came over from the engineers.\n"
        "  # added: rolled with seed 8 by `sheets playbook medic --random --seed 8`\n"
        f"  - {added[0]}\n")
    assert (folder / "squad.yaml.bak").read_text() == edited
    # every member file that was there is untouched; the new soldier is a Medic rolled with seed 8
    assert {k: v for k, v in digests(folder).items() if k in before and k != "squad.yaml"} == \
        {k: v for k, v in before.items() if k != "squad.yaml"}
    assert yaml.safe_load((folder / added[0]).read_text())["playbook"] == "medic"
    # and the squad reads as it did, plus the new member
    assert cli("validate", folder / "squad.yaml").stdout == "content is valid; 1 file valid\n"
    result = cli("squad", folder / "squad.yaml", "-o", tmp_path / "s.pdf")
    assert result.exit_code == 0, result
    roster = pdf_text(tmp_path / "s.pdf").split("\n")
    assert "SQUAD DESIGNATION 2nd Squad OP 2 SQUAD LEADER Sgt Haines" in roster
    names = [yaml.safe_load((folder / n).read_text())["name"] for n in (first, second, added[0])]
    for n, name in zip((1, 2, 4), names):
        assert any(line.startswith(f"{n} {name} ") for line in roster), (n, name)
    assert any(line.startswith("3 Ada Mercer Operator ") for line in roster)


def test_the_same_roll_saved_twice_never_overwrites_a_soldier(cli, tmp_path):
    folder = tmp_path / "squad"
    assert cli("playbook", "soldier", "--random", "--seed", "1", "--save", folder).exit_code == 0
    (name,) = yaml.safe_load((folder / "squad.yaml").read_text())["members"]
    (folder / name).write_text((folder / name).read_text().replace("wounds: 0", "wounds: 2"))
    kept = (folder / name).read_bytes()
    assert cli("playbook", "soldier", "--random", "--seed", "1", "--save", folder).exit_code == 0
    twin = name.replace(".yaml", "-2.yaml")
    assert yaml.safe_load((folder / "squad.yaml").read_text())["members"] == [name, twin]
    assert (folder / name).read_bytes() == kept and not (folder / f"{name}.bak").exists()
    assert "wounds: 0" in (folder / twin).read_text()


def test_save_refuses_to_add_to_a_squad_with_problems_and_writes_nothing(cli, tmp_path):
    folder = tmp_path / "squad"
    assert cli("playbook", "soldier", "--random", "--seed", "1", "--save", folder).exit_code == 0
    squad = folder / "squad.yaml"
    squad.write_text(squad.read_text() + "  - nobody.yaml\n")
    before = digests(folder)
    result = cli("playbook", "soldier", "--random", "--seed", "2", "--save", folder, "-o", tmp_path / "x.pdf")
    assert result.exit_code == 1
    assert f"--save {folder}: the squad already there has problems; fix them and roll again (nothing was " \
           f"written):\n  {squad}:9: members[1]: character file 'nobody.yaml' not found" in result.stderr
    assert "Traceback" not in result.stderr
    assert digests(folder) == before and not (tmp_path / "x.pdf").exists()


SHAPES = {
    "block": ("members:\n  - a.yaml\n  - b.yaml   # b\n", "members:\n  - a.yaml\n  - b.yaml   # b\n  # added\n  - c.yaml\n"),
    "block at column 0": ("members:\n- a.yaml\nop: 1\n", "members:\n- a.yaml\n# added\n- c.yaml\nop: 1\n"),
    "flow": ("op: 1\nmembers: [a.yaml, b.yaml]  # two\n", "op: 1\nmembers: [a.yaml, b.yaml, c.yaml]  # two\n"),
    "no newline at the end": ("members:\n  - a.yaml", "members:\n  - a.yaml\n  # added\n  - c.yaml\n"),
    "windows line ends": ("members:\r\n  - a.yaml\r\nop: 1\r\n", "members:\r\n  - a.yaml\r\n  # added\r\n  - c.yaml\r\nop: 1\r\n"),
    "inline member last": ("members:\n  - a.yaml\n  -\n    playbook: x\n    notes: |\n      two\n      lines\n\nop: 1\n",
                           "members:\n  - a.yaml\n  -\n    playbook: x\n    notes: |\n      two\n      lines\n"
                           "  # added\n  - c.yaml\n\nop: 1\n"),
    "kept trailing lines": ("members:\n  - notes: |+\n      kept\n\n", "members:\n  - notes: |+\n      kept\n\n"
                            "  # added\n  - c.yaml\n"),
}


@pytest.mark.parametrize("shape", SHAPES)
def test_members_are_added_in_the_files_own_style(shape):
    from sheets.games.regiment.saving import _insert_members
    from sheets.library.yaml_source import parse_yaml

    text, expected = SHAPES[shape]
    assert _insert_members(text, parse_yaml(text, "squad.yaml", keep_node=True).node, ["c.yaml"], "added") == expected
    assert yaml.safe_load(expected)["members"][-1] == "c.yaml"


# -- sheets validate: character and squad files ------------------------------------------------
def test_validate_checks_character_and_squad_files(cli, tmp_path):
    examples = sorted((REPO / "content/regiment/characters").glob("*.yaml"))
    write(tmp_path, SOLDIER, "chars/joe.yaml")
    squad = write(tmp_path, "designation: 3rd Squad\nmembers:\n  - chars/joe.yaml\n", "squad.yaml")
    result = cli("validate", *examples, tmp_path / "chars/joe.yaml", squad)
    assert result.exit_code == 0, result
    assert result.stdout == f"content is valid; {len(examples) + 2} files valid\n"


def test_validate_names_each_problem_in_its_own_file(cli, tmp_path):
    joe = write(tmp_path, SOLDIER.replace("loadout: SMG", "loadout: Bazooka"), "chars/joe.yaml")
    squad = write(tmp_path, "op: 9\nmembers:\n  - chars/joe.yaml\n  - chars/nobody.yaml\n", "squad.yaml")
    result = cli("validate", squad)
    assert result.exit_code == 1 and "Traceback" not in result.stderr
    assert f"  {squad}:1: op: " in result.stderr  # the squad's own field, then nothing else from it
    assert cli("validate", write(tmp_path, "op: 1\nmembers:\n  - chars/joe.yaml\n  - chars/nobody.yaml\n",
                                 "squad.yaml")).stderr == (
        "error: 2 problems found:\n"
        f"  {joe}:8: loadout: unknown loadout 'Bazooka' for a Soldier; choose one of: Battle Rifle, SMG, "
        "Automatic Rifle, LMG\n"
        f"  {squad}:4: members[1]: character file 'chars/nobody.yaml' not found (looked for "
        f"{tmp_path / 'chars/nobody.yaml'})\n")
    result = cli("validate", joe)
    assert result.exit_code == 1 and f"{joe}:8: loadout: unknown loadout 'Bazooka'" in result.stderr


def test_validate_leaves_other_games_files_and_names_unknown_ones(cli, tmp_path):
    team = REPO / "content/wotw/examples/german-team.yaml"
    assert cli("validate", team).stdout == "content is valid; 1 file valid\n"
    stray = write(tmp_path, "members:\n  - {name: Otto, weapon: Rifle}\n", "stray.yaml")
    result = cli("validate", stray)
    assert result.exit_code == 1 and f"{stray}:1: not a file any game knows" in result.stderr


# -- critical and stabilized -----------------------------------------------------------------------
def test_a_stabilized_soldier_is_not_critical(cli, tmp_path, regiment):
    from sheets.games.regiment.sheets import roster_context
    from sheets.games.regiment.squads import load_squad

    path = write(tmp_path, SOLDIER.replace("stress: 1", "stress: 4").replace("[suppressed]", "[suppressed, stabilized]"),
                 "joe.yaml")
    assert as_json(cli, path)["conditions"] == ["suppressed", "stabilized"]
    assert cli("playbook", "--character", path, "-o", tmp_path / "joe.pdf").exit_code == 0
    runs = text_runs(tmp_path / "joe.pdf")
    ticks = {t: any(r[2] == "✔" and abs(r[1] - y) <= 4 and 0 < x - r[0] <= 15 for r in runs)
             for x, y, t in runs if t in ("Suppressed", "Pinned", "Critical", "Stabilized")}
    assert ticks == {"Suppressed": True, "Pinned": False, "Critical": False, "Stabilized": True}
    squad = write(tmp_path, "members: [joe.yaml]\n", "squad.yaml")
    (row, *_) = roster_context(regiment, load_squad(squad, regiment.data))["rows"]
    assert row["conditions"] == ["suppressed", "stabilized"]  # the roster's CRIT box stays open
    # the marks alone (no stabilized) make him critical again
    path.write_text(path.read_text().replace(", stabilized", ""))
    assert as_json(cli, path)["conditions"] == ["suppressed", "critical"]


def test_critical_may_be_written_when_the_marks_allow_it(cli, tmp_path):
    path = write(tmp_path, SOLDIER.replace("[suppressed]", "[critical, suppressed]"), "joe.yaml")
    assert as_json(cli, path)["conditions"] == ["critical", "suppressed"]  # once, as written
    assert cli("validate", path).exit_code == 0


def test_validate_refuses_critical_the_marks_do_not_allow(cli, tmp_path):
    path = write(tmp_path, SOLDIER.replace("wounds: 3", "wounds: 2").replace("[suppressed]", "[critical]"), "joe.yaml")
    result = cli("validate", path)
    assert result.exit_code == 1
    assert result.stderr == (
        f"error: 1 problem found:\n  {path}:11: conditions[0]: critical needs 3+ wounds or 4+ stress, and this "
        "file marks 2 wounds, 1 stress (The Regiment's rules, Recovery & healing: \"When you have 3+ wounds or 4+ stress, "
        "you have the critical condition ... until you're stabilized and the condition is removed\")\n")


# -- tough and grit ----------------------------------------------------------------------------
def test_json_totals_tough_and_grit_with_their_sources(cli, tmp_path):
    data = as_json(cli, write(tmp_path, HARDENED, "joe.yaml"))
    assert (data["tough"], data["grit"]) == (1, 2)
    assert data["tough_from"] == [{"source": "1 tough", "kind": "improvement", "value": 1}]
    assert data["grit_from"] == [{"source": "Stone cold", "kind": "move", "value": 1},
                                 {"source": "+1 grit", "kind": "improvement", "value": 1}]
    data = as_json(cli, write(tmp_path, OPERATOR, "ada.yaml"))
    assert (data["tough"], data["grit"]) == (1, 1)
    assert data["tough_from"] == [{"source": "Kevlar vest and helmet", "kind": "gear", "value": 1}]
    assert data["grit_from"] == [{"source": "Made it through selection", "kind": "move", "value": 1}]
    data = as_json(cli, REPO / "content/regiment/characters/walter-brzezinski.yaml")
    assert (data["tough"], data["grit"], data["tough_from"], data["grit_from"]) == (0, 0, [], [])


def test_a_move_taken_as_an_improvement_counts_too(cli, tmp_path):
    text = SOLDIER.replace("[Battle tested, Stone cold]", "[Battle tested, Fight back]") + "improvements: [Stone cold]\n"
    data = as_json(cli, write(tmp_path, text, "joe.yaml"))
    assert (data["grit"], data["grit_from"]) == (1, [{"source": "Stone cold", "kind": "move", "value": 1}])


def test_the_playbook_prints_the_totals_and_where_they_come_from(cli, tmp_path):
    for text, tough, grit, note in [
        (HARDENED, "1", "2", "tough 1 (improvement +1) · grit 2 (Stone cold move +1, improvement +1)"),
        (OPERATOR.replace("loadout: SAW", "loadout: SAW\nimprovements: [+1 guts, Explosives, Medic, Sniper, 1 tough, +1 grit]"),
         "2", "2", "tough 2 (Kevlar vest and helmet +1, improvement +1) · grit 2 (Made it through selection move +1, "
                   "improvement +1)"),
    ]:
        out = tmp_path / "sheet.pdf"
        assert cli("playbook", "--character", write(tmp_path, text, "c.yaml"), "-o", out).exit_code == 0
        runs = text_runs(out)
        assert (beside(runs, "TOUGH"), beside(runs, "GRIT")) == (tough, grit)
        assert note in " ".join(pdf_text(out).split())  # the whole note, wrapped but never cut


def test_a_blank_playbook_leaves_the_boxes_empty(cli, tmp_path):
    assert cli("playbook", "operator", "-o", tmp_path / "blank.pdf").exit_code == 0
    runs = text_runs(tmp_path / "blank.pdf")
    for label in ("TOUGH", "GRIT"):
        x, y, _ = next(r for r in runs if r[2] == label)
        assert not [t for rx, ry, t in runs if abs(ry - y) <= 4 and 0 < rx - x <= 40], label
    assert "Kevlar vest and helmet +1" not in pdf_text(tmp_path / "blank.pdf")


def test_an_insertion_that_would_change_the_squad_is_refused_before_writing(cli, tmp_path, monkeypatch):
    from sheets.games.regiment import saving

    folder = tmp_path / "squad"
    assert cli("playbook", "soldier", "--random", "--seed", "1", "--save", folder).exit_code == 0
    before = digests(folder)
    monkeypatch.setattr(saving, "_insert_members", lambda text, root, names, comment: text + "op: 3\n")
    result = cli("playbook", "soldier", "--random", "--seed", "2", "--save", folder, "-o", tmp_path / "x.pdf")
    assert result.exit_code == 1 and "Traceback" not in result.stderr
    assert f"cannot add to {folder / 'squad.yaml'} without changing what else it says" in result.stderr
    assert digests(folder) == before and not (tmp_path / "x.pdf").exists()

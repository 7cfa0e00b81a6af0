"""The main job: `sheets kit` builds every section into one folder."""
import re

from conftest import beside, card_part, pages, pdf_text, text_runs


def test_kit_builds_every_section(whole_kit, library):
    from sheets.games.wotw.sheets import campaign_record

    result, kit = whole_kit, whole_kit.folder
    for name in ["regiment-soldier.pdf", "regiment-medic.pdf", "regiment-sniper.pdf", "regiment-operator.pdf",
                 "regiment-random-squad.pdf", "regiment-reference.pdf", "wotw-log-sheet.pdf", "wotw-reference.pdf",
                 "regiment-trackers.pdf", "wotw-tokens.pdf"]:
        assert (kit / name).is_file(), name
        assert f"{name}" in result.stdout
    for set_id in library.game("regiment").card_sets:  # each deck in a part of its own or one it shares
        assert card_part(kit, "regiment", set_id).name in result.stdout
    assert pages(kit / "regiment-random-squad.pdf") == 8
    assert pages(kit / "regiment-trackers.pdf") == 3  # NPC strength tracks, vehicle damage, countdown clocks
    squad = pdf_text(kit / "regiment-random-squad.pdf")
    assert "soldier 4 of 4" in squad and "seed 7" not in squad  # the seed is no player's business
    assert "dice seed 7" in result.stdout
    log = pdf_text(kit / "wotw-log-sheet.pdf")
    assert "seed 7" not in log and "France 1944" in log
    # the audit trail reads as dice: "Approach: d6 2 → 4 rolls on the Steps table; Steps: d66 1·4 → 14: ..."
    assert re.search(r"Approach: d6 \d → \d rolls on the Steps table; Steps: d66 \d·\d → \d\d: ", " ".join(log.split()))
    assert beside(text_runs(kit / "wotw-log-sheet.pdf"), "MISSION", occurrence=0) == "1"
    record = pdf_text(kit / "wotw-campaign-record.pdf")  # blank: boxes, no values
    assert "CAMPAIGN RECORD" in record and "XP AND CP LEDGER" in record and "Grenadier (Veteran)" in record
    # the blank record: its page, and the continuation sheet of missions and ledger lines if it has one
    blank = library.game("wotw")
    continued = campaign_record(blank, None, "x.pdf").context["continuation"] is not None
    assert pages(kit / "wotw-campaign-record.pdf") == 1 + continued and "PLAYED" not in record


def test_kit_is_deterministic_and_cached(cli, tmp_path):
    assert cli("kit", "--seed", "5", "--game", "regiment", "-o", tmp_path / "a").exit_code == 0
    kit = tmp_path / "a"
    first = {p.name: p.read_bytes() for p in kit.glob("*.pdf")}
    stamps = {p.name: p.stat().st_mtime_ns for p in kit.iterdir() if p.is_file()}
    parts = len(first) - 1  # kit.pdf is assembled from the parts, not a part itself
    files = parts + 2  # and manifest.json
    # the same request again, nothing changed: up to date, no file is written again
    again = cli("kit", "--seed", "5", "--game", "regiment", "-o", kit)
    assert again.exit_code == 0
    assert (f"kit: {files} files ({parts} parts, manifest.json, kit.pdf; up to date: nothing changed since "
            f"the last build") in again.stdout
    assert "unchanged a/kit.pdf" in again.stdout
    assert {p.name: p.stat().st_mtime_ns for p in kit.iterdir() if p.is_file()} == stamps
    # an output file deleted or edited: built again, every part taken from the cache, same bytes
    (kit / "kit.pdf").unlink()
    (kit / "regiment-soldier.pdf").write_bytes(b"scribbled over")
    rebuilt = cli("kit", "--seed", "5", "--game", "regiment", "-o", kit)
    assert rebuilt.exit_code == 0
    assert f"kit: {files} files ({parts} parts, manifest.json, kit.pdf; {parts} parts unchanged, taken from the cache)" \
        in rebuilt.stdout
    assert {p.name: p.read_bytes() for p in kit.glob("*.pdf")} == first
    # another seed is another kit
    other = cli("kit", "--seed", "6", "--game", "regiment", "-o", kit)
    assert other.exit_code == 0 and "up to date" not in other.stdout and "dice seed 6" in other.stdout
    # a fresh folder without cache renders again: still the same bytes
    assert cli("kit", "--seed", "5", "--game", "regiment", "--no-cache", "-o", tmp_path / "b").exit_code == 0
    assert {p.name: p.read_bytes() for p in (tmp_path / "b").glob("*.pdf")} == first


def test_kit_is_built_again_when_content_or_options_change(cli, tmp_path):
    import shutil

    from sheets.base import paths

    content = tmp_path / "content"
    shutil.copytree(paths.content_dir(), content)
    args = ["kit", "--seed", "3", "--game", "platoon", "--content", content, "-o", tmp_path / "k"]
    assert cli(*args).exit_code == 0
    assert "up to date" in cli(*args).stdout
    assert "up to date" not in cli(*args, "--ink-saver").stdout  # other options: another kit
    assert "up to date" in cli(*args, "--ink-saver").stdout
    # any content file edited (even a comment): the sources changed, so the kit is built again
    game_file = content / "platoon" / "game.yaml"
    game_file.write_text(game_file.read_text() + "\n# a homebrew note\n")
    assert "up to date" not in cli(*args, "--ink-saver").stdout
    # a random kit (no --seed) is new dice every time: never up to date
    unseeded = ["kit", "--game", "platoon", "--content", content, "-o", tmp_path / "r"]
    assert cli(*unseeded).exit_code == 0
    assert "up to date" not in cli(*unseeded).stdout


def test_kit_unknown_game(cli, tmp_path):
    result = cli("kit", "--game", "chess", "-o", tmp_path / "k")
    assert result.exit_code == 1
    assert "unknown game 'chess'; choose one of: downrange, masscombat, platoon, regiment, wotw" in result.stderr
    assert not (tmp_path / "k").exists()


def test_a_kit_from_your_own_squad_of_two_games(cli, tmp_path):
    """`--squad FILE`: the filled playbooks and one packet per character, named after them, counted as
    they are; `--game` repeated: both sections, one contents page; an edited member: built again."""
    import re
    import subprocess

    assert cli("playbook", "--random", "--count", "3", "--seed", "7", "--save", tmp_path / "my-squad").exit_code == 0
    squad = tmp_path / "my-squad" / "squad.yaml"
    members = re.findall(r"^  - (\S+\.yaml)$", squad.read_text(encoding="utf-8"), re.M)
    assert len(members) == 3
    for member, name in zip(members, ("Łukasz Żółkiewski", "Ahmād Karimi")):
        path = tmp_path / "my-squad" / member
        path.write_text(re.sub(r"^name: .*$", f"name: {name}", path.read_text(encoding="utf-8"), flags=re.M),
                        encoding="utf-8")
    args = ["kit", "--seed", "7", "--game", "regiment", "--game", "wotw", "--squad", squad, "--players", "3",
            "-o", tmp_path / "kit"]
    result = cli(*args)
    assert result.exit_code == 0, result
    kit = tmp_path / "kit"
    packets = sorted(p.name for p in kit.glob("player-*.pdf"))
    assert packets == sorted(["player-lukasz-zolkiewski.pdf", "player-ahmad-karimi.pdf",
                              f"player-{members[2].removesuffix('.yaml')}.pdf"])
    packet = " ".join(pdf_text(kit / "player-lukasz-zolkiewski.pdf").split())
    # the packet is the character's, footers too: the moves pages name them, never "player N"
    assert "Łukasz Żółkiewski" in packet and "moves · Łukasz Żółkiewski · warsheets" in packet, packet[-400:]
    assert not re.search(r"\bplayer \d", packet, re.I), re.findall(r".{30}\bplayer \d.{30}", packet, re.I)
    assert pages(kit / "regiment-your-squad.pdf") == 6 and not (kit / "regiment-random-squad.pdf").exists()
    assert (kit / "wotw-log-sheet.pdf").is_file() and not (kit / "platoon-reference.pdf").exists()
    contents = " ".join(subprocess.run(["pdftotext", "-f", "1", "-l", "1", str(kit / "kit.pdf"), "-"],
                                       capture_output=True, text=True, check=True).stdout.split())
    assert "The Regiment · The Way of the Warrior · a4 · dice seed 7" in contents
    assert "3 filled playbooks" in contents and "4 filled playbooks" not in contents
    # (a cell wraps after "lukasz-", and pdftotext joins the lines without it, or reads the next
    # cell's "4 pages" between them)
    assert re.search(r"Łukasz Żółkiewski \(player-lukasz-?(?: ?4 pages )?zolkiewski\.pdf\)", contents), contents
    assert "up to date" in cli(*args).stdout
    last = tmp_path / "my-squad" / members[2]
    last.write_text(last.read_text(encoding="utf-8") + "# after session one\n", encoding="utf-8")
    assert "up to date" not in cli(*args).stdout  # a member file is part of the request
    refused = cli("kit", "--squad", squad, "--players", "2", "--game", "regiment", "-o", tmp_path / "other")
    assert refused.exit_code == 1
    assert "--players 2: the squad has 3 characters, one packet each" in refused.stderr
    assert cli("kit", "--game", "regiment", "--game", "chess", "-o", tmp_path / "other").exit_code == 1


def test_file_names_keep_a_readable_form_of_any_name():
    from sheets.library.access import slug

    assert [slug(n) for n in ("Łukasz Żółkiewski", "李雷", "Ahmād", "Jürgen Groß", "O'Brien", "", "!!")] == [
        "lukasz-zolkiewski", "li-lei", "ahmad", "jurgen-gross", "o-brien", "sheet", "sheet"]

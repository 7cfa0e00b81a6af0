"""Trust and text (issue 50, item 8): a sheets.toml is bounded and obeyed only when the user (or
root) owns it; stacked combining marks print within their letter's line; a campaign file's numbers
are whole numbers as written, with entries and without; a team's `rolled:` is what its dice roll;
every write of a user's file, undo included, goes through a link to its target and keeps the
file's line endings."""
from __future__ import annotations

import os
import unicodedata

import fitz
import pytest
import yaml

from sheets.base import config, limits
from sheets.pipeline import rendering

OTHER_UID = 4242


def _owned_by_someone_else(path, monkeypatch) -> None:
    """`path` as another user's: given to another uid when the tests run as root, else the tests
    become another user (os.getuid) while the file stays theirs."""
    if os.getuid() == 0:
        os.chown(path, OTHER_UID, OTHER_UID)
    else:
        real = os.getuid()
        monkeypatch.setattr(os, "getuid", lambda: real + 1)


# -- sheets.toml --------------------------------------------------------------------------------

def test_a_sheets_toml_of_another_user_above_is_ignored_in_one_line(cli, tmp_path, monkeypatch):
    shared = tmp_path / "shared"
    (shared / "mine").mkdir(parents=True)
    toml = shared / "sheets.toml"
    toml.write_text('paper = "letter"\noutput = "theirs"\n', encoding="utf-8")
    monkeypatch.chdir(shared / "mine")
    obeyed = cli("config")
    assert obeyed.exit_code == 0 and obeyed.stderr == ""
    assert "letter" in obeyed.stdout.splitlines()[0]  # the user's own file is obeyed
    _owned_by_someone_else(toml, monkeypatch)
    config._ignored.clear()
    shown = cli("config")
    assert shown.exit_code == 0, shown
    note, = shown.stderr.splitlines()
    assert note.startswith("note: ") and str(toml) in note and "ignored" in note and "another user" in note
    settings = {line.split()[0]: line for line in shown.stdout.splitlines()[:len(config.KEYS)]}
    assert settings["paper"].split()[1] == "a4" and settings["output"].split()[1] == "./output"
    # said once a run, however many times the settings are read
    assert config.in_force(shared / "mine")["paper"].source == "built-in default"
    printed = cli("tokens", "--help")
    assert printed.exit_code == 0 and printed.stderr == ""


def test_a_sheets_toml_too_big_is_one_line_and_exit_1(cli, tmp_path):
    (tmp_path / "sheets.toml").write_text('paper = "letter"\n' + ("#" * 99 + "\n") * (config.MAX_BYTES // 99),
                                          encoding="utf-8")
    assert (tmp_path / "sheets.toml").stat().st_size > config.MAX_BYTES
    result = cli("config")
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [f"error: sheets.toml: is more than the {config.MAX_BYTES:,} bytes "
                                          f"a sheets.toml may have"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["sheets.toml"]


def test_config_set_through_a_link_keeps_the_link_and_crlf(cli, tmp_path):
    user = config.user_config_file()
    user.parent.mkdir(parents=True, exist_ok=True)
    kept = tmp_path / "dotfiles" / "sheets.toml"
    kept.parent.mkdir()
    kept.write_bytes(b'# mine\r\npaper = "a4"\r\n')
    user.unlink(missing_ok=True)
    user.symlink_to(kept)
    try:
        assert cli("config", "set", "paper", "letter").exit_code == 0
        assert cli("config", "set", "back_offset", "1,-0.5").exit_code == 0
        assert user.is_symlink() and user.resolve() == kept.resolve()
        assert kept.read_bytes() == b'# mine\r\npaper = "letter"\r\nback_offset = "1,-0.5"\r\n'
    finally:
        user.unlink()


# -- combining marks ----------------------------------------------------------------------------

def _marks_per_letter(text: str) -> int:
    most = run = 0
    for ch in text:
        run = run + 1 if unicodedata.category(ch) in ("Mn", "Me") else 0
        most = max(most, run)
    return most


def test_within_letters_composes_and_caps_marks():
    zalgo = "Z" + "".join(chr(0x300 + i % 0x70) for i in range(50))
    assert _marks_per_letter(rendering.within_letters(zalgo)) == rendering.MAX_MARKS
    assert rendering.within_letters("Z" + zalgo[1:]).startswith("Z")
    for kept in ("Việt", "ค่ะ", "1\ufe0f\u20e3", "plain ASCII"):  # what writing needs is left as it is
        assert rendering.within_letters(kept) == unicodedata.normalize("NFC", kept)
    assert rendering.within_letters("e\u0301") == "é"


def _ink_bands(page: fitz.Page, clip: fitz.Rect) -> list[tuple[int, int]]:
    """The runs of rows with ink in `clip` (top and bottom row of each, at 300 dpi)."""
    pix = page.get_pixmap(dpi=300, clip=clip, colorspace=fitz.csGRAY)
    rows = [any(pix.samples[y * pix.stride + x] < 160 for x in range(pix.width)) for y in range(pix.height)]
    bands, start = [], None
    for y, inked in enumerate([*rows, False]):
        if inked and start is None:
            start = y
        elif not inked and start is not None:
            bands.append((start, y - 1))
            start = None
    return bands


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_fifty_stacked_marks_stay_in_their_line(cli, tmp_path, paper):
    assert cli("new", "game", "zz", "--content", "c").exit_code == 0
    reference = tmp_path / "c" / "zz" / "reference.yaml"
    zalgo = "Z" + "".join(chr(0x300 + i % 0x70) for i in range(50))
    text = reference.read_text(encoding="utf-8")
    first = text.index("      - p: ")
    reference.write_text(text[:first] + f'      - p: "Above here and there."\n      - p: "Mark: {zalgo} end"\n'
                         f'      - p: "Below here and there."\n' + text[first:], encoding="utf-8")
    assert cli("validate", "--content", "c").exit_code == 0
    printed = cli("reference", "zz", "--content", "c", "--paper", paper, "-o", "z.pdf")
    assert printed.exit_code == 0, printed
    with fitz.open(tmp_path / "z.pdf") as pdf:
        page = pdf[0]
        mark, = page.search_for("Mark:")
        above, = page.search_for("Above here")
        below, = page.search_for("Below here")
        # the column of the letter (just right of "Mark:"), from the line above's top to the line below's bottom
        column = fitz.Rect(mark.x1 + 1, above.y0, mark.x1 + 8, below.y1)
        bands = _ink_bands(page, column)
    assert len(bands) == 3, bands  # three lines, each its own: no mark runs into the next one


# -- campaign files: whole numbers, claims ------------------------------------------------------

@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """A campaign played through the CLI: a rolled team, a mission, a debrief, an adjustment."""
    from typer.testing import CliRunner

    from sheets.cli import app

    folder = tmp_path_factory.mktemp("played")
    path = folder / "ww.yaml"
    for args in (["new", "campaign", str(path), "--nation", "german", "--theatre", "france-1944", "--random",
                  "--seed", "4"],
                 ["campaign", "mission", str(path), "--seed", "3", "-o", str(folder / "m.pdf")],
                 ["campaign", "debrief", str(path), "--outcome", "success", "--dice", "5"],
                 ["campaign", "adjust", str(path), "--reason", "house", "--xp", "1", "--grenades", "Brandt=3"]):
        result = CliRunner().invoke(app, args)
        assert result.exit_code == 0, result.output
    return path.read_text(encoding="utf-8")


def _whole_numbers(data, where=()):
    """Every place in the file's data that holds a whole number (not a boolean)."""
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _whole_numbers(value, (*where, key))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from _whole_numbers(value, (*where, i))
    elif isinstance(data, int) and not isinstance(data, bool):
        yield where, data


def _set(data, where, value):
    for key in where[:-1]:
        data = data[key]
    data[where[-1]] = value


def _refused(cli, tmp_path, data, *said, change: bool = True):
    """`validate` refuses the file (exit 1, each `said` in its message) and, with `change`, a command
    that would write it refuses too, leaving the file as it was and nothing beside it."""
    path = tmp_path / "c.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
    before = path.read_bytes()
    checked = cli("validate", "c.yaml")
    assert checked.exit_code == 1, (said, checked)
    problems = [line for line in checked.stderr.splitlines()[1:]]
    assert len(problems) >= 1 and all(s in checked.stderr for s in said), (said, checked.stderr)
    if change:
        changed = cli("campaign", "adjust", "c.yaml", "--reason", "x", "--xp", "1")
        assert changed.exit_code == 1, changed
        assert path.read_bytes() == before and sorted(p.name for p in tmp_path.iterdir()
                                                      if p.name.startswith("c.yaml")) == ["c.yaml"]
    return problems


@pytest.mark.parametrize("with_entries", [True, False], ids=["with-entries", "without-entries"])
def test_a_campaign_files_numbers_are_whole_numbers_as_written(cli, tmp_path, played, with_entries):
    data = yaml.safe_load(played)
    if not with_entries:
        del data["entries"]
    checked = cli("validate", _write(tmp_path / "ok.yaml", data))
    assert checked.exit_code == 0, checked
    places = list(_whole_numbers(data))
    assert len(places) > 10
    for i, (where, number) in enumerate(places):
        # each place given one of the three forgeries in turn (each forgery at a third of the places)
        forged = (True, str(number), float(number))[i % 3]
        bad = yaml.safe_load(yaml.safe_dump(data))
        _set(bad, where, forged)
        field = ".".join(str(k) if isinstance(k, str) else f"[{k}]" for k in where).replace(".[", "[")
        problems = _refused(cli, tmp_path, bad, field, "whole number", change=i < 3)
        assert any(p.strip().startswith("c.yaml:") and field in p for p in problems), (where, forged, problems)


def _write(path, data) -> str:
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return path.name


def test_a_rolled_team_is_what_its_dice_roll(cli, tmp_path, played):
    data = yaml.safe_load(played)
    new = data["entries"][0]
    assert new["rolled"] == "seed 4"
    for rolled in ("seed 5", "by hand", "seed 99999999999999", "dice 1,2,3"):
        forged = yaml.safe_load(yaml.safe_dump(data))
        forged["entries"][0]["rolled"] = rolled
        _refused(cli, tmp_path, forged, "entries[0]", "rolled")
    # a man of the rolled team swapped for another as dear: as legal, but not what seed 4 rolled
    swapped = yaml.safe_load(yaml.safe_dump(data))
    team = swapped["entries"][0]["team"]
    team[0], team[1] = team[1], team[0]
    _refused(cli, tmp_path, swapped, "entries[0]", "is not what seed 4 rolls")
    renamed = yaml.safe_load(yaml.safe_dump(data))  # names are flavour: renamed in both, still valid
    renamed["entries"][0]["team"][2]["name"] = "Otto"
    renamed["team"][2]["name"] = "Otto"
    assert cli("validate", _write(tmp_path / "renamed.yaml", renamed)).exit_code == 0


def test_a_missions_seed_is_what_it_rolls_without_entries(cli, tmp_path, played):
    data = yaml.safe_load(played)
    del data["entries"]
    data["missions"][0]["seed"] = 4
    _refused(cli, tmp_path, data, "missions[0]")


@pytest.mark.parametrize("seed", [-3, limits.MAX_SEED + 1])
def test_a_stored_seed_is_one_a_command_could_have_rolled(cli, tmp_path, played, seed):
    data = yaml.safe_load(played)
    mission = next(i for i, e in enumerate(data["entries"]) if e["do"] == "mission")
    data["entries"][mission]["seed"] = seed
    data["missions"][0]["seed"] = seed
    _refused(cli, tmp_path, data, f"entries[{mission}].seed", change=False)
    del data["entries"]
    _refused(cli, tmp_path, data, "missions[0].seed", change=False)


# -- writes: through links, line endings kept ---------------------------------------------------

def _crlf_only(data: bytes) -> bool:
    return data.count(b"\n") == data.count(b"\r\n") > 0


def test_every_campaign_write_goes_through_the_link_and_keeps_crlf(cli, tmp_path, played):
    target = tmp_path / "kept" / "ww.yaml"
    target.parent.mkdir()
    assert cli("new", "campaign", "fresh.yaml", "--nation", "german", "--theatre", "france-1944", "--random",
               "--seed", "4").exit_code == 0
    original = (tmp_path / "fresh.yaml").read_bytes().replace(b"\n", b"\r\n")  # as a Windows editor saves it
    target.write_bytes(original)
    link = tmp_path / "ww.yaml"
    link.symlink_to(target)
    steps = [("campaign", "adjust", "ww.yaml", "--reason", "house", "--cp", "1"),
             ("campaign", "mission", "ww.yaml", "--seed", "3", "-o", "m.pdf"),
             ("campaign", "debrief", "ww.yaml", "--outcome", "success", "--dice", "5"),
             ("campaign", "spend", "ww.yaml", "--promote", yaml.safe_load(played)["team"][1]["name"])]
    for step in steps:
        done = cli(*step)
        assert done.exit_code == 0, (step, done)
        assert link.is_symlink() and link.resolve() == target.resolve(), step
        assert _crlf_only(target.read_bytes()), step
    undone = cli("campaign", "undo", "ww.yaml", "--steps", str(len(steps)))
    assert undone.exit_code == 0, undone
    assert link.is_symlink() and target.read_bytes() == original  # undo gives the CRLF bytes back
    assert not list(tmp_path.glob("**/*.tmp")) and not (tmp_path / "ww.yaml.bak").exists()


def test_a_squad_saved_into_keeps_its_link_and_crlf(cli, tmp_path):
    assert cli("playbook", "--random", "--seed", "1", "--save", "squad", "-o", "p.pdf").exit_code == 0
    squad = tmp_path / "squad" / "squad.yaml"
    elsewhere = tmp_path / "kept-squad.yaml"
    elsewhere.write_bytes(squad.read_bytes().replace(b"\n", b"\r\n"))  # as a Windows editor saves it
    squad.unlink()
    squad.symlink_to(elsewhere)
    before = elsewhere.read_bytes()
    saved = cli("playbook", "--random", "--seed", "2", "--save", "squad", "-o", "p.pdf")
    assert saved.exit_code == 0, saved
    assert squad.is_symlink() and squad.resolve() == elsewhere.resolve()
    written = elsewhere.read_bytes()
    assert _crlf_only(written) and written.startswith(before.rstrip(b"\r\n"))
    assert len(yaml.safe_load(written)["members"]) == 2
    assert not list(tmp_path.glob("**/*.tmp"))


@pytest.mark.parametrize("command", [("reference", "wotw"), ("mission", "--seed", "1")], ids=["laid-out", "stamped"])
def test_a_pdf_written_to_a_link_goes_to_its_target(cli, tmp_path, command):
    synced = tmp_path / "synced"
    synced.mkdir()
    (synced / "out.pdf").write_bytes(b"")
    (tmp_path / "out.pdf").symlink_to(synced / "out.pdf")
    done = cli(*command, "-o", "out.pdf")
    assert done.exit_code == 0, done
    assert (tmp_path / "out.pdf").is_symlink() and (synced / "out.pdf").read_bytes().startswith(b"%PDF-")
    assert sorted(p.name for p in synced.iterdir()) == ["out.pdf"]

"""The Way of the Warrior campaign file as a ledger: replay, validate, adjust, undo, history, strike, crews."""
from __future__ import annotations

import json
import shutil
import unicodedata
from pathlib import Path

import pytest

from conftest import DATA, pdf_text, squash
from typer.testing import CliRunner

from sheets.cli import app

TEAM = """\
nation: german
members:
  - {name: Hans Weber, quality: Veteran, weapon: SMG}
  - {name: Karl Brandt, quality: Green, weapon: Rifle, medical: true}
  - {name: Otto Lenz, quality: Green, weapon: Rifle}
  - {name: Willi Haas, quality: Green, weapon: Rifle, notes: "radio"}
"""

CREW = """\
nation: german
members:
  - {name: Jan Vogel, quality: Green, weapon: LMG}
  - {name: Emil Roth, quality: Green, weapon: LMG}
  - {name: Paul Busch, quality: Private, weapon: Rifle}
  - {name: Max Lang, quality: Green, weapon: Rifle}
"""

ENGINEERS = """\
nation: german
members:
  - {name: Kurt Keller, quality: Private, weapon: Rifle, engineer: true}
  - {name: Max Lang, quality: Green, weapon: Rifle}
  - {name: Emil Roth, quality: Green, weapon: Rifle}
"""


def new(cli, tmp_path, team: str, *flags: str) -> Path:
    (tmp_path / "team.yaml").write_text(team)
    r = cli("campaign", "new", "ww.yaml", "--nation", "german", "--theatre", "france-1944", "--team", "team.yaml", *flags)
    assert r.exit_code == 0, r
    return tmp_path / "ww.yaml"


def ok(cli, *args: str):
    r = cli("campaign", *args)
    assert r.exit_code == 0, r
    return r


@pytest.fixture(scope="module")
def played_once(tmp_path_factory) -> Path:
    """Two missions: a success (Otto Lenz wounded), an abort (Willi Haas killed), a promotion;
    played once for the module, through the CLI, in a folder of its own."""
    folder = tmp_path_factory.mktemp("played")
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(folder)

        def cli(*args: str):
            result = CliRunner().invoke(app, [str(a) for a in args], catch_exceptions=True)
            if result.exception and not isinstance(result.exception, SystemExit):
                raise result.exception
            return result

        new(cli, folder, TEAM)
        ok(cli, "mission", "ww.yaml", "--seed", "11", "-o", "m1.pdf")
        ok(cli, "debrief", "ww.yaml", "--outcome", "success", "--wounded", "Otto Lenz", "--dice", "5")
        ok(cli, "mission", "ww.yaml", "--seed", "12", "-o", "m2.pdf")
        ok(cli, "debrief", "ww.yaml", "--outcome", "aborted", "--killed", "Willi Haas")
        ok(cli, "spend", "ww.yaml", "--promote", "Otto Lenz")
    return folder


@pytest.fixture
def played(played_once, tmp_path) -> Path:
    """`played_once`'s files (the campaign, its .bak, the team, the mission sheets), copied for one test."""
    for source in played_once.iterdir():
        if source.is_file():
            shutil.copy2(source, tmp_path / source.name)
    return tmp_path / "ww.yaml"


def line_of(path: Path, text: str, after: str = "") -> int:
    lines = path.read_text().splitlines()
    start = next(i for i, s in enumerate(lines) if after in s) if after else 0
    return next(i for i, s in enumerate(lines[start:], start + 1) if text in s)


# -- every hand edit the issue lists is named by `sheets validate` -------------------

HAND_EDITS = [
    # (what is replaced, by what, after which line, the message)
    ("cp: 3", "cp: 99", "", "cp: stored 99, but replaying the entries gives 3 (last set by entry 5, line {entry5}: "
                            "debrief: aborted; killed Willi Haas)"),
    ("xp: 2", "xp: 5", "", "xp: stored 5, but replaying the entries gives 2 (last set by entry 6, line {entry6}: "
                           "spend: promote Otto Lenz)"),
    ("- {after: 1, what: 'mission 1 success: 3 XP (1d3), 2 CP reinforcements', cp: 2, xp: 3}\n", "", "",
     "ledger: stored 4 rows, but replaying the entries gives 5 (last set by entry 6, line {entry6}: spend: promote Otto Lenz)"),
    ("quality: Green", "quality: Veteran", "name: Karl Brandt",
     "team[1].quality: stored 'Veteran', but replaying the entries gives 'Green' (last set by entry 1"),
    ("weapon: Rifle", "weapon: SMG", "name: Karl Brandt",
     "team[1].weapon: stored 'SMG', but replaying the entries gives 'Rifle' (last set by entry 1"),
    ("status: killed", "status: fit", "name: Willi Haas",
     "team[3].status: stored 'fit', but replaying the entries gives 'killed' (last set by entry 5, line {entry5}: "
     "debrief: aborted; killed Willi Haas)"),
    ("xp: 0", "xp: 9", "number: 2",
     "missions[1].xp: stored 9, but replaying the entries gives 0 (last set by entry 4"),
    ("outcome: aborted", "outcome: success", "number: 2",
     "missions[1].outcome: stored 'success', but replaying the entries gives 'aborted' (last set by entry 5"),
]


@pytest.mark.parametrize("old,new_,after,message", HAND_EDITS, ids=["cp", "xp", "ledger-row", "green-veteran",
                                                                    "green-smg", "killed-fit", "mission-xp", "aborted"])
def test_validate_names_each_hand_edit(cli, played, old, new_, after, message):
    assert cli("validate", "ww.yaml").exit_code == 0
    text = played.read_text()
    cut = text.index(after) if after else 0
    assert old in text[cut:]
    played.write_text(text[:cut] + text[cut:].replace(old, new_, 1))
    entries = played.read_text().splitlines()
    start = entries.index("entries:")
    entry = {f"entry{k}": start + 2 + n for k, n in zip(range(1, 7), _entry_offsets(entries[start + 1:]))}
    r = cli("validate", "ww.yaml")
    assert r.exit_code == 1 and "Traceback" not in r.stderr, r
    line = line_of(played, new_, after) if new_ else played.read_text().splitlines().index("ledger:") + 1
    assert f"ww.yaml:{line}: " + message.format(**entry) in r.stderr, r.stderr
    # and no command builds on the edited value: spending refuses the file as it stands
    before = played.read_bytes()
    r = cli("campaign", "spend", "ww.yaml", "--recruit", "Paul Roth", "--quality", "Green", "--weapon", "SMG")
    assert r.exit_code == 1 and played.read_bytes() == before


def _entry_offsets(lines: list[str]) -> list[int]:
    return [i for i, s in enumerate(lines) if s.startswith("- ")]


def test_an_edited_entry_is_refused_by_the_rules_at_its_line(cli, played):
    text = played.read_text()
    played.write_text(text.replace("- {do: spend, promote: Otto Lenz}", "- {do: spend, promote: Willi Haas}"))
    r = cli("validate", "ww.yaml")
    line = line_of(played, "promote: Willi Haas")
    assert r.exit_code == 1 and (f"ww.yaml:{line}: entries[5]: entry 6 (spend: promote Willi Haas) is refused by the "
                                 f"rules: Willi Haas is dead: the dead are not promoted") in r.stderr, r


def test_an_entry_naming_what_the_content_does_not_know_is_located(cli, played):
    played.write_text(played.read_text().replace("- do: new\n  nation: german", "- do: new\n  nation: klingon"))
    r = cli("validate", "ww.yaml")
    line = line_of(played, "- do: new")
    assert r.exit_code == 1 and "Traceback" not in r.stderr, r
    assert f"ww.yaml:{line}: entries[0]: entry 1 (new: klingon team of 4 in france-1944) is refused by the rules: " in r.stderr


# -- undo and history ------------------------------------------------------------------

def test_undo_gives_back_the_earlier_bytes(cli, tmp_path):
    path = new(cli, tmp_path, TEAM)
    versions = [path.read_bytes()]
    for args in (("mission", "ww.yaml", "--seed", "11", "-o", "m1.pdf"),
                 ("debrief", "ww.yaml", "--outcome", "success", "--wounded", "Otto Lenz", "--dice", "5"),
                 ("spend", "ww.yaml", "--promote", "Otto Lenz"),
                 ("adjust", "ww.yaml", "--reason", "field hospital", "--heal", "Otto Lenz")):
        ok(cli, *args)
        versions.append(path.read_bytes())
    r = ok(cli, "undo", "ww.yaml")
    assert "undid 1: adjust: field hospital; now 2 XP and 2 CP saved" in r.stdout
    assert path.read_bytes() == versions[3] and (tmp_path / "ww.yaml.bak").read_bytes() == versions[4]
    ok(cli, "undo", "ww.yaml", "--steps", "2")
    assert path.read_bytes() == versions[1]
    ok(cli, "undo", "ww.yaml")
    assert path.read_bytes() == versions[0]
    r = cli("campaign", "undo", "ww.yaml")
    assert r.exit_code == 1 and "nothing to undo: the only entry is `new` (delete the file to start again)" in r.stderr
    assert path.read_bytes() == versions[0]


def test_undo_more_than_there_is_is_refused(cli, played):
    before = played.read_bytes()
    r = cli("campaign", "undo", "ww.yaml", "--steps", "6")
    assert r.exit_code == 1 and "--steps 6: the campaign has 5 changes after `new`; undo 1 to 5" in r.stderr
    assert played.read_bytes() == before


def test_history_one_line_per_entry(cli, played):
    r = ok(cli, "history", "ww.yaml")
    assert r.stdout.splitlines() == [
        "  1  before M1  new: german team of 4 in france-1944  ->  0 CP, 0 XP",
        "  2  M1         mission (seed 11)  ->  0 CP, 0 XP",
        "  3  after M1   debrief: success (dice 5); wounded Otto Lenz  ->  2 CP, 3 XP",
        "  4  M2         mission (seed 12)  ->  2 CP, 3 XP",
        "  5  after M2   debrief: aborted; killed Willi Haas  ->  3 CP, 3 XP",
        "  6  after M2   spend: promote Otto Lenz  ->  3 CP, 2 XP",
    ]


# -- adjust ----------------------------------------------------------------------------

def test_adjust_is_an_entry_with_its_reason_in_the_record(cli, played, tmp_path):
    r = ok(cli, "adjust", "ww.yaml", "--reason", "field hospital (house rule)", "--heal", "Otto Lenz", "--cp", "1")
    assert "adjusted (Otto Lenz healed, +1 CP): field hospital (house rule); now 2 XP and 4 CP saved" in r.stdout
    data = json.loads(cli("campaign", "show", "ww.yaml", "--json").stdout)
    assert data["cp"] == 4 and data["team"][2]["status"] == "fit" and data["team"][2]["history"][-1] == "healed after M2"
    assert data["ledger"][-1] == {"after": 2, "what": "adjusted (Otto Lenz healed, +1 CP): field hospital (house rule)",
                                  "cp": 1, "xp": 0}
    assert cli("validate", "ww.yaml").exit_code == 0
    ok(cli, "show", "ww.yaml", "-o", "record.pdf")
    assert squash("adjusted (Otto Lenz healed, +1 CP): field hospital (house rule) +1") in squash(pdf_text(tmp_path / "record.pdf"))


@pytest.mark.parametrize("args,message", [
    (("--reason", " ", "--cp", "1"), "--reason: say why (it is printed in the record's ledger)"),
    (("--reason", "x"), "adjust what? give --cp, --xp, --heal NAME, --set-state NAME=STATE or --grenades NAME=N"),
    (("--reason", "x", "--heal", "Hans Weber"), "--heal: Hans Weber is fit, not wounded"),
    (("--reason", "x", "--heal", "Willi Haas"), "--heal: Willi Haas is killed, not wounded; a dead man comes back by setting his state to fit"),
    (("--reason", "x", "--xp", "-3"), "--cp/--xp: CP +0, XP -3: the campaign has 3 CP and 2 XP; neither goes below 0"),
    (("--reason", "x", "--set-state", "Otto Lenz=asleep"), "--set-state Otto Lenz=asleep: choose fit, wounded or killed"),
    (("--reason", "x", "--grenades", "Otto Lenz=7"), "7 grenades, but a man carries 4 (5 with Grenadier)"),
])
def test_adjust_refusals_leave_the_file(cli, played, args, message):
    before = played.read_bytes()
    r = cli("campaign", "adjust", "ww.yaml", *args)
    assert r.exit_code == 1 and message in r.stderr and "Traceback" not in r.stderr, r
    assert played.read_bytes() == before


def test_adjust_brings_a_dead_man_back_within_the_rules(cli, played):
    ok(cli, "adjust", "ww.yaml", "--reason", "he was only stunned", "--set-state", "Willi Haas=fit")
    data = json.loads(cli("campaign", "show", "ww.yaml", "--json").stdout)
    assert data["team"][3]["status"] == "fit" and data["team"][3]["history"][-1] == "killed to fit after M2 (adjusted)"


# -- the briefing: strike ----------------------------------------------------------------

def test_strike_during_the_briefing(cli, tmp_path):
    path = new(cli, tmp_path, ENGINEERS, "--engineers")
    r = ok(cli, "mission", "ww.yaml", "--seed", "11", "-o", "m1.pdf")
    assert "your Engineer may strike one step: `sheets campaign strike ww.yaml STEP` (1 to 28)" in r.stdout
    r = ok(cli, "strike", "ww.yaml", "3", "-o", "struck.pdf")
    assert "mission 1: step 3 struck" in r.stdout
    mission = json.loads(cli("campaign", "show", "ww.yaml", "--json").stdout)["missions"][0]
    assert mission["struck_step"] == 3 and mission["track"].split(" > ")[2].endswith("(struck)")
    assert mission["steps"] == 29 and mission["weather"] is None and mission["xp_roll"] is None
    before = path.read_bytes()
    for step, message in (("29", "step 29: choose a step from 1 to 28; the last step is the objective"),
                          ("4", "mission 1: step 3 is struck already; an Engineer removes one step (the rules, optional rule #3)")):
        r = cli("campaign", "strike", "ww.yaml", step)
        assert r.exit_code == 1 and message in r.stderr and path.read_bytes() == before, r
    ok(cli, "debrief", "ww.yaml", "--outcome", "aborted")
    r = cli("campaign", "strike", "ww.yaml", "2")
    assert r.exit_code == 1 and "no mission in progress: the Engineer strikes a step at the end of a mission's briefing" in r.stderr


def test_strike_needs_an_engineer(cli, played):
    ok(cli, "mission", "ww.yaml", "--seed", "13", "-o", "m3.pdf")
    r = cli("campaign", "strike", "ww.yaml", "2")
    assert r.exit_code == 1 and "only a team with an Engineer may strike a step (the rules, optional rule #3" in r.stderr


# -- debrief options that do not apply ----------------------------------------------------

@pytest.mark.parametrize("args,message", [
    (("--outcome", "aborted", "--enemy-hq"), "--enemy-hq: the Enemy HQ's +1 XP comes at the end of a successful mission"),
    (("--outcome", "aborted", "--dice", "5"), "--dice: an aborted mission rolls no XP (the rules, Post-mission debriefing)"),
    (("--outcome", "aborted", "--seed", "5"), "--seed: an aborted mission rolls no XP"),
    (("--outcome", "success", "--dice", "5", "--killed", "Otto Lenz", "--killed", "otto lenz"),
     "Otto Lenz: named twice as killed; name each casualty once (--killed, --wounded)"),
])
def test_debrief_refuses_what_does_not_apply(cli, played, args, message):
    ok(cli, "mission", "ww.yaml", "--seed", "13", "-o", "m3.pdf")
    before = played.read_bytes()
    r = cli("campaign", "debrief", "ww.yaml", *args)
    assert r.exit_code == 1 and message in r.stderr and "Traceback" not in r.stderr, r
    assert played.read_bytes() == before


# -- names --------------------------------------------------------------------------------

@pytest.mark.parametrize("name,message", [
    ("", "a man needs a name: an empty name cannot be printed on the roster or named again"),
    ("  ", "a man needs a name"),
    ("Hans=Weber", "name 'Hans=Weber': '=' cannot be in a name"),
    ("hans weber", "the team already has a man named 'Hans Weber', and 'hans weber' is the same name to the commands"),
])
def test_names_are_checked_when_they_enter(cli, played, name, message):
    before = played.read_bytes()
    r = cli("campaign", "spend", "ww.yaml", "--recruit", name, "--quality", "Green", "--weapon", "Rifle")
    assert r.exit_code == 1 and message in r.stderr and "Traceback" not in r.stderr, r
    assert played.read_bytes() == before


def test_a_name_in_another_normal_form_is_the_same_man(cli, played):
    decomposed = unicodedata.normalize("NFD", "Jürgen Mäkinen")
    ok(cli, "spend", "ww.yaml", "--recruit", decomposed, "--quality", "Green", "--weapon", "Rifle")
    assert "Jürgen Mäkinen" in played.read_text()  # stored composed
    ok(cli, "adjust", "ww.yaml", "--reason", "lost his kit", "--grenades", "Jürgen Mäkinen=2")
    r = cli("campaign", "spend", "ww.yaml", "--recruit", "JÜRGEN MÄKINEN", "--quality", "Green", "--weapon", "Rifle")
    assert r.exit_code == 1 and "already has a man named" in r.stderr


def test_team_file_notes_are_kept(cli, tmp_path):
    path = new(cli, tmp_path, TEAM)
    assert path.read_text().count("notes: radio") == 2  # the team row and the `new` entry
    ok(cli, "mission", "ww.yaml", "--seed", "11", "-o", "m1.pdf")
    assert "WilliHaasGreenfitRifle2/2/14radio" in squash(pdf_text(tmp_path / "m1.pdf"))


# -- crews ---------------------------------------------------------------------------------

def test_a_crew_short_of_a_man(cli, tmp_path):
    path = new(cli, tmp_path, CREW)
    ok(cli, "mission", "ww.yaml", "--seed", "11", "-o", "m1.pdf")
    r = ok(cli, "debrief", "ww.yaml", "--outcome", "success", "--dice", "6", "--killed", "Emil Roth")
    short = ("Jan Vogel: LMG crew one man short; make it whole with one replacement (`sheets campaign spend FILE "
             "--recruit NAME --quality Green --weapon LMG`, 2 CP) or a Private or Veteran rearmed with LMG")
    assert short in r.stdout
    r = cli("validate", "ww.yaml")
    assert r.exit_code == 0 and f"note: ww.yaml: {short}" in r.stdout, r
    ok(cli, "mission", "ww.yaml", "--seed", "12", "-o", "m2.pdf")
    assert "JanVogelGreenfitLMG3/2/24LMGcrewshort" in squash(pdf_text(tmp_path / "m2.pdf"))
    ok(cli, "debrief", "ww.yaml", "--outcome", "aborted")
    ok(cli, "show", "ww.yaml", "-o", "record.pdf")
    assert squash("joined before M1; LMG crew, one man short") in squash(pdf_text(tmp_path / "record.pdf"))
    # a replacement and a new pair: priced as such; one replacement: the pair's 3 CP halved, rounding up
    before = path.read_bytes()
    r = cli("campaign", "spend", "ww.yaml", "--recruit", "A", "--recruit", "B", "--recruit", "C", "--quality", "Green",
            "--weapon", "LMG")
    assert r.exit_code == 1 and path.read_bytes() == before
    assert "recruits cost 5 CP (Green LMG 3 CP per pair, a crew's replacement 2 CP) but the campaign has 3 CP saved" in r.stderr
    r = ok(cli, "spend", "ww.yaml", "--recruit", "Rolf Brandt", "--quality", "Green", "--weapon", "LMG")
    assert "recruited Rolf Brandt (Green LMG, crew replacement); now 3 XP and 1 CP saved" in r.stdout
    r = cli("validate", "ww.yaml")
    assert r.exit_code == 0 and "note:" not in r.stdout
    assert "replaces the missing man of Jan Vogel's LMG crew" in path.read_text()
    r = cli("campaign", "spend", "ww.yaml", "--recruit", "Udo Sauer", "--quality", "Green", "--weapon", "LMG")
    assert r.exit_code == 1 and ("LMG takes 2 men, each his own roster row: name 2 recruits, 1 given; no crew of the team is "
                                 "short of a man (a single replacement joins a crew that lost one) (--recruit A --recruit B)") in r.stderr


def test_a_crew_man_who_may_change_weapon_does(cli, tmp_path):
    new(cli, tmp_path, CREW)
    ok(cli, "mission", "ww.yaml", "--seed", "11", "-o", "m1.pdf")
    ok(cli, "debrief", "ww.yaml", "--outcome", "success", "--dice", "6")
    ok(cli, "spend", "ww.yaml", "--promote", "Jan Vogel")
    r = ok(cli, "spend", "ww.yaml", "--rearm", "Jan Vogel=SMG")
    assert "Jan Vogel now carries SMG" in r.stdout and "Emil Roth: LMG crew one man short" in r.stdout
    # the Private Paul Busch fills the short crew
    r = ok(cli, "spend", "ww.yaml", "--rearm", "Paul Busch=LMG")
    assert "Paul Busch now carries LMG" in r.stdout and "one man short" not in r.stdout
    r = cli("campaign", "spend", "ww.yaml", "--rearm", "Jan Vogel=Mortar")
    assert r.exit_code == 1 and "a Private or Veteran may take Mortar only to fill a crew short of a man" in r.stderr


# -- a file from before the ledger ------------------------------------------------------------

def test_a_todays_format_file_loads_and_is_migrated_on_first_write(cli, tmp_path):
    old = (DATA / "wotw-campaign-today.yaml").read_bytes()
    assert b"entries" not in old
    path = tmp_path / "ww.yaml"
    path.write_bytes(old)
    assert cli("validate", "ww.yaml").exit_code == 0
    data = json.loads(cli("campaign", "show", "ww.yaml", "--json").stdout)
    assert data["cp"] == 2 and data["xp"] == 2 and data["missions"][0]["xp_roll"] == "d6 5 -> 1d3 3 (dice 5)"
    assert path.read_bytes() == old  # reading never writes
    ok(cli, "adjust", "ww.yaml", "--reason", "field hospital", "--heal", "Otto Lenz")
    assert (tmp_path / "ww.yaml.bak").read_bytes() == old
    text = path.read_text()
    assert "- do: baseline" in text and text.endswith("- do: adjust\n  reason: field hospital\n  heal: [Otto Lenz]\n")
    assert cli("validate", "ww.yaml").exit_code == 0
    r = ok(cli, "history", "ww.yaml")
    assert r.stdout.splitlines()[0] == "  1  after M1   baseline: the file as it stood before the ledger  ->  2 CP, 2 XP"
    path.write_text(text.replace("cp: 2\nxp: 2", "cp: 9\nxp: 2"))
    r = cli("validate", "ww.yaml")
    assert r.exit_code == 1 and "cp: stored 9, but replaying the entries gives 2 (last set by entry 1" in r.stderr

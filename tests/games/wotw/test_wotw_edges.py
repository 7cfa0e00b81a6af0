"""No hole at the edges (issue 30): a campaign file proves itself with or without its entries, and every
rule holds at its edge (the Enemy HQ, the team checker, three men, the enemy's weapon swap, leftover dice)."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

from sheets.base.options import PrintOptions
from sheets.games.wotw import commands

HQ_DICE = "2,1,6,2,4,1,1,1,1,1,1"  # a track with no Building (H) step (issue 30)


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> str:
    """A campaign's text after one mission (seed 2) won with Lenz killed, its entries cut off."""
    folder = tmp_path_factory.mktemp("played")
    path = folder / "w.yaml"
    commands.campaign_new(path, "german", "france-1944", random=True, seed=4)
    commands.campaign_mission(path, PrintOptions(output=folder / "m.pdf"), seed=2)
    commands.campaign_debrief(path, "success", ["Lenz"], [], seed=1)
    text = path.read_text(encoding="utf-8")
    return text[:text.index("\n# entries:")] + "\n"


def line_of(text: str, pattern: str) -> int:
    """The line of the last line matching `pattern` (1-based)."""
    return [i for i, line in enumerate(text.splitlines(), 1) if re.fullmatch(pattern, line)][-1]


def test_a_file_without_entries_that_agrees_with_itself_is_valid(cli, played):
    Path("w.yaml").write_text(played, encoding="utf-8")
    r = cli("validate", "w.yaml")
    assert r.exit_code == 0 and "1 file valid" in r.stdout


# the proof replays the plays the state's traces tell (ledger.prove): each disagreement is named where it stands
UNREACHABLE = ", but the plays this state tells (its ledger, histories and missions, replayed by the rules) give "


@pytest.mark.parametrize("edit, where, message", [
    (lambda t: t.replace("\ncp: 2\n", "\ncp: 99\n"), r"cp: 99", "cp: stored value 99" + UNREACHABLE + "2"),
    (lambda t: re.sub(r"(- name: Lenz(?:\n  .*)*?\n  status: )killed", r"\1fit", t), r"  status: fit",
     "team[2].status: stored value 'fit'" + UNREACHABLE + "'killed'"),
    (lambda t: re.sub(r"objective: .*", "objective: Capture the Kaiser", t, count=1), r"  objective: .*",
     "missions[0].objective: stored value 'Capture the Kaiser'" + UNREACHABLE + "'Eliminate HMG'"),
    (lambda t: re.sub(r"\n  xp: 1\n", "\n  xp: 99\n", t, count=1), r"  xp: 99",
     "missions[0].xp: stored value 99" + UNREACHABLE + "1"),
    (lambda t: t.replace("killed: [Lenz]", "killed: []"), r"  history: \[joined before M1, killed M1\]",
     "team[2].history: stored rows 2" + UNREACHABLE + "1"),
    (lambda t: t.replace("missions:", "- {name: Free Man, quality: Veteran, weapon: SMG}\nmissions:"), r"team:",
     "team: stored rows 4" + UNREACHABLE + "3"),
])
def test_a_file_without_entries_is_refused_where_it_disagrees_with_itself(cli, played, edit, where, message):
    text = edit(played)
    assert text != played
    Path("w.yaml").write_text(text, encoding="utf-8")
    r = cli("validate", "w.yaml")
    assert r.exit_code == 1 and "Traceback" not in r.stderr
    assert f"w.yaml:{line_of(text, where)}: {message}" in r.stderr
    before = Path("w.yaml").read_bytes()
    assert cli("campaign", "adjust", "w.yaml", "--reason", "x", "--cp", "1").exit_code == 1
    assert Path("w.yaml").read_bytes() == before  # never written out as a trusted baseline


def test_a_hand_written_baseline_whose_cp_disagrees_with_its_ledger_is_refused(cli, played):
    state = yaml.safe_load(played)
    state["cp"] = 99
    text = played + yaml.safe_dump({"entries": [{"do": "baseline", "state": state}]}, sort_keys=False)
    text = text.replace("\ncp: 2\n", "\ncp: 99\n")
    Path("w.yaml").write_text(text, encoding="utf-8")
    r = cli("validate", "w.yaml")
    assert r.exit_code == 1
    assert (f"w.yaml:{line_of(text, r'    cp: 99')}: entries[0].state.cp: baseline: stored value 99" + UNREACHABLE
            + "2") in r.stderr


def test_a_baseline_that_proves_itself_is_taken(cli, played):
    text = played + yaml.safe_dump({"entries": [{"do": "baseline", "state": yaml.safe_load(played)}]}, sort_keys=False)
    Path("w.yaml").write_text(text, encoding="utf-8")
    assert cli("validate", "w.yaml").exit_code == 0


# -- every rule at its edge --------------------------------------------------------

def test_enemy_hq_is_refused_on_a_track_without_a_building_h_step_and_the_file_is_untouched(cli, tmp_path):
    assert cli("campaign", "new", "hq.yaml", "--nation", "german", "--theatre", "france-1944", "--random",
               "--seed", "4").exit_code == 0
    assert cli("campaign", "mission", "hq.yaml", "--dice", HQ_DICE, "-o", "m.pdf").exit_code == 0
    before = Path("hq.yaml").read_bytes()
    r = cli("campaign", "debrief", "hq.yaml", "--outcome", "success", "--enemy-hq", "--dice", "6")
    assert r.exit_code == 1 and Path("hq.yaml").read_bytes() == before
    assert r.stderr == ("error: --enemy-hq: the Enemy HQ is an event of a Building (H) step (the rules, Event Table: "
                        "Building, 11), rolled for every step but the last (the objective), and mission 1's track has no "
                        "such Building (Road > Cliff > Hill Top > Wood > Wood > Road > "
                        "River > Road > River > Road > Small Building > Square > Small Building); leave --enemy-hq "
                        "out\n")
    assert cli("campaign", "debrief", "hq.yaml", "--outcome", "success", "--dice", "6").exit_code == 0


def test_campaign_new_refuses_what_validate_and_mission_refuse(cli):
    Path("t.yaml").write_text("nation: german\nmembers:\n- {name: A, quality: Green, weapon: Rifle, grenades: 6}\n"
                              "- {name: B, quality: Green, weapon: Rifle}\n- {name: C, quality: Green, weapon: Rifle}\n",
                              encoding="utf-8")
    said = "t.yaml:3: members[0].grenades: 6 grenades, but a man carries 4 (5 with Grenadier): A may carry 4"
    for args in (("validate", "t.yaml"), ("mission", "--team", "t.yaml", "--nation", "german", "-o", "m.pdf"),
                 ("campaign", "new", "ww.yaml", "--nation", "german", "--theatre", "france-1944", "--team", "t.yaml")):
        r = cli(*args)
        assert r.exit_code == 1 and said in r.stderr, args
    assert not Path("ww.yaml").exists()


def test_no_mission_with_fewer_than_three_men_alive(cli):
    cli("campaign", "new", "k.yaml", "--nation", "german", "--theatre", "france-1944", "--random", "--seed", "4")
    cli("campaign", "mission", "k.yaml", "--seed", "2", "-o", "m.pdf")
    assert cli("campaign", "debrief", "k.yaml", "--outcome", "aborted", "--killed", "Lenz").exit_code == 0
    before = Path("k.yaml").read_bytes()
    r = cli("campaign", "mission", "k.yaml", "--seed", "3", "-o", "m2.pdf")
    assert r.exit_code == 1 and Path("k.yaml").read_bytes() == before and not Path("m2.pdf").exists()
    assert r.stderr == ("error: 2 men alive, but a mission needs at least 3 (the rules, Equipment: “You must select "
                        "at least three men”): recruit first with `sheets campaign spend`\n")


def test_the_enemy_weapon_swap_is_on_the_objective_cells(cli):
    r = cli("mission", "--theatre", "sicily-1943", "--nation", "us", "--dice", "1,1,1,1,1,1,1,1,1,5,1", "--json")
    mission = json.loads(r.stdout)
    assert mission["objective"]["enemy"] == "Rifle*(P) Rifle(G) SMG*(P)" == mission["track"][-1]["enemy"]
    r = cli("mission", "--theatre", "sicily-1943", "--nation", "italian", "--dice", "1,1,1,1,1,1,1,1,1,5,1", "--json")
    assert json.loads(r.stdout)["objective"]["enemy"] == "Rifle*(P) Rifle(G) Flamethrower(P)"  # the US have one


def test_leftover_dice_are_counted_once_and_validate_names_file_and_line(cli):
    cli("campaign", "new", "d.yaml", "--nation", "german", "--theatre", "france-1944", "--random", "--seed", "4")
    r = cli("campaign", "mission", "d.yaml", "--dice", HQ_DICE + ",3,3,3", "-o", "m.pdf")
    assert r.exit_code == 0
    assert "warning: 3 of the dice given with --dice were not used (the rolls needed fewer)\n" in r.stderr
    r = cli("validate", "d.yaml")
    text = Path("d.yaml").read_text(encoding="utf-8")
    line = line_of(text, r"- \{do: mission, dice: .*")
    assert r.exit_code == 0 and "warning" not in r.stderr
    assert (f"note: d.yaml: line {line}: entries[1].dice: 3 of the 14 dice given were not used (the rolls needed 11)"
            in r.stdout)


def test_a_team_file_with_a_type_error_still_reports_every_other_member(cli):
    Path("t.yaml").write_text("nation: german\nmembers:\n- {name: A, quality: Green, weapon: Rifle, grenades: six}\n"
                              "- {name: B, quality: Green, weapon: Rifle, grenades: 6}\n"
                              "- {name: C, quality: Green, weapon: Bazooka}\n", encoding="utf-8")
    r = cli("validate", "t.yaml")
    assert r.exit_code == 1 and r.stderr == (
        "error: 3 problems found:\n"
        "  t.yaml:3: members[0].grenades: 'six' is not a whole number\n"
        "  t.yaml:4: members[1].grenades: 6 grenades, but a man carries 4 (5 with Grenadier): B may carry 4\n"
        "  t.yaml:5: members[2].weapon: German recruits carry Assault Rifle, Flame-thrower, LMG, Mortar, Rifle, SMG, "
        "not 'Bazooka'\n")

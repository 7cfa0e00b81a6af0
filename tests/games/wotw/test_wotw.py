"""Way of the Warrior: tables as data, the mission pre-roller, the log sheet."""
import json
from pathlib import Path

import pikepdf
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import pages, pdf_text, squash, beside, text_runs
from sheets.base.dice import Dice
from sheets.library.tables import LEGAL, legal_results, parse_roll


@pytest.fixture(scope="module")
def wotw(library):
    return library.game("wotw")


@pytest.fixture(scope="module")
def roller(wotw):
    from sheets.games.wotw.mission import MissionRoller

    return MissionRoller(wotw.data)


def mission_json(cli, *args):
    result = cli("mission", "--json", *args)
    assert result.exit_code == 0, result
    return json.loads(result.stdout)


def terrains(data):
    return [s["terrain"] for s in data["track"]]


# -- the rules' worked example and pinned tracks ------------------------------
def test_worked_example_replays_exactly(cli):
    # "Roll 1d6: result is 2 ... 4 times in the Steps table; 16 gives Road Cliff Hill top; 24 gives Wood Wood"
    data = mission_json(cli, "--theatre", "russia-1943", "--dice", "2,1,6,2,4,1,1,1,1,1,1")
    assert data["rolls"][0] == {"table": "target approach 3+1d3", "dice": [2], "result": 4, "row": "3+1d3",
                                "hit": "4 rolls on the Steps table"}
    steps_rolls = [r for r in data["rolls"] if r["table"] == "steps"]
    assert len(steps_rolls) == 4
    assert steps_rolls[0]["dice"] == [1, 6] and steps_rolls[0]["result"] == 16
    assert steps_rolls[1]["dice"] == [2, 4] and steps_rolls[1]["result"] == 24
    assert terrains(data)[:5] == ["Road", "Cliff", "Hill Top", "Wood", "Wood"]


def test_village_track(cli):
    # 1d3=1 (4 rolls); 41 -> Road + 1d3 village rolls (3 -> 2): 1, 2; then 11, 24, 64; objective 12
    data = mission_json(cli, "--theatre", "russia-1943", "--dice", "1,4,1,3,1,2,1,1,2,4,6,4,1,2")
    assert terrains(data) == ["Road", "Village Street", "Square", "Village Street", "Church (Building)",
                              "Road", "River", "Wood", "Wood", "Road", "Wood", "Road", "Bridge"]
    assert [s["source"] for s in data["track"]][:5] == ["steps 41", "village 1", "village 1", "village 2", "village 2"]
    assert data["track"][4]["cover"] == "heavy"
    assert data["objective"] == {"roll": 12, "name": "Control bridge", "enemy": "Rifle*(P) SMG(V) SMG(G)", "range": "medium"}
    assert data["track"][-1]["enemy"] == "Rifle*(P) SMG(V) SMG(G)" and data["track"][-1]["range"] == "medium"


def test_town_track(cli):
    # 1d3=1 (4 rolls); 44 -> 2+1d3 town rolls (1 -> 1: 3 rolls): 1, 2, 5; then 11, 11, 11; objective 66
    data = mission_json(cli, "--theatre", "france-1944", "--dice", "1,4,4,1,1,2,5,1,1,1,1,1,1,6,6")
    assert terrains(data) == ["Town Street", "Small Building", "Town Street", "Factory (Building)",
                              "Shop (Building)", "House (Building)", "Road", "River", "Road", "River", "Road", "River",
                              "Wheat Field", "Small Building", "Prison (Small Building)"]
    assert data["objective"]["name"] == "Free Prisoners"
    town = [r for r in data["rolls"] if r["table"].startswith("town")]
    assert town[0] == {"table": "town count 2+1d3", "dice": [1], "result": 3, "row": "2+1d3", "hit": "3 rolls on the town table"}


def test_airborne_track(cli):
    # airborne d6=1; Low Altitude x1d3 (4 -> 2); then 1d3 (1 -> 4 rolls) 11 11 11 11; objective 22
    data = mission_json(cli, "--theatre", "france-1944", "--airborne", "--dice", "1,4,1,1,1,1,1,1,1,1,1,2,2")
    assert data["airborne"] is True and data["beachhead"] is None
    assert terrains(data)[:5] == ["High Altitude", "Low Altitude", "Low Altitude", "Landing", "Regrouping"]
    assert [s["source"] for s in data["track"][:5]] == ["airborne"] * 5
    assert terrains(data)[5:] == ["Road", "River"] * 4 + ["Road", "Crossing", "Road"]


def test_not_airborne_then_beachhead(cli):
    # airborne d6=2 (no); beachhead d6=1 (yes); Enemy Beach x(1d3+1): 6 -> 3+1 = 4
    data = mission_json(cli, "--theatre", "sicily-1943", "--airborne", "--beachhead",
                        "--dice", "2,1,6,1,1,1,1,1,1,1,1,1,1,1")
    assert data["airborne"] is False and data["beachhead"] is True
    assert terrains(data)[:7] == ["Landing Craft", "Shallow Water", "Enemy Beach", "Enemy Beach", "Enemy Beach",
                                  "Enemy Beach", "Regrouping"]
    assert data["nation"] == "us" and data["enemy"] == "italian"


def test_winter_weather_is_rolled_first(cli):
    data = mission_json(cli, "--theatre", "winter-1942", "--nation", "russian", "--dice", "6,1,1,1,1,1,1,1,1,1,1,1")
    assert data["weather"] == "blizzard"
    assert data["rolls"][0]["table"] == "weather-winter-1942" and data["rolls"][0]["dice"] == [6]
    assert data["nation"] == "russian" and data["enemy"] == "german"
    snow = mission_json(cli, "--theatre", "finland-1940", "--dice", "3,1,1,1,1,1,1,1,1,1,1,1")
    assert snow["weather"] == "clear"


def test_engineers_strike_a_step(cli):
    data = mission_json(cli, "--theatre", "russia-1943", "--engineers", "--strike-step", "2",
                        "--dice", "2,1,6,2,4,1,1,1,1,1,1")
    assert data["track"][1] == {"n": 2, "terrain": "Cliff", "cover": None, "source": "steps 16", "struck": True}
    bad = cli("mission", "--engineers", "--strike-step", "99", "--seed", "1", "--json")
    assert bad.exit_code == 1 and "cannot be struck" in bad.stderr
    no_engineer = cli("mission", "--strike-step", "2", "--seed", "1", "--json")
    assert no_engineer.exit_code == 1 and "--strike-step needs --engineers" in no_engineer.stderr


def test_nation_must_fight_in_the_theatre(cli):
    result = cli("mission", "--theatre", "france-1944", "--nation", "italian", "--seed", "1")
    assert result.exit_code == 1
    assert "nation 'italian' does not fight in France 1944; choose german or us" in result.stderr


def test_running_out_of_dice_names_the_die(cli):
    result = cli("mission", "--theatre", "russia-1943", "--dice", "2,1,6")
    assert result.exit_code == 1
    assert "ran out of scripted dice: 3 given, die #4 needed (a d6 for steps roll 2 (tens))" in result.stderr


def test_json_has_the_contract_keys(cli):
    data = mission_json(cli, "--seed", "9")
    for key in ("seed", "theatre", "nation", "enemy", "weather", "airborne", "beachhead", "rolls", "track", "objective"):
        assert key in data
    assert data["seed"] == 9
    assert all({"table", "dice", "row"} <= set(r) for r in data["rolls"])
    assert all({"n", "terrain", "cover", "source"} <= set(s) for s in data["track"])
    assert set(data["objective"]) == {"roll", "name", "enemy", "range"}


# -- tables ---------------------------------------------------------------
def test_every_table_covers_every_result_exactly_once(wotw):
    for table in wotw.data.tables.tables:
        assert table.coverage_problems() == [], table.id
        seen = {}
        for row in table.rows:
            for result in parse_roll(row.roll, table.dice, table.results):
                assert result not in seen, (table.id, result)
                seen[result] = row
        assert sorted(seen) == legal_results(table.dice, table.results), table.id
        if table.dice == "d66":
            assert len(seen) == 36
        for result in legal_results(table.dice, table.results):
            assert table.lookup(result) is seen[result]


def test_roll_specs():
    assert parse_roll("16-21", "d66") == [16, 21]
    assert parse_roll("11-13,14", "d66") == [11, 12, 13, 14]
    assert len(LEGAL["d66"]) == 36
    with pytest.raises(ValueError):
        parse_roll("17", "d66")


def _break_table(content: Path, old: str, new: str) -> int:
    path = content / "wotw" / "tables.yaml"
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))
    first = new.strip().splitlines()[0]
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if first in line)


def test_a_table_with_a_gap_is_rejected_with_file_and_line(cli, content_copy):
    _break_table(content_copy, 'roll: "64-66"\n        steps: [Road, Wood]', 'roll: "64-65"\n        steps: [Road, Wood]')
    result = cli("validate", "--content", content_copy)
    assert result.exit_code == 1
    assert "content/wotw/tables.yaml:" in result.stderr
    assert "table 'steps' (d66) has a gap: no row for 66" in result.stderr


def test_a_table_with_an_overlap_is_rejected_with_file_and_line(cli, content_copy):
    line = _break_table(content_copy, 'roll: "24-26"', 'roll: "23-26"')
    result = cli("validate", "--content", content_copy)
    assert result.exit_code == 1
    assert f"content/wotw/tables.yaml:{line}: tables[0].rows[3].roll: result 23 is covered twice" in result.stderr


def test_an_unknown_terrain_is_rejected(cli, content_copy):
    _break_table(content_copy, "steps: [Wheat Field, Farm]", "steps: [Wheat Field, Swamp]")
    result = cli("validate", "--content", content_copy)
    assert result.exit_code == 1
    assert "terrain 'Swamp' has no entry in events.yaml" in result.stderr


# -- property test ----------------------------------------------------------
@settings(max_examples=300, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32), airborne=st.booleans(), beachhead=st.booleans(),
       theatre=st.sampled_from(["france-1944", "russia-1943", "winter-1942", "sicily-1943", "finland-1940"]))
def test_every_mission_is_well_formed(roller, wotw, seed, airborne, beachhead, theatre):
    m = roller.roll(Dice.seeded(seed), theatre, airborne=airborne, beachhead=beachhead)
    steps_rolls = [r for r in m.rolls if r.table == "steps"]
    approach = next(r for r in m.rolls if r.table.startswith("target approach"))
    assert 4 <= approach.result <= 6 and len(steps_rolls) == approach.result
    assert m.track[-1].enemy == m.objective.enemy and m.track[-1].range == m.objective.range
    assert [s.n for s in m.track] == list(range(1, len(m.track) + 1))
    for step in m.track:
        assert wotw.data.terrain(step.group, step.terrain) is not None, step.terrain
    if m.airborne:
        assert [s.terrain for s in m.track[:2]] == ["High Altitude", "Low Altitude"]
        drop = [s.terrain for s in m.track if s.source == "airborne"]
        assert drop[-2:] == ["Landing", "Regrouping"] and 1 <= drop.count("Low Altitude") <= 3
    if m.beachhead:
        assert not m.airborne and m.track[0].terrain == "Landing Craft"
    if theatre in ("winter-1942", "finland-1940"):
        assert m.weather in ("clear", "snow", "blizzard")
    else:
        assert m.weather is None


# -- the log sheet -----------------------------------------------------------
def test_log_sheet_has_the_track_in_order(cli, tmp_path):
    data = mission_json(cli, "--theatre", "winter-1942", "--airborne", "--seed", "21")
    result = cli("mission", "--theatre", "winter-1942", "--airborne", "--seed", "21", "-o", tmp_path / "log.pdf")
    assert result.exit_code == 0, result
    text = pdf_text(tmp_path / "log.pdf")
    flat = squash(text)
    position = 0
    for step in data["track"]:
        found = flat.find(squash(step["terrain"]), position)
        assert found >= 0, step["terrain"]
        position = found
    assert squash(data["objective"]["enemy"]) in flat
    assert "seed 21" not in text  # the seed is the file's metadata, not the player's page
    with pikepdf.open(tmp_path / "log.pdf") as pdf:
        assert str(pdf.docinfo.get("/Keywords")) == "dice seed 21"
    assert "MISSIONTRACK" in flat and "TEAMROSTER" in flat
    again = cli("mission", "--theatre", "winter-1942", "--airborne", "--seed", "21", "-o", tmp_path / "again.pdf")
    assert again.exit_code == 0
    assert (tmp_path / "log.pdf").read_bytes() == (tmp_path / "again.pdf").read_bytes()


def test_log_sheet_prints_events_beside_steps(cli, tmp_path):
    assert cli("mission", "--theatre", "russia-1943", "--dice", "2,1,6,2,4,1,1,1,1,1,1", "-o", tmp_path / "l.pdf").exit_code == 0
    flat = squash(pdf_text(tmp_path / "l.pdf"))
    front, back = text_runs(tmp_path / "l.pdf", 0), text_runs(tmp_path / "l.pdf", 1)
    # each step's terrain and cover on its row; each terrain's events once, in the table below
    # (the runs above that table's heading are the track's, in whatever order they were drawn)
    events = next(r[1] for r in front if r[2].upper().startswith("EVENTS (2D6)"))
    track = [r for r in front if r[1] > events]
    assert beside(track, "Wood", occurrence=0, max_dx=70) == "light"
    assert beside(track, "Cliff", occurrence=0, max_dx=70) == "none"
    assert squash("2: Bad intelligence") in flat and squash("4: Patrol (+1)") in flat
    # the back: how it was rolled, and the fire factors of both sides, so that the player
    # needs no other sheet at the table
    back_flat = squash(" ".join(r[2] for r in back))
    assert "Howthismissionwasrolled" in back_flat
    assert squash("Steps: d66 1·6 → 16: Road, Cliff, Hill Top") in back_flat
    assert squash("Fire factors: German (you)").upper() in back_flat.upper()
    assert squash("Fire factors: Russian (enemy)").upper() in back_flat.upper()
    assert squash("Five-man fire group: Russians can create a Fire Group with 5 soldiers.") in back_flat


def test_campaign_rolls_consecutive_missions(cli, tmp_path):
    result = cli("mission", "--count", "3", "--seed", "5", "-o", tmp_path / "c.pdf")
    assert result.exit_code == 0, result
    text = pdf_text(tmp_path / "c.pdf")
    fronts = [runs for runs in (text_runs(tmp_path / "c.pdf", page) for page in range(pages(tmp_path / "c.pdf")))
              if any(r[2].strip() == "LOG SHEET" for r in runs)]
    assert [beside(runs, "MISSION", occurrence=0) for runs in fronts] == ["1", "2", "3"]  # each its number
    assert "CAMPAIGN RECORD" in text
    data = mission_json(cli, "--count", "3", "--seed", "5")
    assert len(data) == 3 and data[0]["track"] != data[1]["track"]
    assert pages(tmp_path / "c.pdf") >= 4


TEAM = """\
nation: german
members:
  - {name: Hans Weber, quality: Veteran, weapon: SMG}
  - {name: Karl Brandt, quality: Green, weapon: Rifle, medical: true}
  - {name: Otto Lenz, quality: Green, weapon: Rifle}
"""


def test_team_fills_the_roster(cli, tmp_path):
    (tmp_path / "team.yaml").write_text(TEAM)
    result = cli("mission", "--theatre", "france-1944", "--nation", "german", "--seed", "2",
                 "--team", tmp_path / "team.yaml", "-o", tmp_path / "t.pdf")
    assert result.exit_code == 0, result
    flat = squash(pdf_text(tmp_path / "t.pdf"))
    assert "HansWeberVeteranSMG4/1/-4" in flat
    assert "KarlBrandtGreenRifle2/2/14Medical" in flat
    assert "Teamcost5CP,0CPsaved" in flat


@pytest.mark.parametrize("members,message", [
    ("  - {name: A, quality: Veteran, weapon: Assault Rifle}\n  - {name: B, quality: Veteran, weapon: SMG}\n"
     "  - {name: C, quality: Green, weapon: Rifle}\n", "the team costs 9 CP but a German team starts with 5 CP"),
    ("  - {name: A, quality: Green, weapon: Rifle}\n", "team size: 1 men, but a team starts with at least 3 (the rules, Equipment)"),
    ("  - {name: A, quality: Veteran, weapon: Bazooka}\n", "German has no Veteran with Bazooka"),
])
def test_bad_team_is_a_located_error(cli, tmp_path, members, message):
    (tmp_path / "team.yaml").write_text("nation: german\nmembers:\n" + members)
    result = cli("mission", "--nation", "german", "--seed", "2", "--team", tmp_path / "team.yaml")
    assert result.exit_code == 1
    assert "team.yaml:" in result.stderr and message in result.stderr


def test_reference_sheet(cli, tmp_path):
    result = cli("reference", "wotw", "-o", tmp_path / "r.pdf")
    assert result.exit_code == 0, result
    flat = squash(pdf_text(tmp_path / "r.pdf"))
    for needle in ["Firetable", "Patroltable", "Sequence", "Sharpshooter", "Morale", "Event table (Europe)",
                   "Teamtable:German", "Teamtable:Russian", "AssaultRifle321", "Five-manfiregroup"]:
        assert squash(needle).lower() in flat.lower(), needle


def test_the_bundled_example_team_is_valid(wotw):
    from sheets.base import paths
    from sheets.games.wotw.team import resolve_team
    from sheets.library.yaml_source import load_yaml

    team = resolve_team(load_yaml(paths.content_dir() / "wotw" / "examples" / "german-team.yaml"),
                        wotw.data.nation("german"), wotw.data.rules)
    assert team.size == 4 and team.cp_spent == 5 and team.cp_saved == 0


def test_mission_json_text_is_the_standard_indented_utf8_json(cli):
    # orjson makes it; the text must stay what json.dumps(indent=2, ensure_ascii=False) gives
    result = cli("mission", "--json", "--count", "3", "--seed", "4", "--theatre", "russia-1943")
    assert result.exit_code == 0, result
    data = json.loads(result.stdout)
    assert len(data) == 3 and [m["seed"] for m in data] == [4, 4, 4]
    assert result.stdout.rstrip("\n") == json.dumps(data, indent=2, ensure_ascii=False)
    assert "\\u" not in result.stdout  # UTF-8 as it is, not escaped


def test_json_text_matches_the_standard_library_on_awkward_values():
    from sheets.base.output import json_text

    data = {"ü": ["≤1", None, True, 0, -3, 1.5, [], {}], "nested": [{"a": [1, [2, []]]}], "empty": ""}
    assert json_text(data) == json.dumps(data, indent=2, ensure_ascii=False)

"""Issue 13, The Regiment and The Way of the Warrior: play aids read back from the PDFs."""
from __future__ import annotations



from conftest import pages, pdf_text, squash
from checkbar import assert_true_scale
from sheets.library.kinds.notes import LOST_MARK


def text_of(path) -> str:
    return pdf_text(path).replace("\xa0", " ")


# -- The Regiment ------------------------------------------------------------------
def test_vehicle_damage_tracker_has_three_major_and_three_minor_boxes_per_vehicle(cli, tmp_path):
    out = tmp_path / "v.pdf"
    assert cli("trackers", "regiment", "--tracker", "vehicle-damage", "-o", out).exit_code == 0
    text = text_of(out)
    assert text.count("VEHICLE") == 8
    assert text.count("MAJOR") == 8 + 1 and text.count("MINOR") == 8 + 1  # 8 vehicles, plus the key
    assert text.count("3: destroyed") == 8 and text.count("3: disabled until repaired") == 8
    assert "MAJOR: Out of control, burning, stuck, system destroyed (detail), blind." in text
    assert "MINOR: Slowed, wild, smoking, system damaged (detail), leaking." in text


def test_vehicle_damage_html_draws_the_third_box_as_the_circle(library):
    from sheets.pipeline.sheet import render_html
    from sheets.kinds.trackers.builder import pick_trackers, tracker_sheet

    game = library.game("regiment")
    html = render_html(tracker_sheet(game, pick_trackers(game, "vehicle-damage")))
    assert html.count('class="group" data-group="1"') == 8 and html.count('class="group" data-group="2"') == 8
    assert html.count('class="tbox circle" data-pos="3"') == 16
    assert html.count('class="tbox" data-pos="1"') == 16


def test_countdown_clocks_sheet(cli, tmp_path):
    out = tmp_path / "c.pdf"
    assert cli("trackers", "regiment", "--tracker", "countdown-clocks", "-o", out).exit_code == 0
    assert pages(out) == 1
    text = text_of(out)
    assert "Countdown clocks" in text and squash("Name a threat on the line") in squash(text)
    assert "†" not in text and "reading" not in text  # the clock's form is the kit's: the notes page says so
    for hour in ("3:00", "6:00", "9:00", "10:00", "11:00"):
        assert text.count(hour) == 20, hour
    # fewer clocks with fewer segments from the command line: equal, unlabelled segments
    assert cli("trackers", "regiment", "--tracker", "countdown-clocks", "--units", "4", "--boxes", "4",
               "-o", tmp_path / "d.pdf").exit_code == 0
    assert "3:00" not in text_of(tmp_path / "d.pdf")


def test_clock_hours_must_rise_to_twelve(cli, content_copy):
    path = content_copy / "regiment" / "trackers.yaml"
    path.write_text(path.read_text().replace("hours: [3, 6, 9, 10, 11, 12]", "hours: [3, 9, 6, 10, 11, 12]"))
    result = cli("validate", "--content", content_copy)
    assert result.exit_code == 1
    assert "content/regiment/trackers.yaml:" in result.stderr and "hours must rise" in result.stderr


def test_reference_has_the_vof_key_and_the_seeds_punctuation(cli, tmp_path):
    out = tmp_path / "r.pdf"
    assert cli("reference", "regiment", "-o", out).exit_code == 0
    text = squash(text_of(out))
    assert squash("Key: rows are the volume of fire, I incidental, D direct, C concentrated") in text
    assert squash("S one stress, W one wound, 2S/2W two; a blank is no effect.") in text
    for line in ("Cover: Removes damage dice", "Concealment: Reduce volume of fire", "Tough: Durability",
                 "Grit: Mental fortitude", "Critical: When you have 3+ wounds", "Suppressed: Your volume of fire",
                 "Pinned: VOF reduced further"):
        assert squash(line) in text, line


def test_playbook_vof_table_has_its_key(cli, tmp_path):
    out = tmp_path / "s.pdf"
    assert cli("playbook", "soldier", "-o", out).exit_code == 0
    assert squash("Key: I incidental, D direct, C concentrated; S stress, W wound") in squash(text_of(out))
    assert pages(out) == 2


def test_operator_loadout_cards(cli, tmp_path):
    out = tmp_path / "o.pdf"
    assert cli("cards", "regiment", "--set", "operator-loadout", "-o", out).exit_code == 0
    text = squash(text_of(out)).lower()
    for name, damage, ranges in (("Assault Rifle", "3d", "Near / Far"), ("SAW", "3d", "Far"),
                                 ("SMG w/suppressor", "2d", "Tight / Close"), ("Sidearm w/suppressor", "2d", "Tight")):
        # the title, then the stats: the set's name is the footer's, not repeated under each title
        assert squash(f"{name} DAMAGE {damage} RANGE {ranges}").lower() in text, name
    assert squash("Suppress: Applies the suppressed condition").lower() in text
    assert f"quiet:{LOST_MARK}" in text  # the seed gives no text for Quiet: the lost mark, not an invented rule
    assert "combatknife" not in text  # already a card of the weapons set


# -- The Way of the Warrior -----------------------------------------------------------
def test_wotw_reference_carries_every_table(cli, tmp_path):
    out = tmp_path / "w.pdf"
    assert cli("reference", "wotw", "-o", out).exit_code == 0
    raw = text_of(out)
    text = squash(raw)
    for heading in ("THEATRE OF OPERATIONS TABLE", "STEPS TABLE (EUROPE)", "VILLAGE TABLE", "TOWN TABLE",
                    "OBJECTIVE TABLE (EUROPE)", "EVENT TABLE (EUROPE)", "PATROL TABLE", "FIRE TABLE", "Modifiers",
                    "WEATHER TABLES", "SKILLS", "OPTIONAL RULE #1", "OPTIONAL RULE #2", "OPTIONAL RULE #3"):
        assert squash(heading) in text, heading
    assert squash("Winter 1942 - Russia German Russian Roll 1D6 at the start of each mission") in text
    assert squash("41-43 Road; then roll 1d3 times on the Village table") in text
    assert squash("44-46 Then roll 2+1d3 times on the Town table") in text
    assert squash("51-53 Eliminate bunker Hill, Bunker Rifle*(P) Rifle(G) Flamethrower(P) Medium") in text
    # rows the rules do not print print as the others; the designer's notes say which
    assert raw.count("No change.") >= 2 and "†" not in raw
    assert squash("Weather tables, no-change rows:") in text
    # the Italian enemy's swap, as the seed states it
    assert squash("As the enemy: Flame-thrower becomes SMG*") in text


def test_road_keeps_the_shortcut_and_slope_does_not(library):
    data = library.game("wotw").data
    road = data.terrain("europe", "Road").terrain
    slope = data.terrain("europe", "Slope").terrain
    assert [e.roll for e in road.events] == ["2", "3", "4", "5", "10", "11-12"]
    assert road.events[-1].text == "Shortcut – Skip the next step."
    assert [e.roll for e in slope.events] == ["2-3", "4-5"]


def test_log_sheet_has_room_for_weather_regrouping_and_the_engineer(cli, tmp_path):
    out = tmp_path / "l.pdf"
    assert cli("mission", "--theatre", "sicily-1943", "--nation", "us", "--seed", "3", "-o", out).exit_code == 0
    text = squash(text_of(out))
    # no weather rule in Sicily and no Engineer rule rolled: neither row prints (issue 34)
    assert squash("Weather changes (step: condition)") not in text
    assert squash("Explosive Charge") not in text
    assert cli("mission", "--theatre", "sicily-1943", "--nation", "us", "--seed", "3", "--engineers",
               "-o", out).exit_code == 0
    text = squash(text_of(out))
    assert squash("Regrouping steps") not in text  # not an airborne mission: no Regrouping boxes
    assert squash("Explosive Charge, FF 10/-/-, once, never in a Fire Group: carried") in text
    # the Italian enemy's fire factors carry the swap row with the SMG's fire factors
    assert squash("Flame-thrower → SMG* 3 - - no Flame-thrower in the Italian team table") in text


def test_regrouping_boxes_only_on_an_airborne_mission(cli, tmp_path):
    out = tmp_path / "a.pdf"
    args = ("mission", "--theatre", "sicily-1943", "--nation", "us", "--airborne", "--json")
    for seed in range(1, 40):
        if cli(*args, "--seed", str(seed)).stdout.count('"airborne": true'):
            break
    assert cli(*args[:-1], "--seed", str(seed), "-o", out).exit_code == 0
    text = squash(text_of(out))
    assert squash("Airborne: yes") in text and squash("Regrouping steps (Airborne)") in text


def test_log_sheet_boxes_are_named_fields(cli, tmp_path):
    from sheets.games.wotw.sheets import log_sheet, roll_missions
    from sheets.pipeline.sheet import render_html
    from sheets.base.dice import Dice
    from sheets.app import api

    game = api.library().game("wotw")
    missions = roll_missions(game, Dice.seeded(1), 1, "france-1944", None, airborne=True, engineers=True)
    assert missions[0].airborne and not missions[0].weather
    html = render_html(log_sheet(game, missions, "x.pdf"))
    assert 'data-field="m1-weather-1"' not in html  # no weather rule in France 1944: no weather lines
    for name in ("m1-regroup-1", "m1-regroup-8", "m1-engineer-name",
                 "m1-engineer-charge", "m1-engineer-charge-used"):
        assert html.count(f'data-field="{name}"') == 1, name
    # not airborne: no Regrouping boxes to keep
    html = render_html(log_sheet(game, roll_missions(game, Dice.seeded(1), 1, "france-1944", None), "x.pdf"))
    assert 'data-field="m1-regroup-1"' not in html


def test_wotw_markers_print_at_true_scale(cli, tmp_path):
    out = tmp_path / "t.pdf"
    assert cli("tokens", "wotw", "-o", out).exit_code == 0
    text = text_of(out)
    assert text.count("PINNED") == 14 and text.count("WOUNDED") == 10
    for group in "ABCD":
        assert text.count(f"ENEMY {group}") == 3
    assert_true_scale(out)


def test_a_swap_to_an_unknown_weapon_is_located(cli, content_copy):
    path = content_copy / "wotw" / "teams.yaml"
    path.write_text(path.read_text().replace("{weapon: Flame-thrower, becomes: SMG, grenade: true}",
                                             "{weapon: Flame-thrower, becomes: Laser, grenade: true}"))
    result = cli("validate", "--content", content_copy)
    assert result.exit_code == 1
    assert "content/wotw/teams.yaml:" in result.stderr and "Italian has no fire factors for 'Laser'" in result.stderr


def test_numbers_without_tracker_change_the_primary_tracker_only(cli, tmp_path):
    out = tmp_path / "n.pdf"
    assert cli("trackers", "regiment", "--teams", "3", "-o", out).exit_code == 0
    assert pages(out) == 1 and text_of(out).count("TEAM") == 3 and "Vehicle damage" not in text_of(out)
    assert cli("trackers", "regiment", "-o", tmp_path / "all.pdf").exit_code == 0
    assert pages(tmp_path / "all.pdf") == 3


def test_only_one_tracker_may_be_primary(cli, content_copy):
    path = content_copy / "regiment" / "trackers.yaml"
    path.write_text(path.read_text().replace("    group_labels:", "    primary: true\n    group_labels:"))
    result = cli("validate", "--content", content_copy)
    assert result.exit_code == 1
    assert "content/regiment/trackers.yaml:" in result.stderr and "only one tracker may be primary" in result.stderr

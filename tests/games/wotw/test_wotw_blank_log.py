"""The blank log sheet: one page of rows and a continuation sheet that together hold the longest
mission the tables can roll, rows numbered throughout."""
import pytest

from conftest import pages, text_runs
from sheets.base.dice import Dice

MM = 72 / 25.4


def row_numbers_on(path, index: int) -> list[int]:
    """The numbers printed in the track's first column of each of its three columns on one page,
    each column read down (a column of five numbers or more: no stray digit of the roster)."""
    runs = [r for r in text_runs(path, index) if r[2].isdigit() and len(r[2]) <= 2]
    columns: dict[int, list] = {}
    for r in runs:
        columns.setdefault(round(r[0] / (10 * MM)), []).append(r)
    numbers = []
    for column in sorted((c for c in columns.values() if len(c) >= 5), key=lambda c: c[0][0]):
        numbers += [int(r[2]) for r in sorted(column, key=lambda r: -r[1])]
    return numbers


def row_numbers(path) -> list[int]:
    """The track's numbers, page after page."""
    return [n for index in range(pages(path)) for n in row_numbers_on(path, index)]


@pytest.fixture(scope="module")
def wotw(library):
    return library.game("wotw")


def test_longest_track_from_the_tables(wotw):
    from sheets.games.wotw.mission import longest_track

    # beachhead 1 + 1 + (1d3+1 = 4) + 1 = 7 (more than airborne's 6; a mission has one or the
    # other); 3+1d3 = 6 Steps rolls, each at most a Town row: 2+1d3 = 5 Town rolls of 2 steps;
    # the longest objective has 4 steps
    assert longest_track(wotw.data) == 7 + 6 * 10 + 4


def test_longest_of_2000_missions_fits_under_the_bound(wotw):
    from sheets.games.wotw.mission import MissionRoller, longest_track

    roller, dice = MissionRoller(wotw.data), Dice.seeded(31)
    theatre = wotw.data.default_theatre().id
    lengths = [len(roller.roll(dice, theatre, airborne=True, beachhead=True).track) for _ in range(2000)]
    assert 30 < max(lengths) <= longest_track(wotw.data)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_blank_rows_numbered_throughout(wotw, paper, tmp_path):
    from sheets.games.wotw.mission import longest_track
    from sheets.games.wotw.sheets import blank_log_sheet
    from sheets.pipeline.build import build

    build([blank_log_sheet(wotw, paper)], tmp_path)
    pdf = tmp_path / "wotw-log-sheet-blank.pdf"
    numbers = row_numbers(pdf)
    assert numbers == list(range(1, len(numbers) + 1)), numbers
    assert numbers[-1] >= longest_track(wotw.data)
    # one page of 25-30 rows, then the continuation sheet (issue 48)
    assert pages(pdf) == 2
    first = row_numbers_on(pdf, 0)
    assert 25 <= len(first) <= 30 and first == list(range(1, len(first) + 1))


def test_a_campaigns_missions_share_their_blanks_each_rendered_once(wotw):
    """A mission's back (its play aid) is stamped on a blank made once per side (the nations,
    the weather, the airborne boxes), not once per mission; its front (and continuation page) on
    a blank made once per shape of its track, its events set on it as stamped rows."""
    from sheets.games.wotw import sheets as wotw_sheets
    from sheets.games.wotw.mission import roll_missions
    from sheets.pipeline.sheet import render_html

    missions = roll_missions(wotw, Dice.seeded(1), 40, "france-1944", None, engineers=True)
    sheet = wotw_sheets.log_sheet(wotw, missions, "x.pdf")
    backs = {id(blank): blank for blank, filled in sheet.parts if blank is not None and filled.context["pages"] == ("back",)}
    fronts = {id(blank): blank for blank, filled in sheet.parts
              if blank is not None and filled.context["pages"] != ("back",) and filled.context["missions"]}
    sides = {(m.nation, m.enemy, m.weather is not None, bool(m.airborne)) for m in missions}
    assert len(backs) == len(sides) < 10  # 40 missions: a handful of blanks
    assert len(fronts) < len(missions) / 2  # shared: one a track's shape, not one a mission
    assert all(blank is not None for blank, _ in sheet.parts)  # every part stamped, the campaign record too
    record, filled_record = sheet.parts[-1]
    assert [r["number"] for r in record.context["record"]] == [m.number for m in missions]
    assert not any(r["objective"] or r["steps"] or r["cp"] for r in record.context["record"])  # nothing rolled
    assert [r["objective"] for r in filled_record.context["record"]] == [m.objective.name for m in missions]
    for blank in backs.values():
        assert all(not v for c in blank.context["missions"] for v in c["v"].values())  # nothing written
        assert "Fire Table" in render_html(blank)
    for blank in fronts.values():  # nothing rolled on it: no terrain, no events (the team's points are the batch's)
        assert all(not v for c in blank.context["missions"] for k, v in c["v"].items() if k != "state")
        assert not any(r and r["terrain"] for c in blank.context["missions"] for line in c["front"] + c["continuation"]
                       for r in line)
        html = render_html(blank)
        if blank.context["pages"] != ("front",):
            assert "data-rows" not in html  # a continuation page: the track's rows alone
            continue
        events = html.split("data-rows>", 1)[1].split("</section>", 1)[0]
        assert "rows-sample" in events  # the look of the rows the stamper sets (hidden), and no row of a mission's
        assert not any(f">{e['terrain']}<" in events for m in missions
                       for column in wotw_sheets.mission_context(wotw, m, None)["legend"] for e in column)

"""The blank log sheet holds the longest mission the tables can roll, rows numbered throughout."""
import pytest

from conftest import pages, text_runs
from sheets.base.dice import Dice

MM = 72 / 25.4


def row_numbers(path) -> list[int]:
    """The numbers printed in the track's first column, page after page (the roster and info
    tables hold no bare numbers at the left edge)."""
    numbers = []
    for index in range(pages(path)):
        runs = sorted((r for r in text_runs(path, index) if r[2].isdigit() and r[0] < 16 * MM),
                      key=lambda r: -r[1])
        numbers += [int(r[2]) for r in runs]
    return numbers


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
    assert pages(pdf) == 3  # rows 7 mm apart (issue 34): the longest mission over three pages


def test_a_campaigns_missions_share_their_blanks_each_rendered_once(wotw, monkeypatch):
    """A blank is rendered once per blank context (the sides and the three options a blank
    shows: sheets.games.wotw.sheets.BlankMission), not once per mission; missions whose blanks
    render the same share one."""
    from sheets.games.wotw import sheets as wotw_sheets
    from sheets.games.wotw.mission import roll_missions
    from sheets.pipeline import rendering

    rendered = []
    real = rendering.render_html

    def counted(template, context, *args, **kwargs):
        html = real(template, context, *args, **kwargs)
        if all(not v for c in context.get("missions", []) for v in c["v"].values()):
            rendered.append(html)
        return html

    monkeypatch.setattr(rendering, "render_html", counted)
    missions = roll_missions(wotw, Dice.seeded(1), 40, "france-1944", None, engineers=True)
    sheet = wotw_sheets.log_sheet(wotw, missions, "x.pdf")
    blanks = {id(blank) for blank, _ in sheet.parts if blank is not None}
    assert len(rendered) < 10 and len(blanks) == len(set(rendered))  # 40 missions: a handful of blanks
    contexts = {(m.nation, m.enemy, bool(m.engineers), m.weather, m.airborne) for m in missions}
    assert len(rendered) <= len(contexts)


def test_a_blank_context_that_cannot_be_compared_is_rendered_and_still_shared(wotw, monkeypatch):
    """A value a plug-in puts in a blank's context that pickle cannot take: that blank is
    rendered to be compared, and missions whose blanks render the same still share one."""
    from sheets.games.wotw import sheets as wotw_sheets
    from sheets.games.wotw.mission import roll_missions

    missions = roll_missions(wotw, Dice.seeded(1), 12, "france-1944", None)
    shared = {id(b) for b, _ in wotw_sheets.log_sheet(wotw, missions, "x.pdf").parts if b is not None}

    def refuse(*args, **kwargs):
        raise TypeError("cannot pickle a plug-in's value")

    monkeypatch.setattr(wotw_sheets.pickle, "dumps", refuse)
    sheet = wotw_sheets.log_sheet(wotw, missions, "x.pdf")
    blanks = [b for b, _ in sheet.parts if b is not None]
    assert len(blanks) == 12 and len({id(b) for b in blanks}) == len(shared)

"""A mission's log sheet is sized to its mission: 200 missions rolled, each planned page by page,
the heaviest built on A4 and Letter and read back (issue 48, item 1).

Laying out 400 pages would take minutes on a shared machine, so every one of the 200 missions is
checked in its plan and its HTML (a front and a play-aid back, a continuation page only beyond
the front's rows, every step and terrain written), and the missions whose fronts carry the most
(roster, track lines and the longer events column) are built into PDFs through the command line
and measured: two pages, every step and terrain in the text, rows of the track at least 7 mm.
"""
from __future__ import annotations

import html
import itertools
import math

import pymupdf
import pytest

from sheets.base.dice import Dice

MM = 72 / 25.4
MISSIONS = 200
ONE_PAGE = 25  # the issue: a mission of up to 25 steps prints its front on one page


@pytest.fixture(scope="module")
def wotw(library):
    return library.game("wotw")


def _flags():
    """Every combination of the optional rules the roller takes (a mission has one opening)."""
    for airborne, beachhead, engineers in itertools.product((False, True), repeat=3):
        if not (airborne and beachhead):
            yield {"airborne": airborne, "beachhead": beachhead, "engineers": engineers}


@pytest.fixture(scope="module")
def rolled(wotw):
    """200 missions: (seed, theatre, flags, mission), over every theatre (with and without
    weather) and every combination of airborne, beachhead and engineers."""
    from sheets.games.wotw.sheets import roll_missions

    theatres = [t.id for t in wotw.data.theatres.theatres]
    combos = list(_flags())
    out = []
    for i in range(MISSIONS):
        seed, theatre, flags = 4800 + i, theatres[i % len(theatres)], combos[i % len(combos)]
        (m,) = roll_missions(wotw, Dice.seeded(seed), 1, theatre, None, **flags)
        out.append((seed, theatre, flags, m))
    return out


def _terrains(wotw, m) -> list[str]:
    """The Event-table terrains of a mission's steps before its objective (the events it rolls)."""
    names = []
    for step in m.track[:-1]:
        resolved = wotw.data.terrain(step.group, step.terrain)
        if resolved is not None and resolved.terrain is not None and resolved.terrain.name not in names:
            names.append(resolved.terrain.name)
    return names


def test_the_200_cover_every_option(wotw, rolled):
    assert any(m.weather for *_, m in rolled) and any(not m.weather for *_, m in rolled)
    assert any(m.airborne for *_, m in rolled) and any(m.beachhead for *_, m in rolled)
    assert any(m.engineers for *_, m in rolled) and any(not m.engineers for *_, m in rolled)
    assert any(len(m.track) > ONE_PAGE for *_, m in rolled)  # a continuation page is exercised


def test_every_mission_planned_on_its_pages(wotw, rolled):
    from sheets.games.wotw.sheets import FRONT_ROWS, MIN_FRONT_ROWS, SPARE_ROWS, log_sheet
    from sheets.pipeline.sheet import render_html

    for seed, theatre, flags, m in rolled:
        sheet = log_sheet(wotw, [m], "x.pdf", "letter")
        steps = len(m.track)
        kinds = ["front", "back"] + (["continuation"] if steps > FRONT_ROWS else [])
        assert [filled.context["pages"][0] for _, filled in sheet.parts] == kinds, (seed, theatre, flags)
        front = render_html(sheet.parts[0][1])
        pages_html = front + (render_html(sheet.parts[2][1]) if steps > FRONT_ROWS else "")
        # rows for the steps rolled and a few spare, no more (a short track: its five lines)
        rows = pages_html.count('<td class="pos')
        assert steps <= rows <= max(steps + SPARE_ROWS + 2, MIN_FRONT_ROWS), (seed, rows, steps)
        for step in m.track:
            assert f">{html.escape(step.terrain)}<" in pages_html.replace("&#34;", '"'), (seed, step.terrain)
        # the events table holds the terrains rolled and no other
        legend = front[front.index('class="events"'):]
        for name in _terrains(wotw, m):
            assert f'<td class="lt">{html.escape(name)}' in legend, (seed, name)
        assert legend.count('<td class="lt">') == len(_terrains(wotw, m)), seed
        # the back: the play aid (its blank shared by every mission of these sides)
        back = render_html(sheet.parts[1][1])
        for needle in ("Fire Table", "Modifiers", "Patrol table", "Morale"):
            assert needle in back, (seed, needle)
        assert ("Weather Effect Table" in back) == bool(m.weather), seed


def _load(wotw, m) -> float:
    """How much a mission's front carries, in about millimetres (to pick the fullest to build)."""
    from sheets.games.wotw.sheets import FRONT_ROWS, MIN_FRONT_ROWS, TRACK_COLUMNS, mission_context, split_balanced

    ctx = mission_context(wotw, m, None)
    columns = split_balanced([e for col in ctx["legend"] for e in col])
    legend = max(sum(math.ceil((sum(len(r) + len(t) + 3 for r, t in e["events"]) + 1) / 55) * 3.2 + 1
                     for e in col) for col in columns)
    lines = math.ceil(max(min(len(m.track) + 2, FRONT_ROWS), MIN_FRONT_ROWS) / TRACK_COLUMNS)
    return len(ctx["roster"]) * 6.6 + lines * 7.6 + legend + (9 if m.engineers else 0) + (8 if m.weather or m.airborne else 0)


def _track_rows_mm(page) -> list[float]:
    """The heights of the track's rows: the gaps between its horizontal rules (PyMuPDF's drawings)."""
    top = page.search_for("MISSION TRACK")[0].y1
    bottom = page.search_for("EVENTS (2D6)")[0].y0 if page.search_for("EVENTS (2D6)") else page.rect.y1
    ys = sorted({round(it[1].y, 1) for d in page.get_drawings() for it in d["items"]
                 if it[0] == "l" and abs(it[1].y - it[2].y) < 0.01 and abs(it[2].x - it[1].x) > 5
                 and top < it[1].y < bottom})
    return [(b - a) / MM for a, b in zip(ys, ys[1:])]


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_fullest_fronts_print_on_one_page_with_the_play_aid_behind(cli, tmp_path, wotw, rolled, paper):
    short = [r for r in rolled if len(r[3].track) <= ONE_PAGE]
    fullest = sorted(short, key=lambda r: -_load(wotw, r[3]))[:3]
    longest = max(rolled, key=lambda r: len(r[3].track))
    for seed, theatre, flags, m in fullest + [longest]:
        out = tmp_path / f"{seed}-{paper}.pdf"
        options = [f"--{k}" for k, on in flags.items() if on]
        result = cli("mission", "--theatre", theatre, "--seed", str(seed), *options, "--paper", paper, "-o", out)
        assert result.exit_code == 0, result
        doc = pymupdf.open(out)
        expected = 2 if len(m.track) <= ONE_PAGE else 3
        assert len(doc) == expected, (seed, theatre, flags, len(m.track), len(doc))
        steps_text = " ".join(doc[i].get_text() for i in (0, 2) if i < len(doc))
        flat = " ".join(steps_text.split())
        for step in m.track:
            assert step.terrain in flat, (seed, step.terrain)
        front = " ".join(doc[0].get_text().split())
        for name in _terrains(wotw, m):
            assert name in front, (seed, name)
        back = doc[1].get_text()
        assert "FIRE TABLE" in back and "PATROL TABLE" in back and "MODIFIERS" in back
        rows = _track_rows_mm(doc[0])
        assert len(rows) >= math.ceil(min(len(m.track), 27) / 3), rows
        assert min(rows) >= 7.0, (seed, rows)


def test_a_large_print_mission_stamps_every_value_at_12_pt(cli, tmp_path, library, rolled):
    """In large print the stamper shrinks no value under the edition's floor (12 pt): a value that
    does not fit grows its box or the page is laid out in full (it shrank them to 6 pt: an
    objective at 7.8 pt, a track's terrain at 8.4, the audit trail at 7.2). The fullest front of
    the rolled missions, and the longest track, each with every text at the floor."""
    from floors import under_floor

    theme = library.theme()
    short = [r for r in rolled if len(r[3].track) <= ONE_PAGE]
    for seed, theatre, flags, m in [max(short, key=lambda r: _load(library.game("wotw"), r[3])),
                                    max(rolled, key=lambda r: len(r[3].track))]:
        out = tmp_path / f"{seed}.pdf"
        options = [f"--{k}" for k, on in flags.items() if on]
        result = cli("mission", "--theatre", theatre, "--seed", str(seed), *options, "--large-print", "-o", out)
        assert result.exit_code == 0, result
        assert under_floor(out, theme, large_print=True) == [], seed

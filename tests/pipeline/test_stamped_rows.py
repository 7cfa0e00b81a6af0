"""Stamped rows (sheets.pipeline.stamp.rows): a `data-rows` section's rows set in the look of its
blank's sample row, or refused (None) when they cannot be set exactly. The layout here is the
shape `sheets.pipeline.stamp.layout` records for a blank's sample fields; the end-to-end check,
that every word lands where WeasyPrint puts it, is in test_stamping.py."""
from __future__ import annotations

import pytest

from sheets.pipeline.stamp.fonts import face_for, kerned_width
from sheets.pipeline.stamp.rows import Piece, Rule, plan_rows, rows_of

pytestmark = pytest.mark.unit

FAMILY = ["Sheets DejaVu Sans Condensed", "Sheets DejaVu Sans", "sans-serif"]


def _font(weight: int = 400, size: float = 7.5) -> dict:
    return {"family": FAMILY, "weight": weight, "style": "normal", "stretch": "normal", "size": size,
            "line_height": 1.08 * size, "color": [0, 0, 0, 1], "align": "start", "transform": "none",
            "spacing": 0.0}


def _cell(x: float, w: float, weight: int = 400) -> dict:
    pad = 1.33
    return {"page": 0, "tag": "td", "border": [x, 100.0, w, 20.0], "content": [x + 2.5, 100.0 + pad, w - 5, 8.1],
            "font": _font(weight), "fill": [0.53, 0.53, 0.53, 1.0], "display": "table-cell", "rule": 0.4,
            "pad": [pad, pad]}


def _inline(weight: int = 400, display: str = "inline", size: float = 7.5) -> dict:
    return {"page": 0, "tag": "span", "border": [0, 0, 0, 0], "content": [0, 0, 0, 0], "font": _font(weight, size),
            "fill": [0, 0, 0, 1], "display": display, "rule": 0.0, "pad": [0.0, 0.0]}


def layout(bottom: float = 800.0) -> dict:
    fields = {"ev": {"page": 0, "content": [25.0, 99.8, 540.0, 20.0]},
              "ev~c0.0": _cell(25.0, 67.0, 700), "ev~c0.1": _cell(92.0, 200.0),
              "ev~c1.0": _cell(300.0, 67.0, 700), "ev~c1.1": _cell(367.0, 200.0),
              "ev~strong": _inline(700), "ev~pl": _inline(400, "block"), "ev~legend-note": _inline(400, size=7.2)}
    return {"pages": [{"width": 595.0, "height": 842.0, "bottom": bottom, "margins": []}], "fields": fields}


def row(terrain: str, events: str, places: str = "") -> str:
    pl = f'<span class="pl">{places}</span>' if places else ""
    return f'<tr><td class="lt">{terrain}{pl}</td><td class="le">{events}</td></tr>'


def table(*rows: str) -> str:
    return '<div><table class="legend">' + "".join(rows) + "</table></div>"


LONG = " · ".join(f"<strong>{n}:</strong> Patrol with a long description of what happens here" for n in range(2, 9))


def pieces(markup: str, bottom: float = 800.0) -> list:
    planned = plan_rows("ev", markup, layout(bottom))
    assert planned is not None
    return planned[0]


def test_the_cells_are_read_as_runs_in_their_styles():
    (column,) = rows_of(table(row("Wood", "<strong>2:</strong> Patrol (+1)", "Copse")))
    (lt, le), = column
    assert [(r.text, r.style) for r in lt] == [("Wood", ""), ("Copse", "pl")]
    assert [(r.text, r.style) for r in le] == [("2:", "strong"), (" Patrol (+1)", "")]


def test_every_word_is_set_inside_its_cell_and_a_long_cell_wraps():
    drawn = pieces(table(row("Road", LONG)))
    words = [p for p in drawn if isinstance(p, Piece)]
    cell = layout()["fields"]["ev~c0.1"]["content"]
    right = cell[0] + cell[2]
    le = [p for p in words if p.x >= cell[0] - 0.01]
    assert len({round(p.baseline, 2) for p in le}) > 2  # wrapped over several lines
    for p in le:
        assert p.x + kerned_width(p.text.rstrip(), face_for(p.font, p.text)[0], p.size) <= right + 0.01, p
    # the rolls in the sample's bold, the rest in the cell's own face
    assert {p.text.strip() for p in le if p.font["weight"] == 700} == {f"{n}:" for n in range(2, 9)}


def test_rows_stack_each_as_tall_as_its_tallest_cell_and_columns_start_at_the_top():
    drawn = pieces(table(row("Road", LONG), row("Hedge", "<strong>4:</strong> Patrol")) + table(row("Wood", "none")))
    words = [p for p in drawn if isinstance(p, Piece)]
    first = {p.text.strip(): p.baseline for p in words if p.text.strip() in ("Road", "Hedge", "Wood")}
    assert first["Road"] == pytest.approx(first["Wood"])  # both columns start at the sample's first row
    road_lines = len({round(p.baseline, 2) for p in words if p.x > 92 and p.x < 300 and p.baseline < first["Hedge"]})
    assert first["Hedge"] - first["Road"] == pytest.approx(road_lines * 1.08 * 7.5 + 2 * 1.33, abs=0.01)
    rules = [p for p in drawn if isinstance(p, Rule)]
    assert rules and all(r.fill == [0.53, 0.53, 0.53, 1.0] for r in rules)


def test_a_place_starts_its_own_line_and_every_word_keeps_its_space():
    drawn = pieces(table(row("Town", "<strong>2:</strong> Sniper", "House (Building)")))
    words = [p for p in drawn if isinstance(p, Piece)]
    town, house = (next(p for p in words if p.text.startswith(w)) for w in ("Town", "House"))
    assert house.baseline > town.baseline and house.x == pytest.approx(town.x)
    assert "".join(p.text for p in words).split() == "Town House (Building) 2: Sniper".split()
    assert all(p.text.endswith(" ") for p in words)  # the page's text reads with its spaces


def test_what_cannot_be_set_exactly_is_refused():
    assert plan_rows("ev", table(row("Wood", "<em>unstyled</em>")), layout()) is None  # no sample for <em>
    assert plan_rows("ev", table(row("Wood", "a", "b"), ) + table() + table(row("x", "y")), layout()) is None  # no third column
    tall = table(*[row(f"T{i}", LONG) for i in range(12)])
    assert plan_rows("ev", tall, layout(bottom=300.0)) is None  # taller than the page's room
    assert plan_rows("ev", tall, layout(bottom=2000.0)) is not None
    assert plan_rows("ev", table(row("Wood", "\u0645\u0631\u062d\u0628\u0627")), layout()) is None  # to be shaped


def test_rows_of_another_shape_are_refused_not_guessed():
    assert rows_of(table(row("Wood", "a<br>b"))) is None  # an element with no end tag in a cell
    assert rows_of('<tr><td>no table</td></tr>') is None
    assert rows_of(table('<tr><td><table><tr><td>nested</td></tr></table></td></tr>')) is None
    centred = layout()
    centred["fields"]["ev~c0.1"]["font"]["align"] = "center"
    assert plan_rows("ev", table(row("Wood", "Patrol")), centred) is None
    assert plan_rows("ev", table(row("Wood", "Patrol")), layout()) is not None

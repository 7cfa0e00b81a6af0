"""True-scale play aids: blast circles, fans of fire and range rulers.

A game's `gauges.yaml` lists shapes measured in inches or centimetres; this
module turns each into an exact drawing (millimetres on paper), packs the
drawings onto pages and puts a check bar (5 cm and 2 in) on every page, so a
player can see that the printer did not scale the page. A shape larger than
the printable area is refused with a message: split it (a quarter circle, a
second ruler that starts where the first ends).

The models (`GaugeSheet`, `Gauge`) live with the other printables in
sheets/kinds/gauges/model.py.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from markupsafe import escape

from sheets.base import fonts
from sheets.base.errors import SheetsError
from sheets.base.paper import Paper
from sheets.library.kinds.gauges import Gauge
from sheets.pipeline.rendering import game_titled
from sheets.pipeline.sheet import Sheet
from sheets.kinds import style

if TYPE_CHECKING:
    from sheets.library.content import Game

MM_PER_UNIT = {"in": 25.4, "cm": 10.0}
UNIT_MARK = {"in": "\u2033", "cm": "\u00a0cm"}  # 4″, 4 cm (no break between number and unit)
MARGIN_MM = 10.0      # unprintable edge
HEAD_MM = 24.0        # title line and the check bar under it
FOOT_MM = 8.0         # the footer line
GAP_MM = 6.0          # between two drawings (room to cut)
LABEL_MM = 5.0        # a drawing's caption above it
PAD_MM = 1.0          # a stroke's half width and a hair more, around every drawing
RULER_MM = 14.0       # height of a ruler strip


# -- drawing ---------------------------------------------------------------
#: presentation attributes (WeasyPrint does not apply page CSS inside inline SVG)
STYLE = {
    "edge": 'fill="none" stroke="#111" stroke-width="0.35"',
    "ring": 'fill="none" stroke="#666" stroke-width="0.2" stroke-dasharray="1.2 0.8"',
    "tick": 'fill="none" stroke="#111" stroke-width="0.2"',
    "mark": 'fill="none" stroke="#b03a2e" stroke-width="0.3"',
    "dot": 'fill="#111" stroke="none"',
}


def _n(x: float) -> str:
    """A coordinate for SVG: rounded, no trailing zeros (stable output)."""
    return f"{round(x, 3):g}"


def number(value: float) -> str:
    return f"{value:g}"


@dataclass
class Drawing:
    """One gauge drawn in millimetres: its box size and the SVG elements inside it."""

    gauge: Gauge
    width_mm: float
    height_mm: float
    svg: str            # SVG elements, coordinates in mm inside the box
    caption: str

    @property
    def outer_h(self) -> float:
        return self.height_mm + LABEL_MM


def _arc_path(cx: float, cy: float, r: float, a0: float, a1: float) -> str:
    """An arc from angle a0 to a1 (degrees, counter-clockwise from +x, y up), SVG y down."""
    x0, y0 = cx + r * math.cos(math.radians(a0)), cy - r * math.sin(math.radians(a0))
    x1, y1 = cx + r * math.cos(math.radians(a1)), cy - r * math.sin(math.radians(a1))
    large = 1 if (a1 - a0) > 180 else 0
    return f"M{_n(x0)},{_n(y0)} A{_n(r)},{_n(r)} 0 {large} 0 {_n(x1)},{_n(y1)}"


#: the bundled fonts (base.css's @font-face); WeasyPrint's SVG text splits this at commas and
#: keeps any space after one, hence none
SVG_FONTS = f"{fonts.CONDENSED},{fonts.SANS},sans-serif"


def _text(x: float, y: float, s: str, size: float = 2.7, anchor: str = "middle", weight: str = "normal") -> str:
    return (f'<text x="{_n(x)}" y="{_n(y)}" font-size="{_n(size)}" text-anchor="{anchor}" '
            f'font-weight="{weight}" font-family="{SVG_FONTS}">{escape(s)}</text>')


def draw(g: Gauge, unit: str) -> Drawing:
    k = MM_PER_UNIT[unit]
    mark = UNIT_MARK[unit]
    ring_labels = {m.at: m.label for m in g.marks}
    parts: list[str] = []
    if g.kind == "circle":
        r = g.radius * k
        c = r + PAD_MM
        w = h = 2 * c
        parts.append(f'<circle cx="{_n(c)}" cy="{_n(c)}" r="{_n(r)}" {STYLE["edge"]}/>')
        for ring in g.rings:
            parts.append(f'<circle cx="{_n(c)}" cy="{_n(c)}" r="{_n(ring * k)}" {STYLE["ring"]}/>')
            parts.append(_text(c, c - ring * k + 3.2, ring_labels.get(ring, f"{number(ring)}{mark}")))
        parts.append(f'<path d="M{_n(c - 3)},{_n(c)} H{_n(c + 3)} M{_n(c)},{_n(c - 3)} V{_n(c + 3)}" {STYLE["ring"]}/>')
        caption = f"{g.label} · radius {number(g.radius)}{mark}"
    elif g.kind == "sector":
        r = g.radius * k
        a = g.angle
        if g.corner:
            a0, a1 = 0.0, a
            cx, cy = PAD_MM, PAD_MM + r * math.sin(math.radians(a))
            w = r + 2 * PAD_MM
            h = r * math.sin(math.radians(a)) + 2 * PAD_MM
        else:
            a0, a1 = 90 - a / 2, 90 + a / 2
            half = r * math.sin(math.radians(a / 2))
            cx, cy = PAD_MM + half, PAD_MM + r
            w = 2 * half + 2 * PAD_MM
            h = r + 2 * PAD_MM
        x0, y0 = cx + r * math.cos(math.radians(a0)), cy - r * math.sin(math.radians(a0))
        x1, y1 = cx + r * math.cos(math.radians(a1)), cy - r * math.sin(math.radians(a1))
        parts.append(f'<path d="M{_n(cx)},{_n(cy)} L{_n(x0)},{_n(y0)} '
                     f'A{_n(r)},{_n(r)} 0 0 0 {_n(x1)},{_n(y1)} Z" {STYLE["edge"]}/>')
        mid = math.radians((a0 + a1) / 2)
        for ring in g.rings:
            parts.append(f'<path d="{_arc_path(cx, cy, ring * k, a0, a1)}" {STYLE["ring"]}/>')
            tx, ty = cx + (ring * k - 2.2) * math.cos(mid), cy - (ring * k - 2.2) * math.sin(mid)
            parts.append(_text(tx, ty + 0.9, ring_labels.get(ring, f"{number(ring)}{mark}")))
        parts.append(f'<circle cx="{_n(cx)}" cy="{_n(cy)}" r="0.8" {STYLE["dot"]}/>')
        what = "quarter circle" if g.corner and a == 90 else f"{number(a)}° fan"
        caption = f"{g.label} · {what}, radius {number(g.radius)}{mark}"
    else:  # ruler
        length = (g.end - g.start) * k
        w, h = length + 2 * PAD_MM, RULER_MM
        x0 = PAD_MM
        parts.append(f'<rect x="{_n(x0)}" y="0.4" width="{_n(length)}" height="{_n(RULER_MM - 0.8)}" {STYLE["edge"]}/>')
        steps = round((g.end - g.start) / g.minor)
        ticks: list[str] = []
        labels = {m.at: m.label for m in g.marks}
        for i in range(steps + 1):
            v = g.start + i * g.minor
            x = x0 + (v - g.start) * k
            ratio = (v - g.start) / g.major
            is_major = abs(ratio - round(ratio)) < 1e-6
            ticks.append(f"M{_n(x)},0.4 V{_n(0.4 + (4.2 if is_major else 2.2))}")
            if is_major:
                anchor = "start" if i == 0 else ("end" if i == steps else "middle")
                parts.append(_text(x + (0.6 if i == 0 else (-0.6 if i == steps else 0)), 7.4, number(v), 2.8, anchor))
        parts.append(f'<path d="{" ".join(ticks)}" {STYLE["tick"]}/>')
        for at, text in labels.items():
            x = x0 + (at - g.start) * k
            parts.append(f'<path d="M{_n(x)},8.2 V{_n(RULER_MM - 0.4)}" {STYLE["mark"]}/>')
            anchor = "end" if at - g.start > (g.end - g.start) / 2 else "start"
            dx = -0.8 if anchor == "end" else 0.8
            parts.append(_text(x + dx, RULER_MM - 1.6, text, 2.7, anchor, "bold"))
        caption = f"{g.label} · {number(g.start)} to {number(g.end)}{mark}"
    return Drawing(g, round(w, 3), round(h, 3), "\n".join(parts), caption)


# -- pages -----------------------------------------------------------------
@dataclass
class Row:
    drawings: list[Drawing]

    @property
    def height(self) -> float:
        return max(d.outer_h for d in self.drawings)


def pack(drawings: list[Drawing], width: float, height: float, where: str = "gauges.yaml") -> list[list[Row]]:
    """Drawings in content order, left to right in rows, rows down pages."""
    pages: list[list[Row]] = [[]]
    used_h = 0.0
    row: list[Drawing] = []
    row_w = 0.0

    def close_row():
        nonlocal row, row_w, used_h
        if not row:
            return
        r = Row(row)
        if pages[-1] and used_h + GAP_MM + r.height > height:
            pages.append([])
            used_h = 0.0
        used_h += (GAP_MM if pages[-1] else 0) + r.height
        pages[-1].append(r)
        row, row_w = [], 0.0

    for d in drawings:
        if d.width_mm > width or d.outer_h > height:
            raise SheetsError(f"{where}: gauge {d.gauge.id!r} ({d.width_mm:g} x {d.outer_h:g} mm) does not fit the "
                              f"printable area ({width:g} x {height:g} mm): split it into smaller pieces")
        need = d.width_mm + (GAP_MM if row else 0)
        if row and row_w + need > width:
            close_row()
            need = d.width_mm
        row.append(d)
        row_w += need
    close_row()
    return pages


def gauge_sheet(game: "Game", paper: Paper, filename: str | None = None) -> Sheet:
    """The game's true-scale sheet (phase one: nothing rendered here)."""
    sheet = game.content["gauges"]
    if sheet is None:
        raise SheetsError(f"{game.info.title} has no true-scale gauges (no gauges.yaml)")
    w, h = paper.width_mm, paper.height_mm
    if sheet.orientation == "landscape":
        w, h = h, w
    drawings = [draw(g, sheet.unit) for g in sheet.gauges for _ in range(g.copies)]
    usable_w = w - 2 * MARGIN_MM
    usable_h = h - 2 * MARGIN_MM - HEAD_MM - FOOT_MM
    pages = pack(drawings, usable_w, usable_h, f"{game.id}/gauges.yaml")
    context = {**style.of(game),
        "title": sheet.title,
        "note": sheet.note,
        "page_size": f"{w:g}mm {h:g}mm", "page_w": w, "page_h": h,
        "margin": MARGIN_MM, "head": HEAD_MM, "gap": GAP_MM, "label_h": LABEL_MM,
        "pages": pages,
        "footer": f"{game_titled(game.info.title, sheet.title)} · print at 100 % (no 'fit to page') · warsheets",
    }
    return Sheet(filename=filename or f"{game.id}-gauges.pdf", template="gauges.html.j2", context=context,
                 game=game.id, templates=game.templates, label=f"{game.info.title} true-scale gauges")


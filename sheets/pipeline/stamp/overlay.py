"""What to draw for a filled sheet, and drawing it: reportlab ops on a transparent page.

`plan_part` compares a filled sheet's fields with its blank's and returns, per page,
the ops that turn the blank into the filled sheet (None: it cannot be stamped, lay it
out instead); `draw_overlay` draws them.
"""
from __future__ import annotations

import io
import re
from dataclasses import dataclass, field

from reportlab import rl_config
from reportlab.pdfgen.canvas import Canvas

from sheets.base.colors import MIN_SHEET_PT
from sheets.pdf.fonts import finish_fonts
from sheets.pipeline.stamp.fields import Fields
from sheets.pipeline.stamp.fonts import drawable, face_for, split_lines, text_width
from sheets.pipeline.stamp.rows import Rule, plan_rows

def _transform(text: str, how: str) -> str:
    return text.upper() if how == "uppercase" else text.lower() if how == "lowercase" else text


@dataclass
class Op:
    """One thing to draw: text lines, a filled box with a tick, an underline, a shade."""

    kind: str
    box: list[float]
    font: dict | None = None
    lines: list[str] = field(default_factory=list)
    size: float = 0.0
    fill: list[float] | None = None
    baseline: float | None = None
    align: str = "start"
    valign: str = "top"
    #: page furniture, not content: True a running footer (a pagination artifact), "layout" a
    #: table's border (a layout artifact)
    artifact: bool | str = False


def _fit_text(text: str, spec: dict, floor: float | None) -> Op | None:
    """Shrink, then wrap, a value into its field's content box, never below the sheet's floor
    (`Fields.floor_pt`: the large-print edition's, else MIN_SHEET_PT) or its own size if that
    is smaller (a note, a footer: at their role's floor already); None when it cannot be drawn
    exactly (a glyph the stamp font lacks, text to shape or reorder, or no fit): the box grows
    (`growth`) or the sheet is laid out instead, its text at its own size."""
    font = spec["font"]
    text = _transform(text, font["transform"])
    if not drawable(font, text):
        return None
    face = face_for(font, text)[0]
    x, y, w, h = spec["content"]
    size = font["size"]
    lh = font["line_height"]
    smallest = min(size, floor if floor is not None else MIN_SHEET_PT)
    for step in range(0, 9):
        s = size * (1 - 0.05 * step)
        if s < smallest - 1e-9:
            break
        line_h = lh * s / size
        if text_width(text, face, s, font["spacing"]) <= w + 0.01:
            return Op("text", spec["content"], font, [text], s, baseline=None, valign=spec.get("valign", "top"))
        lines = split_lines(text, face, s, w)
        if len(lines) > 1 and len(lines) * line_h <= max(h, lh) + 0.01 and all(
                text_width(ln, face, s, 0) <= w + 0.01 for ln in lines):
            return Op("text", spec["content"], font, lines, s, valign=spec.get("valign", "top"))
    return None


def _box_ops(before, value, spec: dict) -> list[Op] | None:
    """What to draw for a check box the part ticks or shades (nothing: neither); None when the
    blank has it on already, or the part writes other text in it."""
    if before.state or value.text.strip("✔ "):
        return None
    shape = "round" if spec["round"] else "square"
    if value.state == "marked":
        return [Op("tick", spec["border"], spec["font"], [value.text or "✔"], spec["font"]["size"],
                   fill=spec["fill"], baseline=_box_baseline(spec), align="center", valign=shape)]
    if value.state == "premarked":
        return [Op("fill", spec["border"], fill=[0.467, 0.467, 0.467, 1.0], valign=shape)]
    return []


def plan_part(blank: Fields, layout: dict, filled: Fields) -> list[list[Op]] | None:
    """What to draw on each page of the blank for this filled part; None: cannot stamp it."""
    if filled.skeleton != blank.skeleton or set(filled.values) != set(blank.values):
        return None
    ops: list[list[Op]] = [[] for _ in layout["pages"]]
    for name, value in filled.values.items():
        before = blank.values[name]
        if value == before:
            continue
        spec = layout["fields"].get(name)
        if spec is None or value.kind != before.kind:
            return None
        if value.kind == "rows":
            drawn = _rows_ops(name, value, layout)
            if drawn is None:
                return None
            ops[spec["page"]] += drawn
            continue
        drawn = _value_ops(before, value, spec, blank.floor_pt)
        if drawn is None:
            return None
        ops[spec["page"]] += drawn
    return ops


def _rows_ops(name: str, value, layout: dict) -> list[Op] | None:
    """A `data-rows` section's rows (sheets.pipeline.stamp.rows) as ops: each border a layout
    artifact, each run of words text at its baseline; None: they cannot be set exactly."""
    planned = plan_rows(name, value.markup, layout)
    if planned is None:
        return None
    ops = []
    for item in planned[0]:
        if isinstance(item, Rule):
            ops.append(Op("fill", item.box, fill=item.fill, artifact="layout"))
        else:
            font = item.font if item.font["align"] in ("start", "left") else dict(item.font, align="start")
            ops.append(Op("words", [item.x, item.baseline, 0, 0], font, [item.text], item.size, baseline=item.baseline))
    return ops


def _value_ops(before, value, spec: dict, floor: float | None) -> list[Op] | None:
    """What to draw for one field whose value differs from the blank's; None: it cannot be drawn."""
    kind = value.kind
    if kind == "text":
        if before.text:
            return None  # cannot paint over text already on the blank
        if not value.text:
            return []
        op = _fit_text(value.text, spec, floor)
        return [op] if op is not None else None  # None: laid out in full, where it is printed whole
    if kind == "box":
        return _box_ops(before, value, spec)
    # a mark over text that is the same on blank and filled
    if value.text != before.text or "marked" in before.classes:
        return None
    if "marked" in value.classes:
        return [Op(kind, spec["border"], spec["font"], size=spec["font"]["size"], baseline=spec["baseline"])]
    return []


def growth(blank: Fields, layout: dict, filled: Fields) -> dict[str, float] | None:
    """The heights (pt) that the blank's growing boxes (`data-grow`) must have for this filled
    part to be stamped, when its text does not fit them at the type's own size; None when
    taller boxes would not do (another field does not fit, a glyph, a changed skeleton).
    A box grows by whole lines, as the sheet laid out in full would grow it."""
    if filled.skeleton != blank.skeleton or set(filled.values) != set(blank.values):
        return None
    heights: dict[str, float] = {}
    for name, value in filled.values.items():
        spec = layout["fields"].get(name)
        before = blank.values[name]
        if not (before.grow and value.kind == "text" == before.kind and value.text and not before.text
                and spec is not None and _fit_text(value.text, spec, blank.floor_pt) is None):
            continue
        font = spec["font"]
        text = _transform(value.text, font["transform"])
        if not drawable(font, text):
            return None
        face = face_for(font, text)[0]
        w = spec["content"][2]
        lines = split_lines(text, face, font["size"], w)
        if not lines or any(text_width(ln, face, font["size"], 0) > w + 0.01 for ln in lines):
            return None  # a word wider than the box: laid out in full, where it wraps
        heights[name] = round(len(lines) * font["line_height"], 2)
    if not heights:
        return None
    taller = dict(layout, fields=dict(layout["fields"]))
    for name, h in heights.items():
        spec = taller["fields"][name] = dict(taller["fields"][name])
        x, y, w, _ = spec["content"]
        spec["content"] = [x, y, w, h]
    return heights if plan_part(blank, taller, filled) is not None else None


_FIELD_TAG = r'<(?:span|td|th|div|p|li|section)\b[^>]*\sdata-field="{name}"[^>]*>'


_STYLE = re.compile(r"""(\sstyle\s*=\s*)(["'])(.*?)\2""", re.S)


def grown_html(html: str, heights: dict[str, float]) -> str:
    """The blank's HTML with each of these boxes at least this tall: a CSS min-height at the end
    of the field's own style (after any min-height it had, so that this one holds)."""
    for name, h in sorted(heights.items()):
        def taller(m: re.Match, h=h) -> str:
            tag = m.group(0)
            style = _STYLE.search(tag)
            if style is None:
                return tag[:-1] + f' style="min-height: {h:.2f}pt">'
            value = style.group(3).rstrip().rstrip(";")
            value = f"{value}; min-height: {h:.2f}pt" if value else f"min-height: {h:.2f}pt"
            return tag[:style.start(3)] + value + tag[style.end(3):]
        html, n = re.subn(_FIELD_TAG.format(name=re.escape(name)), taller, html, count=1)
        if n != 1:
            raise ValueError(f"no data-field {name!r} to grow")
    return html


def _box_baseline(spec: dict) -> float:
    font = spec["font"]
    _, asc, desc, _ = face_for(font, "✔")
    cx, cy, cw, ch = spec["content"]
    half = (font["line_height"] - (asc + desc) * font["size"]) / 2
    return cy + half + asc * font["size"]


def _draw(canvas, page_h: float, op: Op) -> None:
    x, y, w, h = op.box
    if op.kind in ("tick", "fill"):
        r, g, b, a = op.fill or [0, 0, 0, 1]
        canvas.setFillColorRGB(r, g, b, a)
        if op.valign == "round":
            canvas.ellipse(x, page_h - y - h, x + w, page_h - y, stroke=0, fill=1)
        else:
            canvas.rect(x, page_h - y - h, w, h, stroke=0, fill=1)
        if op.kind == "fill":
            return
        assert op.font is not None and op.baseline is not None  # a tick is planned with its font and baseline
        face = face_for(op.font, op.lines[0])[0]
        light = 0.299 * r + 0.587 * g + 0.114 * b > 0.5
        canvas.setFillColorRGB(*((0, 0, 0) if light else (1, 1, 1)))  # the tick contrasts with the fill
        canvas.setFont(face, op.size)
        canvas.drawCentredString(x + w / 2, page_h - op.baseline, op.lines[0])
        return
    if op.kind == "underline":
        base = op.baseline if op.baseline is not None else y + h * 0.8
        canvas.setStrokeColorRGB(0, 0, 0)
        canvas.setLineWidth(max(op.size / 14, 0.4))
        canvas.line(x, page_h - base - op.size * 0.12, x + w, page_h - base - op.size * 0.12)
        return
    if op.kind == "shade":
        canvas.setFillColorRGB(0, 0, 0, 0.133)
        canvas.rect(x, page_h - y - h, w, h, stroke=0, fill=1)
        return
    # text ("words": a run of a stamped row, at its baseline)
    font = op.font
    assert font is not None  # a text is planned with its font
    face, asc, desc, _ = face_for(font, "".join(op.lines))
    s = op.size
    line_h = font["line_height"] * s / font["size"]
    half = (line_h - (asc + desc) * s) / 2
    total = line_h * len(op.lines)
    top = y
    if op.valign == "bottom":
        top = y + h - total
    elif op.valign == "middle":
        top = y + (h - total) / 2
    r, g, b, a = font["color"]
    canvas.setFillColorRGB(r, g, b, a)
    for i, line in enumerate(op.lines):
        base = op.baseline + i * line_h if op.baseline is not None else top + i * line_h + half + asc * s
        width = text_width(line, face, s, font["spacing"])
        align = font["align"]
        lx = x + (w - width) / 2 if align == "center" else (x + w - width if align in ("right", "end") else x)
        text = canvas.beginText(lx, page_h - base)
        text.setFont(face, s)
        if font["spacing"]:
            text.setCharSpace(font["spacing"])
        text.textOut(line)
        canvas.drawText(text)


FOOTER_GAP = 6.0  # pt between a wrapped footer and the next margin box ("page N of M")
_PAGE_OF = re.compile(r"page \d+ of \d+")


def footers_drawable(margins: list[dict], footer: str, blank_footer: str) -> bool:
    """Whether this footer can be stamped in the blank's margin boxes exactly."""
    return all(drawable(m["font"], _transform(footer, m["font"]["transform"]))
               for m in margins if m["text"] and blank_footer and m["text"] == blank_footer)


def margin_ops(margins: list[dict], footer: str, blank_footer: str, number: int, total: int) -> list[Op]:
    """The page footers, as the blank's margin boxes had them, for this page of the whole document."""
    ops = []
    for m in margins:
        text = m["text"]
        if not text or m.get("kept"):  # a footer the stamper cannot draw stays laid out on the page
            continue
        if m.get("rule"):  # the header band's rule, under its text as laid out
            ops.append(Op("fill", m["rule"]["box"], fill=m["rule"]["fill"], artifact=True))
        if _PAGE_OF.fullmatch(text.strip()):
            text = f"page {number} of {total}"
        elif blank_footer and text == blank_footer:
            text = footer
        if not text:
            continue
        font = dict(m["font"])
        font["align"] = "right" if m["at"].endswith("right") else ("center" if m["at"].endswith("center") else "start")
        x, y, w, h = m["content"]
        if font["align"] == "right":  # the box was as wide as the blank's text; keep its right edge
            pass
        text = _transform(text, font["transform"])
        lines = [text]
        if font["align"] == "start":  # a footer wider than the room up to the next box wraps, as laid out
            face = font_name = face_for(font, text)[0]
            room = min([o["content"][0] - x - FOOTER_GAP for o in margins if o["content"][0] > x + 1] or [w])
            if text_width(text, font_name, font["size"], font["spacing"]) > max(room, w) + 0.01:
                lines = split_lines(text, face, font["size"], max(room, w)) or [text]
        ops.append(Op("text", [x, y, w, h], font, lines, font["size"], baseline=m["baseline"], artifact=True))
    return ops


_PLAIN = {"family": ["DejaVu Sans"], "weight": 400, "style": "normal", "stretch": "normal"}


def draw_overlay(pages: list[tuple[float, float, list[Op]]]) -> bytes:
    """One reportlab document: a transparent page per entry (size, ops)."""
    rl_config.useA85 = 0  # binary streams: smaller, and faster to write and read
    buf = io.BytesIO()
    # a TTF as the initial font: reportlab then starts no page by selecting Helvetica (a font the
    # page would name without embedding); the first text's face, registered already to draw it
    first = next((op for _, _, ops in pages for op in ops if op.font is not None and op.lines), None)
    initial = face_for(first.font, first.lines[0])[0] if first is not None and first.font else face_for(_PLAIN)[0]
    canvas = Canvas(buf, invariant=1, pageCompression=1, initialFontName=initial)
    canvas.setProducer("warsheets")
    for width, height, ops in pages:
        canvas.setPageSize((width, height))
        for op in ops:
            if op.artifact == "layout":  # a border: a run of text before it and one after are two P
                canvas.addLiteral("/Artifact <</Type /Layout>> BDC")
            elif op.artifact:  # PDF/UA-1 (ISO 14289-1 7.8): running footers are artifacts
                canvas.addLiteral("/Artifact <</Type /Pagination /Subtype /Footer>> BDC")
            _draw(canvas, height, op)
            if op.artifact:
                canvas.addLiteral("EMC")
        canvas.showPage()
    canvas.save()
    return finish_fonts(buf.getvalue(), reportlab=True)  # subsets tagged by content



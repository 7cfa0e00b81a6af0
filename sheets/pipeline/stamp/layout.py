"""The blank's layout: where WeasyPrint put each `data-field` element and each page footer.

A blank is laid out once (in a worker) and cached with this layout, so that a filled
sheet is only drawn onto it (`sheets.pipeline.stamp.overlay`).
"""
from __future__ import annotations

from typing import Iterable

from sheets.base import weasyboxes
from sheets.pipeline import rendering
from sheets.pdf.fonts import finish_fonts
from sheets.pipeline.stamp.fields import SAMPLE
from sheets.pipeline.stamp.glyphs import drawable

PX = 0.75  # CSS px -> PDF pt


def _rgba(color) -> list[float]:
    """A computed CSS colour as sRGB red, green, blue, alpha (0-1). WeasyPrint 63+ computes colours
    as tinycss2's CSS Color 4 values (`to("srgb").coordinates`), older ones as RGBA tuples with
    `.red`; anything else (none given) is black."""
    if hasattr(color, "to") and hasattr(color, "alpha"):
        r, g, b = color.to("srgb").coordinates
        return [min(1.0, max(0.0, float(v))) for v in (r, g, b, color.alpha)]
    try:
        return [float(color.red), float(color.green), float(color.blue), float(color.alpha)]
    except AttributeError:
        return [0.0, 0.0, 0.0, 1.0]


def _rule(box) -> dict | None:
    """A margin box's bottom border (the header band's accent rule) as a filled rectangle (pt, from the
    page top) and its colour: taken out of the document with its box, it is stamped with the text."""
    width = float(box.border_bottom_width or 0)
    if width <= 0 or str(box.style["border_bottom_style"]) in ("none", "hidden"):
        return None
    x, y, w, h = _rect(box, "border")
    return {"box": [x, y + h - width * PX, w, width * PX], "fill": _rgba(box.style["border_bottom_color"])}


def _font(style) -> dict:
    lh = style["line_height"]
    size = float(style["font_size"])
    if getattr(lh, "unit", None) == "px":
        line_height = float(lh.value)
    elif isinstance(lh, (int, float)):
        line_height = float(lh) * size
    elif getattr(lh, "unit", None) is None and hasattr(lh, "value"):
        line_height = float(lh.value) * size
    else:
        line_height = 1.2 * size
    spacing = style["letter_spacing"]
    return {
        "family": list(style["font_family"]),
        "weight": int(style["font_weight"]) if str(style["font_weight"]).isdigit() else 400,
        "style": str(style["font_style"]),
        "stretch": str(style["font_stretch"]),
        "size": size * PX,
        "line_height": line_height * PX,
        "color": _rgba(style["color"]),
        "align": str(style["text_align_all"]),
        "transform": str(style["text_transform"]),
        "spacing": float(getattr(spacing, "value", 0) or 0) * PX if spacing != "normal" else 0.0,
    }


def _first_text(box):
    stack = [box]
    while stack:
        b = stack.pop(0)
        if type(b).__name__ == "TextBox" and b.text.strip():
            return b
        stack[0:0] = list(getattr(b, "children", []))
    return None


def _first_baseline(box) -> float | None:
    """The y (pt, from the page top) of the first line of text inside a box, if any."""
    b = _first_text(box)
    return (b.position_y + b.baseline) * PX if b is not None else None


def _rect(b, which: str) -> list[float]:
    if which == "content":
        return [b.content_box_x() * PX, b.content_box_y() * PX, b.width * PX, b.height * PX]
    return [b.border_box_x() * PX, b.border_box_y() * PX, b.border_width() * PX, b.border_height() * PX]


def layout_of(document) -> dict:
    """Every data-field element's box on a WeasyPrint Document, and its margin boxes.

    The margin boxes (page footers) are taken out of the document: they are stamped; one
    whose text the stamper cannot draw exactly (a name in a script the stamp font lacks)
    stays laid out on the page, marked `kept`.
    """
    pages, fields = [], {}
    for number, page in enumerate(document.pages):
        margins = []
        page_box = weasyboxes.page_box(page)  # the laid-out box tree
        for child in list(page_box.children):
            if type(child).__name__ == "MarginBox":
                text = _first_text(child)
                font = _font((text or child).style)
                words = " ".join(" ".join(t.strip() for t in _texts(child)).split())  # its lines, rejoined
                kept = not drawable(font, words)
                rule = _rule(child)
                margins.append({"at": child.at_keyword, "content": _rect(child, "content"), "font": font,
                                "baseline": _first_baseline(child), "text": words, **({"kept": True} if kept else {}),
                                **({"rule": rule} if rule else {})})
                if not kept:
                    page_box.children = [c for c in page_box.children if c is not child]
        # the page area's bottom (pt from the top): how far down stamped rows may reach (`rows`)
        bottom = (page_box.content_box_y() + page_box.height) * PX
        pages.append({"width": page.width * PX, "height": page.height * PX, "margins": margins, "bottom": bottom})
        stack = [page_box]
        while stack:
            b = stack.pop()
            el = getattr(b, "element", None)
            if el is not None and el.get("data-field") and b.element_tag == el.tag:
                name = el.get("data-field")
                if name not in fields:
                    style = b.style
                    fields[name] = {
                        "page": number, "tag": el.tag,
                        "border": _rect(b, "border"), "content": _rect(b, "content"),
                        "font": _font(style), "baseline": _first_baseline(b),
                        "fill": _rgba(style["border_top_color"]),
                        "round": bool(style["border_top_left_radius"][0].value),
                        "valign": str(style["vertical_align"]) if type(b).__name__ == "TableCellBox" else "top",
                    }
                    if SAMPLE in name:  # a sample of stamped rows' look (sheets.pipeline.stamp.rows)
                        fields[name]["display"] = str(style["display"][0] if isinstance(style["display"], tuple)
                                                      else style["display"])
                        fields[name]["rule"] = float(style["border_top_width"] or 0) * PX
                        # above and below its content (a cell's content box is its own lines', its
                        # border box the row's): padding and borders as used
                        fields[name]["pad"] = [float(b.padding_top + b.border_top_width) * PX,
                                               float(b.padding_bottom + b.border_bottom_width) * PX]
            stack.extend(reversed(list(getattr(b, "children", []))))
    return {"pages": pages, "fields": fields}


def _texts(box) -> Iterable[str]:
    if type(box).__name__ == "TextBox":
        yield box.text
    for c in getattr(box, "children", []):
        yield from _texts(c)


def render_base(html: str) -> tuple[bytes, dict]:
    """WeasyPrint: lay out `html`, note its fields and margin boxes, PDF without footers."""
    document = rendering.lay_out(html)
    layout = layout_of(document)
    # tagged: the stamped file keeps its tags
    return finish_fonts(document.write_pdf(uncompressed_pdf=False, pdf_tags=True)), layout

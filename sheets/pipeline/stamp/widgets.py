"""A fillable stamped sheet: the printed sheet, with a form field at each of its fields' boxes.

A fillable sheet is the printed one (same pages, same places), so it is made as the
printed one is: each part stamped on its cached blank. Then every field the blank leaves
for the player (an empty write-in, a box neither ticked nor shaded on the blank) becomes a
form field at the rectangle the blank's layout recorded for it, holding the part's value
(text, or the tick). Shaded threshold boxes and boxes every sheet ticks (a playbook's own
move) stay printed: never a field, so no box of a blank form is on.

The widgets themselves come from a small WeasyPrint document of absolutely placed
`<input>`/`<textarea>` elements, one page per page of the sheet, at the recorded
rectangles, in each field's own printed font (WeasyPrint embeds the whole font for form
fields and lists it in the form's resources); they are grafted onto the stamped pages and
the form finished as every fillable sheet is (`forms.finish_form`).
"""
from __future__ import annotations

import html as htmllib
import io
import re

from sheets.base import paths
from sheets.pipeline import rendering
from sheets.pipeline.stamp.fields import Value
from sheets.pipeline.stamp.fonts import face_for, font_box
from sheets.pdf.finish import tag_fields
from sheets.pdf.forms import finish_form

_PART = re.compile(r"^c0\.")


def wanted(blank: Value | None) -> str:
    """What a blank's field becomes: "box", "text" or "" (stays printed)."""
    if blank is None:
        return ""
    if blank.kind == "box":
        return "box" if not blank.state else ""
    return "text" if blank.kind == "text" and not blank.text else ""


def line_box(spec: dict) -> tuple[float, float]:
    """(top, height) in pt from the page's top of a one-line text field on its printed line.

    A filler that writes its own appearance of an auto-sized field (pypdf, MuPDF, PDF.js)
    sizes a short entry to the field's height: pypdf to the height over the font's box
    (FontBBox, the font's `head` box, as `forms.finish_form` gives it), its baseline half the
    height less the ascent above the bottom. So the field is the font's box at the printed size
    tall, placed to put that baseline on the printed one: a short entry at the sheet's size on
    the sheet's line, descenders inside; a long one smaller, whole."""
    font = spec["font"]
    _, asc, desc, path = face_for(font)
    low, high = font_box(path)
    x, y, w, h = spec["content"]
    size, lh = font["size"], font["line_height"]
    valign = spec.get("valign", "top")
    top = y + h - lh if valign == "bottom" else y + (h - lh) / 2 if valign == "middle" else y
    baseline = top + (lh - (asc + desc) * size) / 2 + asc * size  # the stamper's (overlay._draw)
    height = min((high - low) * size, h)
    bottom = baseline + (height - asc * size) / 2
    return min(max(bottom - height, y), y + h - height), height


def widgets_of(layout: dict, blank: dict[str, Value], filled: dict[str, Value], part: int) -> list[list[dict]]:
    """Per page of a part: a widget for every field the blank leaves to the player. A box that
    is one of a choice (`data-radio`) is a radio button of that choice's field; a text field is
    one line (auto-sized, on the printed line) unless its box holds two printed lines or more."""
    pages: list[list[dict]] = [[] for _ in layout["pages"]]
    for name, before in blank.items():  # in the page's order: the tab order
        spec = layout["fields"].get(name)
        kind = wanted(before)
        if not kind or spec is None:
            continue
        value = filled.get(name, before)
        x, y, w, h = spec["content"]  # inside the printed border: a box's frame stays the page's
        if w < 1 or h < 1:
            continue
        font = spec["font"]
        if kind == "text":
            if spec["tag"] in ("div", "td") and h >= 2 * font["line_height"]:
                kind = "multiline"
            else:
                y, h = line_box(spec)
        widget = {
            "name": _PART.sub(f"c{part}.", name), "kind": kind, "rect": [x, y, w, h], "font": font,
            "value": value.text if kind != "box" else "", "checked": kind == "box" and value.state == "marked",
            "label": value.label, "align": font.get("align", "start")}
        if kind == "box" and before.radio and name.startswith(before.radio + "."):
            # the choice names its on-state: letters and digits only ("T/5" -> "T5"), a PDF name
            # every filler spells alike (PyMuPDF gives a name's # escapes back as they are)
            widget["radio"] = (_PART.sub(f"c{part}.", before.radio),
                               re.sub(r"[^A-Za-z0-9]", "", name[len(before.radio) + 1:]) or "on")
        pages[spec["page"]].append(widget)
    return pages


def _css(font: dict) -> str:
    family = ", ".join(f"'{f}'" for f in font["family"])
    return (f"font-family:{family};font-style:{font['style']};font-weight:{font['weight']};"
            f"font-size:{font['size']}pt;line-height:{font['line_height']}pt")


def _element(w: dict) -> str:
    x, y, width, height = w["rect"]
    style = (f"position:absolute;left:{x}pt;top:{y}pt;width:{width}pt;height:{height}pt;border:none;"
             f"background:none;padding:0;margin:0;{_css(w['font'])}")
    name = htmllib.escape(w["name"])
    title = f' title="{htmllib.escape(w["label"])}"' if w["label"] else ""
    if w["kind"] == "box":
        return f'<input type="checkbox" name="{name}"{title} style="{style}"{" checked" if w["checked"] else ""}>'
    if w["kind"] == "multiline":
        return f'<textarea name="{name}"{title} style="{style}">{htmllib.escape(w["value"])}</textarea>'
    return f'<input type="text" name="{name}"{title} value="{htmllib.escape(w["value"])}" style="{style}">'


def fields_document(sizes: list[tuple[float, float]], pages: list[list[dict]]) -> str:
    """The HTML of the widgets alone: one page per page of the sheet, each widget in place."""
    faces = (paths.templates_dir() / "_base" / "base.css").read_text(encoding="utf-8").split("@page")[0]
    body = "".join(
        f'<div style="position:relative;width:{w}pt;height:{h}pt;overflow:hidden;break-after:page">'
        f'{"".join(_element(x) for x in widgets)}</div>'
        for (w, h), widgets in zip(sizes, pages))
    size = sizes[0] if sizes else (595.0, 842.0)
    return (f"<!DOCTYPE html><html><head><meta charset=\"utf-8\"><style>{faces}"
            f"@page{{size:{size[0]}pt {size[1]}pt;margin:0}}body{{margin:0}}</style></head><body>{body}</body></html>")


def add_form(pdf_bytes: bytes, sizes: list[tuple[float, float]], pages: list[list[dict]]) -> bytes:
    """The stamped PDF with the widgets of `pages` grafted on its pages, the form finished and,
    in a tagged file, each widget tagged (`sheets.pdf.finish.tag_fields`)."""
    import pikepdf  # noqa: PLC0415 - the stamper's side only


    if not any(pages):
        return pdf_bytes
    made = rendering.html_to_pdf(fields_document(sizes, pages), forms=True, tags=False)
    with pikepdf.open(io.BytesIO(made)) as fields_pdf, pikepdf.open(io.BytesIO(pdf_bytes)) as base:
        if len(fields_pdf.pages) != len(base.pages):
            raise RuntimeError(f"fields document has {len(fields_pdf.pages)} pages for {len(base.pages)}")
        for page, widgets in zip(fields_pdf.pages, pages):
            quadding = {w["name"]: {"center": 1, "right": 2, "end": 2}.get(w["align"], 0) for w in widgets}
            for annot in page.obj.get("/Annots", []):
                if quadding.get(str(annot.get("/T", ""))):
                    annot.Q = quadding[str(annot.T)]  # the printed text's alignment
                if "/P" in annot:
                    del annot["/P"]  # else copying drags the fields document's page along
        form = base.copy_foreign(fields_pdf.make_indirect(fields_pdf.Root.AcroForm))
        for page, src in zip(base.pages, fields_pdf.pages):
            annots = pikepdf.Array()
            for annot in src.obj.get("/Annots", []):
                copied = base.copy_foreign(annot)  # the same object as in the form's /Fields
                copied.P = page.obj
                annots.append(copied)
            if len(annots):
                page.obj.Annots = annots
        base.Root.AcroForm = form
        out = io.BytesIO()
        base.save(out, deterministic_id=True)
    radios = {w["name"]: w["radio"] for widgets in pages for w in widgets if "radio" in w}
    return tag_fields(finish_form(out.getvalue(), radios=radios, autosize=True))

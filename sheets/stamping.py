"""Filled sheets stamped onto cached blanks: lay a sheet out once, then only draw its values.

A stamped sheet is a list of parts, each a pair (blank, filled) of sheets made from
the same template: the blank is the sheet with no values, the filled one carries one
character's (or one mission's) values. The blank is laid out by WeasyPrint once and
cached, with the boxes of its `data-field` elements (the `write()`/`box()` macros put
every per-character value or mark in one). For each part, the filled sheet's HTML is
rendered with Jinja only (cheap); its `data-field` values are drawn with reportlab, at
the boxes of the blank's same-named fields, on a transparent page laid over the blank.

Generic by construction, with no per-field code:
  - a field's kind comes from its markup: class `box` (a check box: marked or
    premarked is painted), `data-mark="underline"` / `"shade"` (text that is chosen by
    a mark), anything else is text written in the field's own font, size and colour;
  - the filled HTML with every field (and the footer string) blanked must equal the
    blank's HTML blanked the same way. Where it does not (a template varies outside its
    fields, or a field cannot be painted over), that part is laid out in full instead:
    slower, never wrong.
The page footers (the footer string and "page N of M") are stamped the same way, at
the blank's margin boxes, so that the page count can run over the whole document.

Blanks are cached by a hash of their HTML (which carries the content, the template
and the paper) plus the engine and stamper versions.
"""
from __future__ import annotations

import hashlib
import html as htmllib
import io
import json
import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Callable, Iterable

from sheets.errors import SheetsError

STAMPER_VERSION = "1"
PX = 0.75  # CSS px -> PDF pt
CHUNK = 25  # parts per overlay document (bounds memory; a worker's unit of work)


class FitError(SheetsError):
    """A value does not fit its box on the sheet (found before anything is written)."""


# ============================================================== the blank's layout
def _rgba(color) -> list[float]:
    try:
        return [float(color.red), float(color.green), float(color.blue), float(color.alpha)]
    except AttributeError:
        return [0.0, 0.0, 0.0, 1.0]


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

    The margin boxes (page footers) are taken out of the document: they are stamped.
    """
    pages, fields = [], {}
    for number, page in enumerate(document.pages):
        margins = []
        page_box = page._page_box  # noqa: SLF001 - the laid-out box tree
        for child in list(page_box.children):
            if type(child).__name__ == "MarginBox":
                text = _first_text(child)
                margins.append({"at": child.at_keyword, "content": _rect(child, "content"),
                                "font": _font((text or child).style), "baseline": _first_baseline(child),
                                "text": "".join(_texts(child))})
                page_box.children = [c for c in page_box.children if c is not child]
        pages.append({"width": page.width * PX, "height": page.height * PX, "margins": margins})
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
            stack.extend(reversed(list(getattr(b, "children", []))))
    return {"pages": pages, "fields": fields}


def _texts(box) -> Iterable[str]:
    if type(box).__name__ == "TextBox":
        yield box.text
    for c in getattr(box, "children", []):
        yield from _texts(c)


def render_base(html: str) -> tuple[bytes, dict]:
    """WeasyPrint: lay out `html`, note its fields and margin boxes, PDF without footers."""
    from sheets import rendering  # noqa: PLC0415

    weasyprint, fonts, fetcher_cls, fatal = rendering._weasy()  # noqa: SLF001
    try:
        document = weasyprint.HTML(string=html, base_url=str(rendering.paths.templates_dir()) + "/",
                                   url_fetcher=fetcher_cls()).render(font_config=fonts)
    except fatal as exc:
        raise SheetsError(str(exc)) from None
    layout = layout_of(document)
    return document.write_pdf(uncompressed_pdf=False), layout


# ======================================================= values in the filled HTML
_FIELD = re.compile(r'<(span|td|th|div|p|li)\b([^>]*?\sdata-field="([^"]*)"[^>]*)>(.*?)</\1>', re.S)
_CLASS = re.compile(r'\bclass="([^"]*)"')
_MARK = re.compile(r'\bdata-mark="([^"]*)"')
_FOOTER = re.compile(r'(data-footer=")([^"]*)(")')
_TITLE = re.compile(r"<title>.*?</title>", re.S)
_TAG = re.compile(r"<[^>]+>")


@dataclass
class Value:
    text: str
    classes: frozenset
    mark: str  # "" (text or box), "underline", "shade"

    @property
    def kind(self) -> str:
        return "box" if "box" in self.classes else (self.mark or "text")

    @property
    def state(self) -> str:
        return "marked" if "marked" in self.classes else ("premarked" if "premarked" in self.classes else "")


@dataclass
class Fields:
    skeleton: str
    values: dict[str, Value]
    footer: str


def fields_of(html: str) -> Fields:
    values: dict[str, Value] = {}

    def take(m: re.Match) -> str:
        attrs = m.group(2)
        cls = _CLASS.search(attrs)
        mark = _MARK.search(attrs)
        text = " ".join(htmllib.unescape(_TAG.sub("", m.group(4))).split())
        values[m.group(3)] = Value(text, frozenset(cls.group(1).split()) if cls else frozenset(),
                                   mark.group(1) if mark else "")
        return f"<F {m.group(3)}>"

    skeleton = _FIELD.sub(take, html)
    footers = _FOOTER.findall(skeleton)
    skeleton = _TITLE.sub("", _FOOTER.sub(r"\1\3", skeleton))
    return Fields(skeleton, values, htmllib.unescape(footers[0][1]) if footers else "")


# ================================================================ drawing (reportlab)
@lru_cache(maxsize=None)
def _font_file(family: tuple[str, ...], bold: bool, italic: bool, condensed: bool) -> str:
    """The TTF fontconfig gives for a CSS font (the file WeasyPrint's Pango uses too)."""
    for fam in family:
        if fam in ("serif", "sans-serif", "monospace"):
            fam = {"serif": "DejaVu Serif", "sans-serif": "DejaVu Sans", "monospace": "DejaVu Sans Mono"}[fam]
        pattern = fam + (":bold" if bold else "") + (":italic" if italic else "") + (":condensed" if condensed else "")
        try:
            found = subprocess.run(["fc-match", "-f", "%{file}\n%{family}", pattern], capture_output=True,
                                   text=True, timeout=10).stdout.splitlines()
        except (OSError, subprocess.SubprocessError):
            found = []
        if found and found[0].lower().endswith(".ttf") and len(found) > 1 and fam.split()[0].lower() in found[1].lower():
            return found[0]
        by_name = _font_by_file_name(fam, bold, italic, condensed)
        if by_name:
            return by_name
    raise SheetsError(f"no TrueType font found for {', '.join(family)}; install fonts-dejavu")


_FONT_DIRS = ("/usr/share/fonts", "/usr/local/share/fonts", "~/.local/share/fonts", "~/.fonts",
              "/Library/Fonts", "/System/Library/Fonts", "C:/Windows/Fonts")


def _font_by_file_name(family: str, bold: bool, italic: bool, condensed: bool) -> str | None:
    """Without fc-match: DejaVu-style file names (DejaVuSansCondensed-BoldOblique.ttf)."""
    stem = family.replace(" ", "") + ("Condensed" if condensed and "Condensed" not in family else "")
    styles = ["Bold" if bold else ""]
    styles = [(st + ("Italic" if italic else "")) for st in styles] + [(st + ("Oblique" if italic else "")) for st in styles]
    names = {f"{stem}-{st}.ttf" if st else f"{stem}.ttf" for st in styles}
    for folder in _FONT_DIRS:
        root = Path(folder).expanduser()
        if root.is_dir():
            for path in sorted(root.rglob("*.ttf")):
                if path.name in names:
                    return str(path)
    return None


@lru_cache(maxsize=None)
def _registered(path: str) -> tuple[str, float, float]:
    """Register a TTF with reportlab once; (name, ascent, descent) per unit of size (hhea)."""
    from reportlab.pdfbase import pdfmetrics  # noqa: PLC0415
    from reportlab.pdfbase.ttfonts import TTFont  # noqa: PLC0415

    name = "WS-" + Path(path).stem
    font = TTFont(name, path)
    pdfmetrics.registerFont(font)
    from fontTools.ttLib import TTFont as FT  # noqa: PLC0415

    ft = FT(path, lazy=True)
    upm = ft["head"].unitsPerEm
    hhea = ft["hhea"]
    return name, hhea.ascent / upm, -hhea.descent / upm


@lru_cache(maxsize=None)
def _cmap(path: str) -> frozenset:
    from reportlab.pdfbase import pdfmetrics  # noqa: PLC0415

    return frozenset(pdfmetrics.getFont(_registered(path)[0]).face.charToGlyph)


def _has_glyph(path: str, char: str) -> bool:
    return ord(char) in _cmap(path)


def _face(font: dict, text: str = "") -> tuple[str, float, float, str]:
    bold = font["weight"] >= 600
    italic = font["style"] in ("italic", "oblique")
    condensed = "condensed" in font["stretch"]
    family = tuple(font["family"])
    path = _font_file(family, bold, italic, condensed)
    if text and not all(_has_glyph(path, ch) for ch in set(text) if not ch.isspace()):
        for alt in (_font_file(family, bold, False, False), _font_file(("DejaVu Sans",), bold, False, False),
                    _font_file(("DejaVu Sans",), False, False, False)):
            if all(_has_glyph(alt, ch) for ch in set(text) if not ch.isspace()):
                path = alt
                break
    name, asc, desc = _registered(path)
    return name, asc, desc, path


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


def _width(text: str, font_name: str, size: float, spacing: float) -> float:
    from reportlab.pdfbase.pdfmetrics import stringWidth  # noqa: PLC0415

    return stringWidth(text, font_name, size) + spacing * max(len(text) - 1, 0)


def _fit_text(name: str, text: str, spec: dict) -> Op:
    """Shrink, then wrap, a value into its field's content box; FitError if it cannot fit."""
    from reportlab.lib.utils import simpleSplit  # noqa: PLC0415

    font = spec["font"]
    text = _transform(text, font["transform"])
    face = _face(font, text)[0]
    x, y, w, h = spec["content"]
    size = font["size"]
    lh = font["line_height"]
    for step in range(0, 9):
        s = size * (1 - 0.05 * step)
        line_h = lh * s / size
        if _width(text, face, s, font["spacing"]) <= w + 0.01:
            return Op("text", spec["content"], font, [text], s, baseline=None, valign=spec.get("valign", "top"))
        lines = simpleSplit(text, face, s, w)
        if len(lines) > 1 and len(lines) * line_h <= max(h, lh) + 0.01 and all(
                _width(ln, face, s, 0) <= w + 0.01 for ln in lines):
            return Op("text", spec["content"], font, lines, s, valign=spec.get("valign", "top"))
    shown = text if len(text) <= 48 else text[:45] + "…"
    raise FitError(f"field {name}: {shown!r} does not fit its box on the sheet ({w / 72 * 25.4:.0f} mm wide); "
                   f"shorten it")


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
        if spec is None:
            return None
        page = ops[spec["page"]]
        kind = value.kind
        if kind != before.kind:
            return None
        if kind == "text":
            if before.text:
                return None  # cannot paint over text already on the blank
            if value.text:
                page.append(_fit_text(name, value.text, spec))
        elif kind == "box":
            if before.state or value.text.strip("✔ "):
                return None
            if value.state == "marked":
                page.append(Op("tick", spec["border"], spec["font"], [value.text or "✔"], spec["font"]["size"],
                               fill=spec["fill"], baseline=None, align="center",
                               valign="round" if spec["round"] else "square"))
                page[-1].lines = [value.text or "✔"]
                page[-1].box = spec["border"]
                page[-1].baseline = _box_baseline(spec)
            elif value.state == "premarked":
                page.append(Op("fill", spec["border"], fill=[0.467, 0.467, 0.467, 1.0],
                               valign="round" if spec["round"] else "square"))
        else:  # a mark over text that is the same on blank and filled
            if value.text != before.text or "marked" in before.classes:
                return None
            if "marked" in value.classes:
                page.append(Op(kind, spec["border"], spec["font"], size=spec["font"]["size"],
                               baseline=spec["baseline"]))
    return ops


def _box_baseline(spec: dict) -> float:
    font = spec["font"]
    _, asc, desc, _ = _face(font, "✔")
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
        face = _face(op.font, op.lines[0])[0]
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
    # text
    font = op.font
    face, asc, desc, _ = _face(font, "".join(op.lines))
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
        base = op.baseline if (op.baseline is not None and i == 0) else top + i * line_h + half + asc * s
        width = _width(line, face, s, font["spacing"])
        align = font["align"]
        lx = x + (w - width) / 2 if align == "center" else (x + w - width if align in ("right", "end") else x)
        text = canvas.beginText(lx, page_h - base)
        text.setFont(face, s)
        if font["spacing"]:
            text.setCharSpace(font["spacing"])
        text.textOut(line)
        canvas.drawText(text)


_PAGE_OF = re.compile(r"page \d+ of \d+")


def _margin_ops(margins: list[dict], footer: str, blank_footer: str, number: int, total: int) -> list[Op]:
    """The page footers, as the blank's margin boxes had them, for this page of the whole document."""
    ops = []
    for m in margins:
        text = m["text"]
        if not text:
            continue
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
        ops.append(Op("text", [x, y, w, h], font, [_transform(text, font["transform"])], font["size"],
                      baseline=m["baseline"]))
    return ops


def draw_overlay(pages: list[tuple[float, float, list[Op]]]) -> bytes:
    """One reportlab document: a transparent page per entry (size, ops)."""
    from reportlab.pdfgen.canvas import Canvas  # noqa: PLC0415

    from reportlab import rl_config  # noqa: PLC0415

    rl_config.useA85 = 0  # binary streams: smaller, and faster to write and read
    buf = io.BytesIO()
    canvas = Canvas(buf, invariant=1, pageCompression=1)
    canvas.setProducer("warsheets")
    for width, height, ops in pages:
        canvas.setPageSize((width, height))
        for op in ops:
            _draw(canvas, height, op)
        canvas.showPage()
    canvas.save()
    return buf.getvalue()


# ====================================================================== the cache
def default_cache_dir() -> Path:
    env = os.environ.get("SHEETS_CACHE_DIR")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "warsheets"


def blank_key(html: str) -> str:
    from sheets.build import _engine_version  # noqa: PLC0415

    h = hashlib.sha256()
    for part in (_engine_version(), STAMPER_VERSION, os.environ.get("SHEETS_NO_HB_SUBSET", "")):
        h.update(part.encode() + b"\0")
    h.update(html.encode("utf-8"))
    return h.hexdigest()


@dataclass
class Base:
    """A laid-out page source: the blank's PDF (footers taken out) and its layout."""

    key: str
    pdf: bytes
    layout: dict
    fields: Fields | None = None
    _reader: object = None

    @property
    def reader(self):
        if self._reader is None:
            from pypdf import PdfReader  # noqa: PLC0415

            self._reader = PdfReader(io.BytesIO(self.pdf))
        return self._reader


def _cache_read(cache: Path | None, key: str) -> tuple[bytes, dict] | None:
    if cache is None:
        return None
    pdf, meta = cache / f"blank-{key}.pdf", cache / f"blank-{key}.json"
    try:
        return pdf.read_bytes(), json.loads(meta.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def missing_blanks(parts: list, cache: Path | None) -> dict[str, str]:
    """{key: html} of the blanks these parts need that the cache does not hold."""
    found: dict[str, str] = {}
    for blank, _ in parts:
        if blank is None:
            continue
        html = _html(blank)
        key = blank_key(html)
        if key not in found and not (cache is not None and (cache / f"blank-{key}.pdf").is_file()
                                     and (cache / f"blank-{key}.json").is_file()):
            found[key] = html
    return found


def cache_write(cache: Path | None, key: str, pdf: bytes, layout: dict) -> None:
    _cache_write(cache, key, pdf, layout)


def _cache_write(cache: Path | None, key: str, pdf: bytes, layout: dict) -> None:
    if cache is None:
        return
    from sheets import output  # noqa: PLC0415

    try:
        output.write_atomic(cache / f"blank-{key}.json", json.dumps(layout, sort_keys=True).encode())
        output.write_atomic(cache / f"blank-{key}.pdf", pdf)
    except SheetsError:
        pass  # a cache we cannot write is only slower


def _base_job(html: str) -> tuple[bytes, dict]:
    return render_base(html)


# =================================================================== the stamped PDF
StampPart = tuple  # (blank Sheet, filled Sheet)


def _html(sheet) -> str:
    from sheets.build import render_html  # noqa: PLC0415

    return render_html(sheet)


@dataclass
class Plan:
    key: str  # the base (blank) the part is drawn on
    ops: list[list[Op]] | None  # per page; None: the part must be laid out in full
    footer: str
    html: str | None = None  # the filled HTML, kept only when it must be laid out


def _plan_chunk(blanks: dict, items: list) -> list[Plan]:
    """Jinja-render each filled part and plan what to draw (runs in a worker for big jobs)."""
    plans = []
    for key, filled in items:
        html = _html(filled)
        if key is None:  # no blank: this part is laid out in full (still in chunks, on every core)
            plans.append(Plan(key, None, fields_of(html).footer, html))
            filled.html = None
            continue
        fields, layout = blanks[key]
        f = fields_of(html)
        try:
            ops = plan_part(fields, layout, f)
        except FitError as exc:  # say which sheet: its footer names the character and where it came from
            raise FitError(f"{f.footer or filled.label}: {exc}") from None
        plans.append(Plan(key, ops, f.footer, html if ops is None else None))
        filled.html = None  # keep memory flat
    return plans


def _overlay_pages(plans: list[Plan], bases: dict, first: int, total: int) -> list:
    pages, number = [], first
    for plan in plans:
        base = bases[plan.key]
        layout = base["layout"] if isinstance(base, dict) else base.layout
        blank_footer = base["footer"] if isinstance(base, dict) else (base.fields.footer if base.fields else "")
        for p, page in enumerate(layout["pages"]):
            number += 1
            ops = list(plan.ops[p]) if plan.ops else []
            ops += _margin_ops(page["margins"], plan.footer or blank_footer, blank_footer, number, total)
            pages.append((page["width"], page["height"], ops))
    return pages


def _stamp_chunk(blanks: dict, items: list, first: int, total: int) -> tuple[list[Plan], bytes | None]:
    """Plan a chunk of parts and draw its overlay (None when a part must be laid out in full)."""
    plans = _plan_chunk(blanks, items)
    if any(p.ops is None for p in plans):
        return plans, None
    bases = {k: {"layout": lay, "footer": f.footer} for k, (f, lay) in blanks.items()}
    return plans, draw_overlay(_overlay_pages(plans, bases, first, total))


def write_stamped(parts: list[StampPart], target: Path, *, title: str = "", cache_dir: Path | None = None,
                  workers: int | None = None, progress: Callable[[str], None] | None = None,
                  stats: dict | None = None) -> Path:
    """Stamp every part onto its cached blank and stream the pages into `target` (atomic).

    Big jobs are split in chunks of CHUNK parts, planned and drawn on every core; the
    pages are then streamed to disk chunk by chunk.
    """
    from sheets import build as buildmod  # noqa: PLC0415
    from sheets import output  # noqa: PLC0415

    cache = cache_dir if cache_dir is not None else default_cache_dir()
    try:
        cache.mkdir(parents=True, exist_ok=True)
    except OSError:
        cache = None
    # 1. the blanks: from the cache, or laid out (in worker processes when there are several)
    blank_html: dict[str, str] = {}
    part_keys = []
    for blank, _ in parts:
        if blank is None:
            part_keys.append(None)
            continue
        h = _html(blank)
        key = blank_key(h)
        blank_html.setdefault(key, h)
        part_keys.append(key)
    bases: dict[str, Base] = {}
    todo = []
    for key, h in blank_html.items():
        hit = _cache_read(cache, key)
        if hit is not None:
            bases[key] = Base(key, hit[0], hit[1])
        else:
            todo.append(key)
    with buildmod.Workers(workers) as shared:  # started once, for every phase below that needs them
        return _stamp_and_write(parts, target, title, cache, workers, progress, stats, blank_html, part_keys,
                                bases, todo, shared)


def _stamp_and_write(parts, target, title, cache, workers, progress, stats, blank_html, part_keys, bases, todo,
                     shared) -> Path:
    from sheets import build as buildmod  # noqa: PLC0415
    from sheets import output  # noqa: PLC0415

    # parts with no blank (laid out in full: a roster, a campaign record) are laid out now,
    # with the blanks, so that every page count is known before anything is stamped
    direct = [i for i, k in enumerate(part_keys) if k is None]
    direct_html = {i: _html(parts[i][1]) for i in direct}
    jobs = [(blank_html[k],) for k in todo] + [(direct_html[i],) for i in direct]
    # while the workers lay those out, this process renders the filled parts' HTML (Jinja),
    # which the stamping below would otherwise do after them
    ahead = iter([filled for key, (_, filled) in zip(part_keys, parts) if key is not None])

    def render_ahead() -> bool:
        filled = next(ahead, None)
        if filled is None:
            return False
        _html(filled)
        return True

    made = buildmod.run_jobs(_base_job, jobs, workers, shared=shared, weight=lambda job: len(job[0]),
                             idle=render_ahead)
    for key, (pdf, layout) in zip(todo, made):
        layout = json.loads(json.dumps(layout))  # the same shape as a cache hit
        _cache_write(cache, key, pdf, layout)
        bases[key] = Base(key, pdf, layout)
    for i, (pdf, layout) in zip(direct, made[len(todo):]):
        key = part_keys[i] = f"part-{i}"  # its own base: only its page footers are stamped on it
        bases[key] = Base(key, pdf, json.loads(json.dumps(layout)))
        blank_html[key] = direct_html.pop(i)
        parts[i][1].html = None
    for key, base in bases.items():
        base.fields = fields_of(blank_html[key])
    # 2. plan and draw every part, CHUNK at a time (pre-flight: a value that cannot fit
    #    stops here, before any file is written)
    blanks = {k: (b.fields, b.layout) for k, b in bases.items()}
    total = sum(len(bases[k].layout["pages"]) for k in part_keys if k is not None)
    jobs, first = [], 0
    for start in range(0, len(parts), CHUNK):
        keys = part_keys[start:start + CHUNK]
        items = [(k, filled) for k, (_, filled) in zip(keys, parts[start:start + CHUNK])]
        jobs.append(({k: blanks[k] for k in set(keys) if k is not None}, items, first, total))
        first += sum(len(bases[k].layout["pages"]) for k in keys if k is not None)
    done_parts = 0

    def tick(i: int) -> None:
        nonlocal done_parts
        if progress:
            for _ in jobs[i][1]:
                progress(title)

    import time  # noqa: PLC0415

    t0 = time.perf_counter()
    stamp_workers = workers if len(jobs) > 1 and any(k is not None for k in part_keys) else 1
    results = buildmod.run_jobs(_stamp_chunk, jobs, stamp_workers, tick, shared=shared)
    t1 = time.perf_counter()
    plans = [p for chunk_plans, _ in results for p in chunk_plans]
    overlays = [o for _, o in results]
    fallback = [i for i, p in enumerate(plans) if p.ops is None]
    if fallback:  # lay those parts out in full; the page count may change, so draw again
        laid = buildmod.run_jobs(_base_job, [(plans[i].html,) for i in fallback], workers, shared=shared)
        for i, (pdf, layout) in zip(fallback, laid):
            key = f"part-{i}"
            bases[key] = Base(key, pdf, json.loads(json.dumps(layout)))
            plans[i] = Plan(key, [[] for _ in layout["pages"]], plans[i].footer)
        overlays = [None] * len(jobs)
        total = sum(len(bases[p.key].layout["pages"]) for p in plans)
    shared.close()  # the workers' part is done: let them go before writing
    if stats is not None:
        stats["stamped"] = len(parts) - len(fallback) - len(direct)
        stats["no_blank"] = len(direct)
        stats["laid_out"] = len(fallback) + len(direct)
        stats["blanks_rendered"] = len(todo)
        stats["chunks"] = len(jobs)
        stats["plan_draw_s"] = round(t1 - t0, 3)
    # 3. stream the pages into the file, chunk by chunk
    output.ensure_dir(target.parent)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            pdf = StreamingPdfLazy(handle, title)
            number = 0
            for c, start in enumerate(range(0, len(plans), CHUNK)):
                chunk = plans[start:start + CHUNK]
                data = overlays[c]
                if data is None:
                    data = draw_overlay(_overlay_pages(chunk, bases, number, total))
                overlays[c] = None
                overlay = _reader(data)
                source, n = f"overlay-{start}", 0
                for plan in chunk:
                    base = bases[plan.key]
                    for p, page in enumerate(base.layout["pages"]):
                        pdf.add_page(pdf.form(plan.key, base.reader, p), (page["width"], page["height"]),
                                     source, overlay.pages[n])
                        n += 1
                        number += 1
                    if plan.key.startswith("part-"):
                        base._reader = None  # noqa: SLF001
                        base.pdf = b""
            pdf.close()
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, target)
        tmp = None
    except OSError as exc:
        raise output.OutputError(f"cannot write {target}: {exc.strerror or exc}") from None
    finally:
        if tmp and os.path.exists(tmp):
            os.unlink(tmp)
    if stats is not None:
        stats["write_s"] = round(time.perf_counter() - t1, 3)
    return target


def _reader(data: bytes):
    from pypdf import PdfReader  # noqa: PLC0415

    return PdfReader(io.BytesIO(data))


def StreamingPdfLazy(handle, title):  # noqa: N802 - imports pypdf only when a PDF is made
    from sheets.pdfstream import StreamingPdf  # noqa: PLC0415

    return StreamingPdf(handle, title)


def clear_cache(cache: Path | None = None) -> None:
    shutil.rmtree(cache or default_cache_dir(), ignore_errors=True)

"""How far down each card its text reaches, measured on the imposed PDF (issue 47: cards that
fill their card).

A paper page of cards places each card page as a Form XObject (`q <matrix> cm /Card3 Do Q`,
sheets/kinds/cards/impose.py; a back is `/Back3`): the matrix applied to the form's box is where
that card landed on the paper, bleed and all. Every text span PyMuPDF reads on the page belongs to
the card whose box holds its middle. A card's fill is how far down its cut its lowest text reaches
(the running footer, told by the theme's footer colour as tests/floors.py tells it, left out: it
sits at the foot of every card however little the card says), as a fraction of the card's height.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from statistics import median

import pikepdf
import pymupdf

MM = 72 / 25.4


@dataclass
class Placed:
    """One card face on a paper page: its page (0-based), its name (/Card3, /Back3), its cut in
    PyMuPDF's page space (mm from the top left) and the spans drawn inside it."""

    page: int
    name: str
    box: tuple[float, float, float, float]  # x0, top, x1, bottom of the card page (cut + bleed), mm
    bleed: float
    spans: list[tuple[float, float, float, float, str, str, float]] = field(default_factory=list)
    # each span: x0, top, x1, bottom (mm), text, colour (#rrggbb), size (pt)

    @property
    def front(self) -> bool:
        return self.name.startswith("/Card")

    @property
    def slot(self) -> int:
        return int(self.name.lstrip("/CardBack"))

    @property
    def cut(self) -> tuple[float, float, float, float]:
        x0, y0, x1, y1 = self.box
        return x0 + self.bleed, y0 + self.bleed, x1 - self.bleed, y1 - self.bleed

    def fill(self, footer_colour: str) -> float:
        """How far down its cut the card's lowest text (not its footer) reaches, 0..1."""
        _, top, _, bottom = self.cut
        body = [s[3] for s in self.spans if s[5] != footer_colour.lower()]
        return (max(body) - top) / (bottom - top) if body else 0.0

    def inset(self) -> float:
        """How far inside the cut its nearest text keeps, mm (footers included)."""
        x0, top, x1, bottom = self.cut
        return min((min(s[0] - x0, s[1] - top, x1 - s[2], bottom - s[3]) for s in self.spans), default=99.0)


def _placements(pdf: pikepdf.Pdf, index: int, bleed: float) -> list[Placed]:
    page = pdf.pages[index]
    height = float(page.mediabox[3]) - float(page.mediabox[1])
    xobjects = page.obj.get("/Resources", {}).get("/XObject", {})
    out, matrix = [], (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
    for operands, op in pikepdf.parse_content_stream(page):
        if str(op) == "cm":
            matrix = tuple(float(v) for v in operands)
        elif str(op) == "Do":
            name = str(operands[0])
            if not (name.startswith("/Card") or name.startswith("/Back")) or name not in xobjects:
                continue
            llx, lly, urx, ury = (float(v) for v in xobjects[name].BBox)
            a, b, c, d, e, f = matrix
            xs = [a * x + c * y + e for x, y in ((llx, lly), (urx, lly), (llx, ury), (urx, ury))]
            ys = [b * x + d * y + f for x, y in ((llx, lly), (urx, lly), (llx, ury), (urx, ury))]
            out.append(Placed(index, name, (min(xs) / MM, (height - max(ys)) / MM,
                                            max(xs) / MM, (height - min(ys)) / MM), bleed))
    return out


def cards(path: Path | bytes, bleed: float = 0.0) -> list[Placed]:
    """Every card face placed on every page of a card PDF (or of kit.pdf), with its spans."""
    data = path if isinstance(path, bytes) else Path(path).read_bytes()
    placed: list[Placed] = []
    with pikepdf.open(__import__("io").BytesIO(data)) as pdf:
        for i in range(len(pdf.pages)):
            placed += _placements(pdf, i, bleed)
    by_page: dict[int, list[Placed]] = {}
    for p in placed:
        by_page.setdefault(p.page, []).append(p)
    doc = pymupdf.open(stream=data)
    try:
        for index, faces in by_page.items():
            for block in doc[index].get_text("rawdict")["blocks"]:
                for line in block.get("lines", []):
                    for s in line["spans"]:
                        # the span's own letters: its box without the spaces it may end on
                        ink = [c for c in s["chars"] if c["c"].strip()]
                        if not ink:
                            continue
                        text = "".join(c["c"] for c in s["chars"]).strip()
                        x0, x1 = min(c["bbox"][0] for c in ink) / MM, max(c["bbox"][2] for c in ink) / MM
                        y0, y1 = s["bbox"][1] / MM, s["bbox"][3] / MM
                        # the glyphs' own height, not the line box's (which reaches above and below them)
                        y0, y1 = _glyph_box(s, y0, y1)
                        mx, my = (x0 + x1) / 2, (y0 + y1) / 2
                        for face in faces:
                            bx0, by0, bx1, by1 = face.box
                            if bx0 <= mx <= bx1 and by0 <= my <= by1:
                                face.spans.append((x0, y0, x1, y1, text, f"#{s['color']:06x}", s["size"]))
                                break
    finally:
        doc.close()
    return placed


def _glyph_box(span: dict, top: float, bottom: float) -> tuple[float, float]:
    """A span's ink from its font's ascender to its baseline's descender (mm): PyMuPDF's bbox is
    the line box, taller than the letters by the line height."""
    size = span["size"] / MM
    base = span["origin"][1] / MM
    asc, desc = span.get("ascender", 0.9), span.get("descender", -0.25)
    return max(top, base - asc * size), min(bottom, base - desc * size)


def fronts(path: Path | bytes, bleed: float = 0.0) -> list[Placed]:
    return [p for p in cards(path, bleed) if p.front]


def median_fill(faces: list[Placed], footer_colour: str) -> float:
    return median(p.fill(footer_colour) for p in faces) if faces else 0.0

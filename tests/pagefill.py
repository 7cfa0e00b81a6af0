"""How full a page is, measured on the rendered PDF (issue 34: a part never ends on a page that holds
only a line or two the previous page could have taken).

A page's body is its ink above the bottom margin (the footer is drawn in the margin); the room a
page leaves is the blank between its body's last ink and that margin.
"""
from __future__ import annotations

import numpy
import pypdfium2 as pdfium

TOP_MARGIN_MM = 9  # templates/_base/base.css: @page margin
BOTTOM_MARGIN_MM = 11


def body_ink(pdf, index: int, dpi: int = 100) -> tuple[float, float, float]:
    """(top, bottom, page height) of a page's ink above its bottom margin, in mm from the top;
    `pdf` a path or the PDF's bytes."""
    doc = pdfium.PdfDocument(pdf if isinstance(pdf, bytes) else str(pdf))
    try:
        pixels = doc[index].render(scale=dpi / 72).to_numpy()[:, :, :3]
    finally:
        doc.close()
    mm = 25.4 / dpi
    height = pixels.shape[0] * mm
    rows = numpy.nonzero(pixels.min(axis=2).min(axis=1) < 200)[0] * mm
    body = rows[rows < height - BOTTOM_MARGIN_MM]
    return float(body.min()), float(body.max()), height


def last_page_problem(pdf, pages: int) -> str | None:
    """None when the last of `pages` pages holds more than the page before it had room for and more
    than a tenth of a page (not a line or two and a note); else what it holds, in words."""
    if pages < 2:
        return None
    _, before, height = body_ink(pdf, pages - 2)
    room = height - BOTTOM_MARGIN_MM - before
    top, bottom, _ = body_ink(pdf, pages - 1)
    held, body = bottom - top, height - TOP_MARGIN_MM - BOTTOM_MARGIN_MM
    if held <= room or held <= body / 10:
        return f"the last page holds {held:.1f} mm of ink; the one before had {room:.1f} mm left"
    return None


#: a page holding less than this share of its body is short (issue 47, item 6: a fifth of a page)
SHORT_SHARE = 1 / 5


def page_bodies(pdf, dpi: int = 100) -> list[tuple[float, float, float] | None]:
    """Per page, (top, bottom, page height) in mm of its body's ink: between the top margin (the
    header band naming the game is drawn in it) and the bottom margin (the footer); None for a
    page without any. `pdf` a path or the PDF's bytes; one open of the file for all its pages."""
    doc = pdfium.PdfDocument(pdf if isinstance(pdf, bytes) else str(pdf))
    out: list[tuple[float, float, float] | None] = []
    try:
        for page in doc:
            pixels = page.render(scale=dpi / 72).to_numpy()[:, :, :3]
            mm = 25.4 / dpi
            height = pixels.shape[0] * mm
            rows = numpy.nonzero(pixels.min(axis=2).min(axis=1) < 200)[0] * mm
            body = rows[(rows > TOP_MARGIN_MM + 0.3) & (rows < height - BOTTOM_MARGIN_MM)]
            out.append((float(body.min()), float(body.max()), height) if len(body) else None)
    finally:
        doc.close()
    return out


def short_pages(pdf, exempt: frozenset[int] = frozenset()) -> list[str]:
    """The pages after the first (1-based numbers not in `exempt`) that hold less than a fifth of
    a page body where the page before had room left for all they hold, in words; [] when none."""
    bodies = page_bodies(pdf)
    problems = []
    for index in range(1, len(bodies)):
        this, before = bodies[index], bodies[index - 1]
        if index + 1 in exempt or this is None or before is None:
            continue
        top, bottom, height = this
        held, body = bottom - top, height - TOP_MARGIN_MM - BOTTOM_MARGIN_MM
        room = height - BOTTOM_MARGIN_MM - before[1]
        if held < body * SHORT_SHARE and held <= room:
            problems.append(f"page {index + 1} holds {held:.1f} mm of a {body:.0f} mm body ({held / body:.0%}); "
                            f"page {index} had {room:.1f} mm left")
    return problems

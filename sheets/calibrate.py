"""`sheets cards calibrate`: a two-sided sheet that measures where a printer puts the back side.

The front has a long line down the middle of the sheet and one across it. The back has
two millimetre scales whose 0 lies exactly behind those lines (for the chosen duplex
edge, shifted by any --back-offset already given). Held up to a light, the front's
lines show through: where each crosses its scale is the offset to give `--back-offset
X,Y`, measured as the back side is seen (X to the right, Y up). Printed again with that
offset, both lines cross 0.

Drawn with reportlab (plain lines and text; `invariant` keeps the bytes the same).
"""
from __future__ import annotations

import io

from reportlab.pdfgen import canvas

from sheets.errors import SheetsError
from sheets.rendering import PAPER_SIZES_MM

MM = 72 / 25.4
SCALE_MM = 6          # each scale reads -6 .. +6 mm
SCALE_FROM_CENTRE = 45  # mm from the sheet's centre to each scale
TICK_ZERO, TICK_MM, TICK_HALF = 8.0, 5.0, 3.0  # tick lengths, mm


def behind(x: float, y: float, width: float, height: float, duplex: str) -> tuple[float, float]:
    """The point of the back page that lies behind (x, y) of the front (portrait paper, mm).

    Long edge: the sheet turns about its vertical axis; short edge: about its horizontal one.
    """
    return (width - x, y) if duplex == "long" else (x, height - y)


def calibration_pdf(paper: str = "a4", duplex: str = "long", offset: tuple[float, float] = (0.0, 0.0)) -> bytes:
    if paper not in PAPER_SIZES_MM:
        raise SheetsError(f"unknown paper {paper!r}; choose one of: {', '.join(PAPER_SIZES_MM)}")
    if duplex not in ("long", "short"):
        raise SheetsError(f"unknown duplex {duplex!r}; choose long or short")
    w, h = PAPER_SIZES_MM[paper]
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=(w * MM, h * MM), invariant=1, pageCompression=0)
    c.setTitle(f"Duplex calibration ({paper}, flip on the {duplex} edge)")
    c.setAuthor("warsheets")
    c.setCreator("warsheets")
    cx, cy = w / 2, h / 2

    # -- front: the lines that show through -------------------------------------------
    c.setLineWidth(0.4)
    c.line(cx * MM, 12 * MM, cx * MM, (h - 12) * MM)
    c.line(12 * MM, cy * MM, (w - 12) * MM, cy * MM)
    c.setFont("Helvetica-Bold", 14)
    c.drawString(15 * MM, (h - 20) * MM, "warsheets duplex calibration: FRONT")
    c.setFont("Helvetica", 9)
    lines = [f"Print this file two-sided on {paper} paper, flip on the {duplex} edge, at 100 % (no fit to page).",
             "Then hold the sheet up to a window or a lamp with the BACK towards you:",
             "the two lines of this side show through and cross the scales on the back."]
    for i, text in enumerate(lines):
        c.drawString(15 * MM, (h - 28 - 5 * i) * MM, text)
    c.showPage()

    # -- back: the scales, their 0 behind the front's lines (plus the offset) ---------------
    bx, by = behind(cx, cy, w, h, duplex)
    ox, oy = offset
    zx, zy = bx + ox, by + oy
    c.setLineWidth(0.3)
    c.setFont("Helvetica", 6)
    x_scale_y = zy + SCALE_FROM_CENTRE  # the X scale: a row of vertical ticks, above the centre
    y_scale_x = zx + SCALE_FROM_CENTRE  # the Y scale: a column of horizontal ticks, right of the centre
    for half in range(-2 * SCALE_MM, 2 * SCALE_MM + 1):
        t = half / 2
        length = TICK_ZERO if half == 0 else (TICK_MM if half % 2 == 0 else TICK_HALF)
        c.line((zx + t) * MM, x_scale_y * MM, (zx + t) * MM, (x_scale_y + length) * MM)
        c.line(y_scale_x * MM, (zy + t) * MM, (y_scale_x + length) * MM, (zy + t) * MM)
        if half % 4 == 0:  # a number every 2 mm (1 mm apart they would run into each other)
            label = "0" if half == 0 else f"{t:+g}"
            c.drawCentredString((zx + t) * MM, (x_scale_y - 3.2) * MM, label)
            c.drawString((y_scale_x + TICK_ZERO + 1.5) * MM, (zy + t - 0.7) * MM, label)
    c.setFont("Helvetica-Bold", 9)
    c.drawCentredString(zx * MM, (x_scale_y + TICK_ZERO + 3) * MM, "X (mm)")
    c.drawString((y_scale_x - 2) * MM, (zy + SCALE_MM + 4) * MM, "Y (mm)")
    c.setFont("Helvetica-Bold", 14)
    c.drawString(15 * MM, (h - 20) * MM, "warsheets duplex calibration: BACK")
    c.setFont("Helvetica", 9)
    lines = ["Hold the sheet up to a light, this side towards you. Where the front's upright line crosses",
             "the X scale is X; where its level line crosses the Y scale is Y. Then print cards with",
             f"    sheets cards GAME --backs --duplex {duplex} --back-offset X,Y",
             "e.g. --back-offset 1.5,-0.5. Print this sheet again with that offset to check: both lines cross 0.",
             f"This sheet was printed with --back-offset {ox:g},{oy:g}." if (ox, oy) != (0, 0) else
             "This sheet was printed with no offset."]
    for i, text in enumerate(lines):
        c.drawString(15 * MM, (h - 28 - 5 * i) * MM, text)
    c.showPage()
    c.save()
    return buf.getvalue()

"""`sheets cards calibrate`: a two-sided sheet that measures where a printer puts the back side.

The front has a long line down the middle of the sheet and one across it. The back has
two millimetre scales whose 0 lies exactly behind those lines (for the chosen duplex
edge, shifted by any --back-offset already given). Held up to a light, the front's
lines show through: where each crosses its scale is the offset to give `--back-offset
X,Y`, measured as the back side is seen (X to the right, Y up). Printed again with that
offset, both lines cross 0. A sheet printed with an offset reads what is left over: the
offset to give is that one plus the readings (`offset_from_readings`, which the CLI's
`sheets cards calibrate --readings X,Y` and the desk's calibration wizard both use).

Why plus: a printer that puts the back d mm off puts the scale's 0 at (behind + offset + d);
the line, at `behind`, reads -(offset + d); the offset that cancels d is -d = offset + reading.

Drawn with reportlab (plain lines and text; `invariant` keeps the bytes the same), in the
stamper's DejaVu Sans, embedded (`sheets.pdf.fonts`): no font left to the printer.
"""
from __future__ import annotations

import io
import math

from reportlab.pdfgen import canvas

from sheets.base import paper as papers
from sheets.base.errors import SheetsError
from sheets.pdf.fonts import finish_fonts
from sheets.pipeline.stamp.fonts import face_for

MM = 72 / 25.4
AXES = ("X", "Y")
SCALE_MM = 6          # each scale reads -6 .. +6 mm
SCALE_FROM_CENTRE = 45  # mm from the sheet's centre to each scale
TICK_ZERO, TICK_MM, TICK_HALF = 8.0, 5.0, 3.0  # tick lengths, mm
TEXT_CLEAR_MM = 60  # the front's upright line ends this far from the top and foot: clear of both sides' text


def behind(x: float, y: float, width: float, height: float, duplex: str) -> tuple[float, float]:
    """The point of the back page that lies behind (x, y) of the front (portrait paper, mm).

    Long edge: the sheet turns about its vertical axis; short edge: about its horizontal one.
    """
    return (width - x, y) if duplex == "long" else (x, height - y)


def reading(text: str | None, axis: str) -> float:
    """One reading off the sheet's scale, in mm: a number within the scale, or a message saying what to give."""
    shown = str(text or "").strip()
    try:
        value = float(shown.replace(",", ".").replace("\u2212", "-"))
        if not math.isfinite(value):
            raise ValueError(shown)
    except ValueError:
        raise SheetsError(f"{axis}: {shown!r} is not a number: give where the front's line crosses the {axis} "
                          f"scale in mm, e.g. 1.5 or -0.5 (0 when it crosses at 0)") from None
    if abs(value) > SCALE_MM:
        raise SheetsError(f"{axis}: {value:g} is off the scale (it reads -{SCALE_MM} to +{SCALE_MM} mm); if the "
                          f"line misses the scale, print the sheet again with a rough --back-offset (e.g. "
                          f"{'8,0' if axis == 'X' else '0,8'}) and read what is left")
    return value


def offset_from_readings(x: float, y: float, printed_with: tuple[float, float] = (0.0, 0.0)) -> tuple[float, float]:
    """The --back-offset X,Y that makes both lines cross 0: the offset the sheet was printed with
    plus what was read off it (see the module's docstring), to a hundredth of a mm."""
    return round(printed_with[0] + x, 2) + 0.0, round(printed_with[1] + y, 2) + 0.0


def offset_text(offset: tuple[float, float]) -> str:
    """(1.5, -0.5) -> '1.5,-0.5': as --back-offset and sheets.toml take it."""
    return f"{offset[0]:g},{offset[1]:g}"


def _face(bold: bool) -> str:
    """The reportlab name of DejaVu Sans (bold or not), registered as the stamper registers it."""
    return face_for({"family": ["DejaVu Sans"], "weight": 700 if bold else 400, "style": "normal",
                     "stretch": "normal"})[0]


def calibration_pdf(paper: papers.Paper | str = "a4", duplex: str = "long", offset: tuple[float, float] = (0.0, 0.0)) -> bytes:
    paper = papers.resolve(paper)
    if duplex not in ("long", "short"):
        raise SheetsError(f"unknown duplex {duplex!r}; choose long or short")
    w, h = paper.width_mm, paper.height_mm
    buf = io.BytesIO()
    # a TTF as the initial font: no page starts by selecting an unembedded Helvetica
    c = canvas.Canvas(buf, pagesize=(w * MM, h * MM), invariant=1, pageCompression=0, initialFontName=_face(False))
    c.setTitle(f"Duplex calibration ({paper}, flip on the {duplex} edge)")
    c.setAuthor("warsheets")
    c.setCreator("warsheets")
    cx, cy = w / 2, h / 2

    # -- front: the lines that show through -------------------------------------------
    c.setLineWidth(0.4)
    # the upright line keeps clear of both sides' instructions, the back's seen through the sheet at the
    # front's top (flipped on the long edge) or its foot (on the short edge): it crosses no text
    c.line(cx * MM, TEXT_CLEAR_MM * MM, cx * MM, (h - TEXT_CLEAR_MM) * MM)
    c.line(12 * MM, cy * MM, (w - 12) * MM, cy * MM)
    c.setFont(_face(True), 14)
    c.drawString(15 * MM, (h - 20) * MM, "warsheets duplex calibration: FRONT")
    c.setFont(_face(False), 9)
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
    c.setFont(_face(False), 6)
    x_scale_y = zy + SCALE_FROM_CENTRE  # the X scale: a row of vertical ticks, above the centre
    y_scale_x = zx + SCALE_FROM_CENTRE  # the Y scale: a column of horizontal ticks, right of the centre
    for half in range(-2 * SCALE_MM, 2 * SCALE_MM + 1):
        t = half / 2
        length = TICK_ZERO if half == 0 else (TICK_MM if half % 2 == 0 else TICK_HALF)
        c.line((zx + t) * MM, x_scale_y * MM, (zx + t) * MM, (x_scale_y + length) * MM)
        c.line(y_scale_x * MM, (zy + t) * MM, (y_scale_x + length) * MM, (zy + t) * MM)
        if half % 4 == 0:  # a number every 2 mm (1 mm apart they would run into each other)
            label = "0" if half == 0 else f"{t:+g}"
            # along the X scale the numbers 2 mm apart take two rows, each 4 mm apart (side by side,
            # they read as one number); their digits alone, the sides' signs at the scale's ends
            row = 0 if half % 8 == 0 else 1
            c.drawCentredString((zx + t) * MM, (x_scale_y - 3.2 - 2.6 * row) * MM, f"{abs(t):g}")
            # and beside the Y scale in two columns, for the same reason
            c.drawString((y_scale_x + TICK_ZERO + 1.5 + 4.5 * row) * MM, (zy + t - 0.7) * MM, label)
    c.drawCentredString((zx - SCALE_MM - 2.5) * MM, (x_scale_y - 4.5) * MM, "\u2212")
    c.drawCentredString((zx + SCALE_MM + 2.5) * MM, (x_scale_y - 4.5) * MM, "+")
    c.setFont(_face(True), 9)
    # beside the X scale, not above it: the front's upright line runs up through the scale's 0
    c.drawRightString((zx - SCALE_MM - 5) * MM, (x_scale_y + 1) * MM, "X (mm)")
    c.drawString((y_scale_x - 2) * MM, (zy + SCALE_MM + 4) * MM, "Y (mm)")
    c.setFont(_face(True), 14)
    c.drawString(15 * MM, (h - 20) * MM, "warsheets duplex calibration: BACK")
    c.setFont(_face(False), 9)
    lines = ["Hold the sheet up to a light, this side towards you. Where the front's upright line crosses",
             "the X scale is X; where its level line crosses the Y scale is Y. Then print cards with",
             f"    sheets cards GAME --backs --paper {paper} --duplex {duplex} --back-offset X,Y",
             "e.g. --back-offset 1.5,-0.5. Print this sheet again with that offset to check: both lines cross 0.",
             f"This sheet was printed with --back-offset {ox:g},{oy:g}: add it to what you read "
             f"(--back-offset {ox:g}+X,{oy:g}+Y)." if (ox, oy) != (0, 0) else "This sheet was printed with no offset.",
             "sheets cards calibrate --readings X,Y (or the desk's Cards page) stores the offset in sheets.toml."]
    for i, text in enumerate(lines):
        c.drawString(15 * MM, (h - 28 - 5 * i) * MM, text)
    c.showPage()
    c.save()
    return finish_fonts(buf.getvalue(), reportlab=True)

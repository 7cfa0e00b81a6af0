"""`--preview`: a PNG of every page of a PDF, and a contact sheet of a whole kit.

Pages are rasterised with pypdfium2 (a PyPI wheel, no system packages) into
`preview/` beside the PDF: `<name>-01.png`, `<name>-02.png`, ... The contact sheet
(`preview/contact-sheet.png`) puts a thumbnail of every page on one image, in
reading order, each in a cell of fixed size with its page number and title under it,
so a person sees the whole kit before printing a sheet of it.
"""
from __future__ import annotations

import io
import math
from pathlib import Path

import pypdfium2 as pdfium
from PIL import Image, ImageDraw, ImageFont

from sheets.base import fonts, interrupts, output
from sheets.base.errors import SheetsError

PREVIEW_DIR = "preview"
CONTACT_SHEET = "contact-sheet.png"
DPI = 72             # page previews: big enough to read headings, small enough to be quick
COLUMNS = 8          # contact sheet: thumbnails per row
CELL_W, CELL_H = 180, 250  # one thumbnail's cell, in pixels (thumbnail, then two lines of title)
THUMB_W, THUMB_H = 164, 200
HEADER_H = 40


def _font(size: int):
    """The contact sheet's lettering: the bundled DejaVu Sans Condensed, as on the sheets."""
    return ImageFont.truetype(str(fonts.path("DejaVuSansCondensed.ttf")), size)


def render_pages(pdf: Path, dpi: int = DPI) -> list:
    """Every page of `pdf` as a PIL image."""
    # PDFium's objects are made and closed whole: a Ctrl-C or SIGTERM waits for the page in
    # hand (pypdfium2 complains at exit about an object interrupted half-made or half-closed)
    with interrupts.held():
        doc = pdfium.PdfDocument(str(pdf))
    try:
        images = []
        for i in range(len(doc)):
            with interrupts.held():
                page = doc[i]
                bitmap = page.render(scale=dpi / 72)
                images.append(bitmap.to_pil().convert("RGB"))
                bitmap.close()
                page.close()
        return images
    finally:
        with interrupts.held():
            doc.close()


def _png(image) -> bytes:
    buf = io.BytesIO()
    image.save(buf, format="PNG", optimize=False)
    return buf.getvalue()


def contact_sheet_size(pages: int) -> tuple[int, int]:
    """Width and height in pixels of the contact sheet of `pages` pages."""
    columns = min(COLUMNS, max(pages, 1))
    rows = max(math.ceil(pages / COLUMNS), 1)
    return columns * CELL_W, HEADER_H + rows * CELL_H


def cell_box(index: int) -> tuple[int, int, int, int]:
    """The box (left, top, right, bottom) of thumbnail `index`'s cell."""
    col, row = index % COLUMNS, index // COLUMNS
    left, top = col * CELL_W, HEADER_H + row * CELL_H
    return left, top, left + CELL_W, top + CELL_H


def make_contact_sheet(images: list, labels: list[str], title: str):
    width, height = contact_sheet_size(len(images))
    sheet = Image.new("RGB", (width, height), (236, 236, 232))
    draw = ImageDraw.Draw(sheet)
    draw.text((10, 10), title, fill=(17, 17, 17), font=_font(18))
    small = _font(11)
    for i, image in enumerate(images):
        left, top, right, _ = cell_box(i)
        thumb = image.copy()
        thumb.thumbnail((THUMB_W, THUMB_H))
        x = left + (CELL_W - thumb.width) // 2
        y = top + 8 + (THUMB_H - thumb.height) // 2
        sheet.paste(thumb, (x, y))
        draw.rectangle((x - 1, y - 1, x + thumb.width, y + thumb.height), outline=(90, 90, 90))
        label = f"{i + 1}. {labels[i] if i < len(labels) else ''}"
        lines = _wrap(draw, label, small, CELL_W - 12)[:2]
        for k, line in enumerate(lines):
            draw.text((left + 6, top + THUMB_H + 14 + k * 13), line, fill=(17, 17, 17), font=small)
    return sheet


def _wrap(draw, text: str, font, width: int) -> list[str]:
    lines, current = [], ""
    for word in text.split():
        trial = f"{current} {word}".strip()
        if draw.textlength(trial, font=font) <= width or not current:
            current = trial
        else:
            lines.append(current)
            current = word
    if current:
        lines.append(current)
    if len(lines) > 2:
        lines = [lines[0], lines[1] + " …"]
    return lines


def write_previews(pdf: Path, *, labels: list[str] | None = None, contact_sheet: bool = False,
                   title: str | None = None) -> list[Path]:
    """PNG of every page of `pdf` under preview/ beside it (and the contact sheet); the paths."""
    pdf = Path(pdf)
    folder = output.ensure_dir(pdf.parent / PREVIEW_DIR)
    try:
        images = render_pages(pdf)
    except Exception as exc:  # noqa: BLE001 - pdfium raises its own error types
        raise SheetsError(f"cannot make previews of {pdf}: {exc}") from None
    written = []
    for i, image in enumerate(images):
        written.append(output.write_atomic(folder / f"{pdf.stem}-{i + 1:02d}.png", _png(image)))
    if contact_sheet:
        sheet = make_contact_sheet(images, labels or [], title or f"{pdf.name}: {len(images)} pages")
        written.append(output.write_atomic(folder / CONTACT_SHEET, _png(sheet)))
    return written

"""Page 1 of every part of two kits side by side, one PNG a part (docs/kit-pages/).

    python benchmarks/kit_pages.py BEFORE_DIR AFTER_DIR OUT_DIR [BEFORE_LABEL AFTER_LABEL]

BEFORE_DIR and AFTER_DIR are `sheets kit -o DIR` folders of two commits; each PNG shows the
part's first page from each at 60 dpi (enough to see the layout, not to read it: the PDFs are
the readable record), labelled with its page count. Prints "part pages-before pages-after".
"""
from __future__ import annotations

import sys
from pathlib import Path

import pypdfium2 as pdfium
from PIL import Image, ImageDraw

DPI = 60


def first_page(pdf: Path) -> tuple[Image.Image, int]:
    doc = pdfium.PdfDocument(str(pdf))
    return doc[0].render(scale=DPI / 72).to_pil().convert("RGB"), len(doc)


def side_by_side(before: Path, after: Path, labels: tuple[str, str]) -> tuple[Image.Image, int, int]:
    pages = [first_page(before), first_page(after)]
    sheet = Image.new("RGB", (sum(i.width for i, _ in pages) + 30, max(i.height for i, _ in pages) + 22), "white")
    draw = ImageDraw.Draw(sheet)
    x = 10
    for (image, count), label in zip(pages, labels):
        sheet.paste(image, (x, 20))
        draw.text((x, 4), f"{label}: page 1 of {count}", fill="black")
        draw.rectangle([x - 1, 19, x + image.width, 20 + image.height], outline="#999")
        x += image.width + 10
    return sheet, pages[0][1], pages[1][1]


def main(before: Path, after: Path, out: Path, labels: tuple[str, str] = ("before", "after")) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for pdf in sorted(after.glob("*.pdf")):
        # a part the other kit printed in several files (small decks that now share their sheets:
        # regiment-cards.pdf, regiment-cards-weapons.pdf ...) is shown beside the first of them
        twins = [before / pdf.name] if (before / pdf.name).exists() else sorted(before.glob(f"{pdf.stem}-*.pdf"))
        if not twins:
            print(f"{pdf.stem} - (not in {before})")
            continue
        sheet, n_before, n_after = side_by_side(twins[0], pdf, labels)
        n_before = sum(first_page(twin)[1] for twin in twins)
        sheet.quantize(colors=96).save(out / f"{pdf.stem}.png", optimize=True)  # a palette: small files
        print(pdf.stem, n_before, n_after)


if __name__ == "__main__":
    main(*map(Path, sys.argv[1:4]), labels=tuple(sys.argv[4:6]) or ("before", "after"))  # type: ignore[arg-type]

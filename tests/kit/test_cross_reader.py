"""Every page of the default kit draws the same ink in every PDF reader.

kit.pdf (the session's `whole_kit`, seed 7) is rendered at 50 dpi by PDFium (pypdfium2),
poppler (`pdftoppm`, Debian poppler-utils) and MuPDF (PyMuPDF, where installed). Each page
is cut into 8×8-pixel blocks; no block may have ink in one reader and none in another.

Ink is a pixel with any channel darker than INK. Readers anti-alias differently (poppler
draws a hairline as one dark pixel, PDFium as a faint grey one) and may place an edge a
pixel apart, so "none" is strict: no pixel of the block, or of the pixel round it, darker
than BLANK (near white). A glyph, form value, tick or image one reader leaves out is a
whole block of ink against paper, and is caught (the last test shows the check catching
text taken off a page).
"""
from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
import pytest
from PIL import Image

DPI = 50
BLOCK = 8
INK = 160    # a channel darker than this is ink
BLANK = 250  # a block whose pixels (and the pixel round it) are all lighter than this has no ink
SHOWN = 12   # disagreements named in a failure


def darkness(image) -> np.ndarray:
    """Per pixel, its darkest channel (0 black .. 255 white)."""
    return np.asarray(image.convert("RGB")).min(axis=2)


def pdfium_pages(pdf: Path) -> list[np.ndarray]:
    doc = pdfium.PdfDocument(str(pdf))
    try:
        return [darkness(doc[i].render(scale=DPI / 72, fill_color=(255, 255, 255, 255)).to_pil())
                for i in range(len(doc))]
    finally:
        doc.close()


def poppler_pages(pdf: Path, folder: Path) -> list[np.ndarray]:
    subprocess.run(["pdftoppm", "-r", str(DPI), str(pdf), str(folder / "p")], check=True, timeout=300)
    return [darkness(Image.open(path)) for path in sorted(folder.glob("p-*.ppm"))]


def mupdf_pages(pdf: Path, fitz) -> list[np.ndarray]:
    doc = fitz.open(str(pdf))
    try:
        out = []
        for page in doc:
            pix = page.get_pixmap(dpi=DPI, alpha=False)
            out.append(darkness(Image.frombytes("RGB", (pix.width, pix.height), pix.samples)))
        return out
    finally:
        doc.close()


def _blocks(dark: np.ndarray, height: int, width: int) -> np.ndarray:
    """The darkest pixel of each block (the page padded with white to whole blocks)."""
    rows, cols = -(-height // BLOCK), -(-width // BLOCK)
    full = np.full((rows * BLOCK, cols * BLOCK), 255, np.uint8)
    full[:height, :width] = dark[:height, :width]
    return full.reshape(rows, BLOCK, cols, BLOCK).min(axis=(1, 3))


def _grown(dark: np.ndarray) -> np.ndarray:
    """Each pixel the darkest of itself and its eight neighbours."""
    padded = np.pad(dark, 1, constant_values=255)
    h, w = dark.shape
    return np.min([padded[dy:dy + h, dx:dx + w] for dy in range(3) for dx in range(3)], axis=0)


def disagreements(a: np.ndarray, b: np.ndarray) -> list[tuple[int, int, str]]:
    """(block row, block column, which) of every block with ink in one page and none in the other."""
    height, width = min(a.shape[0], b.shape[0]), min(a.shape[1], b.shape[1])
    ink_a, ink_b = _blocks(a, height, width) < INK, _blocks(b, height, width) < INK
    none_a = _blocks(_grown(a[:height, :width]), height, width) > BLANK
    none_b = _blocks(_grown(b[:height, :width]), height, width) > BLANK
    out = [(int(r), int(c), "ink only in the first") for r, c in zip(*np.nonzero(ink_a & none_b))]
    out += [(int(r), int(c), "ink only in the second") for r, c in zip(*np.nonzero(ink_b & none_a))]
    return out


def _mupdf():
    for name in ("pymupdf", "fitz"):
        try:
            return __import__(name)
        except ImportError:
            continue
    return None


@pytest.fixture(scope="module")
def renders(whole_kit, tmp_path_factory) -> dict[str, list[np.ndarray]]:
    pdf = whole_kit.folder / "kit.pdf"
    if shutil.which("pdftoppm") is None:
        reason = "no pdftoppm: apt-get install poppler-utils (make test does, as root)"
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI: {reason}")
        pytest.skip(reason)
    readers = {"PDFium": pdfium_pages(pdf), "poppler": poppler_pages(pdf, tmp_path_factory.mktemp("poppler"))}
    fitz = _mupdf()
    if fitz is not None:
        readers["MuPDF"] = mupdf_pages(pdf, fitz)
    return readers


def test_every_reader_draws_the_same_ink_on_every_page(renders):
    names = list(renders)
    pages = {len(p) for p in renders.values()}
    assert len(pages) == 1, {n: len(p) for n, p in renders.items()}
    assert pages.pop() > 50  # the whole kit, not a part of it
    problems = []
    for i in range(len(renders[names[0]])):
        sizes = {n: renders[n][i].shape for n in names}
        first = renders[names[0]][i].shape
        assert all(abs(s[0] - first[0]) <= 1 and abs(s[1] - first[1]) <= 1 for s in sizes.values()), (i + 1, sizes)
        assert (renders[names[0]][i] < INK).any(), f"page {i + 1}: blank in {names[0]}"
        for k, one in enumerate(names):
            for other in names[k + 1:]:
                for row, col, which in disagreements(renders[one][i], renders[other][i]):
                    side = one if which.endswith("first") else other
                    problems.append(f"page {i + 1}, block at x {col * BLOCK} y {row * BLOCK} px: "
                                    f"ink in {side} only ({one} vs {other})")
    assert not problems, f"{len(problems)} blocks differ:\n" + "\n".join(problems[:SHOWN])


def test_the_check_sees_text_one_reader_leaves_out(whole_kit):
    """The comparison itself: a page against the same page with its text taken off differs."""
    doc = pdfium.PdfDocument(str(whole_kit.folder / "kit.pdf"))
    page = doc[0]
    whole = darkness(page.render(scale=DPI / 72, fill_color=(255, 255, 255, 255)).to_pil())
    assert disagreements(whole, whole) == []
    for obj in list(page.get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_TEXT], max_depth=1)):
        page.remove_obj(obj)
    page.gen_content()
    bare = darkness(page.render(scale=DPI / 72, fill_color=(255, 255, 255, 255)).to_pil())
    found = disagreements(whole, bare)
    assert len(found) >= 10 and all(which == "ink only in the first" for _, _, which in found)

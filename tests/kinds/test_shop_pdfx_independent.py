"""The print-shop PDF's PDF/X-1a:2003 claim (issue 35), checked by tools that are not ours.

`sheets cards regiment --set weapons --export pdf --shop drivethrucards --backs -o DIR` says it
writes PDF/X-1a:2003; tests/kinds/test_card_shops.py reads that back with our own library
(pikepdf). Here three independent programs look at the same file:

- **Ghostscript** (Debian `ghostscript`, a RIP many printers use) renders every page into its
  colour plates (`tiffsep`, 72 dpi, no anti-aliasing). Only the four process plates come out (no
  spot colour); no pixel carries more than the shop's 240 % total ink; every inked pixel is black
  ink only or exactly one of the palette's CMYK colours (content/_print/palette.yaml), and text is
  black ink only. Ghostscript turns any RGB colour (operator, colour space or image) into CMYK with
  its own ICC profiles, as a mix of C, M, Y and K that is in no palette (black RGB text comes out
  at 297 %), so a stray RGB colour fails here: the last test shows it on a spoiled copy.
- **Poppler** (`pdfinfo`, `pdffonts`; Debian `poppler-utils`): PDF 1.4, the PDF/X-1a:2003
  subtype, every page's MediaBox, TrimBox and BleedBox, every font embedded.
- **pdf_oxide** (PyPI `pdf-oxide`, a PDF library with a PDF/X validator): output intent,
  GTS_PDFXVersion, Trapped, a TrimBox on every page, no transparency. It knows PDF/X-1a only in
  its 2001 edition (`1a_2001`), whose Info also needs GTS_PDFXConformance; the 2003 edition
  (ISO 15930-4) identifies a file by GTS_PDFXVersion alone, so that one finding is expected.

Ghostscript and Poppler come from `make test`'s Debian packages (as root); without them these
tests are skipped, except with CI=true, where a missing tool fails them.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections import Counter
from pathlib import Path

import numpy as np
import pikepdf
import pytest
import yaml
from PIL import Image

ROOT = Path(__file__).resolve().parents[2]
PROCESS = ("Cyan", "Magenta", "Yellow", "Black")
INK_LIMIT = 240  # per cent: content/_print/shops.yaml, drivethrucards


def _tool(name: str, package: str) -> str:
    path = shutil.which(name)
    if path is None:
        reason = f"no {name}: apt-get install {package} (make test does, as root)"
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI: {reason}")
        pytest.skip(reason)
    return path


@pytest.fixture(scope="module")
def shop_pdf(tmp_path_factory) -> Path:
    from typer.testing import CliRunner

    from sheets.cli import app

    out = tmp_path_factory.mktemp("dtc-x")
    result = CliRunner().invoke(app, ["cards", "regiment", "--set", "weapons", "--export", "pdf",
                                      "--shop", "drivethrucards", "--backs", "-o", str(out)])
    assert result.exit_code == 0, result.output
    return out / "weapons.pdf"


def _palette() -> list[tuple[int, ...]]:
    data = yaml.safe_load((ROOT / "content/_print/palette.yaml").read_text(encoding="utf-8"))
    return [tuple(c["cmyk"]) for c in data["colours"].values()]


def plates(pdf: Path, out: Path, *options: str) -> list[tuple[set[str], np.ndarray]]:
    """Ghostscript's plates of every page: the plate names, and the ink (per cent, rounded) of
    each pixel as an (h, w, 4) array in C, M, Y, K order."""
    out.mkdir(parents=True, exist_ok=True)
    subprocess.run([_tool("gs", "ghostscript"), "-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-sDEVICE=tiffsep",
                    "-r72", "-dTextAlphaBits=1", "-dGraphicsAlphaBits=1", *options,
                    f"-sOutputFile={out}/p%03d.tif", str(pdf)], check=True, capture_output=True)
    pages = []
    for composite in sorted(out.glob("p[0-9][0-9][0-9].tif")):
        seps = {re.search(r"\((.*)\)", f.name).group(1): f for f in out.glob(composite.stem + "(*).tif")}
        ink = np.stack([255 - np.asarray(Image.open(seps[n]), dtype=np.int32) for n in PROCESS], axis=-1)
        pages.append((set(seps), np.rint(ink / 2.55).astype(np.int32)))
    assert pages, "Ghostscript wrote no page"
    return pages


def colours(ink: np.ndarray, where: np.ndarray | None = None) -> Counter:
    """How many pixels of each CMYK colour (per cent)."""
    pixels = ink.reshape(-1, 4) if where is None else ink[where]
    found, counts = np.unique(pixels, axis=0, return_counts=True)
    return Counter({tuple(int(v) for v in c): int(n) for c, n in zip(found, counts)})


def strays(found: Counter, palette: list[tuple[int, ...]]) -> dict:
    """The colours that are neither black ink only nor a palette colour (±1 % per ink)."""
    def known(c):
        return c[:3] == (0, 0, 0) or any(max(abs(a - b) for a, b in zip(c, p)) <= 1 for p in palette)
    return {c: n for c, n in found.items() if not known(c)}


@pytest.fixture(scope="module")
def rendered(shop_pdf, tmp_path_factory):
    return plates(shop_pdf, tmp_path_factory.mktemp("gs"))


def test_ghostscript_makes_only_the_process_plates_and_no_pixel_over_the_ink_limit(rendered):
    assert len(rendered) == 48  # 24 cards, back and front
    for number, (names, ink) in enumerate(rendered, 1):
        assert names == set(PROCESS), (number, names)  # no spot colour, no extra plate
        assert int(ink.sum(axis=-1).max()) <= INK_LIMIT, number


def test_every_inked_pixel_is_black_ink_or_a_palette_colour(rendered):
    palette = _palette()
    found = Counter()
    for _, ink in rendered:
        found += colours(ink)
    assert strays(found, palette) == {}
    rich = [c for c in found if c[:3] != (0, 0, 0)]
    assert rich and max(sum(c) for c in rich) == 190  # the head's rich black is seen, and is the most ink


def test_text_is_black_ink_only(shop_pdf, rendered, tmp_path):
    """Text pixels: where the page changes when Ghostscript leaves text out (-dFILTERTEXT)."""
    without = plates(shop_pdf, tmp_path / "notext", "-dFILTERTEXT")
    text = Counter()
    for (_, ink), (_, bare) in zip(rendered, without):
        text += colours(ink, (ink != bare).any(axis=-1))
    body, _ = max(((c, n) for c, n in text.items() if sum(c)), key=lambda cn: cn[1])
    assert body[:3] == (0, 0, 0) and body[3] >= 90  # the body text: #111 as 93 % K
    tints = {c: n for c, n in text.items() if c[:3] != (0, 0, 0)}
    assert set(tints) <= {(0, 0, 3, 17)}, tints  # only the head's light subtitle (palette: frame-saver)


def test_poppler_reads_pdf_1_4_the_pdfx_subtype_boxes_and_embedded_fonts(shop_pdf):
    info = subprocess.run([_tool("pdfinfo", "poppler-utils"), "-box", "-f", "1", "-l", "48", str(shop_pdf)],
                          capture_output=True, text=True, check=True).stdout
    assert re.search(r"^PDF version:\s+1\.4$", info, re.M)
    assert re.search(r"^PDF subtype:\s+PDF/X-1a:2003$", info, re.M)
    for box, want in (("MediaBox", [0, 0, 198, 270]), ("BleedBox", [0, 0, 198, 270]), ("TrimBox", [9, 9, 189, 261])):
        found = re.findall(rf"^Page\s+\d+ {box}:\s+(.*)$", info, re.M)
        assert len(found) == 48 and {tuple(float(v) for v in f.split()) for f in found} == {tuple(want)}, box
    fonts = subprocess.run([_tool("pdffonts", "poppler-utils"), str(shop_pdf)],
                           capture_output=True, text=True, check=True).stdout.splitlines()[2:]
    assert fonts and all(line.split()[-5] == "yes" for line in fonts), fonts  # the "emb" column


def test_pdf_oxide_pdfx_validator(shop_pdf, tmp_path):
    import pdf_oxide

    report = pdf_oxide.PdfDocument(str(shop_pdf)).validate_pdf_x("1a_2001")
    assert [e.split("]")[0] for e in report["errors"]] == ["[XMETA-008"]  # GTS_PDFXConformance: 2001 only
    assert all(w.startswith("[XMETA-006]") for w in report["warnings"])  # "PDF/X-1a:2003", not 2001
    spoiled = tmp_path / "spoiled.pdf"  # the validator does see what it is trusted for here
    with pikepdf.open(shop_pdf) as pdf:
        del pdf.Root["/OutputIntents"]
        del pdf.pages[0].obj["/TrimBox"]
        pdf.save(spoiled)
    codes = {e.split("]")[0][1:] for e in pdf_oxide.PdfDocument(str(spoiled)).validate_pdf_x("1a_2001")["errors"]}
    assert {"XMETA-001", "XBOX-001"} <= codes


def test_a_spoiled_copy_with_rgb_colour_fails_these_checks(shop_pdf, tmp_path):
    """The checks have teeth: black RGB text and an RGB grey, drawn on a copy, come out of
    Ghostscript as CMY+K mixes in no palette, and the black over the ink limit."""
    spoiled = tmp_path / "rgb.pdf"
    with pikepdf.open(shop_pdf) as pdf:
        pdf.pages[1].contents_add(pdf.make_stream(b"q 0 0 0 rg 20 20 40 40 re f 0.4 0.4 0.4 rg 80 20 40 40 re f Q"))
        pdf.save(spoiled)
    [(_, ink)] = plates(spoiled, tmp_path / "gs", "-dFirstPage=2", "-dLastPage=2")
    bad = strays(colours(ink), _palette())
    assert len(bad) >= 2 and all(c[:3] != (0, 0, 0) for c in bad)
    assert int(ink.sum(axis=-1).max()) > INK_LIMIT

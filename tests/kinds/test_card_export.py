"""The print-shop export: `sheets cards GAME --export png -o DIR`, one PNG per card face.

Read back from the files: names and order, pixel size and stored resolution, the frame's
band running on into the bleed (the outermost pixels), and no text ink in the bleed or the
safe zone: the images are compared with the same card pages rendered with their text
objects removed, and every glyph's box on the PDF page is inside the safe rectangle.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
import pytest
from PIL import Image

from sheets.kinds.cards import export
from sheets.pipeline.sheet import pdf_of_html, render_html

DPI = 300
BLEED = 3.0
MM = 72 / 25.4
BAND = (0x9a, 0x9a, 0x94)  # the frame's colour (card.html.j2), which runs into the bleed
WHITE = 250                 # a channel above this is paper


def px(mm: float, dpi: int = DPI) -> int:
    return round(mm / 25.4 * dpi)


@pytest.fixture(scope="module")
def weapons(tmp_path_factory, regiment):
    """`sheets cards regiment --set weapons --export png -o DIR`, run once."""
    from typer.testing import CliRunner

    from sheets.cli import app

    out = tmp_path_factory.mktemp("export") / "weapons"
    result = CliRunner().invoke(app, ["cards", "regiment", "--set", "weapons", "--export", "png", "-o", str(out)])
    assert result.exit_code == 0, result.output
    return out


@pytest.fixture(scope="module")
def weapons_pdf(regiment, library):
    """The card document the export rasterised (one card per page, card + bleed)."""
    sheet = export.export_sheet(regiment, regiment.card_sets["weapons"], library.geometry(), bleed=BLEED)
    return pdf_of_html(render_html(sheet), False, sheet.finish)


def pixels(path: Path) -> np.ndarray:
    return np.asarray(Image.open(path).convert("RGB")).astype(int)


def test_one_png_per_card_in_the_sets_order(weapons, regiment):
    cards = regiment.card_sets["weapons"].cards
    assert sorted(p.name for p in weapons.iterdir()) == [f"{i + 1:03d}-{c.id}.png" for i, c in enumerate(cards)]


def test_each_image_is_the_card_plus_bleed_at_300_dpi(weapons):
    want = (px(63 + 2 * BLEED), px(88 + 2 * BLEED))
    assert want == (815, 1110)
    for path in sorted(weapons.iterdir()):
        with Image.open(path) as image:
            assert image.format == "PNG" and image.mode == "RGB"
            assert image.size == want, path.name
            assert image.info["dpi"] == pytest.approx((DPI, DPI), abs=0.05), path.name


def test_the_frame_runs_on_into_the_bleed(weapons):
    bleed, band = px(BLEED), px(BLEED + 3.0)  # the band reaches 3 mm inside the cut line (export.FRAME_IN_MM)
    for path in sorted(weapons.iterdir()):
        image = pixels(path)
        edges = np.concatenate([image[0], image[-1], image[:, 0], image[:, -1]])
        assert (edges.max(axis=1) < WHITE).all(), f"{path.name}: white at the bleed's edge"
        assert (np.abs(edges - BAND) <= 2).all(), f"{path.name}: the outermost pixels are not the frame's colour"
        # the whole bleed and the cut line itself, all round, are the band (corners too)
        ring = np.ones(image.shape[:2], bool)
        ring[band:-band, band:-band] = False
        assert (np.abs(image[ring] - BAND) <= 2).all(), f"{path.name}: the band breaks in the bleed"
        # inside the frame line the card is white paper
        inner = image[bleed + px(3.5):-bleed - px(3.5), bleed + px(3.5):-bleed - px(3.5)]
        assert (inner.min(axis=2) > WHITE).mean() > 0.5, path.name


def _without_text(pdf: bytes, index: int) -> np.ndarray:
    doc = pdfium.PdfDocument(pdf)
    page = doc[index]
    for obj in list(page.get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_TEXT], max_depth=1)):
        page.remove_obj(obj)
    page.gen_content()
    assert not list(page.get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_TEXT], max_depth=8))
    image = page.render(scale=DPI / 72, fill_color=(255, 255, 255, 255)).to_pil().convert("RGB")
    return np.asarray(image).astype(int)


def test_no_text_in_the_bleed_or_the_safe_zone(weapons, weapons_pdf):
    files = sorted(weapons.iterdir())
    safe = int(2 * BLEED / 25.4 * DPI)  # the pixels wholly outside the safe rectangle (bleed + safe zone)
    for index, path in enumerate(files):
        image = pixels(path)
        bare = _without_text(weapons_pdf, index)[:image.shape[0], :image.shape[1]]
        ring = np.ones(image.shape[:2], bool)
        ring[safe:-safe, safe:-safe] = False
        ys, xs = np.nonzero((np.abs(image - bare).max(axis=2) > 2) & ring)
        assert not len(ys), f"{path.name}: text ink outside the safe zone at {list(zip(xs, ys))[:5]} (x, y)"
        assert np.abs(image - bare)[~ring].max() > 100, f"{path.name}: no text at all?"


def test_every_glyph_is_inside_the_safe_zone(weapons_pdf):
    doc = pdfium.PdfDocument(weapons_pdf)
    inset = 2 * BLEED * MM  # the bleed, then a safe zone as wide
    slack = 0.05 * MM       # a letter's ink may overhang its box by a hair (J, italics)
    for index in range(len(doc)):
        page = doc[index]
        width, height = page.get_size()
        text = page.get_textpage()
        boxes = [text.get_charbox(k) for k in range(text.count_chars())]
        boxes = [b for b in boxes if b[2] > b[0]]
        assert len(boxes) > 20
        left, bottom = min(b[0] for b in boxes), min(b[1] for b in boxes)
        right, top = max(b[2] for b in boxes), max(b[3] for b in boxes)
        assert left >= inset - slack and bottom >= inset - slack, (index, left, bottom)
        assert right <= width - inset + slack and top <= height - inset + slack, (index, right, top)


def test_backs_repeatable_and_a_shorter_deck_leaves_no_stale_images(cli, tmp_path):
    out = tmp_path / "loadout"
    (out).mkdir()
    (out / "009-old-card.png").write_bytes(b"stale")
    (out / "notes.txt").write_text("mine")
    first = cli("cards", "regiment", "--set", "operator-loadout", "--export", "png", "--backs", "-o", out)
    assert first.exit_code == 0, first
    names = sorted(p.name for p in out.iterdir())
    fronts = [n for n in names if not n.endswith("back.png") and n.endswith(".png")]
    assert [n[:3] for n in fronts] == ["001", "002", "003", "004"]
    assert [n for n in names if n.endswith("back.png")] == ["back.png"]  # the set's one back, written once
    assert "009-old-card.png" not in names and "notes.txt" in names
    back = pixels(out / "back.png")
    assert back.shape[:2] == (px(88 + 2 * BLEED), px(63 + 2 * BLEED))
    assert (np.abs(back[0] - BAND) <= 2).all()
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    again = cli("cards", "regiment", "--set", "operator-loadout", "--export", "png", "--backs", "-o", out)
    assert again.exit_code == 0, again
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before  # byte-identical


def test_dpi_and_bleed_change_the_size(cli, tmp_path):
    out = tmp_path / "small"
    result = cli("cards", "regiment", "--set", "operator-loadout", "--export", "png", "--dpi", "150",
                 "--bleed", "0", "-o", out)
    assert result.exit_code == 0, result
    image = Image.open(sorted(out.iterdir())[0])
    assert image.size == (px(63, 150), px(88, 150))
    assert image.info["dpi"] == pytest.approx((150, 150), abs=0.05)  # pHYs: whole pixels per metre


@pytest.mark.parametrize("args, says", [
    (["--export", "jpeg", "-o", "DIR"], "--export 'jpeg'"),
    (["--export", "png", "-o", "FILE"], "is a file"),
    (["--export", "png", "-o", "deck.pdf"], "not one file"),
    (["--export", "png"], "-o DIR"),
    (["--export", "png", "--dpi", "20", "-o", "DIR"], "--dpi 20"),
    (["--export", "png", "--dpi", "1200", "-o", "DIR"], "--dpi 1200"),
    (["--export", "png", "--bleed", "-1", "-o", "DIR"], "--bleed -1"),
    (["--export", "png", "--bleed", "25", "-o", "DIR"], "--bleed 25"),
    (["--dpi", "300", "-o", "DIR"], "add --export png"),
    (["--export", "png", "--fold", "-o", "DIR"], "--fold"),
])
def test_a_bad_option_is_one_error_and_nothing_written(cli, tmp_path, args, says):
    (tmp_path / "FILE").write_text("a file")
    result = cli("cards", "regiment", "--set", "weapons", *args)
    assert result.exit_code == 1, result
    assert says in result.stderr and result.stderr.startswith("error: "), result.stderr
    assert "Traceback" not in result.stderr + result.stdout
    assert sorted(p.name for p in tmp_path.iterdir()) == ["FILE"]
    assert (tmp_path / "FILE").read_text() == "a file"


def test_a_card_with_its_own_back_gets_it_under_its_number(cli, fixture_content, tmp_path):
    cards = fixture_content / "skirmish" / "cards" / "units.yaml"
    cards.write_text(cards.read_text().replace(
        '    blocks: [{p: "Gunners may not move and shoot."}]',
        '    blocks: [{p: "Gunners may not move and shoot."}]\n    back: {title: "Heavy weapons"}'))
    out = tmp_path / "units"
    result = cli("cards", "skirmish", "--content", fixture_content, "--export", "png", "--backs", "-o", out)
    assert result.exit_code == 0, result
    assert sorted(p.name for p in out.iterdir()) == ["001-back.png", "001-scouts.png", "002-back.png", "002-gunners.png"]
    set_back, own_back = pixels(out / "001-back.png"), pixels(out / "002-back.png")
    assert set_back.shape == own_back.shape and (np.abs(set_back - own_back) > 100).any()

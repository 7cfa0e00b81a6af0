"""Print-shop presets and Tabletop Simulator decks (issue 35), read back from the files written.

- `--export pdf --shop drivethrucards --backs`: one PDF, back/front alternating, 2.75×3.75 in
  pages with a 2.5×3.5 in TrimBox, PDF/X-1a:2003 (GTS_PDFXVersion in Info and XMP, an output
  intent, PDF 1.4 without object streams), no RGB colour space or operator anywhere (every content
  stream walked with pikepdf), every colour at most 240 % ink, black text K only, fonts embedded,
  glyphs inside the 1/8 in safe zone, the same bytes twice.
- `--export png --shop thegamecrafter|makeplayingcards`: the templates' pixels, one back.png.
- `--export tts`: grids of at most 10×7 cards and 4096 px, and the back.
"""
from __future__ import annotations

import json
import re
from types import SimpleNamespace
from pathlib import Path

import numpy as np
import pikepdf
import pypdfium2 as pdfium
import pytest
from PIL import Image

from sheets.kinds.cards import tts
from sheets.kinds.cards.export import FRAME_IN_MM, SAFE_MM

INCH = 72
ROOT = Path(__file__).resolve().parents[2]
BAND = (0x9a, 0x9a, 0x94)


@pytest.fixture(scope="module")
def dtc(tmp_path_factory, regiment):
    """`sheets cards regiment --set weapons --export pdf --shop drivethrucards --backs -o DIR`, run twice."""
    from typer.testing import CliRunner

    from sheets.cli import app

    outs = []
    for run in ("a", "b"):
        out = tmp_path_factory.mktemp("dtc") / run
        result = CliRunner().invoke(app, ["cards", "regiment", "--set", "weapons", "--export", "pdf",
                                          "--shop", "drivethrucards", "--backs", "-o", str(out)])
        assert result.exit_code == 0, result.output
        outs.append(out)
    return outs


@pytest.fixture(scope="module")
def dtc_pdf(dtc) -> Path:
    files = sorted(dtc[0].iterdir())
    assert [p.name for p in files] == ["weapons.pdf"]  # one PDF per deck
    return files[0]


def _texts(path: Path) -> list[str]:
    doc = pdfium.PdfDocument(str(path))
    return [doc[i].get_textpage().get_text_range() for i in range(len(doc))]


def test_pages_alternate_back_and_front(dtc_pdf, regiment):
    cards = regiment.card_sets["weapons"].cards
    texts = _texts(dtc_pdf)
    assert len(texts) == 2 * len(cards)
    backs, fronts = texts[0::2], texts[1::2]
    assert len(set(backs)) == 1 and "THE REGIMENT" in backs[0].upper()
    assert "1/24" not in backs[0] and "Weapons" in backs[0]  # the back has no footer
    for card, text in zip(cards, fronts):
        assert card.title.upper() in text.upper(), (card.id, text[:60])


def test_pages_are_card_plus_bleed_with_trim_and_bleed_boxes(dtc_pdf):
    with pikepdf.open(dtc_pdf) as pdf:
        for page in pdf.pages:
            media = [float(v) for v in page.mediabox]
            assert media[2] - media[0] == pytest.approx(2.75 * INCH) and media[3] - media[1] == pytest.approx(3.75 * INCH)
            trim = [float(v) for v in page.obj.TrimBox]
            assert trim == pytest.approx([media[0] + 9, media[1] + 9, media[2] - 9, media[3] - 9])
            assert trim[2] - trim[0] == pytest.approx(2.5 * INCH) and trim[3] - trim[1] == pytest.approx(3.5 * INCH)
            assert [float(v) for v in page.obj.BleedBox] == pytest.approx(media)


def test_pdfx_1a_keys_output_intent_and_pdf_1_4(dtc_pdf):
    raw = dtc_pdf.read_bytes()
    assert raw.startswith(b"%PDF-1.4")
    with pikepdf.open(dtc_pdf) as pdf:
        assert pdf.pdf_version == "1.4"
        assert str(pdf.docinfo.GTS_PDFXVersion) == "PDF/X-1a:2003"
        assert pdf.docinfo.Trapped == pikepdf.Name("/False")
        xmp = pdf.Root.Metadata.read_bytes().decode()
        assert "<pdfxid:GTS_PDFXVersion>PDF/X-1a:2003</pdfxid:GTS_PDFXVersion>" in xmp
        assert "<pdf:Trapped>False</pdf:Trapped>" in xmp
        assert re.search(r"<dc:title>.*The Regiment: Weapons.*</dc:title>", xmp)
        intents = pdf.Root.OutputIntents
        assert len(intents) == 1 and intents[0].S == pikepdf.Name.GTS_PDFX
        assert str(intents[0].OutputConditionIdentifier) == "CGATS TR 001"
        kinds = {str(obj.get("/Type")) for obj in pdf.objects if isinstance(obj, (pikepdf.Dictionary, pikepdf.Stream))}
        assert "/ObjStm" not in kinds and "/XRef" not in kinds  # no object or cross-reference streams (PDF 1.5)
        assert str(pdf.docinfo.CreationDate).startswith("D:2000")  # FIXED_EPOCH, not the clock


def _streams(pdf: pikepdf.Pdf):
    """(where, operators, resources) of every page and every form and tiling pattern it draws."""
    seen: set = set()

    def walk(res, where):
        for key, xobj in (res or {}).get("/XObject", {}).items():
            if xobj.get("/Subtype") == pikepdf.Name.Form and xobj.objgen not in seen:
                seen.add(xobj.objgen)
                yield f"{where} {key}", pikepdf.parse_content_stream(xobj), xobj.get("/Resources")
                yield from walk(xobj.get("/Resources"), f"{where} {key}")

    for number, page in enumerate(pdf.pages, 1):
        yield f"page {number}", pikepdf.parse_content_stream(page), page.obj.get("/Resources")
        yield from walk(page.obj.get("/Resources"), f"page {number}")


def test_no_rgb_anywhere_cmyk_within_240_percent_black_text_k_only(dtc_pdf):
    with pikepdf.open(dtc_pdf) as pdf:
        for obj in pdf.objects:  # no RGB or ICC colour space in any object or stream
            if isinstance(obj, pikepdf.Stream):
                data = obj.read_bytes() if obj.get("/Subtype") != pikepdf.Name.Image else b""
                assert b"/DeviceRGB" not in data and b"/ICCBased" not in data
                if obj.get("/Subtype") == pikepdf.Name.Image:
                    assert str(obj.ColorSpace) in ("/DeviceCMYK", "/DeviceGray")
            if isinstance(obj, (pikepdf.Dictionary, pikepdf.Stream)):
                text = repr(obj) if not isinstance(obj, pikepdf.Stream) else repr(dict(obj.items()))
                assert "/DeviceRGB" not in text and "/ICCBased" not in text and "/CalRGB" not in text
                for alpha in ("/CA", "/ca"):
                    if alpha in obj and obj.get("/Type") == pikepdf.Name.ExtGState:
                        assert float(obj[alpha]) == 1  # no transparency
                assert "/SMask" not in obj or str(obj.SMask) == "/None"
        most, text_colours, count = 0.0, set(), 0
        for where, ops, res in _streams(pdf):
            fill = (0, 0, 0, 1)
            space = {"f": "/DeviceGray", "s": "/DeviceGray"}
            for operands, op in ops:
                name = str(op)
                assert name not in ("rg", "RG"), f"{where}: an RGB colour operator"
                if name in ("cs", "CS"):
                    space["s" if name == "CS" else "f"] = str(operands[0])
                    assert str(operands[0]) in ("/DeviceCMYK", "/DeviceGray"), (where, operands)
                if name in ("sc", "scn", "SC", "SCN"):
                    assert space["s" if name.startswith("S") else "f"] in ("/DeviceCMYK", "/DeviceGray")
                if name in ("k", "K") or name in ("sc", "scn", "SC", "SCN") and len(operands) == 4:
                    values = [float(v) for v in operands]
                    most = max(most, sum(values) * 100)
                    count += 1
                    if name in ("k", "scn", "sc"):
                        fill = tuple(values)
                if name in ("Tj", "TJ", "'", '"'):
                    text_colours.add(fill)
        assert count > 100 and most <= 240 + 1e-6, most
        dark = [c for c in text_colours if len(c) == 4 and c[3] >= 0.5]
        assert dark and all(c[0] == c[1] == c[2] == 0 for c in dark), text_colours  # black and grey text: K only


def test_every_font_embedded(dtc_pdf):
    with pikepdf.open(dtc_pdf) as pdf:
        fonts = [obj for obj in pdf.objects if isinstance(obj, pikepdf.Dictionary) and obj.get("/Type") == pikepdf.Name.Font]
        assert fonts
        for font in fonts:
            for leaf in font.get("/DescendantFonts", [font]):
                if leaf.get("/Subtype") == pikepdf.Name.Type3:
                    continue
                descriptor = leaf.FontDescriptor
                assert any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3")), str(leaf.get("/BaseFont"))


def test_glyphs_inside_the_safe_zone_of_the_trim(dtc_pdf):
    doc = pdfium.PdfDocument(str(dtc_pdf))
    inset = (0.125 + 0.125) * INCH  # bleed, then 1/8 in inside the trim
    for index in range(len(doc)):
        page = doc[index]
        width, height = page.get_size()
        text = page.get_textpage()
        boxes = [b for b in (text.get_charbox(k) for k in range(text.count_chars())) if b[2] > b[0]]
        assert boxes
        assert min(b[0] for b in boxes) >= inset and min(b[1] for b in boxes) >= inset, index
        assert max(b[2] for b in boxes) <= width - inset and max(b[3] for b in boxes) <= height - inset, index


def test_the_same_bytes_twice(dtc):
    assert (dtc[0] / "weapons.pdf").read_bytes() == (dtc[1] / "weapons.pdf").read_bytes()


@pytest.mark.parametrize("shop, size, bleed_px", [("thegamecrafter", (825, 1125), 37.5), ("makeplayingcards", (822, 1122), 36)])
def test_png_shops_write_their_template_size_and_one_back(cli, tmp_path, regiment, shop, size, bleed_px):
    out = tmp_path / shop
    result = cli("cards", "regiment", "--set", "operator-loadout", "--export", "png", "--shop", shop, "--backs", "-o", out)
    assert result.exit_code == 0, result
    names = sorted(p.name for p in out.iterdir())
    cards = regiment.card_sets["operator-loadout"].cards
    assert names == sorted([f"{i + 1:03d}-{c.id}.png" for i, c in enumerate(cards)] + ["back.png"])
    for name in names:
        with Image.open(out / name) as image:
            assert image.size == size, name
    # the frame's band runs from the bleed's edge to at least 3 mm inside the cut, then white paper
    image = np.asarray(Image.open(out / names[0]).convert("RGB")).astype(int)
    row = image[image.shape[0] // 2]
    band = int(np.argmax((row.min(axis=1) > 250)))  # the first white pixel from the left
    assert (np.abs(row[:band - 1] - BAND) <= 2).all()  # the last one anti-aliased
    assert band >= bleed_px + FRAME_IN_MM / 25.4 * 300 - 2 and FRAME_IN_MM >= 3 and SAFE_MM >= 3.175


def test_tts_grids_within_10_by_7_and_4096_px(cli, tmp_path, regiment):
    out = tmp_path / "tts"
    result = cli("cards", "regiment", "--set", "weapons", "--export", "tts", "-o", out)
    assert result.exit_code == 0, result
    assert sorted(p.name for p in out.iterdir()) == ["weapons-back.png", "weapons-deck.png", "weapons.json"]
    deck, back = Image.open(out / "weapons-deck.png"), Image.open(out / "weapons-back.png")
    assert deck.mode == "RGB" and back.mode == "RGB"
    assert deck.size[0] <= 4096 and deck.size[1] <= 4096
    assert deck.size == (10 * back.size[0], 3 * back.size[1])  # 24 cards: 10 columns, 3 rows
    assert back.size[0] * 10 <= 4096 and back.size[1] * 7 <= 4096


def test_tts_splits_a_big_deck():
    sheets = tts.deck_sheets("big", 150)
    assert [s.name for s in sheets] == ["big-deck-1.png", "big-deck-2.png", "big-deck-3.png"]
    assert [s.count for s in sheets] == [69, 69, 12] and all(s.columns <= 10 and s.rows <= 7 for s in sheets)
    assert sheets[2].how_to_import() == "big-deck-3.png: Custom Deck, Width 10, Height 2, Number 12"
    assert tts.deck_sheets("one", 5)[0].name == "one-deck.png"
    for w, h in ((63, 88), (63.5, 88.9), (70, 120), (130, 190)):
        dpi = tts.card_dpi(w, h)
        assert round(w / 25.4 * dpi) * 10 <= 4096 and round(h / 25.4 * dpi) * 7 <= 4096


def test_a_deck_over_one_grid_is_one_saved_object_of_several_custom_decks(tmp_path):
    """150 faces: three grid images, each its own CustomDeck entry; every card's CardID names its
    entry (hundreds) and its slot on that grid (units), within the grid's columns x rows."""
    card_set = SimpleNamespace(id="big", title="Big", cards=[
        SimpleNamespace(id="a", title="Alpha", count=100), SimpleNamespace(id="b", title="Bravo", count=50)])
    name, data = tts.saved_object(card_set, tmp_path)
    deck = json.loads(data)["ObjectStates"][0]
    grids = tts.deck_sheets("big", 150)
    assert name == "big.json" and len(deck["CustomDeck"]) == len(grids)
    for number, grid in enumerate(grids, start=1):
        entry = deck["CustomDeck"][str(number)]
        assert (entry["NumWidth"], entry["NumHeight"]) == (grid.columns, grid.rows)
        assert entry["FaceURL"] == (tmp_path / grid.name).resolve().as_uri()
    ids = deck["DeckIDs"]
    assert len(ids) == 150 and len(set(ids)) == 150
    for card_id in ids:
        grid = grids[card_id // 100 - 1]
        assert card_id % 100 < grid.count
    assert [c["Nickname"] for c in deck["ContainedObjects"]] == ["Alpha"] * 100 + ["Bravo"] * 50
    assert tts.saved_object(card_set, tmp_path)[1] == data  # the same deck, the same file
    one = SimpleNamespace(id="one", title="One", cards=[SimpleNamespace(id="a", title="Alpha", count=1)])
    assert json.loads(tts.saved_object(one, tmp_path)[1])["ObjectStates"][0]["Name"] == "Card"



def test_us_sizes_and_their_layouts(library):
    geometry = library.geometry()
    assert (geometry.card_sizes["poker-us"].width_mm, geometry.card_sizes["poker-us"].height_mm) == (63.5, 88.9)
    assert (geometry.card_sizes["bridge-us"].width_mm, geometry.card_sizes["bridge-us"].height_mm) == (57.15, 88.9)
    for size in ("poker", "poker-us", "bridge-us"):
        assert set(geometry.default_layouts[size]) >= {"a4", "letter"}


def test_help_and_readme_list_every_shop_with_sources(cli, library):
    shops = library.shops().shops
    assert set(shops) == {"drivethrucards", "makeplayingcards", "thegamecrafter"}
    text = cli("cards", "--help").stdout
    readme = (ROOT / "README.md").read_text()
    for name, shop in shops.items():
        assert name in text and name in readme
        assert shop.sources  # every preset says where its numbers come from (the model requires it)


@pytest.mark.parametrize("args, says", [
    (["--export", "pdf", "--shop", "kinkos", "-o", "DIR"], "--shop 'kinkos'"),
    (["--export", "png", "--shop", "drivethrucards", "-o", "DIR"], "takes --export pdf"),
    (["--shop", "thegamecrafter", "--dpi", "600", "-o", "DIR"], "leave out --dpi"),
    (["--export", "tts"], "-o DIR"),
])
def test_a_bad_shop_option_is_one_error(cli, tmp_path, args, says):
    result = cli("cards", "regiment", "--set", "weapons", *args)
    assert result.exit_code == 1, result
    assert says in result.stderr and "Traceback" not in result.stderr + result.stdout, result.stderr
    assert not (tmp_path / "DIR").exists()


def test_no_page_left_outside_the_page_tree(dtc_pdf):
    with pikepdf.open(dtc_pdf) as pdf:
        pages = {p.obj.objgen for p in pdf.pages}
        objects = [o for o in pdf.objects if isinstance(o, pikepdf.Dictionary) and o.get("/Type") == pikepdf.Name.Page]
        assert len(objects) == len(pdf.pages) == 48
        with pdf.open_outline() as outline:
            assert outline.root and all(item.destination[0].objgen in pages for item in outline.root)


def test_plain_pdf_export_fronts_in_order_with_boxes(cli, tmp_path, regiment):
    out = tmp_path / "pdf"
    result = cli("cards", "regiment", "--set", "operator-loadout", "--export", "pdf", "-o", out)
    assert result.exit_code == 0, result
    path = out / "operator-loadout.pdf"
    cards = regiment.card_sets["operator-loadout"].cards
    texts = _texts(path)
    assert len(texts) == len(cards) and all(c.title.upper() in t.upper() for c, t in zip(cards, texts))
    with pikepdf.open(path) as pdf:
        bleed = 3 * 72 / 25.4
        for page in pdf.pages:
            media = [float(v) for v in page.mediabox]
            assert media[2] == pytest.approx((63 + 6) * 72 / 25.4, abs=0.01)
            assert [float(v) for v in page.obj.TrimBox] == pytest.approx(
                [bleed, bleed, media[2] - bleed, media[3] - bleed], abs=0.01)


@pytest.mark.parametrize("game, card_set", [("regiment", "weapons"), ("regiment", "vehicles"),
                                            ("regiment", "operator-loadout"), ("platoon", "profiles")])
def test_every_poker_set_fits_the_us_poker_card(cli, tmp_path, library, game, card_set):
    """The design survives the shops' size: the pre-flight refuses a card whose text runs over."""
    assert library.game(game).card_sets[card_set].size == "poker"
    result = cli("cards", game, "--set", card_set, "--export", "png", "--shop", "makeplayingcards", "-o", tmp_path / "out")
    assert result.exit_code == 0, result


def test_a_preset_without_its_source_is_a_located_content_error(cli, fixture_content):
    shops = fixture_content / "_print" / "shops.yaml"
    text = shops.read_text()
    shops.write_text(text.replace('      pixels: "issue 35 (MakePlayingCards', '      pixel_source: "issue 35 (MakePlayingCards'))
    result = cli("validate", "--content", fixture_content)
    assert result.exit_code == 1, result
    out = result.stdout + result.stderr
    assert "shops.yaml" in out and "pixels" in out and "Traceback" not in out, out
    palette = fixture_content / "_print" / "palette.yaml"
    shops.write_text(text)
    palette.write_text(palette.read_text().replace('cmyk: [45, 25, 35, 85]', 'cmyk: [45, 25, 35, 185]'))
    result = cli("validate", "--content", fixture_content)
    assert result.exit_code == 1 and "palette.yaml" in result.stdout + result.stderr, result


def test_every_games_colours_have_their_cmyk_for_the_print_shop(library):
    """A theme's accent, card frame and back (content/<game>/theme.yaml) are in the palette, so a
    deck in any game's look goes to a CMYK-only shop (a colour without its CMYK stops the export)."""
    known = {c.rgb.lower() for c in library.palette().colours.values()}
    for gid in library.game_ids():
        theme = library.game(gid).content["theme"]
        for colour in (theme.look.accent, theme.frame, theme.back):
            assert colour.lower() in known, (gid, colour)
    neutral = library.theme().colours  # the base theme's inks a card may print
    for colour in (neutral.note, neutral.footer):
        assert colour.lower() in known, colour


def test_a_shop_over_every_set_writes_those_it_prints_and_says_why_it_skips_the_others(cli, library, tmp_path):
    """`--shop NAME` without --set: a deck for each set of a size the shop prints, one line for each
    other set; a game with none the shop prints is one error line."""
    name = "drivethrucards"
    shop = library.shops().shops[name]
    sets = {gid: list(library.game(gid).card_sets.values()) for gid in library.game_ids()}
    mixed = next(g for g, s in sets.items() if any(c.size in shop.cards for c in s) and any(c.size not in shop.cards for c in s))
    result = cli("cards", mixed, "--shop", name, "-o", tmp_path / "mixed")
    assert result.exit_code == 0, result
    assert sorted(p.stem for p in (tmp_path / "mixed").glob("*.pdf")) == sorted(c.id for c in sets[mixed] if c.size in shop.cards)
    lines = [line for line in result.stdout.splitlines() if line.startswith("skipped card set")]
    assert sorted(lines) == sorted(f"skipped card set {c.id!r}: {shop.title} prints {', '.join(shop.cards)} cards; it is {c.size}"
                                   for c in sets[mixed] if c.size not in shop.cards)
    none = next((g for g, s in sets.items() if s and all(c.size not in shop.cards for c in s)), None)
    if none is not None:
        result = cli("cards", none, "--shop", name, "-o", tmp_path / "none")
        assert result.exit_code == 1 and result.stderr.count("\n") == 1 and "no card set" in result.stderr, result
        assert not (tmp_path / "none").exists()

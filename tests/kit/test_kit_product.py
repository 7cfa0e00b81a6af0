"""The kit as a product (issue 10): kit.pdf with contents and outline, manifest, previews,
player packets, and cards that print right at home (copies, back offset, calibration, fold,
ink saver). Everything is read back from the files written."""
from __future__ import annotations

import hashlib
import json
import re

import pypdf
import pytest
from pypdf.generic import ContentStream

from conftest import card_part, pages, pdf_text, squash
from inkcheck import largest_solid_fill

MM = 72 / 25.4
INK_LIMIT_MM2 = 150  # no dark fill bigger than a 12 x 12 mm patch in ink-saver mode


@pytest.fixture(scope="module")
def platoon_kit(tmp_path_factory):
    from typer.testing import CliRunner

    from sheets.cli import app

    out = tmp_path_factory.mktemp("kit") / "kit"
    result = CliRunner().invoke(app, ["kit", "--seed", "7", "--game", "platoon", "--preview", "-o", str(out)])
    assert result.exit_code == 0, result.output
    return out, result.stdout


def outline_entries(reader):
    """(game title, part title, 1-based page) of every child of the outline."""
    entries, game = [], None
    for item in reader.outline:
        if isinstance(item, list):
            for child in item:
                entries.append((game, child.title, reader.get_destination_page_number(child) + 1))
        else:
            game = item.title
    return entries


def test_kit_pdf_has_contents_and_an_outline_that_agree(platoon_kit):
    out, stdout = platoon_kit
    kit = out / "kit.pdf"
    assert "kit.pdf" in stdout and "manifest.json" in stdout
    reader = pypdf.PdfReader(str(kit))
    parts = sorted(p for p in out.glob("*.pdf") if p.name != "kit.pdf")
    assert len(reader.pages) == 1 + sum(pages(p) for p in parts)
    entries = outline_entries(reader)
    assert {g for g, _, _ in entries} == {"Platoon Rules (Base Seven)"}
    assert len(entries) == len(parts)  # one child per part
    contents = reader.pages[0].extract_text()
    assert "How to print it".upper() in contents.upper()
    lines = contents.split("\n")
    for _, title, page in entries:
        row = next((ln for ln in lines if ln.startswith(title[:20])), None)
        assert row is not None, (title, contents)
        assert re.search(rf"(?<!\d){page}(–\d+)?(?!\d)", row), (title, page, row)
    # the entry points at the part's first page: its first page's text is the part's own
    first = {title: page for _, title, page in entries}
    ref = next(t for t in first if "eference" in t)
    assert squash(reader.pages[first[ref] - 1].extract_text())[:40] == \
        squash(pypdf.PdfReader(str(out / "platoon-reference.pdf")).pages[0].extract_text())[:40]
    assert "one-sided" in contents and "cut along the crop marks" in contents
    # the reference is two landscape pages: printed back to back, flipped on the short edge;
    # the one-page trackers need no back (test_print_instructions_follow_the_pages)
    assert contents.count("two-sided, flip on the short edge") == 1, contents
    tracker_row = next(line for line in contents.splitlines() if line.startswith("Trackers"))
    assert "one-sided" in tracker_row and "two-sided" not in tracker_row, tracker_row


def test_kit_pdf_metadata(platoon_kit):
    out, _ = platoon_kit
    reader = pypdf.PdfReader(str(out / "kit.pdf"))
    assert reader.metadata.author == "warsheets"
    assert reader.metadata.title
    assert reader.trailer["/Root"]["/Lang"] == "en"


def test_manifest_matches_the_files(platoon_kit):
    out, _ = platoon_kit
    data = json.loads((out / "manifest.json").read_text())
    assert data["seed"] == 7
    assert re.fullmatch(r"[0-9a-f]{64}", data["content_fingerprint"])
    assert data["warsheets_version"]
    names = {f["path"] for f in data["files"]}
    assert names == {p.name for p in out.glob("*.pdf")}
    for f in data["files"]:
        path = out / f["path"]
        assert f["pages"] == pages(path)
        assert f["sha256"] == hashlib.sha256(path.read_bytes()).hexdigest()
        assert f["paper"] in ("a4", "a4-landscape")
        assert set(f) == {"path", "title", "game", "kind", "pages", "paper", "sha256"}
    kinds = {f["path"]: f["kind"] for f in data["files"]}
    assert kinds["platoon-tokens.pdf"] == "tokens" and kinds["kit.pdf"] == "kit"


def test_same_seed_same_manifest_and_kit(platoon_kit, cli, tmp_path):
    out, _ = platoon_kit
    assert cli("kit", "--seed", "7", "--game", "platoon", "--no-cache", "-o", tmp_path / "again").exit_code == 0
    first = json.loads((out / "manifest.json").read_text())
    assert [p["path"] for p in first.pop("previews")][-1] == "preview/contact-sheet.png"  # --preview's, listed
    assert json.loads((tmp_path / "again" / "manifest.json").read_text()) == first
    assert (tmp_path / "again" / "kit.pdf").read_bytes() == (out / "kit.pdf").read_bytes()


def test_contact_sheet_has_one_thumbnail_per_page(platoon_kit):
    from PIL import Image

    from sheets.pipeline.preview import CELL_H, CELL_W, COLUMNS, HEADER_H, cell_box, contact_sheet_size

    out, _ = platoon_kit
    n = pages(out / "kit.pdf")
    pngs = sorted((out / "preview").glob("kit-*.png"))
    assert len(pngs) == n
    sheet = Image.open(out / "preview" / "contact-sheet.png").convert("RGB")
    assert sheet.size == contact_sheet_size(n)
    rows = -(-n // COLUMNS)
    assert sheet.size == (min(n, COLUMNS) * CELL_W, HEADER_H + rows * CELL_H)
    background = sheet.getpixel((sheet.width - 2, sheet.height - 2)) if n > COLUMNS and n % COLUMNS else None
    for i in range(n):  # each cell holds a page thumbnail: white paper, or a deck's back to its edges
        left, top, right, bottom = cell_box(i)
        cell = sheet.crop((left, top, right, bottom))
        corner = cell.getpixel((0, 0))  # the sheet's background round the thumbnail
        page = sum(1 for px in cell.get_flattened_data() if px != corner)
        assert page > 0.3 * cell.width * cell.height, i
    if background is not None:  # the cells after the last page are empty
        left, top, right, bottom = cell_box(n)
        assert set(sheet.crop((left, top, right, bottom)).get_flattened_data()) == {background}


def test_preview_on_a_single_command(cli, tmp_path):
    result = cli("reference", "platoon", "--preview", "-o", tmp_path / "ref.pdf")
    assert result.exit_code == 0, result
    pngs = sorted((tmp_path / "preview").glob("ref-*.png"))
    assert len(pngs) == pages(tmp_path / "ref.pdf")
    assert "preview/ref-01.png" in result.stdout


def test_reference_is_tagged_and_deterministic(cli, tmp_path):
    for name in ("a.pdf", "b.pdf"):
        assert cli("reference", "downrange", "-o", tmp_path / name).exit_code == 0
    assert (tmp_path / "a.pdf").read_bytes() == (tmp_path / "b.pdf").read_bytes()
    reader = pypdf.PdfReader(str(tmp_path / "a.pdf"))
    root = reader.trailer["/Root"]
    assert "/StructTreeRoot" in root and root["/MarkInfo"]["/Marked"]
    assert root["/Lang"] == "en"
    assert reader.metadata.author == "warsheets"
    assert reader.metadata.title == "Down Range reference"


def test_version(cli):
    from sheets import __version__

    result = cli("--version")
    assert result.exit_code == 0
    assert result.stdout.strip() == f"warsheets {__version__}"


# -- player packets, and what the kit lacked ---------------------------------------
def test_player_packets(cli, tmp_path):
    result = cli("kit", "--seed", "4", "--game", "regiment", "--players", "2", "-o", tmp_path / "k")
    assert result.exit_code == 0, result
    kit = tmp_path / "k"
    for n in (1, 2):
        packet = kit / f"player-{n}.pdf"
        assert packet.is_file() and f"player-{n}.pdf" in result.stdout
        text = pdf_text(packet)
        assert f"player {n} of 2" in text
        assert "Peripheral moves".upper() in text.upper() and "GM Moves".upper() not in text.upper()
    assert not list(kit.glob(".packet-*"))
    manifest = json.loads((kit / "manifest.json").read_text())
    assert {f["path"]: f["kind"] for f in manifest["files"]}["player-1.pdf"] == "packet"
    # vehicle damage rules now reach paper in the kit (the fronts)
    vehicles = squash(pdf_text(card_part(kit, "regiment", "vehicles"))).lower()
    assert "attackavehicle" in vehicles and "armor" in vehicles


def test_players_needs_a_game_with_packets(cli, tmp_path):
    result = cli("kit", "--game", "platoon", "--players", "2", "-o", tmp_path / "k")
    assert result.exit_code == 1
    assert "--players" in result.stderr
    assert not (tmp_path / "k" / "kit.pdf").exists()


def test_blank_wotw_log_sheet_in_kit(whole_kit, library):
    from sheets.games.wotw.mission import longest_track
    from sheets.games.wotw.sheets import track_pages

    blank = whole_kit.folder / "wotw-log-sheet-blank.pdf"
    text = pdf_text(blank)
    assert "LOG SHEET" in text and "MISSION" in text and "seed" not in text
    # the track holds the longest mission the tables can roll, at 7 mm a row (issue 34): the
    # front, and a continuation sheet when the front's rows do not hold it; its last row numbered
    longest = longest_track(library.game("wotw").data)
    front, continuation = track_pages([{} for _ in range(longest)])
    assert pages(blank) == 1 + bool(continuation)
    assert str(len(front) + len(continuation)) in text.split()


# -- cards on real printers ------------------------------------------------------------
def placed(reader, index):
    """(name, e, f) in mm of every XObject placed on a page."""
    out, matrix = [], None
    for operands, op in ContentStream(reader.pages[index].get_contents(), reader).operations:
        if op == b"cm":
            matrix = [float(v) for v in operands]
        elif op == b"Do":
            out.append((str(operands[0]), matrix[4] / MM, matrix[5] / MM, matrix[0]))
    return out


def test_set_all_into_one_file(cli, tmp_path):
    assert cli("cards", "regiment", "--set", "all", "-o", tmp_path / "all.pdf").exit_code == 0
    assert cli("cards", "regiment", "--set", "all", "-o", tmp_path / "sets").exit_code == 0
    per_set = sorted((tmp_path / "sets").glob("*.pdf"))
    assert len(per_set) >= 3
    assert pages(tmp_path / "all.pdf") == sum(pages(p) for p in per_set)


def test_copies_multiply_cards(cli, tmp_path):
    assert cli("cards", "masscombat", "--set", "strategies", "-o", tmp_path / "one.pdf").exit_code == 0
    assert cli("cards", "masscombat", "--set", "strategies", "--copies", "3", "-o", tmp_path / "three.pdf").exit_code == 0
    one, three = pypdf.PdfReader(str(tmp_path / "one.pdf")), pypdf.PdfReader(str(tmp_path / "three.pdf"))
    count = lambda r: sum(len(placed(r, i)) for i in range(len(r.pages)))  # noqa: E731
    assert count(three) == 3 * count(one) == 3 * 13
    assert len(three.pages) == -(-39 // 4)
    bad = cli("cards", "masscombat", "--copies", "0", "-o", tmp_path / "x.pdf")
    assert bad.exit_code == 1 and "Invalid value for '--copies': 0 is not in the range 1 to 50" in bad.stderr


@pytest.mark.parametrize("duplex", ["long", "short"])
def test_back_offset_shifts_every_back(cli, tmp_path, duplex):
    args = ["cards", "regiment", "--set", "battle-plans", "--backs", "--duplex", duplex]
    assert cli(*args, "-o", tmp_path / "plain.pdf").exit_code == 0
    assert cli(*args, "--back-offset", "1.5,-0.5", "-o", tmp_path / "shifted.pdf").exit_code == 0
    plain, shifted = pypdf.PdfReader(str(tmp_path / "plain.pdf")), pypdf.PdfReader(str(tmp_path / "shifted.pdf"))
    for i in range(len(plain.pages)):
        for (n1, x1, y1, _), (n2, x2, y2, _) in zip(placed(plain, i), placed(shifted, i)):
            assert n1 == n2
            if n1.startswith("/Back"):
                assert x2 - x1 == pytest.approx(1.5, abs=0.01) and y2 - y1 == pytest.approx(-0.5, abs=0.01)
            else:
                assert (x2, y2) == pytest.approx((x1, y1), abs=0.01)


def test_back_offset_bad_values(cli, tmp_path):
    for value, why in (("1", "two numbers"), ("a,b", "two numbers"), ("30,0", "at most 20")):
        result = cli("cards", "regiment", "--backs", "--back-offset", value, "-o", tmp_path / "x.pdf")
        assert result.exit_code == 1 and why in result.stderr, (value, result)
    result = cli("cards", "regiment", "--back-offset", "1,1", "-o", tmp_path / "x.pdf")
    assert result.exit_code == 1 and "add --backs" in result.stderr


def test_fold_puts_each_back_beside_its_front(cli, tmp_path):
    assert cli("cards", "regiment", "--set", "vehicles", "--fold", "-o", tmp_path / "f.pdf").exit_code == 0
    reader = pypdf.PdfReader(str(tmp_path / "f.pdf"))
    box = reader.pages[0].mediabox
    width, height = float(box.width) / MM, float(box.height) / MM
    assert (round(width), round(height)) == (297, 210)  # A4 turned landscape
    card_w = 63
    for i in range(len(reader.pages)):
        items = placed(reader, i)
        fronts = {n[len("/Card"):]: (x, y) for n, x, y, _ in items if n.startswith("/Card")}
        backs = {n[len("/Back"):]: (x, y) for n, x, y, _ in items if n.startswith("/Back")}
        assert fronts and fronts.keys() == backs.keys()
        for slot, (fx, fy) in fronts.items():
            bx, by = backs[slot]
            assert fx + card_w <= width / 2 and bx >= width / 2  # fronts left of the fold, backs right
            assert bx == pytest.approx(width - fx - card_w, abs=0.01) and by == pytest.approx(fy, abs=0.01)
        fold = [ops for ops, op in ContentStream(reader.pages[i].get_contents(), reader).operations if op == b"m"]
        # down the middle, 5 mm inside the paper's edge like all ink (issue 34)
        assert any(abs(float(o[0]) / MM - width / 2) < 0.01 and 5 <= float(o[1]) / MM < 6 for o in fold)
    text = pdf_text(tmp_path / "f.pdf")
    assert "The Regiment · Vehicles" in text  # each back names its set on its edge


def segments(reader, index):
    segs, start = [], None
    for operands, op in ContentStream(reader.pages[index].get_contents(), reader).operations:
        if op == b"m":
            start = [float(v) / MM for v in operands]
        elif op == b"l":
            segs.append((*start, *(float(v) / MM for v in operands)))
    return segs


@pytest.mark.parametrize("duplex,offset", [("long", (0, 0)), ("long", (1.5, -1)), ("short", (-2, 0.5))])
def test_calibration_sheet_geometry(cli, tmp_path, duplex, offset):
    from sheets.kinds.calibration import TICK_ZERO, behind

    args = ["cards", "calibrate", "--duplex", duplex, "-o", tmp_path / "cal.pdf"]
    if offset != (0, 0):
        args += ["--back-offset", f"{offset[0]},{offset[1]}"]
    result = cli(*args)
    assert result.exit_code == 0, result
    reader = pypdf.PdfReader(str(tmp_path / "cal.pdf"))
    assert len(reader.pages) == 2
    w, h = (float(v) / MM for v in (reader.pages[0].mediabox.width, reader.pages[0].mediabox.height))
    front = segments(reader, 0)
    upright = [s for s in front if abs(s[0] - s[2]) < 0.01 and abs(s[3] - s[1]) > 100]
    level = [s for s in front if abs(s[1] - s[3]) < 0.01 and abs(s[2] - s[0]) > 100]
    assert len(upright) == 1 and len(level) == 1
    fx, fy = upright[0][0], level[0][1]
    back = segments(reader, 1)
    zero_x = [s for s in back if abs(s[0] - s[2]) < 0.01 and abs(abs(s[3] - s[1]) - TICK_ZERO) < 0.01]
    zero_y = [s for s in back if abs(s[1] - s[3]) < 0.01 and abs(abs(s[2] - s[0]) - TICK_ZERO) < 0.01]
    assert len(zero_x) == 1 and len(zero_y) == 1
    # with no offset, each scale's 0 lies exactly behind its front line; an offset moves it by that much
    bx, by = behind(fx, fy, w, h, duplex)
    assert zero_x[0][0] == pytest.approx(bx + offset[0], abs=0.01)
    assert zero_y[0][1] == pytest.approx(by + offset[1], abs=0.01)
    text = pdf_text(tmp_path / "cal.pdf")
    assert "--back-offset X,Y" in text and f"flip on the {duplex} edge" in text


def test_cards_help_explains_calibrate(cli):
    result = cli("cards", "--help")
    assert result.exit_code == 0
    assert "calibrate" in result.stdout and "--back-offset" in result.stdout


# -- ink saver ------------------------------------------------------------------------
@pytest.mark.parametrize(("command", "full", "saver"), [
    (("cards", "masscombat", "--set", "strategies"), (), ("--ink-saver",)),
    (("tokens", "downrange"), ("--full-colour",), ()),  # tokens are ink-saver unless full colour is asked for
    (("reference", "regiment"), (), ("--ink-saver",)), (("mission", "--seed", "3"), (), ("--ink-saver",))])
def test_ink_saver_has_no_large_solid_fill(cli, tmp_path, command, full, saver):
    assert cli(*command, *full, "-o", tmp_path / "normal.pdf").exit_code == 0
    assert cli(*command, *saver, "-o", tmp_path / "ink.pdf").exit_code == 0
    assert largest_solid_fill(tmp_path / "normal.pdf") > INK_LIMIT_MM2  # the check can fail
    assert largest_solid_fill(tmp_path / "ink.pdf") < INK_LIMIT_MM2
    # the same information is there
    assert squash(pdf_text(tmp_path / "ink.pdf")) == squash(pdf_text(tmp_path / "normal.pdf"))


def test_text_on_fills_is_readable_and_large_enough(tmp_path):
    from sheets.app import api
    from sheets.base.colors import MIN_CONTRAST, MIN_TEXT_PT, contrast, text_on, tint
    from sheets.kinds.tokens.builder import detail_size_pt, label_size_pt

    lib = api.library()
    for gid in lib.game_ids():
        game = lib.game(gid)
        if game.content["tokens"] is None:
            continue
        for token in game.content["tokens"].tokens:
            assert label_size_pt(token.label, game.content["tokens"].diameter_mm) >= MIN_TEXT_PT
            if token.color:
                assert contrast(text_on(token.color), token.color) >= MIN_CONTRAST, (gid, token.id)
                assert contrast("#111111", tint(token.color)) >= MIN_CONTRAST, (gid, token.id)
        assert detail_size_pt(game.content["tokens"].diameter_mm) >= MIN_TEXT_PT
    # card heads and table heads
    assert contrast("#ffffff", "#1f2421") >= MIN_CONTRAST and contrast("#d6d6d0", "#1f2421") >= MIN_CONTRAST
    assert contrast("#ffffff", "#222222") >= MIN_CONTRAST and contrast("#111111", "#ececec") >= MIN_CONTRAST
    # every font size the card template sets reads a role of the theme (its floor at least: the
    # floor test, tests/kit/test_floors.py, measures the printed sizes), for every card size
    import jinja2

    from sheets.pipeline import rendering

    source = (rendering.paths.templates_dir() / "_base" / "card.html.j2").read_text()
    for size in lib.geometry().card_sizes.values():
        css = jinja2.Environment().from_string(
            re.search(r"{% block style %}(.*?){% endblock %}", source, re.S).group(1)
        ).render(font_pt=size.font_pt, min_text_pt=MIN_TEXT_PT, inset_mm=3, margin_mm=3, card_h_mm=88,
                 page_size="63mm 88mm", colours=lib.palette().css(False), themed=True, cell_mm=(63, 88),
                 theme_frame_tint="#dddddd", set_title="x", band="x")
        font_sizes = re.findall(r"font-size:\s*([^;}]+)", css)
        assert font_sizes and all(v.strip().startswith(("var(--", "max(var(--")) for v in font_sizes), (size, font_sizes)
        assert not re.findall(r"font:\s*[\d.]+pt", css)


def test_contact_sheet_geometry_with_a_partial_last_row():
    from PIL import Image

    from sheets.pipeline.preview import CELL_W, COLUMNS, cell_box, contact_sheet_size, make_contact_sheet

    n = COLUMNS + 3
    pages_ = [Image.new("RGB", (210, 297), (255, 255, 255)) for _ in range(n)]
    sheet = make_contact_sheet(pages_, [f"page {i}" for i in range(n)], "test")
    assert sheet.size == contact_sheet_size(n) == (COLUMNS * CELL_W, contact_sheet_size(n)[1])
    thumbs = 0
    for i in range(2 * COLUMNS):
        cell = sheet.crop(cell_box(i))
        if any(px == (255, 255, 255) for px in cell.get_flattened_data()):
            thumbs += 1
    assert thumbs == n  # one thumbnail per page, and the rest of the last row empty


def test_print_instructions_follow_the_pages(tmp_path):
    """Two-sided parts of one page print one-sided; landscape ones flip on the short edge."""
    from reportlab.pdfgen import canvas

    from sheets.kit.assemble import describe, load_printing

    printing = load_printing()
    for name, size, count in (("one.pdf", (595, 842), 1), ("land.pdf", (842, 595), 3), ("port.pdf", (595, 842), 2)):
        c = canvas.Canvas(str(tmp_path / name), pagesize=size, invariant=1)
        for _ in range(count):
            c.drawString(50, 50, "x")
            c.showPage()
        c.save()
    steps = {name: describe(tmp_path / name, title=name, game=None, game_title="", template="reference.html.j2",
                            printing=printing).how.steps()[0] for name in ("one.pdf", "land.pdf", "port.pdf")}
    assert steps == {"one.pdf": "one-sided", "land.pdf": "two-sided, flip on the short edge",
                     "port.pdf": "two-sided, flip on the long edge"}


def test_page_labels_follow_a_contents_that_runs_over_a_page(tmp_path):
    """The contact sheet titles each page; a two-page contents must not shift them by one."""
    from sheets.kit.assemble import Part, PrintHow, _number, page_labels

    how = PrintHow()
    parts = [Part(tmp_path / f"{n}.pdf", f"Game: {n}", "g", "Game", "doc", how, pages, "a4")
             for n, pages in (("Reference", 3), ("Tokens", 2))]
    _number(parts, 2)
    labels = page_labels(parts)
    assert labels == ["Contents", "Contents"] + ["Game: Reference"] * 3 + ["Game: Tokens"] * 2
    assert labels[parts[1].first_page - 1] == "Game: Tokens"


def _char_boxes(page, least_pt: float = 0) -> list[tuple[float, float, float, float]]:
    """Every printed character's box on a PyMuPDF page (of spans of `least_pt` or more), in mm from
    the bottom left (as `segments`)."""
    height = page.rect.height
    return [(c["bbox"][0] / MM, (height - c["bbox"][3]) / MM, c["bbox"][2] / MM, (height - c["bbox"][1]) / MM)
            for block in page.get_text("rawdict")["blocks"] for line in block.get("lines", [])
            for span in line["spans"] if span["size"] >= least_pt for c in span["chars"] if c["c"].strip()]


def _crosses(seg, box, pad: float = 0.3) -> bool:
    """Whether an upright or level segment runs through a box (grown by `pad` mm)."""
    x1, y1, x2, y2 = seg
    bx0, by0, bx1, by1 = box[0] - pad, box[1] - pad, box[2] + pad, box[3] + pad
    if abs(x1 - x2) < 0.01:
        return bx0 <= x1 <= bx1 and min(y1, y2) <= by1 and max(y1, y2) >= by0
    return by0 <= y1 <= by1 and min(x1, x2) <= bx1 and max(x1, x2) >= bx0


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("duplex", ["long", "short"])
def test_calibration_scales_read_to_half_a_millimetre_with_no_label_over_another(cli, tmp_path, paper, duplex):
    """Issue 47 item 7: a tick every 0.5 mm on both scales, no two characters over each other, and
    the front's lines cross no text, of the front or (seen through the sheet) of the back."""
    import pymupdf

    from sheets.kinds.calibration import SCALE_MM, behind

    result = cli("cards", "calibrate", "--paper", paper, "--duplex", duplex, "-o", tmp_path / "cal.pdf")
    assert result.exit_code == 0, result
    reader = pypdf.PdfReader(str(tmp_path / "cal.pdf"))
    w, h = (float(v) / MM for v in (reader.pages[0].mediabox.width, reader.pages[0].mediabox.height))
    back = segments(reader, 1)
    for upright in (True, False):
        ticks = sorted(s[0] if upright else s[1] for s in back
                       if (abs(s[0] - s[2]) < 0.01) == upright and max(abs(s[2] - s[0]), abs(s[3] - s[1])) < 10)
        steps = {round(b - a, 2) for a, b in zip(ticks, ticks[1:])}
        assert len(ticks) == 4 * SCALE_MM + 1 and steps == {0.5}, (upright, steps)
    with pymupdf.open(tmp_path / "cal.pdf") as doc:
        front_chars, back_chars = _char_boxes(doc[0]), _char_boxes(doc[1])
        words = _char_boxes(doc[0], 8), _char_boxes(doc[1], 8)  # the instructions and headings, not the scales' digits
    for chars in (front_chars, back_chars):
        shrunk = [(x0 + 0.05, y0 + 0.05, x1 - 0.05, y1 - 0.05) for x0, y0, x1, y1 in chars]
        over = [(a, b) for i, a in enumerate(shrunk) for b in shrunk[i + 1:]
                if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]]
        assert over == []
    seen_through = []
    for x0, y0, x1, y1 in words[1]:  # a back character where it lies behind the front
        (ax, ay), (bx, by) = behind(x0, y0, w, h, duplex), behind(x1, y1, w, h, duplex)
        seen_through.append((min(ax, bx), min(ay, by), max(ax, bx), max(ay, by)))
    lines = [s for s in segments(reader, 0) if max(abs(s[2] - s[0]), abs(s[3] - s[1])) > 100]
    assert len(lines) == 2
    assert [(s, c) for s in lines for c in words[0] + seen_through if _crosses(s, c)] == []


def test_a_game_s_own_sheet_names_its_game_once_at_its_top(whole_kit, library):
    """The header band names the game above every page of a game's own sheets (a playbook, a
    roster, a log sheet, a campaign record: the kinds a plug-in adds), so the page's own head does
    not say it again ("THE REGIMENT" beside MEDIC, "THE WAY OF THE WARRIOR · LOG SHEET" under the
    band). Read back from the kit's files: every text span in a page's top 45 mm."""
    from sheets.kinds import registry

    generic = {kind.name for kind in registry.GENERIC}
    manifest = json.loads((whole_kit.folder / "manifest.json").read_text(encoding="utf-8"))
    own = [f for f in manifest["files"] if f["game"] and f["kind"] not in generic]
    assert own, "the kit holds no sheet of a game's own"
    for part in own:
        band = library.game(part["game"]).content["theme"].band
        for number, spans in _top_spans(whole_kit.folder / part["path"]):
            named = [text for text, _ in spans if band.casefold() in text.casefold()]
            assert len(named) == 1, (part["path"], number, named)  # the band's, and no other


def _top_spans(path, depth_mm: float = 45):
    """(page number, [(text, size)]) for every page of a PDF: its text spans in the top `depth_mm`."""
    import pymupdf

    with pymupdf.open(path) as doc:
        for number, page in enumerate(doc, 1):
            yield number, [(span["text"].strip(), span["size"]) for block in page.get_text("dict")["blocks"]
                           for line in block.get("lines", []) for span in line["spans"]
                           if span["bbox"][1] < depth_mm * MM and span["text"].strip()]


def test_a_heading_under_the_band_does_not_name_the_game_again(whole_kit, library):
    """Every sheet with a header band (the shared kinds too: a reference, the gauges, the trackers):
    no heading beneath it, set larger than the band, says the game's name again ("Down Range" over
    "Down Range — Quick Reference", "The Regiment" over "The Regiment: Moves"). The text may name
    the game ("Dice in Down Range come in four types"); a heading need not."""
    manifest = json.loads((whole_kit.folder / "manifest.json").read_text(encoding="utf-8"))
    banded = 0
    for part in (f for f in manifest["files"] if f["game"]):
        band = library.game(part["game"]).content["theme"].band
        for number, spans in _top_spans(whole_kit.folder / part["path"]):
            sizes = [size for text, size in spans if text.casefold() == band.casefold()]
            if not sizes:
                continue  # a card sheet or a token sheet: no band (the cards carry their own)
            banded += 1
            again = [text for text, size in spans if size > max(sizes) + 0.5 and band.casefold() in text.casefold()]
            assert again == [], (part["path"], number, again)
    assert banded, "no page of the kit has a header band"

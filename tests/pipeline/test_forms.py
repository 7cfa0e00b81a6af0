"""Fillable sheets keep what the player typed in every reader; every font of every PDF is
embedded, and no subset tag names two different subsets (issue 29, items 1 and 2).

A fillable playbook is filled as a player's tools fill it (pypdf, PyMuPDF), then rendered
by three independent readers (PDFium, poppler's pdftoppm, MuPDF): the name and the tick
must be ink inside their fields, an unticked box must stay empty. A renderer or filler
that is not installed skips its case, unless CI=true (then it fails: CI must run them all).
"""
from __future__ import annotations

import hashlib
import io
import os
import re
import shutil
import subprocess
from collections import defaultdict
from pathlib import Path

import pikepdf
import pypdf
import pytest
from PIL import Image

from sheets.base.dice import Dice
from sheets.pipeline.build import build_one

VALUE = "Żółć Jqxz ß Ω 0123"
NAME, TICK, UNTICKED = "c0.name", "c0.rank.Cpl", "c0.rank.Pfc"
DPI = 100
CI = os.environ.get("CI", "").lower() == "true"


def need(available: bool, what: str) -> None:
    if not available:
        if CI:
            pytest.fail(f"{what} is missing; CI runs every filler and renderer")
        pytest.skip(f"{what} is not installed")


def pymupdf_module():
    try:
        import pymupdf  # noqa: PLC0415
    except ImportError:
        need(False, "PyMuPDF (pip install pymupdf)")
    return pymupdf


@pytest.fixture(scope="module")
def fillable(tmp_path_factory, regiment) -> Path:
    """A blank fillable Soldier playbook, as `sheets playbook soldier --fillable` writes it."""
    from sheets.games.regiment.sheets import blank_playbook

    target = tmp_path_factory.mktemp("forms") / "soldier-fillable.pdf"
    return build_one(blank_playbook(regiment, regiment.data.playbook("soldier"), fillable=True), target)


@pytest.fixture(scope="module")
def filled_fillable(tmp_path_factory, regiment) -> Path:
    """A random soldier's fillable playbook: the form carries his values."""
    from sheets.games.regiment.sheets import filled_playbooks, roll_squad

    target = tmp_path_factory.mktemp("forms") / "filled-fillable.pdf"
    squad = roll_squad(regiment, Dice.seeded(3), 1, regiment.data.playbook("sniper"))
    return build_one(filled_playbooks(regiment, squad, target.name, fillable=True), target)


@pytest.fixture(scope="module")
def filled(tmp_path_factory, regiment) -> Path:
    """Two random soldiers stamped onto their blanks (the flat, printed playbook)."""
    from sheets.games.regiment.sheets import filled_playbooks, roll_squad

    target = tmp_path_factory.mktemp("forms") / "filled.pdf"
    return build_one(filled_playbooks(regiment, roll_squad(regiment, Dice.seeded(5), 2), target.name), target)


def terminal_fields(pdf: pypdf.PdfReader) -> list[tuple[str, dict]]:
    """(fully qualified name, field) of every field that holds a value (the tree's leaves)."""
    found = []

    def walk(node, prefix: str) -> None:
        node = node.get_object()
        name = f"{prefix}.{node['/T']}" if prefix else str(node["/T"])
        kids = node.get("/Kids")
        if kids:
            for kid in kids:
                walk(kid, name)
        else:
            found.append((name, node))

    for root in pdf.root_object["/AcroForm"]["/Fields"]:
        walk(root, "")
    return found


# -- the form itself ---------------------------------------------------------------------------
def test_every_field_has_an_appearance_a_font_in_dr_and_a_partial_name_without_periods(fillable):
    pdf = pypdf.PdfReader(str(fillable))
    form = pdf.root_object["/AcroForm"]
    dr_fonts = form["/DR"]["/Font"]
    assert "/NeedAppearances" not in form or not form["/NeedAppearances"]
    fields = terminal_fields(pdf)
    assert len(fields) > 60 and {NAME, TICK, UNTICKED} <= {n for n, _ in fields}
    for name, field in fields:
        assert "." not in str(field["/T"]), name
        assert "/N" in field["/AP"], name
        da = str(field.get("/DA", form.get("/DA", "")))
        font = re.search(r"/(\S+)\s+[\d.]+\s+Tf", da)
        assert font and f"/{font.group(1)}" in dr_fonts, (name, da)
        assert not re.search(r"\bgs\b", da), (name, da)  # a DA holds colour and font only
        tooltip = str(field["/TU"])
        assert tooltip not in (str(field["/T"]), name), name
        if field["/FT"] == "/Btn":
            states = set(field["/AP"]["/N"])
            assert "/Off" in states and len(states) == 2, (name, states)
            assert field["/MK"]["/CA"], name
        else:
            assert field["/FT"] == "/Tx", name
    tips = dict((n, str(f["/TU"])) for n, f in fields)
    assert tips[NAME] == "Name" and tips["c0.rank.Pfc"] == "Rank: Pfc"
    for page in pdf.pages:
        if "/Annots" in page:
            assert page["/Tabs"] == "/S"
    # the tab order (the widgets' order) is the page's: down the first column, then on
    order = {a.idnum: i for i, a in enumerate(pdf.pages[0]["/Annots"])}
    full = dict(fields)
    column = ["c0.name", "c0.rank.text", "c0.rank.Pfc", "c0.profile", "c0.background", "c0.deployment",
              "c0.statset.1", "c0.stat.battle", "c0.squad"]
    positions = [order[full[n].indirect_reference.idnum] for n in column]
    assert positions == sorted(positions), dict(zip(column, positions))


def test_a_parent_holds_no_value_and_every_name_is_unique(fillable):
    pdf = pypdf.PdfReader(str(fillable))

    def walk(node) -> None:
        node = node.get_object()
        if "/Kids" in node:
            assert "/FT" not in node and "/V" not in node, node["/T"]
            for kid in node["/Kids"]:
                walk(kid)

    for root in pdf.root_object["/AcroForm"]["/Fields"]:
        walk(root)
    names = [n for n, _ in terminal_fields(pdf)]
    assert len(names) == len(set(names))
    assert "c0.rank.text" in names and "c0.rank.Pfc" in names  # `rank` is a group, its text a kid


def test_fields_carry_their_values_in_their_appearance(filled_fillable):
    pymupdf = pymupdf_module()
    doc = pymupdf.open(str(filled_fillable))
    rect = next(w.rect for w in doc[0].widgets() if w.field_name == NAME)
    value = next(w.field_value for w in doc[0].widgets() if w.field_name == NAME)
    assert value
    doc.bake()  # appearances into the page: the text drawn is the text extracted
    assert doc[0].get_text("text", clip=rect + (-2, -2, 2, 2)).strip() == value


# -- filled by a player's tools, shown by every reader -----------------------------------------
def fill_with_pypdf(src: Path, dst: Path) -> None:
    writer = pypdf.PdfWriter(clone_from=str(src))
    on = next(s for s in terminal_dict(writer)[TICK]["/AP"]["/N"] if s != "/Off")
    writer.update_page_form_field_values(writer.pages[0], {NAME: VALUE, TICK: on}, auto_regenerate=False)
    writer.write(str(dst))


def terminal_dict(writer: pypdf.PdfWriter) -> dict:
    return dict(terminal_fields(writer))


def fill_with_pymupdf(src: Path, dst: Path) -> None:
    pymupdf = pymupdf_module()
    doc = pymupdf.open(str(src))
    for widget in doc[0].widgets():
        if widget.field_name == NAME:
            widget.field_value = VALUE
            widget.update()
        elif widget.field_name == TICK:
            widget.field_value = widget.on_state()
            widget.update()
    doc.save(str(dst))


def render_pdfium(path: Path) -> Image.Image:
    import pypdfium2 as pdfium  # noqa: PLC0415

    doc = pdfium.PdfDocument(str(path))
    doc.init_forms()  # draw the form fields as a viewer does
    return doc[0].render(scale=DPI / 72, may_draw_forms=True).to_pil().convert("L")


def render_poppler(path: Path) -> Image.Image:
    need(shutil.which("pdftoppm") is not None, "poppler's pdftoppm (apt-get install poppler-utils)")
    png = subprocess.run(["pdftoppm", "-r", str(DPI), "-f", "1", "-l", "1", "-gray", "-png", str(path)],
                         capture_output=True, check=True, timeout=120).stdout
    return Image.open(io.BytesIO(png)).convert("L")


def render_mupdf(path: Path) -> Image.Image:
    pymupdf = pymupdf_module()
    pix = pymupdf.open(str(path))[0].get_pixmap(dpi=DPI, colorspace=pymupdf.csGRAY)
    return Image.frombytes("L", (pix.width, pix.height), pix.samples)


def ink(image: Image.Image, rect, page_height: float) -> tuple[int, int]:
    """Dark pixels inside a field's rectangle (PDF points, bottom-up), 1 px in from its edge,
    and how many columns hold any."""
    x0, y0, x1, y1 = (float(v) for v in rect)
    left, right = min(x0, x1) * DPI / 72, max(x0, x1) * DPI / 72
    top, bottom = (page_height - max(y0, y1)) * DPI / 72, (page_height - min(y0, y1)) * DPI / 72
    crop = image.crop((int(left) + 1, int(top) + 1, int(right) - 1, int(bottom) - 1))
    width, height = crop.size
    pixels = crop.load()
    dark = [(x, y) for x in range(width) for y in range(height) if pixels[x, y] < 128]
    return len(dark), len({x for x, _ in dark})


@pytest.mark.parametrize("renderer", [render_pdfium, render_poppler, render_mupdf], ids=["pdfium", "poppler", "mupdf"])
@pytest.mark.parametrize("filler", [fill_with_pypdf, fill_with_pymupdf], ids=["pypdf", "pymupdf"])
def test_what_the_player_typed_shows_in_every_reader(fillable, tmp_path, filler, renderer):
    filled = tmp_path / "filled.pdf"
    filler(fillable, filled)
    image = renderer(filled)
    pdf = pypdf.PdfReader(str(filled))
    fields = dict(terminal_fields(pdf))
    height = float(pdf.pages[0].mediabox.height)
    dots, columns = ink(image, fields[NAME]["/Rect"], height)
    name_width = abs(float(fields[NAME]["/Rect"][2]) - float(fields[NAME]["/Rect"][0])) * DPI / 72
    # 18 characters at the field's size: ink in well over a tenth of the field's columns
    assert dots > 60 and columns > name_width / 10, (dots, columns)
    ticked, _ = ink(image, fields[TICK]["/Rect"], height)
    assert ticked > 4, ticked
    assert ink(image, fields[UNTICKED]["/Rect"], height)[0] == 0


def test_the_typed_value_is_kept_whole(fillable, tmp_path):
    """Every character of the value is in the appearance the filler wrote (none dropped by
    a font that lacks it), for both fillers: the appearances, baked into the page, read back."""
    pymupdf = pymupdf_module()
    for filler in (fill_with_pypdf, fill_with_pymupdf):
        filled = tmp_path / f"{filler.__name__}.pdf"
        filler(fillable, filled)
        doc = pymupdf.open(str(filled))
        rect = next(w.rect for w in doc[0].widgets() if w.field_name == NAME)
        doc.bake()
        assert doc[0].get_text("text", clip=rect + (-2, -2, 2, 2)).strip() == VALUE, filler.__name__


# -- fonts: every one embedded, every subset tag its own ----------------------------------------
def fonts_of(path: Path) -> list[tuple[str, bytes | None]]:
    """(BaseFont, font program or None) of every font dictionary in the file."""
    found = []
    with pikepdf.open(path) as pdf:
        for obj in pdf.objects:
            if not isinstance(obj, pikepdf.Dictionary) or obj.get("/Type") != "/Font":
                continue
            if obj.get("/Subtype") in ("/CIDFontType0", "/CIDFontType2", "/Type3"):
                continue  # a Type0 font's descendant is read with it; a Type3 font draws its glyphs
            descriptor = obj.get("/FontDescriptor")
            if descriptor is None and "/DescendantFonts" in obj:
                descriptor = obj.DescendantFonts[0].get("/FontDescriptor")
            program = None
            if descriptor is not None:
                for key in ("/FontFile", "/FontFile2", "/FontFile3"):
                    if key in descriptor:
                        program = descriptor[key].read_bytes()
            found.append((str(obj.get("/BaseFont", "")), program))
    return found


def check_fonts(paths: list[Path]) -> None:
    programs: dict[str, set[str]] = defaultdict(set)
    for path in paths:
        fonts = fonts_of(path)
        assert fonts, path
        for name, program in fonts:
            assert program is not None, f"{path.name}: {name} is not embedded"
            tag = re.match(r"/?([A-Z]{6})\+", name)
            assert tag, f"{path.name}: {name} has no subset tag"
            programs[tag.group(1)].add(hashlib.sha256(program).hexdigest())
    shared = {tag: len(p) for tag, p in programs.items() if len(p) > 1}
    assert not shared, f"tags shared by different subsets: {shared}"


def test_every_font_of_the_kit_is_embedded_and_no_tag_names_two_subsets(whole_kit):
    check_fonts([whole_kit.folder / "kit.pdf"])


def test_every_font_of_playbooks_is_embedded_and_no_tag_names_two_subsets(filled, fillable, filled_fillable):
    check_fonts([filled, fillable, filled_fillable])


def test_the_calibration_sheet_embeds_its_fonts(tmp_path):
    from sheets.kinds.calibration import calibration_pdf

    path = tmp_path / "calibrate.pdf"
    path.write_bytes(calibration_pdf("a4", "long", (1.0, -0.5)))
    check_fonts([path])
    assert calibration_pdf("a4", "long", (1.0, -0.5)) == path.read_bytes()


def test_stamped_and_fillable_playbooks_are_the_same_bytes_every_time(filled, fillable, regiment, tmp_path):
    from sheets.games.regiment.sheets import blank_playbook, filled_playbooks, roll_squad

    again = build_one(filled_playbooks(regiment, roll_squad(regiment, Dice.seeded(5), 2), "x.pdf"), tmp_path / "a.pdf")
    assert again.read_bytes() == filled.read_bytes()
    form = build_one(blank_playbook(regiment, regiment.data.playbook("soldier"), fillable=True), tmp_path / "b.pdf")
    assert form.read_bytes() == fillable.read_bytes()

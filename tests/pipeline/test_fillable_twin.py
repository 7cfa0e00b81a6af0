"""A fillable playbook is the printed playbook, with fields (issue 34, item 1).

Every playbook, blank and filled from a bundled character, on A4 and Letter: the fillable
file has the printed file's page count, and rendered at 100 dpi (PDFium and poppler) each
of its pages matches the printed page outside its fields' own rectangles, and, filled, outside
the marks that show a choice (a chosen word's underline, a chosen stat set's shade): in the
fillable those are its fields' values (issue 48, item 3), not printed. No checkbox of a blank
form is on, no shaded (pre-marked) box is a field, and NOTES is one multiline field of its
printed box's size."""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pypdf
import pypdfium2 as pdfium
import pytest
from PIL import Image

from sheets.base.dice import Dice
from sheets.games.regiment.characters import resolve_character, roll_character
from sheets.games.regiment.sheets import blank_playbook, filled_playbooks
from sheets.library.yaml_source import load_yaml
from sheets.pipeline.build import build_one
from sheets.pipeline.sheet import render_html
from sheets.pipeline.stamp.fields import fields_of

DPI = 100
PX = DPI / 72
CHARACTERS = Path(__file__).resolve().parents[2] / "content" / "regiment" / "characters"
TOLERANCE = 48  # grey levels: antialiasing at a field's edge, never a moved line or word
PAPERS = ["a4", "letter"]


def _pdfium(path: Path) -> list[np.ndarray]:
    doc = pdfium.PdfDocument(str(path))
    return [np.asarray(doc[i].render(scale=PX).to_pil().convert("L"), dtype=np.int16) for i in range(len(doc))]


def _poppler(path: Path, tmp: Path) -> list[np.ndarray]:
    prefix = tmp / path.stem
    subprocess.run(["pdftoppm", "-r", str(DPI), "-gray", "-png", str(path), str(prefix)], check=True,
                   capture_output=True)
    return [np.asarray(Image.open(p).convert("L"), dtype=np.int16) for p in sorted(tmp.glob(f"{path.stem}-*.png"))]


def _masks(path: Path, shape_of, marks: dict[int, list] | None = None) -> list[np.ndarray]:
    """Per page: True inside a widget's rectangle (1 px around it for antialiasing), and inside
    each of `marks` (page -> [x, y, w, h] from the page's top, pt; 2 px around)."""
    masks = []
    for i, page in enumerate(pypdf.PdfReader(str(path)).pages):
        h, w = shape_of(i)
        top = float(page.mediabox.top)
        mask = np.zeros((h, w), dtype=bool)
        for annot in page.get("/Annots", []) or []:
            x0, y0, x1, y1 = (float(v) for v in annot.get_object()["/Rect"])
            c0, c1 = int(min(x0, x1) * PX) - 1, int(max(x0, x1) * PX + 0.999) + 1
            r0, r1 = int((top - max(y0, y1)) * PX) - 1, int((top - min(y0, y1)) * PX + 0.999) + 1
            mask[max(r0, 0):r1, max(c0, 0):c1] = True
        for x, y, mw, mh in (marks or {}).get(i, []):
            mask[max(int(y * PX) - 2, 0):int((y + mh) * PX + 0.999) + 2, max(int(x * PX) - 2, 0):int((x + mw) * PX + 0.999) + 2] = True
        masks.append(mask)
    return masks


def _chosen_marks(blank, filled) -> dict[int, list]:
    """Page -> the boxes (pt, from the top) of the marks the filled part shows and its blank
    does not: the printed sheet's chosen words and stat set, read from the blank's layout."""
    from sheets.pipeline.stamp.layout import render_base

    before, after = fields_of(render_html(blank)).values, fields_of(render_html(filled)).values
    layout = render_base(render_html(blank))[1]
    found: dict[int, list] = {}
    for name, value in after.items():
        if value.mark and "marked" in value.classes and "marked" not in before[name].classes:
            spec = layout["fields"][name]
            found.setdefault(spec["page"], []).append(spec["border"])
    return found


def _compare(printed: Path, fillable: Path, tmp: Path, marks: dict[int, list] | None = None) -> None:
    assert len(pypdf.PdfReader(str(fillable)).pages) == len(pypdf.PdfReader(str(printed)).pages)
    renders = [("pdfium", _pdfium(printed), _pdfium(fillable))]
    if shutil.which("pdftoppm"):
        renders.append(("poppler", _poppler(printed, tmp / "a"), _poppler(fillable, tmp / "b")))
    for reader, before, after in renders:
        masks = _masks(fillable, lambda i: after[i].shape, marks)  # noqa: B023
        for n, (a, b, mask) in enumerate(zip(before, after, masks)):
            assert a.shape == b.shape, (reader, n)
            diff = np.abs(a - b)
            diff[mask] = 0
            bad = np.argwhere(diff > TOLERANCE)
            assert not len(bad), (f"{reader} page {n + 1}: {len(bad)} px differ outside the fields, first at "
                                  f"(x, y) = {tuple(bad[0][::-1])} px: {fillable.name}")


def _widgets(path: Path) -> list[dict]:
    return [a.get_object() for p in pypdf.PdfReader(str(path)).pages for a in p.get("/Annots", []) or []]


@pytest.fixture(scope="module")
def characters(regiment):
    """A bundled character for each playbook that has one, a rolled one (seed 3) for the others."""
    found = {}
    for path in sorted(CHARACTERS.glob("*.yaml")):
        ch = resolve_character(load_yaml(path), regiment.data)
        found.setdefault(ch.playbook.id, ch)
    for pb in regiment.data.playbooks.values():
        if pb.id not in found:
            found[pb.id] = roll_character(regiment.data, pb, Dice.seeded(3))
    return found


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("playbook", ["soldier", "medic", "sniper", "operator"])
def test_a_blank_fillable_playbook_is_its_printed_twin_with_fields(regiment, playbook, paper, tmp_path):
    pb = regiment.data.playbook(playbook)
    printed = build_one(blank_playbook(regiment, pb, paper), tmp_path / "printed.pdf")
    fillable = build_one(blank_playbook(regiment, pb, paper, fillable=True), tmp_path / "fillable.pdf")
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    _compare(printed, fillable, tmp_path)
    widgets = _widgets(fillable)
    boxes = [w for w in widgets if w.get("/FT") == "/Btn" or w.get("/Parent", {}).get("/FT") == "/Btn"]
    assert boxes and not [w for w in boxes if w.get("/AS") == "/Yes" or w.get("/V") == "/Yes"]
    names = set(pypdf.PdfReader(str(fillable)).get_fields())
    for track in pb.tracks:  # a shaded threshold box is printed shading, never a field
        for i in track.premarked:
            assert f"c0.{track.id}.{i}" not in names
    for i in pb.experience.premarked:
        assert f"c0.xp.{i}" not in names
    notes = pypdf.PdfReader(str(fillable)).get_fields()["c0.notes"]
    assert int(notes.get("/Ff", 0)) & 4096  # multiline
    rect = next(w["/Rect"] for w in widgets if w.get("/T") == "notes")
    assert abs(float(rect[3]) - float(rect[1])) > 30 * 72 / 25.4  # the NOTES box's height (38 mm on Letter), not one line


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("who", ["soldier", "medic", "sniper", "operator"])
def test_a_filled_fillable_playbook_is_its_printed_twin_with_the_values_in_its_fields(
        regiment, characters, who, paper, tmp_path):
    ch = characters[who]
    sheet = filled_playbooks(regiment, [ch], "printed.pdf", paper)
    printed = build_one(sheet, tmp_path / "printed.pdf")
    fillable = build_one(filled_playbooks(regiment, [ch], "fillable.pdf", paper, fillable=True),
                         tmp_path / "fillable.pdf")
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    blank, filled = sheet.parts[0]
    marks = _chosen_marks(blank, filled)
    assert marks or ch.stat_set is None  # a chosen stat set is a shaded column on the printed sheet
    _compare(printed, fillable, tmp_path, marks)
    fields = pypdf.PdfReader(str(fillable)).get_fields()
    assert fields["c0.name"].get("/V") == ch.name
    # the choices: the radio fields' values, the rank's and the stat set's
    assert fields["c0.rank.choice"].get("/V") == "/" + re.sub(r"[^A-Za-z0-9]", "", ch.rank.abbr)
    if ch.stat_set is not None:
        assert fields["c0.statset"].get("/V") == f"/{ch.stat_set}"
    ticked = {n for n, f in fields.items() if f.get("/V") == "/Yes"}
    # exactly the boxes the printed sheet ticks for this character (the own move is printed on
    # every blank), but those of a choice: radio buttons, read above
    before, after = fields_of(render_html(blank)).values, fields_of(render_html(filled)).values
    assert ticked == {n for n, v in after.items() if v.kind == "box" and v.state == "marked" and not before[n].state
                      and not v.radio}


def test_a_filled_fillables_choices_are_its_fields_not_its_page(regiment, characters, tmp_path):
    """The chosen stat set's shade and the chosen words' underline are not in a filled fillable's
    page (its content, drawn without its fields, is the blank's where they are printed); the
    choice is the radio field's, so that choosing another set moves what shows."""
    ch = characters["soldier"]
    assert ch.stat_set is not None
    sheet = filled_playbooks(regiment, [ch], "printed.pdf")
    blank_pdf = build_one(blank_playbook(regiment, ch.playbook), tmp_path / "blank.pdf")
    fillable = build_one(filled_playbooks(regiment, [ch], "fillable.pdf", fillable=True), tmp_path / "fillable.pdf")
    marks = _chosen_marks(*sheet.parts[0])
    kinds = {v.mark for n, v in fields_of(render_html(sheet.parts[0][1])).values.items() if v.mark and "marked" in v.classes}
    assert kinds == {"underline", "shade"}, kinds

    def content(path: Path) -> np.ndarray:  # the page alone, no annotation drawn
        return np.asarray(pdfium.PdfDocument(str(path))[0].render(scale=PX, draw_annots=False).to_pil().convert("L"),
                          dtype=np.int16)

    page, empty = content(fillable), content(blank_pdf)
    for x, y, w, h in marks[0]:
        box = np.s_[int(y * PX):int((y + h) * PX) + 1, int(x * PX):int((x + w) * PX) + 1]
        diff = np.abs(page[box] - empty[box])
        # no line (the underline) and no tint (the shade: a light grey over the whole cell)
        assert diff.max() <= TOLERANCE and diff.mean() < 3, (x, y, w, h, diff.max(), diff.mean())
    # another set chosen (pypdf): its box ticked, the first one's not, in PDFium's drawing
    other = next(i for i in range(1, len(ch.playbook.stats.stat_sets) + 1) if i != ch.stat_set)
    writer = pypdf.PdfWriter(clone_from=str(fillable))
    writer.update_page_form_field_values(writer.pages[0], {"c0.statset": f"/{other}"}, auto_regenerate=False)
    edited = tmp_path / "edited.pdf"
    writer.write(str(edited))
    doc = pdfium.PdfDocument(str(edited))
    doc.init_forms()
    image = np.asarray(doc[0].render(scale=PX, may_draw_forms=True).to_pil().convert("L"), dtype=np.int16)
    top = float(pypdf.PdfReader(str(edited)).pages[0].mediabox.top)
    boxes = {}
    for annot in pypdf.PdfReader(str(edited)).pages[0]["/Annots"]:
        annot = annot.get_object()
        if annot.get("/Parent", {}).get("/T") == "statset":
            state = next(str(k)[1:] for k in annot["/AP"]["/N"] if k != "/Off")
            x0, y0, x1, y1 = (float(v) for v in annot["/Rect"])
            x0, x1, y0, y1 = min(x0, x1), max(x0, x1), min(y0, y1), max(y0, y1)
            boxes[state] = image[int((top - y1) * PX) + 2:int((top - y0) * PX) - 1, int(x0 * PX) + 2:int(x1 * PX) - 1]
    assert (boxes[str(other)] < 128).sum() > 3 and (boxes[str(ch.stat_set)] < 128).sum() == 0, boxes.keys()

"""A fillable playbook is the printed playbook, with fields (issue 34, item 1).

Every playbook, blank and filled from a bundled character, on A4 and Letter: the fillable
file has the printed file's page count, and rendered at 100 dpi (PDFium and poppler) each
of its pages matches the printed page outside its fields' own rectangles. No checkbox of a
blank form is on, no shaded (pre-marked) box is a field, and NOTES is one multiline field
of its printed box's size."""
from __future__ import annotations

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


def _masks(path: Path, shape_of) -> list[np.ndarray]:
    """Per page: True inside a widget's rectangle (1 px around it for antialiasing)."""
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
        masks.append(mask)
    return masks


def _compare(printed: Path, fillable: Path, tmp: Path) -> None:
    assert len(pypdf.PdfReader(str(fillable)).pages) == len(pypdf.PdfReader(str(printed)).pages)
    renders = [("pdfium", _pdfium(printed), _pdfium(fillable))]
    if shutil.which("pdftoppm"):
        renders.append(("poppler", _poppler(printed, tmp / "a"), _poppler(fillable, tmp / "b")))
    for reader, before, after in renders:
        masks = _masks(fillable, lambda i: after[i].shape)  # noqa: B023
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
    _compare(printed, fillable, tmp_path)
    fields = pypdf.PdfReader(str(fillable)).get_fields()
    assert fields["c0.name"].get("/V") == ch.name
    ticked = {n for n, f in fields.items() if f.get("/V") == "/Yes"}
    assert f"c0.rank.{ch.rank.abbr}" in ticked
    assert ch.stat_set is None or f"c0.statset.{ch.stat_set}" in ticked
    # exactly the boxes the printed sheet ticks for this character (the own move is printed on every blank)
    blank, filled = sheet.parts[0]
    before, after = fields_of(render_html(blank)).values, fields_of(render_html(filled)).values
    assert ticked == {n for n, v in after.items() if v.kind == "box" and v.state == "marked" and not before[n].state}

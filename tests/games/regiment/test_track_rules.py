"""The Regiment's tracks carry their rules (issue 48): the recovery line drawn, the box whose mark
makes a soldier critical tagged, the grey boxes explained, the conditions as tick boxes; read back
from the PDF (PyMuPDF) for every playbook the library has, on A4 and Letter."""
from __future__ import annotations

import pymupdf
import pytest

MM = 72 / 25.4
GREY = 0.3  # a box filled lighter than this is ink (a border), darker is the grey pre-marked fill


@pytest.fixture(scope="module")
def blanks(regiment, tmp_path_factory):
    """Every playbook of the library, blank, on A4 and on Letter: {(id, paper): path}."""
    from typer.testing import CliRunner

    from sheets.cli import app

    folder = tmp_path_factory.mktemp("track-rules")
    out = {}
    for pb in regiment.data.playbooks.values():
        for paper in ("a4", "letter"):
            target = folder / f"{pb.id}-{paper}.pdf"
            result = CliRunner().invoke(app, ["playbook", pb.id, "--paper", paper, "-o", str(target)])
            assert result.exit_code == 0, result.output
            out[pb.id, paper] = target
    return out


def squares(page, y0: float, y1: float, x0: float = 0, x1: float = 1e9) -> list[tuple[pymupdf.Rect, bool]]:
    """The square boxes drawn between y0 and y1 (and x0, x1), left to right: (rect, grey)."""
    found: dict[tuple, bool] = {}
    for d in page.get_drawings():
        r = d["rect"]
        if not (y0 <= r.y0 and r.y1 <= y1 and x0 <= r.x0 and r.x1 <= x1):
            continue
        if abs(r.width - r.height) < 0.8 and r.width > 6:
            key = tuple(round(v) for v in r)
            grey = d.get("fill") is not None and d["fill"][0] > GREY and len(d["items"]) == 1
            found[key] = found.get(key, False) or grey
    return [(pymupdf.Rect(k), g) for k, g in sorted(found.items())]


def bars(page, y0: float, y1: float) -> list[pymupdf.Rect]:
    """Thin vertical rules drawn between y0 and y1."""
    return [d["rect"] for d in page.get_drawings()
            if d["rect"].width < 3 and d["rect"].height > 4 * MM and y0 <= d["rect"].y0 and d["rect"].y1 <= y1]


def word(page, text: str, after: float = 0) -> pymupdf.Rect:
    hits = [pymupdf.Rect(w[:4]) for w in page.get_text("words") if w[4] == text and w[1] >= after]
    assert hits, f"no {text!r} on the page"
    return hits[0]


def track_row(page, label: str, end_label: str) -> tuple[pymupdf.Rect, pymupdf.Rect, list[tuple[pymupdf.Rect, bool]]]:
    """A track's label, its end label and the boxes drawn between them."""
    left = word(page, label)
    right = next(pymupdf.Rect(w[:4]) for w in page.get_text("words")
                 if w[4] == end_label and abs(w[1] - left.y0) < 3 * MM)
    return left, right, squares(page, left.y0 - 3 * MM, left.y1 + 3 * MM, left.x1, right.x0)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_track_has_its_line_its_critical_box_and_its_grey_boxes(blanks, regiment, paper):
    from sheets.games.regiment.improvements import CRITICAL_AT, markable, track_marks

    for pb in regiment.data.playbooks.values():
        page = pymupdf.open(blanks[pb.id, paper])[0]
        ruled = 0
        for t in pb.tracks:
            left, right, boxes = track_row(page, t.label, t.end_label)
            assert len(boxes) == t.boxes, (pb.id, t.id, boxes)
            assert [i + 1 for i, (_, grey) in enumerate(boxes) if grey] == t.premarked, (pb.id, t.id)
            assert all(r.width >= 4 * MM - 0.2 for r, _ in boxes), (pb.id, t.id, "track boxes under 4 mm")
            marks = track_marks(pb, t.id)
            rules = bars(page, left.y0 - 4 * MM, left.y1 + 4 * MM)
            rules = [b for b in rules if boxes[0][0].x0 < b.x0 < boxes[-1][0].x1]
            if t.id not in CRITICAL_AT:
                assert marks is None and not rules, (pb.id, t.id)
                continue
            ruled += 1
            assert marks is not None
            # the Nth mark of the track (past the grey boxes, left to right) is the critical one
            assert [i + 1 for i, (_, grey) in enumerate(boxes) if not grey][CRITICAL_AT[t.id] - 1] == marks.critical
            assert markable(pb, t.id) >= CRITICAL_AT[t.id]
            # one rule, between the last box recovering may clear and the critical box, as tall as a box
            assert len(rules) == 1, (pb.id, t.id, rules)
            before, crit = boxes[marks.line_after - 1][0], boxes[marks.critical - 1][0]
            assert before.x1 <= rules[0].x0 and rules[0].x1 <= crit.x0, (pb.id, t.id)
            assert rules[0].height >= crit.height
            # the CRIT tag stands over the critical box, not over its neighbours
            tag = word(page, regiment.data.lists.sheet_fields.critical_tag, left.y0 - 5 * MM)
            assert abs(tag.y1 - crit.y0) < 2 * MM and crit.x0 - 1 <= tag.x0 < crit.x1, (pb.id, t.id, tag, crit)
        assert ruled == len(CRITICAL_AT), pb.id
        # EXPERIENCE: its grey box too
        left, right, boxes = track_row(page, regiment.data.lists.sheet_fields.experience, pb.experience.end_label)
        assert len(boxes) == pb.experience.boxes
        assert [i + 1 for i, (_, grey) in enumerate(boxes) if grey] == pb.experience.premarked
        # one legend line says what the grey boxes, the line and CRIT mean
        legend = [b for b in page.get_text("dict")["blocks"] if "lines" in b
                  and any("Grey boxes" in s["text"] for ln in b["lines"] for s in ln["spans"])]
        assert len(legend) == 1, pb.id
        lines = {round(ln["bbox"][1]) for ln in legend[0]["lines"]}
        assert len(lines) == 1, (pb.id, "the legend is one line")
        assert min(s["size"] for ln in legend[0]["lines"] for s in ln["spans"]) >= 7.5


def test_track_rows_are_pencil_tall(blanks, regiment):
    """Tracks at least 7 mm apart, so a pencil mark in one does not touch the next."""
    fields = regiment.data.lists.sheet_fields
    for pb in regiment.data.playbooks.values():
        page = pymupdf.open(blanks[pb.id, "a4"])[0]
        ys = sorted(word(page, label).y0 for label in [*(t.label for t in pb.tracks), fields.experience])
        assert min(b - a for a, b in zip(ys, ys[1:])) >= 7 * MM, pb.id


def test_conditions_are_tick_boxes(blanks, regiment):
    from sheets.games.regiment.improvements import CONDITIONS

    for pb in regiment.data.playbooks.values():
        page = pymupdf.open(blanks[pb.id, "a4"])[0]
        heading = word(page, regiment.data.lists.sheet_fields.conditions)
        for condition in CONDITIONS:
            name = word(page, condition.capitalize(), heading.y0)
            boxes = squares(page, name.y0 - 2 * MM, name.y1 + 2 * MM, name.x0 - 8 * MM, name.x0)
            assert len(boxes) == 1 and boxes[0][0].width >= 3.5 * MM, (pb.id, condition, boxes)


def test_labels_sit_on_their_lines(blanks, regiment):
    """Each write-in's label sits on its line (its baseline within a millimetre of it) and the line
    starts just after it, not a column away."""
    fields = regiment.data.lists.sheet_fields
    for pb in regiment.data.playbooks.values():
        page = pymupdf.open(blanks[pb.id, "a4"])[0]
        # a write-in is drawn as a box with only its bottom edge inked: its rect's bottom is the line
        drawn = [d["rect"] for d in page.get_drawings() if d["rect"].height < 8 * MM and d["rect"].width > 10 * MM]
        for label in (fields.name, fields.rank, fields.profile, fields.background, fields.deployment, fields.squad[2]):
            first = label.split()[-1]
            at = word(page, first)
            line = min((r for r in drawn if r.x0 >= at.x1 - 1 and abs(r.y1 - at.y1) < 4 * MM),
                       key=lambda r: r.x0, default=None)
            assert line is not None, (pb.id, label)
            assert abs(line.y1 - at.y1) <= 1.2 * MM, (pb.id, label, line.y1 - at.y1)
            assert line.x0 - at.x1 <= 3 * MM, (pb.id, label, line.x0 - at.x1)


def test_improvements_read_as_written(blanks, regiment):
    """'+1 stat (max +3)', '+1 grit', '1 tough': words apart, as a player reads them."""
    for pb in regiment.data.playbooks.values():
        text = " ".join(pymupdf.open(blanks[pb.id, "a4"])[0].get_text().split())
        for glued in ("+1stat", "max+3", "+1grit", "1-tough"):
            assert glued not in text, (pb.id, glued)
        for item in pb.improvements.basic + pb.improvements.advanced.items:
            assert item in text, (pb.id, item)

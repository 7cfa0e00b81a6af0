"""The squad roster draws each soldier's tracks as his playbook draws them (issue 48): as many boxes,
the grey ones grey, the recovery line and the critical box where the playbook has them, boxes of
4 mm; read back from the PDF (PyMuPDF), the playbooks taken from the library."""
from __future__ import annotations

import pymupdf
import pytest

from test_track_rules import MM, bars, squares
from regiment_characters import JOE

TRACKS = ("wounds", "stress", "xp")


@pytest.fixture(scope="module")
def rosters(regiment, tmp_path_factory):
    """A blank roster and a random squad's (one soldier of each playbook), A4 and Letter."""
    from sheets.base.dice import Dice
    from sheets.games.regiment.sheets import roll_squad, squad_sheet
    from sheets.games.regiment.squads import SquadRoster
    from sheets.pipeline.build import build_one

    folder = tmp_path_factory.mktemp("rosters")
    squad = roll_squad(regiment, Dice.seeded(11), len(regiment.data.playbooks))
    out = {}
    for paper in ("a4", "letter"):
        out["blank", paper] = (build_one(squad_sheet(regiment, None, "b.pdf", paper), folder / f"blank-{paper}.pdf"), [])
        sheet = squad_sheet(regiment, SquadRoster("2nd Squad", 1, None, squad), "s.pdf", paper)
        out["squad", paper] = (build_one(sheet, folder / f"squad-{paper}.pdf"), squad)
    return out


def shape(pb, track: str) -> tuple[int, list[int]]:
    if track == "xp":
        return pb.experience.boxes, pb.experience.premarked
    t = pb.track(track)
    return t.boxes, t.premarked


def roster_rows(page, heads: dict[str, str]) -> list[dict[str, tuple]]:
    """Each soldier's tracks, top to bottom: {track: (label rect, boxes, rules)}."""
    words = [pymupdf.Rect(w[:4]) for w in page.get_text("words") if w[4] == heads["wounds"]]
    rows = []
    for at in sorted(words, key=lambda r: r.y0):
        line = sorted(((pymupdf.Rect(w[:4]), w[4]) for w in page.get_text("words")
                       if w[4] in heads.values() and abs(w[1] - at.y0) < 2 * MM), key=lambda found: found[0].x0)
        row = {}
        for (rect, text), nxt in zip(line, [*line[1:], (pymupdf.Rect(page.rect.x1, 0, page.rect.x1, 0), "")]):
            track = next(t for t, h in heads.items() if h == text)
            boxes = squares(page, rect.y0 - 3 * MM, rect.y1 + 3 * MM, rect.x1, nxt[0].x0)
            rules = [b for b in bars(page, rect.y0 - 4 * MM, rect.y1 + 4 * MM) if rect.x1 < b.x0 < nxt[0].x0]
            row[track] = (rect, boxes, rules)
        rows.append(row)
    return rows


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("which", ["blank", "squad"])
def test_roster_tracks_are_the_playbooks(rosters, regiment, which, paper):
    from sheets.games.regiment.improvements import track_marks
    from sheets.games.regiment.sheets import ROSTER_ROWS, roster_context

    path, squad = rosters[which, paper]
    assert pymupdf.open(path).page_count == 1 + 2 * len(squad)  # the roster on one page
    page = pymupdf.open(path)[0]
    heads = roster_context(regiment, None)["track_heads"]
    rows = roster_rows(page, heads)
    assert len(rows) == max(ROSTER_ROWS, len(squad))
    playbooks = list(regiment.data.playbooks.values())
    tag = regiment.data.lists.sheet_fields.critical_tag
    tags = [pymupdf.Rect(w[:4]) for w in page.get_text("words") if w[4] == tag]
    for i, row in enumerate(rows):
        # a soldier's row: his playbook; a blank row: every playbook (they draw these tracks alike)
        books = [squad[i].playbook] if i < len(squad) else playbooks
        for track in TRACKS:
            label, boxes, rules = row[track]
            for pb in books:
                count, grey = shape(pb, track)
                assert len(boxes) == count, (which, i, track, pb.id, len(boxes))
                assert [n + 1 for n, (_, g) in enumerate(boxes) if g] == grey, (which, i, track)
            assert all(r.width >= 4 * MM for r, _ in boxes), (which, i, track, "boxes under 4 mm")
            marks = {track_marks(pb, track) for pb in books} if track != "xp" else {None}
            assert len(marks) == 1
            (mark,) = marks
            if mark is None:
                assert not rules, (which, i, track)
                continue
            assert len(rules) == 1, (which, i, track, rules)
            crit = boxes[mark.critical - 1][0]
            assert boxes[mark.line_after - 1][0].x1 <= rules[0].x0 and rules[0].x1 <= crit.x0
            assert any(abs(t.y1 - crit.y0) < 2 * MM and crit.x0 - 1 <= t.x0 < crit.x1 for t in tags), (which, i, track)


def test_roster_ticks_each_soldiers_marks(regiment, tmp_path):
    """A soldier with 3 wounds, 1 stress and 2 XP: those boxes ticked on his row, the others open."""
    from sheets.games.regiment.characters import resolve_character
    from sheets.games.regiment.sheets import roster_context, squad_sheet
    from sheets.games.regiment.squads import SquadRoster
    from sheets.library.yaml_source import parse_yaml
    from sheets.pipeline.build import build_one

    ch = resolve_character(parse_yaml(JOE, "joe.yaml"), regiment.data)
    path = build_one(squad_sheet(regiment, SquadRoster(None, None, None, [ch]), "j.pdf"), tmp_path / "j.pdf")
    page = pymupdf.open(path)[0]
    (first, *_) = roster_rows(page, roster_context(regiment, None)["track_heads"])
    ticks = [pymupdf.Rect(w[:4]) for w in page.get_text("words") if w[4] == "✔"]
    for track, count in (("wounds", ch.wounds), ("stress", ch.stress), ("xp", ch.xp)):
        _, boxes, _ = first[track]
        ticked = [any(r.contains(t.tl + (t.br - t.tl) * 0.5) for t in ticks) for r, _ in boxes]
        assert ticked == [n < count for n in range(len(boxes))], (track, ticked)

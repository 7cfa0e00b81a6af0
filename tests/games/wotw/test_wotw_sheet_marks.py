"""What a log sheet and the record draw for the table (issue 48, item 1), read back from the PDFs
with PyMuPDF: a grenade box per grenade a man carries, the count beside them; the Engineer row
naming the team's Engineer; a struck step struck through; the record's 7 mm rows, its two-line
track cells, no seed column, and the blank record's continuation sheet."""
from __future__ import annotations

import pymupdf

MM = 72 / 25.4

TEAM = """\
nation: german
members:
  - {name: Kurt Keller, quality: Green, weapon: Rifle, engineer: true}
  - {name: Otto Lenz, quality: Green, weapon: Rifle, grenades: 2}
  - {name: Karl Brandt, quality: Green, weapon: Rifle}
"""


def _squares(page, rect, size_mm: float = 3.6) -> list:
    """The tick boxes drawn inside `rect` (squares of about `size_mm`)."""
    found = []
    for d in page.get_drawings():
        r = d["rect"]
        if rect.contains(r) and abs(r.width - size_mm * MM) < 0.6 * MM and abs(r.height - size_mm * MM) < 0.6 * MM:
            found.append(r)
    return found


def _row_of(page, name: str):
    hit = page.search_for(name)[0]
    return pymupdf.Rect(page.rect.x0, hit.y0 - 2 * MM, page.rect.x1, hit.y1 + 2 * MM), hit


def test_grenades_engineer_and_a_struck_step(cli, tmp_path, library):
    (tmp_path / "team.yaml").write_text(TEAM, encoding="utf-8")
    result = cli("mission", "--theatre", "france-1944", "--nation", "german", "--seed", "2", "--engineers",
                 "--strike-step", "2", "--team", tmp_path / "team.yaml", "-o", tmp_path / "m.pdf")
    assert result.exit_code == 0, result
    page = pymupdf.open(tmp_path / "m.pdf")[0]
    rules = library.game("wotw").data.rules
    carried = int(rules.campaign["grenades_per_soldier"])
    # a box per grenade carried: the rules' four, and the two Otto Lenz was given; the count beside
    for name, count in (("Kurt Keller", carried), ("Otto Lenz", 2)):
        row, _ = _row_of(page, name)
        boxes = _squares(page, row)
        assert len(boxes) == count, (name, len(boxes))
        words = [w for w in page.get_text("words") if row.contains(pymupdf.Rect(w[:4])) and w[4] == str(count)]
        assert words and words[0][2] <= min(b.x0 for b in boxes), (name, words)  # the count, then its boxes
    # the Engineer row names him
    label = page.search_for("Engineer (optional")[0]
    right = [w[4] for w in page.get_text("words") if abs(w[1] - label.y0) < 3 * MM and w[0] > label.x1]
    assert "Kurt" in right and "Keller" in right, right
    # the struck step: its terrain with a line through it, and no "(struck)"
    assert "(struck)" not in page.get_text()
    from sheets.games.wotw.sheets import roll_missions
    from sheets.base.dice import Dice

    (m,) = roll_missions(library.game("wotw"), Dice.seeded(2), 1, "france-1944", "german", engineers=True,
                         strike_step=2)
    track_top = page.search_for("MISSION TRACK")[0].y1
    terrain = next(r for r in page.search_for(m.track[1].terrain) if r.y0 > track_top)
    middle = (terrain.y0 + terrain.y1) / 2
    through = [it for d in page.get_drawings() for it in d["items"]
               if (it[0] == "re" and it[1].height < 1.5 and it[1].x0 <= terrain.x0 + 1 and it[1].x1 >= terrain.x1 - 1
                   and terrain.y0 < it[1].y0 < terrain.y1 and abs(it[1].y0 - middle) < terrain.height / 2)
               or (it[0] == "l" and abs(it[1].y - it[2].y) < 0.1 and terrain.y0 < it[1].y < terrain.y1
                   and it[1].x <= terrain.x0 + 1 and it[2].x >= terrain.x1 - 1)]
    assert through, "no line through the struck step"


def _row_heights(page, top_text: str, bottom_text: str | None) -> list[float]:
    top = page.search_for(top_text)[0].y1
    bottom = page.search_for(bottom_text)[0].y0 if bottom_text else page.rect.y1
    ys = sorted({round(it[1].y, 1) for d in page.get_drawings() for it in d["items"]
                 if it[0] == "l" and abs(it[1].y - it[2].y) < 0.01 and abs(it[2].x - it[1].x) > 5
                 and top < it[1].y < bottom})
    return [(b - a) / MM for a, b in zip(ys, ys[1:])]


def test_the_blank_record_has_7_mm_rows_two_line_tracks_and_a_continuation_sheet(cli, tmp_path):
    for paper in ("a4", "letter"):
        out = tmp_path / paper
        out.mkdir()
        assert cli("print", "wotw.record", "wotw", "--paper", paper, "-o", out).exit_code == 0
        doc = pymupdf.open(out / "wotw-campaign-record.pdf")
        assert len(doc) == 2, paper
        text = " ".join(doc[0].get_text().split())
        assert "Seed" not in text and "dice" not in text.split("BETWEEN MISSIONS")[0]
        assert "CONTINUED" in doc[1].get_text()
        team = _row_heights(doc[0], "TEAM", "MISSIONS")
        ledger = _row_heights(doc[0], "XP AND CP LEDGER", "BETWEEN MISSIONS")
        assert min(team + ledger) >= 7.0, (paper, team, ledger)
        # a mission's row: two pencil lines for its track (the track cell ruled between them)
        missions = _row_heights(doc[0], "MISSIONS", "XP AND CP LEDGER")
        assert missions and min(missions) >= 6.0, missions
        more = _row_heights(doc[1], "XP AND CP LEDGER, CONTINUED", None)
        assert len(more) >= 15 and min(more) >= 7.0, more


def test_a_printed_record_keeps_7_mm_rows(cli, tmp_path):
    (tmp_path / "team.yaml").write_text(TEAM, encoding="utf-8")
    assert cli("campaign", "new", "ww.yaml", "--nation", "german", "--theatre", "france-1944", "--engineers",
               "--team", "team.yaml").exit_code == 0
    assert cli("campaign", "mission", "ww.yaml", "--seed", "11", "-o", "m1.pdf").exit_code == 0
    assert cli("campaign", "show", "ww.yaml", "-o", "record.pdf").exit_code == 0
    page = pymupdf.open(tmp_path / "record.pdf")[0]
    rows = _row_heights(page, "TEAM", "MISSIONS") + _row_heights(page, "XP AND CP LEDGER", "BETWEEN MISSIONS")
    assert rows and min(rows) >= 7.0, rows

"""Room to write (issue 34, item 3), measured on the PDFs the commands write.

Mission track rows at least 7 mm apart (pre-rolled and blank log sheets, A4 and Letter; the
blank still numbers every row of the longest mission); every write-in field of a fillable
playbook at least 6 mm tall and every tick box at least 3.5 mm; a box per grenade on the
roster; DEPLOYMENT printed from the character file; the Engineer and weather rows only when
those rules are in play; the events legend uses both halves of its width."""
from __future__ import annotations

from pathlib import Path

import pypdf
import pytest

from sheets.games.wotw.mission import longest_track
from sheets.games.wotw.sheets import blank_log_sheet
from sheets.pipeline.build import build_one
from conftest import pdf_text, squash, text_runs

MM = 72 / 25.4
CHARACTER = Path(__file__).resolve().parents[2] / "content/regiment/characters/walter-brzezinski.yaml"
LONG = ("--theatre", "russia-1943", "--dice", "2,1,6,2,4,1,1,1,1,1,1")  # a 35-step mission


def track_numbers(path: Path) -> dict[int, list[float]]:
    """Per page, the y (pt, top down) of the row numbers in the track's '#' column, in order."""
    found: dict[int, list[float]] = {}
    for i, page in enumerate(pypdf.PdfReader(str(path)).pages):
        height = float(page.mediabox.height)
        if not any(t.startswith("MISSION TRACK") for _, _, t in text_runs(path, i)):
            continue  # the play aid's tables number their rows too
        runs = sorted((height - y, int(t)) for x, y, t in text_runs(path, i) if t.isdigit() and x < 60)
        rows, last = [], None
        for y, n in runs:
            if last is not None and n == last + 1:
                rows.append(y)
            elif rows and len(rows) > 1:
                break
            else:
                rows = [y]
            last = n
        found[i] = rows if len(rows) > 3 else []
    return found


def pitches(path: Path) -> list[float]:
    return [(b - a) / MM for rows in track_numbers(path).values() for a, b in zip(rows, rows[1:])]


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_mission_track_rows_are_7_mm_apart_on_the_rolled_and_the_blank_sheet(cli, tmp_path, paper, library):
    assert cli("mission", *LONG, "--paper", paper, "-o", "m.pdf").exit_code == 0
    rolled = pitches(tmp_path / "m.pdf")
    assert rolled and min(rolled) >= 7.0, rolled
    game = library.game("wotw")
    blank = build_one(blank_log_sheet(game, paper), tmp_path / "blank.pdf")
    rows = pitches(blank)
    assert rows and min(rows) >= 7.0, rows
    # the track's three columns of numbers (the blank writes no other bare number)
    numbers = {n for i in range(len(pypdf.PdfReader(str(blank)).pages))
               for x, _, t in text_runs(blank, i) if t.isdigit() for n in [int(t)]}
    assert set(range(1, longest_track(game.data) + 1)) <= numbers  # the longest mission, over its pages


def _widgets(path: Path):
    """(full name, field type, page, [x0, top, x1, bottom] in pt from the page's top) of every widget."""
    for number, page in enumerate(pypdf.PdfReader(str(path)).pages):
        height = float(page.mediabox.height)
        for a in page.get("/Annots", []) or []:
            a = a.get_object()
            kind = a.get("/FT") or a.get("/Parent", {}).get("/FT")
            names, node = [], a
            while node is not None:
                if "/T" in node:
                    names.insert(0, str(node["/T"]))
                node = node.get("/Parent")
                node = node.get_object() if node is not None else None
            x0, y0, x1, y1 = (float(v) for v in a["/Rect"])
            yield ".".join(names), kind, number, [min(x0, x1), height - max(y0, y1), max(x0, x1), height - min(y0, y1)]


@pytest.mark.parametrize("playbook", ["soldier", "medic", "sniper", "operator"])
def test_every_write_in_of_a_playbook_is_6_mm_tall_and_every_box_3_5_mm(cli, tmp_path, playbook, regiment):
    """The printed row of every write-in that is a form field is 6 mm tall, and its field lies on
    it (a one-line field is that row's line of type: auto-sized, a filler writes an entry at the
    sheet's size there); a tick box is 3.5 mm."""
    from sheets.games.regiment.sheets import blank_playbook
    from sheets.pipeline.sheet import render_html
    from sheets.pipeline.stamp.layout import render_base

    assert cli("playbook", playbook, "--fillable", "-o", "f.pdf").exit_code == 0
    widgets = list(_widgets(tmp_path / "f.pdf"))
    assert len(widgets) > 60
    blank = blank_playbook(regiment, regiment.data.playbook(playbook)).parts[0][0]
    rows = render_base(render_html(blank))[1]["fields"]
    texts = 0
    for name, kind, page, (x0, top, x1, bottom) in widgets:
        if kind == "/Tx":
            texts += 1
            spec = rows[name] if name in rows else rows[name.removesuffix(".text")]  # c0.rank.text: c0.rank's
            x, y, w, h = spec["content"]
            assert spec["page"] == page and h / MM >= 5.99, (name, h / MM)
            assert y - 0.01 <= top < bottom <= y + h + 0.01 and x - 0.01 <= x0 < x1 <= x + w + 0.01, (name, spec)
        else:
            assert min(x1 - x0, bottom - top) / MM >= 3.49, (name, x1 - x0, bottom - top)
    assert texts > 20


def test_deployment_is_a_key_of_the_character_file_and_printed(cli, tmp_path):
    assert cli("playbook", "--character", CHARACTER, "-o", "w.pdf").exit_code == 0
    assert "Normandy,June1944" in squash(pdf_text(tmp_path / "w.pdf"))


def test_smokes_have_a_box_on_the_playbook(cli, tmp_path):
    assert cli("playbook", "medic", "--fillable", "-o", "f.pdf").exit_code == 0
    names = set(pypdf.PdfReader(str(tmp_path / "f.pdf")).get_fields())
    assert "c0.gear.count" in names


def test_grenades_get_a_box_each_and_optional_rules_rows_show_only_when_in_play(cli, tmp_path):
    assert cli("mission", *LONG, "-o", "plain.pdf").exit_code == 0
    plain = squash(pdf_text(tmp_path / "plain.pdf"))
    assert "Engineer(optionalrule#3)" not in plain and "Weatherchanges" not in plain
    assert "Regroupingsteps" not in plain
    assert cli("mission", "--theatre", "winter-1942", "--engineers", "--seed", "4", "-o", "eng.pdf").exit_code == 0
    eng = squash(pdf_text(tmp_path / "eng.pdf"))
    assert "Engineer(optionalrule#3)" in eng and "Weatherchanges" in eng


def test_the_events_legend_uses_both_halves_of_its_width(cli, tmp_path):
    assert cli("mission", *LONG, "-o", "m.pdf").exit_code == 0
    path = tmp_path / "m.pdf"
    for i in range(len(pypdf.PdfReader(str(path)).pages)):
        runs = text_runs(path, i)
        heads = [r for r in runs if r[2].startswith("EVENTS (2D6)")]
        if not heads:
            continue
        width = float(pypdf.PdfReader(str(path)).pages[i].mediabox.width)
        # (a stamped row's words are drawn one by one, each with the space after it)
        below = [r for r in runs if r[1] < heads[0][1] - 20 and r[2].strip() in ("Wood", "Cliff", "Small", "Small Building")]
        assert any(x > width / 2 for x, _, _ in below), below  # terrains in the right half too
        return
    pytest.fail("no events legend")

"""At least 6 pt for every word a player reads during play, measured from the PDF (issue 31):
the size of each text run is its font size times the vertical scale of the text matrix and
the current transformation matrix, the size it prints at."""
import io

import pytest

from conftest import pages
from typesizes import text_sizes, too_small
from sheets.base.dice import Dice


def test_the_measure_sees_small_type():
    from reportlab.pdfgen import canvas

    out = io.BytesIO()
    c = canvas.Canvas(out)
    c.setFont("Helvetica", 11)
    c.drawString(50, 700, "eleven at full size")
    c.scale(0.5, 0.5)  # a placed, scaled-down drawing: 11 pt prints at 5.5 pt
    c.drawString(100, 1000, "eleven at half size")
    c.save()
    sizes = {text: size for size, _, text in text_sizes(out.getvalue())}
    assert sizes == {"eleven at full size": 11.0, "eleven at half size": 5.5}
    assert too_small(out.getvalue()) == [(5.5, 1, "eleven at half size")]


PLAY_SHEETS = ["wotw-log-sheet.pdf", "wotw-log-sheet-blank.pdf", "wotw-campaign-record.pdf",
               "regiment-soldier.pdf", "regiment-medic.pdf", "regiment-sniper.pdf", "regiment-operator.pdf",
               "regiment-random-squad.pdf", "regiment-squad-roster.pdf"]


@pytest.mark.parametrize("name", PLAY_SHEETS)
def test_no_type_under_6pt_on_the_kits_play_sheets(whole_kit, name):
    assert too_small(whole_kit.folder / name) == []


@pytest.fixture(scope="module")
def wotw(library):
    return library.game("wotw")


def _missions(wotw):
    """One mission per theatre with the optional rules that happened (airborne, beachhead),
    and the mission with the longest objective line (it prints on the last track row)."""
    from sheets.games.wotw.mission import MissionRoller

    roller, found = MissionRoller(wotw.data), {}
    longest = max(wotw.data.table("objective").rows, key=lambda r: len(r.enemy or "")).name
    for theatre in [t.id for t in wotw.data.theatres.theatres]:
        for flag in ("airborne", "beachhead"):
            for seed in range(300):
                m = roller.roll(Dice.seeded(seed), theatre, **{flag: True})
                if getattr(m, flag) and (theatre, flag) not in found:
                    found[(theatre, flag)] = m
                if m.objective.name == longest and "objective" not in found:
                    found["objective"] = m
                if (theatre, flag) in found and "objective" in found:
                    break
    return list(found.values())


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_log_sheets_three_pages_and_no_type_under_6pt(wotw, paper, tmp_path):
    """The log sheet of every theatre, airborne and beachhead (the longest opening steps and
    events), on at most three pages of either paper (the track's rows are 7 mm apart, room for
    a pencil: issue 34), every word at 6 pt or more."""
    from sheets.games.wotw.sheets import log_sheet
    from sheets.pipeline.build import build

    missions = _missions(wotw)
    assert len(missions) == 11
    sheets = [log_sheet(wotw, [m], f"log-{i}.pdf", paper) for i, m in enumerate(missions)]
    build(sheets, tmp_path)
    for i, m in enumerate(missions):
        pdf = tmp_path / f"log-{i}.pdf"
        assert pages(pdf) <= 3, (m.theatre, m.airborne, m.beachhead, len(m.track))
        assert too_small(pdf) == [], (m.theatre, m.objective.name)

"""All ink, crop marks and fold lines included, sits at least 5 mm inside the paper edge (issue 34,
item 6) in what the commands write beside the kit (whose every part tests/kit/test_kit_letter.py
measures): card backs and fold-overs, the calibration sheet, the fillable and filled playbooks, a
mission's and a campaign's log sheets and the record, on A4 and Letter. PDFium at 72 dpi: a pixel
is 0.35 mm, so 4.9 mm counts as 5."""
from __future__ import annotations

import pytest

from conftest import ink_margins_mm

TEAM = """\
nation: german
members:
  - {name: Karl Brandt, quality: Veteran, weapon: SMG, medical: true}
  - {name: Otto Lenz, quality: Green, weapon: Rifle}
  - {name: Willi Haas, quality: Green, weapon: Rifle}
"""
COMMANDS = {
    "card backs": ["cards", "regiment", "--set", "weapons", "--backs"],
    "fold-over cards": ["cards", "regiment", "--set", "vehicles", "--fold"],
    "calibration sheet": ["cards", "calibrate", "--duplex", "short"],
    "fillable playbook": ["playbook", "medic", "--fillable"],
    "random squad": ["playbook", "--random", "--count", "2", "--seed", "3"],
    "mission log sheet": ["mission", "--theatre", "france-1944", "--seed", "4"],
}


def _near(pdf) -> list[tuple[int, dict]]:
    found = []
    for number, margins in enumerate(ink_margins_mm(pdf), start=1):
        if margins is not None:
            sides = dict(zip(("left", "top", "right", "bottom"), margins))
            near = {side: round(mm, 1) for side, mm in sides.items() if mm < 4.9}
            if near:
                found.append((number, near))
    return found


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("what", list(COMMANDS))
def test_every_mark_keeps_5_mm_inside_the_paper(cli, tmp_path, what, paper):
    result = cli(*COMMANDS[what], "--paper", paper, "-o", tmp_path / "out.pdf")
    assert result.exit_code == 0, result
    assert _near(tmp_path / "out.pdf") == [], what


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_a_campaigns_log_sheet_and_record_keep_5_mm_inside_the_paper(cli, tmp_path, paper):
    (tmp_path / "team.yaml").write_text(TEAM, encoding="utf-8")
    assert cli("campaign", "new", "ww.yaml", "--nation", "german", "--theatre", "france-1944",
               "--team", "team.yaml").exit_code == 0
    assert cli("campaign", "mission", "ww.yaml", "--seed", "11", "--paper", paper, "-o", "log.pdf").exit_code == 0
    assert cli("campaign", "show", "ww.yaml", "--paper", paper, "-o", "record.pdf").exit_code == 0
    assert _near(tmp_path / "log.pdf") == [] and _near(tmp_path / "record.pdf") == []

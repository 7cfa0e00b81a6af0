"""Every name a page uses is defined (issue 34, item 2): in every kind of PDF the tool writes,
each `Tf`, `Do` and `gs` operand is in its resources, and poppler reads it without a
"Syntax Error" (reportlab's `BT /F1 12 Tf` preamble once stayed on pages 2+ of a stamp
whose shared font dictionary had lost F1)."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from names import poppler_errors, unresolved

pytestmark = pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils not installed")

TEAM = """nation: german
members:
  - {name: Hans Weber, quality: Veteran, weapon: SMG}
  - {name: Otto Lenz, quality: Green, weapon: Rifle}
  - {name: Willi Haas, quality: Green, weapon: Rifle}
  - {name: Paul Roth, quality: Green, weapon: SMG}
"""


def _assert_clean(paths: list[Path], tmp: Path) -> None:
    assert paths
    bad = []
    for path in paths:
        bad += unresolved(path) + poppler_errors(path, tmp)
    assert not bad, "\n".join(bad[:30])


def test_the_whole_kit_names_only_what_it_holds(whole_kit, tmp_path):
    _assert_clean(sorted(whole_kit.folder.rglob("*.pdf")), tmp_path)


def test_every_sheet_command_names_only_what_it_holds(cli, tmp_path):
    character = Path(__file__).resolve().parents[2] / "content/regiment/characters/walter-brzezinski.yaml"
    runs = [("playbook", "medic", "-o", "blank.pdf"),
            ("playbook", "medic", "--paper", "letter", "-o", "blank-letter.pdf"),
            ("playbook", "medic", "--fillable", "-o", "fillable.pdf"),
            ("playbook", "sniper", "--character", character, "-o", "filled.pdf"),
            ("playbook", "sniper", "--character", character, "--fillable", "-o", "filled-fillable.pdf"),
            ("playbook", "soldier", "--random", "--count", "3", "--seed", "5", "--save", "crew", "-o", "random.pdf"),
            ("squad", "crew/squad.yaml", "-o", "squad.pdf"),
            ("squad", "crew/squad.yaml", "--fillable", "-o", "squad-fillable.pdf"),
            ("mission", "--seed", "3", "-o", "mission.pdf"),
            ("cards", "regiment", "-o", "cards.pdf"),
            ("trackers", "regiment", "-o", "trackers.pdf")]
    for args in runs:
        result = cli(*args)
        assert result.exit_code == 0, (args, result)
    (tmp_path / "team.yaml").write_text(TEAM)
    for args in [("campaign", "new", "ww.yaml", "--nation", "german", "--theatre", "france-1944", "--team", "team.yaml"),
                 ("campaign", "mission", "ww.yaml", "--seed", "11", "-o", "m1.pdf"),
                 ("campaign", "debrief", "ww.yaml", "--outcome", "success", "--wounded", "Otto Lenz", "--dice", "5"),
                 ("campaign", "mission", "ww.yaml", "--seed", "12", "-o", "m2.pdf"),
                 ("campaign", "debrief", "ww.yaml", "--outcome", "aborted", "--killed", "Willi Haas"),
                 ("campaign", "mission", "ww.yaml", "--seed", "13", "-o", "m3.pdf"),
                 ("campaign", "show", "ww.yaml", "-o", "record.pdf")]:
        result = cli(*args)
        assert result.exit_code == 0, (args, result)
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    _assert_clean(sorted(tmp_path.glob("*.pdf")), scratch)

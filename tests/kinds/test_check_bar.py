"""True scale: sheets whose drawing has a real size carry 5 cm / 2 in check bars, and the
bars measure exactly that in the PDF (in points: 5 cm = 141.73 pt, 2 in = 144 pt)."""
from __future__ import annotations


import pytest

from checkbar import assert_true_scale
from conftest import bundled_games


@pytest.mark.parametrize("game", bundled_games("tokens"))
def test_token_sheets_carry_check_bars_of_true_length(cli, tmp_path, game):
    out = tmp_path / f"{game}.pdf"
    assert cli("tokens", game, "-o", out).exit_code == 0
    assert_true_scale(out)


def test_check_bars_are_true_length_on_letter_paper_too(cli, tmp_path):
    out = tmp_path / "t.pdf"
    assert cli("tokens", "platoon", "--paper", "letter", "-o", out).exit_code == 0
    assert_true_scale(out)

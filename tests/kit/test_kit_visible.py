"""Every part of a kit shows every word it contains (rendered, not only extracted)."""
from __future__ import annotations

import pytest

from visibility import invisible_words


@pytest.fixture(scope="module")
def kit_parts(tmp_path_factory):
    from typer.testing import CliRunner

    from sheets.cli import app

    out = tmp_path_factory.mktemp("kit") / "kit"
    result = CliRunner().invoke(app, ["kit", "--seed", "7", "-o", str(out)])
    assert result.exit_code == 0, result.output
    return sorted(p for p in out.glob("*.pdf") if p.name != "kit.pdf")


def test_every_word_of_every_kit_part_is_visible(kit_parts):
    assert len(kit_parts) >= 30, kit_parts  # every game, every kind of printable
    hidden = {part.name: words for part in kit_parts if (words := invisible_words(part))}
    assert hidden == {}

"""What every printable takes (issue 36): one table of papers, looked up once; the options travel whole."""
from __future__ import annotations

from pathlib import Path

import pytest

from sheets.base import paper
from sheets.base.errors import SheetsError
from sheets.base.options import PrintOptions
from sheets.kinds.print_plugin import KitOptions

pytestmark = pytest.mark.unit  # `make check`'s fast tier


def test_the_options_carry_the_paper_resolved_from_the_one_table():
    options = PrintOptions(paper="Letter")
    assert options.paper == paper.TABLE["letter"] and options.paper.name == "letter"
    assert (options.paper.width_mm, options.paper.height_mm) == (215.9, 279.4)
    assert PrintOptions(paper=options.paper).paper is options.paper
    assert paper.TABLE["a4-landscape"].width_mm == paper.TABLE["a4"].height_mm
    assert paper.PAPERS == ("a4", "letter")


def test_an_unknown_paper_is_refused_in_one_place_with_the_choices():
    with pytest.raises(SheetsError, match=r"unknown paper 'a5'; choose one of: a4, letter"):
        PrintOptions(paper="a5")
    with pytest.raises(SheetsError, match=r"unknown paper 'a4-landscape'; choose one of: a4, letter"):
        PrintOptions(paper="a4-landscape")  # a layout's paper, not one a printable is printed on


def test_the_output_root_is_an_option(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert PrintOptions().folder() == tmp_path / "output"
    assert PrintOptions().target("x.pdf") == tmp_path / "output" / "x.pdf"
    assert PrintOptions(root=Path("prints")).target("x.pdf") == Path("prints") / "x.pdf"
    assert PrintOptions(root=Path("prints"), output=tmp_path / "o.pdf").target("x.pdf") == tmp_path / "o.pdf"


def test_kit_options_are_print_options_plus_what_only_the_kit_takes():
    shared = PrintOptions(paper="letter", ink_saver=True, root=Path("prints"))
    kit = KitOptions.of(shared, seed=7, players=2)
    assert isinstance(kit, PrintOptions)
    assert (kit.paper, kit.ink_saver, kit.root, kit.seed, kit.players) == (shared.paper, True, Path("prints"), 7, 2)

"""The papers this tool prints on: one table, read by the CLI, sheets.toml, the desk and every layout.

A paper is named by its key (`a4`, `letter`, and their `-landscape` turns, which card layouts
and folded cards use); its size is in millimetres. `resolve` is the one lookup: a printable's
options carry the `Paper` it returns, so no builder looks a paper up again. Every other place
(the `--paper` choices, sheets.toml's check, the desk's forms, CSS `@page` sizes, the card
layouts of content/_print/layouts.yaml, the contents page's paper column) asks here, so a new
paper is one line.
"""
from __future__ import annotations

from dataclasses import dataclass

from sheets.base.errors import SheetsError


@dataclass(frozen=True)
class Paper:
    """A paper: its name and size in millimetres (as it lies: a `-landscape` paper is wide)."""

    name: str
    width_mm: float
    height_mm: float

    def page_size(self, landscape: bool = False) -> str:
        """CSS @page size: this paper, or this paper turned."""
        w, h = (self.height_mm, self.width_mm) if landscape else (self.width_mm, self.height_mm)
        return f"{w}mm {h}mm"

    def __str__(self) -> str:
        return self.name


def _table(*papers: Paper) -> dict[str, Paper]:
    portrait = {p.name: p for p in papers}
    turned = {f"{p.name}-landscape": Paper(f"{p.name}-landscape", p.height_mm, p.width_mm) for p in papers}
    return {**portrait, **turned}


#: every paper by name: the portrait papers a printable takes, then each turned landscape
TABLE: dict[str, Paper] = _table(Paper("a4", 210.0, 297.0), Paper("letter", 215.9, 279.4))
#: the papers a printable is printed on (`--paper`, sheets.toml, the desk)
PAPERS: tuple[str, ...] = tuple(name for name in TABLE if not name.endswith("-landscape"))
MM = 72 / 25.4  # PDF points per millimetre


def resolve(paper: str | Paper) -> Paper:
    """The paper a printable is printed on, by its name (any case), or a SheetsError listing the papers."""
    if isinstance(paper, Paper):
        return paper
    name = paper.lower() if isinstance(paper, str) else paper
    if name not in PAPERS:
        raise SheetsError(f"unknown paper {paper!r}; choose one of: {', '.join(PAPERS)}")
    return TABLE[name]


def page_size(paper: str | Paper, landscape: bool = False) -> str:
    """CSS @page size for a paper (or its name)."""
    return resolve(paper).page_size(landscape)


def paper_name(width_pt: float, height_pt: float) -> str:
    """'a4', 'letter', their '-landscape', or 'W×H mm', for a page measured in points."""
    w, h = width_pt / MM, height_pt / MM
    for name in PAPERS:
        pw, ph = TABLE[name].width_mm, TABLE[name].height_mm
        if abs(w - pw) < 1 and abs(h - ph) < 1:
            return name
        if abs(w - ph) < 1 and abs(h - pw) < 1:
            return name + "-landscape"
    return f"{w:.0f}×{h:.0f} mm"

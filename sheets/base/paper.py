"""The papers this tool prints on: one list, read by the CLI, sheets.toml, the desk and the layout.

A paper is named by its key (`a4`, `letter`); its size is in millimetres, portrait. Every
other place (the `--paper` choices, sheets.toml's check, the desk's forms, CSS `@page`
sizes, the contents page's paper column) asks here, so a new paper is one line.
"""
from __future__ import annotations

from sheets.base.errors import SheetsError

#: name -> (width, height) in mm, portrait
SIZES_MM: dict[str, tuple[float, float]] = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
PAPERS: tuple[str, ...] = tuple(SIZES_MM)
MM = 72 / 25.4  # PDF points per millimetre


def check(paper: str) -> str:
    """The paper's name as this tool knows it (lower case), or a SheetsError listing the papers."""
    name = paper.lower() if isinstance(paper, str) else paper
    if name not in SIZES_MM:
        raise SheetsError(f"unknown paper {paper!r}; choose one of: {', '.join(PAPERS)}")
    return name


def page_size(paper: str, landscape: bool = False) -> str:
    """CSS @page size for a paper name."""
    w, h = SIZES_MM[check(paper)]
    if landscape:
        w, h = h, w
    return f"{w}mm {h}mm"


def paper_name(width_pt: float, height_pt: float) -> str:
    """'a4', 'letter', their '-landscape', or 'W×H mm', for a page measured in points."""
    w, h = width_pt / MM, height_pt / MM
    for name, (pw, ph) in SIZES_MM.items():
        if abs(w - pw) < 1 and abs(h - ph) < 1:
            return name
        if abs(w - ph) < 1 and abs(h - pw) < 1:
            return name + "-landscape"
    return f"{w:.0f}×{h:.0f} mm"

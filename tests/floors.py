"""Every text span of a PDF held to the floor of its role (issue 47), read back with PyMuPDF.

The role of a span is told by its colour, as the theme (content/_print/design.yaml) marks them:
a span in the theme's `note` colour is a note or caption, one in its `footer` colour a running
footer; every other span is text read in play, held to the play floor (the model makes the two
marker colours unique, so no other role can wear them). A span the stamper drew (its fonts are
embedded by their own names, without the layout engine's "Sheets-" family prefix) is counted
apart: the stamper's sizes are its own (`STAMPED_FLOOR_PT`, issue 31's 6 pt) until it takes the
theme's too.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pymupdf

from sheets.library.kinds.theme import BaseTheme

STAMPED_FLOOR_PT = 6.0
TOLERANCE_PT = 0.02  # a size written as 7.5 reads back as 7.4999


@dataclass(frozen=True)
class Span:
    page: int
    size: float
    colour: str
    font: str
    text: str

    @property
    def stamped(self) -> bool:
        return not self.font.startswith("Sheets-")


def spans(pdf: Path | bytes):
    """Every span with text of every page of `pdf`."""
    doc = pymupdf.open(stream=pdf) if isinstance(pdf, bytes) else pymupdf.open(pdf)
    try:
        for number, page in enumerate(doc, 1):
            for block in page.get_text("dict")["blocks"]:
                for line in block.get("lines", []):
                    for s in line["spans"]:
                        if s["text"].strip():
                            yield Span(number, round(s["size"], 2), f"#{s['color']:06x}", s["font"], s["text"].strip())
    finally:
        doc.close()


def floors(theme: BaseTheme, large_print: bool = False) -> tuple[dict[str, str], dict[str, float]]:
    """(marker colour -> role, role -> floor in pt) of the theme, or of its large-print edition."""
    colours = theme.large_print.colours if large_print else theme.colours
    markers = {colours.note.lower(): "note", colours.footer.lower(): "footer"}
    if large_print:
        return markers, dict.fromkeys(("play", "note", "footer"), theme.large_print.floor_pt)
    t = theme.type
    return markers, {"play": t.play.floor_pt, "note": t.note.floor_pt, "footer": t.footer.floor_pt}


def role(span: Span, markers: dict[str, str]) -> str:
    return markers.get(span.colour, "play")


def under_floor(pdf: Path | bytes, theme: BaseTheme, large_print: bool = False) -> list[tuple[str, float, float, int, str]]:
    """(role, size, floor, page, text) of every span under its role's floor."""
    markers, floor = floors(theme, large_print)
    low = []
    for s in spans(pdf):
        want = STAMPED_FLOOR_PT if s.stamped and not large_print else floor[role(s, markers)]
        if s.size < want - TOLERANCE_PT:
            low.append(("stamped" if s.stamped else role(s, markers), s.size, want, s.page, s.text[:50]))
    return low


def smallest_in_play(pdf: Path | bytes, theme: BaseTheme) -> float | None:
    """The smallest laid-out text read in play (the measure the issue's closing note reports)."""
    markers, _ = floors(theme)
    sizes = [s.size for s in spans(pdf) if not s.stamped and role(s, markers) == "play"]
    return min(sizes) if sizes else None

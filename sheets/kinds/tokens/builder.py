"""Token sheets: round counters to cut out, packed on A4 or Letter.

A game's `tokens.yaml` lists its counters with how many of each one sheet needs;
`--copies N` prints N times as many. Positions are computed here (a centred grid
of circles with a gap to cut in) and the template places each token absolutely,
so the drawing is exactly what this module says.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from sheets.base.colors import MIN_TEXT_PT
from sheets.base.errors import SheetsError
from sheets.base.limits import MAX_COPIES, MAX_TOKENS
from sheets.base.paper import Paper
from sheets.library.kinds.tokens import Token, TokenSheet
from sheets.pipeline.rendering import game_titled
from sheets.pipeline.sheet import Sheet
from sheets.kinds import style
from sheets.kinds.tokens import shapes
from sheets.base.colors import text_on

if TYPE_CHECKING:
    from sheets.library.content import Game

PT_PER_MM = 72 / 25.4
MARGIN_MM = 10.0    # printers cannot print to the edge
HEADER_MM = 9.0     # the sheet's title line
FOOTER_MM = 6.0
GAP_MM = 2.5        # room for scissors between two circles


@dataclass(frozen=True)
class PlacedToken:
    token: Token
    x_mm: float  # centre, from the paper's left edge
    y_mm: float  # centre, from the paper's top edge


@dataclass(frozen=True)
class TokenGrid:
    paper: Paper
    diameter: float

    @property
    def columns(self) -> int:
        usable = self.paper.width_mm - 2 * MARGIN_MM
        return max(0, math.floor((usable + GAP_MM) / (self.diameter + GAP_MM)))

    @property
    def rows(self) -> int:
        usable = self.paper.height_mm - 2 * MARGIN_MM - HEADER_MM - FOOTER_MM
        return max(0, math.floor((usable + GAP_MM) / (self.diameter + GAP_MM)))

    @property
    def per_page(self) -> int:
        return self.columns * self.rows

    def centre(self, slot: int) -> tuple[float, float]:
        col, row = slot % self.columns, slot // self.columns
        pitch = self.diameter + GAP_MM
        width = self.columns * pitch - GAP_MM
        left = (self.paper.width_mm - width) / 2
        top = MARGIN_MM + HEADER_MM
        return left + col * pitch + self.diameter / 2, top + row * pitch + self.diameter / 2


def layout_tokens(sheet: TokenSheet, paper: Paper, copies: int = 1) -> list[list[PlacedToken]]:
    """Every token (count x copies of each), in content order, placed on pages."""
    if not 1 <= copies <= MAX_COPIES:
        raise SheetsError(f"--copies must be 1 to {MAX_COPIES}, not {copies}")
    grid = TokenGrid(paper, sheet.diameter_mm)
    if grid.per_page == 0:
        raise SheetsError(f"{sheet.diameter_mm:g} mm tokens do not fit on this paper")
    total = sum(t.count for t in sheet.tokens) * copies
    if total > MAX_TOKENS:
        raise SheetsError(f"{sheet.title}: {total // copies} tokens x {copies} copies is {total:,} tokens, more than "
                          f"the {MAX_TOKENS:,} one sheet may have (lower --copies)")
    tokens = [t for t in sheet.tokens for _ in range(t.count * copies)]
    if not tokens:
        raise SheetsError(f"{sheet.title}: every token has count 0, so there is nothing to print")
    pages = []
    for first in range(0, len(tokens), grid.per_page):
        chunk = tokens[first:first + grid.per_page]
        pages.append([PlacedToken(t, *grid.centre(i)) for i, t in enumerate(chunk)])
    return pages


def label_size_pt(label: str, diameter: float) -> float:
    """A label size that fits the token's longest word across ~3/4 of the circle."""
    inner_pt = diameter * 0.74 * PT_PER_MM
    longest = max((len(w) for w in label.split()), default=1)
    return round(max(MIN_TEXT_PT, min(diameter * 0.42, inner_pt / (0.8 * longest))), 2)


def detail_size_pt(diameter: float) -> float:  # noqa: ARG001 - asked as label_size_pt is; the floor answers
    return MIN_TEXT_PT  # the smallest type a token may carry (sheets/base/colors.py)


MARK_SCALE = 0.17  # a token's mark, of its diameter


def token_sheet(game: "Game", paper: Paper, copies: int = 1, filename: str | None = None,
                full_colour: bool = False) -> Sheet:
    """The game's token sheet (phase one: nothing is rendered here). Ink-saver style unless
    `full_colour` (issue 47: tokens for any printer): a light tint of each type's colour inside a
    ring of it, dark text, and each type's mark (sheets/kinds/tokens/shapes.py)."""
    if game.content["tokens"] is None:
        raise SheetsError(f"{game.info.title} has no tokens (no tokens.yaml)")
    sheet = game.content["tokens"]
    pages = layout_tokens(sheet, paper, copies)
    d = sheet.diameter_mm
    marks = shapes.marks_of(sheet)

    def mark_colour(token) -> str:
        if not token.color:
            return "#111111"
        return text_on(token.color) if full_colour else token.color
    styles = {t.id: {"label_pt": label_size_pt(t.label, d),
                     "mark": shapes.svg(marks[t.id], round(d * MARK_SCALE, 2), mark_colour(t))} for t in sheet.tokens}
    total = sum(len(p) for p in pages)
    context = {**style.of(game, band=False), 
        "title": sheet.title,
        "page_size": f"{paper.width_mm:g}mm {paper.height_mm:g}mm",
        "paper": paper,
        "pages": pages,
        "diameter": d,
        "detail_pt": detail_size_pt(d),
        "styles": styles,
        "full_colour": full_colour,
        "margin": MARGIN_MM,
        "footer": f"{game_titled(game.info.title, sheet.title)} · {total} tokens"
                  + (f" ({copies} copies)" if copies > 1 else "") + " · cut along the circles · warsheets",
    }
    suffix = f"-x{copies}" if copies > 1 else ""
    return Sheet(filename=filename or f"{game.id}-tokens{suffix}.pdf", template="tokens.html.j2",
                 context=context, game=game.id, templates=game.templates, label=f"{game.info.title} tokens")

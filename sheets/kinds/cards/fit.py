"""Body text fitted to its card (issue 47): each card's body set as large as its text allows,
between the card size's own size (never under the play floor) and a ceiling, so that a short
card does not leave two thirds of itself blank and a long one keeps the size it fits at.

Phase one lays nothing out, so the fit is an estimate of the lines a card's text makes at a
size (the condensed face's mean advance, each paragraph's last line whole), aimed at
`TARGET` of the card's text box: short of it on purpose, so that an estimate a little low
still leaves the text inside its card (the layout's pre-flight names a card that runs over).
A card with a table keeps the card size's size: a table's columns wrap by their widths.
"""
from __future__ import annotations

import math
import re

from sheets.library.blocks import Block
from sheets.library.kinds.cards import Card

PT_PER_MM = 72 / 25.4
CEILING_PT = 11.0
STEP_PT = 0.25
TARGET = 0.8           # of the text box a fitted body may fill (by the estimate)
ADVANCE_EM = 0.56      # DejaVu Sans Condensed's mean advance of running text (bold words included)
LINE = 1.1             # the card's line height
_MARKUP = re.compile(r"[*_`]")


def _lines(text: str, size_pt: float, width_mm: float) -> int:
    per_line = max(1, int(width_mm * PT_PER_MM / (size_pt * ADVANCE_EM)))
    return max(1, math.ceil(len(_MARKUP.sub("", text)) / per_line))


def _block_mm(block: Block, size_pt: float, width_mm: float) -> float:
    line_mm = size_pt * LINE / PT_PER_MM
    if block.h is not None:
        return line_mm * 0.95 + 1.3
    if block.p is not None:
        return _lines(block.p, size_pt, width_mm) * line_mm + 0.6
    if block.items is not None:
        return sum(_lines(item, size_pt, width_mm - 3) * line_mm + 0.2 for item in block.items) + 0.8
    if block.terms is not None:
        return sum(_lines(f"{t.term} {t.text}", size_pt, width_mm) * line_mm + 0.3 for t in block.terms)
    return math.inf  # a table: not fitted


def body_mm(card: Card, size_pt: float, width_mm: float) -> float:
    """The estimated height of a card's body (its blocks) at `size_pt`."""
    return sum(_block_mm(b, size_pt, width_mm) for b in card.blocks)


def fitted_pt(card: Card, base_pt: float, width_mm: float, height_mm: float) -> float:
    """The largest body size from `base_pt` up to the ceiling whose estimate fills at most
    TARGET of the body's room (`height_mm`: the text box less the head and the stats)."""
    if any(b.table is not None for b in card.blocks):
        return base_pt
    size = base_pt
    while size + STEP_PT <= CEILING_PT and body_mm(card, size + STEP_PT, width_mm) <= TARGET * height_mm:
        size += STEP_PT
    return round(size, 2)


def head_mm(card: Card, base_pt: float) -> float:
    """The head (title, subtitle) and the stats' row above the body, at the card size's size."""
    head = base_pt * 1.45 * 1.1 / PT_PER_MM + 2.7 + (base_pt * 0.86 * 1.18 / PT_PER_MM if card.subtitle else 0)
    return head + ((base_pt * (0.7 + 1.15) * 1.2 / PT_PER_MM + 2.2) if card.stats else 0)

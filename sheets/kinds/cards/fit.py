"""Body text fitted to its card (issue 47): each card's body set as large as its text allows,
between the card size's own size (never under the play floor) and a ceiling, so that a short
card does not leave half of itself blank and a long one keeps the size it fits at.

Phase one lays nothing out, so the fit is a model of the layout, close enough to aim at
`TARGET` of the card's text box: each paragraph broken into lines word by word with the bundled
condensed face's own advance widths (bold words in the bold face's), at the card template's
line height, margins and paddings (templates/_base/card.html.j2); a table's columns share the
width as an automatic table layout shares it (each its widest word at least, the rest by how
much it holds). TARGET stays short of the whole box, so that a model a little low still leaves
the text inside its card (the layout's pre-flight names a card that runs over).
"""
from __future__ import annotations

import math
import re
from functools import lru_cache

from sheets.base import fonts
from sheets.library.blocks import Block, TableBlock
from sheets.library.kinds.cards import Card
from sheets.library.kinds.notes import LOST_MARK

PT_PER_MM = 72 / 25.4
CEILING_PT = 11.0
STEP_PT = 0.25
TARGET = 0.92          # of the text box a fitted body may fill (by the model)
LINE = 1.1             # the card's line height (card.html.j2: html's line-height)
HEAD_SCALE = 0.9       # a block heading's size, of the body's (.bh)
TABLE_SCALE = 0.92     # a table's size, of the body's (table.rules)
LIST_INDENT_EM = 1.2   # a list's indent (.blocks ul: its bullet hangs inside the text box)
STAT_SCALE = 1.6       # a stat's value, of the card size's size (card.html.j2's --stat-size)
TIGHT_STAT_SCALE = 1.15  # ... on a card whose body needs the room at the card size's size
TABLE_SLACK = 1.12     # the layout engine's columns are wider (and so its rows shorter or taller) than the model's
WEAPON_INDENT_MM = 2.2  # the weapons' rule and its gap (card.html.j2 .weapons)
CELL_PAD_MM = 1.0      # a table cell's padding left and right (base.css: td, th)
_MARKUP = re.compile(r"`|\*+|(?<!\w)_|_(?!\w)")
_BOLD = re.compile(r"\*\*(.+?)\*\*")


@lru_cache(maxsize=2)
def _advances(bold: bool) -> tuple[dict[int, float], float]:
    """The condensed face's advance of each character, in em (and the face's mean, for a
    character it lacks)."""
    from fontTools.ttLib import TTFont  # noqa: PLC0415 - only a card set's fit needs it

    font = TTFont(fonts.face(fonts.CONDENSED, bold, False), lazy=True)
    units = font["head"].unitsPerEm
    metrics, cmap = font["hmtx"].metrics, font.getBestCmap()
    advances = {code: metrics[name][0] / units for code, name in cmap.items()}
    font.close()
    return advances, sum(advances.values()) / len(advances)


#: a lost value's write-in box (base.css .lost: at least 7 mm wide), in em of the smallest text
#: that carries one (7.5 pt): wider than its one character, as the layout draws it
LOST_BOX_EM = 7 * PT_PER_MM / 7.5 + 0.2


def text_em(text: str, bold: bool = False, spacing_em: float = 0.0) -> float:
    """How wide `text` is, in em of its size (no markup)."""
    advances, mean = _advances(bold)
    return sum((LOST_BOX_EM if ch == LOST_MARK else advances.get(ord(ch), mean)) + spacing_em for ch in text)


def _words(text: str, bold: bool = False) -> list[tuple[str, bool]]:
    """The words of a paragraph and whether each is bold (markdown's **...**)."""
    out: list[tuple[str, bool]] = []
    pos = 0
    for found in _BOLD.finditer(text):
        out += [(w, bold) for w in _MARKUP.sub("", text[pos:found.start()]).split()]
        out += [(w, True) for w in _MARKUP.sub("", found[1]).split()]
        pos = found.end()
    return out + [(w, bold) for w in _MARKUP.sub("", text[pos:]).split()]


def lines(text: str, size_pt: float, width_mm: float, bold: bool = False, upper: bool = False,
          spacing_em: float = 0.0) -> int:
    """How many lines `text` breaks into at `size_pt` in a box `width_mm` wide (greedy, as a
    browser breaks it; a word longer than the line takes a line of its own)."""
    return len(line_widths_mm(text, size_pt, width_mm, bold, upper, spacing_em))


def line_widths_mm(text: str, size_pt: float, width_mm: float, bold: bool = False, upper: bool = False,
                   spacing_em: float = 0.0) -> list[float]:
    """How wide each line of `text` is, broken as `lines` breaks it, in mm."""
    room = width_mm * PT_PER_MM / size_pt  # in em
    space = text_em(" ")
    widths, used = [], 0.0
    for word, heavy in _words(text, bold):
        w = text_em(word.upper() if upper else word, heavy or bold, spacing_em)
        if used and used + space + w > room:
            widths.append(used)
            used = w
        else:
            used = used + space + w if used else w
    widths.append(used)
    return [w * size_pt / PT_PER_MM for w in widths]


def line_reach_mm(text: str, size_pt: float, width_mm: float, bold: bool = False, upper: bool = False,
                  spacing_em: float = 0.0) -> list[float]:
    """How wide each line of `text` may be on the page: as `line_widths_mm` breaks it, or with the
    next line's first word too, where that still fits `width_mm` (the layout's advances are a shade
    different from these, so it may take one word more), at most `width_mm` or its one word."""
    room = width_mm * PT_PER_MM / size_pt  # in em
    space = text_em(" ")
    lines_em: list[list[float]] = [[]]
    for word, heavy in _words(text, bold):
        w = text_em(word.upper() if upper else word, heavy or bold, spacing_em)
        line = lines_em[-1]
        if line and sum(line) + space * len(line) + w > room:
            lines_em.append([w])
        else:
            line.append(w)
    out = []
    for i, line in enumerate(lines_em):
        width = sum(line) + space * (len(line) - 1)
        if i + 1 < len(lines_em):
            width = max(width, min(room, width + space + lines_em[i + 1][0]))
        out.append(width * size_pt / PT_PER_MM)
    return out


def _table_mm(table: TableBlock, size_pt: float, width_mm: float) -> float:
    """A table's height: header and rows, each as tall as its tallest cell (infinite when its
    words alone are wider than the card: a table's columns do not shrink under their words)."""
    rows = [[str(c) if c is not None else "" for c in table.header]]
    rows += [[str(c) if c is not None else "" for c in row] for row in table.rows]
    n = max(len(r) for r in rows)
    mm_per_em = size_pt / PT_PER_MM

    def widest(col: int, whole: bool) -> float:
        cells = [r[col] for r in rows if col < len(r)]
        if whole:
            return max((text_em(_MARKUP.sub("", c), i == 0) for i, c in enumerate(cells)), default=0.0)
        return max((text_em(w, True) for c in cells for w, _ in _words(c)), default=0.0)

    pad = 2 * CELL_PAD_MM
    least = [widest(c, False) * mm_per_em + pad for c in range(n)]
    most = [widest(c, True) * mm_per_em + pad for c in range(n)]
    if sum(least) * TABLE_SLACK > width_mm:
        return math.inf
    if sum(most) <= width_mm:
        widths = most
    else:
        spare = max(0.0, width_mm - sum(least))
        extra = [m - lo for m, lo in zip(most, least)]
        widths = [lo + spare * e / (sum(extra) or 1) for lo, e in zip(least, extra)]
    line_mm = size_pt * LINE / PT_PER_MM
    height = 0.0
    for i, row in enumerate(rows):
        tallest = max(lines(cell, size_pt, max(1.0, widths[c] - pad), bold=i == 0) for c, cell in enumerate(row))
        height += tallest * line_mm + 0.8 + 0.1  # padding 0.4 mm above and below, the hairline
    caption = (lines(table.caption, 7.0, width_mm, bold=True) * 7.0 * LINE / PT_PER_MM + 1.0) if table.caption else 0.0
    note = (lines(table.note, 7.0, width_mm) * 7.0 * LINE / PT_PER_MM + 0.6) if table.note else 0.0
    return caption + height * TABLE_SLACK + note + 1.7  # the table's margin 0.5 mm above, 1.2 mm below


def _block_mm(block: Block, size_pt: float, width_mm: float, floor_pt: float) -> tuple[float, float, float]:
    """(margin above, height, margin below) of a block, mm."""
    line_mm = size_pt * LINE / PT_PER_MM
    if block.h is not None:
        head_pt = max(floor_pt, size_pt * HEAD_SCALE)
        n = lines(block.h, head_pt, width_mm, bold=True, upper=True, spacing_em=0.06)
        return 1.0, n * head_pt * LINE / PT_PER_MM + 0.15, 0.3
    if block.p is not None:
        return 0.0, lines(block.p, size_pt, width_mm) * line_mm, 0.6
    if block.items is not None:
        indent = LIST_INDENT_EM * size_pt / PT_PER_MM
        body = sum(lines(item, size_pt, width_mm - indent) * line_mm + 0.2 for item in block.items)
        return 0.0, body, 0.8
    if block.terms is not None:
        body = sum(lines(f"**{t.term}** {t.text}", size_pt, width_mm) * line_mm + 0.3 for t in block.terms)
        return 0.0, body, 0.0
    assert block.table is not None
    return 0.0, _table_mm(block.table, max(floor_pt, size_pt * TABLE_SCALE), width_mm), 0.0


def weapon_text(weapon) -> str:
    """A weapon's line as it prints: its name, then each number with its label."""
    stats = " · ".join(f"{s.label} {s.value if s.value is not None else '—'}".strip() for s in weapon.stats or [])
    return f"**{weapon.name}** {stats}"


def body_mm(card: Card, size_pt: float, width_mm: float, floor_pt: float = 7.5) -> float:
    """The modelled height of a card's body (its weapons, its blocks) at `size_pt`, adjacent margins
    collapsed."""
    line_mm = size_pt * LINE / PT_PER_MM
    total = sum(lines(weapon_text(w), size_pt, width_mm - WEAPON_INDENT_MM) * line_mm + 0.5 for w in card.weapons)
    below = 1.2 if card.weapons else 0.0
    for block in card.blocks:
        above, height, after = _block_mm(block, size_pt, width_mm, floor_pt)
        total += max(above, below) + height
        below = after
    return total + below


def fitted_pt(card: Card, base_pt: float, width_mm: float, height_mm: float, ceiling_pt: float = CEILING_PT) -> float:
    """The largest body size from `base_pt` up to the ceiling whose model fills at most
    TARGET of the body's room (`height_mm`: the text box less the head and the stats)."""
    size = base_pt
    while size + STEP_PT <= ceiling_pt and body_mm(card, size + STEP_PT, width_mm, base_pt) <= TARGET * height_mm:
        size += STEP_PT
    return round(size, 2)


def head_mm(card: Card, base_pt: float, width_mm: float, stat_scale: float = STAT_SCALE) -> float:
    """The head (title, subtitle) and the stats' row above the body, at the card size's size."""
    title_pt = base_pt * 1.45
    head = lines(card.title, title_pt, width_mm - 2.8, bold=True) * title_pt * LINE / PT_PER_MM + 2.5
    if card.subtitle:
        head += lines(card.subtitle, base_pt * 0.86, width_mm - 2.8) * base_pt * 0.86 * 1.18 / PT_PER_MM + 0.2
    if not card.stats:
        return head
    label_pt, value_pt = max(7.5, base_pt * 0.7), base_pt * stat_scale
    rows = _stat_rows(card, label_pt, value_pt, width_mm)
    return head + rows * ((label_pt + value_pt) * LINE / PT_PER_MM + 0.5 + 0.8) + 0.3


def _stat_rows(card: Card, label_pt: float, value_pt: float, width_mm: float) -> int:
    """How many rows the stats' cells wrap into (each as wide as its label or its value)."""
    rows, used = 1, 0.0
    for stat in card.stats:
        w = max(text_em(stat.label.upper(), False, 0.03) * label_pt, text_em(str(stat.value or "–"), True) * value_pt)
        w = w / PT_PER_MM + 2.0 + 0.4 + 0.8
        if used and used + w > width_mm:
            rows, used = rows + 1, w
        else:
            used += w
    return rows

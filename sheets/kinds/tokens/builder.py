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
from sheets.kinds.cards.fit import line_reach_mm
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
LARGE_PRINT_HEAD_MM = 9.0  # the head's taller lines in large print (its title and the check bars' note wrap)
#: the head's title beside the check bars (tokens.html.j2 .thead: 11 pt in the game's title face,
#: the bars and their labels floated right): the room it has, and an em per character no title
#: face exceeds on average (IBM 3270, the widest, 0.6), so a title that may wrap gets its second line
CHECK_BARS_MM, TITLE_PT, TITLE_EM_PER_CHAR = 118.0, 11.0, 0.62
TITLE_LINE_MM = 4.5


def head_mm(title: str, paper: Paper, large_print: bool) -> float:
    """How tall the sheet's head is: its title's line (two when the title may wrap beside the
    check bars: the Platoon markers' title ran into the first row of tokens), more in large print."""
    room = paper.width_mm - 2 * MARGIN_MM - CHECK_BARS_MM
    wraps = len(title) * TITLE_EM_PER_CHAR * TITLE_PT / PT_PER_MM > room
    return HEADER_MM + (TITLE_LINE_MM if wraps else 0.0) + (LARGE_PRINT_HEAD_MM if large_print else 0.0)


@dataclass(frozen=True)
class PlacedToken:
    token: Token
    x_mm: float  # centre, from the paper's left edge
    y_mm: float  # centre, from the paper's top edge


@dataclass(frozen=True)
class TokenGrid:
    paper: Paper
    diameter: float
    header_mm: float = HEADER_MM

    @property
    def columns(self) -> int:
        usable = self.paper.width_mm - 2 * MARGIN_MM
        return max(0, math.floor((usable + GAP_MM) / (self.diameter + GAP_MM)))

    @property
    def rows(self) -> int:
        usable = self.paper.height_mm - 2 * MARGIN_MM - self.header_mm - FOOTER_MM
        return max(0, math.floor((usable + GAP_MM) / (self.diameter + GAP_MM)))

    @property
    def per_page(self) -> int:
        return self.columns * self.rows

    def centre(self, slot: int) -> tuple[float, float]:
        col, row = slot % self.columns, slot // self.columns
        pitch = self.diameter + GAP_MM
        width = self.columns * pitch - GAP_MM
        left = (self.paper.width_mm - width) / 2
        top = MARGIN_MM + self.header_mm
        return left + col * pitch + self.diameter / 2, top + row * pitch + self.diameter / 2


def layout_tokens(sheet: TokenSheet, paper: Paper, copies: int = 1, header_mm: float = HEADER_MM) -> list[list[PlacedToken]]:
    """Every token (count x copies of each), in content order, placed on pages below a head
    `header_mm` tall."""
    if not 1 <= copies <= MAX_COPIES:
        raise SheetsError(f"--copies must be 1 to {MAX_COPIES}, not {copies}")
    grid = TokenGrid(paper, sheet.diameter_mm, header_mm)
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


#: how close a token's letters may come to its cut circle
CUT_CLEARANCE_MM = 0.5
#: tokens.html.j2's face: line height, the gap under the mark and above the detail
_LINE, _UNDER_MARK_MM, _OVER_DETAIL_MM = 1.08, 0.5, 0.4
#: where a line's letters sit in its box (DejaVu at line height 1.08, in em of its size): the
#: capitals' tops and the baseline (descenders: a little under it)
_CAPS_EM, _FOOT_EM = 0.156, 1.09


@dataclass(frozen=True)
class TokenText:
    """How a token's words are set: the label's size, the width of the box its lines break in,
    and whether every line, centred in the circle as the template centres it, stays
    CUT_CLEARANCE_MM inside the cut."""
    label_pt: float
    box_mm: float
    fits: bool


def token_text(token: Token, diameter: float, floor_pt: float = MIN_TEXT_PT) -> TokenText:
    """The widest box (and the label's largest size, down to the floor) in which the mark, the
    label and the detail all stay inside the circle: a detail of several lines needs a narrower
    box near the circle's top and bottom, which the box of 3/4 of the diameter ignored (the
    Platoon orders' reminders ran 1 mm through the cut). Not `fits`: the box that runs out least."""
    radius = diameter / 2 - CUT_CLEARANCE_MM
    mark = round(diameter * MARK_SCALE, 2)
    best: tuple[float, float, float] | None = None  # (overrun, -size, -box)
    size = max(floor_pt, label_size_pt(token.label, diameter))
    detail_pt = floor_pt  # the template's max(var(--play-floor), the detail's size): the floor
    widest = diameter - 2 * CUT_CLEARANCE_MM - 1.0  # the chord through the centre, less a margin
    while True:
        for step in range(0, int(widest * 0.6 / 0.25) + 1):  # down to 40 % of it
            box = widest - 0.25 * step
            rows: list[tuple[float, float, float | None]] = [(mark, mark + _UNDER_MARK_MM, None)]  # (width, height, size of its letters)
            label = _lines(token.label, size, box, bold=True, upper=True, spacing_em=0.02)
            rows += [(w, size * _LINE / PT_PER_MM, size) for w in label]
            detail = _lines(token.detail, detail_pt, box) if token.detail else []
            if detail:
                rows.append((0.0, _OVER_DETAIL_MM, None))
                rows += [(w, detail_pt * _LINE / PT_PER_MM, detail_pt) for w in detail]
            top = -sum(h for _, h, _ in rows) / 2
            overrun = 0.0
            for width, height, pt in rows:
                edges = (top, top + height) if pt is None else (
                    top + _CAPS_EM * pt / PT_PER_MM, top + _FOOT_EM * pt / PT_PER_MM)
                for y in edges:
                    overrun = max(overrun, math.hypot(width / 2, y) - radius)
                top += height
            # a word wider than the box widens its line (a table cell grows), never the reverse
            wider = max(label + detail, default=0.0) - box
            key = (max(overrun, 0.0) + max(wider, 0.0), -size, -box)
            if best is None or key < best:
                best = key
            if key[0] <= 0:
                return TokenText(size, round(box, 2), True)
        if size <= floor_pt:
            break
        size = max(floor_pt, round(size - 0.5, 2))
    assert best is not None  # the loop above tries one box at least
    return TokenText(-best[1], round(-best[2], 2), False)


def _lines(text: str, size_pt: float, box: float, **face) -> list[float]:
    """The lines of `text` in a box `box` mm wide, as many as the layout may break it into and
    each as wide as it may be there (the model's advances are the face's, the layout's a shade
    different, its quotes typographic: a line the model fills to the last tenth of a millimetre
    may break a word earlier on the page, or take one more): broken 0.4 mm narrower, each line
    with the next one's first word where the box takes it."""
    return line_reach_mm(text, size_pt, box - 0.4, **face)


def detail_size_pt(diameter: float) -> float:  # noqa: ARG001 - asked as label_size_pt is; the floor answers
    return MIN_TEXT_PT  # the smallest type a token may carry (sheets/base/colors.py)


MARK_SCALE = 0.17  # a token's mark, of its diameter


def large_print_diameter(sheet: TokenSheet, floor_pt: float) -> float:
    """The diameter the large-print edition cuts a sheet's tokens at: the content's, or the
    next whole millimetre up at which every token's words, at the edition's floor, stay inside
    its circle (its 7.5 pt reminders at 12 pt need half as wide a circle again)."""
    d = sheet.diameter_mm
    while d < sheet.diameter_mm * 3 and not all(token_text(t, d, floor_pt).fits for t in sheet.tokens):
        d = math.floor(d) + 1.0
    return d


def token_sheet(game: "Game", paper: Paper, copies: int = 1, filename: str | None = None,
                full_colour: bool = False, large_print: bool = False) -> Sheet:
    """The game's token sheet (phase one: nothing is rendered here). Ink-saver style unless
    `full_colour` (issue 47: tokens for any printer): a light tint of each type's colour inside a
    ring of it, dark text, and each type's mark (sheets/kinds/tokens/shapes.py). `large_print`:
    the tokens as large as their words need at the edition's floor (`large_print_diameter`);
    the caller still makes the sheet large print (style.large_print)."""
    if game.content["tokens"] is None:
        raise SheetsError(f"{game.info.title} has no tokens (no tokens.yaml)")
    sheet = game.content["tokens"]
    floor = game.content["theme"].base.large_print.floor_pt if large_print else MIN_TEXT_PT
    d = large_print_diameter(sheet, floor) if large_print else sheet.diameter_mm
    if d != sheet.diameter_mm:
        sheet = sheet.model_copy(update={"diameter_mm": d})
    # the head (title, check bars and their note) at the large-print floor: two lines of 12 pt more
    pages = layout_tokens(sheet, paper, copies, head_mm(sheet.title, paper, large_print))
    marks = shapes.marks_of(sheet)

    def mark_colour(token) -> str:
        if not token.color:
            return "#111111"
        return text_on(token.color) if full_colour else token.color
    texts = {t.id: token_text(t, d, floor) for t in sheet.tokens}
    styles = {t.id: {"label_pt": texts[t.id].label_pt, "pad_mm": round((d - texts[t.id].box_mm) / 2, 2),
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

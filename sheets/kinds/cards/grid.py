"""Where the cards go on paper: the n-up grid of one paper page, in millimetres.

`CardGrid` places the cards of one paper page (and their backs, for duplex
printing) and draws the crop marks; `fold_grid` is the grid of one half of a
landscape sheet for fold-over cards. Plain data: no PDF work here (see impose.py).
"""
from __future__ import annotations

from dataclasses import dataclass

from sheets.base.errors import SheetsError
from sheets.library.kinds.cards import Layout, PrintGeometry

FOLD_MARGIN_MM = 5.0  # cards keep this far from the paper's edges and from the fold line
SAFE_EDGE_MM = 5.5  # crop marks stop this far inside the paper edge (a printer inks nothing closer than about 5 mm)


@dataclass(frozen=True)
class CardGrid:
    """Where the cards of one paper page go. All lengths in mm; the origin is the
    paper's lower-left corner (PDF's convention), slots run in reading order."""

    paper_w: float
    paper_h: float
    card_w: float
    card_h: float
    columns: int
    rows: int
    bleed: float = 0.0
    gutter: float = 0.0

    @classmethod
    def from_layout(cls, geometry: PrintGeometry, layout: Layout) -> "CardGrid":
        paper, card = geometry.papers[layout.paper], geometry.card_sizes[layout.card]
        return cls(paper.width_mm, paper.height_mm, card.width_mm, card.height_mm,
                   layout.columns, layout.rows, layout.bleed_mm, layout.gutter_mm)

    @property
    def per_page(self) -> int:
        return self.columns * self.rows

    @property
    def cell_w(self) -> float:
        return self.card_w + 2 * self.bleed

    @property
    def cell_h(self) -> float:
        return self.card_h + 2 * self.bleed

    def slot(self, index: int) -> tuple[float, float]:
        """Lower-left corner of the cut (trim) box of slot `index`; the grid is centred."""
        col, row = index % self.columns, index // self.columns
        grid_w = self.columns * self.cell_w + (self.columns - 1) * self.gutter
        grid_h = self.rows * self.cell_h + (self.rows - 1) * self.gutter
        left = (self.paper_w - grid_w) / 2
        top = (self.paper_h + grid_h) / 2
        x = left + col * (self.cell_w + self.gutter) + self.bleed
        y = top - row * (self.cell_h + self.gutter) - self.cell_h + self.bleed
        return x, y

    def flips_about_vertical_axis(self, duplex: str) -> bool:
        """Whether duplex printing turns the sheet over about a vertical axis.

        `long` flips about the paper's long edge, `short` about its short edge; on
        portrait paper the long edge is vertical, on landscape paper horizontal.
        """
        portrait = self.paper_h >= self.paper_w
        return (duplex == "long") == portrait

    def back_slot(self, index: int, duplex: str) -> tuple[float, float, bool]:
        """Where the back of the card in slot `index` goes on the back page: the trim
        box's lower-left corner, and whether the back is turned 180 degrees.

        Turned over about a vertical axis, the point (x, y) of the front lies behind
        (W - x, y) of the back page; about a horizontal axis, behind (x, H - y). A cut
        card is turned over side to side, so in the second case each back is also
        rotated 180 degrees to read upright (sheet flip and card flip differ by a
        half turn). tests/test_cards.py checks both cases on the PDF.
        """
        x, y = self.slot(index)
        if self.flips_about_vertical_axis(duplex):
            return self.paper_w - x - self.card_w, y, False
        return x, self.paper_h - y - self.card_h, True

    def crop_marks(self, count: int, length: float, offset: float) -> list[tuple[float, float, float, float]]:
        """Crop mark segments (x1, y1, x2, y2) for the first `count` slots.

        From each corner of each card a mark runs outward along both cut lines,
        starting `offset` beyond the bleed. A mark stops where it would enter any
        card's bleed box or leave the paper, so abutting cards get marks only in the
        margins, and cards with gutters get them in the gutters too.
        """
        eps = 0.01
        boxes = []
        for i in range(count):
            x, y = self.slot(i)
            boxes.append((x - self.bleed - eps, y - self.bleed - eps,
                          x + self.card_w + self.bleed + eps, y + self.card_h + self.bleed + eps))
        marks: dict[tuple, tuple] = {}
        for i in range(count):
            x, y = self.slot(i)
            for cx, dx in ((x, -1), (x + self.card_w, 1)):
                for cy, dy in ((y, -1), (y + self.card_h, 1)):
                    for ux, uy in ((dx, 0), (0, dy)):
                        seg = self._clip(cx, cy, ux, uy, self.bleed + offset, length, boxes)
                        if seg is not None:
                            marks[tuple(round(v, 3) for v in seg)] = seg
        return [marks[k] for k in sorted(marks)]

    def _clip(self, cx, cy, ux, uy, start, length, boxes):
        """The part of the ray cx,cy + t*(ux,uy), t in [start, start+length], before any box."""
        lo, hi = start, start + length
        # stay SAFE_EDGE_MM inside the paper: no printer inks its outermost millimetres
        if ux:
            hi = min(hi, ((self.paper_w - cx) if ux > 0 else cx) - SAFE_EDGE_MM)
        else:
            hi = min(hi, ((self.paper_h - cy) if uy > 0 else cy) - SAFE_EDGE_MM)
        for x0, y0, x1, y1 in boxes:
            if ux:
                if not y0 < cy < y1:
                    continue
                enter = (x0 - cx) if ux > 0 else (cx - x1)
                leave = (x1 - cx) if ux > 0 else (cx - x0)
            else:
                if not x0 < cx < x1:
                    continue
                enter = (y0 - cy) if uy > 0 else (cy - y1)
                leave = (y1 - cy) if uy > 0 else (cy - y0)
            if leave <= lo:
                continue  # box lies behind the mark
            if enter <= lo:
                return None  # the mark would start inside a card
            hi = min(hi, enter)
        if hi - lo < 1.0:  # shorter than a millimetre: no use to cut by
            return None
        return (cx + ux * lo, cy + uy * lo, cx + ux * hi, cy + uy * hi)


def fold_grid(geometry: PrintGeometry, layout: Layout, paper: str) -> CardGrid:
    """The grid of one half of a landscape sheet, for fold-over cards.

    The sheet is `paper` turned landscape; fronts fill its left half and backs its right
    half, so the fold runs down the middle. As many cards as fit the half, keeping
    FOLD_MARGIN_MM from the edges and the fold.
    """
    size = geometry.card_sizes[layout.card]
    name = paper if paper.endswith("-landscape") else f"{paper}-landscape"
    if name not in geometry.papers:
        raise SheetsError(f"--fold needs a landscape paper {name!r} (sheets/base/paper.py)")
    sheet = geometry.papers[name]
    half_w, height = sheet.width_mm / 2, sheet.height_mm
    cell_w, cell_h = size.width_mm + 2 * layout.bleed_mm, size.height_mm + 2 * layout.bleed_mm
    room_w, room_h = half_w - 2 * FOLD_MARGIN_MM, height - 2 * FOLD_MARGIN_MM
    columns = int((room_w + layout.gutter_mm) // (cell_w + layout.gutter_mm))
    rows = int((room_h + layout.gutter_mm) // (cell_h + layout.gutter_mm))
    if columns < 1 or rows < 1:
        raise SheetsError(f"--fold: a {layout.card} card ({size.width_mm:g}×{size.height_mm:g} mm) does not fit "
                          f"on half a {name} sheet; print it two-sided with --backs instead")
    return CardGrid(half_w, height, size.width_mm, size.height_mm, columns, rows, layout.bleed_mm, layout.gutter_mm)

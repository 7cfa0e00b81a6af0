"""Pre-flight and n-up imposition: the finish step of a card sheet (pikepdf).

Pre-flight: a card whose text does not fit runs onto a second page. Each card
carries an anchor id, which WeasyPrint writes as a named destination, so the page
each card starts on tells which card ran over; that is an error naming the card,
never a card silently cut off.

Imposition: each card page becomes a Form XObject (its box the card page's MediaBox, bleed and
all) that paper pages place with a `cm` matrix computed from the layout (`CardGrid`), then crop
marks are drawn as plain PDF paths outside the cut lines. With backs, a back page follows each
front page, laid out so that duplex printing puts card k's back behind card k. The sheet is
written by the stamped files' tagged writer (sheets.pdf.tagged): each card drawn is one `Div` of
the structure tree, its page's elements in it; a card drawn again is an artifact.
"""
from __future__ import annotations

import io
import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace
from typing import ClassVar

from sheets.base import interrupts
from sheets.base.errors import SheetsError
from sheets.kinds.cards.grid import SAFE_EDGE_MM, CardGrid
from sheets.pdf import tagged
from sheets.pdf.tagged import TaggedPdf

with interrupts.held():  # a Ctrl-C while pikepdf registers its C++ types aborts the process
    import pikepdf
    from pikepdf import Array, Dictionary

MM = 72 / 25.4  # PDF points per millimetre
IMPOSITION_VERSION = "7"  # bump when imposition output changes for the same input
#: the names of the forms a paper page draws: a card's front and its back (each one card, tagged as a unit)
FRONT, BACK = "/Card", "/Back"


class CardOverflowError(SheetsError):
    """A card's text does not fit on its card."""


@dataclass(frozen=True)
class Imposition:
    """The finish step of a card sheet: pre-flight, then n-up imposition.

    Plain data (it pickles into worker processes); `key` names all of it.
    """

    set_id: str
    set_title: str
    size_name: str
    cards: tuple[tuple[str, str], ...]   # (id, title) of every card, in order
    back_of: tuple[int, ...] | None      # per card: which back page it gets (None: no backs)
    back_names: tuple[str, ...]          # per back page: what it is, for messages
    grid: CardGrid
    duplex: str = "long"
    crop_marks: bool = True
    mark_length: float = 4.0
    mark_offset: float = 1.0
    title: str = ""
    copies: int = 1
    back_offset: tuple[float, float] = (0.0, 0.0)  # mm, added to every back on its page (x right, y up)
    fold: bool = False  # fronts on the left half, backs mirrored on the right half, fold line between
    counts: tuple[int, ...] | None = None  # per card: its copies in the deck (its `count`); None: one each
    # a card whose text runs over its card continues on the next card (the large-print edition:
    # 12 pt text is printed whole, never refused for want of room); else it is an error
    continued: bool = False
    # per card: the set it is of, when several sets share the sheet (builder.decks_sheet); None: `set_id`
    sets_of: tuple[str, ...] | None = None
    #: what it returns is tagged and its words marked already (sheets.pdf.tagged): the last pass
    #: (sheets.pdf.finish) only describes and repairs it. Not data: not in `key`
    writes_tagged: ClassVar[bool] = True

    @property
    def key(self) -> str:
        return IMPOSITION_VERSION + json.dumps(asdict(self), sort_keys=True)

    def __call__(self, pdf: bytes) -> bytes:
        with pikepdf.open(io.BytesIO(pdf)) as cards:
            runs = preflight(cards, self)
            return impose(cards, self.with_continuations(runs))

    def reflowed(self) -> "Imposition":
        """The same imposition, with cards that run over continued on the next card."""
        return replace(self, continued=True)

    def with_continuations(self, runs: list[int]) -> "Imposition":
        """Each card that runs to N card pages as N cards in a row (the same back and count):
        the card document's front pages are then one card each, as `impose` places them."""
        if all(run == 1 for run in runs):
            return self
        cards, back_of, counts, sets_of = [], [], [], []
        for i, ((cid, title), run) in enumerate(zip(self.cards, runs)):
            for k in range(run):
                cards.append((cid if k == 0 else f"{cid} ({k + 1})", title if k == 0 else f"{title} (continued)"))
                back_of.append(self.back_of[i] if self.back_of is not None else 0)
                counts.append(self.counts[i] if self.counts is not None else 1)
                sets_of.append(self.sets_of[i] if self.sets_of is not None else self.set_id)
        return replace(self, cards=tuple(cards), back_of=tuple(back_of) if self.back_of is not None else None,
                       counts=tuple(counts) if self.counts is not None else None,
                       sets_of=tuple(sets_of) if self.sets_of is not None else None)


def _anchors(spec: Imposition) -> list[tuple[str, str]]:
    """(anchor, description) of every page the card document must have, in order."""
    size = f"{spec.size_name} card ({spec.grid.card_w:g}×{spec.grid.card_h:g} mm)"
    sets_of = spec.sets_of or (spec.set_id,) * len(spec.cards)
    out = [(f"card-{i}", f"card {cid!r} ({title}) of set {set_id!r} does not fit on a {size}")
           for i, ((cid, title), set_id) in enumerate(zip(spec.cards, sets_of))]
    out += [(f"back-{j}", f"{name}{'' if spec.sets_of else f' of set {spec.set_id!r}'} does not fit on a {size}")
            for j, name in enumerate(spec.back_names)]
    return out


def _starts(cards: pikepdf.Pdf) -> dict[str, int]:
    """The page (0-based) each named destination of the card document points to (WeasyPrint
    writes an anchor id as a destination in the catalog's /Names /Dests tree)."""
    index = {page.obj.objgen: i for i, page in enumerate(cards.pages)}
    names = cards.Root.get("/Names")
    if names is None or "/Dests" not in names:
        return {}
    starts = {}
    for name, dest in pikepdf.NameTree(names.Dests).items():
        target = dest.get("/D") if isinstance(dest, Dictionary) else dest
        if isinstance(target, Array) and len(target) and isinstance(target[0], Dictionary):
            starts[str(name)] = index.get(target[0].objgen, -1)
    return starts


def preflight(cards: pikepdf.Pdf, spec: Imposition) -> list[int]:
    """Every card and back must be exactly one page of the card's size (a card may run to more with
    `spec.continued`); the number of card pages of each card."""
    total = len(cards.pages)
    starts = _starts(cards)
    wanted = _anchors(spec)
    missing = [a for a, _ in wanted if a not in starts]
    if missing:
        raise SheetsError(f"the card template lost the anchors {', '.join(missing[:3])}: every card "
                          f"and back must keep its id (see templates/_base/card.html.j2)")
    order = sorted((starts[a], a) for a, _ in wanted)
    problems = []
    runs = {}
    for k, (page, anchor) in enumerate(order):
        end = order[k + 1][0] if k + 1 < len(order) else total
        runs[anchor] = end - page
        if end - page > 1 and not (spec.continued and anchor.startswith("card-")):
            why = dict(wanted)[anchor]
            problems.append(f"{why}: its text runs to {end - page} cards")
    if problems:
        raise CardOverflowError("\n".join(problems) + "\nshorten the text or choose a bigger card size "
                                "(`size:` in the card set, or --layout; see `sheets layouts`)")
    if total != sum(runs.values()):
        raise SheetsError(f"the card document of set {spec.set_id!r} has {total} pages "
                          f"for {len(wanted)} cards and backs")
    want_w, want_h = spec.grid.cell_w * MM, spec.grid.cell_h * MM
    for i in range(total):
        x0, y0, x1, y1 = (float(v) for v in cards.pages[i].mediabox)
        if abs(x1 - x0 - want_w) > 0.1 or abs(y1 - y0 - want_h) > 0.1:
            raise SheetsError(f"card page {i + 1} of set {spec.set_id!r} is {(x1 - x0) / MM:.1f}×"
                              f"{(y1 - y0) / MM:.1f} mm, not the card size with bleed "
                              f"({spec.grid.cell_w:g}×{spec.grid.cell_h:g} mm): check the card template's @page")
    return [runs[f"card-{i}"] for i in range(len(spec.cards))]


def _paper_page(out: TaggedPdf, grid: CardGrid, placements: list[tuple[str, tuple[str, int], str]],
                marks: list[tuple], fold_at: float | None = None, trims: Sequence[tuple[float, float]] = ()) -> None:
    """Add one paper page: `placements` are (XObject name, a card page as `out.form` made it,
    cm operands), `trims` the lower-left trim corners (mm) of the cards placed. Each card drawn
    is one unit of the page's structure (sheets.pdf.tagged: `add_units_page`).

    With `fold_at` (mm from the left), the page is twice the grid's width and gets a
    dashed fold line there.
    """
    width = grid.paper_w * (2 if fold_at is not None else 1)
    ops = []
    # crop marks and the fold line are page furniture: artifacts, outside the structure tree
    if marks:
        ops.append("/Artifact <</Type /Layout>> BDC q 0 0 0 RG 0.3 w 0 J [] 0 d")
        ops += [f"{x1 * MM:.3f} {y1 * MM:.3f} m {x2 * MM:.3f} {y2 * MM:.3f} l" for x1, y1, x2, y2 in marks]
        ops.append("S Q EMC")
    if fold_at is not None:
        # the fold line keeps inside the inked area too (SAFE_EDGE_MM from the paper's edge)
        ops.append(f"/Artifact <</Type /Layout>> BDC q 0.35 0.35 0.35 RG 0.5 w [3 2] 0 d {fold_at * MM:.3f} "
                   f"{SAFE_EDGE_MM * MM:.3f} m {fold_at * MM:.3f} {(grid.paper_h - SAFE_EDGE_MM) * MM:.3f} l S Q EMC")
    out.add_units_page((width * MM, grid.paper_h * MM), placements, "\n".join(ops).encode("ascii"),
                       _boxes(grid, trims, width))


def _boxes(grid: CardGrid, trims: Sequence[tuple[float, float]], width: float) -> dict:
    """TrimBox: the cut lines around the cards placed on this page (`trims`: each card's
    lower-left trim corner, mm); with bleed, a BleedBox that far beyond them. Both stay
    inside the MediaBox (0 0 `width` paper_h); a page without cards is trimmed at its edges."""
    if not trims:
        return {"/TrimBox": [0, 0, round(width * MM, 3), round(grid.paper_h * MM, 3)]}
    x0 = max(0.0, min(x for x, _ in trims))
    y0 = max(0.0, min(y for _, y in trims))
    x1 = min(width, max(x for x, _ in trims) + grid.card_w)
    y1 = min(grid.paper_h, max(y for _, y in trims) + grid.card_h)

    def box(pad: float) -> list:
        return [round(v * MM, 3) for v in (
            max(0.0, x0 - pad), max(0.0, y0 - pad), min(width, x1 + pad), min(grid.paper_h, y1 + pad))]

    return {"/TrimBox": box(0), **({"/BleedBox": box(grid.bleed)} if grid.bleed > 0 else {})}


def _cm(x_mm: float, y_mm: float, bleed: float, rotated: bool, grid: CardGrid) -> str:
    """The matrix that puts a card page (trim box + bleed) with its trim box at x, y."""
    if not rotated:
        return f"1 0 0 1 {(x_mm - bleed) * MM:.4f} {(y_mm - bleed) * MM:.4f}"
    # turned half round about the origin, then moved so the cell covers the same box
    return f"-1 0 0 -1 {(x_mm + grid.card_w + bleed) * MM:.4f} {(y_mm + grid.card_h + bleed) * MM:.4f}"


def impose(cards: pikepdf.Pdf, spec: Imposition) -> bytes:
    """Place the card pages n-up on paper pages (fronts, then each front page's backs).

    A card of `count` N is placed N times, each beside the last; `copies` repeats the whole
    set; `back_offset` shifts every back on its page; `fold`
    puts each back beside its front (mirrored about the fold line) on the same page.
    """
    grid = spec.grid
    buf = io.BytesIO()
    out = TaggedPdf(buf, spec.title or spec.set_title)
    n = len(spec.cards)
    # each card page a form (its whole page, bleed and all), its structure carried (sheets.pdf.carried)
    fronts = [out.form("cards", cards, i, group=False) for i in range(n)]
    backs = [out.form("cards", cards, n + j, group=False) for j in range(len(spec.back_names))]
    counts = spec.counts or (1,) * n
    order = [k for _ in range(spec.copies) for k in range(n) for _ in range(counts[k])]
    ox, oy = spec.back_offset
    for first in range(0, len(order), grid.per_page):
        on_page = order[first:first + grid.per_page]
        placements, trims = [], []
        for slot, k in enumerate(on_page):
            x, y = grid.slot(slot)
            placements.append((f"{FRONT}{slot}", fronts[k], _cm(x, y, grid.bleed, False, grid)))
            trims.append((x, y))
        marks = grid.crop_marks(len(on_page), spec.mark_length, spec.mark_offset) if spec.crop_marks else []
        if spec.fold and spec.back_of is not None:  # a fold sheet always has its backs (builder.card_sheet)
            full_w = 2 * grid.paper_w
            for slot, k in enumerate(on_page):
                x, y = grid.slot(slot)
                placements.append((f"{BACK}{slot}", backs[spec.back_of[k]],
                                   _cm(full_w - x - grid.card_w, y, grid.bleed, False, grid)))
                trims.append((full_w - x - grid.card_w, y))
            marks = marks + [(full_w - x1, y1, full_w - x2, y2) for x1, y1, x2, y2 in marks]
            _paper_page(out, grid, placements, marks, fold_at=grid.paper_w, trims=trims)
            continue
        _paper_page(out, grid, placements, marks, trims=trims)
        if spec.back_of is not None:
            placements, trims = [], []
            for slot, k in enumerate(on_page):
                x, y, rotated = grid.back_slot(slot, spec.duplex)
                j = spec.back_of[k]
                placements.append((f"{BACK}{slot}", backs[j], _cm(x + ox, y + oy, grid.bleed, rotated, grid)))
                trims.append((x + ox, y + oy))
            _paper_page(out, grid, placements, [], trims=trims)
    out.close()  # the card document's objects copied: written while it is open
    tagged.forget(cards)
    return buf.getvalue()

"""Cards: a card set rendered one card per page, checked for overflow, imposed n-up.

1. Render. Every card of a set becomes one PDF page of exactly its card size plus
   bleed (`card.html.j2`, one HTML document per set, so WeasyPrint loads the fonts
   once). Backs, when asked for, follow the fronts in the same document.
2. Pre-flight. A card whose text does not fit runs onto a second page. Each card
   carries an anchor id, which WeasyPrint writes as a named destination, so the page
   each card starts on tells which card ran over; that is an error naming the card,
   never a card silently cut off.
3. Impose. Each card page becomes a Form XObject that paper pages place with a `cm`
   matrix computed from the layout (`CardGrid`), then crop marks are drawn as plain
   PDF paths outside the cut lines. With backs, a back page follows each front page,
   laid out so that duplex printing puts card k's back behind card k.

Steps 2 and 3 are the sheet's `finish` step (see build.py): they run on WeasyPrint's
PDF in the same worker, are deterministic, and take part in the cache key.
"""
from __future__ import annotations

import io
import json
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING

from sheets.errors import SheetsError
from sheets.printables import CardBack, CardSet, Layout, PrintGeometry
from sheets.rendering import game_titled

if TYPE_CHECKING:
    from sheets.build import Sheet
    from sheets.library import Game

MM = 72 / 25.4  # PDF points per millimetre
DUPLEX = ("long", "short")
IMPOSITION_VERSION = "2"  # bump when imposition output changes for the same input


MAX_COPIES = 50
MAX_BACK_OFFSET_MM = 20.0
FOLD_MARGIN_MM = 5.0  # cards keep this far from the paper's edges and from the fold line


def parse_back_offset(text: str | None) -> tuple[float, float]:
    """`--back-offset X,Y` in millimetres: '1.5,-0.5' -> (1.5, -0.5)."""
    if text is None or not str(text).strip():
        return 0.0, 0.0
    parts = [p.strip() for p in str(text).split(",")]
    try:
        x, y = (float(p) for p in parts)
    except ValueError:
        raise SheetsError(f"--back-offset {text!r}: give two numbers in millimetres, X,Y (e.g. 1.5,-0.5)") from None
    if abs(x) > MAX_BACK_OFFSET_MM or abs(y) > MAX_BACK_OFFSET_MM:
        raise SheetsError(f"--back-offset {text!r}: each shift must be at most {MAX_BACK_OFFSET_MM:g} mm")
    return x, y


class CardOverflowError(SheetsError):
    """A card's text does not fit on its card."""


# -- geometry ----------------------------------------------------------------
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
        # stay on the paper
        if ux:
            hi = min(hi, (self.paper_w - cx) if ux > 0 else cx)
        else:
            hi = min(hi, (self.paper_h - cy) if uy > 0 else cy)
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


# -- what the finish step needs to know ------------------------------------------
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

    @property
    def key(self) -> str:
        return IMPOSITION_VERSION + json.dumps(asdict(self), sort_keys=True)

    def __call__(self, pdf: bytes) -> bytes:
        from pypdf import PdfReader  # noqa: PLC0415

        reader = PdfReader(io.BytesIO(pdf))
        preflight(reader, self)
        return impose(reader, self)


def _anchors(spec: Imposition) -> list[tuple[str, str]]:
    """(anchor, description) of every page the card document must have, in order."""
    size = f"{spec.size_name} card ({spec.grid.card_w:g}×{spec.grid.card_h:g} mm)"
    out = [(f"card-{i}", f"card {cid!r} ({title}) of set {spec.set_id!r} does not fit on a {size}")
           for i, (cid, title) in enumerate(spec.cards)]
    out += [(f"back-{j}", f"{name} of set {spec.set_id!r} does not fit on a {size}")
            for j, name in enumerate(spec.back_names)]
    return out


def preflight(reader, spec: Imposition) -> None:
    """Every card and back must be exactly one page of the card's size."""
    total = len(reader.pages)
    starts: dict[str, int] = {}
    for name, dest in reader.named_destinations.items():
        starts[str(name)] = reader.get_destination_page_number(dest)
    wanted = _anchors(spec)
    missing = [a for a, _ in wanted if a not in starts]
    if missing:
        raise SheetsError(f"the card template lost the anchors {', '.join(missing[:3])}: every card "
                          f"and back must keep its id (see templates/_base/card.html.j2)")
    order = sorted((starts[a], a) for a, _ in wanted)
    problems = []
    for k, (page, anchor) in enumerate(order):
        end = order[k + 1][0] if k + 1 < len(order) else total
        if end - page > 1:
            why = dict(wanted)[anchor]
            problems.append(f"{why}: its text runs to {end - page} cards")
    if problems:
        raise CardOverflowError("\n".join(problems) + "\nshorten the text or choose a bigger card size "
                                "(`size:` in the card set, or --layout; see `sheets layouts`)")
    if total != len(wanted):
        raise SheetsError(f"the card document of set {spec.set_id!r} has {total} pages "
                          f"for {len(wanted)} cards and backs")
    want_w, want_h = spec.grid.cell_w * MM, spec.grid.cell_h * MM
    for i, page in enumerate(reader.pages):
        box = page.mediabox
        if abs(float(box.width) - want_w) > 0.1 or abs(float(box.height) - want_h) > 0.1:
            raise SheetsError(f"card page {i + 1} of set {spec.set_id!r} is {float(box.width) / MM:.1f}×"
                              f"{float(box.height) / MM:.1f} mm, not the card size with bleed "
                              f"({spec.grid.cell_w:g}×{spec.grid.cell_h:g} mm): check the card template's @page")


def _form_xobject(writer, page):
    """A page of the card document as a Form XObject of the output."""
    from pypdf.generic import ArrayObject, DecodedStreamObject, FloatObject, NameObject  # noqa: PLC0415

    form = DecodedStreamObject()
    contents = page.get_contents()
    form.set_data(contents.get_data() if contents is not None else b"")
    form[NameObject("/Type")] = NameObject("/XObject")
    form[NameObject("/Subtype")] = NameObject("/Form")
    form[NameObject("/BBox")] = ArrayObject([FloatObject(float(v)) for v in page.mediabox])
    form[NameObject("/Resources")] = page["/Resources"].clone(writer)
    return writer._add_object(form.flate_encode())  # pypdf has no public "add object"


def _paper_page(writer, grid: CardGrid, placements: list[tuple[str, object, str]], marks: list[tuple],
                fold_at: float | None = None) -> None:
    """Add one paper page: `placements` are (XObject name, reference, cm operands).

    With `fold_at` (mm from the left), the page is twice the grid's width and gets a
    dashed fold line there.
    """
    from pypdf.generic import DecodedStreamObject, DictionaryObject, NameObject  # noqa: PLC0415

    width = grid.paper_w * (2 if fold_at is not None else 1)
    page = writer.add_blank_page(width * MM, grid.paper_h * MM)
    ops = []
    xobjects = DictionaryObject()
    for name, ref, matrix in placements:
        xobjects[NameObject(name)] = ref
        ops.append(f"q {matrix} cm {name} Do Q")
    if marks:
        ops.append("q 0 0 0 RG 0.3 w 0 J [] 0 d")
        ops += [f"{x1 * MM:.3f} {y1 * MM:.3f} m {x2 * MM:.3f} {y2 * MM:.3f} l" for x1, y1, x2, y2 in marks]
        ops.append("S Q")
    if fold_at is not None:
        ops.append(f"q 0.35 0.35 0.35 RG 0.5 w [3 2] 0 d {fold_at * MM:.3f} 0 m {fold_at * MM:.3f} "
                   f"{grid.paper_h * MM:.3f} l S Q")
    page[NameObject("/Resources")] = DictionaryObject({NameObject("/XObject"): xobjects})
    content = DecodedStreamObject()
    content.set_data(("\n".join(ops) + "\n").encode("ascii"))
    page[NameObject("/Contents")] = writer._add_object(content.flate_encode())


def _cm(x_mm: float, y_mm: float, bleed: float, rotated: bool, grid: CardGrid) -> str:
    """The matrix that puts a card page (trim box + bleed) with its trim box at x, y."""
    if not rotated:
        return f"1 0 0 1 {(x_mm - bleed) * MM:.4f} {(y_mm - bleed) * MM:.4f}"
    # turned half round about the origin, then moved so the cell covers the same box
    return f"-1 0 0 -1 {(x_mm + grid.card_w + bleed) * MM:.4f} {(y_mm + grid.card_h + bleed) * MM:.4f}"


def impose(reader, spec: Imposition) -> bytes:
    """Place the card pages n-up on paper pages (fronts, then each front page's backs).

    `copies` repeats the whole set; `back_offset` shifts every back on its page; `fold`
    puts each back beside its front (mirrored about the fold line) on the same page.
    """
    from pypdf import PdfWriter  # noqa: PLC0415

    grid = spec.grid
    writer = PdfWriter()
    n = len(spec.cards)
    fronts = [_form_xobject(writer, reader.pages[i]) for i in range(n)]
    backs = [_form_xobject(writer, reader.pages[n + j]) for j in range(len(spec.back_names))]
    order = [k for _ in range(spec.copies) for k in range(n)]
    ox, oy = spec.back_offset
    for first in range(0, len(order), grid.per_page):
        on_page = order[first:first + grid.per_page]
        placements = []
        for slot, k in enumerate(on_page):
            x, y = grid.slot(slot)
            placements.append((f"/Card{slot}", fronts[k], _cm(x, y, grid.bleed, False, grid)))
        marks = grid.crop_marks(len(on_page), spec.mark_length, spec.mark_offset) if spec.crop_marks else []
        if spec.fold:
            full_w = 2 * grid.paper_w
            for slot, k in enumerate(on_page):
                x, y = grid.slot(slot)
                placements.append((f"/Back{slot}", backs[spec.back_of[k]],
                                   _cm(full_w - x - grid.card_w, y, grid.bleed, False, grid)))
            marks = marks + [(full_w - x1, y1, full_w - x2, y2) for x1, y1, x2, y2 in marks]
            _paper_page(writer, grid, placements, marks, fold_at=grid.paper_w)
            continue
        _paper_page(writer, grid, placements, marks)
        if spec.back_of is not None:
            placements = []
            for slot, k in enumerate(on_page):
                x, y, rotated = grid.back_slot(slot, spec.duplex)
                j = spec.back_of[k]
                placements.append((f"/Back{slot}", backs[j], _cm(x + ox, y + oy, grid.bleed, rotated, grid)))
            _paper_page(writer, grid, placements, [])
    writer.add_metadata({"/Title": spec.title or spec.set_title, "/Author": "warsheets", "/Creator": "warsheets"})
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def fold_grid(geometry: PrintGeometry, layout: Layout, paper: str) -> CardGrid:
    """The grid of one half of a landscape sheet, for fold-over cards.

    The sheet is `paper` turned landscape; fronts fill its left half and backs its right
    half, so the fold runs down the middle. As many cards as fit the half, keeping
    FOLD_MARGIN_MM from the edges and the fold.
    """
    size = geometry.card_sizes[layout.card]
    name = paper if paper.endswith("-landscape") else f"{paper}-landscape"
    if name not in geometry.papers:
        raise SheetsError(f"--fold needs a landscape paper {name!r} in _print/layouts.yaml")
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


# -- card sets to sheets -------------------------------------------------------------
def default_back(card_set: CardSet, game_title: str) -> CardBack:
    return CardBack(title=game_title, subtitle=card_set.title)


def card_sheet(game: "Game", card_set: CardSet, geometry: PrintGeometry, *, layout: Layout | None = None,
               paper: str = "a4", backs: bool = False, duplex: str = "long",
               crop_marks: bool | None = None, filename: str | None = None, copies: int = 1,
               back_offset: tuple[float, float] = (0.0, 0.0), fold: bool = False) -> "Sheet":
    """One card set as an imposed PDF sheet (phase one: no rendering happens here)."""
    from sheets.build import Sheet  # noqa: PLC0415

    if duplex not in DUPLEX:
        raise SheetsError(f"unknown duplex {duplex!r}; choose long or short")
    if not card_set.cards:
        raise SheetsError(f"card set {card_set.id!r} has no cards")
    if not 1 <= copies <= MAX_COPIES:
        raise SheetsError(f"--copies {copies}: give a number from 1 to {MAX_COPIES}")
    if fold and backs:
        raise SheetsError("--fold puts the backs beside the fronts; it does not go with --backs")
    layout = layout or geometry.default_layout(card_set.size, paper)
    size = geometry.card_sizes[layout.card]
    grid = fold_grid(geometry, layout, paper) if fold else CardGrid.from_layout(geometry, layout)
    backs = backs or fold
    back_of: tuple[int, ...] | None = None
    back_pages: list[CardBack] = []
    back_names: list[str] = []
    if backs:
        index: dict[str, int] = {}
        per_card = []
        for card in card_set.cards:
            back = card.back or card_set.back or default_back(card_set, game.info.title)
            key = back.model_dump_json()
            if key not in index:  # identical backs are rendered once and placed many times
                index[key] = len(back_pages)
                back_pages.append(back)
                back_names.append(f"the back of card {card.id!r}" if card.back else "the card back")
            per_card.append(index[key])
        back_of = tuple(per_card)
    spec = Imposition(
        set_id=card_set.id, set_title=card_set.title, size_name=layout.card,
        cards=tuple((c.id, c.title) for c in card_set.cards), back_of=back_of, back_names=tuple(back_names),
        grid=grid, duplex=duplex, crop_marks=layout.crop_marks if crop_marks is None else crop_marks,
        mark_length=layout.mark_length_mm, mark_offset=layout.mark_offset_mm,
        title=game_titled(game.info.title, card_set.title, ": "), copies=copies, back_offset=tuple(back_offset), fold=fold,
    )
    context = {
        "title": spec.title,
        "page_size": f"{grid.cell_w:g}mm {grid.cell_h:g}mm",
        "inset_mm": round(layout.bleed_mm + size.margin_mm, 3),
        "margin_mm": size.margin_mm,
        "font_pt": size.font_pt,
        "card_h_mm": size.height_mm,
        "set_label": game_titled(game.info.title, card_set.title),
        "fronts": [{"anchor": f"card-{i}", "card": c, "number": i + 1} for i, c in enumerate(card_set.cards)],
        "backs": [{"anchor": f"back-{j}", "back": b} for j, b in enumerate(back_pages)],
    }
    suffix = "-fold" if fold else (("-backs-" + duplex) if backs else "")
    suffix += f"-x{copies}" if copies > 1 else ""
    name = filename or f"{game.id}-cards-{card_set.id}{suffix}.pdf"
    return Sheet(filename=name, template="card.html.j2", context=context, game=game.id,
                 label=f"{game.info.title}: {card_set.title}" + ("" if "card" in card_set.title.lower() else " cards"),
                 finish=spec)


def pick_sets(game: "Game", which: str = "all") -> list[CardSet]:
    """The card sets `--set` names ('all' for every one)."""
    if not game.card_sets:
        raise SheetsError(f"{game.info.title} has no cards")
    if which == "all":
        return list(game.card_sets.values())
    if which not in game.card_sets:
        raise SheetsError(f"unknown card set {which!r} for {game.info.title}; "
                          f"choose one of: {', '.join(game.card_sets)}, all")
    return [game.card_sets[which]]

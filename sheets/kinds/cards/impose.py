"""Pre-flight and n-up imposition: the finish step of a card sheet (pypdf).

Pre-flight: a card whose text does not fit runs onto a second page. Each card
carries an anchor id, which WeasyPrint writes as a named destination, so the page
each card starts on tells which card ran over; that is an error naming the card,
never a card silently cut off.

Imposition: each card page becomes a Form XObject that paper pages place with a
`cm` matrix computed from the layout (`CardGrid`), then crop marks are drawn as
plain PDF paths outside the cut lines. With backs, a back page follows each front
page, laid out so that duplex printing puts card k's back behind card k.
"""
from __future__ import annotations

import io
import json
from dataclasses import asdict, dataclass
from typing import ClassVar

from pypdf import PdfReader, PdfWriter
from pypdf.generic import ArrayObject, DecodedStreamObject, DictionaryObject, FloatObject, NameObject

from sheets.base.errors import SheetsError
from sheets.pdf.structure import KEY as STRUCT_KEY
from sheets.pdf.structure import page_structures
from sheets.kinds.cards.grid import SAFE_EDGE_MM, CardGrid

MM = 72 / 25.4  # PDF points per millimetre
IMPOSITION_VERSION = "5"  # bump when imposition output changes for the same input
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
    #: each card face drawn on a page is one unit (sheets.pdf.finish); not data: not in `key`
    unit_forms: ClassVar[tuple[str, ...]] = (FRONT, BACK)

    @property
    def key(self) -> str:
        return IMPOSITION_VERSION + json.dumps(asdict(self), sort_keys=True)

    def __call__(self, pdf: bytes) -> bytes:
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


def _form_xobject(writer, page, structure=None):
    """A page of the card document as a Form XObject of the output (with its tags, when the
    card document is tagged: see sheets/pdf/structure.py)."""
    form = DecodedStreamObject()
    contents = page.get_contents()
    form.set_data(contents.get_data() if contents is not None else b"")
    form[NameObject("/Type")] = NameObject("/XObject")
    form[NameObject("/Subtype")] = NameObject("/Form")
    form[NameObject("/BBox")] = ArrayObject([FloatObject(float(v)) for v in page.mediabox])
    form[NameObject("/Resources")] = page["/Resources"].clone(writer)
    if structure is not None:
        form[NameObject(STRUCT_KEY)] = structure
    return writer._add_object(form.flate_encode())  # pypdf has no public "add object"


def _paper_page(writer, grid: CardGrid, placements: list[tuple[str, object, str]], marks: list[tuple],
                fold_at: float | None = None, trims: list[tuple[float, float]] = ()) -> None:
    """Add one paper page: `placements` are (XObject name, reference, cm operands), `trims`
    the lower-left trim corners (mm) of the cards placed.

    With `fold_at` (mm from the left), the page is twice the grid's width and gets a
    dashed fold line there.
    """
    width = grid.paper_w * (2 if fold_at is not None else 1)
    page = writer.add_blank_page(width * MM, grid.paper_h * MM)
    ops = []
    xobjects = DictionaryObject()
    for name, ref, matrix in placements:
        xobjects[NameObject(name)] = ref
        ops.append(f"q {matrix} cm {name} Do Q")
    # crop marks and the fold line are page furniture: artifacts, outside the structure tree
    if marks:
        ops.append("/Artifact <</Type /Layout>> BDC q 0 0 0 RG 0.3 w 0 J [] 0 d")
        ops += [f"{x1 * MM:.3f} {y1 * MM:.3f} m {x2 * MM:.3f} {y2 * MM:.3f} l" for x1, y1, x2, y2 in marks]
        ops.append("S Q EMC")
    if fold_at is not None:
        # the fold line keeps inside the inked area too (SAFE_EDGE_MM from the paper's edge)
        ops.append(f"/Artifact <</Type /Layout>> BDC q 0.35 0.35 0.35 RG 0.5 w [3 2] 0 d {fold_at * MM:.3f} "
                   f"{SAFE_EDGE_MM * MM:.3f} m {fold_at * MM:.3f} {(grid.paper_h - SAFE_EDGE_MM) * MM:.3f} l S Q EMC")
    _boxes(page, grid, trims, width)
    page[NameObject("/Resources")] = DictionaryObject({NameObject("/XObject"): xobjects})
    content = DecodedStreamObject()
    content.set_data(("\n".join(ops) + "\n").encode("ascii"))
    page[NameObject("/Contents")] = writer._add_object(content.flate_encode())


def _boxes(page, grid: CardGrid, trims: list[tuple[float, float]], width: float) -> None:
    """TrimBox: the cut lines around the cards placed on this page (`trims`: each card's
    lower-left trim corner, mm); with bleed, a BleedBox that far beyond them. Both stay
    inside the MediaBox (0 0 `width` paper_h)."""
    if not trims:
        return
    x0 = max(0.0, min(x for x, _ in trims))
    y0 = max(0.0, min(y for _, y in trims))
    x1 = min(width, max(x for x, _ in trims) + grid.card_w)
    y1 = min(grid.paper_h, max(y for _, y in trims) + grid.card_h)

    def box(pad: float) -> ArrayObject:
        return ArrayObject([FloatObject(round(v * MM, 3)) for v in (
            max(0.0, x0 - pad), max(0.0, y0 - pad), min(width, x1 + pad), min(grid.paper_h, y1 + pad))])

    page[NameObject("/TrimBox")] = box(0)
    if grid.bleed > 0:
        page[NameObject("/BleedBox")] = box(grid.bleed)


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
    grid = spec.grid
    writer = PdfWriter()
    n = len(spec.cards)
    tags = page_structures(reader)
    fronts = [_form_xobject(writer, reader.pages[i], tags[i]) for i in range(n)]
    backs = [_form_xobject(writer, reader.pages[n + j], tags[n + j]) for j in range(len(spec.back_names))]
    order = [k for _ in range(spec.copies) for k in range(n)]
    ox, oy = spec.back_offset
    for first in range(0, len(order), grid.per_page):
        on_page = order[first:first + grid.per_page]
        placements, trims = [], []
        for slot, k in enumerate(on_page):
            x, y = grid.slot(slot)
            placements.append((f"{FRONT}{slot}", fronts[k], _cm(x, y, grid.bleed, False, grid)))
            trims.append((x, y))
        marks = grid.crop_marks(len(on_page), spec.mark_length, spec.mark_offset) if spec.crop_marks else []
        if spec.fold:
            full_w = 2 * grid.paper_w
            for slot, k in enumerate(on_page):
                x, y = grid.slot(slot)
                placements.append((f"{BACK}{slot}", backs[spec.back_of[k]],
                                   _cm(full_w - x - grid.card_w, y, grid.bleed, False, grid)))
                trims.append((full_w - x - grid.card_w, y))
            marks = marks + [(full_w - x1, y1, full_w - x2, y2) for x1, y1, x2, y2 in marks]
            _paper_page(writer, grid, placements, marks, fold_at=grid.paper_w, trims=trims)
            continue
        _paper_page(writer, grid, placements, marks, trims=trims)
        if spec.back_of is not None:
            placements, trims = [], []
            for slot, k in enumerate(on_page):
                x, y, rotated = grid.back_slot(slot, spec.duplex)
                j = spec.back_of[k]
                placements.append((f"{BACK}{slot}", backs[j], _cm(x + ox, y + oy, grid.bleed, rotated, grid)))
                trims.append((x + ox, y + oy))
            _paper_page(writer, grid, placements, [], trims=trims)
    writer.add_metadata({"/Title": spec.title or spec.set_title, "/Author": "warsheets", "/Creator": "warsheets"})
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()

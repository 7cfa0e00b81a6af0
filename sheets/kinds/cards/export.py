"""The print-shop export of a card set: one PNG per card face (`sheets cards GAME --export png`),
one PDF per deck (`--export pdf`, shop_pdf.py) or Tabletop Simulator grids (`--export tts`, tts.py);
`--shop NAME` takes a shop's preset from content/_print/shops.yaml (`find_shop`, `plan`).

Print-on-demand services take one image per card face at a stated resolution, with bleed
on every side and a safe zone inside the cut line. The card document is the one the
builder makes for n-up sheets (`card_sheet`, one page per card), laid out on a "paper"
that is exactly the card plus the export's bleed: a 1×1 layout with that bleed and no crop
marks, the card's text margin widened to the bleed where it is narrower (the safe zone).
Its finish step is the pre-flight only (a card whose text runs over is still an error);
the pages are then rasterised with PDFium at the asked resolution.

With the bleed, the card's frame becomes a band (`edge_band` in card.html.j2): the page
background in the frame's colour runs from the frame line (FRAME_IN_MM inside the cut, so a cut
a little off the line leaves even borders) over the cut line to the bleed's edge, and the card's
white panel sits inside it. Text stays inside the panel and the 1/8 in safe zone; where that
narrows the text column, the type shrinks with it (the card wraps as it does on n-up sheets).

Files: `001-<card id>.png` ... in the set's order, and with backs one `back.png` when every card
has the same back, else `001-back.png` ... (the back of card 001, and so on). PNGs carry their resolution (pHYs) and nothing else that
changes between runs, so the same input gives byte-identical files.
"""
from __future__ import annotations

import io
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from sheets.base import interrupts, limits, output
from sheets.base.colors import MIN_TEXT_PT
from sheets.base.errors import SheetsError
from sheets.base.paper import Paper
from sheets.kinds.cards.builder import card_sheet
from sheets.kinds.cards.impose import Imposition, preflight
from sheets.kinds.cards.cmyk import PALETTE_FILE
from sheets.kinds.cards.shop_pdf import ShopPdf, print_order, shop_pdf
from sheets.library.kinds.cards import CardSet, Layout, PrintGeometry
from sheets.pipeline.sheet import Sheet

with interrupts.held():  # a Ctrl-C while pikepdf registers its C++ types aborts the process
    import pikepdf

if TYPE_CHECKING:
    from sheets.library.content import Game

FORMATS = ("png", "pdf", "tts")
DPI = 300
DPI_RANGE = (72, limits.MAX_CARD_DPI)
BLEED_MM = 3.0
BLEED_RANGE = (0.0, limits.MAX_BLEED_MM)
MAX_PIXELS = limits.MAX_CARD_PIXELS
MM_PER_INCH = 25.4
SAFE_PAD_MM = 0.12  # text a little inside the safe line: letters (italics, J) overhang their box by ~0.1 mm
SAFE_MM = 3.175  # the safe zone: nothing important within 1/8 in of the trim (every shop asks at least this)
FRAME_IN_MM = 3.2  # the frame sits this far inside the cut: a cut off by a millimetre leaves even borders
TEXT_PAD_MM = 0.8  # text this far inside the frame
FOOT_MM = 3.3  # the footer's band (card.html.j2 has 2.6): its letters then end inside the safe zone
PAPER = "card-with-bleed"  # the 1-up "paper" of an export: the card and its bleed, nothing more
OLD_IMAGE = re.compile(r"^(\d{3}-.+|back)\.png$")


@dataclass(frozen=True)
class Plan:
    """What one export makes of a card set: the card size, bleed, safe zone and resolution (a shop's
    preset or the options), the pixels a shop's template asks for, and the PDF's kind and order."""

    size: str
    bleed_mm: float
    safe_mm: float = SAFE_MM
    dpi: int = DPI
    pixels: tuple[int, int] | None = None
    x1a: bool = False
    alternate: bool = True   # with backs: back, front, back, front ... (else the fronts, then the backs)
    ink_limit: float | None = None
    shop: str | None = None


def find_shop(shops: dict, name: str | None, export: str | None, dpi: float | None, bleed: float | None):
    """`--shop NAME`'s preset (None without one), and the export format it makes."""
    if name is None:
        return None, export
    if name not in shops:
        raise SheetsError(f"--shop {name!r}: the shops are {', '.join(shops)} (content/_print/shops.yaml)")
    shop = shops[name]
    if export is not None and export != shop.format:
        raise SheetsError(f"--shop {name}: {shop.title} takes --export {shop.format}, not {export}")
    given = [flag for flag, value in (("--dpi", dpi), ("--bleed", bleed)) if value is not None]
    if given:
        raise SheetsError(f"--shop {name} sets the resolution and bleed {shop.title} asks for; "
                          f"leave out {', '.join(given)}")
    return shop, shop.format


def shop_takes(card_sets: list[CardSet], shop_name: str, shop) -> tuple[list[CardSet], list[str]]:
    """Of every card set (no --set named), the ones `shop` prints, and a line for each it does not
    (why: its card size); none it prints is the error a named set gives."""
    taken = [s for s in card_sets if s.size in shop.cards]
    skipped = [f"skipped card set {s.id!r}: {shop.title} prints {', '.join(shop.cards)} cards; it is {s.size}"
               for s in card_sets if s.size not in shop.cards]
    if not taken:
        raise SheetsError(f"--shop {shop_name}: {shop.title} prints {', '.join(shop.cards)} cards; no card set "
                          f"of this game is one ({', '.join(f'{s.id} is {s.size}' for s in card_sets)})")
    return taken, skipped


def plan(card_set: CardSet, shop_name: str | None, shop, dpi: float, bleed: float) -> Plan:
    """The export of `card_set`: the options, or `shop`'s preset (content/_print/shops.yaml)."""
    if shop is None:
        return Plan(size=card_set.size, bleed_mm=bleed, dpi=int(dpi))
    product = shop.cards.get(card_set.size)
    if product is None:
        raise SheetsError(f"--shop {shop_name}: {shop.title} prints {', '.join(shop.cards)} cards; "
                          f"card set {card_set.id!r} is {card_set.size}")
    return Plan(size=product.card, bleed_mm=shop.bleed_mm, safe_mm=max(SAFE_MM, shop.safe_mm), dpi=shop.dpi,
                pixels=product.pixels, x1a=shop.pdf == "x-1a", alternate=shop.order == "back-front",
                ink_limit=shop.ink_limit, shop=shop_name)


def check_options(export: str, dpi: float, bleed: float, out: Path | None) -> Path:
    """The export's options, each checked before anything is made; the output folder."""
    if export not in FORMATS:
        raise SheetsError(f"--export {export!r}: the export formats are {', '.join(FORMATS)}")
    lo, hi = DPI_RANGE
    if not lo <= dpi <= hi or dpi != int(dpi):
        raise SheetsError(f"--dpi {dpi:g}: give a whole number of dots per inch from {lo} to {hi} "
                          f"(print shops ask for {DPI})")
    lo_mm, hi_mm = BLEED_RANGE
    if not lo_mm <= bleed <= hi_mm:
        raise SheetsError(f"--bleed {bleed:g}: give millimetres from {lo_mm:g} to {hi_mm:g} "
                          f"(print shops ask for 3 mm, 1/8 in)")
    if out is None:
        raise SheetsError(f"--export {export} writes into a folder: give it with -o DIR")
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise SheetsError(f"-o {out}: is a file; --export {export} needs a folder (-o DIR)")
    if out.suffix.lower() in (".pdf", ".png", ".zip"):
        raise SheetsError(f"-o {out}: --export {export} writes a folder of files, not one file; give -o DIR")
    return out


def pixels(mm: float, dpi: int) -> int:
    """A length in whole pixels at `dpi` (the nearest)."""
    return round(mm / MM_PER_INCH * dpi)


def text_margin(size_margin: float, bleed: float, safe_mm: float = SAFE_MM) -> float:
    """How far inside the cut an export's text starts: the safe zone (at least 1/8 in, at least the
    bleed), and inside the frame, which sits FRAME_IN_MM inside the cut."""
    return round(max(size_margin, max(bleed, safe_mm) + SAFE_PAD_MM, FRAME_IN_MM + TEXT_PAD_MM), 3)


def export_geometry(geometry: PrintGeometry, size_name: str, bleed: float,
                    safe_mm: float = SAFE_MM) -> tuple[PrintGeometry, Layout]:
    """The geometry of a 1-up export: a paper of exactly the card plus `bleed`, the card's text
    margin inside the safe zone and the frame (`text_margin`), and the 1×1 layout on it."""
    if size_name not in geometry.card_sizes:
        raise SheetsError(f"unknown card size {size_name!r}; the sizes are: {', '.join(geometry.card_sizes)}")
    size = geometry.card_sizes[size_name]
    margin = text_margin(size.margin_mm, bleed, safe_mm)
    # the text column a little narrower than on n-up sheets: the type shrinks with it, so every
    # card still wraps as it was written for its size (never below the smallest type on cards)
    scale = min(1.0, (size.width_mm - 2 * margin) / (size.width_mm - 2 * size.margin_mm))
    font = max(MIN_TEXT_PT, round(size.font_pt * scale, 2))
    safe = size.model_copy(update={"margin_mm": margin, "font_pt": min(size.font_pt, font)})
    paper = Paper(PAPER, size.width_mm + 2 * bleed, size.height_mm + 2 * bleed)
    layout = Layout(id=f"export-{size_name}", description=f"one {size_name} card with {bleed:g} mm bleed",
                    paper=PAPER, card=size_name, columns=1, rows=1, bleed_mm=bleed, crop_marks=False)
    changed = geometry.model_copy(update={"card_sizes": {**geometry.card_sizes, size_name: safe}}).with_paper(paper)
    return changed, layout


@dataclass(frozen=True)
class CardPages:
    """Finish step of an export: the pre-flight only; the card pages stay one per page."""

    spec: Imposition

    @property
    def key(self) -> str:
        return "export-pages:" + self.spec.key

    def __call__(self, pdf: bytes) -> bytes:
        with pikepdf.open(io.BytesIO(pdf)) as cards:
            preflight(cards, self.spec)
        return pdf


def export_sheet(game: "Game", card_set: CardSet, geometry: PrintGeometry, *, bleed: float = BLEED_MM,
                 backs: bool = False, how: Plan | None = None) -> Sheet:
    """The card document of one set for the export: every card (then every distinct back) one page
    of the card plus `bleed`, the frame run on into the bleed, text inside the safe zone."""
    how = how or Plan(size=card_set.size, bleed_mm=bleed)
    bleed = how.bleed_mm
    changed, layout = export_geometry(geometry, how.size, bleed, how.safe_mm)
    sheet = card_sheet(game, card_set, changed, layout=layout, paper=PAPER, backs=backs, crop_marks=False,
                       cmyk=how.x1a)
    sheet.finish = CardPages(sheet.finish)  # type: ignore[arg-type]
    sheet.context["edge_band"] = bleed > 0
    sheet.context["frame_out_mm"] = round(changed.card_sizes[how.size].margin_mm - FRAME_IN_MM, 3)
    sheet.context["foot_mm"] = FOOT_MM
    sheet.filename = f"{game.id}-cards-{card_set.id}-export.pdf"
    return sheet


def image_names(card_set: CardSet, spec: Imposition) -> list[tuple[str, int]]:
    """(file name, page of the card document) of every image, in print order: the fronts,
    then with backs one `back.png` when every card has the same back, else each card's back
    under the card's own number."""
    names = [(f"{i + 1:03d}-{card.id}.png", i) for i, card in enumerate(card_set.cards)]
    if spec.back_of is not None:
        n = len(card_set.cards)
        if len(set(spec.back_of)) == 1:
            names.append(("back.png", n + spec.back_of[0]))
        else:
            names += [(f"{i + 1:03d}-back.png", n + spec.back_of[i]) for i in range(n)]
    return names


def image_size(size_mm: tuple[float, float], dpi: int) -> tuple[int, int]:
    """The pixels of one image of `size_mm` (card and bleed) at `dpi`, within MAX_PIXELS."""
    width, height = pixels(size_mm[0], dpi), pixels(size_mm[1], dpi)
    if width * height > MAX_PIXELS:
        raise SheetsError(f"--dpi {dpi}: one card would be {width}×{height} pixels; give a lower --dpi")
    return width, height


def render_pngs(pdf: bytes, dpi: int, size_mm: tuple[float, float]) -> list[bytes]:
    """Every page of `pdf` as PNG bytes at `dpi`, each exactly `size_mm` in whole pixels,
    the resolution stored (pHYs) and nothing that changes from run to run."""
    import pypdfium2 as pdfium  # noqa: PLC0415 - PDFium: only when images are asked for

    width, height = image_size(size_mm, dpi)
    with interrupts.held():
        doc = pdfium.PdfDocument(pdf)
    try:
        out = []
        for i in range(len(doc)):
            with interrupts.held():
                page = doc[i]
                bitmap = page.render(scale=dpi / 72, fill_color=(255, 255, 255, 255))
                image = bitmap.to_pil().convert("RGB")
                bitmap.close()
                page.close()
            # PDFium rounds the page's size up to whole pixels: keep the nearest whole number
            image = image.crop((0, 0, width, height)) if image.size != (width, height) else image
            if image.size != (width, height):
                raise SheetsError(f"card page {i + 1} rendered {image.size[0]}×{image.size[1]} px, "
                                  f"not {width}×{height}: check the card template's @page")
            buf = io.BytesIO()
            image.save(buf, format="PNG", dpi=(dpi, dpi), optimize=False)
            out.append(buf.getvalue())
        return out
    finally:
        with interrupts.held():
            doc.close()


def write_images(folder: Path, images: list[tuple[str, bytes]]) -> list[Path]:
    """Write the images into `folder` (each atomically), then remove the numbered images an
    earlier export left there that this one did not write (a deck that got shorter)."""
    output.ensure_dir(folder)
    written = [output.write_atomic(folder / name, data) for name, data in images]
    keep = {name for name, _ in images}
    for old in sorted(folder.iterdir()):
        if OLD_IMAGE.match(old.name) and old.name not in keep and old.is_file():
            try:
                old.unlink()
            except OSError as exc:
                raise output.OutputError(f"cannot remove the old image {old}: {exc.strerror or exc}") from None
    return written


def check_pixels(size, how: Plan) -> tuple[int, int]:
    """The images' pixels (card and bleed at the plan's resolution); a shop's template size exactly."""
    got = image_size((size.width_mm + 2 * how.bleed_mm, size.height_mm + 2 * how.bleed_mm), how.dpi)
    if how.pixels is not None and got != tuple(how.pixels):
        raise SheetsError(f"--shop {how.shop}: a {how.size} card with {how.bleed_mm:g} mm bleed at {how.dpi} dpi is "
                          f"{got[0]}×{got[1]} px, not the template's {how.pixels[0]}×{how.pixels[1]}: "
                          f"check content/_print/shops.yaml")
    return got


def deck_pdf(pdf: bytes, card_set: CardSet, sheet: Sheet, how: Plan, palette, palette_file: str = PALETTE_FILE) -> bytes:
    """The deck's print-shop PDF (shop_pdf.py): pages in print order, boxes, PDF/X-1a for a shop that asks."""
    spec = sheet.finish.spec  # type: ignore[union-attr]
    order = print_order(len(card_set.cards), spec.back_of, how.alternate, spec.counts)
    return shop_pdf(pdf, ShopPdf(order=order, bleed_mm=how.bleed_mm, title=spec.title, x1a=how.x1a,
                                 ink_limit=how.ink_limit, palette=tuple(palette.by_rgb().items()),
                                 palette_file=palette_file))

"""The print-shop PDF of a card set (`sheets cards GAME --export pdf [--shop NAME]`).

The export's card document (one card face per page, card and bleed; see export.py) becomes the
file a shop takes: pages in print order (with backs, back and front alternating: the back of
card 1, card 1, the back of card 2 ...), a TrimBox (the cut) and a BleedBox (the page) on every
page. For a shop that asks for PDF/X-1a:2003 (`Plan.x1a`):

- **CMYK only.** The template draws its palette's colours as `device-cmyk()` already; what is
  left in RGB (black text and greys of the base style) is turned into CMYK here through the same
  palette (content/_print/palette.yaml), a grey as black ink only. A colour the palette does not
  know, an RGB or ICC colour space, an RGB image: an error naming it, never a file a shop rejects.
- **Ink.** Every colour set in the file uses at most the shop's total ink (per cent).
- **No transparency** (alpha below 1, soft masks): an error.
- **An output intent** naming the registered characterization CGATS TR 001 (U.S. Web Coated
  SWOP), with no embedded profile: no freely licensed CMYK profile can be bundled; PDF/X-1a
  allows a registered condition by name (ISO 15930-4, 6.2.4).
- **GTS_PDFXVersion** `PDF/X-1a:2003` in Info and in the XMP; Trapped False; fixed dates.
- **PDF 1.4** without object streams (PDF/X-1a:2003 is based on PDF 1.4).

The same bytes in give the same bytes out.
"""
from __future__ import annotations

import io
from dataclasses import dataclass

from sheets.base import interrupts
from sheets.kinds.cards.cmyk import PALETTE_FILE, to_cmyk
from sheets.pdf.finish import pdf_date, xmp_packet

with interrupts.held():
    import pikepdf
    from pikepdf import Array, Dictionary, Name

PDFX = "PDF/X-1a:2003"
PT_PER_MM = 72 / 25.4
#: the output intent: a registered characterization (ICC registry), named, no profile embedded
INTENT = {"OutputConditionIdentifier": "CGATS TR 001", "RegistryName": "http://www.color.org",
          "OutputCondition": "SWOP (Publication) Grade 1 Paper", "Info": "U.S. Web Coated (SWOP)"}


@dataclass(frozen=True)
class ShopPdf:
    """How the card document becomes the shop's file."""

    order: tuple[int, ...]          # pages of the card document, in print order
    bleed_mm: float
    title: str
    x1a: bool = False
    ink_limit: float | None = None  # per cent
    palette: tuple = ()             # ((r, g, b) 0-255, (c, m, y, k) 0-1) pairs
    palette_file: str = PALETTE_FILE  # where the palette was read (the messages name it)


def print_order(cards: int, back_of: tuple[int, ...] | None, alternate: bool,
                counts: tuple[int, ...] | None = None) -> tuple[int, ...]:
    """The card document's pages (fronts 0..n-1, then each distinct back) in print order; a card
    of count N (its copies in the deck, `counts`) N times over, its back as often."""
    each = [i for i in range(cards) for _ in range((counts or (1,) * cards)[i])]
    if back_of is None:
        return tuple(each)
    if alternate:
        return tuple(p for i in each for p in (cards + back_of[i], i))
    return tuple(each) + tuple(cards + back_of[i] for i in each)


def _reorder(pdf: pikepdf.Pdf, order: tuple[int, ...]) -> None:
    """The pages in `order`. Each page's first use is the page itself (the outline, named
    destinations and structure tree point at it); a page used again is a copy (one back behind
    every card) that claims no structure elements of its own."""
    originals = [pdf.pages[i] for i in range(len(pdf.pages))]
    for page in reversed(originals):
        pdf.pages.remove(page)
    placed: set = set()
    for index in order:
        pdf.pages.append(originals[index])  # pikepdf copies a page already in the file
        if index in placed and "/StructParents" in pdf.pages[-1].obj:
            del pdf.pages[-1].obj["/StructParents"]
        placed.add(index)


def _boxes(pdf: pikepdf.Pdf, bleed_mm: float) -> None:
    bleed = bleed_mm * PT_PER_MM
    for page in pdf.pages:
        x0, y0, x1, y1 = (float(v) for v in page.mediabox)
        page.obj.BleedBox = Array([x0, y0, x1, y1])
        page.obj.TrimBox = Array([round(v, 4) for v in (x0 + bleed, y0 + bleed, x1 - bleed, y1 - bleed)])
        if "/CropBox" in page.obj:
            del page.obj["/CropBox"]


def shop_pdf(data: bytes, how: ShopPdf) -> bytes:
    """The shop's file of the finished card document `data` (see the module's doc)."""
    with pikepdf.open(io.BytesIO(data)) as pdf:
        _reorder(pdf, how.order)
        _boxes(pdf, how.bleed_mm)
        if not how.x1a:
            buf = io.BytesIO()
            pdf.save(buf, deterministic_id=True, object_stream_mode=pikepdf.ObjectStreamMode.generate,
                     fix_metadata_version=False)
            return buf.getvalue()
        to_cmyk(pdf, dict(how.palette), how.ink_limit, how.palette_file)
        _pdfx(pdf, how.title)
        buf = io.BytesIO()
        pdf.save(buf, deterministic_id=True, object_stream_mode=pikepdf.ObjectStreamMode.disable,
                 force_version="1.4", fix_metadata_version=False)
        return buf.getvalue()


def _pdfx(pdf: pikepdf.Pdf, title: str) -> None:
    """PDF/X-1a:2003's document keys: Info, XMP, the output intent."""
    info = pdf.docinfo
    info.Title = pikepdf.String(title)
    info.GTS_PDFXVersion = pikepdf.String(PDFX)
    info.Trapped = Name("/False")
    info.CreationDate = info.ModDate = pikepdf.String(pdf_date())
    producer = str(info.get("/Producer", "warsheets"))
    extra = (f"<pdfxid:GTS_PDFXVersion>{PDFX}</pdfxid:GTS_PDFXVersion>"
             f"<pdfx:GTS_PDFXVersion>{PDFX}</pdfx:GTS_PDFXVersion><pdf:Trapped>False</pdf:Trapped>")
    lang = str(pdf.Root.get("/Lang", "en"))
    pdf.Root.Metadata = pdf.make_stream(xmp_packet(title, lang, producer, extra),
                                        Type=Name.Metadata, Subtype=Name.XML)
    intent = Dictionary(Type=Name.OutputIntent, S=Name.GTS_PDFX,
                        **{k: pikepdf.String(v) for k, v in INTENT.items()})
    pdf.Root.OutputIntents = Array([pdf.make_indirect(intent)])


"""The last pass over every PDF the tool writes (pikepdf): tags, language, title, boxes.

- **Structure.** WeasyPrint tags what it lays out; a stamped file and an imposed card sheet
  are tagged as they are written (`sheets.pdf.tagged`). Here, the PDF/UA repairs (`ua.repair`).
- **Document.** `/Lang`, a title (`/Title`, XMP `dc:title`) shown by the viewer
  (`/ViewerPreferences /DisplayDocTitle`), XMP metadata with fixed dates (FIXED_EPOCH).
- **Words.** Letter-spaced runs carry their text as `/ActualText` (`sheets.pdf.spacing`).
- **Boxes.** Every page has a `/TrimBox` (its MediaBox, where the page is the sheet).

The same bytes in give the same bytes out.
"""
from __future__ import annotations

import datetime
import io
from xml.sax.saxutils import escape

from sheets.base import interrupts
from sheets.base.paths import FIXED_EPOCH

# pikepdf's C++ module aborts the process (nanobind: "Critical nanobind error") when a Ctrl-C
# lands while it registers its types: imported whole, the Ctrl-C waits until it is done
with interrupts.held():
    import pikepdf
    from pikepdf import Array, Dictionary, Name
from sheets.pdf.spacing import mark_spacing
from sheets.pdf.ua import repair as ua_repair
from sheets.pdf.ua import tag_widgets



# -- the document ------------------------------------------------------------------
def _xmp(title: str, lang: str, producer: str, extra: str = "") -> bytes:
    """The XMP packet, PDF/UA-1 (pdfuaid:part 1, ISO 14289-1 5); `extra`: more properties
    (namespaces pdfx, pdfxid are declared)."""
    when = datetime.datetime.fromtimestamp(int(FIXED_EPOCH), datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    t, lg, pr = escape(title), escape(lang), escape(producer)
    return (
        '<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>\n'
        '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
        '<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" '
        'xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:pdf="http://ns.adobe.com/pdf/1.3/" '
        'xmlns:pdfuaid="http://www.aiim.org/pdfua/ns/id/"'
        + (' xmlns:pdfx="http://ns.adobe.com/pdfx/1.3/" xmlns:pdfxid="http://www.npes.org/pdfx/ns/id/"'
           if extra else '') + '>'
        '<pdfuaid:part>1</pdfuaid:part>'
        f'<dc:title><rdf:Alt><rdf:li xml:lang="x-default">{t}</rdf:li></rdf:Alt></dc:title>'
        f'<dc:language><rdf:Bag><rdf:li>{lg}</rdf:li></rdf:Bag></dc:language>'
        '<dc:creator><rdf:Seq><rdf:li>warsheets</rdf:li></rdf:Seq></dc:creator>'
        '<dc:format>application/pdf</dc:format>'
        f'<xmp:CreateDate>{when}</xmp:CreateDate><xmp:ModifyDate>{when}</xmp:ModifyDate>'
        f'<xmp:MetadataDate>{when}</xmp:MetadataDate><xmp:CreatorTool>warsheets</xmp:CreatorTool>'
        f'<pdf:Producer>{pr}</pdf:Producer>{extra}'
        '</rdf:Description></rdf:RDF></x:xmpmeta>\n<?xpacket end="w"?>').encode("utf-8")


def describe(pdf: pikepdf.Pdf, title: str | None = None, lang: str = "en", *, repair: bool = True) -> None:
    """Language, title (shown by the viewer), XMP metadata and a TrimBox on every page; the
    PDF/UA repairs unless `repair` is off (a merge of files each already repaired)."""
    info = pdf.docinfo
    title = title or str(info.get("/Title", "")) or "warsheets"
    info.Title = pikepdf.String(title)
    if "/Lang" not in pdf.Root:
        pdf.Root.Lang = pikepdf.String(lang)
    prefs = pdf.Root.get("/ViewerPreferences", Dictionary())
    prefs.DisplayDocTitle = True
    pdf.Root.ViewerPreferences = prefs
    pdf.Root.Metadata = pdf.make_stream(_xmp(title, str(pdf.Root.Lang), str(info.get("/Producer", "warsheets"))), Type=Name.Metadata, Subtype=Name.XML)
    if repair:
        ua_repair(pdf)  # header scopes, printable links (PDF/UA-1)
    for page in pdf.pages:
        if "/TrimBox" not in page.obj:
            page.obj.TrimBox = Array(page.obj.get("/CropBox", page.mediabox))


def xmp_packet(title: str, lang: str, producer: str, extra: str = "") -> bytes:
    """The XMP packet `describe` writes, with `extra` properties (a PDF/X file's version keys)."""
    return _xmp(title, lang, producer, extra)


def pdf_date() -> str:
    """FIXED_EPOCH as a PDF date (Info's CreationDate, ModDate), the XMP's dates."""
    when = datetime.datetime.fromtimestamp(int(FIXED_EPOCH), datetime.timezone.utc)
    return when.strftime("D:%Y%m%d%H%M%S+00'00'")


def save(pdf: pikepdf.Pdf) -> bytes:
    buf = io.BytesIO()
    # fix_metadata_version off: pikepdf would rewrite the XMP packet (our bytes, our dates)
    pdf.save(buf, deterministic_id=True, object_stream_mode=pikepdf.ObjectStreamMode.generate,
             fix_metadata_version=False)
    return buf.getvalue()


def tag_fields(data: bytes) -> bytes:
    """A tagged file whose form fields were just added: each widget in a `/Form` element
    (PDF/UA-1 7.18.4: `ua.tag_widgets`). An untagged file is returned as it is."""
    with pikepdf.open(io.BytesIO(data)) as pdf:
        if "/StructTreeRoot" not in pdf.Root:
            return data
        tag_widgets(pdf)
        return save(pdf)


def finish_pdf(data: bytes, title: str | None = None, lang: str = "en", marked: bool = False) -> bytes:
    """A finished PDF's bytes: its letter-spaced words marked (unless `marked`: written by the
    tagged writer, which marks them), described, boxed (see above)."""
    with pikepdf.open(io.BytesIO(data)) as pdf:
        if not marked:
            mark_spacing(pdf)
        describe(pdf, title, lang)
        return save(pdf)

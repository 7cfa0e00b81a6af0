"""A PDF written page by page to disk, so memory does not grow with the page count.

pypdf's writer keeps every page in memory until the end; this one writes each
object as soon as it is made and keeps only the byte offsets. Pages are built
from a "base" page (a page of some source PDF, drawn as a form XObject that is
written once and shared by every page that uses it) plus an overlay page
(usually a reportlab page carrying the few values that differ). Output is
deterministic: the same calls in the same order give the same bytes.
"""
from __future__ import annotations

import io
import zlib
from typing import BinaryIO

from pypdf import PdfReader

from sheets.base.pdfstruct import KEY as STRUCT_KEY
from sheets.base.pdfstruct import page_structure
from pypdf.generic import (
    ArrayObject, DictionaryObject, FloatObject, IndirectObject, NameObject, NumberObject, PdfObject,
    StreamObject, TextStringObject,
)

_HEADER = b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n"


def _page_content(page) -> bytes:
    contents = page.get_contents()
    return contents.get_data() if contents is not None else b""


def _uri_links(page) -> list[tuple[ArrayObject, str]]:
    """The page's link annotations that open a URI: (rectangle, URI)."""
    found = []
    for annot in page.get("/Annots", ArrayObject()):
        annot = annot.get_object()
        action = annot.get("/A")
        action = action.get_object() if action is not None else None
        if annot.get("/Subtype") == "/Link" and action is not None and action.get("/S") == "/URI":
            found.append((ArrayObject(FloatObject(float(v)) for v in annot["/Rect"]), str(action["/URI"])))
    return found


def _fresh(links: list[tuple[ArrayObject, str]]) -> list[DictionaryObject]:
    """New link annotations (an annotation belongs to one page)."""
    return [DictionaryObject({
        NameObject("/Type"): NameObject("/Annot"), NameObject("/Subtype"): NameObject("/Link"),
        NameObject("/Rect"): rect, NameObject("/Border"): ArrayObject([NumberObject(0)] * 3),
        NameObject("/A"): DictionaryObject({NameObject("/S"): NameObject("/URI"),
                                            NameObject("/URI"): TextStringObject(uri)})})
        for rect, uri in links]


class StreamingPdf:
    """Write a PDF object by object; `close()` writes the page tree and the xref."""

    def __init__(self, handle: BinaryIO, title: str = "") -> None:
        self._f = handle
        self._offsets: dict[int, int] = {}
        self._count = 0
        self._f.write(_HEADER)
        self._pages = self._reserve()
        self._kids: list[int] = []
        self._memo: dict[tuple[str, int], int] = {}
        self._forms: dict[tuple[str, int], int] = {}
        self._title = title
        self._links: dict[int, list] = {}  # form -> its page's web links, drawn on every page using it

    # -- objects --------------------------------------------------------------
    def _reserve(self) -> int:
        self._count += 1
        return self._count

    def _write(self, num: int, obj: PdfObject) -> None:
        buf = io.BytesIO()
        obj.write_to_stream(buf)
        self._offsets[num] = self._f.tell()
        self._f.write(b"%d 0 obj\n" % num)
        self._f.write(buf.getvalue())
        self._f.write(b"\nendobj\n")

    def _add(self, obj: PdfObject) -> IndirectObject:
        num = self._reserve()
        self._write(num, obj)
        return IndirectObject(num, 0, None)

    def _import(self, source: str, obj):
        """Copy an object of a source PDF (and everything it references) into this one."""
        if isinstance(obj, IndirectObject):
            key = (source, obj.idnum)
            num = self._memo.get(key)
            if num is None:
                num = self._memo[key] = self._reserve()
                self._write(num, self._import(source, obj.get_object()))
            return IndirectObject(num, 0, None)
        if isinstance(obj, StreamObject):
            new = type(obj)()
            for k, v in obj.items():
                new[NameObject(k)] = self._import(source, v)
            new._data = obj._data  # noqa: SLF001 - raw (still encoded) bytes, copied as they are
            return new
        if isinstance(obj, DictionaryObject):
            new_d = DictionaryObject()
            for k, v in obj.items():
                new_d[NameObject(k)] = self._import(source, v)
            return new_d
        if isinstance(obj, ArrayObject):
            return ArrayObject(self._import(source, v) for v in obj)
        return obj

    @staticmethod
    def _stream(data: bytes, entries: dict | None = None) -> StreamObject:
        stream = StreamObject()
        stream._data = zlib.compress(data, 6)  # noqa: SLF001
        stream[NameObject("/Filter")] = NameObject("/FlateDecode")
        for k, v in (entries or {}).items():
            stream[NameObject(k)] = v
        return stream

    # -- pages ----------------------------------------------------------------
    def form(self, source: str, reader: PdfReader, index: int) -> IndirectObject:
        """Page `index` of a source PDF as a form XObject (written once per source page)."""
        key = (source, index)
        num = self._forms.get(key)
        if num is None:
            page = reader.pages[index]
            box = ArrayObject(FloatObject(float(v)) for v in page.mediabox)
            entries = {"/Type": NameObject("/XObject"), "/Subtype": NameObject("/Form"), "/BBox": box,
                       "/Resources": self._import(source, page.get("/Resources", DictionaryObject()))}
            if "/Group" in page:
                entries["/Group"] = self._import(source, page["/Group"])
            structure = page_structure(reader, index)
            if structure is not None:  # the page's tags travel with it (sheets.pipeline.finish)
                entries[STRUCT_KEY] = structure
            num = self._forms[key] = self._add(self._stream(_page_content(page), entries)).idnum
            self._links[num] = _uri_links(page)
        return IndirectObject(num, 0, None)

    def add_page(self, form: IndirectObject, size: tuple[float, float],
                 overlay_source: str | None = None, overlay=None) -> None:
        """One page: the form drawn full size, then the overlay page's content on top."""
        content = b"q /WSBase Do Q\n"
        resources = DictionaryObject()
        if overlay is not None:
            content += _page_content(overlay)
            res = overlay.get("/Resources")
            if res is not None:
                resources = self._import(overlay_source or "overlay", res.get_object())
        xobjects = resources.get("/XObject")
        xobjects = DictionaryObject(xobjects.get_object()) if xobjects is not None else DictionaryObject()
        xobjects[NameObject("/WSBase")] = form
        resources[NameObject("/XObject")] = xobjects
        stream = self._add(self._stream(content))
        page = DictionaryObject({
            NameObject("/Type"): NameObject("/Page"),
            NameObject("/Parent"): IndirectObject(self._pages, 0, None),
            NameObject("/MediaBox"): ArrayObject([NumberObject(0), NumberObject(0),
                                                  FloatObject(size[0]), FloatObject(size[1])]),
            NameObject("/Resources"): resources,
            NameObject("/Contents"): stream,
        })
        links = self._links.get(form.idnum)
        if links:
            page[NameObject("/Annots")] = ArrayObject(self._add(link) for link in _fresh(links))
        self._kids.append(self._add(page).idnum)

    @property
    def page_count(self) -> int:
        return len(self._kids)

    def close(self) -> None:
        kids = ArrayObject(IndirectObject(n, 0, None) for n in self._kids)
        self._write(self._pages, DictionaryObject({
            NameObject("/Type"): NameObject("/Pages"), NameObject("/Kids"): kids,
            NameObject("/Count"): NumberObject(len(self._kids))}))
        root = self._add(DictionaryObject({NameObject("/Type"): NameObject("/Catalog"),
                                           NameObject("/Pages"): IndirectObject(self._pages, 0, None)}))
        info = DictionaryObject({NameObject("/Producer"): TextStringObject("warsheets")})
        if self._title:
            info[NameObject("/Title")] = TextStringObject(self._title)
        info_ref = self._add(info)
        xref = self._f.tell()
        size = self._count + 1
        lines = [b"xref\n0 %d\n" % size, b"0000000000 65535 f \n"]
        lines += [b"%010d 00000 n \n" % self._offsets[n] for n in range(1, size)]
        self._f.write(b"".join(lines))
        self._f.write(b"trailer\n<< /Size %d /Root %d 0 R /Info %d 0 R >>\nstartxref\n%d\n%%%%EOF\n"
                      % (size, root.idnum, info_ref.idnum, xref))

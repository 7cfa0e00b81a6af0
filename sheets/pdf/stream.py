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
import sys
import zlib
from array import array
from typing import BinaryIO

from pypdf import PdfReader

from sheets.pdf.structure import KEY as STRUCT_KEY
from sheets.pdf.structure import page_structure
from pypdf.generic import (
    ArrayObject, ByteStringObject, DictionaryObject, FloatObject, IndirectObject, NameObject, NumberObject, PdfObject,
    StreamObject, TextStringObject,
)

_HEADER = b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n"
PACK = 200  # objects per object stream
_PACKED = 1 << 62  # an offsets entry that is (object stream << 16 | index), not a byte offset
_TYPE1, _TYPE2 = 1 << 56, 2 << 56  # a cross-reference row's first byte (`_xref_stream`)


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


def read_ahead(reader: PdfReader, index: int) -> None:
    """Page `index` of a source PDF parsed now (its resources, content and structure), so that
    `StreamingPdf.form` later finds it parsed (pypdf keeps what it parsed): done while this
    process would otherwise wait (on its workers). Nothing is written, so nothing changes."""
    page = reader.pages[index]
    todo, seen = [page.get("/Resources", DictionaryObject()), page.get("/Group")], set()
    while todo:
        obj = todo.pop()
        if isinstance(obj, IndirectObject):
            if obj.idnum in seen:
                continue
            seen.add(obj.idnum)
            obj = obj.get_object()
        if isinstance(obj, DictionaryObject):  # a stream too
            todo.extend(obj.values())
        elif isinstance(obj, ArrayObject):
            todo.extend(obj)
    _page_content(page)
    page_structure(reader, index)


class StreamingPdf:
    """Write a PDF object by object; `close()` writes the page tree and the xref."""

    def __init__(self, handle: BinaryIO, title: str = "") -> None:
        self._f = handle
        self._offsets = array("Q", [0])  # by object number (a dict would grow ~100 bytes an object)
        self._count = 0
        self._f.write(_HEADER)
        self._pages = self._reserve()
        self._kids: list[int] = []
        self._memo: dict[tuple[str, int], int] = {}
        self._forms: dict[tuple[str, int], int] = {}
        self._title = title
        self._links: dict[int, list] = {}  # form -> its page's web links, drawn on every page using it
        self._pending: list[tuple[int, bytes]] = []  # objects for the next object stream (_pack)
        self._packs = False  # some are in object streams: the file ends in a cross-reference stream

    # -- objects --------------------------------------------------------------
    def _reserve(self) -> int:
        self._count += 1
        self._offsets.append(0)
        return self._count

    def _write(self, num: int, obj: PdfObject) -> None:
        buf = io.BytesIO()
        obj.write_to_stream(buf)
        self._write_bytes(num, buf.getvalue())

    def _write_bytes(self, num: int, data: bytes) -> None:
        """`_write` of an object already written out (its PDF syntax)."""
        self._offsets[num] = self._f.tell()
        self._f.write(b"%d 0 obj\n" % num)
        self._f.write(data)
        self._f.write(b"\nendobj\n")

    def _pack(self, num: int, obj: PdfObject) -> None:
        """An object that is not a stream, written into an object stream with its neighbours
        (compressed together: a tagged file's thousands of small structure elements); the file
        then ends in a cross-reference stream."""
        buf = io.BytesIO()
        obj.write_to_stream(buf)
        self._pack_bytes(num, buf.getvalue())

    def _pack_bytes(self, num: int, data: bytes) -> None:
        """`_pack` of an object already written out (its PDF syntax)."""
        self._pending.append((num, data))
        if len(self._pending) >= PACK:
            self._flush_pack()

    def _pack_run(self, first: int, data: list[bytes]) -> None:
        """`_pack_bytes` of objects `first`, `first` + 1, ... in one go (the same streams)."""
        done = 0
        while done < len(data):
            take = data[done:done + PACK - len(self._pending)]
            self._pending.extend(zip(range(first + done, first + done + len(take)), take))
            done += len(take)
            if len(self._pending) >= PACK:
                self._flush_pack()

    def _reserve_many(self, n: int) -> int:
        """`n` consecutive object numbers; the first."""
        first = self._count + 1
        self._count += n
        self._offsets.extend([0] * n)
        return first

    def _add_packed(self, obj: PdfObject) -> IndirectObject:
        num = self._reserve()
        self._pack(num, obj)
        return IndirectObject(num, 0, None)

    def _flush_pack(self) -> None:
        if not self._pending:
            return
        stm = self._reserve()
        head, pos = [], 0
        for i, (num, data) in enumerate(self._pending):
            head.append(b"%d %d" % (num, pos))
            pos += len(data) + 1
            self._offsets[num] = _PACKED | (stm << 16) | i
        header = b" ".join(head) + b"\n"
        body = header + b"\n".join(data for _, data in self._pending) + b"\n"
        self._write(stm, self._stream(body, {"/Type": NameObject("/ObjStm"), "/N": NumberObject(len(self._pending)),
                                             "/First": NumberObject(len(header))}))
        self._pending = []
        self._packs = True

    def _xref_stream(self, root: int, info: int) -> None:
        self._flush_pack()
        num = self._reserve()
        at = self._offsets[num] = self._f.tell()
        # a row is 8 bytes (/W [1 5 2]): one big-endian 64-bit number. In an object stream
        # (type 2): the stream's number, then the index, which `_offsets` holds as (stm << 16 | i);
        # at a byte offset (type 1): the offset, then generation 0
        rows = array("Q", [0xFFFF])
        rows.extend([_TYPE2 | (v ^ _PACKED) if v & _PACKED else _TYPE1 | (v << 16)
                     for v in self._offsets[1:self._count + 1]])
        if sys.byteorder == "little":
            rows.byteswap()
        stream = self._stream(rows.tobytes(), {
            "/Type": NameObject("/XRef"), "/Size": NumberObject(self._count + 1),
            "/W": ArrayObject([NumberObject(1), NumberObject(5), NumberObject(2)]),
            "/Root": IndirectObject(root, 0, None), "/Info": IndirectObject(info, 0, None)})
        ident = self._identity()
        if ident is not None:  # the file's identifier, from its own bytes (the same input, the same /ID)
            stream[NameObject("/ID")] = ArrayObject([ByteStringObject(ident), ByteStringObject(ident)])
        self._write(num, stream)
        self._f.write(b"startxref\n%d\n%%%%EOF\n" % at)

    def _identity(self) -> bytes | None:
        """The trailer's /ID (None: none), asked for when the file ends in a cross-reference stream."""
        return None

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
            content, entries, structure, links = self.form_parts(source, reader, index)
            if structure is not None:  # the page's tags travel with it (sheets.pdf.finish)
                entries[STRUCT_KEY] = structure
            num = self._forms[key] = self._add(self._stream(content, entries)).idnum
            self._links[num] = links
        return IndirectObject(num, 0, None)

    def form_parts(self, source: str, reader: PdfReader, index: int) -> tuple[bytes, dict, ArrayObject | None, list]:
        """Page `index` of a source PDF as the parts of a form XObject: its content, its entries
        (the resources imported, written once), its structure (sheets.pdf.structure) and web links."""
        page = reader.pages[index]
        box = ArrayObject(FloatObject(float(v)) for v in page.mediabox)
        entries = {"/Type": NameObject("/XObject"), "/Subtype": NameObject("/Form"), "/BBox": box,
                   "/Resources": self._import(source, page.get("/Resources", DictionaryObject()))}
        if "/Group" in page:
            entries["/Group"] = self._import(source, page["/Group"])
        return _page_content(page), entries, page_structure(reader, index), _uri_links(page)

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

    def close(self, catalog: dict | None = None, title: str | None = None) -> None:
        """The page tree, the catalog (with `catalog`'s entries), the info (`title`, else the
        one given at the start) and the xref."""
        kids = ArrayObject(IndirectObject(n, 0, None) for n in self._kids)
        self._write(self._pages, DictionaryObject({
            NameObject("/Type"): NameObject("/Pages"), NameObject("/Kids"): kids,
            NameObject("/Count"): NumberObject(len(self._kids))}))
        root = DictionaryObject({NameObject("/Type"): NameObject("/Catalog"),
                                 NameObject("/Pages"): IndirectObject(self._pages, 0, None)})
        for k, v in (catalog or {}).items():
            root[NameObject(k)] = v
        root = self._add(root)
        info = DictionaryObject({NameObject("/Producer"): TextStringObject("warsheets")})
        if title or self._title:
            info[NameObject("/Title")] = TextStringObject(title or self._title)
        info_ref = self._add(info)
        if self._pending or self._packs:
            self._xref_stream(root.idnum, info_ref.idnum)
            return
        xref = self._f.tell()
        size = self._count + 1
        lines = [b"xref\n0 %d\n" % size, b"0000000000 65535 f \n"]
        lines += [b"%010d 00000 n \n" % self._offsets[n] for n in range(1, size)]
        self._f.write(b"".join(lines))
        self._f.write(b"trailer\n<< /Size %d /Root %d 0 R /Info %d 0 R >>\nstartxref\n%d\n%%%%EOF\n"
                      % (size, root.idnum, info_ref.idnum, xref))

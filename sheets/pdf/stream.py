"""A PDF written object by object to disk, so memory does not grow with the page count.

No library writes a file incrementally, so this writer knows bytes and object numbers: each
object is written as soon as it is made and only its byte offset kept; small objects go into
object streams, and the file ends in a cross-reference stream (and an /ID, an MD5 of its bytes). What it
writes are pikepdf's objects (a source page's resources, copied object by object and renumbered:
`_import`) and Python values naming this file's objects (`Ref`), in one syntax (`syntax`).

What a page is made of (a blank's page drawn as a form XObject, a reportlab overlay page on top,
its structure elements) is the tagged writer's, `sheets.pdf.tagged.TaggedPdf`, the one kind of
file written here. The same calls in the same order give the same bytes.
"""
from __future__ import annotations

import hashlib
import io
import sys
import zlib
from array import array
from decimal import Decimal
from typing import BinaryIO

from sheets.base import interrupts

with interrupts.held():  # a Ctrl-C while pikepdf registers its C++ types aborts the process
    import pikepdf
    from pikepdf import Array, Dictionary, Name

_HEADER = b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n"
PACK = 200  # objects per object stream
_PACKED = 1 << 62  # an offsets entry that is (object stream << 16 | index), not a byte offset
_TYPE1, _TYPE2 = 1 << 56, 2 << 56  # a cross-reference row's first byte (`_xref_stream`)


class Ref(int):
    """An object number of the file being written: `syntax` writes it as a reference."""


def _real(value) -> bytes:
    text = format(value, "f") if isinstance(value, Decimal) else f"{value:.4f}"
    text = text.rstrip("0").rstrip(".") if "." in text else text
    return (text if text not in ("", "-", "-0") else "0").encode()


def syntax(value, number=None) -> bytes:
    """`value` in PDF syntax: a pikepdf object (each indirect object of a source file written
    as a reference to `number(obj)`, this file's number for it), or a Python dict (names to
    values), list, `Ref`, number, bool, None (null), or bytes (syntax already)."""
    if isinstance(value, bytes):
        return value
    if isinstance(value, Ref):
        return b"%d 0 R" % value
    if isinstance(value, bool):
        return b"true" if value else b"false"
    if isinstance(value, int):
        return b"%d" % value
    if isinstance(value, (float, Decimal)):
        return _real(value)
    if value is None:
        return b"null"
    if isinstance(value, dict):
        return b"<< " + b" ".join(Name(k).unparse() + b" " + syntax(v, number) for k, v in value.items()) + b" >>"
    if isinstance(value, list):
        return b"[ " + b" ".join(syntax(v, number) for v in value) + b" ]"
    if value.is_indirect and number is not None and isinstance(value, (Dictionary, Array, pikepdf.Stream)):
        return b"%d 0 R" % number(value)
    if isinstance(value, Dictionary):
        return syntax(dict(value.items()), number)
    if isinstance(value, Array):
        return syntax(list(value), number)
    return value.unparse()


def open_source(data: bytes) -> pikepdf.Pdf:
    """A source PDF (a blank, an overlay) read from its bytes."""
    return pikepdf.open(io.BytesIO(data))


def page_content(page: pikepdf.Page) -> bytes:
    """A page's content, decoded (its streams joined, when it has several)."""
    contents = page.obj.get("/Contents")
    if contents is None:
        return b""
    return b"\n".join(c.read_bytes() for c in contents) if isinstance(contents, Array) else contents.read_bytes()


def uri_links(page: pikepdf.Page) -> list[tuple[list, str]]:
    """The page's link annotations that open a URI: (rectangle, URI)."""
    found = []
    for annot in page.obj.get("/Annots", Array()):
        action = annot.get("/A")
        if annot.get("/Subtype") == Name.Link and action is not None and action.get("/S") == Name.URI:
            found.append(([float(v) for v in annot.Rect], str(action.URI)))
    return found


def fresh_links(links: list[tuple[list, str]]) -> list[dict]:
    """New link annotations (an annotation belongs to one page)."""
    return [{"/Type": Name.Annot, "/Subtype": Name.Link, "/Rect": list(rect), "/Border": [0, 0, 0],
             "/A": {"/S": Name.URI, "/URI": pikepdf.String(uri)}} for rect, uri in links]


class _Hashed:
    """A file handle that keeps an MD5 of what is written (the file's /ID: from the content, so
    the same input gives the same bytes)."""

    def __init__(self, handle: BinaryIO):
        self.handle, self.md5 = handle, hashlib.md5()

    def write(self, data: bytes) -> int:
        self.md5.update(data)
        return self.handle.write(data)

    def tell(self) -> int:
        return self.handle.tell()


class StreamingPdf:
    """Write a PDF object by object; `close()` writes the page tree and the xref."""

    def __init__(self, handle: BinaryIO, title: str = "", keywords: str = "") -> None:
        self._f = _Hashed(handle)
        self._keywords = keywords  # the info's /Keywords: what rolled the file's dice, never on a page
        self._offsets = array("Q", [0])  # by object number (a dict would grow ~100 bytes an object)
        self._count = 0
        self._f.write(_HEADER)
        self._pages = self._reserve()
        self._kids: list[int] = []
        self._memo: dict[tuple[str, tuple[int, int]], int] = {}
        self._title = title
        self._pending: list[tuple[int, bytes]] = []  # objects for the next object stream (_pack)
        self._source = ""  # the source file being imported from (`_import`)

    # -- objects --------------------------------------------------------------
    def _reserve(self) -> int:
        self._count += 1
        self._offsets.append(0)
        return self._count

    def _reserve_many(self, n: int) -> int:
        """`n` consecutive object numbers; the first."""
        first = self._count + 1
        self._count += n
        self._offsets.extend([0] * n)
        return first

    def _write_bytes(self, num: int, data: bytes) -> None:
        """Object `num`, its PDF syntax `data`, at its own byte offset."""
        self._offsets[num] = self._f.tell()
        self._f.write(b"%d 0 obj\n" % num)
        self._f.write(data)
        self._f.write(b"\nendobj\n")

    def _write_stream(self, num: int, entries: dict, data: bytes) -> None:
        """A stream object: its entries (its /Length added) and its bytes, as they are."""
        entries = {**entries, "/Length": len(data)}
        self._write_bytes(num, syntax(entries, self._number) + b"\nstream\n" + data + b"\nendstream")

    def _pack_bytes(self, num: int, data: bytes) -> None:
        """Object `num` (not a stream), written into an object stream with its neighbours
        (compressed together: a tagged file's thousands of small structure elements)."""
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
        self._write_stream(stm, {"/Type": Name.ObjStm, "/N": len(self._pending), "/First": len(header),
                                 "/Filter": Name.FlateDecode}, zlib.compress(body, 6))
        self._pending = []

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
        entries = {"/Type": Name.XRef, "/Size": self._count + 1, "/W": [1, 5, 2], "/Root": Ref(root),
                   "/Info": Ref(info), "/Filter": Name.FlateDecode}
        ident = self._f.md5.digest()  # the file's identifier, from its own bytes (the same input, the same /ID)
        entries["/ID"] = [pikepdf.String(ident), pikepdf.String(ident)]
        self._write_stream(num, entries, zlib.compress(rows.tobytes(), 6))
        self._f.write(b"startxref\n%d\n%%%%EOF\n" % at)

    def _add(self, value) -> Ref:
        num = self._reserve()
        self._write_bytes(num, syntax(value, self._number))
        return Ref(num)

    def _add_stream(self, data: bytes, entries: dict | None = None, compressed: bool = False) -> Ref:
        """A new stream of `data`, compressed (`compressed`: it is already, as zlib.compress(data, 6))."""
        num = self._reserve()
        self._write_stream(num, {"/Filter": Name.FlateDecode, **(entries or {})},
                           data if compressed else zlib.compress(data, 6))
        return Ref(num)

    def _number(self, obj) -> int:
        """This file's number for an indirect object of the source being imported (`_import`)."""
        return self._import_ref(self._source, obj)

    def _import(self, source: str, value) -> bytes:
        """A value of a source PDF in PDF syntax, every object it references copied into this
        file (once per source object)."""
        self._source = source
        return syntax(value, self._number)

    def _import_ref(self, source: str, obj) -> int:
        key = (source, obj.objgen)
        num = self._memo.get(key)
        if num is None:
            num = self._memo[key] = self._reserve()
            if isinstance(obj, pikepdf.Stream):
                entries = {k: v for k, v in obj.items() if k != "/Length"}
                self._write_stream(num, entries, obj.read_raw_bytes())
            else:  # its own value, not a reference to itself
                self._write_bytes(num, syntax(dict(obj.items()) if isinstance(obj, Dictionary) else list(obj),
                                              self._number))
        return num

    # -- pages ----------------------------------------------------------------
    def form_entries(self, source: str, pdf: pikepdf.Pdf, index: int) -> dict:
        """The entries of page `index`'s form XObject, its resources imported into this file."""
        page = pdf.pages[index]
        entries = {"/Type": Name.XObject, "/Subtype": Name.Form, "/BBox": [float(v) for v in page.mediabox],
                   "/Resources": self._import(source, page.obj.get("/Resources", Dictionary()))}
        if "/Group" in page.obj:
            entries["/Group"] = self._import(source, page.obj.Group)
        return entries

    def _page_resources(self, source: str, resources, form: Ref) -> dict:
        """An overlay page's resources, imported, with the blank's form as `/WSBase`."""
        found: dict[str, object] = {k: self._import(source, v) for k, v in resources.items() if k != "/XObject"}
        xobjects = resources.get("/XObject", Dictionary())
        found["/XObject"] = {**{k: self._import(source, v) for k, v in xobjects.items()}, "/WSBase": form}
        return found

    def close(self, catalog: dict | None = None, title: str | None = None) -> None:
        """The page tree, the catalog (with `catalog`'s entries), the info (`title`, else the
        one given at the start) and the xref."""
        self._write_bytes(self._pages, syntax({"/Type": Name.Pages, "/Kids": [Ref(n) for n in self._kids],
                                               "/Count": len(self._kids)}))
        root = self._add({"/Type": Name.Catalog, "/Pages": Ref(self._pages), **(catalog or {})})
        info = {"/Producer": pikepdf.String("warsheets")}
        if self._keywords:
            info["/Keywords"] = pikepdf.String(self._keywords)
        if title or self._title:
            info["/Title"] = pikepdf.String(title or self._title)
        info_ref = self._add(info)
        self._xref_stream(root, info_ref)

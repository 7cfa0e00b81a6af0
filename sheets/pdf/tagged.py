"""A stamped file tagged and finished while it is written: `finish_pdf`'s work in one pass.

`TaggedPdf` is a `StreamingPdf` that does, page by page, what `sheets.pdf.finish` does to
a whole stamped file afterwards (the same structure, the same content, the same document
entries), so that nothing proportional to the page count is held: each page gets its own
copy of its blank's form (with `/StructParents`) and its structure elements (marked-content
references into that form), its own text marked as a `Span` of a `P`, the rest as an
`Artifact`; its web links join the page's Link elements. Only numbers are kept for the end:
the parent tree's entries (one object number per key) and the Document's kids. `close()`
writes the structure tree root, `/MarkInfo`, `/Lang`, the title shown by the viewer, the XMP
metadata (fixed dates) and the xref. Letter-spaced runs of the blanks carry their words as
`/ActualText` (`sheets.pdf.spacing`), and every page has a `/TrimBox`.
"""
from __future__ import annotations

import hashlib
import io
from array import array
from typing import BinaryIO

from pypdf import PdfReader
from pypdf.generic import (
    ArrayObject, BooleanObject, DictionaryObject, FloatObject, IndirectObject, NameObject, NullObject,
    NumberObject, StreamObject, TextStringObject,
)

from sheets.pdf.stream import StreamingPdf, _fresh, _page_content
from sheets.pdf.finish import _xmp, pikepdf
from sheets.pdf.spacing import cmap_codes, mark_bytes
from sheets.pdf.marking import _BASE, BASE_DRAWN, mark_content

_KEPT = ("/Alt", "/ActualText", "/Lang", "/E", "/T", "/A", "/C", "/ID")


def _printable_link(annot) -> None:
    """A link printable and described, as `sheets.pdf.ua.print_links` makes one (PDF/UA-1)."""
    if annot.get("/Subtype") != "/Link":
        return
    annot[_name("/F")] = NumberObject(int(annot.get("/F", 0)) | 4)
    if "/Contents" not in annot:
        action = annot.get("/A")
        uri = action.get_object().get("/URI") if action is not None else None
        annot[_name("/Contents")] = TextStringObject(f"Link to {uri}" if uri is not None else "Link within the document")


def _ref(num: int) -> IndirectObject:
    return IndirectObject(num, 0, None)


def _name(value: str) -> NameObject:
    return NameObject(value)


def _cmaps(resources) -> callable:
    fonts = resources.get("/Font") if resources is not None else None
    fonts = fonts.get_object() if fonts is not None else DictionaryObject()

    def cmap_of(name: str):
        font = fonts.get(name)
        font = font.get_object() if font is not None else None
        if font is None or font.get("/Subtype") != "/Type0" or "/ToUnicode" not in font:
            return None
        return cmap_codes(font["/ToUnicode"].get_object().get_data())
    return cmap_of


def _syntax(obj) -> bytes:
    buf = io.BytesIO()
    obj.write_to_stream(buf)
    return buf.getvalue()


class _Base:
    """A blank's page, ready to be drawn on every page stamped on it: its content (compressed
    once), its form entries, its web links, and its structure compiled once (`nodes`, in the
    order of a depth-first walk: (the element's role and attributes as PDF syntax, its
    parent's index or -1, its kids: (True, a kid's index) or (False, an MCID)); `tops`, the
    top elements; `owners`, MCID -> index; `links`, the Link elements' indices)."""

    __slots__ = ("data", "entries", "web", "nodes", "tops", "owners", "links", "copy", "elements")

    def __init__(self, data: bytes, entries: dict, structure, web: list):
        self.data, self.entries, self.web = data, entries, web
        self.copy: tuple[bytes, bytes] | None = None  # a page's copy of the form, written out (`_form_copy`)
        # a page's structure elements and its form's parent tree entry, written out as formats
        # (`_elements`, `_form_owners`), by the distance from the page's number to its first element's
        self.elements: dict = {}
        self.nodes: list = []
        owners: dict[int, int] = {}
        self.tops = [self._compile(desc, -1, owners) for desc in structure] if structure is not None else []
        self.owners = [owners.get(i) for i in range(max(owners) + 1)] if owners else []
        self.links = [i for i, node in enumerate(self.nodes) if node[0].startswith(b"/S /Link")]

    def _compile(self, desc, parent: int, owners: dict) -> int:
        index = len(self.nodes)
        head = b"/S " + _syntax(desc["/S"]) + b"".join(
            b" " + key.encode() + b" " + _syntax(desc[key]) for key in _KEPT if key in desc)
        kids: list = []
        self.nodes.append((head, parent, kids))
        for kid in desc.get("/K", ArrayObject()):
            if isinstance(kid, int):
                kids.append((False, int(kid)))
                owners[int(kid)] = index
            else:
                kids.append((True, self._compile(kid, index, owners)))
        return index


_ANY_FORM = 2**31 - 1  # an object number no file here reaches: where a page's form goes (`_resources`)
_MCR = b"<< /Type /MCR /MCID %d /Pg %d 0 R /Stm %d 0 R >>"
_OBJR = b"<< /Type /OBJR /Obj %d 0 R /Pg %d 0 R >>"
_ELEM = b"<< /Type /StructElem %s /P %d 0 R /Pg %d 0 R /K [ %s ] >>"


class _Hashed:
    """A file handle that keeps an MD5 of what is written (the file's /ID, as qpdf's
    deterministic /ID was: from the content, so the same input gives the same bytes)."""

    def __init__(self, handle: BinaryIO):
        self.handle, self.md5 = handle, hashlib.md5()

    def write(self, data: bytes) -> int:
        self.md5.update(data)
        return self.handle.write(data)

    def tell(self) -> int:
        return self.handle.tell()


class TaggedPdf(StreamingPdf):
    """A StreamingPdf whose pages are tagged as they are written (see the module)."""

    def __init__(self, handle: BinaryIO, title: str = "", lang: str = "en") -> None:
        super().__init__(_Hashed(handle), title)  # type: ignore[arg-type]
        self._lang = lang
        self._document = self._reserve()
        self._doc_kids = array("Q")
        self._nums = array("Q")  # the parent tree: key i -> object number
        self._bases: dict[tuple[str, int], _Base] = {}
        self._scratch = pikepdf.new()
        self._resources_of: tuple[str | None, dict] = (None, {})  # one overlay's at a time (`_resources`)
        self._boxes: dict[tuple, bytes] = {}  # a page size's box, written out
        self._ops = pikepdf.Stream(self._scratch, b"")

    # -- the blanks -------------------------------------------------------------
    def form(self, source: str, reader: PdfReader, index: int):  # type: ignore[override]
        key = (source, index)
        if key not in self._bases:
            content, entries, structure, links = self.form_parts(source, reader, index)
            page = reader.pages[index]
            content = mark_bytes(content, _cmaps(page.get("/Resources"))) or content
            stream = self._stream(content, entries)
            self._bases[key] = _Base(stream._data, entries, structure, links)  # noqa: SLF001
        return key

    def forget(self, source: str) -> None:
        """A source drawn for the last time (a part laid out in full): let its pages go."""
        for key in [k for k in self._bases if k[0] == source]:
            del self._bases[key]

    def _form_copy(self, base: _Base, num: int, struct_parents: int | None) -> None:
        """The page's own copy of its blank's form: the same bytes for every page but its
        `/StructParents`, so it is written out once per blank (as pypdf writes the stream: its
        entries, `/StructParents`, `/Length`) and only that number is put in."""
        if base.copy is None:
            entries = DictionaryObject({_name("/Filter"): _name("/FlateDecode")})
            for k, v in base.entries.items():
                entries[_name(k)] = v
            base.copy = (_syntax(entries)[:-2],  # without its ">>"
                         b"/Length %d\n>>\nstream\n%s\nendstream" % (len(base.data), base.data))
        head, tail = base.copy
        self._write_bytes(num, head + (b"/StructParents %d\n" % struct_parents if struct_parents is not None else b"")
                          + tail)

    # -- the parent tree ----------------------------------------------------------
    def _entry(self, num: int) -> int:
        self._nums.append(num)
        return len(self._nums) - 1

    def _form_owners(self, base: _Base, first: int, delta: int) -> int:
        """`_owners_entry` of the page's form (MCID -> its element), its array written out once per
        blank as a format (each element's number is the page's own plus a constant)."""
        key = ("owners", delta)
        if key not in base.elements:
            items = [b"%d 0 R" if i is not None else b"null" for i in base.owners]
            base.elements[key] = (b"[ " + b" ".join(items) + b" ]", [delta + i for i in base.owners if i is not None])
        form, offsets = base.elements[key]
        page = first - delta
        num = self._reserve()
        self._pack_bytes(num, form % tuple([page + k for k in offsets]))
        return self._entry(num)

    def _owners_entry(self, owners: list) -> int:
        num = self._reserve()
        self._pack_bytes(num, b"[ " + b" ".join(b"%d 0 R" % o if o is not None else b"null" for o in owners) + b" ]")
        return self._entry(num)

    # -- pages ------------------------------------------------------------------
    def _ops_of(self, content: bytes) -> list:
        self._ops.write(content)
        return pikepdf.parse_content_stream(self._ops)

    def add_page(self, form, size: tuple[float, float],  # type: ignore[override]
                 overlay_source: str | None = None, overlay=None) -> None:
        base = self._bases[form]
        content = BASE_DRAWN + (_page_content(overlay) if overlay is not None else b"")
        marked, events = mark_content(self._ops_of(content), bool(base.nodes))
        self._tagged_page(base, size, self._stream(marked), events, overlay_source, overlay)

    def tagged(self, form) -> bool:
        """Whether the blank `form` (as `form` returned it) carries tags."""
        return bool(self._bases[form].nodes)

    def add_marked_page(self, form, size: tuple[float, float], overlay_source: str, overlay,
                        marked: bytes, events: str) -> None:
        """`add_page` of a page whose content a worker marked already (`mark_content`, for a
        tagged blank), compressed as `_stream` compresses: the same bytes, its work done there.
        A page on a blank with no tags is marked here, as `add_page` does."""
        base = self._bases[form]
        if not base.nodes:
            self.add_page(form, size, overlay_source, overlay)
            return
        stream = StreamObject()
        stream._data = marked  # noqa: SLF001
        stream[_name("/Filter")] = _name("/FlateDecode")
        self._tagged_page(base, size, stream, events, overlay_source, overlay)

    def _tagged_page(self, base: "_Base", size, content: StreamObject, events: str, overlay_source, overlay) -> None:
        """The page's objects, numbered in the order of its marked content's `events`: "F" the
        blank's form (its structure elements), "T" a run of the page's own text (a P element)."""
        page, form_num = self._reserve(), self._reserve()
        first = 0  # the number of the form's first element (0: the form is not tagged here)
        spans: list[int] = []
        tops: list[int] = []
        form_parents = None
        for event in events:
            if event == "F":
                first = self._reserve_many(len(base.nodes))
                tops += [first + i for i in base.tops]
                if base.owners:
                    form_parents = self._form_owners(base, first, first - page)
            else:
                num = self._reserve()
                self._pack_bytes(num, b"<< /Type /StructElem /S /P /P %d 0 R /Pg %d 0 R /K %d >>"
                                 % (self._document, page, len(spans)))
                tops.append(num)
                spans.append(num)
        objrs, annots = self._links_of(base, page, first, tops)
        if first:
            elements = self._elements(base, first - page) if not objrs else None
            if elements is not None:  # the page's elements in one go: every number is the page's + k
                form, offsets = elements
                self._pack_run(first, (form % tuple([page + k for k in offsets])).split(b"\0"))
            else:
                for i, (head, parent, kids) in enumerate(base.nodes):
                    items = [b"%d 0 R" % (first + v) if child else _MCR % (v, page, form_num) for child, v in kids]
                    items += objrs.get(i, [])
                    self._pack_bytes(first + i, _ELEM % (head, first + parent if parent >= 0 else self._document,
                                                         page, b" ".join(items)))
        self._doc_kids.extend(tops)
        self._form_copy(base, form_num, form_parents)
        self._write_page(page, form_num, size, content, overlay_source, overlay, annots, self._owners_entry(spans))

    def _elements(self, base: _Base, delta: int) -> tuple[bytes, list[int]] | None:
        """A page's structure elements (a page with no web links) as one format and its numbers:
        each number in them is the page's own (P) plus a constant (its form is P + 1, its first
        element P + `delta`), the Document's is written in, and the elements are cut apart at
        NULs (None if the blank's own text holds one: the page is then written element by
        element). The same bytes as `_ELEM` and `_MCR` made one at a time."""
        if delta not in base.elements:
            forms, offsets = [], []
            for head, parent, kids in base.nodes:
                offsets += [delta + parent, 0] if parent >= 0 else [0]  # its parent, its page
                items = []
                for child, v in kids:
                    if child:
                        items.append(b"%d 0 R")
                        offsets.append(delta + v)
                    else:
                        items.append(b"<< /Type /MCR /MCID %d /Pg %%d 0 R /Stm %%d 0 R >>" % v)
                        offsets += [0, 1]
                forms.append(b"<< /Type /StructElem %s /P %s 0 R /Pg %%d 0 R /K [ %s ] >>" % (
                    head.replace(b"%", b"%%"), b"%d" if parent >= 0 else b"%d" % self._document, b" ".join(items)))
            ok = not any(b"\0" in form for form in forms)
            base.elements[delta] = (b"\0".join(forms), offsets) if ok else None
        return base.elements[delta]

    def _links_of(self, base: _Base, page: int, first: int, tops: list[int]) -> tuple[dict, list[int]]:
        """The page's web links, each joined to the page's Link elements in order (a link
        without one gets its own): ({element index: its object references}, annotations)."""
        if not base.web:
            return {}, []
        found = base.links if first else []
        objrs: dict[int, list[bytes]] = {}
        annots = []
        for i, annot in enumerate(_fresh(base.web)):
            anum = self._reserve()
            objr = _OBJR % (anum, page)
            if i < len(found):
                elem = first + found[i]
                objrs.setdefault(found[i], []).append(objr)
            else:
                elem = self._reserve()
                self._pack_bytes(elem, _ELEM % (b"/S /Link", self._document, page, objr))
                tops.append(elem)
            annot[_name("/StructParent")] = NumberObject(self._entry(elem))
            annot[_name("/P")] = _ref(page)
            _printable_link(annot)
            self._pack(anum, annot)
            annots.append(anum)
        return objrs, annots

    def _resources(self, source: str, res) -> tuple[bytes, bytes]:
        """A page's resources (its overlay page's, imported, and its blank's form as `/WSBase`)
        written out, in two parts: the form's object number goes between them. Imported once
        per resources dictionary of an overlay (its pages mostly share one), not once per page;
        the same objects, numbered at the same moment, so the same bytes."""
        if source != self._resources_of[0]:
            self._resources_of = (source, {})
        found = self._resources_of[1].get(id(res))
        if found is None:
            resources = self._import(source, res.get_object()) if res is not None else DictionaryObject()
            xobjects = resources.get("/XObject")
            xobjects = DictionaryObject(xobjects.get_object()) if xobjects is not None else DictionaryObject()
            xobjects[_name(_BASE)] = _ref(_ANY_FORM)
            resources[_name("/XObject")] = xobjects
            head, tail = _syntax(resources).split(b"%d 0 R" % _ANY_FORM)
            found = self._resources_of[1][id(res)] = (res, head, tail)  # `res` kept: its id stays its own
        return found[1], found[2]

    def _write_page(self, num: int, form: int, size, content: StreamObject, overlay_source, overlay,
                    annots: list[int], struct_parents: int) -> None:
        """The page object, written out as pypdf writes its dictionary (the same bytes)."""
        head, tail = self._resources(overlay_source or "overlay", overlay.get("/Resources") if overlay is not None
                                     else None)
        box = self._boxes.get(size)
        if box is None:
            box = self._boxes[size] = _syntax(ArrayObject([NumberObject(0), NumberObject(0), FloatObject(size[0]),
                                                           FloatObject(size[1])]))
        page = (b"<<\n/Type /Page\n/Parent %d 0 R\n/MediaBox %s\n/Resources %s%d 0 R%s\n/Contents %d 0 R\n"
                b"/StructParents %d\n/Tabs /S\n/TrimBox %s\n"
                % (self._pages, box, head, form, tail, self._add(content).idnum, struct_parents, box))
        if annots:
            page += b"/Annots [%s ]\n" % b"".join(b" %d 0 R" % a for a in annots)
        self._pack_bytes(num, page + b">>")
        self._kids.append(num)

    def _identity(self) -> bytes:
        return self._f.md5.digest()  # type: ignore[attr-defined]

    # -- the document -------------------------------------------------------------
    def close(self, catalog: dict | None = None, title: str | None = None) -> None:  # type: ignore[override]
        title = title or self._title or "warsheets"
        tree_num, parents_num = self._reserve(), self._reserve()
        # the two objects as long as the document, written as pypdf writes a dictionary and an
        # array (the same bytes), without making an object per entry
        # (each list made by one format over all its numbers: they end the file, on one core)
        self._pack_bytes(self._document, b"<<\n/Type /StructElem\n/S /Document\n/P %d 0 R\n/K [%s ]\n>>" % (
            tree_num, b" %d 0 R" * len(self._doc_kids) % tuple(self._doc_kids)))
        keyed = [0] * (2 * len(self._nums))
        keyed[::2], keyed[1::2] = range(len(self._nums)), self._nums
        self._pack_bytes(parents_num, b"<<\n/Nums [%s ]\n>>" % (b" %d %d 0 R" * len(self._nums) % tuple(keyed)))
        self._pack(tree_num, DictionaryObject({
            _name("/Type"): _name("/StructTreeRoot"), _name("/K"): _ref(self._document),
            _name("/ParentTree"): _ref(parents_num), _name("/ParentTreeNextKey"): NumberObject(len(self._nums))}))
        xmp = StreamObject()  # not compressed: the packet stays readable to any tool
        xmp._data = _xmp(title, self._lang, "warsheets")  # noqa: SLF001
        xmp[_name("/Type")], xmp[_name("/Subtype")] = _name("/Metadata"), _name("/XML")
        metadata = self._add(xmp)
        super().close({"/StructTreeRoot": _ref(tree_num), "/MarkInfo": DictionaryObject(
            {_name("/Marked"): BooleanObject(True)}), "/Lang": TextStringObject(self._lang),
            "/ViewerPreferences": DictionaryObject({_name("/DisplayDocTitle"): BooleanObject(True)}),
            "/Metadata": metadata, **(catalog or {})}, title)

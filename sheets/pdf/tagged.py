"""The one tagger: a stamped file, or an imposed card sheet, tagged and finished as it is written.

`TaggedPdf` is a `StreamingPdf` whose pages are tagged as they are written, so that nothing
proportional to the page count is held. A stamped page (`add_page`) gets its own
copy of its blank's form (with `/StructParents`) and its structure elements (marked-content
references into that form), its own text marked as a `Span` of a `P`, the rest as an
`Artifact`; its web links join the page's Link elements. Only numbers are kept for the end:
the parent tree's entries (one object number per key) and the Document's kids. `close()`
writes the structure tree root, `/MarkInfo`, `/Lang`, the title shown by the viewer, the XMP
metadata (fixed dates) and the xref. Letter-spaced runs of the blanks carry their words as
`/ActualText` (`sheets.pdf.spacing`), and every page has a `/TrimBox`. A paper page of imposed
cards (`add_units_page`) draws several card pages as forms, each card's first drawing a `Div` of
its page's elements, a card drawn again an artifact.

A blank's structure is compiled once (`_Base`): each page's elements are then one format in
which only object numbers are put (`_elements`), so 1,000 playbooks' 300,000 elements cost
little more than writing their bytes.
"""
from __future__ import annotations

import base64
import copy
import json
import zlib
from array import array
from typing import BinaryIO

from sheets.pdf.finish import pikepdf, xmp_packet
from sheets.pdf.marking import BASE_DRAWN, mark_content
from sheets.pdf.spacing import mark_bytes, to_unicode
from sheets.pdf import carried, stream
from sheets.pdf.carried import KEPT, page_structure
from sheets.pdf.stream import Ref, StreamingPdf, fresh_links, page_content, syntax
from sheets.pdf.ua import printable_link, scope_tables

Name, Dictionary = pikepdf.Name, pikepdf.Dictionary


def _refs(numbers) -> bytes:
    """An array of references to these object numbers (the Document's kids, a parent-tree entry:
    null for None), made in one go: they end the file, and are as long as the document."""
    return b"[ " + b" ".join(b"%d 0 R" % n if n is not None else b"null" for n in numbers) + b" ]"


class _Base:
    """A blank's page, ready to be drawn on every page stamped on it: its content (compressed
    once), its form entries, its web links, and its structure compiled once (`nodes`, in the
    order of a depth-first walk: (the element's role and attributes as PDF syntax, its
    parent's index or -1, its kids: (True, a kid's index) or (False, an MCID)); `tops`, the
    top elements; `owners`, MCID -> index; `links`, the Link elements' indices)."""

    __slots__ = ("data", "entries", "web", "nodes", "tops", "owners", "links", "elements")

    def __init__(self, data: bytes, entries: dict, structure, web: list):
        self.data, self.entries, self.web = data, entries, web
        self.elements: dict = {}  # a page's structure elements as one format, by `delta` (`_elements`)
        self.nodes: list = []
        owners: dict[int, int] = {}
        self.tops = [self._compile(desc, -1, owners) for desc in structure] if structure is not None else []
        self.owners = [owners.get(i) for i in range(max(owners) + 1)] if owners else []
        self.links = [i for i, node in enumerate(self.nodes) if node[0].startswith(b"/S /Link")]

    def _compile(self, desc, parent: int, owners: dict) -> int:
        index = len(self.nodes)
        present = desc.keys()  # once: `key in desc` asks qpdf again for every key of KEPT
        head = b"/S " + syntax(desc.S) + b"".join(
            b" " + key.encode() + b" " + syntax(desc[key]) for key in KEPT if key in present)
        kids: list = []
        self.nodes.append((head, parent, kids))
        for kid in desc.get("/K", []):
            if isinstance(kid, int):
                kids.append((False, kid))
                owners[kid] = index
            else:
                kids.append((True, self._compile(kid, index, owners)))
        return index


#: source files whose pages were made ready to be tagged forms (`prepared`), kept at most: a
#: job's blanks, and the parts laid out in full that a batch reads ahead while its workers lay out
#: the rest (by `id`: a pikepdf.Pdf takes no weak reference; each entry holds its file, so no id is reused)
_PREPARED: dict[int, tuple[pikepdf.Pdf, dict[int, _Base]]] = {}
_PREPARED_MAX = 128


def prepared(pdf: pikepdf.Pdf, index: int) -> _Base:
    """Page `index` of a source PDF as the form of a tagged page, all but its resources (those are
    imported into each file: `TaggedPdf.form`): its content with its letter-spaced runs marked
    (sheets.pdf.spacing), compressed, and its structure (sheets.pdf.carried) with the tables'
    repairs `finish` makes to a whole file (PDF/UA-1), compiled. Made once per page, before
    the file it goes in is open when a batch reads it ahead (sheets.pipeline.stamp.write)."""
    hit = _PREPARED.get(id(pdf))
    if hit is None or hit[0] is not pdf:
        if len(_PREPARED) >= _PREPARED_MAX:  # keep the newest
            del _PREPARED[next(iter(_PREPARED))]
        hit = _PREPARED[id(pdf)] = (pdf, {})
    pages = hit[1]
    if index not in pages:
        page = pdf.pages[index]
        fonts = page.obj.get("/Resources", Dictionary()).get("/Font", Dictionary())
        content = page_content(page)
        content = mark_bytes(content, lambda name: to_unicode(fonts[name]) if name in fonts else None) or content
        structure = page_structure(pdf, index)
        if structure is not None:
            scope_tables(structure)
        pages[index] = _Base(zlib.compress(content, 6), {}, structure, stream.uri_links(page))
    return pages[index]


#: what `dump_prepared` writes: raise it when `_Base` or what `prepared` makes of a page changes
PREPARED_FORMAT = "prepared 1: content marked and compressed, structure compiled, tables scoped"


def dump_prepared(pdf: pikepdf.Pdf, pages: int) -> bytes | None:
    """Every page of `pdf` as `prepared` made it, as JSON (a blank's cache entry keeps it, so that
    the next file stamped on that blank only renumbers it); None until every page is made."""
    hit = _PREPARED.get(id(pdf))
    if hit is None or hit[0] is not pdf or any(i not in hit[1] for i in range(pages)):
        return None
    out = []
    for i in range(pages):
        b = hit[1][i]
        out.append({"data": base64.b64encode(b.data).decode("ascii"), "web": b.web,
                    "nodes": [[head.decode("latin-1"), parent, [[int(child), v] for child, v in kids]]
                              for head, parent, kids in b.nodes],
                    "tops": b.tops, "owners": b.owners, "links": b.links})
    return json.dumps({"format": PREPARED_FORMAT, "pages": out}, separators=(",", ":")).encode()


def load_prepared(pdf: pikepdf.Pdf, data: bytes) -> bool:
    """`pdf`'s pages as `dump_prepared` wrote them, taken for what `prepared` would make of them
    (the same values: the same bytes in every file stamped on them). False: not of this format."""
    try:
        found = json.loads(data)
    except ValueError:
        return False
    if not isinstance(found, dict) or found.get("format") != PREPARED_FORMAT:
        return False
    pages: dict[int, _Base] = {}
    for i, page in enumerate(found["pages"]):
        b = _Base(base64.b64decode(page["data"]), {}, None, [(list(rect), uri) for rect, uri in page["web"]])
        b.nodes = [(head.encode("latin-1"), parent, [(bool(child), v) for child, v in kids])
                   for head, parent, kids in page["nodes"]]
        b.tops, b.owners, b.links = page["tops"], page["owners"], page["links"]
        pages[i] = b
    if len(_PREPARED) >= _PREPARED_MAX:
        del _PREPARED[next(iter(_PREPARED))]
    _PREPARED[id(pdf)] = (pdf, pages)
    return True


def forget(pdf: pikepdf.Pdf) -> None:
    """`pdf` drawn for the last time: what was made of its pages goes (bounds a batch's memory)."""
    hit = _PREPARED.get(id(pdf))
    if hit is not None and hit[0] is pdf:
        del _PREPARED[id(pdf)]
    carried.forget(pdf)


_ANY_FORM = 2**31 - 1  # an object number no file here reaches: where a page's form goes (`_resources`)
_MCR = b"<< /Type /MCR /MCID %d /Pg %d 0 R /Stm %d 0 R >>"
_OBJR = b"<< /Type /OBJR /Obj %d 0 R /Pg %d 0 R >>"
_ELEM = b"<< /Type /StructElem %s /P %d 0 R /Pg %d 0 R /K [ %s ] >>"


class TaggedPdf(StreamingPdf):
    """A StreamingPdf whose pages are tagged as they are written (see the module)."""

    def __init__(self, handle: BinaryIO, title: str = "", lang: str = "en", keywords: str = "") -> None:
        super().__init__(handle, title, keywords)
        self._lang = lang
        self._document = self._reserve()
        self._doc_kids = array("Q")
        self._nums = array("Q")  # the parent tree: key i -> object number
        self._bases: dict[tuple[str, int], _Base] = {}
        self._resources_of: tuple[str | None, dict] = (None, {})  # one overlay's at a time (`_resources`)
        self._scratch = pikepdf.new()  # holds the stream a page's content is parsed from
        self._ops = pikepdf.Stream(self._scratch, b"")
        self._units: set[tuple[str, int]] = set()  # imposed units drawn once (`add_units_page`)
        self._twins: dict[tuple[str, int], int] = {}  # unit -> its artifact twin's number

    # -- the blanks -------------------------------------------------------------
    def form(self, source: str, pdf, index: int, group: bool = True):
        """Page `index` of a source PDF as a form this file draws (its key); `group`: with the
        page's transparency group (an imposed card is drawn as its page's content, without)."""
        key = (source, index)
        if key not in self._bases:
            base = copy.copy(prepared(pdf, index))  # what is the source page's alone, then this file's:
            base.entries = {**self.form_entries(source, pdf, index), "/Filter": Name.FlateDecode}
            if not group:
                base.entries.pop("/Group", None)
            base.elements = {}  # (its formats hold this file's Document number)
            self._bases[key] = base
        return key

    def forget(self, source: str) -> None:
        """A source drawn for the last time (a part laid out in full): let its pages go."""
        for key in [k for k in self._bases if k[0] == source]:
            del self._bases[key]

    def tagged(self, form) -> bool:
        """Whether the blank `form` (as `form` returned it) carries tags."""
        return bool(self._bases[form].nodes)

    # -- the parent tree ----------------------------------------------------------
    def _entry(self, num: int) -> int:
        self._nums.append(num)
        return len(self._nums) - 1

    def _owners_entry(self, owners: list) -> int:
        num = self._reserve()
        self._pack_bytes(num, _refs(owners))
        return self._entry(num)

    # -- pages ------------------------------------------------------------------
    def add_page(self, form, size: tuple[float, float],
                 overlay_source: str | None = None, overlay=None) -> None:
        base = self._bases[form]
        self._ops.write(BASE_DRAWN + (page_content(overlay) if overlay is not None else b""))
        marked, events = mark_content(pikepdf.parse_content_stream(self._ops), bool(base.nodes))
        resources = overlay.obj.get("/Resources") if overlay is not None else None
        self._tagged_page(base, size, zlib.compress(marked, 6), events, overlay_source, resources)

    def add_marked_page(self, form, size: tuple[float, float], overlay_source: str, resources,
                        marked: bytes, events: str) -> None:
        """`add_page` of a page whose content a worker marked (`mark_content`) and compressed
        already, on a tagged blank: its work done there. `resources`: its overlay page's."""
        self._tagged_page(self._bases[form], size, marked, events, overlay_source, resources)

    def _tagged_page(self, base: _Base, size, content: bytes, events: str, overlay_source, resources) -> None:
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
                    form_parents = self._owners_entry([first + i if i is not None else None for i in base.owners])
            else:
                num = self._reserve()
                self._pack_bytes(num, b"<< /Type /StructElem /S /P /P %d 0 R /Pg %d 0 R /K %d >>"
                                 % (self._document, page, len(spans)))
                tops.append(num)
                spans.append(num)
        objrs, annots = self._links_of(base, page, first, tops)
        if first and not objrs:  # the page's elements in one go: every number is the page's + k
            elements, offsets = self._elements(base, first - page)
            self._pack_run(first, (elements % tuple([page + k for k in offsets])).split(b"\0"))
        elif first:
            self._write_elements(base, first, page, form_num, self._document, objrs)
        self._doc_kids.extend(tops)
        own = {"/StructParents": form_parents} if form_parents is not None else {}
        self._write_stream(form_num, {**base.entries, **own}, base.data)
        box = [0, 0, float(size[0]), float(size[1])]
        head, tail = self._resources(overlay_source or "overlay", resources)
        entries = {"/Type": Name.Page, "/Parent": Ref(self._pages), "/MediaBox": box,
                   "/Resources": head + b"%d 0 R" % form_num + tail, "/Contents": self._add_stream(content, compressed=True),
                   "/StructParents": self._owners_entry(spans), "/Tabs": Name.S, "/TrimBox": box}
        if annots:
            entries["/Annots"] = [Ref(a) for a in annots]
        self._pack_bytes(page, syntax(entries))
        self._kids.append(page)

    def _write_elements(self, base: _Base, first: int, page: int, form_num: int, top: int,
                        objrs: dict[int, list[bytes]] | None = None) -> None:
        """A blank's elements as objects `first`, `first` + 1, ..., one by one: their marked
        content in the form `form_num` drawn on `page`, the top ones under the element `top`
        (the Document, or a card's Div), each with its links' object references (`objrs`)."""
        for i, (head, parent, kids) in enumerate(base.nodes):
            items = [b"%d 0 R" % (first + v) if child else _MCR % (v, page, form_num) for child, v in kids]
            self._pack_bytes(first + i, _ELEM % (head, first + parent if parent >= 0 else top, page,
                                                 b" ".join(items + (objrs or {}).get(i, []))))

    def _elements(self, base: _Base, delta: int) -> tuple[bytes, list[int]]:
        """A page's structure elements (a page with no web links) as one format and its numbers:
        each number in them is the page's own (P) plus a constant (its form is P + 1, its first
        element P + `delta`), the Document's is written in, and the elements are cut apart at
        NULs (which no syntax of an element holds: a string with one is written in hex)."""
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
            base.elements[delta] = (b"\0".join(forms), offsets)
        return base.elements[delta]

    def _links_of(self, base: _Base, page: int, first: int, tops: list[int]) -> tuple[dict, list[int]]:
        """The page's web links, each joined to the page's Link elements in order (a link
        without one gets its own): ({element index: its object references}, annotations)."""
        if not base.web:
            return {}, []
        found = base.links if first else []
        objrs: dict[int, list[bytes]] = {}
        annots = []
        for i, annot in enumerate(fresh_links(base.web)):
            anum = self._reserve()
            objr = _OBJR % (anum, page)
            if i < len(found):
                elem = first + found[i]
                objrs.setdefault(found[i], []).append(objr)
            else:
                elem = self._reserve()
                self._pack_bytes(elem, _ELEM % (b"/S /Link", self._document, page, objr))
                tops.append(elem)
            annot["/StructParent"] = self._entry(elem)
            annot["/P"] = Ref(page)
            printable_link(annot)
            self._pack_bytes(anum, syntax(annot))
            annots.append(anum)
        return objrs, annots

    def _resources(self, source: str, resources) -> tuple[bytes, bytes]:
        """A page's resources (its overlay page's, imported, and its blank's form as `/WSBase`)
        written out, in two parts: the form's object number goes between them. Imported once
        per resources dictionary of an overlay (its pages mostly share one), not once per page."""
        if source != self._resources_of[0]:
            self._resources_of = (source, {})
        key = None if resources is None else resources.objgen if resources.is_indirect else resources.unparse()
        found = self._resources_of[1].get(key)
        if found is None:
            made = self._page_resources(source, resources if resources is not None else {}, Ref(_ANY_FORM))
            found = self._resources_of[1][key] = tuple(syntax(made).split(b"%d 0 R" % _ANY_FORM))
        return found

    # -- imposed cards --------------------------------------------------------------
    def add_units_page(self, size: tuple[float, float], placements: list[tuple[str, tuple[str, int], str]],
                       furniture: bytes, boxes: dict) -> None:
        """A paper page of units (imposed cards): each placement (its XObject name, a page as
        `form` returned it, its `cm` operands) drawn, then `furniture` (crop marks, a fold line:
        marked as artifacts already). A unit's first drawing is one element of the document, a
        `Div` of its page's elements; drawn again (the same back behind every card, --copies)
        it is an artifact (`_twin`): read once, printed every time."""
        page = self._reserve()
        xobjects: dict = {}
        content = []
        for name, key, matrix in placements:
            num = self._twin(key) if key in self._units else self._unit(key, page)
            xobjects[name] = Ref(num)
            content.append(b"q %s cm %s Do Q" % (matrix.encode("ascii"), name.encode("ascii")))
        content.append(furniture)
        entries = {"/Type": Name.Page, "/Parent": Ref(self._pages), "/MediaBox": [0, 0, float(size[0]), float(size[1])],
                   "/Resources": {"/XObject": xobjects}, "/Contents": self._add_stream(b"\n".join(content) + b"\n"),
                   "/StructParents": self._owners_entry([]), "/Tabs": Name.S, **boxes}
        self._pack_bytes(page, syntax(entries))
        self._kids.append(page)

    def _unit(self, key: tuple[str, int], page: int) -> int:
        """The form of a unit's first drawing, its elements in a Div of the document's."""
        base = self._bases[key]
        form_num, div = self._reserve(), self._reserve()
        self._units.add(key)
        first = self._reserve_many(len(base.nodes)) if base.nodes else 0
        self._write_elements(base, first, page, form_num, div)
        self._pack_bytes(div, _ELEM % (b"/S /Div", self._document, page,
                                       b" ".join(b"%d 0 R" % (first + i) for i in base.tops)))
        self._doc_kids.append(div)
        own = {}
        if base.owners:
            own["/StructParents"] = self._owners_entry([first + i if i is not None else None for i in base.owners])
        self._write_stream(form_num, {**base.entries, **own}, base.data)
        return form_num

    def _twin(self, key: tuple[str, int]) -> int:
        """A unit drawn again: its form as an artifact, its marked content without MCIDs, all
        of it inside one `/Artifact` sequence (written once per unit)."""
        num = self._twins.get(key)
        if num is None:
            base = self._bases[key]
            self._ops.write(zlib.decompress(base.data))
            ops = [([item.operands[0]], pikepdf.Operator("BMC")) if str(item.operator) == "BDC"
                   else (item.operands, item.operator) for item in pikepdf.parse_content_stream(self._ops)]
            data = b"/Artifact BMC\n" + pikepdf.unparse_content_stream(ops) + b"\nEMC\n"
            num = self._twins[key] = self._reserve()
            self._write_stream(num, base.entries, zlib.compress(data, 6))
        return num

    # -- the document -------------------------------------------------------------
    def close(self, catalog: dict | None = None, title: str | None = None) -> None:
        title = title or self._title or "warsheets"
        tree_num, parents_num = self._reserve(), self._reserve()
        self._pack_bytes(self._document, syntax({"/Type": Name.StructElem, "/S": Name.Document, "/P": Ref(tree_num),
                                                 "/K": _refs(self._doc_kids)}))
        self._pack_bytes(parents_num, b"<< /Nums [ %s ] >>" % b" ".join(b"%d %d 0 R" % pair
                                                                        for pair in enumerate(self._nums)))
        self._pack_bytes(tree_num, syntax({"/Type": Name.StructTreeRoot, "/K": Ref(self._document),
                                           "/ParentTree": Ref(parents_num), "/ParentTreeNextKey": len(self._nums)}))
        metadata = self._reserve()  # not compressed: the packet stays readable to any tool
        self._write_stream(metadata, {"/Type": Name.Metadata, "/Subtype": Name.XML},
                           xmp_packet(title, self._lang, "warsheets"))
        super().close({"/StructTreeRoot": Ref(tree_num), "/MarkInfo": {"/Marked": True},
                       "/Lang": pikepdf.String(self._lang), "/ViewerPreferences": {"/DisplayDocTitle": True},
                       "/Metadata": Ref(metadata), **(catalog or {})}, title)

"""A tagged page's structure, carried along when the page becomes a form XObject (pypdf).

Stamped sheets (`pdfstream`) and imposed cards (`kinds/cards/impose`) draw the pages
WeasyPrint laid out as form XObjects, and the source's structure tree stays behind. So
each such form carries the structure of its page as plain direct objects under
`/WSStruct`: the structure elements that own marked content on that page, nested as in
the source tree, each `{/S type, /K [kids: MCIDs of the form's content, or elements],
/Alt, /ActualText, /Lang, /A …}`. `sheets.pipeline.finish` turns those into a real
structure tree (marked-content references into the form, `/Stm`) and drops the key.
"""
from __future__ import annotations

from pypdf.generic import ArrayObject, DictionaryObject, IndirectObject, NameObject, NumberObject

KEY = "/WSStruct"
_KEPT = ("/Alt", "/ActualText", "/Lang", "/E", "/T", "/A", "/C", "/ID")


def _direct(obj):
    """A direct deep copy (no references left: the copy travels inside another file)."""
    if isinstance(obj, IndirectObject):
        obj = obj.get_object()
    if isinstance(obj, DictionaryObject):
        return DictionaryObject({NameObject(k): _direct(v) for k, v in obj.items() if k not in ("/P", "/Pg")})
    if isinstance(obj, ArrayObject):
        return ArrayObject(_direct(v) for v in obj)
    return obj


def _kids(elem) -> list:
    kids = elem.get("/K")
    if kids is None:
        return []
    kids = kids.get_object() if isinstance(kids, IndirectObject) else kids
    return list(kids) if isinstance(kids, ArrayObject) else [kids]


def _walk(elem, page: int | None, pages: dict[int, int], out: dict[int, list]) -> None:
    """Add `elem`, cut page by page, to `out` {page index: [element descriptions]}."""
    elem = elem.get_object()
    pg = elem.get("/Pg")
    if isinstance(pg, IndirectObject):
        page = pages.get(pg.idnum, page)
    per_page: dict[int, list] = {}
    for kid in _kids(elem):
        obj = kid.get_object() if isinstance(kid, IndirectObject) else kid
        if isinstance(obj, int):
            if page is not None:
                per_page.setdefault(page, []).append(NumberObject(obj))
        elif isinstance(obj, DictionaryObject):
            kind = obj.get("/Type")
            if kind == "/MCR":
                where = obj.get("/Pg")
                p = pages.get(where.idnum, page) if isinstance(where, IndirectObject) else page
                if p is not None and "/MCID" in obj:
                    per_page.setdefault(p, []).append(NumberObject(int(obj["/MCID"])))
            elif kind == "/OBJR":
                continue  # an annotation's element: annotations do not travel with a form
            else:
                sub: dict[int, list] = {}
                _walk(obj, page, pages, sub)
                for p, elems in sub.items():
                    per_page.setdefault(p, []).extend(elems)
    for p, kids in per_page.items():
        desc = DictionaryObject({NameObject("/S"): NameObject(str(elem.get("/S", "/NonStruct"))),
                                 NameObject("/K"): ArrayObject(kids)})
        for key in _KEPT:
            if key in elem:
                desc[NameObject(key)] = _direct(elem[key])
        out.setdefault(p, []).append(desc)


def page_structures(reader) -> list[ArrayObject | None]:
    """For each page of a pypdf reader: its structure (see above), None when untagged."""
    pages = reader.pages
    tree = reader.trailer["/Root"].get("/StructTreeRoot")
    if tree is None:
        return [None] * len(pages)
    tree = tree.get_object()
    index = {p.indirect_reference.idnum: i for i, p in enumerate(pages) if p.indirect_reference is not None}
    out: dict[int, list] = {}
    for top in _kids(tree):
        top = top.get_object()
        if not isinstance(top, DictionaryObject):
            continue
        if top.get("/S") == "/Document":  # its children: the form's element joins the file's Document
            for kid in _kids(top):
                if isinstance(kid.get_object(), DictionaryObject):
                    _walk(kid, None, index, out)
        else:
            _walk(top, None, index, out)
    return [ArrayObject(out[i]) if i in out else None for i in range(len(pages))]


_CACHE: dict[int, tuple[object, list]] = {}


def page_structure(reader, index: int) -> ArrayObject | None:
    """`page_structures(reader)[index]`, the tree walked once per reader."""
    hit = _CACHE.get(id(reader))
    if hit is None or hit[0] is not reader:
        if len(_CACHE) >= 16:  # the readers of one file's bases at a time; keep the newest
            del _CACHE[next(iter(_CACHE))]
        hit = _CACHE[id(reader)] = (reader, page_structures(reader))
    return hit[1][index]

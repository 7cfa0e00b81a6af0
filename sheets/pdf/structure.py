"""A tagged page's structure, carried along when the page becomes a form XObject (pypdf).

Stamped sheets (`sheets.pdf.stream`) and imposed cards (`kinds/cards/impose`) draw the pages
WeasyPrint laid out as form XObjects, and the source's structure tree stays behind. So
each such form carries the structure of its page as plain direct objects under
`/WSStruct`: every structure element of that page in tree order, empty table cells, rows and
bodies included (a table keeps its grid; empty Spans are pruned), with any element of the tree
that owns some of the page's marked content and the walk misses (so that every MCID of the page
has its element), each `{/S type, /K [kids: MCIDs of the form's content, or elements], /Alt,
/ActualText, /Lang, /A …}`. `sheets.pdf.finish` turns those into a real structure tree
(marked-content references into the form, `/Stm`) and drops the key. Elements outside the tree
(WeasyPrint's page margin boxes: running footers, a card's number) are not carried: their marked
content becomes a pagination artifact (`sheets.pdf.ua.artifact_margin_boxes`).
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


def _number_tree(node, out: dict) -> None:
    node = node.get_object()
    nums = node.get("/Nums")
    if nums is not None:
        for i in range(0, len(nums) - 1, 2):
            out[int(nums[i])] = nums[i + 1]
    for kid in node.get("/Kids", []):
        _number_tree(kid, out)


def _describe(elem) -> DictionaryObject:
    desc = DictionaryObject({NameObject("/S"): NameObject(str(elem.get("/S", "/NonStruct"))),
                             NameObject("/K"): ArrayObject()})
    for key in _KEPT:
        if key in elem:
            desc[NameObject(key)] = _direct(elem[key])
    return desc


_EMPTY_OK = ("/Span", "/NonStruct")  # pruned when they own nothing (outloud TAG-020); other empties stay


def _ref_key(ref) -> int:
    return ref.idnum if isinstance(ref, IndirectObject) else id(ref)


def _walk(ref, page: int, pages_of: dict, seen: set) -> DictionaryObject | None:
    """`ref`'s element as it stands on page `page` (idnum): its MCIDs on that page and its kid
    elements that touch the page, in tree order; empty cells, rows, bodies stay (a table keeps
    its grid), an empty Span goes. None when the element has nothing to do with the page."""
    elem = ref.get_object()
    if page not in pages_of.get(_ref_key(ref), ()):
        return None
    seen.add(_ref_key(ref))
    node = _describe(elem)
    own_pg = elem.get("/Pg")
    kids = elem.get("/K")
    kids = kids if isinstance(kids, ArrayObject) else ([] if kids is None else [kids])
    for kid in kids:
        if isinstance(kid, NumberObject) or isinstance(kid, int):
            if own_pg is not None and _ref_key(own_pg) == page:
                node["/K"].append(NumberObject(int(kid)))
            continue
        obj = kid.get_object() if isinstance(kid, IndirectObject) else kid
        if not isinstance(obj, DictionaryObject):
            continue
        if obj.get("/Type") == "/MCR":
            pg = obj.get("/Pg", own_pg)
            if "/Stm" not in obj and pg is not None and _ref_key(pg) == page:
                node["/K"].append(NumberObject(int(obj["/MCID"])))
        elif obj.get("/Type") != "/OBJR":
            sub = _walk(kid, page, pages_of, seen)
            if sub is not None:
                node["/K"].append(sub)
    if not len(node["/K"]) and node["/S"] in _EMPTY_OK and "/Alt" not in node and "/ActualText" not in node:
        return None
    return node


def _pages_of(ref, out: dict) -> set:
    """The pages (idnums) each element touches, itself or through its kids (memo in `out`)."""
    key = _ref_key(ref)
    if key in out:
        return out[key]
    out[key] = found = set()
    elem = ref.get_object()
    if elem.get("/Pg") is not None:
        found.add(_ref_key(elem["/Pg"]))
    kids = elem.get("/K")
    kids = kids if isinstance(kids, ArrayObject) else ([] if kids is None else [kids])
    for kid in kids:
        obj = kid.get_object() if isinstance(kid, IndirectObject) else kid
        if isinstance(obj, DictionaryObject):
            if obj.get("/Type") in ("/MCR", "/OBJR"):
                if obj.get("/Pg") is not None:
                    found.add(_ref_key(obj["/Pg"]))
            else:
                found |= _pages_of(kid, out)
    return found


def _tops(root) -> list:
    """The elements under the StructTreeRoot, through any Document element."""
    out = []
    kids = root.get("/K")
    kids = kids if isinstance(kids, ArrayObject) else ([] if kids is None else [kids])
    for kid in kids:
        obj = kid.get_object()
        if isinstance(obj, DictionaryObject) and obj.get("/S") == "/Document":
            out.extend(_tops(obj))
        elif isinstance(obj, DictionaryObject):
            out.append(kid)
    return out


def _in_tree(root) -> set[int]:
    """The idnums of the elements reachable from the StructTreeRoot."""
    found: set[int] = set()
    stack = [root]
    while stack:
        kids = stack.pop().get_object().get("/K")
        for kid in kids if isinstance(kids, ArrayObject) else ([] if kids is None else [kids]):
            if isinstance(kid, IndirectObject) and kid.idnum not in found:
                obj = kid.get_object()
                if isinstance(obj, DictionaryObject) and obj.get("/Type") not in ("/MCR", "/OBJR"):
                    found.add(kid.idnum)
                    stack.append(kid)
    return found


def _orphans(owners, seen: set, in_tree: set[int]) -> ArrayObject:
    """Elements of the tree owning the page's marked content that the walk did not reach, each
    with its MCIDs, so no MCID of the tree loses its owner. An owner outside the tree (WeasyPrint
    hangs its page margin boxes there) is left out: its content is a running footer."""
    nodes: dict[int, DictionaryObject] = {}
    for mcid, ref in enumerate(owners.get_object()):
        if not isinstance(ref, IndirectObject) or ref.idnum in seen or ref.idnum not in in_tree:
            continue
        if not isinstance(ref.get_object(), DictionaryObject):
            continue
        if ref.idnum not in nodes:
            nodes[ref.idnum] = _describe(ref.get_object())
        nodes[ref.idnum]["/K"].append(NumberObject(mcid))
    return ArrayObject(nodes.values())


def page_structures(reader) -> list[ArrayObject | None]:
    """For each page of a pypdf reader: its structure (see above), None when untagged."""
    pages = reader.pages
    tree = reader.trailer["/Root"].get("/StructTreeRoot")
    if tree is None or "/ParentTree" not in tree.get_object():
        return [None] * len(pages)
    entries: dict = {}
    _number_tree(tree.get_object()["/ParentTree"], entries)
    tops = _tops(tree.get_object())
    in_tree = _in_tree(tree)
    pages_of: dict = {}
    for top in tops:
        _pages_of(top, pages_of)
    out: list[ArrayObject | None] = []
    for page in pages:
        key = page.get("/StructParents")
        owners = entries.get(int(key)) if key is not None else None
        if owners is None:
            out.append(None)
            continue
        seen: set = set()
        found = ArrayObject(n for n in (_walk(t, page.indirect_reference.idnum, pages_of, seen) for t in tops)
                            if n is not None)
        found.extend(_orphans(owners, seen, in_tree))
        out.append(found if len(found) else None)
    return out


_CACHE: dict[int, tuple[object, list]] = {}


def page_structure(reader, index: int) -> ArrayObject | None:
    """`page_structures(reader)[index]`, the tree walked once per reader."""
    hit = _CACHE.get(id(reader))
    if hit is None or hit[0] is not reader:
        if len(_CACHE) >= 16:  # the readers of one file's bases at a time; keep the newest
            del _CACHE[next(iter(_CACHE))]
        hit = _CACHE[id(reader)] = (reader, page_structures(reader))
    return hit[1][index]

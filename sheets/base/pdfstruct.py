"""A tagged page's structure, carried along when the page becomes a form XObject (pypdf).

Stamped sheets (`pdfstream`) and imposed cards (`kinds/cards/impose`) draw the pages
WeasyPrint laid out as form XObjects, and the source's structure tree stays behind. So
each such form carries the structure of its page as plain direct objects under
`/WSStruct`: the structure elements that own marked content on that page, nested as in
the source tree (found from the page's parent-tree entry, so that every MCID of the page
has its element), each `{/S type, /K [kids: MCIDs of the form's content, or elements],
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


def _page_structure(owners) -> ArrayObject | None:
    """The elements owning a page's marked content (its parent-tree array, by MCID), nested as
    in the tree up to (not including) the Document; kids in the order of their first MCID."""
    nodes: dict[int, DictionaryObject] = {}
    tops = ArrayObject()

    def node_for(ref) -> tuple[DictionaryObject, bool]:
        key = ref.idnum if isinstance(ref, IndirectObject) else id(ref)
        if key in nodes:
            return nodes[key], False
        nodes[key] = _describe(ref.get_object())
        return nodes[key], True

    for mcid, ref in enumerate(owners.get_object()):
        if not isinstance(ref, IndirectObject) or not isinstance(ref.get_object(), DictionaryObject):
            continue
        node, new = node_for(ref)
        node["/K"].append(NumberObject(mcid))
        elem = ref.get_object()
        while new:  # a new element: hang it on its parent (a new parent climbs on)
            parent_ref = elem.get("/P")
            parent = parent_ref.get_object() if parent_ref is not None else None
            if (not isinstance(parent_ref, IndirectObject) or not isinstance(parent, DictionaryObject)
                    or parent.get("/Type") == "/StructTreeRoot" or parent.get("/S") == "/Document"):
                tops.append(node)
                break
            parent_node, new = node_for(parent_ref)
            parent_node["/K"].append(node)
            node, elem = parent_node, parent
    return tops if len(tops) else None


def page_structures(reader) -> list[ArrayObject | None]:
    """For each page of a pypdf reader: its structure (see above), None when untagged."""
    pages = reader.pages
    tree = reader.trailer["/Root"].get("/StructTreeRoot")
    if tree is None or "/ParentTree" not in tree.get_object():
        return [None] * len(pages)
    entries: dict = {}
    _number_tree(tree.get_object()["/ParentTree"], entries)
    out: list[ArrayObject | None] = []
    for page in pages:
        key = page.get("/StructParents")
        owners = entries.get(int(key)) if key is not None else None
        out.append(_page_structure(owners) if owners is not None else None)
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

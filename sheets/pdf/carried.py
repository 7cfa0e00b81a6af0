"""A tagged page's structure, carried along when the page becomes a form XObject (pikepdf).

Stamped sheets (`sheets.pdf.tagged`) and imposed cards (`sheets.kinds.cards.impose`) draw the
pages WeasyPrint laid out as form XObjects, and the source's structure tree stays behind. So
each such page's structure is taken as plain direct objects (`page_structure`): every
structure element of that
page in tree order, empty table cells, rows and bodies included (a table keeps its grid; empty
Spans are pruned), with any element of the tree that owns some of the page's marked content and
the walk misses (so that every MCID of the page has its element), each `{/S type, /K [kids:
MCIDs of the form's content, or elements], /Alt, /ActualText, /Lang, /A …}`. The tagged writer
(`sheets.pdf.tagged`: a stamped file or an imposed card sheet, as it is written) turns those
into a real structure tree (marked-content references into the form, `/Stm`). Elements outside the tree (WeasyPrint's page margin boxes:
running footers, a card's number) are not carried: their marked content becomes a pagination
artifact (`ua.artifact_margin_boxes`).

Elements are known by their object number (an indirect object), a direct one by its place in
the walk (pikepdf hands out a new Python object at every access, so never by `id`).
"""
from __future__ import annotations

from sheets.base import interrupts

with interrupts.held():  # a Ctrl-C while pikepdf registers its C++ types aborts the process
    import pikepdf
    from pikepdf import Array, Dictionary, Name

#: what an element carries besides its role and kids, wherever it is copied (here, `tagged`)
KEPT = ("/Alt", "/ActualText", "/Lang", "/E", "/T", "/A", "/C", "/ID")
_EMPTY_OK = ("/Span", "/NonStruct")  # pruned when they own nothing (outloud TAG-020); other empties stay


def _direct(obj):
    """A direct deep copy (no references left: the copy travels inside another file)."""
    if isinstance(obj, Dictionary):
        return Dictionary({k: _direct(v) for k, v in obj.items() if k not in ("/P", "/Pg")})
    if isinstance(obj, Array):
        return Array([_direct(v) for v in obj])
    return obj


def _kids(elem) -> list:
    kids = elem.get("/K")
    return list(kids) if isinstance(kids, Array) else ([] if kids is None else [kids])


def _page_of(obj):
    """The object number of the page a /Pg names (None: none named)."""
    return obj.objgen if isinstance(obj, Dictionary) and obj.is_indirect else None


def _number_tree(node, out: dict) -> None:
    nums = node.get("/Nums")
    if nums is not None:
        for i in range(0, len(nums) - 1, 2):
            out[int(nums[i])] = nums[i + 1]
    for kid in node.get("/Kids", []):
        _number_tree(kid, out)


def _describe(elem) -> Dictionary:
    desc = Dictionary(S=Name(str(elem.get("/S", "/NonStruct"))), K=Array())
    for key in KEPT:
        if key in elem:
            desc[key] = _direct(elem[key])
    return desc


def _is_element(obj) -> bool:
    return isinstance(obj, Dictionary) and obj.get("/Type") not in (Name.MCR, Name.OBJR)


def _pages_of(elem, memo: dict) -> set:
    """The pages (object numbers) an element touches, itself or through its kids (an indirect
    element's memoised in `memo`)."""
    key = elem.objgen if elem.is_indirect else None
    if key is not None and key in memo:
        return memo[key]
    found: set = set()
    if key is not None:
        memo[key] = found
    if elem.get("/Pg") is not None:
        found.add(_page_of(elem.Pg))
    for kid in _kids(elem):
        if not isinstance(kid, Dictionary):
            continue
        if kid.get("/Type") in (Name.MCR, Name.OBJR):
            if kid.get("/Pg") is not None:
                found.add(_page_of(kid.Pg))
        else:
            found |= _pages_of(kid, memo)
    return found


def _walk(elem, page, memo: dict, seen: set) -> Dictionary | None:
    """`elem` as it stands on `page` (object number): its MCIDs on that page and its kid elements
    that touch the page, in tree order; empty cells, rows, bodies stay (a table keeps its grid),
    an empty Span goes. None when the element has nothing to do with the page."""
    if page not in _pages_of(elem, memo):
        return None
    if elem.is_indirect:
        seen.add(elem.objgen)
    node = _describe(elem)
    own_pg = _page_of(elem.get("/Pg"))
    kids: list = []  # MCIDs and elements
    for kid in _kids(elem):
        if isinstance(kid, int):
            if own_pg == page:
                kids.append(int(kid))
        elif not isinstance(kid, Dictionary):
            continue
        elif kid.get("/Type") == Name.MCR:
            pg = _page_of(kid.get("/Pg")) if kid.get("/Pg") is not None else own_pg
            if "/Stm" not in kid and pg == page:
                kids.append(int(kid.MCID))
        elif kid.get("/Type") != Name.OBJR:
            sub = _walk(kid, page, memo, seen)
            if sub is not None:
                kids.append(sub)
    node.K = Array(kids)
    if not kids and node.S in _EMPTY_OK and "/Alt" not in node and "/ActualText" not in node:
        return None
    return node


def _tops(root) -> list:
    """The elements under the StructTreeRoot, through any Document element."""
    out = []
    for kid in _kids(root):
        if isinstance(kid, Dictionary) and kid.get("/S") == Name.Document:
            out.extend(_tops(kid))
        elif isinstance(kid, Dictionary):
            out.append(kid)
    return out


def _in_tree(root) -> set:
    """The object numbers of the elements reachable from the StructTreeRoot."""
    found: set = set()
    stack = [root]
    while stack:
        for kid in _kids(stack.pop()):
            if isinstance(kid, Dictionary) and kid.is_indirect and kid.objgen not in found and _is_element(kid):
                found.add(kid.objgen)
                stack.append(kid)
    return found


def _orphans(owners, seen: set, in_tree: set) -> list:
    """Elements of the tree owning the page's marked content that the walk did not reach, each
    with its MCIDs, so no MCID of the tree loses its owner. An owner outside the tree (WeasyPrint
    hangs its page margin boxes there) is left out: its content is a running footer."""
    nodes: dict = {}
    mcids: dict = {}
    for mcid, ref in enumerate(owners):
        if not isinstance(ref, Dictionary) or not ref.is_indirect:
            continue
        if ref.objgen in seen or ref.objgen not in in_tree:
            continue
        if ref.objgen not in nodes:
            nodes[ref.objgen] = _describe(ref)
            mcids[ref.objgen] = []
        mcids[ref.objgen].append(mcid)
    for key, node in nodes.items():
        node.K = Array(mcids[key])
    return list(nodes.values())


def page_structures(pdf: pikepdf.Pdf) -> list[Array | None]:
    """For each page of `pdf`: its structure (see above), None when untagged."""
    pages = pdf.pages
    tree = pdf.Root.get("/StructTreeRoot")
    if tree is None or "/ParentTree" not in tree:
        return [None] * len(pages)
    entries: dict = {}
    _number_tree(tree.ParentTree, entries)
    tops = _tops(tree)
    in_tree = _in_tree(tree)
    memo: dict = {}
    for top in tops:
        _pages_of(top, memo)
    out: list[Array | None] = []
    for page in pages:
        key = page.obj.get("/StructParents")
        owners = entries.get(int(key)) if key is not None else None
        if owners is None:
            out.append(None)
            continue
        seen: set = set()
        found = [n for n in (_walk(t, page.obj.objgen, memo, seen) for t in tops) if n is not None]
        found += _orphans(owners, seen, in_tree)
        out.append(Array(found) if found else None)
    return out


_CACHE: dict[int, tuple[object, list]] = {}
#: files whose tree walk is kept at most: a job's blanks, and the parts laid out in full that
#: a batch reads ahead while its workers lay out the rest (a campaign of 100 missions)
_CACHE_MAX = 128


def page_structure(pdf: pikepdf.Pdf, index: int) -> Array | None:
    """`page_structures(pdf)[index]`, the tree walked once per file."""
    hit = _CACHE.get(id(pdf))
    if hit is None or hit[0] is not pdf:
        if len(_CACHE) >= _CACHE_MAX:  # keep the newest
            del _CACHE[next(iter(_CACHE))]
        hit = _CACHE[id(pdf)] = (pdf, page_structures(pdf))
    return hit[1][index]


def forget(pdf: pikepdf.Pdf) -> None:
    """`pdf` drawn for the last time: its walk goes with it (bounds a batch's memory)."""
    hit = _CACHE.get(id(pdf))
    if hit is not None and hit[0] is pdf:
        del _CACHE[id(pdf)]

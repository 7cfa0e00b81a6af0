"""PDF/UA-1 repairs on a finished file's structure and annotations (ISO 14289-1, checked by
`outloud --layer conformance`, tests/pipeline/test_pdfua.py).

WeasyPrint 70 writes no `/Scope` on table header cells (a TH that no TD names in `/Headers`
fails 7.5), no Print flag on link annotations (7.18.1 wants annotations printable with a
`/Contents`), and tags the page margin boxes (running footers, a card's set and number) with
elements it never links into the tree (7.8 wants them artifacts); every PDF we write passes here
from `finish.describe`.
"""
from __future__ import annotations

import re
from typing import Any

from sheets.base import interrupts

with interrupts.held():
    import pikepdf
    from pikepdf import Array, Dictionary, Name, Operator

_PRINT = 4  # annotation flag bit 3


def _kids(elem) -> list:
    k = elem.get("/K")
    if k is None:
        return []
    return list(k) if isinstance(k, Array) else [k]


def _is_elem(obj) -> bool:
    return isinstance(obj, Dictionary) and "/S" in obj and obj.get("/Type") not in ("/MCR", "/OBJR")


def _set_scope(th, scope: Name) -> None:
    attrs = th.get("/A")
    if attrs is None:
        th.A = Dictionary(O=Name.Table, Scope=scope)
        return
    found = [attrs] if isinstance(attrs, Dictionary) else [a for a in attrs if isinstance(a, Dictionary)]
    for a in found:
        if a.get("/O") == Name.Table:
            if "/Scope" not in a:
                a.Scope = scope
            return
    th.A = Array(([attrs] if isinstance(attrs, Dictionary) else list(attrs))
                 + [Dictionary(O=Name.Table, Scope=scope)])


def _rows(section) -> list:
    return [r for r in _kids(section) if _is_elem(r) and r.get("/S") == Name.TR]


def _table(table) -> None:
    """Each header's scope: Column in a THead or the table's first row, Row for a row's first
    cell, Column otherwise (a cell known by its place: a carried structure's are direct)."""
    index = 0
    for part in (k for k in _kids(table) if _is_elem(k)):
        kind = part.get("/S")
        rows = [part] if kind == Name.TR else _rows(part)
        for row in rows:
            for place, cell in enumerate(c for c in _kids(row) if _is_elem(c)):
                if cell.get("/S") == Name.TH:
                    column = kind == Name.THead or index == 0 or place != 0
                    _set_scope(cell, Name.Column if column else Name.Row)
            index += 1


_GRID = (Name.TR, Name.TD, Name.TH, Name.THead, Name.TBody, Name.TFoot)


def _has_header(table) -> bool:
    stack = [k for k in _kids(table) if _is_elem(k)]
    while stack:
        elem = stack.pop()
        if elem.get("/S") == Name.TH:
            return True
        if elem.get("/S") != Name.Table:
            stack.extend(k for k in _kids(elem) if _is_elem(k))
    return False


def _as_divs(table) -> None:
    """A table with no header cell lays things out (stat boxes, tracks, token faces): tagged as
    Divs, the grid's roles and table attributes dropped (outloud TBL-001)."""
    stack = [table]
    while stack:
        elem = stack.pop()
        elem.S = Name.Div
        attrs = elem.get("/A")
        if isinstance(attrs, Dictionary) and attrs.get("/O") == Name.Table:
            del elem["/A"]
        stack.extend(k for k in _kids(elem) if _is_elem(k) and k.get("/S") in _GRID)


def scope_headers(pdf: pikepdf.Pdf) -> None:
    """Every TH gets an `/A << /O /Table /Scope … >>` (kept when it has one); a table without
    header cells becomes Divs."""
    root = pdf.Root.get("/StructTreeRoot")
    if root is not None:
        scope_tables(_kids(root))


def scope_tables(elements) -> None:
    """`scope_headers` of these elements and those under them (a file's tree, or a page's
    structure as it is carried in its form: `sheets.pdf.carried`)."""
    stack, seen = list(elements), set()
    while stack:
        elem = stack.pop()
        if not _is_elem(elem) or elem.objgen in seen and elem.objgen != (0, 0):
            continue
        seen.add(elem.objgen)
        if elem.get("/S") == Name.Table:
            if _has_header(elem):
                _table(elem)
            else:
                _as_divs(elem)
        stack.extend(_kids(elem))


def print_links(pdf: pikepdf.Pdf) -> None:
    """Link annotations printable (F bit 3) and described (`/Contents`)."""
    for page in pdf.pages:
        for annot in page.obj.get("/Annots", Array()):
            printable_link(annot)


def printable_link(annot) -> None:
    """A link annotation (a pikepdf dictionary, or the dict of a new one's entries) printable
    and described; another annotation left as it is."""
    if annot.get("/Subtype") != Name.Link:
        return
    annot["/F"] = int(annot.get("/F", 0)) | _PRINT
    if "/Contents" not in annot:
        action = annot.get("/A")
        uri = action.get("/URI") if isinstance(action, (Dictionary, dict)) else None
        annot["/Contents"] = pikepdf.String(f"Link to {uri}" if uri is not None else "Link within the document")


def _kid_label(annot) -> str:
    """A radio button's words (a widget of a field, with no name of its own): its field's
    tooltip and its own choice, "Rank: Cpl"."""
    field = annot.get("/Parent")
    if field is None:
        return ""
    states = [str(k)[1:] for k in annot.get("/AP", Dictionary()).get("/N", Dictionary()).keys() if k != "/Off"]
    return f"{field.get('/TU', field.get('/T', ''))}: {states[0]}" if states else str(field.get("/TU", ""))


def tag_widgets(pdf: pikepdf.Pdf) -> None:
    """Every form field's widget inside a `/Form` structure element (7.18.4): an OBJR to it, the
    element under the document's first element, the widget's `/StructParent` in the parent tree."""
    root = pdf.Root.get("/StructTreeRoot")
    tree = root.get("/ParentTree") if root is not None else None
    nums = tree.get("/Nums") if tree is not None else None
    if root is None or nums is None:
        return
    top = _kids(root)
    parent: Any = top[0] if top and _is_elem(top[0]) else root
    key = int(root.get("/ParentTreeNextKey", 0))
    key = max([key] + [int(nums[i]) + 1 for i in range(0, len(nums), 2)])
    for page in pdf.pages:
        for annot in page.obj.get("/Annots", Array()):
            if annot.get("/Subtype") != Name.Widget or "/StructParent" in annot:
                continue
            objr = Dictionary(Type=Name.OBJR, Obj=annot, Pg=page.obj)
            label = annot.get("/TU") or annot.get("/T") or _kid_label(annot) or pikepdf.String("form field")
            elem = pdf.make_indirect(Dictionary(Type=Name.StructElem, S=Name.Form, P=parent, K=objr, Pg=page.obj,
                                                Alt=pikepdf.String(str(label))))
            kids = parent.get("/K")
            if kids is None:
                parent.K = Array([elem])
            elif isinstance(kids, Array):
                kids.append(elem)
            else:
                parent.K = Array([kids, elem])
            annot.StructParent = key
            nums.extend(Array([key, elem]))
            key += 1
        if any(a.get("/Subtype") == Name.Widget for a in page.obj.get("/Annots", Array())):
            page.obj.Tabs = Name.S
    root.ParentTreeNextKey = key


def _referenced(root) -> set[tuple]:
    """(content holder, MCID) of every marked-content reference of the tree: the holder is the
    form (`/Stm`) or the page (`/Pg`, the element's own when the reference has none)."""
    found: set[tuple] = set()
    seen: set = set()
    stack = [(k, None) for k in _kids(root)]
    while stack:
        elem, page = stack.pop()
        if not _is_elem(elem) or elem.is_indirect and elem.objgen in seen:
            continue
        if elem.is_indirect:
            seen.add(elem.objgen)
        page = elem.get("/Pg", page)
        for kid in _kids(elem):
            if isinstance(kid, int):
                if page is not None:
                    found.add((page.objgen, int(kid)))
            elif isinstance(kid, Dictionary) and kid.get("/Type") == Name.MCR:
                holder = kid.get("/Stm", kid.get("/Pg", page))
                if holder is not None:
                    found.add((holder.objgen, int(kid.MCID)))
            elif _is_elem(kid):
                stack.append((kid, page))
    return found


def _unowned(ops: list, holder, referenced: set) -> list | None:
    """`ops` with marked content no element references made a pagination artifact (None: none)."""
    changed = False
    for i, (operands, op) in enumerate(ops):
        if str(op) == "BDC" and len(operands) == 2 and isinstance(operands[1], Dictionary) \
                and "/MCID" in operands[1] and (holder, int(operands[1].MCID)) not in referenced:
            ops[i] = ([Name.Artifact, Dictionary(Type=Name.Pagination)], Operator("BDC"))
            changed = True
    return ops if changed else None


def _forms(res, found: dict) -> dict:
    """The form XObjects a resource dictionary draws, and theirs, by objgen."""
    for xobject in (res or Dictionary()).get("/XObject", Dictionary()).values():
        if isinstance(xobject, pikepdf.Stream) and xobject.get("/Subtype") == Name.Form \
                and xobject.objgen not in found:
            found[xobject.objgen] = xobject
            _forms(xobject.get("/Resources"), found)
    return found


_MCID = re.compile(rb"/MCID\s+(\d+)")


def _all_owned(stream_data: bytes, holder, referenced: set) -> bool:
    """Whether every MCID a content stream's bytes name is referenced (a quick look before parsing)."""
    return all((holder, int(m)) in referenced for m in _MCID.findall(stream_data))


def artifact_margin_boxes(pdf: pikepdf.Pdf) -> None:
    """Marked content that no element of the structure tree references becomes a pagination
    artifact. WeasyPrint 70 tags its page margin boxes ("Down Range · reference · warsheets page
    1 of 5", a card's "units 3/21") with elements it never links into the tree: running footers,
    not content (ISO 14289-1 7.8, outloud PAG-001), on the page or in the form a page became."""
    root = pdf.Root.get("/StructTreeRoot")
    if root is None:
        return
    referenced = _referenced(root)
    forms: dict = {}
    for page in pdf.pages:
        contents = page.obj.get("/Contents")
        streams = list(contents) if isinstance(contents, Array) else [contents] if contents is not None else []
        if "/StructParents" in page.obj and \
                not _all_owned(b"\n".join(s.read_bytes() for s in streams), page.obj.objgen, referenced):
            ops = _unowned(pikepdf.parse_content_stream(page), page.obj.objgen, referenced)
            if ops is not None:
                page.obj.Contents = pdf.make_stream(pikepdf.unparse_content_stream(ops))
        _forms(page.obj.get("/Resources"), forms)
    for form in forms.values():
        if "/StructParents" in form and not _all_owned(form.read_bytes(), form.objgen, referenced):
            ops = _unowned(pikepdf.parse_content_stream(form), form.objgen, referenced)
            if ops is not None:
                form.write(pikepdf.unparse_content_stream(ops))


def repair(pdf: pikepdf.Pdf) -> None:
    artifact_margin_boxes(pdf)
    scope_headers(pdf)
    print_links(pdf)
    tag_widgets(pdf)

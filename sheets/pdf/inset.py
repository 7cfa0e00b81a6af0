"""A laid-out page with another laid-out page drawn into it: a blank and its inset, one tagged page.

A stamped sheet's blank may leave a slot (an `inset` field, sheets.pipeline.stamp.fields) for
content that is its part's own and too rich to stamp (a mission's events table: its rolls in
bold, rows as tall as their text). That content is laid out on its own, on a page as wide as
the slot and as tall as the room below it, and `place` draws that page into the blank's first
page at the slot: one page, as if WeasyPrint had laid both out together, which the stamper then
treats as it treats any blank (its values drawn on it, its structure carried into the file).

Everything is done with pikepdf's object model: the inset's content is parsed, its resource
names and marked-content ids renumbered, and written after the blank's, inside a save, a
translation and a restore; its resources are copied into the blank's page; its structure
elements (sheets.pdf.carried) become elements of the blank's tree, after the page's own, and
the page's parent-tree entry names their owners.
"""
from __future__ import annotations

import io

from sheets.base import interrupts
from sheets.pdf.carried import KEPT, page_structure
from sheets.pdf.ua import scope_tables

with interrupts.held():  # a Ctrl-C while pikepdf registers its C++ types aborts the process
    import pikepdf
    from pikepdf import Array, Dictionary, Name

#: the operators whose operand names a resource, and which operand (index) it is
_NAMED = {"Tf": ("/Font", 0), "Do": ("/XObject", 0), "gs": ("/ExtGState", 0), "sh": ("/Shading", 0),
          "cs": ("/ColorSpace", 0), "CS": ("/ColorSpace", 0), "BDC": ("/Properties", 1), "DP": ("/Properties", 1)}
_PATTERN_OPS = ("scn", "SCN")  # a pattern's name is their last operand
PREFIX = "In"  # an inset's resources are named this and a number, then their own name: no name of the blank's


def _renamed(name: Name, prefix: str) -> Name:
    return Name("/" + prefix + str(name)[1:])


def _free_prefix(resources) -> str:
    """PREFIX and a number that no resource of the page is named with yet (each inset its own)."""
    taken = {str(n) for entries in resources.values() if isinstance(entries, Dictionary) for n in entries.keys()}
    number = 0
    while any(n.startswith(f"/{PREFIX}{number}") for n in taken):
        number += 1
    return f"{PREFIX}{number}"


def _parent_entry(tree, key: int):
    """The parent tree's array for key `key` (a page's marked content owners), found in its number tree."""
    stack = [tree.ParentTree]
    while stack:
        node = stack.pop()
        nums = node.get("/Nums")
        if nums is not None:
            for i in range(0, len(nums) - 1, 2):
                if int(nums[i]) == key:
                    return nums[i + 1]
        stack.extend(node.get("/Kids", []))
    return None


def _document(tree):
    """The element the page's top elements hang under: the Document, else the tree's root."""
    kids = tree.get("/K")
    for kid in (kids if isinstance(kids, Array) else [kids] if kids is not None else []):
        if isinstance(kid, Dictionary) and kid.get("/S") == Name.Document:
            return kid
    return tree


def _content(inset: pikepdf.Page, shift: int, prefix: str) -> list:
    """The inset page's content instructions, its resource names renamed and its MCIDs shifted."""
    out = []
    for instruction in pikepdf.parse_content_stream(inset):
        if isinstance(instruction, pikepdf.ContentStreamInlineImage):  # its own data: nothing named in it
            out.append(instruction)
            continue
        operands, operator = list(instruction.operands), instruction.operator
        op = str(operator)
        named = _NAMED.get(op)
        if named is not None and len(operands) > named[1] and isinstance(operands[named[1]], Name):
            operands[named[1]] = _renamed(operands[named[1]], prefix)
        elif op in _PATTERN_OPS and operands and isinstance(operands[-1], Name):
            operands[-1] = _renamed(operands[-1], prefix)
        if op in ("BDC", "DP") and len(operands) > 1 and isinstance(operands[1], Dictionary) and "/MCID" in operands[1]:
            props = Dictionary({k: v for k, v in operands[1].items()})
            props.MCID = int(props.MCID) + shift
            operands[1] = props
        out.append(pikepdf.ContentStreamInstruction(operands, operator))
    return out


def place(base_pdf: bytes, inset_pdf: bytes, index: int, x: float, top: float) -> bytes:
    """`base_pdf` with the first page of `inset_pdf` drawn on its page `index`, the inset's top-left
    corner at (`x`, `top`) pt from the page's top-left; tagged as one page (see the module)."""
    base = pikepdf.open(io.BytesIO(base_pdf))
    inset = pikepdf.open(io.BytesIO(inset_pdf))
    page, source = base.pages[index], inset.pages[0]
    tree = base.Root.get("/StructTreeRoot")
    owners = _parent_entry(tree, int(page.obj.StructParents)) if tree is not None and "/StructParents" in page.obj else None
    shift = len(owners) if owners is not None else 0
    elements = page_structure(inset, 0) if owners is not None else None

    # its content: after the blank's, moved to the slot (a PDF page's origin is its bottom-left)
    height = float(page.mediabox[3]) - float(page.mediabox[1])
    inset_height = float(source.mediabox[3]) - float(source.mediabox[1])
    resources = page.obj.Resources
    prefix = _free_prefix(resources)
    drawn = pikepdf.unparse_content_stream(_content(source, shift, prefix))
    moved = b"q 1 0 0 1 %s %s cm\n" % (_num(x), _num(height - top - inset_height)) + drawn + b"\nQ\n"
    # the blank's content inside a save and a restore first: WeasyPrint's page turns the page's
    # coordinates upside down once, at its start, and leaves them so
    page.contents_add(pikepdf.Stream(base, b"q\n"), prepend=True)
    page.contents_add(pikepdf.Stream(base, b"Q\n" + moved), prepend=False)

    # its resources, under names of their own
    for category, entries in source.obj.get("/Resources", Dictionary()).items():
        if not isinstance(entries, Dictionary):
            continue  # /ProcSet
        target = resources.get(category)
        if target is None:
            target = resources[category] = Dictionary()
        for name, value in entries.items():
            target[_renamed(Name(name), prefix)] = _copied(base, value)

    # its structure: elements of the blank's tree, after the page's own
    if owners is not None and elements is not None:
        parent = _document(tree)
        kids = parent.get("/K")
        if not isinstance(kids, Array):
            kids = parent.K = Array([kids] if kids is not None else [])
        owned: dict[int, object] = {}
        for desc in elements:
            kids.append(_element(base, desc, parent, page.obj, shift, owned))
        for mcid in sorted(owned):
            while len(owners) < mcid:
                owners.append(None)
            owners.append(owned[mcid])
        # the same elements as the page carries them (sheets.pdf.tagged.prepared: a file stamped
        # on many such pages compiles its blank's structure once, and only this much per page)
        carried = [_shifted(base, desc, shift) for desc in elements]
        # their tables' repairs made here, once, into the cache entry, not each time the page is
        # stamped (sheets.pdf.tagged.prepared: 10 ms a mission's events, in the batch's own process)
        scope_tables(carried)
        if KEY in page.obj:  # a second inset on the page: after the first's, from the first's shift on
            page.obj[KEY].K.extend(carried)
        else:
            page.obj[KEY] = Dictionary(Shift=shift, K=Array(carried))
    buf = io.BytesIO()
    base.save(buf, deterministic_id=True, object_stream_mode=pikepdf.ObjectStreamMode.generate,
              fix_metadata_version=False)
    return buf.getvalue()


#: a page with an inset: the MCID its inset's marked content starts at (`/Shift`) and the inset's
#: structure (`/K`: sheets.pdf.carried's descriptions, their MCIDs shifted, their tables scoped
#: as sheets.pdf.ua.scope_tables makes them)
KEY = "/WSInset"


def _shifted(pdf: pikepdf.Pdf, desc, shift: int) -> Dictionary:
    """A carried element description of another file, its MCIDs shifted, as a direct object of `pdf`."""
    out = Dictionary({k: _copied(pdf, v) for k, v in desc.items() if k != "/K"})
    out.K = Array([int(kid) + shift if isinstance(kid, int) else _shifted(pdf, kid, shift) for kid in desc.get("/K", [])])
    return out


def _element(pdf: pikepdf.Pdf, desc, parent, page, shift: int, owned: dict):
    """A carried element description as an element of `pdf`'s tree on `page` (its MCIDs shifted)."""
    elem = pdf.make_indirect(Dictionary(Type=Name.StructElem, S=desc.S, P=parent, Pg=page))
    for key in KEPT:
        if key in desc:
            elem[key] = _copied(pdf, desc[key])
    kids = Array()
    for kid in desc.get("/K", []):
        if isinstance(kid, int):
            kids.append(int(kid) + shift)
            owned[int(kid) + shift] = elem
        else:
            kids.append(_element(pdf, kid, elem, page, shift, owned))
    elem.K = kids
    return elem


def _copied(pdf: pikepdf.Pdf, obj):
    """`obj` of another file as an object of `pdf`: an indirect one copied with what it refers to,
    a direct dictionary or array rebuilt around its copied values."""
    if isinstance(obj, pikepdf.Object) and obj.is_indirect:
        return pdf.copy_foreign(obj)
    if isinstance(obj, Dictionary):
        return Dictionary({k: _copied(pdf, v) for k, v in obj.items()})
    if isinstance(obj, Array):
        return Array([_copied(pdf, v) for v in obj])
    return obj


def _num(value: float) -> bytes:
    text = f"{value:.4f}".rstrip("0").rstrip(".")
    return (text if text not in ("", "-0") else "0").encode()

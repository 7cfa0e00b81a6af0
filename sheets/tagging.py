"""Merged PDFs keep their parts' structure trees (tags), so that screen readers and reflow
read the one file a user opens as they read each part.

PDFium copies pages with their marked content and `/StructParents`, but not the catalog's
StructTreeRoot. `graft_structure` copies each tagged part's tree into the merged file: one
`Document` element holds every part's top elements, in page order; page references point
at the merged pages; parent-tree keys are renumbered part by part (pages' `/StructParents`
and annotations' `/StructParent` with them).
"""
from __future__ import annotations

import io

from pypdf import PdfReader, PdfWriter
from pypdf.generic import (ArrayObject, BooleanObject, DictionaryObject, IndirectObject, NameObject, NumberObject,
                           StreamObject)


def _number_tree(node, out: list) -> None:
    """Flatten a number tree into (key, value) pairs (values as stored: references)."""
    node = node.get_object()
    nums = node.get("/Nums")
    if nums is not None:
        nums = nums.get_object()
        out.extend((int(nums[i]), nums[i + 1]) for i in range(0, len(nums) - 1, 2))
    for kid in node.get("/Kids") or []:
        _number_tree(kid, out)


class _Copier:
    """Deep copy of one part's structure objects into the writer, page and annotation
    references mapped to the merged file's own objects, shared objects copied once."""

    def __init__(self, writer: PdfWriter, known: dict[int, IndirectObject]):
        self.writer = writer
        self.memo = dict(known)

    def __call__(self, obj):
        if isinstance(obj, IndirectObject):
            if obj.idnum in self.memo:
                return self.memo[obj.idnum]
            target = obj.get_object()
            if isinstance(target, StreamObject):
                ref = target.clone(self.writer, force_duplicate=True).indirect_reference
                self.memo[obj.idnum] = ref
                return ref
            if isinstance(target, DictionaryObject):
                new = DictionaryObject()
                ref = self.memo[obj.idnum] = self.writer._add_object(new)  # noqa: SLF001 - no public API
                new.update({NameObject(k): self(v) for k, v in target.items()})
                return ref
            if isinstance(target, ArrayObject):
                new = ArrayObject()
                ref = self.memo[obj.idnum] = self.writer._add_object(new)  # noqa: SLF001
                new.extend(self(v) for v in target)
                return ref
            return self(target)
        if isinstance(obj, DictionaryObject):
            return DictionaryObject({NameObject(k): self(v) for k, v in obj.items()})
        if isinstance(obj, ArrayObject):
            return ArrayObject(self(v) for v in obj)
        return obj


def graft_structure(writer: PdfWriter, parts: list[tuple[object, int]]) -> bool:
    """Copy the structure tree of every tagged part (a path or bytes, and the index of its
    first page in `writer`) into `writer`; False when no part is tagged."""
    document = DictionaryObject({NameObject("/Type"): NameObject("/StructElem"),
                                 NameObject("/S"): NameObject("/Document")})
    document_ref = writer._add_object(document)  # noqa: SLF001
    kids, nums, role_map, namespaces, next_key = ArrayObject(), ArrayObject(), DictionaryObject(), ArrayObject(), 0
    for source, first in parts:
        reader = PdfReader(io.BytesIO(source) if isinstance(source, bytes) else source)
        tree = reader.trailer["/Root"].get("/StructTreeRoot")
        if tree is None:
            continue
        known: dict[int, IndirectObject] = {reader.trailer["/Root"].raw_get("/StructTreeRoot").idnum: document_ref}
        offset, used = next_key, 0
        for i, page in enumerate(reader.pages):
            merged = writer.pages[first + i]
            known[page.indirect_reference.idnum] = merged.indirect_reference
            if "/StructParents" in page:
                merged[NameObject("/StructParents")] = NumberObject(int(page["/StructParents"]) + offset)
                used = max(used, int(page["/StructParents"]) + 1)
            for old, new in zip(page.get("/Annots") or [], merged.get("/Annots") or []):
                if isinstance(old, IndirectObject) and isinstance(new, IndirectObject):
                    known[old.idnum] = new
                    if "/StructParent" in old.get_object():
                        key = int(old.get_object()["/StructParent"])
                        new.get_object()[NameObject("/StructParent")] = NumberObject(key + offset)
                        used = max(used, key + 1)
        copy = _Copier(writer, known)
        tree = tree.get_object()
        entries: list = []
        if "/ParentTree" in tree:
            _number_tree(tree["/ParentTree"], entries)
        for key, value in sorted(entries, key=lambda e: e[0]):
            nums.extend([NumberObject(key + offset), copy(value)])
            used = max(used, key + 1)
        next_key = offset + max(used, int(tree.get("/ParentTreeNextKey", 0)))
        top = tree.get("/K")
        if top is not None:
            top = copy(tree.raw_get("/K"))
            kids.extend(top.get_object() if isinstance(top.get_object(), ArrayObject) else [top])
        for name, role in (tree.get("/RoleMap") or {}).items():
            role_map[NameObject(name)] = copy(role)
        for ns in tree.get("/Namespaces") or []:
            mapped = copy(ns)
            if mapped not in namespaces:
                namespaces.append(mapped)
    if not kids:
        return False
    root = DictionaryObject({NameObject("/Type"): NameObject("/StructTreeRoot"), NameObject("/K"): document_ref,
                             NameObject("/ParentTree"): writer._add_object(  # noqa: SLF001
                                 DictionaryObject({NameObject("/Nums"): nums})),
                             NameObject("/ParentTreeNextKey"): NumberObject(next_key)})
    if role_map:
        root[NameObject("/RoleMap")] = role_map
    if namespaces:
        root[NameObject("/Namespaces")] = namespaces
    root_ref = writer._add_object(root)  # noqa: SLF001
    document[NameObject("/P")] = root_ref
    document[NameObject("/K")] = kids
    for kid in kids:  # the parts' top elements now hang under the one Document, each a Part
        elem = kid.get_object()
        if isinstance(elem, DictionaryObject):
            elem[NameObject("/P")] = document_ref
            if elem.get("/S") == "/Document":
                elem[NameObject("/S")] = NameObject("/Part")
    catalog = writer._root_object  # noqa: SLF001
    catalog[NameObject("/StructTreeRoot")] = root_ref
    catalog[NameObject("/MarkInfo")] = DictionaryObject({NameObject("/Marked"): BooleanObject(True)})
    return True

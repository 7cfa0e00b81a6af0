"""Merged PDFs keep their parts' structure trees (tags), so that screen readers and reflow
read the one file a user opens as they read each part.

`merge_pdfs` concatenates finished PDFs with qpdf (through pikepdf, in C++: a whole kit in
a fraction of a second, where a pure-Python copy took seconds) and grafts each tagged
part's structure tree into the result: one `Document` element holds every part's top
elements (each a `Part`), in page order; page references point at the merged pages (qpdf
copies each source's objects once, so the tree's `/Pg` references land on the pages
already copied); parent-tree keys are renumbered part by part (pages' `/StructParents`
and annotations' `/StructParent` with them).
"""
from __future__ import annotations

import io

import pikepdf
from pikepdf import Array, Dictionary, Name

from sheets.pdf.finish import describe, save


def _number_tree(node, out: list) -> None:
    """Flatten a number tree into (key, value) pairs (values as stored)."""
    nums = node.get("/Nums")
    if nums is not None:
        out.extend((int(nums[i]), nums[i + 1]) for i in range(0, len(nums) - 1, 2))
    for kid in node.get("/Kids", []):
        _number_tree(kid, out)


def _copy(dest: pikepdf.Pdf, obj):
    """`obj` of another file, copied into `dest` (indirect objects once per source file:
    qpdf remembers what it copied, pages included)."""
    if isinstance(obj, (Array, Dictionary, pikepdf.Stream)) and obj.is_indirect:
        return dest.copy_foreign(obj)
    if isinstance(obj, Array):
        return Array([_copy(dest, x) for x in obj])
    if isinstance(obj, Dictionary):
        return Dictionary({k: _copy(dest, v) for k, v in obj.items()})
    return obj


class _Structure:
    """The merged file's structure tree, built part by part."""

    def __init__(self, dest: pikepdf.Pdf):
        self.dest = dest
        self.document = dest.make_indirect(Dictionary(Type=Name.StructElem, S=Name.Document))
        self.kids, self.nums, self.role_map, self.namespaces = Array(), Array(), Dictionary(), Array()
        self.next_key = 0
        self.moved: set = set()  # forms whose key is renumbered already

    def graft(self, src: pikepdf.Pdf, first: int) -> None:
        """Copy `src`'s tree (its pages already copied, from page index `first` on)."""
        tree = src.Root.get("/StructTreeRoot")
        if tree is None:
            return
        offset = self.next_key
        used = self._renumber(src, first, offset)
        top = tree.get("/K")
        tops = ([] if top is None else list(top) if isinstance(top, Array) else [top])
        for elem in tops:  # their parent is the part's root, which is not copied: the Document is
            if isinstance(elem, Dictionary) and "/P" in elem:
                del elem.P
        entries: list = []
        if "/ParentTree" in tree:
            _number_tree(tree.ParentTree, entries)
        for key, value in sorted(entries, key=lambda e: e[0]):
            self.nums.append(key + offset)
            self.nums.append(_copy(self.dest, value))
            used = max(used, key + 1)
        self.next_key = offset + max(used, int(tree.get("/ParentTreeNextKey", 0)))
        for elem in tops:
            copied = _copy(self.dest, elem)
            if isinstance(copied, Dictionary):
                copied.P = self.document
                if copied.get("/S") == Name.Document:
                    copied.S = Name.Part
            self.kids.append(copied)
        for name, role in tree.get("/RoleMap", Dictionary()).items():
            self.role_map[name] = _copy(self.dest, role)
        for ns in tree.get("/Namespaces", Array()):
            self.namespaces.append(_copy(self.dest, ns))

    def _renumber(self, src: pikepdf.Pdf, first: int, offset: int) -> int:
        """The parent-tree keys of `src`'s pages, annotations and tagged forms, as merged from page
        `first` on, moved up by `offset`; returns one past the highest key they used."""
        used = 0
        for i, page in enumerate(src.pages):
            merged = self.dest.pages[first + i].obj
            if "/StructParents" in page.obj:
                merged.StructParents = int(page.obj.StructParents) + offset
                used = max(used, int(page.obj.StructParents) + 1)
            for annot in merged.get("/Annots", []):
                if "/StructParent" in annot:
                    key = int(annot.StructParent)
                    annot.StructParent = key + offset
                    used = max(used, key + 1)
            for form in merged.get("/Resources", Dictionary()).get("/XObject", Dictionary()).values():
                # a tagged form (a stamped page's blank, a card: sheets.pdf.finish) has its own key
                if isinstance(form, pikepdf.Stream) and "/StructParents" in form and form.objgen not in self.moved:
                    self.moved.add(form.objgen)
                    key = int(form.StructParents)
                    form.StructParents = key + offset
                    used = max(used, key + 1)
        return used

    def finish(self) -> bool:
        """Hang the tree on the catalog; False when no part was tagged."""
        if not len(self.kids):
            return False
        root = self.dest.make_indirect(Dictionary(
            Type=Name.StructTreeRoot, K=self.document,
            ParentTree=self.dest.make_indirect(Dictionary(Nums=self.nums)), ParentTreeNextKey=self.next_key))
        if len(self.role_map):
            root.RoleMap = self.role_map
        if len(self.namespaces):
            root.Namespaces = self.namespaces
        self.document.P = root
        self.document.K = self.kids
        self.dest.Root.StructTreeRoot = root
        self.dest.Root.MarkInfo = Dictionary(Marked=True)
        return True


def link_parts(pdf: pikepdf.Pdf, links: dict[str, int]) -> int:
    """Turn each link annotation whose URI is a key of `links` into a link to that page
    (0-based) of `pdf`; returns how many were turned."""
    turned = 0
    for page in pdf.pages:
        for annot in page.obj.get("/Annots", Array()):
            action = annot.get("/A")
            if action is None or action.get("/S") != Name.URI:
                continue
            target = links.get(str(action.URI))
            if target is None:
                continue
            del annot.A
            annot.Dest = Array([pdf.pages[target].obj, Name.Fit])
            annot.Contents = pikepdf.String(f"Go to page {target + 1}")
            turned += 1
    return turned


def merge_pdfs(sources: list, *, title: str, lang: str = "en",
               outline: list[tuple[str, int, int | None]] | None = None, page_mode: str | None = None,
               links: dict[str, int] | None = None, keywords: str | None = None) -> bytes:
    """Finished PDFs (paths or bytes) concatenated into one tagged PDF's bytes.

    `outline`: (title, 0-based page, index of its parent in this list or None), parents
    first. `links`: {URI: 0-based page}: each link annotation to that URI becomes a link
    to that page (the kit's contents page names each part so, see `link_parts`). `keywords`:
    the Info dictionary's /Keywords (the kit's dice seed: metadata, not a player's page). The same
    sources give the same bytes (the file ID is a hash of the content).
    """
    dest = pikepdf.new()
    structure = _Structure(dest)
    opened = []
    try:
        for source in sources:
            src = pikepdf.open(io.BytesIO(source) if isinstance(source, bytes) else source)
            opened.append(src)
            first = len(dest.pages)
            dest.pages.extend(src.pages)
            structure.graft(src, first)
        structure.finish()
        if outline:
            with dest.open_outline() as tree:
                items: list[pikepdf.OutlineItem] = []
                for name, page, parent in outline:
                    item = pikepdf.OutlineItem(name, page)
                    (tree.root if parent is None else items[parent].children).append(item)
                    items.append(item)
        dest.docinfo = dest.make_indirect(Dictionary(Title=pikepdf.String(title), Author=pikepdf.String("warsheets"),
                                                     Creator=pikepdf.String("warsheets")))
        if keywords:
            dest.docinfo.Keywords = pikepdf.String(keywords)
        dest.Root.Lang = pikepdf.String(lang)
        if page_mode:
            dest.Root.PageMode = Name(page_mode)
        if links:
            link_parts(dest, links)
        # Every source is a finished file, repaired when it was finished (`finish_pdf`): the
        # repairs over the whole merge changed no byte of kit.pdf and took 1.1 s of its 1.6 s
        # (tests/pipeline/test_pdfua.py repairs kit.pdf again and compares).
        describe(dest, title, lang, repair=False)
        return save(dest)
    finally:
        for src in opened:
            src.close()
        dest.close()

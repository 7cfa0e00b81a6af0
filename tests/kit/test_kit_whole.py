"""The whole kit (every game): every part shows every word it contains, rendered, not only
extracted; kit.pdf keeps each tagged part's structure tree."""
from __future__ import annotations

import json

import pypdf
import pytest

from visibility import invisible_words

HEADINGS = {"/H", "/H1", "/H2", "/H3", "/H4", "/H5", "/H6"}


@pytest.fixture
def kit(whole_kit):
    return whole_kit.folder


def test_every_word_of_every_kit_part_is_visible(kit):
    parts = sorted(p for p in kit.glob("*.pdf") if p.name != "kit.pdf")
    assert len(parts) >= 30, parts  # every game, every kind of printable
    hidden = {part.name: words for part in parts if (words := invisible_words(part))}
    assert hidden == {}


def _mcid_texts(page) -> dict[int, str]:
    """The text inside each marked-content sequence (by MCID) of a page."""
    texts: dict[int, str] = {}
    stack: list = []

    def before(op, args, cm, tm):
        if op == b"BDC":
            props = args[1] if len(args) > 1 else None
            mcid = props.get("/MCID") if hasattr(props, "get") else None
            stack.append(int(mcid) if mcid is not None else (stack[-1] if stack else None))
        elif op == b"BMC":
            stack.append(stack[-1] if stack else None)
        elif op == b"EMC" and stack:
            stack.pop()

    def text(t, cm, tm, font, size):
        if stack and stack[-1] is not None:
            texts[stack[-1]] = texts.get(stack[-1], "") + t

    page.extract_text(visitor_operand_before=before, visitor_text=text)
    return texts


def headings(path, text_of: set[int] | None = None) -> list[tuple[int, tuple, str]]:
    """(page index, its MCIDs, text) of every heading element of a PDF's structure tree, in
    tree order; the text only on the pages `text_of` names (reading it is slow)."""
    reader = pypdf.PdfReader(str(path))
    root = reader.trailer["/Root"]
    assert "/StructTreeRoot" in root, f"{path.name} is not tagged"
    index = {p.indirect_reference.idnum: i for i, p in enumerate(reader.pages)}
    cache: dict[int, dict[int, str]] = {}

    def page_of(obj, page):
        return index[obj.raw_get("/Pg").idnum] if "/Pg" in obj else page

    def texts_of(page: int) -> dict[int, str]:  # each page read once (setdefault would read it every time)
        if page not in cache:
            cache[page] = _mcid_texts(reader.pages[page])
        return cache[page]

    def marked(kids, page) -> list[tuple[int, int]]:
        out = []
        for kid in kids if isinstance(kids, list) else [kids]:
            obj = kid.get_object() if hasattr(kid, "get_object") else kid
            if isinstance(obj, int):
                out.append((page, int(obj)))
            elif hasattr(obj, "get") and obj.get("/Type") == "/MCR":
                out.append((page_of(obj, page), int(obj["/MCID"])))
            elif hasattr(obj, "get") and "/S" in obj:
                out += marked(obj.get("/K", []), page_of(obj, page))
        return out

    found = []

    def walk(elem, page):
        elem = elem.get_object()
        if not hasattr(elem, "get"):
            return
        page = page_of(elem, page)
        if elem.get("/S") in HEADINGS:
            mcids = marked(elem.get("/K", []), page)
            text = ""
            if text_of is not None and page in text_of:
                text = " ".join("".join(texts_of(p).get(m, "") for p, m in mcids).split())
            found.append((page, tuple(mcids), text))
            return
        kids = elem.get("/K", [])
        for kid in kids if isinstance(kids, list) else [kids]:
            if hasattr(kid, "get_object") and hasattr(kid.get_object(), "get"):
                walk(kid, page)

    walk(root["/StructTreeRoot"], None)
    return found


def test_kit_pdf_keeps_every_reference_parts_headings_in_its_structure_tree(kit):
    manifest = json.loads((kit / "manifest.json").read_text(encoding="utf-8"))["files"]
    reader = pypdf.PdfReader(str(kit / "kit.pdf"))
    first = len(reader.pages) - sum(f["pages"] for f in manifest)  # after the contents page(s)
    starts = {}
    for f in manifest:
        starts[f["path"]] = first
        first += f["pages"]
    references = [f["path"] for f in manifest if f["path"].endswith("-reference.pdf")]
    assert len(references) >= 5, references
    wanted = {starts[name] for name in references}
    merged = headings(kit / "kit.pdf", text_of=wanted)
    in_kit = {(page, tuple((p, m) for p, m in mcids)): text for page, mcids, text in merged}
    assert reader.trailer["/Root"]["/MarkInfo"]["/Marked"]
    total = 0
    for name in references:
        own = headings(kit / name, text_of={0})
        assert own, name
        total += len(own)
        offset = starts[name]
        for page, mcids, text in own:  # the same heading, over the same marked text, on the kit's page
            key = (page + offset, tuple((p + offset, m) for p, m in mcids))
            assert key in in_kit, (name, page, text)
            if page == 0:
                assert text and in_kit[key] == text, (name, text, in_kit[key])
    # and no other heading on the references' pages (every other part has headings of its own now)
    pages_of = {f["path"]: f["pages"] for f in manifest}
    reference_pages = {starts[n] + i for n in references for i in range(pages_of[n])}
    assert len([h for h in merged if h[0] in reference_pages]) == total
    # what kit.pdf had before stays: outline, title, language
    assert reader.outline and reader.metadata.title and reader.trailer["/Root"]["/Lang"] == "en"

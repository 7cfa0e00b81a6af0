"""Every PDF tagged, described and boxed (issue 29, items 3 and 4): kit.pdf's every page in
the structure tree or marked as an artifact, /Lang, a displayed title and XMP on every file,
the contents page linking its parts, letter-spaced headings read as words, a TrimBox on
every page and a BleedBox around it on cards with bleed."""
from __future__ import annotations

import json
import re

import pikepdf
import pypdfium2 as pdfium
import pytest
from pypdf import PdfReader

from sheets.pipeline import rendering
from sheets.pdf.finish import finish_pdf

MM = 72 / 25.4
PAINT = {"Tj", "TJ", "'", '"', "S", "s", "f", "F", "f*", "B", "B*", "b", "b*", "sh", "BI"}


@pytest.fixture(scope="module")
def kit_pdf(whole_kit):
    with pikepdf.open(whole_kit.folder / "kit.pdf") as pdf:
        yield pdf


def _unmarked(stream, resources, inside: bool = False) -> list[str]:
    """Painting operators of a content stream (and the forms it draws) outside any
    marked-content sequence."""
    found, depth = [], 0
    for operands, op in pikepdf.parse_content_stream(stream):
        name = str(op)
        if name in ("BMC", "BDC"):
            depth += 1
        elif name == "EMC":
            depth -= 1
        elif name == "Do":
            xobject = resources.get("/XObject", {}).get(str(operands[0]))
            if xobject is not None and xobject.get("/Subtype") == "/Form":
                found += _unmarked(xobject, xobject.get("/Resources", resources), inside or depth > 0)
            elif not (inside or depth):
                found.append("Do " + str(operands[0]))
        elif name in PAINT and not (inside or depth):
            found.append(name)
    return found


def _mcids(stream) -> set[int]:
    return {int(operands[1].MCID) for operands, op in pikepdf.parse_content_stream(stream)
            if str(op) == "BDC" and isinstance(operands[1], pikepdf.Dictionary) and "/MCID" in operands[1]}


def _parent_tree(pdf) -> dict[int, object]:
    out: dict[int, object] = {}

    def walk(node):
        nums = node.get("/Nums", [])
        for i in range(0, len(nums) - 1, 2):
            out[int(nums[i])] = nums[i + 1]
        for kid in node.get("/Kids", []):
            walk(kid)

    walk(pdf.Root.StructTreeRoot.ParentTree)
    return out


def test_every_page_of_the_kit_is_tagged_or_an_artifact(kit_pdf):
    assert kit_pdf.Root.MarkInfo.Marked
    tree = _parent_tree(kit_pdf)
    untagged, unmarked, orphans = [], {}, []
    for number, page in enumerate(kit_pdf.pages, start=1):
        if "/StructParents" not in page.obj:
            untagged.append(number)
            continue
        resources = page.obj.get("/Resources", pikepdf.Dictionary())
        if loose := _unmarked(page, resources):
            unmarked[number] = loose[:5]
        # every MCID, on the page or in a form it draws, has its element in the parent tree
        streams = [(page, page.obj.StructParents)]
        streams += [(x, x.StructParents) for x in resources.get("/XObject", {}).values() if "/StructParents" in x]
        for stream, key in streams:
            owners = tree.get(int(key))
            for mcid in _mcids(stream):
                if owners is None or mcid >= len(owners) or not isinstance(owners[mcid], pikepdf.Dictionary):
                    orphans.append((number, mcid))
    assert untagged == []
    assert unmarked == {}
    assert orphans == []
    assert len(tree) >= len(kit_pdf.pages)


def _structure_types(pdf) -> set[str]:
    seen: set[str] = set()
    stack = [pdf.Root.StructTreeRoot.K]
    while stack:
        elem = stack.pop()
        if isinstance(elem, pikepdf.Array):
            stack.extend(elem)
        elif isinstance(elem, pikepdf.Dictionary) and "/S" in elem:
            seen.add(str(elem.S) + ("+alt" if "/Alt" in elem else ""))
            stack.append(elem.get("/K", pikepdf.Array()))
    return seen


def test_the_kit_structure_has_headings_tables_lists_figures_and_form_cells(kit_pdf):
    types = _structure_types(kit_pdf)
    assert {"/H1", "/H2", "/Table", "/TH", "/TD", "/L", "/LI", "/Link", "/Figure+alt"} <= types
    assert "/Figure" not in types  # every figure (gauge, clock) says what it is


def test_every_kit_file_has_language_displayed_title_and_xmp(whole_kit):
    files = sorted(whole_kit.folder.glob("*.pdf"))
    assert len(files) > 30
    for path in files:
        with pikepdf.open(path) as pdf:
            root = pdf.Root
            assert str(root.Lang) == "en", path.name
            assert bool(root.ViewerPreferences.DisplayDocTitle) is True, path.name
            title = str(pdf.docinfo.Title)
            assert title and title != "warsheets", path.name
            xmp = root.Metadata.read_bytes().decode("utf-8")
            found = re.search(r"<dc:title>\s*<rdf:Alt>\s*<rdf:li xml:lang=\"x-default\">(.*?)</rdf:li>", xmp, re.S)
            assert found and found.group(1) == title.replace("&", "&amp;").replace("<", "&lt;"), path.name
            with pdf.open_metadata() as meta:  # a reader's view of the same XMP
                assert meta["dc:title"] == title, path.name
                assert meta["xmp:CreateDate"].startswith("2000-01-01"), path.name  # FIXED_EPOCH


def test_contents_page_links_every_part_to_its_first_page(whole_kit, kit_pdf):
    files = json.loads((whole_kit.folder / "manifest.json").read_text(encoding="utf-8"))["files"]
    files = [f for f in files if f["path"] != "kit.pdf"]  # the manifest lists kit.pdf itself first
    first = len(kit_pdf.pages) - sum(f["pages"] for f in files)
    contents = [p for p in kit_pdf.pages[:first]]
    links = [a for page in contents for a in page.obj.get("/Annots", []) if a.get("/Subtype") == "/Link"]
    assert len(links) == len(files)
    index = {p.obj.objgen: i for i, p in enumerate(kit_pdf.pages)}
    pages = [index[a.Dest[0].objgen] for a in links]  # in the contents' order: the manifest's
    starts = []
    for f in files:
        starts.append(first)
        first += f["pages"]
    assert pages == starts
    for annot in links:  # tagged: each link annotation belongs to a Link element
        assert "/StructParent" in annot and "/A" not in annot
    # each link sits on its part's row: the row's text names the part on its first page
    reader = PdfReader(str(whole_kit.folder / "kit.pdf"))
    page_text = reader.pages[0].extract_text()
    assert "Reference" in page_text


def test_every_page_of_every_kit_file_has_a_trim_box_inside_its_media_box(whole_kit):
    for path in sorted(whole_kit.folder.glob("*.pdf")):
        with pikepdf.open(path) as pdf:
            for number, page in enumerate(pdf.pages, start=1):
                assert "/TrimBox" in page.obj, (path.name, number)
                media = [float(v) for v in page.mediabox]
                trim = [float(v) for v in page.obj.TrimBox]
                assert media[0] - 0.01 <= trim[0] < trim[2] <= media[2] + 0.01, (path.name, number)
                assert media[1] - 0.01 <= trim[1] < trim[3] <= media[3] + 0.01, (path.name, number)


def test_cards_with_bleed_have_a_bleed_box_around_the_trim_box(tmp_path, cli):
    from sheets.kinds.cards.grid import CardGrid

    result = cli("cards", "regiment", "--set", "weapons", "--layout", "poker-a4-gutter", "--backs",
                 "-o", tmp_path / "g.pdf")
    assert result.exit_code == 0, result
    grid = CardGrid(297, 210, 63, 88, 4, 2, bleed=2, gutter=4)  # poker-a4-gutter (_print/layouts.yaml)
    with pikepdf.open(tmp_path / "g.pdf") as pdf:
        front = pdf.pages[0]
        trim = [float(v) / MM for v in front.obj.TrimBox]
        bleed = [float(v) / MM for v in front.obj.BleedBox]
        media = [float(v) / MM for v in front.mediabox]
        x0, y0 = grid.slot(grid.per_page - grid.columns)  # lowest row, first column
        x1, y1 = grid.slot(grid.columns - 1)  # top row, last column
        assert trim == pytest.approx([x0, y0, x1 + 63, y1 + 88], abs=0.01)
        assert bleed == pytest.approx([x0 - 2, y0 - 2, x1 + 63 + 2, y1 + 88 + 2], abs=0.01)
        assert media[0] <= bleed[0] < trim[0] and trim[2] < bleed[2] <= media[2]
        assert media[1] <= bleed[1] < trim[1] and trim[3] < bleed[3] <= media[3]
        for page in pdf.pages:  # backs too
            assert "/BleedBox" in page.obj and "/TrimBox" in page.obj
        # crop marks are artifacts, outside the structure; the cards' text is in it
        content = pdf.pages[0].obj.Contents.read_bytes()
        assert b"/Artifact" in content and b"BDC" in content
        assert "/StructParents" in pdf.pages[0].obj
        forms = [x for x in pdf.pages[0].Resources.XObject.values() if "/StructParents" in x]
        assert len(forms) == grid.per_page


def test_cards_without_bleed_have_a_trim_box_and_no_bleed_box(tmp_path, cli):
    result = cli("cards", "regiment", "--set", "weapons", "-o", tmp_path / "c.pdf")
    assert result.exit_code == 0, result
    with pikepdf.open(tmp_path / "c.pdf") as pdf:
        assert all("/TrimBox" in p.obj and "/BleedBox" not in p.obj for p in pdf.pages)


def _pdfium_text(data: bytes) -> str:
    doc = pdfium.PdfDocument(data)
    try:
        return " ".join(doc[i].get_textpage().get_text_range() for i in range(len(doc)))
    finally:
        doc.close()


def test_a_letter_spaced_heading_extracts_as_words():
    html = ('<html lang="en"><head><title>t</title><style>@page { size: 120mm 40mm; margin: 5mm }'
            'h1 { font: bold 20pt "DejaVu Sans"; letter-spacing: 0.3em }</style></head>'
            '<body><h1>THE REGIMENT</h1></body></html>')
    raw = rendering.html_to_pdf(html)
    assert "T H E" in _pdfium_text(raw)  # what a reader makes of the gaps, untouched
    done = finish_pdf(raw)
    assert "THE REGIMENT" in _pdfium_text(done)
    assert "THE REGIMENT" in PdfReader(__import__("io").BytesIO(done)).pages[0].extract_text()
    # and the same ink: the page renders identically
    before, after = pdfium.PdfDocument(raw)[0].render().to_pil(), pdfium.PdfDocument(done)[0].render().to_pil()
    assert before.tobytes() == after.tobytes()


def test_the_kits_letter_spaced_playbook_headings_extract_as_words(whole_kit):
    doc = pdfium.PdfDocument(str(whole_kit.folder / "regiment-operator.pdf"))
    try:
        text = doc[0].get_textpage().get_text_range()
    finally:
        doc.close()
    assert "OPERATOR" in text and "ALPHA 2.0" in text  # the name 0.08 em apart, the edition 0.12 em


@pytest.mark.unit
def test_letter_spacing_marks_tj_runs_only_and_reads_every_number_once():
    """The TJ arrays of a content stream found by the bytes alone (spacing.mark_bytes): a letter-spaced
    run wrapped with its words, a dash pattern, a run without gaps and numbers of every PDF form
    left as they are, each number read as one item (never "12" as "1" and "2")."""
    from sheets.pdf import spacing

    cmap = {0x41: "A", 0x42: "B", 0x43: "C"}
    spaced = b"[<0041> -120 <> -60.5 <0042> -.5 <> -120 <0043>] TJ"
    data = (b"BT /F1 9.5 Tf [1.5 0.75 12 3.] 0 d " + spaced + b" [<0041> 12.25 <0042>] TJ "
            b"[10 20 300 4000 -5 +6 .7 8.] 0 d ET")
    marked = spacing.mark_bytes(data, lambda font: cmap if font == "/F1" else None)
    actual = ("\ufeff" + "ABC").encode("utf-16-be").hex().encode()
    assert marked == data.replace(spaced, b"/Span <</ActualText <" + actual + b">>> BDC " + spaced + b" EMC")

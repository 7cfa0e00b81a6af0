"""A stamped file is tagged as it is written (issue 38; one tagger since issue 46).

Every stamped file (a batch of playbooks, a mission, the kit's contents page) is streamed by
`sheets.pdf.tagged.TaggedPdf`: each page gets its own copy of its blank's structure elements,
its own text a Span of a P, its web links in its Link elements, and the document its tree,
language, title and XMP, page by page, so that nothing grows with the page count. Read back
whole (tests/pipeline/pdf_equivalence.py: every page's content and forms, the structure tree
with its marked-content references, the parent tree from every page, form and annotation).
"""
from __future__ import annotations

from pathlib import Path

import pikepdf

from pdf_equivalence import summary
from sheets.base.dice import Dice
from sheets.pipeline.stamp import write as stamping


def _written(parts, title: str, tmp_path: Path, name: str = "one-pass.pdf", workers: int = 1) -> Path:
    return stamping.write_stamped(parts, tmp_path / name, title=title, cache_dir=tmp_path / "cache",
                                  workers=workers)


def _role_at(tree, path: tuple) -> str:
    """The role of the element at `path` (kid indices from the Document) of a summary's tree."""
    for index in path:
        tree = tree[3][index]
    return tree[0]


def _owner_paths(parents: dict) -> list:
    """Every owner the parent tree names, from every page, form and annotation."""
    found = []
    for owners in parents.values():
        found += owners if isinstance(owners, list) else [owners]
    return found


def test_ten_playbooks_tagged_while_written_carry_their_blanks_structure(regiment, tmp_path):
    from sheets.games.regiment.sheets import blank_playbook, filled_playbooks, roll_squad

    sheet = filled_playbooks(regiment, roll_squad(regiment, Dice.seeded(5), 10), "ten.pdf")
    # and a part with no blank (laid out in full, like a roster or a campaign record)
    parts = [(None, blank_playbook(regiment, regiment.data.playbook("medic"))), *sheet.parts]
    after = _written(parts, sheet.context["title"], tmp_path)
    new = summary(after)
    assert len(new["pages"]) == 22 and new["tree"][0] == "/Document" and len(new["tree"][3]) > 22
    # the blanks' own structure is carried onto every stamped page: its headings and tables,
    # not only the spans of its marked text
    roles = repr(new["tree"])
    assert roles.count("('/H1',") >= 10 and "('/TH'," in roles and "('/TD'," in roles
    assert new["lang"] == "en" and new["mark"] == {"/Marked": True} and new["title"] == "10 filled playbooks"
    assert new["prefs"] == {"/DisplayDocTitle": True} and b"pdfuaid:part>1<" in new["xmp"]
    # every page and every blank's form it draws is in the parent tree, and each of their
    # marked contents has its element
    assert all(page["tabs"] == "/S" and page["trim"] == page["media"] for page in new["pages"])
    assert {key[1] for key in new["parents"] if key[0] == "page"} == set(range(22))
    assert sum(1 for key in new["parents"] if key[0] == "form") >= 20
    assert None not in _owner_paths(new["parents"])
    # stored in object streams and a cross-reference stream
    assert b"/ObjStm" in after.read_bytes() and b"/XRef" in after.read_bytes()
    with pikepdf.open(after) as pdf:  # qpdf reads it without a complaint; an /ID from its bytes
        assert pdf.check_pdf_syntax() == []
        assert len(pdf.trailer.ID) == 2 and len(bytes(pdf.trailer.ID[0])) == 16
    again = _written(parts, sheet.context["title"], tmp_path, "again.pdf", workers=2)
    assert again.read_bytes() == after.read_bytes()  # the same parts, the same bytes (on 1 core or 2)


def test_web_links_join_their_link_elements(regiment, tmp_path, monkeypatch):
    """A blank whose page carries a web link: every stamped page gets its own annotation, in
    the page's Link element (or one of its own), in the parent tree."""
    from sheets.pdf import stream as pdfstream
    from sheets.games.regiment.sheets import filled_playbooks, roll_squad

    link = ([10.0, 10.0, 100.0, 30.0], "https://example.org/warsheets")
    monkeypatch.setattr(pdfstream, "uri_links", lambda page: [link, link])
    sheet = filled_playbooks(regiment, roll_squad(regiment, Dice.seeded(2), 2), "two.pdf")
    new = summary(_written(sheet.parts, sheet.context["title"], tmp_path))
    assert all(len(page["annots"]) == 2 for page in new["pages"])
    annots = {key: path for key, path in new["parents"].items() if key[0] == "annot"}
    assert {key[1] for key in annots} == set(range(len(new["pages"])))  # on every page,
    assert all(path is not None and _role_at(new["tree"], path) == "/Link" for path in annots.values())


def test_pages_marked_on_the_workers_are_the_bytes_marked_here(regiment, tmp_path, monkeypatch):
    """Issue 38: on two workers a tagged file's pages come marked from the workers that drew
    them (`marking.marked_pages`); this process only numbers their objects. The file is the
    same bytes as the one whose pages this process marked itself (one worker, `add_page`)."""
    from sheets.games.regiment.sheets import filled_playbooks, roll_squad
    from sheets.pdf.tagged import TaggedPdf

    squad = roll_squad(regiment, Dice.seeded(23), 5)
    calls = {"add_marked_page": 0, "add_page": 0}
    for name in calls:
        original = getattr(TaggedPdf, name)

        def counted(self, *args, _name=name, _original=original, **kwargs):
            calls[_name] += 1
            return _original(self, *args, **kwargs)
        monkeypatch.setattr(TaggedPdf, name, counted)
    monkeypatch.setattr(stamping, "CHUNK", 2)  # three chunks, on the workers
    cache = tmp_path / "cache"
    here = stamping.write_stamped(filled_playbooks(regiment, squad, "s.pdf").parts, tmp_path / "here.pdf",
                                  title="five", cache_dir=cache, workers=1)
    assert calls == {"add_marked_page": 0, "add_page": 10}
    there = stamping.write_stamped(filled_playbooks(regiment, squad, "s.pdf").parts, tmp_path / "there.pdf",
                                   title="five", cache_dir=cache, workers=2)
    assert calls == {"add_marked_page": 10, "add_page": 10}  # every page marked on a worker
    assert there.read_bytes() == here.read_bytes()


def test_a_page_is_marked_as_it_was_written_numbers_strings_and_arrays_alike():
    """The workers and the writing process mark a page by one function (`marking.mark_content`)
    from its instructions as parsed: every number, string and array is written back as it was
    written (no number put in another form first), the page's own run with text a Span, the
    blank's form left as it is (a run without text is an Artifact)."""
    import pikepdf

    from sheets.pdf import marking

    content = (b"q /WSBase Do Q\n1 0 0 1 0 0 cm .464286 w -.5 0 m 12. 0 l S\n"
               b"BT /F2+0 9 Tf 10.8 TL (a .5 [b\\) .7 \\(c) Tj <2e35> Tj [ (x) -.25 (y) ] TJ ET\n0 0 0 rg\n")
    pdf = pikepdf.new()
    marked, events = marking.mark_content(pikepdf.parse_content_stream(pikepdf.Stream(pdf, content)), True)
    assert events == "FT"
    assert marked.startswith(b"q\n/WSBase Do\nQ\n/Span << /MCID 0 >> BDC\n") and marked.endswith(b"EMC")
    for written in (b".464286 w", b"-.5 0 m", b"12. 0 l", b"(a .5 [b\\) .7 \\(c) Tj", b"-.25"):
        assert written in marked, written
    drawn, events = marking.mark_content(pikepdf.parse_content_stream(pikepdf.Stream(pdf, b"0 0 m 1 1 l S")), False)
    assert (drawn, events) == (b"/Artifact BMC\n0 0 m\n1 1 l\nS\nEMC", "")


def test_a_page_written_from_its_blanks_format_is_the_bytes_written_element_by_element(regiment, tmp_path,
                                                                                       monkeypatch):
    """A page's structure elements are one format per blank in which only the numbers are put
    (`TaggedPdf._elements`); a page with web links writes them element by element instead. The
    two ways give the same bytes (the second forced here on every page)."""
    from sheets.games.regiment.sheets import blank_playbook, filled_playbooks, roll_squad
    from sheets.pdf.tagged import TaggedPdf

    squad = roll_squad(regiment, Dice.seeded(31), 4)
    parts = [(None, blank_playbook(regiment, regiment.data.playbook("medic"))),
             *filled_playbooks(regiment, squad, "s.pdf").parts]
    cache = tmp_path / "cache"
    monkeypatch.setattr(stamping, "CHUNK", 2)
    quick = stamping.write_stamped(parts, tmp_path / "quick.pdf", title="four", cache_dir=cache, workers=1).read_bytes()
    with pikepdf.open(tmp_path / "quick.pdf") as pdf:  # the elements sit in object streams
        assert sum(1 for o in pdf.objects if isinstance(o, pikepdf.Dictionary) and o.get("/Type") == "/StructElem") > 400
    links_of = TaggedPdf._links_of
    monkeypatch.setattr(TaggedPdf, "_links_of", lambda self, *a: ({-1: []}, links_of(self, *a)[1]))
    slow = stamping.write_stamped(parts, tmp_path / "slow.pdf", title="four", cache_dir=cache, workers=1).read_bytes()
    assert slow == quick


def test_a_blanks_elements_format_keeps_its_text_as_written():
    """`_elements`: an element's own text with "%" (the format's sign) is written as it is, and
    one with a NUL (where the format cuts the elements apart) is written in hex."""
    import io

    from sheets.pdf.tagged import _ELEM, _MCR, TaggedPdf, _Base

    def blank(text: str) -> _Base:
        kid = pikepdf.Dictionary(S=pikepdf.Name.Span, ActualText=pikepdf.String(text), K=pikepdf.Array([0, 1]))
        return _Base(b"", {}, [pikepdf.Dictionary(S=pikepdf.Name.P, K=pikepdf.Array([kid, 2]))], [])

    pdf = TaggedPdf(io.BytesIO())
    for text, written in (("50% off, 100%d", b"(50% off, 100%d)"), ("a\0b", b"<")):
        base, page, delta = blank(text), 40, 2
        first, form_num = page + delta, page + 1
        form, offsets = pdf._elements(base, delta)
        quick = (form % tuple(page + k for k in offsets)).split(b"\0")
        slow = [_ELEM % (head, first + parent if parent >= 0 else pdf._document, page,
                         b" ".join(b"%d 0 R" % (first + v) if child else _MCR % (v, page, form_num) for child, v in kids))
                for head, parent, kids in base.nodes]
        assert quick == slow and len(quick) == 2 and b"/ActualText " + written in quick[1]

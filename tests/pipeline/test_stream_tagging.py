"""A stamped file tagged as it is written (issue 38) says what the two-pass file said.

Before issue 38 a stamped file was streamed raw (`write_stamped`), then read whole into
pikepdf and finished (`finish_pdf`: structure tree, document entries, boxes, words of
letter-spaced runs). That held every page's objects at once: memory grew with the count.
Now `write_stamped(finished=True)` (sheets.pdf.tagged) does the same work page by
page. The bytes differ (object numbers, object streams, a cross-reference stream), the
content must not: the two are read back and compared whole (tests/pipeline/pdf_equivalence.py:
every page's content stream and resources, every form it draws, the fonts and their programs,
the structure tree with its roles, attributes and marked-content references, the parent
tree from every page and form, the form fields, the document's language, title and XMP).
"""
from __future__ import annotations

from pathlib import Path

import pikepdf
import pypdf

from pdf_equivalence import differences, summary
from sheets.base.dice import Dice
from sheets.pdf.finish import finish_pdf
from sheets.pipeline.stamp import write as stamping


def _both(parts, title: str, tmp_path: Path) -> tuple[Path, Path]:
    cache = tmp_path / "cache"
    raw = stamping.write_stamped(parts, tmp_path / "raw.pdf", title=title, cache_dir=cache, workers=1)
    two_pass = tmp_path / "two-pass.pdf"
    two_pass.write_bytes(finish_pdf(raw.read_bytes(), title or None))
    one_pass = stamping.write_stamped(parts, tmp_path / "one-pass.pdf", title=title, cache_dir=cache, workers=1,
                                      finished=True)
    return two_pass, one_pass


def test_ten_playbooks_tagged_while_written_say_what_the_finished_file_said(regiment, tmp_path):
    from sheets.games.regiment.sheets import blank_playbook, filled_playbooks, roll_squad

    sheet = filled_playbooks(regiment, roll_squad(regiment, Dice.seeded(5), 10), "ten.pdf")
    # and a part with no blank (laid out in full, like a roster or a campaign record)
    parts = [(None, blank_playbook(regiment, regiment.data.playbook("medic"))), *sheet.parts]
    before, after = _both(parts, sheet.context["title"], tmp_path)
    old, new = summary(before), summary(after)
    assert differences(old, new) == []
    assert len(new["pages"]) == 22 and new["tree"][0] == "/Document" and len(new["tree"][3]) > 22
    assert new["lang"] == "en" and new["mark"] == {"/Marked": True} and new["title"] == "10 filled playbooks"
    # what changed is how it is stored: object streams and a cross-reference stream
    assert b"/ObjStm" in after.read_bytes() and b"/XRef" in after.read_bytes()
    with pikepdf.open(after) as pdf:  # qpdf reads it without a complaint; an /ID from its bytes
        assert pdf.check_pdf_syntax() == []
        assert len(pdf.trailer.ID) == 2 and len(bytes(pdf.trailer.ID[0])) == 16
    again = stamping.write_stamped(parts, tmp_path / "again.pdf", title=sheet.context["title"],
                                   cache_dir=tmp_path / "cache", workers=2, finished=True)
    assert again.read_bytes() == after.read_bytes()  # the same parts, the same bytes (on 1 core or 2)
    text = [p.extract_text() for p in pypdf.PdfReader(after).pages]
    assert text == [p.extract_text() for p in pypdf.PdfReader(before).pages]


def test_web_links_join_their_link_elements_as_before(regiment, tmp_path, monkeypatch):
    """A blank whose page carries a web link: every stamped page gets its own annotation, in
    the page's Link element (or one of its own), as the two-pass finish did."""
    from sheets.pdf import stream as pdfstream
    from sheets.games.regiment.sheets import filled_playbooks, roll_squad
    from pypdf.generic import ArrayObject, FloatObject

    link = (ArrayObject([FloatObject(v) for v in (10, 10, 100, 30)]), "https://example.org/warsheets")
    monkeypatch.setattr(pdfstream, "_uri_links", lambda page: [link, link])
    sheet = filled_playbooks(regiment, roll_squad(regiment, Dice.seeded(2), 2), "two.pdf")
    before, after = _both(sheet.parts, sheet.context["title"], tmp_path)
    old, new = summary(before), summary(after)
    assert differences(old, new) == []
    assert all(len(page["annots"]) == 2 for page in new["pages"])
    annots = {key: path for key, path in new["parents"].items() if key[0] == "annot"}
    assert {key[1] for key in annots} == set(range(len(new["pages"])))  # on every page,
    assert all(path is not None for path in annots.values())  # each in an element of the tree


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
                                  title="five", cache_dir=cache, workers=1, finished=True)
    assert calls == {"add_marked_page": 0, "add_page": 10}
    there = stamping.write_stamped(filled_playbooks(regiment, squad, "s.pdf").parts, tmp_path / "there.pdf",
                                   title="five", cache_dir=cache, workers=2, finished=True)
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


def test_a_page_written_from_its_blanks_formats_is_the_bytes_written_piece_by_piece(regiment, tmp_path,
                                                                                     monkeypatch):
    """Issue 38: a page's copy of its blank's form, its structure elements, its form's entry in
    the parent tree and its resources are written out once per blank (or per overlay's
    resources) and only the numbers put in (`TaggedPdf._form_copy`, `_elements`,
    `_form_owners`, `_resources`). The file is the same bytes as one made the old way: each
    object built as pypdf objects (or formatted element by element) for every page."""
    from pypdf.generic import DictionaryObject, NameObject, NumberObject, StreamObject

    from sheets.pdf import stream as pdfstream
    from sheets.games.regiment.sheets import blank_playbook, filled_playbooks, roll_squad
    from sheets.pdf import tagged
    from sheets.pdf.tagged import TaggedPdf

    squad = roll_squad(regiment, Dice.seeded(31), 4)
    parts = [(None, blank_playbook(regiment, regiment.data.playbook("medic"))),
             *filled_playbooks(regiment, squad, "s.pdf").parts]
    cache = tmp_path / "cache"
    monkeypatch.setattr(stamping, "CHUNK", 2)
    quick = stamping.write_stamped(parts, tmp_path / "quick.pdf", title="four", cache_dir=cache, workers=1,
                                   finished=True).read_bytes()
    with pikepdf.open(tmp_path / "quick.pdf") as pdf:  # the elements sit in object streams
        assert sum(1 for o in pdf.objects if isinstance(o, pikepdf.Dictionary) and o.get("/Type") == "/StructElem") > 400

    def form_copy(self, base, num, struct_parents):  # the old way: a pypdf stream, written by pypdf
        stream = StreamObject()
        stream._data = base.data
        stream[NameObject("/Filter")] = NameObject("/FlateDecode")
        for k, v in base.entries.items():
            stream[NameObject(k)] = v
        if struct_parents is not None:
            stream[NameObject("/StructParents")] = NumberObject(struct_parents)
        self._write(num, stream)

    def write_page(self, num, form, size, content, overlay_source, overlay, annots, struct_parents):
        resources = DictionaryObject()
        res = overlay.get("/Resources") if overlay is not None else None
        if res is not None:
            resources = self._import(overlay_source or "overlay", res.get_object())
        xobjects = resources.get("/XObject")
        xobjects = DictionaryObject(xobjects.get_object()) if xobjects is not None else DictionaryObject()
        xobjects[NameObject("/WSBase")] = tagged._ref(form)
        resources[NameObject("/XObject")] = xobjects
        box = pdfstream.ArrayObject([NumberObject(0), NumberObject(0), pdfstream.FloatObject(size[0]),
                                     pdfstream.FloatObject(size[1])])
        page = DictionaryObject({
            NameObject("/Type"): NameObject("/Page"), NameObject("/Parent"): tagged._ref(self._pages),
            NameObject("/MediaBox"): box, NameObject("/Resources"): resources,
            NameObject("/Contents"): self._add(content), NameObject("/StructParents"): NumberObject(struct_parents),
            NameObject("/Tabs"): NameObject("/S"), NameObject("/TrimBox"): pdfstream.ArrayObject(box)})
        if annots:
            page[NameObject("/Annots")] = pdfstream.ArrayObject(tagged._ref(a) for a in annots)
        self._pack(num, page)
        self._kids.append(num)

    def form_owners(self, base, first, delta):
        return self._owners_entry([first + i if i is not None else None for i in base.owners])

    monkeypatch.setattr(TaggedPdf, "_form_copy", form_copy)
    monkeypatch.setattr(TaggedPdf, "_write_page", write_page)
    monkeypatch.setattr(TaggedPdf, "_elements", lambda self, base, delta: None)
    monkeypatch.setattr(TaggedPdf, "_form_owners", form_owners)
    slow = stamping.write_stamped(parts, tmp_path / "slow.pdf", title="four", cache_dir=cache, workers=1,
                                  finished=True).read_bytes()
    assert slow == quick


def test_a_blanks_elements_format_escapes_its_text_and_gives_way_to_a_nul():
    """`_elements`: an element's own text (an /ActualText with "%", which pypdf escapes; a bare
    "%" too) is written as it is, and a blank whose text holds a NUL (the format's cut) is
    written element by element instead."""
    import io

    from pypdf.generic import ArrayObject, DictionaryObject, NameObject, NumberObject, TextStringObject

    from sheets.pdf.tagged import _ELEM, _MCR, TaggedPdf, _Base

    def blank(text: str) -> _Base:
        kid = DictionaryObject({NameObject("/S"): NameObject("/Span"), NameObject("/ActualText"): TextStringObject(text),
                                NameObject("/K"): ArrayObject([NumberObject(0), NumberObject(1)])})
        top = DictionaryObject({NameObject("/S"): NameObject("/P"), NameObject("/K"): ArrayObject([kid, NumberObject(2)])})
        return _Base(b"", {}, [top], [])

    pdf = TaggedPdf(io.BytesIO())
    base, page, delta = blank("50% off, 100%d"), 40, 2
    first, form_num = page + delta, page + 1
    form, offsets = pdf._elements(base, delta)
    quick = (form % tuple(page + k for k in offsets)).split(b"\0")
    slow = [_ELEM % (head, first + parent if parent >= 0 else pdf._document, page,
                     b" ".join(b"%d 0 R" % (first + v) if child else _MCR % (v, page, form_num) for child, v in kids))
            for head, parent, kids in base.nodes]
    assert quick == slow and b"(50" in quick[1]
    raw = blank("x")  # heads with a bare "%" and with a NUL (pypdf writes neither: it escapes them)
    raw.nodes = [(b"/S /P /Alt (50% off)", -1, raw.nodes[0][2]), (b"/S /Span /Alt (a\0b)", 0, raw.nodes[1][2])]
    assert pdf._elements(raw, delta) is None
    raw.nodes[1] = (b"/S /Span", 0, raw.nodes[1][2])
    raw.elements.clear()
    form, offsets = pdf._elements(raw, delta)
    assert (form % tuple(page + k for k in offsets)).split(b"\0")[0].startswith(
        b"<< /Type /StructElem /S /P /Alt (50% off) /P " + str(pdf._document).encode() + b" 0 R /Pg 40 0 R")

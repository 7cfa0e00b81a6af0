"""A stamped file tagged as it is written (issue 38) says what the two-pass file said.

Before issue 38 a stamped file was streamed raw (`write_stamped`), then read whole into
pikepdf and finished (`finish_pdf`: structure tree, document entries, boxes, words of
letter-spaced runs). That held every page's objects at once: memory grew with the count.
Now `write_stamped(finished=True)` (sheets.pipeline.stamp.tagged) does the same work page by
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
from sheets.pipeline.finish import finish_pdf
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
    from sheets.base import pdfstream
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
    from sheets.pipeline.stamp.tagged import TaggedPdf

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


def test_the_workers_quick_way_writes_numbers_as_pikepdf_and_leaves_strings_alone():
    """The workers mark a page from its instructions as parsed (`finish._runs`),
    whose real numbers pikepdf writes back as they were written: so the content is first put in
    the form pikepdf gives a converted number (".5" as "0.5"), outside its strings, whose bytes
    (a subset's codes) may read like numbers; a content that may hold an inline image is left to
    the slower way. Both ways give the same marked content."""
    import pikepdf

    from sheets.pipeline.finish import _runs as finish_runs
    from sheets.pipeline.stamp import marking

    content = (b"q /WSBase Do Q\n1 0 0 1 0 0 cm .464286 w -.5 0 m 12. 0 l S\n"
               b"BT /F2+0 9 Tf 10.8 TL (a .5 [b\\) .7 \\(c) Tj <2e35> Tj ET\n0 0 0 rg\n")
    assert marking._canonical(content) == content.replace(b" .464286", b" 0.464286").replace(
        b" -.5 ", b" -0.5 ").replace(b" 12. ", b" 12 ")
    assert marking._canonical(b"BI /W 1 /H 1 ID \x00.5 EI") is None
    # a real in an array is written otherwise again ("-0.25" as "-.25"): the slower way
    assert marking._canonical(b"BT [ (x) -.25 (y) ] TJ ET") is None
    pdf = pikepdf.new()
    slow = marking.mark_content(pikepdf.parse_content_stream(pikepdf.Stream(pdf, content)), True)
    quick = marking._marked(finish_runs(
        pikepdf.parse_content_stream(pikepdf.Stream(pdf, marking._canonical(content))), {"/WSBase": True}), True)
    assert quick == slow and slow[1] == "FT"

"""No line of any page is cut before a word that would have fit on it (tests/linebreaks.py), on A4
and on Letter: a publisher's proofreader sees "Introduce" alone above "new, conflicting, or
confusing orders" at once (the Regiment's GM moves; "passing" alone on a Down Range tank card)."""
from __future__ import annotations

import pytest

from linebreaks import early_breaks

FACES = ('@font-face { font-family: "Sheets DejaVu Sans"; src: url("sheets-font:DejaVuSans.ttf"); }'
         '@font-face { font-family: "Sheets DejaVu Sans"; font-weight: bold; src: url("sheets-font:DejaVuSans-Bold.ttf"); }')
GM_MOVE = "Introduce new, conflicting, or confusing **orders** from the players’ commanders."


def _paragraph(body: str, width_mm: float) -> str:
    return (f'<html><head><style>{FACES} body {{ font-family: "Sheets DejaVu Sans"; font-size: 8.5pt; margin: 0 }}'
            f'</style></head><body><p style="width: {width_mm}mm">{body}</p></body></html>')


def test_the_measure_sees_a_line_cut_after_its_first_word_and_the_markup_avoids_it(tmp_path):
    """The GM move as the rules' markup wrote it (a space, then the bold word) in a column 60 mm wide:
    WeasyPrint cuts its first line after "Introduce", and the measure finds it; the same move through
    the tool's markup (the space inside the tag) is set "Introduce new, conflicting, or confusing"."""
    from sheets.pipeline.rendering import html_to_pdf, inline_markup

    raw, marked = tmp_path / "raw.pdf", tmp_path / "marked.pdf"
    raw.write_bytes(html_to_pdf(_paragraph(GM_MOVE.replace("**orders**", "<strong>orders</strong>"), 60)))
    marked.write_bytes(html_to_pdf(_paragraph(inline_markup(GM_MOVE), 60)))
    assert [(b.line, b.next_word) for b in early_breaks(raw)] == [("Introduce", "new,")]
    assert early_breaks(marked) == []


@pytest.mark.parametrize("kit_fixture", ["whole_kit", "whole_kit_letter_4"])
def test_no_line_of_any_part_is_cut_before_a_word_that_fits(request, kit_fixture):
    """`sheets kit` and `sheets kit --paper letter --players 4`: every part but kit.pdf (its pages)."""
    kit = request.getfixturevalue(kit_fixture)
    pdfs = sorted(p for p in kit.folder.glob("*.pdf") if p.name != "kit.pdf")
    assert len(pdfs) > 20  # the whole kit: every game's parts
    found = {pdf.name: [str(b) for b in early_breaks(pdf)] for pdf in pdfs}
    assert {name: breaks for name, breaks in found.items() if breaks} == {}

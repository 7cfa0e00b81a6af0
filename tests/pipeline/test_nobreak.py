"""Values never break across lines: "1-stress", "3-strength", "(M/Sgt)", "12\"" stay whole;
and a kept value at the end of a line never sends the line's first word down alone."""
from __future__ import annotations

import io

import pypdf
import pytest

from sheets.pipeline import rendering


@pytest.mark.parametrize("text, kept", [
    ("Take 1-stress now", "1-stress"),
    ("An NPC soldier has 3-strength.", "3-strength"),
    ("the sergeant (M/Sgt) leads", "(M/Sgt)"),
    ("a ruler of 5 cm", "5\u00a0cm"),
    ("roll 11-16 on the table", "11-16"),
])
def test_values_are_wrapped_whole(text, kept):
    assert f'<span class="nb">{kept}</span>' in str(rendering.inline_markup(text))


def test_an_inch_mark_needs_no_span():
    """Unicode line breaking never breaks between a number and its inch mark (UAX #14)."""
    assert str(rendering.inline_markup('moves 12" a turn, 6″ more')) == "moves 12&#34; a turn, 6″ more"


def test_ordinary_words_are_left_alone():
    assert str(rendering.inline_markup("a word-with-hyphens and (a list, of things) 1d3")) == \
        "a word-with-hyphens and (a list, of things) 1d3"


def _lines(html: str) -> list[str]:
    reader = pypdf.PdfReader(io.BytesIO(rendering.html_to_pdf(html)))
    return [line.strip() for page in reader.pages for line in page.extract_text().splitlines()]


def test_a_value_at_the_end_of_a_line_moves_down_whole():
    """In a narrow column the break would fall inside '1-stress' and '(M/Sgt)'; it must not."""
    words = "Mark it and take 1-stress when the sergeant (M/Sgt) moves 12\" or so"
    body = "".join(f'<p style="width: {w}mm">{rendering.inline_markup(words)}</p>' for w in range(24, 44, 2))
    html = ('<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>t</title><style>'
            + open(rendering.paths.templates_dir() / "_base" / "base.css").read()
            + '</style></head><body>' + body + "</body></html>")
    lines = _lines(html)
    assert sum("1-stress" in line for line in lines) == 10
    assert sum("(M/Sgt)" in line for line in lines) == 10
    assert not any(line.endswith(("1-", "(M/")) for line in lines)
    assert sum('12"' in line for line in lines) == 10 and not any(line.endswith("12") for line in lines)


def test_a_value_at_the_end_of_a_line_keeps_the_words_before_it():
    """WeasyPrint breaks a line at its first opportunity when a nowrap span straddles its end:
    the Down Range quick-reference card 10 printed "• The" alone (issue 31). At every width
    where the inch value falls at the end of the line, the first line holds more than a word."""
    item = ("The attacking unit need not be able to see the suppressed unit, but must be able "
            'to aim within 6" of it.')
    body = "".join(f'<ul style="width: {130 + w / 4}mm; font-size: 8pt"><li>{rendering.inline_markup(item)}</li></ul>'
                   for w in range(0, 40))
    html = ('<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>t</title><style>'
            + open(rendering.paths.templates_dir() / "_base" / "base.css").read()
            + '@page { size: 200mm 297mm; margin: 5mm }</style></head><body>' + body + "</body></html>")
    firsts = [line for line in _lines(html) if line.startswith("The")]
    assert len(firsts) == 40 and all(len(line.split()) > 5 for line in firsts), firsts


def test_a_long_tables_header_row_repeats_on_every_page(cli, content_copy, tmp_path):
    """WeasyPrint repeats a <thead> on each page a table runs onto: a 400-row reference table (the most rows a table may have)."""
    ref = content_copy / "platoon" / "reference.yaml"
    rows = ", ".join(f"[{n}, Result number {n}]" for n in range(1, 401))
    ref.write_text(ref.read_text().replace(
        "sections:\n",
        "sections:\n  - id: long-table\n    title: Long table\n    blocks:\n"
        f"      - table: {{header: [Roll heading, Outcome heading], rows: [{rows}]}}\n", 1))
    out = tmp_path / "p.pdf"
    assert cli("reference", "platoon", "--content", content_copy, "-o", out).exit_code == 0
    reader = pypdf.PdfReader(str(out))
    holding = [i for i, page in enumerate(reader.pages) if "Result number" in page.extract_text()]
    assert len(holding) >= 2
    for i in holding:
        assert "Roll heading" in reader.pages[i].extract_text(), f"page {i + 1} lost the header row"

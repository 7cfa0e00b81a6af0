"""The layout pre-flight (sheets/base/overflow.py): nothing runs out of its column or off the page."""
from __future__ import annotations

import pytest

from sheets.base.errors import SheetsError
from sheets.pipeline import rendering

PAGE = """<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Overflow test</title>
<style>@page {{ size: 210mm 297mm; margin: 10mm; }} body {{ margin: 0; font: 8pt "DejaVu Sans"; }}
td {{ border: 0.5pt solid #000; white-space: nowrap; }}</style></head>
<body><div style="column-count: 2; column-gap: 5mm">
<p>Some text in the left column, and a table beside it.</p>
<div id="vehicles"><table class="rules" style="width: {width}"><tr><td>Armored reconnaissance</td><td>36</td></tr></table></div>
<p>Text in the right column that a wide table would run over.</p>
</div></body></html>"""


def test_a_table_wider_than_its_column_fails_the_build():
    # a column is (190 - 5) / 2 = 92.5 mm wide
    with pytest.raises(rendering.LayoutOverflowError) as caught:
        rendering.html_to_pdf(PAGE.format(width="120mm"))
    message = str(caught.value)
    assert message.startswith("Overflow test: the layout runs out of its columns:")
    assert "page 1: <table.rules> in #vehicles (“Armored reconnaissance 36”) runs 27.5 mm past the right edge" in message
    assert isinstance(caught.value, SheetsError)


def test_the_same_table_that_fits_its_column_passes():
    assert rendering.html_to_pdf(PAGE.format(width="90mm")).startswith(b"%PDF")


def test_a_word_too_long_for_its_box_breaks_and_prints_whole():
    """What the user wrote is printed whole, never refused for its layout: a word wider than its box
    is laid out again, broken where it must be (rendering.BREAK_ANYWHERE), every letter on the page
    and inside the box."""
    import pymupdf

    word = "Armouredreconnaissanceinfantryfightingvehicle"
    html = PAGE.format(width="40mm").replace("<p>Some text", f'<p id="box" style="width: 30mm">{word}. Some text')
    with pymupdf.open(stream=rendering.html_to_pdf(html)) as doc:
        page = doc[0]
        assert word in "".join(page.get_text().split())
        left = min(w[0] for w in page.get_text("words"))
        # the word's lines, each starting at the box's left edge (the table beside it is the other column's)
        pieces = [w for w in page.get_text("words") if w[0] < left + 1 and w[4].strip(".") in word]
        assert len(pieces) > 1 and all(w[2] - left <= 30 * 72 / 25.4 + 0.5 for w in pieces)


def test_a_table_only_a_fixed_size_makes_too_wide_still_stops_the_build():
    # the retry breaks words; it cannot shrink a width the template fixed (a template's mistake)
    with pytest.raises(rendering.LayoutOverflowError):
        rendering.html_to_pdf(PAGE.format(width="120mm").replace("<td>36</td>", "<td>36</td>" * 3))


def test_a_wide_reference_table_prints_whole_in_its_column(cli, content_copy, tmp_path):
    """End to end: a reference table whose header cannot fit a column on whole words (12 columns of
    "Movement", the most columns a table may have: limits.MAX_TABLE_COLUMNS) prints, every cell
    whole, its words broken inside the column instead of the build being refused."""
    import pymupdf

    ref = content_copy / "platoon" / "reference.yaml"
    header = ", ".join(["Movement"] * 12)
    row = ", ".join(["1"] * 12)
    ref.write_text(ref.read_text().replace(
        "sections:\n",
        "sections:\n  - id: too-wide\n    title: Too wide\n    blocks:\n"
        f"      - table: {{header: [{header}], rows: [[{row}]]}}\n", 1))
    out = tmp_path / "p.pdf"
    result = cli("reference", "platoon", "--content", content_copy, "-o", out)
    assert result.exit_code == 0, result.stderr
    with pymupdf.open(out) as doc:
        page = doc[0]
        text = "".join(page.get_text().split())
        assert "TOOWIDE" in text.upper() and "Movement" * 12 in text
        assert all(0 < w[0] and w[2] < page.rect.width for w in page.get_text("words"))

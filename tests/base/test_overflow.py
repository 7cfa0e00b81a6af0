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


def test_a_word_too_long_for_its_cell_is_found():
    html = PAGE.format(width="40mm").replace(
        "<p>Some text", '<p id="box" style="width: 30mm">Armouredreconnaissanceinfantryfightingvehicle. Some text')
    with pytest.raises(rendering.LayoutOverflowError, match=r"page 1: text in #box .* past the right edge of its column"):
        rendering.html_to_pdf(html)


def test_a_wide_reference_table_stops_the_cli_with_a_clear_message(cli, content_copy, tmp_path):
    """End to end: a reference table whose header cannot fit a column (12 columns of words that
    do not break) fails `sheets reference` with exit 1 and writes no file."""
    ref = content_copy / "platoon" / "reference.yaml"
    header = ", ".join(["Movement"] * 12)  # the most columns a table may have (limits.MAX_TABLE_COLUMNS)
    row = ", ".join(["1"] * 12)
    ref.write_text(ref.read_text().replace(
        "sections:\n",
        "sections:\n  - id: too-wide\n    title: Too wide\n    blocks:\n"
        f"      - table: {{header: [{header}], rows: [[{row}]]}}\n", 1))
    out = tmp_path / "p.pdf"
    result = cli("reference", "platoon", "--content", content_copy, "-o", out)
    assert result.exit_code == 1, result
    assert "the layout runs out of its columns" in result.stderr
    assert "in #too-wide" in result.stderr and "past the right edge of its column" in result.stderr
    assert "Traceback" not in result.stderr
    assert not out.exists()

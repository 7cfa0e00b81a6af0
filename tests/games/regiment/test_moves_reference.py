"""The Regiment's moves reference reads as a PbtA sheet (issue 48): two columns, each outcome
(On a hit, On a 10+, On a 7-9, On a miss) bold at the start of a line of its own; the GM moves in
three columns. Read back from the PDF (PyMuPDF); the moves come from the library."""
from __future__ import annotations

import pymupdf


def lines_of(page) -> list[tuple[float, str, bool]]:
    """(x, text, first span bold) of every text line on a page."""
    out = []
    for block in page.get_text("dict")["blocks"]:
        for line in block.get("lines", []):
            spans = [s for s in line["spans"] if s["text"].strip()]
            if spans:
                out.append((line["bbox"][0], "".join(s["text"] for s in spans).strip(), bool(spans[0]["flags"] & 16)))
    return out


def test_moves_in_two_columns_outcomes_on_lines_of_their_own_gm_moves_in_three(cli, tmp_path, regiment):
    from sheets.games.regiment.sheets import outcome_lines

    assert cli("reference", "regiment", "-o", "r.pdf").exit_code == 0
    doc = pymupdf.open(tmp_path / "r.pdf")
    # each part's heading, under the band that names the game
    titled = {t: next(p for p in doc if any(text == t for _, text, _ in lines_of(p))) for t in ("Moves", "GM Moves")}
    moves_pages = [p for p in doc if p.number < titled["GM Moves"].number]
    starts = [text for p in moves_pages for _, text, bold in lines_of(p) if text.startswith("On a") and bold]
    expected = [line for g in regiment.data.basic_moves.groups for m in g.moves for line in outcome_lines(m.text)[1:]]
    assert len(expected) > 10
    assert len(starts) >= len(expected), (len(starts), len(expected))
    for page, columns in ((titled["Moves"], 2), (titled["GM Moves"], 3)):
        width = page.rect.width
        used = {int(x // (width / columns)) for x, text, _ in lines_of(page) if len(text) > 3}
        assert used == set(range(columns)), (page.number, columns, used)

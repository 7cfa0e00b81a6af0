"""A part never ends on a page that holds only a line or two the previous page could have taken
(issue 34, item 3): the kit's contents page, measured on the PDFs (tests/pagefill.py). The contents
of a whole kit with 0 to 12 player packets, on A4 and Letter: one page, or a last page that holds
more than a tenth of a page and more than the page before it had room for.
"""
from __future__ import annotations

import io
import shutil

import pypdf
import pytest

from pagefill import last_page_problem
from sheets.base.paper import page_size
from sheets.kit import assemble

from test_kit_letter import _parts


def packets(whole_kit, tmp_path, count: int, paper: str) -> tuple[assemble.Part, ...]:
    """`count` player packets as the kit lists them (files of their own beside kit.pdf)."""
    printing = assemble.load_printing()
    source = whole_kit.folder / "regiment-medic.pdf"
    out = []
    for i in range(1, count + 1):
        path = tmp_path / f"player-{i}.pdf"
        shutil.copyfile(source, path)
        part = assemble.describe(path, title=f"The Regiment: player {i} of {count}", game="regiment",
                                 game_title="The Regiment", template=None, printing=printing, kind="packet")
        part.paper = paper
        out.append(part)
    return tuple(out)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_contents_never_leave_a_line_or_two_alone_on_a_page(whole_kit, library, tmp_path, paper):
    parts = _parts(whole_kit.folder, library)
    for part in parts:
        part.paper = part.paper.replace("a4", paper)
    spilled = 0
    for players in (0, 2, 3, 4, 5, 6, 8, 12):
        target = assemble.assemble(parts, tmp_path / f"kit-{players}.pdf", title="warsheets print-and-play kit",
                                   subtitle=f"All games · {paper} · dice seed 7", paper_size=page_size(paper),
                                   separate=packets(whole_kit, tmp_path, players, paper), cache_dir=tmp_path)
        reader = pypdf.PdfReader(str(target))
        n = len(reader.pages) - sum(p.pages for p in parts)
        contents = io.BytesIO()
        writer = pypdf.PdfWriter()
        for page in reader.pages[:n]:
            writer.add_page(page)
        writer.write(contents)
        data = contents.getvalue()
        text = [page.extract_text() for page in reader.pages[:n]]
        assert "Printing:" in text[-1] and f"page {n} of {n}" in text[-1]
        if players <= 4:  # a whole kit with up to four players: one page, on Letter too
            assert n == 1, (paper, players, n)
        if n == 1:
            continue
        spilled += 1
        problem = last_page_problem(data, n)
        assert problem is None, (paper, players, problem)
    assert spilled >= 1  # twelve players do run over: the measure is tried

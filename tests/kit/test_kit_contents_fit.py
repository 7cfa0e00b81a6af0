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
from sheets.kinds.print_plugin import KitOptions
from sheets.kit import assemble
from sheets.kit.plan import kit_sheets

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
    # each part's own options, as the build gives them (a card set's --set and --layout on this paper)
    reprint = {s.filename: s.reprint for s in kit_sheets(library, KitOptions(paper=paper, seed=7))}
    for part in parts:
        part.paper = part.paper.replace("a4", paper)
        part.options = reprint.get(part.path.name, {})
    cards = [p for p in parts if p.kind == "cards"]
    assert cards and all(p.options for p in cards)  # every card part's
    spilled = 0
    # (packets, parts added again): a whole kit with 0 to 12 players, then kits longer still (a
    # homebrew game or two more), which run over: there the measure is tried. Each kit's contents
    # are laid out as `assemble` lays them out (assemble.contents); the first kit is assembled
    # whole too, and kit.pdf starts with those very pages.
    for players, more in [(0, 0), (2, 0), (3, 0), (4, 0), (5, 0), (6, 0), (8, 0), (12, 0), (12, 12), (12, 24),
                          (12, 40)]:
        longer = parts + [assemble.Part(**{**vars(p), "options": dict(p.options)}) for p in parts[:more]]
        kwargs = dict(title="warsheets print-and-play kit", subtitle=f"All games · {paper} · dice seed 7",
                      paper_size=page_size(paper), separate=packets(whole_kit, tmp_path, players, paper),
                      cache_dir=tmp_path)
        data = assemble.contents(longer, **kwargs)
        reader = pypdf.PdfReader(io.BytesIO(data))
        n = len(reader.pages)
        assert longer[0].first_page == n + 1  # each part numbered after the contents
        if (players, more) == (0, 0):
            kit = pypdf.PdfReader(str(assemble.assemble(longer, tmp_path / "kit.pdf", **kwargs)))
            assert len(kit.pages) == n + sum(p.pages for p in longer)
            assert [page.extract_text() for page in kit.pages[:n]] == [page.extract_text() for page in reader.pages]
        text = [page.extract_text() for page in reader.pages]
        assert "Printing:" in text[-1] and f"page {n} of {n}" in text[-1]
        if players <= 4 and not more:  # a whole kit with up to four players: one page, on Letter too
            assert n == 1, (paper, players, n)
        if n == 1:
            continue
        spilled += 1
        problem = last_page_problem(data, n)
        assert problem is None, (paper, players, more, problem)
    assert spilled >= 2, spilled  # the longer kits do run over: the measure is tried

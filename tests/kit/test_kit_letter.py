"""Letter as good as A4 (issue 31): the contents page of a whole kit stays one page on Letter,
whose page is 18 mm shorter, and never leaves its "Printing:" box alone on a page."""
import json

import pypdf

from sheets.base.paper import page_size
from sheets.kit import assemble


def _parts(kit, library):
    printing = assemble.load_printing()
    files = json.loads((kit / "manifest.json").read_text(encoding="utf-8"))["files"]
    return [assemble.describe(kit / f["path"], title=f["title"], game=f["game"],
                              game_title=library.game(f["game"]).info.title, template=None,
                              printing=printing, kind=f["kind"])
            for f in files if f["game"] is not None]


def test_whole_kit_contents_one_page_on_letter_and_a4(whole_kit, library, tmp_path):
    parts = _parts(whole_kit.folder, library)
    assert len(parts) >= 30
    for paper in ("letter", "a4"):
        target = assemble.assemble(parts, tmp_path / f"kit-{paper}.pdf", title="warsheets print-and-play kit",
                                   subtitle=f"All games · {paper} · dice seed 7", paper_size=page_size(paper))
        reader = pypdf.PdfReader(str(target))
        contents = len(reader.pages) - sum(p.pages for p in parts)
        assert contents == 1, (paper, contents)
        first = reader.pages[0].extract_text()
        assert "Printing:" in first and assemble.part_label(parts[-1]) in first


def test_the_printing_box_keeps_to_the_last_part(whole_kit, library, tmp_path):
    """A kit too long for one contents page runs over with its last parts, never the box alone:
    at every length from one page to two, the page that holds "Printing:" holds a part too."""
    import io

    parts = _parts(whole_kit.folder, library)
    seen = 0
    for more in range(4, 20):
        longer = parts + parts[:more]
        assemble._number(longer, 2)
        pdf = assemble._contents_pdf(longer, title="warsheets print-and-play kit", subtitle="All games · letter",
                                     paper_size=page_size("letter"), cache_dir=tmp_path, pages=2)
        pages = [p.extract_text() for p in pypdf.PdfReader(io.BytesIO(pdf)).pages]
        if len(pages) < 2:
            continue
        seen += 1
        last = pages[-1]
        assert "Printing:" in last and assemble.part_label(longer[-1]) in last, (more, last)
    assert seen >= 5

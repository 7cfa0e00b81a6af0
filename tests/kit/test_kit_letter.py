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


def test_letter_kit_is_letter_on_every_page(whole_kit_letter):
    files = sorted(whole_kit_letter.folder.glob("*.pdf"))
    assert len(files) >= 20
    for pdf in files:
        for page in pypdf.PdfReader(str(pdf)).pages:
            size = sorted(round(float(v) * 25.4 / 72, 1) for v in (page.mediabox.width, page.mediabox.height))
            assert size == [215.9, 279.4], pdf.name


def _commands(kit_pdf) -> list[str]:
    """Every `sheets ...` command the contents page prints (pdftotext joins the lines a cell wraps)."""
    import re
    import subprocess

    text = subprocess.run(["pdftotext", "-f", "1", "-l", "1", str(kit_pdf), "-"], capture_output=True, text=True,
                          check=True).stdout
    return re.findall(r"`(sheets [^`]*)`", " ".join(text.split()))


def test_a_letter_kits_contents_page_names_the_paper_in_every_command(whole_kit_letter, whole_kit):
    letter = _commands(whole_kit_letter.folder / "kit.pdf")
    assert len(letter) >= 4  # the cards' backs of every game with cards
    assert all(command.endswith("--backs --paper letter") for command in letter), letter
    a4 = _commands(whole_kit.folder / "kit.pdf")
    assert len(a4) == len(letter) and all(command.endswith("--backs --paper a4") for command in a4), a4


def test_all_ink_keeps_5_mm_inside_the_paper_on_a4_and_letter(whole_kit, whole_kit_letter):
    """Footers, gauges, crop marks, tokens: no printer inks its outermost millimetres (PDFium at 72 dpi:
    a pixel is 0.35 mm, so 4.9 mm counts as 5)."""
    from conftest import ink_margins_mm

    for kit in (whole_kit.folder, whole_kit_letter.folder):
        measured = 0
        for pdf in sorted(kit.glob("*.pdf")):
            for number, margins in enumerate(ink_margins_mm(pdf), start=1):
                if margins is None:
                    continue
                measured += 1
                sides = dict(zip(("left", "top", "right", "bottom"), margins))
                near = {side: round(mm, 1) for side, mm in sides.items() if mm < 4.9}
                assert not near, f"{kit.name}/{pdf.name} page {number}: ink {near} mm from the edge"
        assert measured > 100

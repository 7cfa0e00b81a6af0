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


def _placed(pdf, index: int = 0) -> list[tuple[float, ...]]:
    """Where a page of cards places each card: its `cm` matrices, rounded to 0.01 pt."""
    from pypdf.generic import ContentStream

    reader = pypdf.PdfReader(str(pdf))
    page = reader.pages[index]
    return [tuple(round(float(v), 2) for v in operands)
            for operands, op in ContentStream(page.get_contents(), reader).operations if op == b"cm"]


def test_a_kits_contents_page_asks_for_no_command(whole_kit_letter, whole_kit):
    """Issue 47 item 5: the backs are in the kit, so the contents page prints no command to type
    (it printed `sheets cards GAME --backs ...` per deck)."""
    assert _commands(whole_kit_letter.folder / "kit.pdf") == []
    assert _commands(whole_kit.folder / "kit.pdf") == []


def test_the_kit_takes_sheets_toml_layout_and_places_its_backs_for_the_duplex_edge(cli, tmp_path):
    """`layout` in sheets.toml (issue 34, item 4): the kit's poker sets take it (poker-us-letter: US
    poker cards on Letter), and with --duplex short each page of backs follows its faces placed for
    the short edge, as `sheets cards` with that layout and edge places them."""
    (tmp_path / "sheets.toml").write_text('paper = "letter"\nlayout = "poker-us-letter"\n', encoding="utf-8")
    result = cli("kit", "--game", "platoon", "--seed", "7", "--duplex", "short", "-o", "kit")
    assert result.exit_code == 0, result
    part = tmp_path / "kit" / "platoon-cards-profiles.pdf"
    xobjects = pypdf.PdfReader(str(part)).pages[0]["/Resources"]["/XObject"]
    boxes = {round(float(x.get_object()["/BBox"][2]) * 25.4 / 72, 1) for x in xobjects.values()}
    assert boxes == {63.5}  # 2.5 in wide: the layout's US poker card, not the set's own 63 mm
    (tmp_path / "sheets.toml").unlink()  # the command alone says it all
    alone = cli("cards", "platoon", "--set", "profiles", "--layout", "poker-us-letter", "--paper", "letter",
                "--backs", "--duplex", "short", "-o", "backs.pdf")
    assert alone.exit_code == 0, alone
    assert _placed(tmp_path / "backs.pdf", 0) == _placed(part, 0)  # the same fronts in the same places
    assert _placed(tmp_path / "backs.pdf", 1) == _placed(part, 1)  # and the same backs behind them


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

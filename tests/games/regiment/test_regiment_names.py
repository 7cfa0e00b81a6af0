"""Names in any script print whole on a squad's pages: stamped when the stamp font draws them
exactly, laid out (font fallback by fontconfig, bidi order) when it cannot."""
from __future__ import annotations

import re
import subprocess
import warnings

import pypdfium2 as pdfium
import pytest
import yaml

from samebytes import pdf_font_names
from visibility import invisible_words

NAMES = ["李雷", "Zoë Ünal", "أحمد", "Ferdinand O'Neil: the 2nd",
         "Maximilian-Alexander Wojciechowski-Brzęczyszczykiewicz von H"]


def installed_fonts_for(text: str) -> list[str]:
    """The families fontconfig has with every glyph of `text` (none: no installed font has them)."""
    charset = " ".join(f"{ord(c):x}" for c in set(text))
    try:
        found = subprocess.run(["fc-list", f":charset={charset}", "family"], capture_output=True, text=True,
                               timeout=30).stdout
    except OSError:
        return []
    return sorted({line.split(",")[0].strip() for line in found.splitlines() if line.strip()})


def _bare(name: str) -> str:
    """A font name without spaces, hyphens or case ('Noto Sans CJK JP' = 'Noto-Sans-CJK-JP')."""
    return re.sub(r"[\s_-]", "", name).casefold()


pdf_fonts = pdf_font_names  # every font a PDF's pages and their forms use (tests/samebytes.py)


@pytest.fixture(scope="module")
def squad_pdf(tmp_path_factory):
    from typer.testing import CliRunner

    from sheets.cli import app

    folder = tmp_path_factory.mktemp("names")
    run = CliRunner().invoke
    assert run(app, ["playbook", "--random", "--count", "5", "--seed", "7", "--save", str(folder / "squad"),
                     "-o", str(folder / "pb.pdf")]).exit_code == 0
    members = yaml.safe_load((folder / "squad" / "squad.yaml").read_text(encoding="utf-8"))["members"]
    for file, name in zip(members, NAMES):
        path = folder / "squad" / file
        text = path.read_text(encoding="utf-8")
        path.write_text(re.sub(r"(?m)^name: .*$", "name: " + yaml.safe_dump(name, allow_unicode=True).split("\n")[0],
                               text, count=1), encoding="utf-8")
    result = run(app, ["squad", str(folder / "squad" / "squad.yaml"), "-o", str(folder / "squad.pdf")])
    assert result.exit_code == 0, result.output
    return folder / "squad.pdf"


def test_the_long_name_is_sixty_characters():
    assert len(NAMES[-1]) == 60


def test_every_name_is_in_the_pdf_whole_and_in_reading_order(squad_pdf):
    doc = pdfium.PdfDocument(str(squad_pdf))
    text = "".join("".join(doc[i].get_textpage().get_text_range() for i in range(len(doc))).split())
    doc.close()
    for name in NAMES:  # each playbook's footer names him whole (PDFium reads Arabic in reading order)
        assert "".join(name.split()) + "·" in text, name


def test_every_word_of_the_squad_is_visible(squad_pdf):
    assert invisible_words(squad_pdf) == []


def test_a_name_outside_the_stamp_font_is_laid_out_with_a_font_that_has_it(squad_pdf):
    fonts = pdf_fonts(squad_pdf)
    for name in ("李雷", "أحمد"):
        families = installed_fonts_for(name)
        if families:  # the page uses one of the installed fonts that have every glyph of the name
            assert any(_bare(family) in _bare(f) for family in families for f in fonts), (name, families, fonts)
        else:  # said explicitly: the text is in the PDF (above) and drawn, but no font here has its glyphs
            warnings.warn(f"no installed font has the glyphs of {name}: printed as missing-glyph boxes "
                          f"(install fonts-noto-cjk / fonts-noto-core)", stacklevel=1)
            assert fonts, fonts


def test_the_roster_page_holds_every_name_in_its_own_cells(squad_pdf):
    """WeasyPrint never refuses a layout: a name too long for its cell would run over the
    cells beside it (the bond grid's 60-character name did, over the grey diagonal).
    The roster page, laid out as the squad command lays it out, has no box past its cell."""
    from sheets.games.regiment.sheets import squad_sheet
    from sheets.games.regiment.squads import load_squad
    from sheets.base.overflow import find_overflows
    from sheets.pipeline.rendering import lay_out
    from sheets.library.access import library
    from sheets.pipeline.sheet import render_html

    game = library(None).game("regiment")
    roster = load_squad(squad_pdf.parent / "squad" / "squad.yaml", game.data)
    page = squad_sheet(game, roster, "squad.pdf").parts[0][1]
    document = lay_out(render_html(page))
    assert [o.describe() for o in find_overflows(document)] == []

"""Clean player pages (issue 47, item 3): no production note, placeholder, seed or command on a
page a player holds, in any PDF of `sheets kit` (A4) or `sheets kit --paper letter --players 4`;
the commands and the dice seed live only in the contents page's colophon and in kit.pdf's
metadata; every game with designer's notes (its designers_notes.yaml) ends its reference with them, each
note's subject printed there, and a value the source lost prints as the one write-in mark the
notes page explains.

Each kit is built once for the run (`whole_kit`, `whole_kit_letter_4`) and read back
with PyMuPDF, page by page."""
from __future__ import annotations

import re
from pathlib import Path

import pymupdf
import pytest

from sheets.library.content import Library
from sheets.library.kinds.notes import LOST_MARK

#: what no player's page may say: production notes, placeholders, the seed and how to repeat it
BANNED = (
    "lost in conversion", "never define", "conflict:", "our reading", "[sic]", "stand-in", "(summary)",
    "[reference]", "[elements of warfare", "30 minutes before", "repeat with", "not rule text",
    "longest mission the tables can roll", "seeds readme", "/work/", ".txt",
    "initial draft", "trying out", "[in this kit",  # the source's notes on its draft, a file's pointer
)
#: a seed as a value ("seed 7", "dice seed 640047"): metadata and colophon only
SEED = re.compile(r"\bseed\s*\d+", re.IGNORECASE)
#: command syntax: a long option (`--seed`, `--backs`) or a `sheets <command>` line
COMMAND = re.compile(r"(?<![\w-])--[a-z][a-z-]+\b|\bsheets\s+[a-z]+\s+[a-z-]+")
#: the contents page's colophon (templates/_base/kit_contents.html.j2): the commands that print
#: what kit.pdf leaves out, for a person with the tool, up to the printing advice after it
COLOPHON, AFTER_COLOPHON = "Card backs (from a terminal", "Printing:"
NOTES = "Designer's notes"
NOTES_HEAD = "Every value below is printed the same way in every part of this kit."


@pytest.fixture(scope="module", params=["a4", "letter-4"])
def kit(request) -> Path:
    return request.getfixturevalue("whole_kit" if request.param == "a4" else "whole_kit_letter_4").folder


def _pages(folder: Path):
    """(file name, 1-based page, its text with lines joined) of every PDF the kit wrote."""
    for pdf in sorted(folder.rglob("*.pdf")):
        with pymupdf.open(pdf) as doc:
            for index, page in enumerate(doc):
                text = " ".join(page.get_text().split())
                # a word hyphenated over two lines reads as one ("stand- in" -> "stand-in")
                yield pdf.relative_to(folder).as_posix(), index + 1, re.sub(r"(\w)- (\w)", r"\1-\2", text)


def _player_text(name: str, page: int, text: str) -> str:
    """What a player reads of a page: kit.pdf's contents page without its colophon (the commands
    for what kit.pdf leaves out, when there are any) and without the kit's own line naming what
    made it ("a4 · dice seed 7"); any other page all of it."""
    if name != "kit.pdf" or page != 1:
        return text
    if COLOPHON in text:
        before, rest = text.split(COLOPHON, 1)
        text = before + (rest[rest.index(AFTER_COLOPHON):] if AFTER_COLOPHON in rest else "")
    return re.sub(r"\bdice seed \d+", "", text)


def _notes_page(text: str) -> bool:
    """The reference's designer's notes: the one page that names what the source lost or reads
    (a second page of notes would not start so, and fail: the notes are one page)."""
    return f"{NOTES} {NOTES_HEAD}" in text


def test_no_production_note_seed_or_command_on_a_players_page(kit):
    found = []
    pages = 0
    for name, page, text in _pages(kit):
        pages += 1
        shown = _player_text(name, page, text)
        low = shown.lower()
        if not _notes_page(shown):
            found += [(name, page, banned) for banned in BANNED if banned in low]
        found += [(name, page, hit[0]) for hit in SEED.finditer(shown)]
        found += [(name, page, hit[0]) for hit in COMMAND.finditer(shown)]
    assert pages > 50  # the whole kit was read, not an empty folder
    assert found == []


def test_the_seed_is_in_the_metadata_and_on_the_contents_page(kit):
    with pymupdf.open(kit / "kit.pdf") as doc:
        assert "dice seed 7" in doc.metadata["keywords"]
        contents = " ".join(doc[0].get_text().split())
    assert "dice seed 7" in contents  # the contents page names what made the kit
    if COLOPHON in contents:  # what kit.pdf leaves out is told in the colophon, as commands
        colophon = contents.split(COLOPHON, 1)[1].split(AFTER_COLOPHON, 1)[0]
        assert re.search(r"sheets cards \w+ --backs", colophon)


def test_each_reference_ends_with_its_designers_notes(kit):
    library = Library()
    games = [g for g in map(library.game, library.game_ids()) if g.content.get("notes") and g.content["notes"].notes]
    assert games  # the bundled content has notes (derived, not listed here)
    for game in games:
        with pymupdf.open(kit / f"{game.id}-reference.pdf") as doc:
            text = [" ".join(page.get_text().split()) for page in doc]
        start = next(i for i, page in enumerate(text) if "Designer's notes" in page)
        notes = " ".join(text[start:])
        assert "Designer's notes" not in " ".join(text[:start])  # one notes part, at the end
        for note in game.content["notes"].notes:
            assert " ".join(note.subject.replace("**", "").split()) in notes, (game.id, note.subject)
        if any(n.kind == "lost" for n in game.content["notes"].notes):
            assert LOST_MARK in notes  # the mark is explained where the lost values are listed

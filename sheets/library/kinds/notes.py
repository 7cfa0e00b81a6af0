"""Designer's notes: what a game's source rule book lost, prints twice or leaves to a reading.

A game's `designers_notes.yaml` lists, one line each, every value the kit reads where the book is unclear
(`reading`), where two places of the book disagree (`conflict`, with the one reading the kit
prints everywhere), where the book's text lost a value (`lost`: the kit prints a write-in box,
`LOST_MARK`, never an invented value), and every typo of the book the kit corrects in its player
text (`typo`) or a page that summarises rules rather than quoting them (`summary`). The player's
pages carry none of this: the reference ends with one "Designer's notes" page that prints it
(`sheets.kinds.reference.builder`), each line with its place in the book (`source`, the book
being game.yaml's `source`).
"""
from __future__ import annotations

from typing import Literal

from pydantic import Field

from sheets.library.kinds import ContentKind
from sheets.library.validation import Strict

#: the one mark of a value the source lost, printed in a write-in box (`sheets.pipeline.rendering`)
#: wherever the value belongs, and explained at the head of the notes page
LOST_MARK = "◊"

Kind = Literal["lost", "conflict", "reading", "typo", "summary"]

#: how the notes page heads each kind, in the order it prints them
KIND_TITLES: dict[str, str] = {
    "lost": "Lost in the source",
    "conflict": "Where the source disagrees with itself",
    "reading": "Readings",
    "typo": "Typos corrected",
    "summary": "Summaries",
}


class Note(Strict):
    kind: Kind
    subject: str = Field(min_length=1, max_length=80, description="what the note is about, as the pages name it")
    text: str = Field(min_length=1, max_length=600, description="the note, one line: what the kit prints and why")
    source: str = Field(min_length=1, max_length=120,
                        description="where in the rule book: its section, table or example")


class Notes(Strict):
    notes: list[Note] = Field(default_factory=list)


CONTENT = ContentKind("notes", Notes, "designers_notes.yaml", "a game's designers_notes.yaml (designer's notes)", rank=9)

"""Generic rule text: the block lists that reference sheets and cards share.

A block is one of: a sub-heading (h), a paragraph (p), a bulleted list, a
definition list (terms) or a table. Any game's reference text is a list of
sections made of blocks, so a new game needs data, not code.
"""
from __future__ import annotations

import re
from typing import Literal, Union

from pydantic import ConfigDict, Field, model_validator

from sheets.base import limits
from sheets.library.located import Found
from sheets.library.tables import DICE_PATTERN, coverage, parse_roll, uncovered
from sheets.library.validation import Strict

Cell = Union[str, int, float, None]


class TableBlock(Strict):
    caption: str | None = None
    # the dice the table is rolled with (2d6, d66, d10...): then each row's first cell is the roll it
    # covers ("2-4", "5", "11-13", "<=3", "16,21") and every result of the dice is covered exactly once
    dice: str | None = Field(None, pattern=DICE_PATTERN)
    header: list[Cell] = Field(max_length=limits.MAX_TABLE_COLUMNS)  # every row as long (checked below)
    rows: list[list[Cell]] = Field(max_length=limits.MAX_TABLE_ROWS)
    note: str | None = None

    @classmethod
    def located_checks(cls, data: dict) -> list[Found]:
        """A rolled table's gaps and overlaps, each at the row it concerns (checked as written)."""
        dice, rows = data.get("dice"), data.get("rows")
        if not isinstance(dice, str) or not re.fullmatch(DICE_PATTERN, dice) or not isinstance(rows, list):
            return []
        at = [i for i, row in enumerate(rows) if isinstance(row, list) and row and isinstance(row[0], (str, int))]
        rolls = [rows[i][0] for i in at]
        found = []
        for n, message, first in coverage(rolls, dice):
            if n >= 0:
                found.append(Found(("rows", at[n], 0), message, ("rows", at[first], 0) if first is not None else None))
            else:
                found.append(Found(_gap_at(rolls, at, dice), f"the table {message}"))
        return found

    @model_validator(mode="after")
    def _rows_match_header(self):
        for i, row in enumerate(self.rows):
            if len(row) != len(self.header):
                raise ValueError(f"rows[{i}] has {len(row)} cells but the header has {len(self.header)}")
        return self


def _gap_at(rolls: list, at: list[int], dice: str) -> tuple:
    """Where a table's first missing result would go: the roll of the row after it (else the last)."""
    first_missing = uncovered(rolls, dice)[0]
    after = []
    for n, roll in enumerate(rolls):
        try:
            covered = parse_roll(roll, dice)
        except ValueError:
            continue
        if covered and min(covered) > first_missing:
            after.append((min(covered), n))
    if after:
        return ("rows", at[min(after)[1]], 0)
    return ("rows", at[-1], 0) if at else ("rows",)


class Term(Strict):
    term: str
    text: str | None


class Block(Strict):
    # the one-key rule as JSON Schema says it (the editor's): the check below says it in words
    model_config = ConfigDict(json_schema_extra={"minProperties": 1, "maxProperties": 1})

    h: str | None = None
    p: str | None = None
    items: list[str] | None = Field(None, alias="list")
    terms: list[Term] | None = None
    table: TableBlock | None = None

    @model_validator(mode="after")
    def _exactly_one(self):
        given = [k for k in ("h", "p", "items", "terms", "table") if getattr(self, k) is not None]
        if len(given) != 1:
            raise ValueError("a block has exactly one of the keys h, p, list, terms, table")
        return self

    @property
    def kind(self) -> str:
        return next(k for k in ("h", "p", "items", "terms", "table") if getattr(self, k) is not None)

    def words(self) -> int:
        """Rough word count, for fit checks."""
        texts: list[str] = []
        if self.h:
            texts.append(self.h)
        if self.p:
            texts.append(self.p)
        texts += self.items or []
        for t in self.terms or []:
            texts += [t.term, t.text or ""]
        if self.table:
            texts += [str(c) for c in self.table.header]
            texts += [str(c) for row in self.table.rows for c in row]
        return sum(len(t.split()) for t in texts)


class Section(Strict):
    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    title: str
    blocks: list[Block]


class RefLayout(Strict):
    """How dense a reference prints: columns, type size, orientation (e.g. a one-page summary)."""

    columns: int = Field(1, ge=1, le=4)
    font_pt: float = Field(8, ge=5, le=12)
    orientation: Literal["portrait", "landscape"] = "portrait"


class QuickRefCard(Strict):
    """One quick-reference card made of some of the reference's sections."""

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    title: str
    sections: list[str] = Field(min_length=1)


class QuickRefCards(Strict):
    """Quick-reference cards cut from the reference document (a derived card set)."""

    id: str = Field("quickref", pattern=r"^[a-z0-9][a-z0-9-]*$")
    title: str
    size: str = "half-page"
    back_title: str | None = None
    cards: list[QuickRefCard] = Field(min_length=1)


class ReferenceDoc(Strict):
    title: str
    layout: RefLayout = RefLayout()
    cards: QuickRefCards | None = None
    sections: list[Section]

    def section(self, section_id: str) -> Section | None:
        return next((s for s in self.sections if s.id == section_id), None)

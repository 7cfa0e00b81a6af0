"""Random tables as data, with their coverage checked when content loads.

A row's `roll` names the results it covers: "11-13", "16,21", "5", "<=1",
">=13". A range covers every *legal* result of the table's dice between its
ends, so on a d66 "16-21" is 16 and 21. A table must cover every result of its
dice exactly once: no gaps, no overlaps.
"""
from __future__ import annotations

import re
from typing import Generic, Literal, TypeVar

from pydantic import Field, field_validator, model_validator

from sheets.library.validation import Strict

DiceKind = Literal["d3", "d6", "2d6", "d66"]

LEGAL: dict[str, list[int]] = {
    "d3": [1, 2, 3],
    "d6": [1, 2, 3, 4, 5, 6],
    "2d6": list(range(2, 13)),
    "d66": [t * 10 + u for t in range(1, 7) for u in range(1, 7)],
}


class ResultRange(Strict):
    """The full range of a modified roll (e.g. 2d6 with +/-modifiers)."""

    min: int = Field(ge=-1000, le=1000)
    max: int = Field(ge=-1000, le=1000)

    @model_validator(mode="after")
    def _ordered(self):
        if self.min > self.max:
            raise ValueError(f"min {self.min} is above max {self.max}")
        return self


def legal_results(dice: str, results: ResultRange | None = None) -> list[int]:
    if results is None:
        return LEGAL[dice]
    return list(range(results.min, results.max + 1))


def parse_roll(spec: str | int, dice: str, results: ResultRange | None = None) -> list[int]:
    """The results a row's roll spec covers; ValueError for a malformed spec."""
    legal = legal_results(dice, results)
    out: list[int] = []
    for part in str(spec).replace(" ", "").split(","):
        if not part:
            raise ValueError(f"empty item in roll {spec!r}")
        if part.startswith("<="):
            n = int(part[2:])
            out += [r for r in legal if r <= n]
        elif part.startswith(">="):
            n = int(part[2:])
            out += [r for r in legal if r >= n]
        elif (m := re.fullmatch(r"(-?\d+)-(-?\d+)", part)):
            lo_i, hi_i = int(m.group(1)), int(m.group(2))
            if lo_i > hi_i:
                raise ValueError(f"range {part!r} runs backwards")
            for end in (lo_i, hi_i):
                if end not in legal:
                    raise ValueError(f"{end} is not a result of {dice}")
            out += [r for r in legal if lo_i <= r <= hi_i]
        else:
            n = int(part)
            if n not in legal:
                raise ValueError(f"{n} is not a result of {dice}")
            out.append(n)
    return out


class TableRow(Strict):
    """Base for a random-table row; games add their payload fields."""

    roll: str

    @field_validator("roll", mode="before")
    @classmethod
    def _roll_as_text(cls, value):
        return str(value) if isinstance(value, int) else value


R = TypeVar("R", bound=TableRow)


class RandomTable(Strict, Generic[R]):
    """A table rolled on with `dice`; rows carry a game-specific payload."""

    id: str
    title: str
    dice: DiceKind
    results: ResultRange | None = None
    note: str | None = None
    rows: list[R]

    def coverage_problems(self) -> list[tuple[tuple, str]]:
        """(loc, message) for every malformed spec, overlap and gap."""
        problems: list[tuple[tuple, str]] = []
        owner: dict[int, int] = {}
        for i, row in enumerate(self.rows):
            try:
                covered = parse_roll(row.roll, self.dice, self.results)
            except ValueError as exc:
                problems.append((("rows", i, "roll"), f"bad roll {row.roll!r}: {exc}"))
                continue
            for r in covered:
                if r in owner:
                    problems.append((("rows", i, "roll"),
                                     f"result {r} is covered twice (also by rows[{owner[r]}] {self.rows[owner[r]].roll!r})"))
                else:
                    owner[r] = i
        missing = [r for r in legal_results(self.dice, self.results) if r not in owner]
        if missing:
            problems.append((("rows",), f"table {self.id!r} ({self.dice}) has a gap: no row for {', '.join(map(str, missing))}"))
        return problems

    def lookup(self, result: int) -> R:
        """The row hit by `result` (clamped into a modified table's range)."""
        if self.results is not None:
            result = max(self.results.min, min(self.results.max, result))
        for row in self.rows:
            if result in parse_roll(row.roll, self.dice, self.results):
                return row
        raise LookupError(f"no row of {self.id} for {result}")

    def index(self) -> dict[int, R]:
        """Result -> row, for fast repeated lookups."""
        out: dict[int, R] = {}
        for row in self.rows:
            for r in parse_roll(row.roll, self.dice, self.results):
                out[r] = row
        return out

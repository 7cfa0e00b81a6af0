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

from sheets.base import limits
from sheets.library.ids import PATTERN_WORDS
from sheets.library.validation import Strict

DiceKind = Literal["d3", "d6", "2d6", "d66"]

#: the dice a table may say it is rolled with: d66 and d666 (one die for each digit), d100 (or d%),
#: and N dice of M sides summed (d6, 2d6, 3d6, d10, d20...)
DICE_PATTERN = r"^(?:d66|d666|d%|[1-9]?d(?:[2-9]|[1-9][0-9]|100))$"
PATTERN_WORDS[DICE_PATTERN] = "dice are written d6, 2d6, 3d6, d10, d20, d66, d666 or d100"

LEGAL: dict[str, list[int]] = {
    "d3": [1, 2, 3],
    "d6": [1, 2, 3, 4, 5, 6],
    "2d6": list(range(2, 13)),
    "d66": [t * 10 + u for t in range(1, 7) for u in range(1, 7)],
}


def dice_results(dice: str) -> list[int]:
    """Every result `dice` can roll, in order; ValueError when it names no dice (see DICE_PATTERN)."""
    if dice in LEGAL:
        return LEGAL[dice]
    if dice == "d666":
        return [h * 100 + t * 10 + u for h in range(1, 7) for t in range(1, 7) for u in range(1, 7)]
    if dice == "d%":
        return list(range(1, 101))
    m = re.fullmatch(r"([1-9]?)d([0-9]+)", dice)
    if not m or not re.fullmatch(DICE_PATTERN, dice):
        raise ValueError(f"{dice!r} is not dice this tool knows (d6, 2d6, d66, d10, d20, d100...)")
    count, sides = int(m.group(1) or 1), int(m.group(2))
    return list(range(count, count * sides + 1))


def coverage(rolls: list, dice: str, results: "ResultRange | None" = None) -> list[tuple[int, str, int | None]]:
    """(row, message, the row it repeats or None) for every malformed roll and every result covered
    twice; then (-1, message, None) for the results no row covers. `rolls`: each row's roll, as written."""
    problems: list[tuple[int, str, int | None]] = []
    owner: dict[int, int] = {}
    for i, roll in enumerate(rolls):
        try:
            covered = parse_roll(roll, dice, results)
        except ValueError as exc:
            problems.append((i, f"bad roll {roll!r}: {exc}", None))
            continue
        twice = [r for r in covered if r in owner]
        if twice:
            first = owner[twice[0]]
            problems.append((i, f"{_results(twice)} {'is' if len(twice) == 1 else 'are'} covered twice", first))
        for r in covered:
            owner.setdefault(r, i)
    missing = uncovered(rolls, dice, results)
    if missing:
        problems.append((-1, f"({dice}) has a gap: no row for {_shown(missing)}", None))
    return problems


def uncovered(rolls: list, dice: str, results: "ResultRange | None" = None) -> list[int]:
    """The results of `dice` no well-formed roll of `rolls` covers."""
    covered: set[int] = set()
    for roll in rolls:
        try:
            covered.update(parse_roll(roll, dice, results))
        except ValueError:
            pass
    return [r for r in legal_results(dice, results) if r not in covered]


def _shown(values: list[int]) -> str:
    return ", ".join(map(str, values[:12])) + (", ..." if len(values) > 12 else "")


def _results(values: list[int]) -> str:
    return f"result{'s' if len(values) != 1 else ''} {_shown(values)}"


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
        return dice_results(dice)
    return list(range(results.min, results.max + 1))


def parse_roll(spec: str | int, dice: str, results: ResultRange | None = None) -> list[int]:
    """The results a row's roll spec covers; ValueError for a malformed spec."""
    legal = legal_results(dice, results)
    out: list[int] = []
    for part in str(spec).replace(" ", "").replace("\u2013", "-").replace("\u2014", "-").split(","):
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
    rows: list[R] = Field(max_length=limits.MAX_TABLE_ROWS)

    def coverage_problems(self) -> list[tuple[tuple, str]]:
        """(loc, message) for every malformed spec, overlap and gap."""
        found = coverage([row.roll for row in self.rows], self.dice, self.results)
        return [(("rows", i, "roll"), message + (f" (also by rows[{first}] {self.rows[first].roll!r})" if first is not None else ""))
                if i >= 0 else (("rows",), f"table {self.id!r} {message}") for i, message, first in found]

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

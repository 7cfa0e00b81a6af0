"""User-facing errors.

Anything the user can cause (bad YAML, a character that breaks the rules, an
unwritable folder) is raised as a `SheetsError`; the CLI prints its message and
exits with code 1, never a traceback.
"""
from __future__ import annotations

from dataclasses import dataclass


class SheetsError(Exception):
    """An error caused by input; its message is shown to the user as is."""


@dataclass(frozen=True)
class Problem:
    """One located problem in a content or input file."""

    file: str
    line: int | None
    field: str
    message: str

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        field = f" {self.field}:" if self.field else ""
        return f"{where}:{field} {self.message}"


class ContentError(SheetsError):
    """One or more located problems, reported all at once."""

    def __init__(self, problems: list[Problem]):
        self.problems = sorted(problems, key=lambda p: (p.file, p.line or 0, p.field))
        count = len(self.problems)
        head = f"{count} problem{'s' if count != 1 else ''} found:"
        super().__init__("\n".join([head, *(f"  {p}" for p in self.problems)]))

    @classmethod
    def single(cls, file: str, line: int | None, field: str, message: str) -> "ContentError":
        return cls([Problem(file, line, field, message)])


def format_loc(loc: tuple) -> str:
    """('moves', 3, 'roll') -> 'moves[3].roll'."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out

"""User-facing errors.

Anything the user can cause (bad YAML, a character that breaks the rules, an
unwritable folder) is raised as a `SheetsError`; the CLI prints its message and
exits with code 1, never a traceback.
"""
from __future__ import annotations

import errno
import os
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


#: what an error of the operating system means to a person, when its own text says it poorly
_OS_MEANING = {
    errno.ENAMETOOLONG: "the name is longer than the file system allows: choose a shorter one",
    errno.ENOSPC: "the disk is full: free some space and run it again",
    errno.EDQUOT: "the disk quota is used up: free some space and run it again",
    errno.EROFS: "the file system is read-only",
    errno.EACCES: "permission denied",
    errno.EPERM: "permission denied",
    errno.ENOTDIR: "a part of the path is a file, not a folder",
    errno.EISDIR: "it is a folder, not a file",
}


def shown_path(name: object, limit: int = 80) -> str:
    """A path as a message shows it: whole when short, else its start, its end and its length."""
    text = os.fsdecode(name) if isinstance(name, (str, bytes, os.PathLike)) else str(name)
    if len(text) <= limit:
        return text
    return f"{text[:40]}...{text[-20:]} ({len(text):,} characters)"


def os_meaning(exc: OSError) -> str:
    """What an OSError means, in words: 'the disk is full: ...', else the system's own text."""
    return _OS_MEANING.get(exc.errno or 0) or exc.strerror or str(exc)


def os_error_message(exc: OSError) -> str | None:
    """One line for an error of the environment (a full disk, a name too long, no permission), naming
    what and where; None for an OSError that is not the environment's (a bug, shown as one)."""
    meaning = _OS_MEANING.get(exc.errno or 0)
    if exc.filename is None:
        return meaning if exc.errno in (errno.ENOSPC, errno.EDQUOT) else None
    where = shown_path(exc.filename)
    if exc.filename2 is not None:
        where += f" -> {shown_path(exc.filename2)}"
    return f"{where}: {meaning or exc.strerror or exc}"

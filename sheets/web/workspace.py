"""The workspace: the folder whose files the desk reads and writes, and nothing outside it.

A path from a form or a URL is relative to the workspace; `..`, absolute paths and
symlinks that lead out are refused. A file's hash travels with the form that edits it:
a save whose file changed since the form was made (another tab, the CLI), or a new file
whose name is taken meanwhile, is refused (`Conflict`): the page says which, shows what
differs (the version the form was made from against the file now, and the file now
against yours) and offers to apply the form again to the file as it is now. Writes are
atomic and keep the previous version (FILE.bak), as the CLI's do.
"""
from __future__ import annotations

import difflib
import hashlib
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from sheets.base import output
from sheets.base.errors import SheetsError

OUTPUT = "output"  # where the desk's PDFs go, inside the workspace
REMEMBERED = 32  # file versions a form was made from, kept to show what changed since
DIFF_LINES = 400  # lines of a diff shown on the conflict page


class OutsideWorkspace(SheetsError):
    """A path that leads outside the workspace (or is not a path at all)."""


class Conflict(SheetsError):
    """The file is not the version the form was made from: what happened, and what differs.

    `opened` is the text the form was made from (None when the desk no longer knows it),
    `on_disk` the file now (None: there is none), `yours` the text the form would write
    (None for a form that runs a command, such as a debrief)."""

    def __init__(self, rel: str, *, opened: str | None, on_disk: str | None, yours: str | None, was_new: bool):
        if was_new:
            what = f"{rel} exists: a file of that name was already in the workspace (or was written meanwhile)"
        elif on_disk is None:
            what = f"{rel} was deleted since you opened it (in another tab or by the CLI)"
        else:
            what = f"{rel} was changed since you opened it (in another tab or by the CLI)"
        super().__init__(f"{what}; nothing was written")
        self.rel, self.opened, self.on_disk, self.yours, self.was_new = rel, opened, on_disk, yours, was_new

    def diffs(self) -> list[tuple[str, list[str]]]:
        """(heading, unified diff lines) for what differs: since the form was made, and yours against now."""
        found = []
        if self.opened is not None and self.on_disk is not None:
            found.append(("What changed since you opened it (- as you opened it, + the file now)",
                          _diff(self.opened, self.on_disk, "as you opened it", "now")))
        if self.yours is not None:
            found.append(("Yours against the file now (- the file now, + yours, not written)",
                          _diff(self.on_disk or "", self.yours, "now", "yours")))
        return found


def _diff(a: str, b: str, a_name: str, b_name: str) -> list[str]:
    lines = list(difflib.unified_diff(a.splitlines(), b.splitlines(), a_name, b_name, n=2, lineterm=""))[2:]
    if not lines:
        return ["(no difference in the text)"]
    return lines[:DIFF_LINES] + ([f"... {len(lines) - DIFF_LINES} more lines"] if len(lines) > DIFF_LINES else [])


@dataclass
class Workspace:
    root: Path
    _seen: OrderedDict = field(default_factory=OrderedDict, repr=False)  # digest -> bytes, the latest REMEMBERED

    def __post_init__(self) -> None:
        self._seen_lock = threading.Lock()
        self.root = Path(self.root).resolve()
        if not self.root.is_dir():
            raise SheetsError(f"--workspace {self.root}: not a folder")

    def path(self, rel: str) -> Path:
        """The file `rel` names inside the workspace; refused if it would lead out."""
        text = str(rel or "").replace("\\", "/")
        pure = PurePosixPath(text)
        if not text.strip() or "\x00" in text or pure.is_absolute() or ".." in pure.parts or ":" in text:
            raise OutsideWorkspace(f"{text!r}: give a file name inside the workspace (no '..', no absolute path)")
        target = self.root.joinpath(*pure.parts)
        real = target.resolve()
        if real != self.root and not real.is_relative_to(self.root):
            raise OutsideWorkspace(f"{text!r} leads outside the workspace (a symbolic link?)")
        return target

    def rel(self, path: Path) -> str:
        return Path(path).resolve().relative_to(self.root).as_posix()

    def output_dir(self, sub: str = "") -> Path:
        """output/ (or output/SUB/) in the workspace, made if needed: where the desk's PDFs go."""
        return output.ensure_dir(self.path(f"{OUTPUT}/{sub}" if sub else OUTPUT))

    def files(self, pattern: str = "*.yaml") -> list[str]:
        """The workspace's files matching `pattern` (top folder and one below), inside it only."""
        found = []
        for path in sorted([*self.root.glob(pattern), *self.root.glob(f"*/{pattern}")]):
            if path.is_file() and path.resolve().is_relative_to(self.root) and OUTPUT not in path.parts[-2:-1]:
                found.append(self.rel(path))
        return found

    def digest(self, path: Path) -> str:
        """The sha256 of the file's bytes ('' when there is no such file): the version a form carries.

        The text is remembered a while, so a conflict can show what changed since."""
        try:
            data = Path(path).read_bytes()
        except (FileNotFoundError, IsADirectoryError):
            return ""
        version = hashlib.sha256(data).hexdigest()
        with self._seen_lock:
            self._seen[version] = data
            self._seen.move_to_end(version)
            while len(self._seen) > REMEMBERED:
                self._seen.popitem(last=False)
        return version

    def check_fresh(self, rel: str, expected: str, yours: str | None = None) -> Path:
        """The file, if it is still the version the form was made from; else Conflict."""
        path = self.path(rel)
        expected = expected or ""
        if self.digest(path) != expected:
            def text(data: bytes | None) -> str | None:
                return None if data is None else data.decode("utf-8", errors="replace")
            with self._seen_lock:
                opened = self._seen.get(expected)
            on_disk = path.read_bytes() if path.is_file() else None
            raise Conflict(rel, opened=text(opened) if expected else None, on_disk=text(on_disk), yours=yours,
                           was_new=not expected)
        return path

    def save(self, rel: str, text: str, expected: str) -> Path:
        """Write a user's file: only over the version the form was made from; the old one kept as .bak."""
        with output.locked(self.path(rel)):  # checked and written with no other writer in between
            path = self.check_fresh(rel, expected, text)
            return output.write_keeping_previous(path, text.encode("utf-8"))

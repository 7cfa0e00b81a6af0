"""The workspace: the folder whose files the desk reads and writes, and nothing outside it.

A path from a form or a URL is relative to the workspace; `..`, absolute paths and
symlinks that lead out are refused. A file's hash travels with the form that edits it:
a save whose file changed since the form was made (another tab, the CLI) is refused
with both versions, so nothing is lost. Writes are atomic and keep the previous
version (FILE.bak), as the CLI's do.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from sheets.base import output
from sheets.base.errors import SheetsError

OUTPUT = "output"  # where the desk's PDFs go, inside the workspace


class OutsideWorkspace(SheetsError):
    """A path that leads outside the workspace (or is not a path at all)."""


class Conflict(SheetsError):
    """The file changed on disk since the form was made: both versions travel with it."""

    def __init__(self, rel: str, on_disk: str, yours: str):
        super().__init__(f"{rel} was changed since you opened it (in another tab or by the CLI); "
                         f"nothing was written")
        self.rel, self.on_disk, self.yours = rel, on_disk, yours


@dataclass
class Workspace:
    root: Path

    def __post_init__(self) -> None:
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

    @staticmethod
    def digest(path: Path) -> str:
        """The sha256 of the file's bytes ('' when there is no such file): the form's version."""
        try:
            return hashlib.sha256(Path(path).read_bytes()).hexdigest()
        except FileNotFoundError:
            return ""

    def check_fresh(self, rel: str, expected: str, yours: str = "") -> Path:
        """The file, if it is still the version the form was made from; else Conflict."""
        path = self.path(rel)
        if self.digest(path) != (expected or ""):
            on_disk = path.read_text(encoding="utf-8", errors="replace") if path.exists() else "(the file was deleted)"
            raise Conflict(rel, on_disk, yours)
        return path

    def save(self, rel: str, text: str, expected: str) -> Path:
        """Write a user's file: only over the version the form was made from; the old one kept as .bak."""
        path = self.check_fresh(rel, expected, text)
        return output.write_keeping_previous(path, text.encode("utf-8"))

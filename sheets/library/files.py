"""Reading one content folder's files: `FileLoader` validates each against its model and collects
every problem (file, line, field) instead of stopping at the first."""
from __future__ import annotations

from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel

from sheets.base import limits
from sheets.base.errors import ContentError, Problem
from sheets.library.lint import colour_comments, literal_escapes
from sheets.library import located
from sheets.library.validation import LOCATED, collect
from sheets.library.yaml_source import YamlDocument, load_yaml

M = TypeVar("M", bound=BaseModel)


def located_problems(model: type[BaseModel], doc: YamlDocument) -> list[Problem]:
    """The document's located checks (duplicate ids, dice coverage), each at its line; a repeat
    names the line of what it repeats."""
    problems = []
    for found in located.check(model, doc.data):
        also = f" (also at line {doc.line_of(found.first)})" if found.first is not None else ""
        problems.append(doc.problem(found.loc, found.message + also))
    return problems


class FileLoader:
    """Loads files of one content folder, collecting problems instead of stopping."""

    def __init__(self, root: Path, folder: Path, problems: list[Problem]):
        self.root = root
        self.folder = folder
        self.problems = problems
        self.claimed: set[str] = set()  # files (relative to `folder`) some loader read or looked for
        self._documents: dict[str, YamlDocument | None] = {}

    def name(self, path: Path) -> str:
        try:
            return str(path.relative_to(self.root.parent))
        except ValueError:
            return str(path)

    def exists(self, rel: str) -> bool:
        self.claimed.add(rel)
        return (self.folder / rel).is_file()

    def inside(self, path: Path) -> bool:
        """Does `path` (after following links and '..') stay inside the content folder?"""
        try:
            return path.resolve().is_relative_to(self.root.resolve())
        except (OSError, RuntimeError):  # a link loop
            return False

    def document(self, rel: str) -> YamlDocument | None:
        """The file's document, read once (its problems reported once); None when it cannot be read."""
        if rel not in self._documents:
            self._documents[rel] = self._read(rel)
        return self._documents[rel]

    def data(self, rel: str):
        """The file's data as written (None when unreadable): for checks that run whether or not the
        file passed its model (a card set's size, the sections a quick-reference card names)."""
        doc = self._documents.get(rel)
        return doc.data if doc is not None else None

    def _read(self, rel: str) -> YamlDocument | None:
        path = self.folder / rel
        self.claimed.add(rel)
        if not self.inside(path):
            # never read it: its text must not reach the messages
            self.problems.append(Problem(self.name(path), None, "", "refused: this file is a link (or path) to a "
                                         "place outside the content folder; content may only use files inside it"))
            return None
        try:
            doc = load_yaml(path, self.name(path))
        except ContentError as exc:
            self.problems.extend(exc.problems)
            return None
        past = _past_text_bound(doc.data)
        if past is not None:  # every string is printed: the layout's time and memory grow with them
            self.problems.append(doc.problem(past, f"the file's text passes {limits.MAX_FILE_TEXT:,} characters "
                                             f"here, the most one content file may print (about 30 pages of a "
                                             f"reference); split it into smaller files or shorten it"))
        text = path.read_text(encoding="utf-8")
        self.problems.extend(literal_escapes(text, doc.name))  # \" in a block prints \"
        self.problems.extend(colour_comments(text, doc.name))  # color: #fff is a comment
        return doc

    def model(self, rel: str, model: type[M], required: bool = True) -> M | None:
        if not self.exists(rel):
            if required:
                self.problems.append(Problem(self.name(self.folder / rel), None, "", "required file is missing"))
            return None
        doc = self.document(rel)
        if doc is None:
            return None
        value = collect(self.problems, model, doc, context={LOCATED: True})
        self.problems.extend(located_problems(model, doc))
        return value

    def glob(self, pattern: str) -> list[str]:
        return sorted(str(p.relative_to(self.folder)) for p in self.folder.glob(pattern) if p.is_file())

    def problem(self, rel: str, loc: tuple, message: str) -> None:
        doc = self.document(rel) if self.inside(self.folder / rel) else None
        if doc is not None:
            self.problems.append(doc.problem(loc, message))
        else:
            self.problems.append(Problem(self.name(self.folder / rel), None, "", message))


def _past_text_bound(data) -> tuple | None:
    """Where (a path of keys and indices) a document's strings, counted in order, pass
    limits.MAX_FILE_TEXT characters; None when they never do."""
    total = 0
    stack: list[tuple[tuple, object]] = [((), data)]
    while stack:
        loc, value = stack.pop()
        if isinstance(value, str):
            total += len(value)
            if total > limits.MAX_FILE_TEXT:
                return loc
        elif isinstance(value, dict):
            stack.extend(reversed([((*loc, key), item) for key, item in value.items()]))
        elif isinstance(value, list):
            stack.extend(reversed([((*loc, i), item) for i, item in enumerate(value)]))
    return None

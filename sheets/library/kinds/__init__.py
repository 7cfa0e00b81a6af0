"""Content kinds: what each printable kind's content file says, declared once (`ContentKind`).

Each module here is one kind's content side: its model (a `Strict` model) and `CONTENT`, a
`ContentKind` naming the kind, its model, its files below a game's folder and what they are
(a game plug-in declares its own files with the same record: `GamePlugin.file_kinds`).
`Library` loads every kind found here into `Game.content[<kind>]`; `sheets schema` and
`docs/fields.md` describe each. The kind's print side (builder, templates, printing advice,
kit rank, `sheets list` line) is `sheets/kinds/<kind>/`. The modules are found where they
live (`every`): adding a kind adds a module here and names it nowhere else in this layer.

May import: `sheets.base`, `sheets.library` (never `sheets.kinds`).
"""
from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pydantic import BaseModel

    from sheets.library.files import FileLoader

#: (its files, the game loaded so far, the library) -> what the game's content of this kind is (None: none).
#: The game and the library are `sheets.library.content`'s, which loads the kinds (so typed loosely here).
Load = Callable[["FileLoader", Any, Any], Any]


@dataclass(frozen=True)
class ContentKind:
    name: str  # the kind ("tokens"): the key of `Game.content`, the schema's name, the command
    model: type[BaseModel]  # what its content file says
    files: str | None  # its content files, a glob below a game's folder ("tokens.yaml", "cards/*.yaml"); None: the user's own
    about: str  # what its file is, as the schema describes it
    rank: int = 0  # where it loads among the content kinds (and its schema's place)
    load: Load | None = None  # how a game's files of this kind load (None: the one optional file, validated)

    def read(self, files: FileLoader, game: Any, library: Any) -> Any:
        if self.load is not None:
            return self.load(files, game, library)
        return files.model(self.files, self.model, required=False)


@cache
def every() -> tuple[ContentKind, ...]:
    """Every content kind in this package, in load order (their `rank`)."""
    found = [importlib.import_module(f"{__name__}.{m.name}").CONTENT
             for m in pkgutil.iter_modules([str(Path(__file__).parent)])]
    return tuple(sorted(found, key=lambda kind: (kind.rank, kind.name)))

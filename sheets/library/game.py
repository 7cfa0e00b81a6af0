"""A game as the library loads it (`Game`) and its game.yaml (`GameInfo`)."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import Field

from sheets.library.validation import Strict

if TYPE_CHECKING:
    from sheets.library.kinds.cards import CardSet


class GameInfo(Strict):
    id: str = Field(pattern=r"^[a-z][a-z0-9-]*$")
    title: str
    subtitle: str | None = None
    source: str
    plugin: str | None = Field(None, pattern=r"^[a-z][a-z0-9_]*$")


@dataclass
class Game:
    info: GameInfo
    folder: Path
    plugin: Any  # its GamePlugin (sheets.library.plugins), or None: typed loosely, the plug-in's hooks take a Game
    data: Any = None
    content: dict[str, Any] = field(default_factory=dict)  # kind -> what its files say (None: no file)
    card_sets: dict[str, CardSet] = field(default_factory=dict)  # its card files', its reference's, its plug-in's
    files_read: set[str] = field(default_factory=set)  # relative to `folder`

    @property
    def id(self) -> str:
        return self.info.id

    @property
    def templates(self) -> str | None:
        """Whose templates its sheets use: its plug-in's (templates/<plugin>/), not its id's."""
        return self.info.plugin

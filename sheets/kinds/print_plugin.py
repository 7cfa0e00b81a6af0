"""A game plug-in's print side: the hooks the kit, `sheets list` and the reference read (`PrintPlugin`).

A game's plug-in object (`sheets.library.plugins.GamePlugin`, its content side) also
subclasses `PrintHooks` when it prints something of its own: its kinds (each with its
`sheets list` line), its kit sheets, its player packets and its reference pages. The core
asks `of(game)`, which answers "nothing to add" for a game without a print side.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:
    from sheets.kinds.kind import Kind
    from sheets.library.content import Game
    from sheets.pipeline.sheet import Sheet


@dataclass
class KitOptions:
    """What a plug-in's kit sheets depend on: the kit's dice seed and paper."""
    seed: int
    paper: str = "a4"


@runtime_checkable
class PrintPlugin(Protocol):
    def kinds(self) -> list[Kind]:
        """The printable kinds this game makes (playbooks, log sheets...), each with its `listed` line."""
        ...

    def reference_sections(self, game: Game) -> list[dict]:
        """Extra reference pages, as render contexts for `reference` templates."""
        ...

    def kit_sheets(self, game: Game, options: KitOptions) -> list[Sheet]:
        """Game-specific sheets for the kit."""
        ...

    def player_packets(self, game: Game, options: KitOptions, players: int) -> list[list[Sheet]]:
        """`sheets kit --players N`: one list of sheets per player, stapled into one PDF."""
        ...


class PrintHooks:
    """The print hooks, each saying "nothing to add": a plug-in subclasses it and overrides what it prints."""

    def kinds(self) -> list[Kind]:
        return []

    def reference_sections(self, game: Game) -> list[dict]:
        return []

    def kit_sheets(self, game: Game, options: KitOptions) -> list[Sheet]:
        return []

    def player_packets(self, game: Game, options: KitOptions, players: int) -> list[list[Sheet]]:
        return []


NOTHING = PrintHooks()


def of(game: Game) -> PrintPlugin:
    """The game's print side: its plug-in when that prints something, else nothing to add."""
    return game.plugin if isinstance(game.plugin, PrintPlugin) else NOTHING

"""A game plug-in's print side: the hooks the kit, `sheets list` and the reference read (`PrintPlugin`).

A game's plug-in object (`sheets.library.plugins.GamePlugin`, its content side) also
subclasses `PrintHooks` when it prints something of its own: its kinds (each with its
`sheets list` line and its `make`: the kit's sheets of that kind, rolled with `KitOptions.seed`),
its player packets and its reference pages. The core
asks `of(game)`, which answers "nothing to add" for a game without a print side.
"""
from __future__ import annotations

from dataclasses import dataclass, fields
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from sheets.base.options import PrintOptions

if TYPE_CHECKING:
    from sheets.kinds.kind import Kind
    from sheets.library.content import Game
    from sheets.pipeline.sheet import Sheet


@dataclass(frozen=True, kw_only=True)
class KitOptions(PrintOptions):
    """What a kit takes, and so every kind's `make` in it: the print options, plus the kit's dice
    seed, its number of players (player packets) and the user's own squad (`sheets kit --squad FILE`:
    a squad file or character files, which a game that has squads makes its filled playbooks and
    player packets from, one packet per character). A kit asked for with no seed rolls one before
    any sheet is made: a plug-in's kinds always have one in the kit. `layout`: the card layout of
    the kit's card sets of its card size and paper (None: each set's default); `duplex`: the edge
    the user's printer flips on, which the cards' backs are placed for (and the contents page says)."""

    seed: int | None = None
    players: int = 0
    squad: tuple[Path, ...] = ()
    layout: str | None = None
    duplex: str = "long"

    @classmethod
    def of(cls, options: PrintOptions, *, seed: int | None = None, players: int = 0,
           squad: tuple[Path, ...] | list[Path] = (), layout: str | None = None, duplex: str = "long") -> KitOptions:
        """The kit's options: `options` as given, with the kit's seed, players, squad files, layout and duplex edge."""
        shared = {f.name: getattr(options, f.name) for f in fields(PrintOptions)}
        return cls(**shared, seed=seed, players=players, squad=tuple(Path(p) for p in squad), layout=layout,
                   duplex=duplex)


class Packet(list):
    """One player's packet: its sheets, and who it is for (a character's name: the packet's file is
    named after them; "": player N)."""

    def __init__(self, sheets=(), who: str = ""):
        super().__init__(sheets)
        self.who = who


@runtime_checkable
class PrintPlugin(Protocol):
    def kinds(self) -> list[Kind]:
        """The printable kinds this game makes (playbooks, log sheets...), each with its `listed` line."""
        ...

    def reference_sections(self, game: Game) -> list[dict]:
        """Extra reference pages, as render contexts for `reference` templates."""
        ...

    def player_packets(self, game: Game, options: KitOptions) -> list[list[Sheet]]:
        """`sheets kit --players N`: one list of sheets per player (`options.players`), stapled into one PDF."""
        ...


class PrintHooks:
    """The print hooks, each saying "nothing to add": a plug-in subclasses it and overrides what it prints."""

    def kinds(self) -> list[Kind]:
        return []

    def reference_sections(self, game: Game) -> list[dict]:
        return []

    def player_packets(self, game: Game, options: KitOptions) -> list[list[Sheet]]:
        return []


NOTHING = PrintHooks()


def of(game: Game) -> PrintPlugin:
    """The game's print side: its plug-in when that prints something, else nothing to add."""
    return game.plugin if isinstance(game.plugin, PrintPlugin) else NOTHING

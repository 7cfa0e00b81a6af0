"""Trackers: strength and clock trackers for NPC units (`builder.py` the sheet; the content is
`sheets.library.kinds.trackers`)."""
from __future__ import annotations

from sheets.base.options import PrintOptions
from sheets.kinds.kind import Kind
from sheets.kinds.trackers.builder import pick_trackers, tracker_sheet, trackers_of
from sheets.library.content import Game, Library
from sheets.library.kinds import trackers
from sheets.pipeline.sheet import Sheet


def _make(_lib: Library, game: Game, options: PrintOptions, tracker: str | None) -> list[Sheet]:
    name = f"{game.id}-trackers" + (f"-{tracker}" if tracker else "") + ".pdf"
    return [tracker_sheet(game, pick_trackers(game, tracker), paper=options.paper, filename=name)]


KIND = Kind("trackers", "the game's tracker sheet", ("trackers.html.j2",), "trackers",
            content=trackers.CONTENT, present=lambda game: bool(trackers_of(game)), make=_make,
            listed=lambda game: "trackers (" + ", ".join(trackers_of(game)) + ")", takes_id=True, kit_rank=1)

"""Stage one of the kit: every sheet it holds, all dice rolled, nothing laid out.

The kit's plan is a list of `Sheet`s: each game's plug-in sheets, its reference, and its
table material (trackers, card sets, tokens, gauges). Asking for it takes milliseconds
(no WeasyPrint), so whatever needs to know what a kit holds asks here, not for a build.
"""
from __future__ import annotations

from sheets.base.errors import SheetsError
from sheets.kinds.cards.builder import card_sheet
from sheets.kinds.gauges.builder import gauge_sheet
from sheets.kinds.tokens.builder import token_sheet
from sheets.kinds.trackers.builder import tracker_sheet
from sheets.library.content import Game, KitOptions, Library
from sheets.pipeline.rendering import page_size
from sheets.pipeline.sheet import Sheet, ink_save


def reference_sheet(game: Game, paper: str = "a4") -> Sheet:
    """The game's reference pages: its reference.yaml plus what its plugin adds."""
    parts: list[dict] = []
    landscape = False
    if game.reference is not None:
        layout = game.reference.layout
        landscape = layout.orientation == "landscape"
        parts.append({"kind": "doc", "title": game.reference.title, "sections": game.reference.sections,
                      "layout": layout})
    if game.plugin is not None:
        parts += game.plugin.reference_sections(game)
    if not parts:
        raise SheetsError(f"{game.info.title} has no reference sheet (no reference.yaml)")
    context = {"title": f"{game.info.title} reference", "page_size": page_size(paper, landscape), "parts": parts,
               "footer": f"{game.info.title} · reference · warsheets"}
    return Sheet(filename=f"{game.id}-reference.pdf", template="reference.html.j2", context=context,
                 game=game.id, label=f"{game.info.title} reference")


def kit_sheets(lib: Library, seed: int, paper: str = "a4", games: list[str] | None = None,
               ink_saver: bool = False) -> list[Sheet]:
    """Every sheet of the default kit, all dice rolled (phase one)."""
    options = KitOptions(seed=seed, paper=paper)
    sheets: list[Sheet] = []
    for gid in games or lib.game_ids():
        game = lib.game(gid)
        if game.plugin is not None:
            sheets += game.plugin.kit_sheets(game, options)
        if game.reference is not None or (game.plugin and game.plugin.reference_sections(game)):
            sheets.append(reference_sheet(game, paper))
        sheets += table_sheets(lib, game, paper)
    return ink_save(sheets, ink_saver)


def table_sheets(lib: Library, game: Game, paper: str = "a4") -> list[Sheet]:
    """The kit's table material for a game: trackers, every card set, tokens (as it has them)."""
    sheets: list[Sheet] = []
    if game.trackers:
        sheets.append(tracker_sheet(game, list(game.trackers.values()), paper=paper))
    for card_set in game.card_sets.values():
        sheets.append(card_sheet(game, card_set, lib.geometry(), paper=paper))
    if game.tokens is not None:
        sheets.append(token_sheet(game, lib.geometry().papers[paper]))
    if game.gauges is not None:
        sheets.append(gauge_sheet(game, lib.geometry().papers[paper]))
    return sheets

"""Stage one of the kit: every sheet it holds, all dice rolled, nothing laid out.

The kit's plan is a list of `Sheet`s: for each game, the sheets of each of its kinds
(`registry.kit_kinds`: its plug-in's own, then every generic kind it has, by kit rank), each
made by its kind's `make` with the kit's options. Asking for it takes milliseconds (no
WeasyPrint), so whatever needs to know what a kit holds asks here, not for a build.
"""
from __future__ import annotations

from sheets.base.errors import SheetsError
from sheets.kinds import registry, style
from sheets.library.content import Library
from sheets.kinds.print_plugin import KitOptions
from sheets.pipeline.sheet import Sheet, ink_save, render_html


def kit_sheets(lib: Library, options: KitOptions, games: list[str] | None = None,
               left_out: list[tuple[str, str]] | None = None) -> list[Sheet]:
    """Every sheet of the default kit, all dice rolled (phase one), printed as `options` say.

    With `left_out`, a game whose sheets cannot be made (a gauge larger than the paper, an error in
    its own templates) is left out of the kit, (its id, why) added to the list, and the other games'
    sheets made all the same."""
    sheets: list[Sheet] = []
    for gid in games or lib.game_ids():
        try:
            game = lib.game(gid)
            made = [sheet for kind in registry.kit_kinds(game) for sheet in style.made(kind, lib, game, options, None)]
            if left_out is not None:  # a game's own template that fails: found here, the game left out
                for sheet in made:
                    if not sheet.stamped:  # (a stamped sheet's parts are rendered as they are drawn)
                        render_html(sheet)
            sheets += made
        except SheetsError as exc:
            if left_out is None:
                raise
            left_out.append((gid, str(exc)))
    return style.large_print(ink_save(sheets, options.ink_saver), options.large_print)

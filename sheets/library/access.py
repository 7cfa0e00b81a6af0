"""What every command and game plug-in shares: dice, the content library, a game by its plug-in.

The generic commands (`sheets.app.api`), the game plug-ins' commands and the CLI all take
these from here, so that a rule about seeds or content is written once.
"""
from __future__ import annotations

import secrets
from pathlib import Path

from slugify import slugify

from sheets.base.dice import Dice
from sheets.base.errors import SheetsError
from sheets.library.content import Game, Library


def slug(text: str) -> str:
    """A file name's readable form of any name: "Łukasz Żółkiewski" -> lukasz-zolkiewski, "李雷" -> li-lei,
    "Ahmād" -> ahmad (python-slugify: letters transliterated to ASCII, lower case, words joined by -)."""
    return slugify(text) or "sheet"


def new_seed() -> int:
    """A fresh seed for a run without --seed; it is printed so the run can be repeated."""
    return secrets.randbelow(1_000_000)


def make_dice(seed: int | None, dice: str | None) -> Dice:
    if seed is not None and dice is not None:
        raise SheetsError("give either --seed or --dice, not both")
    if dice is not None:
        return Dice.parse_script(dice)
    return Dice.seeded(seed if seed is not None else new_seed())


def library(content: Path | None = None) -> Library:
    return Library(content)


def game_with_plugin(lib: Library, plugin: str) -> Game:
    # the game named like its plugin first: usually the only one loaded
    for gid in sorted(lib.game_ids(), key=lambda g: g != plugin):
        game = lib.game(gid)
        if game.info.plugin == plugin:
            return game
    raise SheetsError(f"the content folder has no game with the {plugin!r} plugin")


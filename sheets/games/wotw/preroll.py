"""`sheets mission`'s first phase: the missions rolled, and `--json` printing them.

No Jinja and no WeasyPrint on this path: `sheets mission --json` (thousands of pre-rolls)
is measured. The log sheet is `sheets.games.wotw.commands`.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from sheets.base.errors import SheetsError
from sheets.base.output import json_text
from sheets.games.wotw.mission import Mission
from sheets.games.wotw.mission import roll_missions as roll
from sheets.library.access import game_with_plugin, library, make_dice


@dataclass
class MissionRequest:
    theatre: str | None = None  # None: the content's default theatre (WotwData.default_theatre)
    nation: str | None = None  # None: the theatre's first nation
    airborne: bool = False
    beachhead: bool = False
    engineers: bool = False
    strike_step: int | None = None
    count: int = 1
    seed: int | None = None
    dice: str | None = None
    team: Path | None = None  # the paper, ink and output are the log sheet's: PrintOptions, apart


def roll_missions(req: MissionRequest, content: Path | None = None) -> tuple:
    """Phase one of `sheets mission`: the game and its missions (and team), all dice rolled."""
    if req.count < 1:
        raise SheetsError("--count must be 1 or more")
    game = game_with_plugin(library(content), "wotw")
    dice = make_dice(req.seed, req.dice)
    theatre = req.theatre if req.theatre is not None else game.data.default_theatre().id
    missions: list[Mission] = roll(game, dice, req.count, theatre, req.nation, airborne=req.airborne,
                                   beachhead=req.beachhead, engineers=req.engineers, strike_step=req.strike_step)
    return game, missions


def mission_json(req: MissionRequest, content: Path | None = None) -> str:
    _, missions = roll_missions(req, content)
    data = [m.as_json() for m in missions]
    return json_text(data[0] if len(data) == 1 else data)

"""What `sheets mission` does (the CLI only parses and prints)."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from sheets import output, paths
from sheets.api import game_with_plugin, ink_save, library, make_dice
from sheets.build import build_one
from sheets.errors import SheetsError


@dataclass
class MissionRequest:
    theatre: str = "france-1944"
    nation: str | None = None
    airborne: bool = False
    beachhead: bool = False
    engineers: bool = False
    strike_step: int | None = None
    count: int = 1
    seed: int | None = None
    dice: str | None = None
    team: Path | None = None
    paper: str = "a4"
    ink_saver: bool = False


def roll_missions(req: MissionRequest, content: Path | None = None):
    """Phase one of `sheets mission`: the missions (and team), all dice rolled."""
    from sheets.games.wotw.sheets import roll_missions as roll  # noqa: PLC0415

    if req.count < 1:
        raise SheetsError("--count must be 1 or more")
    game = game_with_plugin(library(content), "wotw")
    dice = make_dice(req.seed, req.dice)
    missions = roll(game, dice, req.count, req.theatre, req.nation, airborne=req.airborne,
                    beachhead=req.beachhead, engineers=req.engineers, strike_step=req.strike_step)
    return game, missions


def mission_json(req: MissionRequest, content: Path | None = None) -> str:
    import json  # noqa: PLC0415

    _, missions = roll_missions(req, content)
    data = [m.as_json() for m in missions]
    return json.dumps(data[0] if len(data) == 1 else data, indent=2, ensure_ascii=False)


def make_mission(req: MissionRequest, out: Path | None = None, content: Path | None = None) -> tuple[Path, str]:
    from sheets.games.wotw.sheets import log_sheet  # noqa: PLC0415
    from sheets.games.wotw.team import resolve_team  # noqa: PLC0415
    from sheets.yaml_source import load_yaml  # noqa: PLC0415

    game, missions = roll_missions(req, content)
    team = None
    if req.team is not None:
        campaign = game.data.rules.campaign
        team = resolve_team(load_yaml(Path(req.team)), game.data.nation(missions[0].nation),
                            int(campaign.get("min_team_size", 3)), int(campaign.get("grenades_per_soldier", 4)))
    first = missions[0]
    stem = f"wotw-{'campaign' if req.count > 1 else 'mission'}-{first.theatre}"
    stem += f"-seed{first.seed}" if first.seed is not None else "-dice"
    sheet = ink_save([log_sheet(game, missions, f"{stem}.pdf", req.paper, team)], req.ink_saver)[0]
    target = output.resolve_target(out, paths.default_output_dir(), sheet.filename)
    note = f"rolled with {first.dice if first.seed is None else 'seed ' + str(first.seed)}"
    return build_one(sheet, target), note

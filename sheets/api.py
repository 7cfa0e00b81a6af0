"""What the CLI commands do, as plain functions (the CLI only parses and prints).

Each function loads content, rolls dice into render contexts, and only then
renders and writes (two phases). User mistakes raise SheetsError.
"""
from __future__ import annotations

import re
import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from sheets import output, paths
from sheets.build import Built, Sheet, build, build_one
from sheets.dice import Dice
from sheets.errors import Problem, SheetsError
from sheets.library import Game, KitOptions, Library


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "sheet"


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


def validate_content(content: Path | None = None) -> list[Problem]:
    return library(content).validate()


@dataclass
class Catalogue:
    games: list[tuple[str, str, list[str]]] = field(default_factory=list)


def catalogue(content: Path | None = None) -> Catalogue:
    lib = library(content)
    cat = Catalogue()
    for gid in lib.game_ids():
        game = lib.game(gid)
        cat.games.append((gid, game.info.title, game.printables()))
    return cat


def regiment_game(lib: Library) -> Game:
    for gid in lib.game_ids():
        game = lib.game(gid)
        if game.info.plugin == "regiment":
            return game
    raise SheetsError("the content folder has no game with playbooks")


def make_playbook(name: str | None, *, character: Path | None = None, random: bool = False,
                  count: int = 1, seed: int | None = None, dice: str | None = None,
                  fillable: bool = False, paper: str = "a4", out: Path | None = None,
                  content: Path | None = None) -> tuple[Path, str]:
    """A blank, filled or random playbook PDF; returns (path, a note for the user)."""
    from sheets.games.regiment.characters import resolve_character  # noqa: PLC0415
    from sheets.games.regiment.sheets import blank_playbook, filled_playbooks, roll_squad  # noqa: PLC0415
    from sheets.yaml_source import load_yaml  # noqa: PLC0415

    lib = library(content)
    game = regiment_game(lib)
    if count < 1:
        raise SheetsError("--count must be 1 or more")
    random = random or count > 1 or seed is not None or dice is not None
    if character is not None and random:
        raise SheetsError("--character fills a playbook from a file; --random/--count/--seed/--dice roll one: use one or the other")
    note = ""
    if character is not None:
        char = resolve_character(load_yaml(Path(character)), game.data)
        if name is not None and game.data.playbook(name).id != char.playbook.id:
            raise SheetsError(f"{character} is a {char.playbook.name}, not a {game.data.playbook(name).name}")
        sheet = filled_playbooks(game, [char], f"regiment-{char.playbook.id}-{slug(char.name)}.pdf", paper, fillable)
    elif random:
        pb = game.data.playbook(name) if name else None
        rolled = make_dice(seed, dice)
        squad = roll_squad(game, rolled, count, pb)
        stem = f"regiment-{pb.id if pb else 'squad'}-random"
        stem += f"-{count}" if count > 1 else ""
        stem += f"-seed{rolled.seed}" if rolled.seed is not None else "-dice"
        sheet = filled_playbooks(game, squad, f"{stem}{'-fillable' if fillable else ''}.pdf", paper, fillable)
        note = f"rolled with {rolled.describe}" + (f" (repeat with --seed {rolled.seed})" if rolled.seed is not None else "")
    else:
        if name is None:
            raise SheetsError(f"name a playbook ({', '.join(game.data.playbooks)}) or give --character FILE")
        sheet = blank_playbook(game, game.data.playbook(name), paper, fillable)
    target = output.resolve_target(out, paths.default_output_dir(), sheet.filename)
    return build_one(sheet, target), note


def reference_sheet(game: Game, paper: str = "a4") -> Sheet:
    """The game's reference pages: its reference.yaml plus what its plugin adds."""
    from sheets.rendering import page_size  # noqa: PLC0415

    parts: list[dict] = []
    if game.reference is not None:
        parts.append({"kind": "doc", "title": game.reference.title, "sections": game.reference.sections})
    if game.plugin is not None:
        parts += game.plugin.reference_sections(game)
    if not parts:
        raise SheetsError(f"{game.info.title} has no reference sheet (no reference.yaml)")
    context = {"title": f"{game.info.title} reference", "page_size": page_size(paper), "parts": parts,
               "footer": f"{game.info.title} · reference · warsheets"}
    return Sheet(filename=f"{game.id}-reference.pdf", template="reference.html.j2", context=context,
                 game=game.id, label=f"{game.info.title} reference")


def make_reference(game_id: str, *, paper: str = "a4", out: Path | None = None,
                   content: Path | None = None) -> Path:
    game = library(content).game(game_id)
    sheet = reference_sheet(game, paper)
    return build_one(sheet, output.resolve_target(out, paths.default_output_dir(), sheet.filename))


def game_with_plugin(lib: Library, plugin: str) -> Game:
    for gid in lib.game_ids():
        game = lib.game(gid)
        if game.info.plugin == plugin:
            return game
    raise SheetsError(f"the content folder has no game with the {plugin!r} plugin")


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
    sheet = log_sheet(game, missions, f"{stem}.pdf", req.paper, team)
    target = output.resolve_target(out, paths.default_output_dir(), sheet.filename)
    note = f"rolled with {first.dice if first.seed is None else 'seed ' + str(first.seed)}"
    return build_one(sheet, target), note


def kit_sheets(lib: Library, seed: int, paper: str = "a4", games: list[str] | None = None) -> list[Sheet]:
    """Every sheet of the default kit, all dice rolled (phase one)."""
    options = KitOptions(seed=seed, paper=paper)
    sheets: list[Sheet] = []
    for gid in games or lib.game_ids():
        game = lib.game(gid)
        if game.plugin is not None:
            sheets += game.plugin.kit_sheets(game, options)
        if game.reference is not None or (game.plugin and game.plugin.reference_sections(game)):
            sheets.append(reference_sheet(game, paper))
    return sheets


def make_kit(out_dir: Path | None = None, *, seed: int | None = None, paper: str = "a4",
             game: str | None = None, content: Path | None = None,
             progress: Callable[[int], Callable[[str], None]] | None = None,
             use_cache: bool = True) -> tuple[list[Built], int]:
    lib = library(content)
    seed = seed if seed is not None else new_seed()
    games = None
    if game is not None:
        if game not in lib.game_ids():
            raise SheetsError(f"unknown game {game!r}; choose one of: {', '.join(lib.game_ids())}")
        games = [game]
    out_dir = Path(out_dir) if out_dir else paths.default_output_dir() / "kit"
    sheets = kit_sheets(lib, seed, paper, games)
    tick = progress(len(sheets)) if progress else None
    cache = (out_dir / ".cache") if use_cache else None
    return build(sheets, out_dir, cache_dir=cache, progress=tick), seed

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


def game_with_plugin(lib: Library, plugin: str) -> Game:
    for gid in lib.game_ids():
        game = lib.game(gid)
        if game.info.plugin == plugin:
            return game
    raise SheetsError(f"the content folder has no game with the {plugin!r} plugin")


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

"""What `sheets playbook` does (the CLI only parses and prints)."""
from __future__ import annotations

from pathlib import Path

from sheets import output, paths
from sheets.api import game_with_plugin, ink_save, library, make_dice, slug
from sheets.build import build_one
from sheets.errors import SheetsError


def make_playbook(name: str | None, *, character: Path | None = None, random: bool = False,
                  count: int = 1, seed: int | None = None, dice: str | None = None,
                  fillable: bool = False, paper: str = "a4", out: Path | None = None,
                  content: Path | None = None, ink_saver: bool = False) -> tuple[Path, str]:
    """A blank, filled or random playbook PDF; returns (path, a note for the user)."""
    from sheets.games.regiment.characters import resolve_character  # noqa: PLC0415
    from sheets.games.regiment.sheets import blank_playbook, filled_playbooks, roll_squad  # noqa: PLC0415
    from sheets.yaml_source import load_yaml  # noqa: PLC0415

    lib = library(content)
    game = game_with_plugin(lib, "regiment")
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
    ink_save([sheet], ink_saver)
    target = output.resolve_target(out, paths.default_output_dir(), sheet.filename)
    return build_one(sheet, target), note

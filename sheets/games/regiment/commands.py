"""What `sheets playbook` and `sheets squad` do (the CLI only parses and prints)."""
from __future__ import annotations

import json
import os
from pathlib import Path

from sheets.base import output
from sheets.base.options import PrintOptions, default_output_dir
from sheets.base.errors import SheetsError
from sheets.games.regiment.characters import character_json, resolve_character
from sheets.games.regiment.saving import SQUAD_FILE, plan_save, write_planned
from sheets.games.regiment.sheets import blank_playbook, filled_playbooks, roll_squad, squad_sheet
from sheets.games.regiment.squads import load_squad
from sheets.games.regiment.starter import write_starter
from sheets.library.access import game_with_plugin, library, make_dice, slug
from sheets.library.yaml_source import load_yaml
from sheets.kinds import style
from sheets.pipeline.write import write


def make_playbook(name: str | None, options: PrintOptions = PrintOptions(), *, character: Path | None = None,
                  random: bool = False, count: int = 1, seed: int | None = None, dice: str | None = None,
                  fillable: bool = False, save: Path | None = None) -> tuple[list[Path], str]:
    """A blank, filled or random playbook PDF (and, with `save`, the rolled soldiers' files).

    Returns the paths written (the PDF first) and a note for the user.
    """
    paper = options.paper
    lib = library(options.content)
    game = game_with_plugin(lib, "regiment")
    if count < 1:
        raise SheetsError("--count must be 1 or more")
    random = random or count > 1 or seed is not None or dice is not None
    if character is not None and random:
        raise SheetsError("--character fills a playbook from a file; --random/--count/--seed/--dice roll one: use one or the other")
    if save is not None and not random:
        raise SheetsError("--save DIR keeps rolled soldiers: use it with --random (or --count/--seed/--dice)")
    if save is not None and Path(save).exists() and not Path(save).is_dir():
        raise SheetsError(f"--save {save}: give a folder for the character files, not a file")
    note = ""
    squad = []
    rolled = None
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
    options.target(sheet.filename)  # a wrong -o is refused before anything is written
    if save is None:
        return write(style.large_print([sheet], options.large_print), options), note
    command = "sheets playbook" + (f" {name}" if name else "") + " --random"
    command += f" --count {count}" if count > 1 else ""
    command += f" --seed {rolled.seed}" if rolled.seed is not None else f" --dice {dice}"
    output.ensure_dir(Path(save))
    with output.locked(Path(save) / SQUAD_FILE):  # one writer at a time adds to the folder's squad
        planned = plan_save(squad, Path(save), rolled.describe, command, game.data)  # checked before any write
        return write(style.large_print([sheet], options.large_print), options) + write_planned(planned), note


def playbook_json(character: Path, content: Path | None = None) -> str:
    """The resolved character as JSON (`sheets playbook --character FILE --json`)."""
    game = game_with_plugin(library(content), "regiment")
    char = resolve_character(load_yaml(Path(character)), game.data)
    return json.dumps(character_json(char), indent=2, ensure_ascii=False)


def make_squad(squad_file: Path, options: PrintOptions = PrintOptions(), *, fillable: bool = False) -> Path:
    """One PDF: the GM's squad roster, then every member's playbook."""
    game = game_with_plugin(library(options.content), "regiment")
    roster = load_squad(Path(squad_file), game.data)
    stem = slug(roster.designation) if roster.designation else slug(Path(squad_file).stem)
    sheet = squad_sheet(game, roster, f"regiment-squad-{stem}{'-fillable' if fillable else ''}.pdf", options.paper,
                        fillable)
    return write(style.large_print([sheet], options.large_print), options)[0]


def new_character(playbook: str, path: Path, content: Path | None = None, root: Path | None = None) -> Path:
    """`sheets new character PLAYBOOK FILE`; the first line names the schema if `sheets schema` wrote one nearby
    (in ./schemas/ or in the output root's, `root`: sheets.toml's `output`)."""
    game = game_with_plugin(library(content), "regiment")
    name = "regiment.character.schema.json"
    found = [d / name for d in (Path.cwd() / "schemas", default_output_dir(root) / "schemas") if (d / name).is_file()]
    schema = Path(os.path.relpath(found[0], Path(path).resolve().parent)).as_posix() if found else None
    return write_starter(game.data, playbook, Path(path), schema)

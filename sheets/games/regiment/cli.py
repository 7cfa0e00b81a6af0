"""The Regiment's commands: `sheets playbook` and `sheets squad` (added by `sheets.cli`).

Parse and print only; `sheets.games.regiment.commands` does the work. It loads the
content models and Jinja, so each command imports it when it runs: `sheets --help`
must stay fast.
"""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from sheets.base import limits
from sheets.base.errors import SheetsError
from sheets.cli.errors import user_errors
from sheets.cli.config import output_root
from sheets.cli.options import Content, Dice, InkSaver, LargePrint, Output, Paper, PaperSize, Preview, Seed, print_options
from sheets.cli.output import report, wrote, write_previews

Fillable = typer.Option(False, "--fillable", help="Make every write-in and checkbox a PDF form field.")


@user_errors
def playbook(
    name: Optional[str] = typer.Argument(None, help="Playbook: soldier, medic, sniper or operator."),
    character: Optional[Path] = typer.Option(None, "--character", "-c", help="Character file (YAML) to fill the playbook from."),
    random: bool = typer.Option(False, "--random", help="Roll a random legal character."),
    count: int = typer.Option(1, "--count", "-n", min=1, max=limits.MAX_SOLDIERS,
                              help="Roll a squad of N soldiers (one playbook each, one PDF)."),
    seed: Seed = None,
    dice: Dice = None,
    fillable: bool = Fillable,
    save: Optional[Path] = typer.Option(None, "--save", help="With --random: also write one character file per "
                                        "soldier and a squad.yaml naming them into this folder (a squad already "
                                        "there gets them added to its members)."),
    as_json: bool = typer.Option(False, "--json", help="With --character: print the resolved character as JSON "
                                 "instead of writing a PDF."),
    paper: PaperSize = Paper("a4"),
    preview: Preview = False,
    ink_saver: InkSaver = False,
    large_print: LargePrint = False,
    output: Output = None,
    content: Content = None,
) -> None:
    """A Regiment playbook: blank, filled from --character, or rolled (--random)."""
    if as_json:
        from sheets.games.regiment import commands  # noqa: PLC0415 - content models and Jinja: not for --help

        if character is None or random or save is not None or count != 1 or seed is not None or dice is not None:
            raise SheetsError("--json prints a character file resolved: use it with --character FILE only")
        typer.echo(commands.playbook_json(character, content))
        return
    from sheets.games.regiment import commands  # noqa: PLC0415 - content models and Jinja: not for --help

    paths, note = commands.make_playbook(name, print_options(paper, ink_saver, output, content, large_print),
                                         character=character, random=random, count=count, seed=seed, dice=dice,
                                         fillable=fillable, save=save)
    report(paths, note)
    write_previews([p for p in paths if p.suffix == ".pdf"], preview)


@user_errors
def squad(
    squad_file: Path = typer.Argument(..., help="Squad file (YAML): designation, op, leader, members."),
    fillable: bool = Fillable,
    paper: PaperSize = Paper("a4"),
    output: Output = None,
    content: Content = None,
) -> None:
    """A Regiment squad: the GM's roster page, then every member's playbook, in one PDF."""
    from sheets.games.regiment import commands  # noqa: PLC0415 - content models and Jinja: not for --help

    wrote(commands.make_squad(squad_file, print_options(paper, output=output, content=content), fillable=fillable))


@user_errors
def new_character(
    playbook_name: str = typer.Argument(..., metavar="PLAYBOOK", help="Playbook: soldier, medic, sniper or operator."),
    file: Path = typer.Argument(..., metavar="FILE", dir_okay=False, help="The character file to write (YAML)."),
    content: Content = None,
) -> None:
    """A commented starter character file: every key with its choices; it prints as it is.

    Example: sheets new character sniper walter.yaml; then sheets playbook --character walter.yaml
    """
    from sheets.games.regiment import commands  # noqa: PLC0415 - content models: not for --help

    wrote(commands.new_character(playbook_name, file, content, output_root()))
    typer.echo(f"edit it, then: sheets playbook --character {file}")


def register_new(new: typer.Typer) -> None:
    new.command("character")(new_character)


def register(app: typer.Typer) -> None:
    app.command()(playbook)
    app.command()(squad)

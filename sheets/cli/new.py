"""`sheets new …`: starter files that validate, with comments that explain each field.

`sheets new game NAME` is generic; each game adds its own starters (`register_new(new)` in
its cli module: a character, a campaign).
"""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from sheets.cli.errors import user_errors
from sheets.cli.output import show

new = typer.Typer(
    help="Start files of your own: a game folder (sheets new game), and each game's starter files.",
    no_args_is_help=True, rich_markup_mode=None)


@new.command("game")
@user_errors
def new_game(
    name: str = typer.Argument(..., help="The new game's id: lower-case letters, digits and hyphens."),
    from_game: Optional[str] = typer.Option(None, "--from", help="Copy this game's files (see `sheets list`) "
                                            "instead of the starter."),
    content: Path = typer.Option(Path("my-content"), "--content", file_okay=False,
                                 help="The content folder to add the game to (made if missing, with the "
                                      "shared print geometry)."),
) -> None:
    """A small working game folder (game.yaml, a reference, a card set, a tracker, tokens), every field explained.

    Example: sheets new game my-skirmish; then sheets validate --content my-content
    """
    from sheets.app.scaffold import new_game as scaffold  # noqa: PLC0415 - loads every content model: not for --help

    written = scaffold(name, content, from_game, source=None)
    schemas = content / ".schemas"
    typer.echo(f"wrote {len(written)} files: the game in {show(content / name)}"
               + (f", the schemas your editor uses in {show(schemas)}" if schemas in {p.parent for p in written} else ""))
    typer.echo(f"check it:  sheets validate --content {show(content)}")
    typer.echo(f"print it:  sheets kit --content {show(content)} --game {name}   "
               f"(or: sheets watch cards:{name} --content {show(content)})")

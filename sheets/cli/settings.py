"""`sheets config`: the defaults in force and where each comes from; `sheets config set KEY VALUE`
writes one into the user's sheets.toml (every later run, in any folder, takes it)."""
from __future__ import annotations

from pathlib import Path

import typer

from sheets.base import config as settings_file
from sheets.cli.config import FILE_NAME, in_force, user_config_file
from sheets.cli.errors import user_errors

config_app = typer.Typer(
    name="config", invoke_without_command=True, no_args_is_help=False, rich_markup_mode=None,
    help="Show the defaults in force (paper, output folder, card layout, back offset, content folder) and where each came from; "
         "`sheets config set KEY VALUE` sets one for every run.")


@config_app.callback(invoke_without_command=True)
def config_group(ctx: typer.Context) -> None:
    """Show the defaults in force (paper, output folder, card layout, back offset, content folder) and where each came from.

    An option given on the command line wins; then $SHEETS_PAPER (the paper); then sheets.toml
    in the working folder or the nearest folder above it that has one; then your own sheets.toml
    (`sheets config set paper letter` writes it); then the paper of your locale (LC_ALL, LC_PAPER,
    LANG: en_US, en_CA, es_MX, en_PH ... print on Letter); then the built-in default. Example sheets.toml:

        paper = "letter"

        output = "prints"

        back_offset = "1,-0.5"
    """
    if ctx.invoked_subcommand is None:
        show()


@user_errors
def show() -> None:
    """Show the defaults in force and where each came from (what `sheets config` alone does)."""
    found = in_force()
    width = max(len(key) for key in found)
    shown = max(len(s.value) for s in found.values())
    for key, setting in found.items():
        typer.echo(f"{key:<{width}}  {setting.value:<{shown}}  {setting.source}")
    user = user_config_file()
    typer.echo(f"{'read' if user.is_file() else 'none'}: {user}")
    nearest = settings_file.nearest_file()
    if nearest is not None and nearest.resolve() != user.resolve():
        typer.echo(f"read: {nearest}")
    elif nearest is None:
        typer.echo(f"none: {Path.cwd() / FILE_NAME} (nor in a folder above)")
    typer.echo("an option given on the command line wins over these")


config_app.command("show")(show)


@config_app.command("set")
@user_errors
def set_value(key: str = typer.Argument(..., metavar="KEY", help=f"One of: {', '.join(settings_file.KEYS)}."),
              value: str = typer.Argument(..., metavar="VALUE", help="e.g. letter")) -> None:
    """Set KEY to VALUE in your own sheets.toml (your config folder): every later run takes it, in any folder.

    Example: sheets config set paper letter
    """
    folder = user_config_file().parent
    if key in settings_file.KEYS:  # an unknown key is refused by `store`, before any folder is made
        folder.mkdir(parents=True, exist_ok=True)
    change = settings_file.store(folder, key, value)
    typer.echo(str(change))
    now = in_force()[key]
    if now.value != change.new:
        typer.echo(f"note: here {key} is {now.value}, from {now.source}, which wins over your own sheets.toml")

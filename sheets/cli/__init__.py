"""The `sheets` command line: the root app, the generic commands, and each game's own.

Thin: parse options, call `sheets.app.api` or a game's commands, print paths. The core
names no game: every package under `sheets.games` with a `cli` module adds its
commands (`register(app)`). Heavy imports (WeasyPrint, pydantic models) happen inside
commands, so that `sheets --help` stays fast.
"""
from __future__ import annotations

import typer
from typer.core import TyperGroup

from sheets import __version__
from sheets.base.errors import SheetsError
from sheets.cli import commands, config
from sheets.cli import kinds as kind_commands
from sheets.cli.errors import USER_ERROR, range_message, run
from sheets.cli.new import new
from sheets.cli.settings import config_app
from sheets.library import plugins


class SheetsGroup(TyperGroup):
    """The root command: a number out of its range is refused naming the value and the range. A
    kind's plain command (`sheets reference GAME`) is made from the registry when it is asked for
    (`sheets.cli.kinds`), so that the other commands start without loading every kind."""

    def list_commands(self, ctx):
        names = super().list_commands(ctx)
        at = names.index("kit") + 1 if "kit" in names else len(names)
        kinds = [name for name in kind_commands.plain() if name not in names]
        return names[:at] + kinds + names[at:]

    def get_command(self, ctx, cmd_name):
        command = super().get_command(ctx, cmd_name)
        if command is None and not cmd_name.startswith("-"):
            command = kind_commands.plain_command(cmd_name)
            if command is not None:
                self.add_command(command, cmd_name)  # sheets.toml's defaults reach it (config.apply)
        return command

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except typer.BadParameter as exc:
            better = range_message(exc)
            if better:
                exc.message = better
            exc.exit_code = USER_ERROR  # bad input, as everywhere (Click says 2)
            raise


app = typer.Typer(
    cls=SheetsGroup,
    name="sheets",
    help="Print-and-play sheets for tabletop war games: playbooks, mission logs, cards, trackers.\n\n"
         "Output goes to ./output/ unless -o says otherwise. Start with `sheets kit`.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"warsheets {__version__}")
        raise typer.Exit()


@app.callback()
def _root(ctx: typer.Context,
          version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,  # noqa: ARG001 - its callback prints it
                                       help="Print the warsheets version and exit.")) -> None:
    """Print-and-play sheets for tabletop war games."""
    try:
        config.apply(ctx)  # sheets.toml: the user's defaults, under the command line
    except SheetsError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(USER_ERROR) from None


def _game_clis() -> list:
    """The `cli` module of every game package that has one, in the order of their names
    (plug-ins sit above the CLI core: found where they live, never imported by name here)."""
    return plugins.parts("cli")


def _add_commands(app: typer.Typer) -> None:
    for name, command in commands.FIRST.items():
        app.command(name)(command)
    for game_cli in _game_clis():
        game_cli.register(app)
    for name, command in commands.LATER.items():
        app.command(name)(command)
        if name == "schema":  # `sheets config` where it always was in --help: after schema
            app.add_typer(config_app, name="config")
    for game_cli in _game_clis():
        if hasattr(game_cli, "register_new"):
            game_cli.register_new(new)  # the game's starters: `sheets new character`, ...
    app.add_typer(new, name="new")


_add_commands(app)


def main() -> None:
    run(app)

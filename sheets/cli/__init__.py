"""The `sheets` command line: the root app, the generic commands, and each game's own.

Thin: parse options, call `sheets.app.api` or a game's commands, print paths. The core
names no game: every package under `sheets.games` with a `cli` module adds its
commands (`register(app)`). Heavy imports (WeasyPrint, pydantic models) happen inside
commands, so that `sheets --help` stays fast; and so does making a command: Typer turns a
function's signature into a Click command, which for every command at every start cost more
than starting Python. The commands are declared on `declared` (a Typer nothing is built from),
and the root (`SheetsGroup`) builds only the one that runs or whose help is asked for; its own
help lists every command from its declaration (its one-line help), building none.
"""
from __future__ import annotations

import inspect

import typer
from typer.core import TyperCommand, TyperGroup
from typer.main import get_command_from_info, get_command_name, get_group_from_info
from typer.models import TyperInfo

from sheets import __version__
from sheets.base.errors import SheetsError
from sheets.cli import commands, config
from sheets.cli import kinds as kind_commands
from sheets.cli.errors import USER_ERROR, range_message, run
from sheets.cli.new import new
from sheets.cli.settings import config_app
from sheets.library import plugins


class SheetsGroup(TyperGroup):
    """The root command: each command built when it is asked for (`declared`), a number out of its
    range refused naming the value and the range. A kind's plain command (`sheets reference GAME`)
    is made from the registry when it is asked for (`sheets.cli.kinds`), so that the other
    commands start without loading every kind."""

    def list_commands(self, ctx):
        names = list(_declared())
        at = names.index("kit") + 1 if "kit" in names else len(names)
        kinds = [name for name in kind_commands.plain_help() if name not in names]
        return names[:at] + kinds + names[at:]

    def get_command(self, ctx, cmd_name):
        command = self.commands.get(cmd_name)
        if command is None:
            info = _declared().get(cmd_name)
            if info is not None:
                command = _built(cmd_name, info)
            elif not cmd_name.startswith("-"):
                command = kind_commands.plain_command(cmd_name)
            if command is not None:
                self.add_command(command, cmd_name)  # sheets.toml's defaults reach it (config.apply)
        return command

    def format_commands(self, ctx, formatter) -> None:
        """Every command and its one-line help, from its declaration (none is built for this)."""
        rows = []
        for name in self.list_commands(ctx):
            info = _declared().get(name)
            about = _help(info) if info is not None else kind_commands.plain_help().get(name)
            command = self.commands.get(name) or (TyperCommand(name, help=about) if about is not None
                                                  else self.get_command(ctx, name))
            if command is not None and not command.hidden:
                rows.append((name, command))
        if rows:
            limit = formatter.width - 6 - max(len(name) for name, _ in rows)
            with formatter.section("Commands"):
                formatter.write_dl([(name, command.get_short_help_str(limit)) for name, command in rows])

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


#: every command, declared as the root would add it (a function, or a Typer of subcommands): the
#: root builds one when it is asked for
declared = typer.Typer(rich_markup_mode=None, add_completion=False)
_add_commands(declared)


def _declared() -> dict:
    """name -> its declaration (Typer's CommandInfo or TyperInfo), in --help's order: the commands,
    then the groups of subcommands."""
    found: dict = {}
    for command in declared.registered_commands:
        found[command.name or get_command_name(getattr(command.callback, "__name__", ""))] = command
    for group in declared.registered_groups:
        found[group.name or (group.typer_instance.info.name if group.typer_instance else None)] = group
    return found


def _help(info) -> str:
    """A declared command's help (its one-line help is its first sentence), without building it."""
    if isinstance(info, TyperInfo):
        group = info.typer_instance
        callback = group.registered_callback.callback if group and group.registered_callback else None
        return info.help or (group.info.help if group else None) or (inspect.getdoc(callback) if callback else None) or ""
    return info.help or (inspect.getdoc(info.callback) if info.callback else None) or ""


def _built(name: str, info):
    """The Click command of a declaration, made as Typer makes it for the root it is added to."""
    if isinstance(info, TyperInfo):
        group = get_group_from_info(info, pretty_exceptions_short=app.pretty_exceptions_short,
                                    suggest_commands=app.suggest_commands, rich_markup_mode=app.rich_markup_mode)
        group.name = name
        return group
    return get_command_from_info(info, pretty_exceptions_short=app.pretty_exceptions_short,
                                 rich_markup_mode=app.rich_markup_mode)


def main() -> None:
    run(app)

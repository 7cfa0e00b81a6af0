"""The printable kinds' commands: `sheets print KIND GAME`, and each generic kind's plain command.

A kind that takes only the shared options is printed by `sheets print KIND GAME` (every kind
of the registry, a game's own too: `sheets print GAME.KIND GAME`); one that declares its
plain command (`Kind.command`, its help) is also `sheets KIND GAME`, made here from the
registry. Neither this module nor `sheets.app.api` names a kind: a new kind adds no command.

The registry loads every kind's builder, so a plain command is made only when asked for (by
its name, or by `sheets --help` listing them): the other commands start without it.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Optional

import typer

from sheets.base import paths
from sheets.cli.errors import user_errors
from sheets.cli.options import Content, Game, InkSaver, LargePrint, Output, Paper, PaperSize, Preview, print_options
from sheets.cli.output import report

if TYPE_CHECKING:
    import click

Kind = typer.Argument(..., metavar="KIND", help="A kind of printable, as `sheets list` shows a game's "
                      "(a game's own: GAME.KIND); an unknown one is answered with every kind.")
Which = typer.Option(None, "--id", help="One card set or tracker (see `sheets list`); default: all of them.")


def _print(kind: str, game: str, which: str | None, options, preview: bool) -> None:
    from sheets.app import api  # noqa: PLC0415 - the pipeline: not for --help

    report(api.print_kind(kind, game, options, which), preview=preview)


@user_errors
def print_cmd(
    kind: str = Kind,
    game: Game = ...,
    which: Optional[str] = Which,
    paper: PaperSize = Paper("a4"),
    preview: Preview = False,
    ink_saver: InkSaver = False,
    large_print: LargePrint = False,
    output: Output = None,
    content: Content = None,
) -> None:
    """Any kind of printable for a game, with the options every printable takes (as the kit prints it).

    Example: sheets print reference GAME --paper letter
    """
    _print(kind, game, which, print_options(paper, ink_saver, output, content, large_print), preview)


def _command(name: str, about: str, ink: bool) -> click.Command:
    """`sheets NAME GAME`: the kind's sheets with the shared options (without --preview and
    --ink-saver for a kind that has no ink to save)."""
    if ink:
        def command(game: Game, paper: PaperSize = Paper("a4"), preview: Preview = False, ink_saver: InkSaver = False,
                    large_print: LargePrint = False,
                    output: Output = None, content: Content = None) -> None:
            _print(name, game, None, print_options(paper, ink_saver, output, content, large_print), preview)
    else:
        def command(game: Game, paper: PaperSize = Paper("a4"), output: Output = None, content: Content = None) -> None:
            _print(name, game, None, print_options(paper, output=output, content=content), False)
    command.__doc__ = about
    one = typer.Typer(rich_markup_mode=None, add_completion=False)
    one.command(name)(user_errors(command))
    return typer.main.get_command(one)


def plain() -> dict[str, tuple[str, bool]]:
    """The kinds with a plain command: name -> (its help, takes --preview and --ink-saver), by name."""
    from sheets.kinds import registry  # noqa: PLC0415 - every kind's builder: only when a kind's command is asked for

    return {kind.name: (kind.command, kind.ink) for kind in sorted(registry.GENERIC, key=lambda k: k.name)
            if kind.command}


def plain_help() -> dict[str, str]:
    """The kinds with a plain command: name -> its help, by name, for `sheets --help`: read from
    each kind's declaration as written (`KIND = Kind("name", ..., command="its help")` in its
    folder's __init__.py), without importing the kinds (a kind's package imports its builder,
    and the registry every kind's: more than all the rest of --help). A declaration whose name
    or help is not written out as a string: the registry's, imported."""
    import ast  # noqa: PLC0415 - only for --help's list

    found: dict[str, str] = {}
    for init in sorted((paths.PACKAGE_DIR / "kinds").glob("*/__init__.py")):
        for node in ast.parse(init.read_text(encoding="utf-8")).body:
            if not (isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)
                    and any(isinstance(target, ast.Name) and target.id == "KIND" for target in node.targets)):
                continue
            given = {keyword.arg: keyword.value for keyword in node.value.keywords}
            name = node.value.args[0] if node.value.args else given.get("name")
            command = given.get("command")
            if command is None or (isinstance(command, ast.Constant) and command.value is None):
                continue  # no plain command
            if not (isinstance(name, ast.Constant) and isinstance(name.value, str)
                    and isinstance(command, ast.Constant) and isinstance(command.value, str)):
                return {name: about for name, (about, _) in plain().items()}
            found[name.value] = command.value
    return dict(sorted(found.items()))


def plain_command(name: str) -> click.Command | None:
    """The plain command of the kind `name`, or None when no kind has one by that name."""
    found = plain().get(name)
    return _command(name, *found) if found else None

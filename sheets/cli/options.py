"""The options many commands share, each defined once: `content: Content = None`.

Only Typer and light `sheets.base` modules here, so that `sheets --help` stays fast.
"""
from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Annotated, Optional

import typer

from sheets.base import limits
from sheets.base.options import PrintOptions
from sheets.base.paper import PAPERS, resolve
from sheets.cli.config import output_root

#: the --paper choices: the one list of papers (sheets.base.paper)
Paper = Enum("Paper", {name: name for name in PAPERS}, type=str)  # type: ignore[misc]  # its members: the table's


def print_options(paper: Paper | str = "a4", ink_saver: bool = False, output: Path | None = None,
                  content: Path | None = None, large_print: bool = False) -> PrintOptions:
    """What every printable takes, from a command's options (sheets.toml set their defaults, and
    the output root: its `output`)."""
    return PrintOptions(paper=resolve(paper.value if isinstance(paper, Paper) else paper), ink_saver=ink_saver, output=output, content=content,
                        root=output_root(), large_print=large_print)


Content = Annotated[Optional[Path], typer.Option(
    "--content", help="Content folder to use instead of the bundled one (homebrew).", exists=False, file_okay=False)]
Output = Annotated[Optional[Path], typer.Option(
    "-o", "--output", help="Output file (.pdf) or folder; default ./output/.")]
Seed = Annotated[Optional[int], typer.Option(
    "--seed", min=0, max=limits.MAX_SEED, help="Seed for the dice; the same seed gives the same sheet.")]
Dice = Annotated[Optional[str], typer.Option(
    "--dice", help="Replay dice rolled at the table, in order, e.g. 3,5,1 "
                   f"(ASCII digits, at most {limits.MAX_DICE} dice).")]
PaperSize = Annotated[Paper, typer.Option("--paper", help="Paper size.", case_sensitive=False)]
Preview = Annotated[bool, typer.Option(
    "--preview", help="Also write a PNG of every page under preview/ beside the PDF.")]
InkSaver = Annotated[bool, typer.Option(
    "--ink-saver", help="Outlines and light tints instead of solid dark fills.")]
LargePrint = Annotated[bool, typer.Option(
    "--large-print", help="The large-print edition: every text at 12 pt or more, high contrast (more pages).")]
Game = Annotated[str, typer.Argument(help="Game id (see `sheets list`).")]

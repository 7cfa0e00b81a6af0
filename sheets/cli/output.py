"""What a command prints: the files it wrote, relative to the working folder when inside it."""
from __future__ import annotations

from pathlib import Path

import typer


def show(path: Path) -> str:
    try:
        return str(Path(path).resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def wrote(path: Path, verb: str = "wrote") -> None:
    typer.echo(f"{verb} {show(path)}")


def write_previews(paths: list[Path], on: bool) -> None:
    """--preview: a PNG of every page under preview/ beside each PDF."""
    if not on:
        return
    from sheets.pipeline.preview import write_previews as render  # noqa: PLC0415 - PDFium and Pillow: only for --preview

    for path in paths:
        for png in render(Path(path)):
            wrote(png)


def report(written: list[Path], note: str = "", preview: bool = False) -> None:
    """A command's note (if any), then every file written; with --preview, their pages as PNGs."""
    if note:
        typer.echo(note)
    for path in written:
        wrote(path)
    write_previews(written, preview)

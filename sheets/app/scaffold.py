"""`sheets new game NAME [--from GAME]`: a small working game folder in a content folder.

The starter (sheets/app/starter/game/: game.yaml, a reference, a card set, a tracker, tokens)
explains each field in comments; `--from GAME` copies a game's files instead. The content
folder gets the shared print geometry (`_print/`) if it has none, and the JSON Schemas in
`.schemas/` that the files' first lines point an editor at; a game added to the bundled content
is only its game's files, their first lines pointing at the repository's `schemas/`. The new game is validated
before the command succeeds; if it does not validate, the folder is removed again.
"""
from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

from sheets.app.schemas import MODELINE, write_schemas
from sheets.base import paths
from sheets.base.errors import SheetsError
from sheets.base.output import ensure_dir, write_atomic
from sheets.library.content import SHARED_DIR, Library

STARTER = Path(__file__).resolve().parent / "starter" / "game"
SCHEMA_DIR = ".schemas"  # a dot folder: `validate` reads no file in it
_ID = re.compile(r"^[a-z][a-z0-9-]*$")


def _title(game_id: str) -> str:
    return " ".join(part.capitalize() for part in game_id.split("-"))


def new_game(game_id: str, content: Path, from_game: str | None = None,
             source: Path | None = None) -> list[Path]:
    """Write content/GAME_ID/ (and _print/, .schemas/ if missing); the files written."""
    if not _ID.match(game_id):
        raise SheetsError(f"game name {game_id!r}: use lower-case letters, digits and hyphens, "
                          f"starting with a letter (e.g. my-skirmish)")
    content = Path(content)
    folder = content / game_id
    if folder.exists():
        raise SheetsError(f"{folder} exists: `sheets new game` never overwrites a folder; choose another name")
    written: list[Path] = []
    ensure_dir(folder)  # first: a name the file system refuses is said before anything is written
    try:
        return _fill(game_id, content, folder, from_game, source, written)
    except BaseException:  # whatever stopped it (a refusal, a full disk, Ctrl-C): nothing of it is left
        for path in reversed(written):
            if path.is_file() and not path.is_relative_to(folder):
                path.unlink(missing_ok=True)
        shutil.rmtree(folder, ignore_errors=True)
        for made in (content / SHARED_DIR, content / SCHEMA_DIR, content):
            _remove_if_empty(made)
        raise


def _remove_if_empty(folder: Path) -> None:
    """Remove `folder` and the empty folders in it, if nothing else is there."""
    if not folder.is_dir():
        return
    for sub in sorted((p for p in folder.rglob("*") if p.is_dir()), key=lambda p: len(p.parts), reverse=True):
        try:
            sub.rmdir()
        except OSError:
            pass
    try:
        folder.rmdir()
    except OSError:
        pass


def _fill(game_id: str, content: Path, folder: Path, from_game: str | None, source: Path | None,
          written: list[Path]) -> list[Path]:
    """`new_game`'s writing, into `written` as it goes (so that a failure can take it back)."""
    schema_dir = _schema_dir(content)
    if not (content / SHARED_DIR).is_dir():
        for path in sorted(p for p in (paths.content_dir() / SHARED_DIR).rglob("*") if p.is_file()):
            target = content / SHARED_DIR / path.relative_to(paths.content_dir() / SHARED_DIR)
            text = _relative_modeline(path.read_text(encoding="utf-8"), target, schema_dir)
            written.append(write_atomic(target, text.encode("utf-8")))
    if schema_dir == content / SCHEMA_DIR:
        written += write_schemas(schema_dir)
    if from_game is None:
        origin, replace = STARTER, {"__ID__": game_id, "__TITLE__": _title(game_id)}
    else:
        base = Path(source) if source else paths.content_dir()
        if not (base / from_game / "game.yaml").is_file():
            known = ", ".join(Library(base).game_ids())
            raise SheetsError(f"--from {from_game}: no such game in {base} (it has: {known})")
        origin, replace = base / from_game, {}
    files = sorted(p for p in origin.rglob("*") if p.is_file() and not p.name.startswith("."))
    for path in files:
        target = folder / path.relative_to(origin)
        if path.suffix == ".yaml":
            text = _relative_modeline(path.read_text(encoding="utf-8"), target, schema_dir)
            for key, value in replace.items():
                text = text.replace(key, value)
            if from_game is not None and path.relative_to(origin) == Path("game.yaml"):
                text = re.sub(r"(?m)^id:.*$", f"id: {game_id}", text, count=1)
            written.append(write_atomic(target, text.encode("utf-8")))
        else:
            ensure_dir(target.parent)
            written.append(Path(shutil.copy2(path, target)))
    Library(content).game(game_id)  # validated, or located problems (new_game removes what it wrote)
    return written


def _schema_dir(content: Path) -> Path:
    """Where the new files' first lines point: the bundled content's own schemas (`schemas/` beside
    it, which `make docs` writes) for a game added to the bundled content, which then gets only
    its game's files; else the content folder's `.schemas/`, written with the game."""
    bundled = paths.content_dir()
    if content.resolve() == bundled.resolve() and (bundled.parent / "schemas").is_dir():
        return bundled.parent / "schemas"
    return content / SCHEMA_DIR


def _relative_modeline(text: str, target: Path, schema_dir: Path) -> str:
    """Point the first line at the schema relative to where the file is written (not where it came from)."""
    first, sep, rest = text.partition("\n")
    if not first.startswith(MODELINE):
        return text
    name = Path(first.removeprefix(MODELINE)).name
    return f"{MODELINE}{Path(os.path.relpath(schema_dir / name, target.parent)).as_posix()}{sep}{rest}"

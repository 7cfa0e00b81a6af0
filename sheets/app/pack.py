"""`sheets pack GAME -o FILE.zip`: a game folder to share, with everything it uses and nothing else.

The zip holds what a receiver's content folder needs to print the game as its author does:

- `GAME/`: the files the game's loaders read (its YAML: game.yaml, card sets, reference, theme...),
  the files its plug-in claims (`extra_files`, e.g. the example files its commands read), and its
  look's folders (`templates/`, `fonts/`, `images/`, `icons/`) whole: an own template may name any
  file of them, so "used" cannot be told from the YAML alone;
- `_print/`: the folder's shared print geometry (a content folder is not one without it);
- `.schemas/`: the schemas the packed files' first lines point the editor at, where they exist.

Left out: what a person keeps beside a game (README, LICENSE, notes, an `art/` folder: nobody's,
`assets.kept_aside`), dot files, and anything no loader reads. A game with problems is not
packed: the problems (those of its folder and of `_print/`) are said as `validate` says them.

The archive is the same bytes for the same folder (entries sorted, fixed dates and modes), and
it is written atomically: a refused or interrupted pack leaves no file.
"""
from __future__ import annotations

import re
import shutil
import zipfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from sheets.app import preflight
from sheets.base.errors import ContentError, Problem, SheetsError
from sheets.base.output import atomic_file
from sheets.base.userfiles import content_files
from sheets.library import assets
from sheets.library.content import SHARED_DIR, SHARED_FILES, Library

#: the first line of a content file may name its schema for the editor (the YAML language server)
_MODELINE = re.compile(rb"^#\s*yaml-language-server:\s*\$schema=(\S+)")
#: a zip entry's date: the earliest a zip can say, so the archive does not depend on when files were saved
_EPOCH = (1980, 1, 1, 0, 0, 0)


@dataclass(frozen=True)
class Packed:
    path: Path  # the zip written
    files: int  # entries in it
    left_out: list[str]  # files of the game's folder not packed (kept aside), relative to the game


def _problems_of(lib: Library, game_folder: Path, problems: list[Problem]) -> list[Problem]:
    """The problems met in the game's own folder or in the shared print geometry: another game's
    mistake in the same content folder does not stop this one being shared."""
    mine = []
    for problem in problems:
        where = Path(problem.file)
        if not where.is_absolute():
            where = lib.root.parent / where
        where = where.resolve()
        if where.is_relative_to(game_folder.resolve()) or where.is_relative_to((lib.root / SHARED_DIR).resolve()):
            mine.append(problem)
    return mine


def _schema_of(path: Path, root: Path) -> Path | None:
    """The schema file the first line of `path` names, when it is a file inside the content folder."""
    try:
        with path.open("rb") as handle:
            first = handle.readline(4096)
    except OSError:
        return None
    found = _MODELINE.match(first)
    if not found:
        return None
    target = (path.parent / found.group(1).decode("utf-8", "replace")).resolve()
    return target if target.is_file() and target.is_relative_to(root.resolve()) else None


def game_files(lib: Library, game_id: str) -> tuple[dict[str, Path], list[str]]:
    """The zip's entries (name in the zip -> file) for one game of the library, and the files of
    the game's folder left out. Raises ContentError when the game or the print geometry has problems."""
    if game_id not in lib.game_ids():
        lib.game(game_id)  # the unknown game's message, naming the games there are
    folder = lib.root / game_id
    problems = _problems_of(lib, folder, lib.validate() + preflight.problems(lib, only=game_id))
    if problems:
        raise ContentError(problems)
    game = lib.game(game_id)
    patterns = game.plugin.extra_files if game.plugin else ()
    entries: dict[str, Path] = {}
    left_out: list[str] = []
    for path in content_files(folder)[0]:
        rel = PurePosixPath(path.relative_to(folder).as_posix())
        if assets.kept_aside(rel):
            left_out.append(str(rel))
        elif str(rel) in game.files_read or assets.in_asset_folder(rel) or \
                any(Path(str(rel)).match(p) for p in patterns):
            entries[f"{game_id}/{rel}"] = path
    for name in SHARED_FILES:
        shared = lib.root / SHARED_DIR / name
        if shared.is_file():
            entries[f"{SHARED_DIR}/{name}"] = shared
    for path in list(entries.values()):
        schema = _schema_of(path, lib.root) if path.suffix == ".yaml" else None
        if schema is not None:
            entries[schema.relative_to(lib.root.resolve()).as_posix()] = schema
    return dict(sorted(entries.items())), left_out


def write_archive(entries: dict[str, Path], handle) -> None:
    """The zip of these entries, streamed to `handle` (a game's art is read file by file, never
    held whole): sorted, each with a fixed date and mode, so that the same files make the same
    bytes on any machine."""
    with zipfile.ZipFile(handle, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, path in sorted(entries.items()):
            info = zipfile.ZipInfo(name, date_time=_EPOCH)
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            with path.open("rb") as source, archive.open(info, "w") as target:
                shutil.copyfileobj(source, target)


def pack(game_id: str, target: Path, content: Path | None = None) -> Packed:
    """Write the game's zip to `target` (a .zip file)."""
    lib = Library(content)
    if target.suffix.lower() != ".zip":
        raise SheetsError(f"{target}: the pack is a zip file; name it {target.name}.zip")
    if target.resolve().is_relative_to(lib.root.resolve()):
        raise SheetsError(f"{target}: the zip would be written inside the content folder {lib.root} "
                          "(it would then be a stray file of it); write it elsewhere")
    entries, left_out = game_files(lib, game_id)
    with atomic_file(target) as handle:
        write_archive(entries, handle)
    return Packed(target, len(entries), left_out)

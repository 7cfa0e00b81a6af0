"""A game folder's look: its own `templates/`, `fonts/`, `images/` and `icons/`, beside its YAML.

A shared game folder is untrusted, so a file of these folders is used only when it is a regular
file inside the game's own folder (a link leading out of it is refused), of a kind its folder
holds (by suffix) and no bigger than its folder allows (`LIMITS`). Printing reads an image, an
icon or a font through `data_uri` and writes it into the sheet's HTML as a `data:` URI: the
layout engine's sandbox then fetches nothing from the content folder, the HTML (the PDF cache's
key) changes with the file's bytes, and the same folder, zipped and unpacked anywhere, makes the
same HTML and so the same PDF.

The files a person keeps beside a game (a README, a LICENSE, notes, an `art/` folder of sources)
are nobody's: `validate` neither reads nor refuses them (`kept_aside`).
"""
from __future__ import annotations

import base64
import os
import stat
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from sheets.base.errors import Problem, SheetsError


@dataclass(frozen=True)
class AssetFolder:
    """One of a game's asset folders: the suffixes it holds (with their MIME types) and its bound."""

    name: str
    types: dict[str, str]  # suffix -> MIME type
    max_bytes: int


_IMAGE_TYPES = {".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".svg": "image/svg+xml",
                ".gif": "image/gif", ".webp": "image/webp"}
_FONT_TYPES = {".ttf": "font/ttf", ".otf": "font/otf", ".woff": "font/woff", ".woff2": "font/woff2"}

#: a game's asset folders. The bounds keep a shared folder from feeding the layout engine
#: without end: a card's art at 300 dpi is well under 8 MB, a font's file under 4 MB
FOLDERS: dict[str, AssetFolder] = {f.name: f for f in (
    AssetFolder("templates", {".j2": "text/plain", ".css": "text/css"}, 512_000),
    AssetFolder("fonts", _FONT_TYPES, 4_000_000),
    AssetFolder("images", _IMAGE_TYPES, 8_000_000),
    AssetFolder("icons", {".svg": "image/svg+xml", ".png": "image/png"}, 256_000),
)}

#: what a person keeps beside a game, read by nothing: names (any suffix) and folders
KEPT_NAMES = ("readme", "license", "licence", "copying", "notes", "changelog", "authors", "credits")
KEPT_SUFFIXES = (".md", ".txt", ".pdf")
KEPT_FOLDERS = ("art", "notes", "docs", "source", "sources")


def kept_aside(rel: PurePosixPath) -> bool:
    """Is this file (relative to its game folder) one a person keeps beside the game?"""
    if rel.parts and rel.parts[0].lower() in KEPT_FOLDERS:
        return True
    return len(rel.parts) == 1 and (rel.stem.lower() in KEPT_NAMES or rel.suffix.lower() in KEPT_SUFFIXES)


def in_asset_folder(rel: PurePosixPath) -> bool:
    return len(rel.parts) > 1 and rel.parts[0] in FOLDERS


def own_templates(folder: Path) -> Path | None:
    """The game's own templates folder (searched before the bundled ones), if it has one."""
    # absolute: the layout side keeps one template environment per search path, and a relative
    # path would name another game's folder once the working folder changes (the desk, the tests)
    path = (folder / "templates").resolve()
    return path if path.is_dir() else None


def _problem(game_folder: Path, rel: str, message: str) -> str:
    return f"{game_folder.name}/{rel}: {message}"


def find(game_folder: Path, kind: str, name: str) -> Path:
    """The file `name` of the game's `kind` folder (`images`, `icons`, `fonts`), checked: inside the
    game's folder, a regular file, of its folder's kinds, within its bound. SheetsError otherwise."""
    spec = FOLDERS[kind]
    rel = PurePosixPath(name)
    if rel.parts and rel.parts[0] == kind:  # "images/x.png" and "x.png" alike
        rel = PurePosixPath(*rel.parts[1:])
    shown = f"{kind}/{rel}"
    if not rel.parts or rel.is_absolute() or ".." in rel.parts:
        raise SheetsError(_problem(game_folder, shown, f"name a file inside the game's {kind}/ folder"))
    if rel.suffix.lower() not in spec.types:
        raise SheetsError(_problem(game_folder, shown, f"{kind}/ holds {', '.join(sorted(spec.types))} files"))
    path = game_folder / kind / Path(*rel.parts)
    try:
        real = Path(os.path.realpath(path))
        if not real.is_relative_to(Path(os.path.realpath(game_folder))):
            raise SheetsError(_problem(game_folder, shown, "refused: a link to a place outside the game's folder; "
                                                           "a game may use only its own files"))
        mode = os.stat(real).st_mode
    except FileNotFoundError:
        near = sorted(p.name for p in (game_folder / kind).glob("*")) if (game_folder / kind).is_dir() else []
        listed = f"; {kind}/ has: {', '.join(near[:12])}" if near else f"; the game has no {kind}/ folder"
        raise SheetsError(_problem(game_folder, shown, f"no such file{listed}")) from None
    except OSError as exc:
        raise SheetsError(_problem(game_folder, shown, f"cannot be read ({exc.strerror or exc})")) from None
    if not stat.S_ISREG(mode):
        raise SheetsError(_problem(game_folder, shown, "not a regular file"))
    size = os.stat(real).st_size
    if size > spec.max_bytes:
        raise SheetsError(_problem(game_folder, shown, f"{size:,} bytes: a file of {kind}/ may have at most "
                                                       f"{spec.max_bytes:,}"))
    return real


def data_uri(game_folder: Path, kind: str, name: str) -> str:
    """The checked file (`find`) as a `data:` URI the sheet's HTML carries."""
    return uri_of(find(game_folder, kind, name), kind)


def uri_of(path: Path, kind: str) -> str:
    """A file `find` checked, as a `data:` URI."""
    mime = FOLDERS[kind].types[path.suffix.lower()]
    return f"data:{mime};base64,{base64.b64encode(path.read_bytes()).decode('ascii')}"


def icon_names(game_folder: Path) -> dict[str, str]:
    """The game's icons by name (`shield` for icons/shield.svg) -> file name."""
    folder = game_folder / "icons"
    if not folder.is_dir():
        return {}
    types = FOLDERS["icons"].types
    return {p.stem: p.name for p in sorted(folder.iterdir()) if p.suffix.lower() in types and not p.name.startswith(".")}


def check_folder(game_folder: Path, shown: str) -> list[Problem]:
    """Every file of the game's asset folders held to its folder's rules (`validate`)."""
    problems = []
    for kind, spec in FOLDERS.items():
        folder = game_folder / kind
        if not folder.is_dir():
            continue
        for path in sorted(folder.rglob("*")):
            rel = path.relative_to(folder)
            if any(part.startswith(".") for part in rel.parts) or path.is_dir():
                continue
            if kind != "templates" and len(rel.parts) > 1:
                problems.append(Problem(f"{shown}/{kind}/{rel.as_posix()}", None, "",
                                        f"{kind}/ is one folder: put the file in {kind}/ itself"))
                continue
            try:
                find(game_folder, kind, rel.as_posix())
            except SheetsError as exc:
                problems.append(Problem(f"{shown}/{kind}/{rel.as_posix()}", None, "",
                                        str(exc).split(": ", 1)[1]))
    return problems

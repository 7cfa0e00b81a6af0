"""Is a finished build still up to date? A make-style stamp for whole builds.

A build that was asked the same thing (the same options and dice seed) from the same
sources (content files, templates, this package's code, the versions of the PDF
libraries and the environment that changes their output) makes the same files, byte
for byte. So a build records, beside its output, a fingerprint of its request and the
sha256 of every file it wrote. The next identical request whose files are all still
there and unchanged has nothing to do: it reports those files without loading
content, laying out a page or importing WeasyPrint. Anything else (a changed content
file or template, another seed, an edited or deleted output file) builds again.

A build with no fixed seed rolls new dice each time, so it is never up to date.

The record lives in the one cache (`sheets.base.cachedir`), in a folder named by a hash
of the output folder's full path (`state_dir`), never in the output folder itself.
"""
from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from sheets.base import cachedir, fontdirs, fonts, output, paths
from sheets.base.errors import SheetsError
from sheets.base.userfiles import content_files

STATE_FILE = "build-state.json"
STATE_VERSION = 1
#: distributions whose version changes the bytes of a PDF
ENGINES = ("weasyprint", "pydyf", "pypdfium2", "reportlab", "fonttools", "jinja2", "pillow", "pikepdf")
#: environment variables that change the bytes of a PDF
ENVIRONMENT = ("SOURCE_DATE_EPOCH", "SHEETS_NO_HB_SUBSET")


def _tree(h: "hashlib._Hash", root: Path, suffixes: tuple[str, ...] | None = None) -> None:
    """Feed every file under `root` (relative path and bytes, sorted) into `h`."""
    root = Path(root)
    h.update(b"tree\0" + str(root.resolve()).encode("utf-8") + b"\0")
    files, skipped = content_files(root)  # regular files only: a FIFO or /dev/zero would never end
    for file in files:
        if suffixes is not None and not file.name.endswith(suffixes):
            continue
        h.update(file.relative_to(root).as_posix().encode("utf-8") + b"\0")
        h.update(hashlib.sha256(file.read_bytes()).digest())
    for odd in skipped:  # not read, but there: a new one is a change (validate reports them)
        h.update(b"skipped\0" + odd.path.relative_to(root).as_posix().encode("utf-8") + b"\0")


def fingerprint(request: dict, content_root: Path | None = None) -> str:
    """sha256 of a request (JSON-able options) and of everything that shapes its output."""
    h = hashlib.sha256()
    h.update(json.dumps(request, sort_keys=True, default=str).encode("utf-8") + b"\0")
    for name in ENGINES:
        try:
            h.update(f"{name}={metadata.version(name)}\0".encode())
        except metadata.PackageNotFoundError:
            h.update(f"{name}=-\0".encode())
    for var in ENVIRONMENT:
        h.update(f"{var}={os.environ.get(var, '')}\0".encode())
    h.update(f"fonts={fonts.bundled_hash()}\0".encode())  # installed fonts: `record(..., fallback=True)`
    bundled = paths.content_dir()
    _tree(h, Path(content_root) if content_root else bundled)
    if content_root and Path(content_root).resolve() != bundled.resolve():
        _tree(h, bundled / "_print")  # the printing instructions fall back to the bundled ones
    _tree(h, paths.templates_dir())
    _tree(h, paths.PACKAGE_DIR, (".py",))
    return h.hexdigest()


def user_files(paths, load_yaml) -> list[list[str]]:
    """(path, sha256) of each of the user's files a request names (`sheets kit --squad FILE`), and of
    the character files a squad file lists as members (read with `load_yaml`, the one YAML reader,
    which the caller imports only when there are such files): an edited character makes the kit again."""
    seen: list[list[str]] = []
    for path in paths:
        path = Path(path)
        seen.append([str(path.resolve()), _sha(path) or "-"])
        for member in _members(path, load_yaml):
            seen.append([str(member.resolve()), _sha(member) or "-"])
    return seen


def _members(path: Path, load_yaml) -> list[Path]:
    """The member files a squad file names (relative to it); [] for anything else (the build says what is wrong)."""
    try:
        data = load_yaml(path).data  # the one YAML reader, with its limits
    except (SheetsError, OSError, ValueError):
        return []
    members = data.get("members") if isinstance(data, dict) else None
    return [path.parent / m for m in members if isinstance(m, str)] if isinstance(members, list) else []


def state_dir(cache: Path, out_dir: Path) -> Path:
    """Where the record of the build into `out_dir` lives in the cache `cache`."""
    name = hashlib.sha256(str(Path(out_dir).resolve()).encode("utf-8", "surrogateescape")).hexdigest()[:32]
    return Path(cache) / cachedir.KITS / name


@dataclass
class Recorded:
    """What an up-to-date build wrote, as it recorded it."""

    files: list[Path]  # every file, in the order the build reported them
    info: dict  # whatever else the build recorded (e.g. its seed, which files are which)


def _sha(path: Path) -> str | None:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


def up_to_date(state_dir: Path, key: str, out_dir: Path) -> Recorded | None:
    """The recorded build if it was made for `key` and every file it wrote is unchanged."""
    try:
        state = json.loads((Path(state_dir) / STATE_FILE).read_text("utf-8"))
        if state.get("version") != STATE_VERSION or state.get("key") != key:
            return None
        if state.get("installed_fonts", "-") not in ("-", fontdirs.fingerprint()):
            return None  # text only installed fonts draw, and a font installed or removed since
        files = []
        for entry in state["files"]:
            path = Path(out_dir) / entry["path"]
            if _sha(path) != entry["sha256"]:
                return None
            files.append(path)
        return Recorded(files, state.get("info", {}))
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None  # no record, or one this version cannot read: build


def forget(state_dir: Path) -> None:
    """Drop the record (a build is starting: until it ends, nothing is known to be up to date)."""
    try:
        (Path(state_dir) / STATE_FILE).unlink()
    except OSError:
        pass


def record(state_dir: Path, key: str, out_dir: Path, files: list[Path], info: dict, fallback: bool = False) -> None:
    """Record a finished build: its key, and the sha256 of every file it wrote; with `fallback`
    (some text only installed fonts draw), the installed fonts too."""
    out = Path(out_dir).resolve()
    entries = [{"path": Path(f).resolve().relative_to(out).as_posix(), "sha256": _sha(Path(f))} for f in files]
    state = {"version": STATE_VERSION, "key": key, "files": entries, "info": info,
             "installed_fonts": fontdirs.fingerprint() if fallback else "-"}
    output.write_atomic(Path(state_dir) / STATE_FILE, (json.dumps(state, indent=1) + "\n").encode("utf-8"))

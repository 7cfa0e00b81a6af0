"""The one cache: where it lives, how big it is, how it is emptied and kept under its bound.

Every cache entry of every command (laid-out sheets, blanks to stamp on, stamped sheets,
the kit's contents page, the kit's up-to-date record) lives in one folder: the user's
cache folder as the operating system names it (platformdirs: `~/.cache/warsheets` on
Linux, `~/Library/Caches/warsheets` on macOS, `%LOCALAPPDATA%\\warsheets\\Cache` on
Windows), or `$SHEETS_CACHE_DIR`. Never inside an output folder: a kit folder holds the
kit and nothing else.

The cache keeps itself under a size bound (`$SHEETS_CACHE_MAX_MB`, default 500 MB): after
a build, the entries used longest ago go first (a hit refreshes an entry's time). Only
files the cache itself writes are counted, trimmed or cleared, so a `SHEETS_CACHE_DIR`
pointed at the wrong folder loses nothing else.
"""
from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path

ENV_DIR = "SHEETS_CACHE_DIR"
ENV_MAX_MB = "SHEETS_CACHE_MAX_MB"
DEFAULT_MAX_MB = 500
#: the kits' up-to-date records, one folder per output folder (sheets.kit.uptodate)
KITS = "kits"
#: what the cache writes: entries (`KEY.pdf`, `stamped-`, `contents-`, `blank-KEY.pdf/.json`, a blank's
#: pages prepared by the tagged writer `blank-KEY.tagged.json`),
#: a kit's record, compiled templates (`jinja-SHA1.cache`), the native libraries' names (`libraries-`:
#: sheets.base.libraries), the root's help (`help-`: sheets.__main__), and the temporary files of a write cut short
_ENTRY = re.compile(r"^(?:(?:stamped-|contents-|blank-)?[0-9a-f]{64}\.(?:pdf|json)|blank-[0-9a-f]{64}\.tagged\.json|build-state\.json|libraries-[0-9a-f]{64}\.json|\..+\.tmp"
                    r"|help-[0-9a-f]{64}\.txt"
                    r"|jinja-[0-9a-f]{40}\.cache(?:.+\.tmp)?)$")


def root() -> Path:
    """The cache folder (not created here)."""
    env = os.environ.get(ENV_DIR)
    if env:
        return Path(env)
    import platformdirs  # noqa: PLC0415 - only when no SHEETS_CACHE_DIR says where

    return Path(platformdirs.user_cache_dir("warsheets", appauthor=False))


SEAL = b"\n%warsheets-cache-sha256 "  # then the 64 hex digits of the sha256, and a newline


def sealed(data: bytes) -> bytes:
    """An entry as it is written: its data, then a line with the data's sha256 (a file cut
    short by a crash, a disk error or an old format then reads as no entry: `unsealed`)."""
    return data + SEAL + hashlib.sha256(data).hexdigest().encode() + b"\n"


def unsealed(raw: bytes) -> bytes | None:
    """The entry's data if its seal is there and matches it, else None."""
    size = len(SEAL) + 65
    if len(raw) < size or not raw.endswith(b"\n"):
        return None
    data, seal = raw[:-size], raw[-size:]
    if not seal.startswith(SEAL) or seal[len(SEAL):-1] != hashlib.sha256(data).hexdigest().encode():
        return None
    return data


def max_bytes() -> int:
    """The size bound: `$SHEETS_CACHE_MAX_MB` megabytes (a bad value: the default)."""
    try:
        mb = float(os.environ.get(ENV_MAX_MB, DEFAULT_MAX_MB))
    except ValueError:
        mb = DEFAULT_MAX_MB
    return int(max(mb, 0) * 1_000_000)


def entries(folder: Path | None = None) -> list[tuple[Path, os.stat_result]]:
    """Every file the cache wrote under `folder` (default: the cache), as (path, stat) pairs:
    its top level and the kits' records (`kits/*/`), nothing else."""
    top = Path(folder) if folder is not None else root()
    found = []
    for where, subfolders, names in os.walk(top):
        if Path(where) == top:
            subfolders[:] = [d for d in subfolders if d == KITS]
        for name in names:
            if _ENTRY.match(name):
                path = Path(where) / name
                try:
                    found.append((path, path.stat()))
                except OSError:
                    continue
    return found


def size(folder: Path | None = None) -> tuple[int, int]:
    """(bytes, files) of the cache's entries."""
    found = entries(folder)
    return sum(st.st_size for _, st in found), len(found)


def _remove(path: Path) -> int:
    try:
        freed = path.stat().st_size
        path.unlink()
        return freed
    except OSError:
        return 0


def _drop_empty_kit_folders(top: Path) -> None:
    kits = top / KITS
    if kits.is_dir():
        for folder in kits.iterdir():
            try:
                folder.rmdir()  # only when empty
            except OSError:
                pass


def clear(folder: Path | None = None) -> tuple[int, int]:
    """Empty the cache; (bytes, files) removed."""
    top = Path(folder) if folder is not None else root()
    freed = removed = 0
    for path, _ in entries(top):
        gone = _remove(path)
        freed += gone
        removed += 1 if gone or not path.exists() else 0
    _drop_empty_kit_folders(top)
    return freed, removed


def trim(folder: Path | None = None, limit: int | None = None) -> int:
    """Keep the cache under `limit` bytes (default `max_bytes()`): the entries used longest
    ago go first. Returns the bytes freed."""
    top = Path(folder) if folder is not None else root()
    bound = max_bytes() if limit is None else limit
    found = entries(top)
    total = sum(st.st_size for _, st in found)
    if total <= bound:
        return 0
    freed = 0
    for path, st in sorted(found, key=lambda e: (e[1].st_mtime_ns, e[0].name)):
        if total - freed <= bound:
            break
        freed += _remove(path)
    _drop_empty_kit_folders(top)
    return freed


def touch(path: Path) -> None:
    """Mark an entry as used now (a hit), so that trimming keeps it longest."""
    try:
        os.utime(path)
    except OSError:
        pass


def report(folder: Path | None = None) -> str:
    """What `sheets cache` prints: where the cache is, its size and its bound."""
    top = Path(folder) if folder is not None else root()
    used, files = size(top)
    return (f"cache: {top}\nsize: {used / 1e6:.1f} MB in {files} files (kept under {max_bytes() / 1e6:.0f} MB; "
            f"${ENV_MAX_MB} changes the bound, ${ENV_DIR} moves the cache)")


def clear_report(folder: Path | None = None) -> str:
    """Empty the cache; what `sheets cache clear` prints."""
    top = Path(folder) if folder is not None else root()
    freed, files = clear(top)
    return f"cleared {top}: {files} files, {freed / 1e6:.1f} MB"

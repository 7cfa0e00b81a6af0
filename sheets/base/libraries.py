"""The layout engine's native libraries, looked up once per machine instead of once per process.

WeasyPrint loads pango, harfbuzz, fontconfig and gobject through cffi, trying several names
for each (one per platform). On Linux cffi asks `ctypes.util.find_library` for every name that
does not load at once, and each miss runs `ldconfig`, `gcc` and `ld` in subprocesses: sixteen
misses, about 0.12 s, in every process that imports WeasyPrint (each worker of each command).

While WeasyPrint is imported (`remembered`), those answers come from a record in the cache
folder, written by the first process that asked. The record belongs to one state of the
machine's libraries: its name is the hash of the dynamic loader's cache (`/etc/ld.so.cache`:
its size and time, which change whenever a package adds or removes a library) and of the
variables that steer the search. A new library or path gives a new record, so an answer is
never older than the libraries it describes; a record cut short (its seal, as every cache
entry's) is asked again.
"""
from __future__ import annotations

import hashlib
import json
import os
import sys
from contextlib import contextmanager
from pathlib import Path

from sheets.base import cachedir, output

LOADER_CACHE = Path("/etc/ld.so.cache")
PREFIX = "libraries-"
_STEERING = ("LD_LIBRARY_PATH", "LIBRARY_PATH", "PATH", "CC")  # what find_library's searches read


def record_path(folder: Path | None = None) -> Path | None:
    """This state of the machine's libraries' record, or None when it has no loader cache."""
    try:
        st = LOADER_CACHE.stat()
    except OSError:
        return None
    state = [sys.platform, st.st_size, st.st_mtime_ns, [os.environ.get(name, "") for name in _STEERING]]
    digest = hashlib.sha256(json.dumps(state).encode()).hexdigest()
    return (Path(folder) if folder is not None else cachedir.root()) / f"{PREFIX}{digest}.json"


def _read(path: Path) -> dict[str, str | None]:
    try:
        found = json.loads((cachedir.unsealed(path.read_bytes()) or b"").decode("utf-8"))
    except (OSError, ValueError):
        return {}
    ok = isinstance(found, dict) and all(isinstance(v, (str, type(None))) for v in found.values())
    return found if ok else {}


@contextmanager
def remembered(folder: Path | None = None):
    """`ctypes.util.find_library` answered from the record while the block runs (Linux only);
    what it had to ask is added to the record at the end."""
    path = record_path(folder) if sys.platform.startswith("linux") else None
    if path is None:
        yield
        return
    import ctypes.util  # noqa: PLC0415 - only for the block

    known, asked = _read(path), {}
    ask = ctypes.util.find_library

    def find_library(name: str) -> str | None:
        if name not in known:
            known[name] = asked[name] = ask(name)
        return known[name]

    ctypes.util.find_library = find_library
    try:
        yield
    finally:
        ctypes.util.find_library = ask
        if asked:
            try:
                data = json.dumps(dict(sorted(known.items())), indent=1).encode()
                output.write_atomic(path, cachedir.sealed(data))  # sealed, as every cache entry
            except Exception:  # noqa: BLE001 - a cache we cannot write is only slower
                pass

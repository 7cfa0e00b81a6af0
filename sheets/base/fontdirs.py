"""Which fonts this machine has, as a fingerprint for cache keys.

A laid-out PDF depends on the installed fonts as well as on its HTML: a name in a script
that no font had prints as missing-glyph boxes, and the same HTML prints it whole once a
font with those letters is installed (fontconfig's fallback). The fingerprint changes when
a font folder fontconfig reads gains or loses a file (each folder's modification time), so
a cached sheet made before the install is made again, never served with boxes in it.
"""
from __future__ import annotations

import hashlib
import os
from functools import lru_cache
from pathlib import Path


def _folders() -> list[Path]:
    home = Path.home()
    data = Path(os.environ.get("XDG_DATA_HOME") or home / ".local" / "share")
    return [Path("/usr/share/fonts"), Path("/usr/local/share/fonts"), data / "fonts", home / ".fonts"]


@lru_cache(maxsize=1)
def fingerprint() -> str:
    """sha256 over every font folder's path and modification time (a few dozen stat calls)."""
    h = hashlib.sha256()
    for top in _folders():
        for folder, subfolders, _ in os.walk(top):
            subfolders.sort()
            try:
                h.update(f"{folder}\0{os.stat(folder).st_mtime_ns}\0".encode("utf-8", "surrogateescape"))
            except OSError:
                continue
    return h.hexdigest()

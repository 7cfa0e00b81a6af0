"""Where the bundled content and templates live.

In a repository checkout they are the top-level `content/` and `templates/`
folders; in an installed wheel they are carried inside the package.
"""
from __future__ import annotations

from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent.parent  # sheets/, this module being sheets/base/paths.py
#: PDF dates when SOURCE_DATE_EPOCH is not set, so that the same input gives the same bytes
FIXED_EPOCH = "946684800"  # 2000-01-01T00:00:00Z


def _find(name: str) -> Path:
    for candidate in (PACKAGE_DIR / name, PACKAGE_DIR.parent / name):
        if candidate.is_dir():
            return candidate
    raise RuntimeError(f"bundled {name}/ folder not found next to {PACKAGE_DIR}")


def content_dir() -> Path:
    return _find("content")


def templates_dir() -> Path:
    return _find("templates")

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


_output_root: Path | None = None  # the user's default (sheets.toml `output`), set by the CLI


def set_output_root(folder: Path | None) -> None:
    """Where output goes when no -o is given (None: ./output/)."""
    global _output_root  # noqa: PLW0603 - one process-wide default, like the working folder it replaces
    _output_root = Path(folder) if folder is not None else None


def default_output_dir() -> Path:
    """output/ in the current folder (created on demand), or the folder sheets.toml names."""
    return _output_root if _output_root is not None else Path.cwd() / "output"

"""Every cache of the build: what a key is made of, where an entry lives, how it is kept.

One versioning rule for every entry: a key hashes the layout engine's version, the
cache format (`VERSION`), the font subsetter in use, the entry's kind and its inputs
(HTML and options). Same key, same bytes: a hit is exact. Entries are written whole
(temporary file, then rename); an entry that cannot be read is a miss.

Kinds: `sheet` (a laid-out PDF), `blank` (a blank to stamp on: PDF + field layout),
`stamped` (a whole stamped sheet, in a kit's cache), `contents` (the kit's contents page).
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
from functools import lru_cache
from pathlib import Path

from sheets import output, rendering
from sheets.errors import SheetsError
from sheets.sheet import Finisher, Sheet, render_html

VERSION = "1"  # the format of entries (raise it when what a key names changes meaning)


@lru_cache(maxsize=1)
def engine_version() -> str:
    return rendering.weasyprint_version()


def _subsetter() -> str:
    return os.environ.get("SHEETS_NO_HB_SUBSET", "")


def _key(kind: str, *inputs: bytes) -> str:
    """The one rule: engine version, cache format, font subsetter, kind, then the inputs."""
    h = hashlib.sha256()
    for part in (engine_version(), VERSION, _subsetter(), kind):
        h.update(part.encode() + b"\0")
    for data in inputs:
        h.update(hashlib.sha256(data).digest())
    return h.hexdigest()


def sheet_key(html: str, forms: bool, finish: Finisher | None = None) -> str:
    """A laid-out sheet (or the kit's contents page): its HTML, forms or flat, finish step."""
    return _key("sheet", b"forms" if forms else b"flat", (finish.key if finish is not None else "").encode(),
                html.encode("utf-8"))


def blank_key(html: str) -> str:
    return _key("blank", html.encode("utf-8"))


def stamped_key(sheet: Sheet) -> str:
    inputs = [sheet.label.encode("utf-8")]
    for blank, filled in sheet.parts or []:
        inputs += [render_html(blank).encode("utf-8"), render_html(filled).encode("utf-8")]
    return _key("stamped", *inputs)


# -- where entries live ---------------------------------------------------------
def default_dir() -> Path:
    """The user's cache of blanks (`SHEETS_CACHE_DIR`, else the XDG cache folder)."""
    env = os.environ.get("SHEETS_CACHE_DIR")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "warsheets"


def sheet_path(cache: Path, key: str) -> Path:
    return cache / f"{key}.pdf"


def stamped_path(cache: Path, sheet: Sheet) -> Path:
    return cache / f"stamped-{stamped_key(sheet)}.pdf"


def contents_path(cache: Path, html: str) -> Path:
    return cache / f"contents-{sheet_key(html, False)}.pdf"


def holds_any_sheet(cache: Path | None) -> bool:
    return cache is not None and cache.is_dir() and next(cache.glob("*.pdf"), None) is not None


# -- reading and writing --------------------------------------------------------
def read(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except OSError:
        return None


def write(path: Path, data: bytes) -> None:
    """Whole or not at all (temporary file, then rename); a cache we cannot write is only slower."""
    try:
        output.write_atomic(path, data)
    except SheetsError:
        pass


def has_blank(cache: Path | None, key: str) -> bool:
    return cache is not None and (cache / f"blank-{key}.pdf").is_file() and (cache / f"blank-{key}.json").is_file()


def read_blank(cache: Path | None, key: str) -> tuple[bytes, dict] | None:
    if cache is None:
        return None
    try:
        pdf = (cache / f"blank-{key}.pdf").read_bytes()
        layout = json.loads((cache / f"blank-{key}.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return pdf, layout


def write_blank(cache: Path | None, key: str, pdf: bytes, layout: dict) -> None:
    if cache is None:
        return
    write(cache / f"blank-{key}.json", json.dumps(layout, sort_keys=True).encode())
    write(cache / f"blank-{key}.pdf", pdf)


def clear(cache: Path | None = None) -> None:
    shutil.rmtree(cache or default_dir(), ignore_errors=True)

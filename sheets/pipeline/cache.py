"""Every cache of the build: what a key is made of, where an entry lives, how it is kept.

One versioning rule for every entry: a key hashes the layout engine's version, the
cache format (`VERSION`), the font subsetter in use, the bundled fonts by hash (`fonts`) and,
only for a sheet with text they lack, the installed fonts (`fontdirs`), the entry's kind and
its inputs (HTML and options). Same key, same bytes: a hit is exact. Entries are written whole
(temporary file, then rename) and sealed: each ends with a line holding the sha256 of
what comes before it. An entry that cannot be read, or whose seal is missing or does
not match (a file cut short by a crash, a disk error, an old format), is a miss: it is
deleted and made again, never used.

Kinds: `sheet` (a laid-out PDF), `blank` (a blank to stamp on: PDF + field layout),
`stamped` (a whole stamped sheet), `contents` (the kit's contents page). They all live in
the one cache folder (`sheets.base.cachedir`: the user's cache folder, never an output
folder), which keeps itself under its size bound (`trim`, after each build).
"""
from __future__ import annotations

import hashlib
import json
import os
from functools import lru_cache
from pathlib import Path

from sheets.base import cachedir, fontdirs, fonts, output
from sheets.base.cachedir import sealed as _sealed, unsealed as _unsealed
from sheets.base.errors import SheetsError
from sheets.pipeline import rendering
from sheets.pipeline.sheet import Finisher, Sheet, render_html
from sheets.pdf.forms import KEY as FORMS_KEY

VERSION = "8"  # the format of entries (raise it when what a key names changes meaning); 2: sealed;
# 3: font subsets tagged by their program (sheets/pdf/fonts.py), no unembedded font; 4: tagged, finished PDFs;
# 5: page margin boxes (running footers, card numbers) as pagination artifacts (PDF/UA, sheets/pdf/ua.py);
# 6: overlays start with a TTF (no Helvetica preamble), the kit's contents page tagged as it is streamed;
# 7: a blank's margin boxes carry their colour (was black) and rule, a title face stamped in its own file;
# 8: a stamped rows' sample field carries its display, rule and padding (sheets.pipeline.stamp.rows)


@lru_cache(maxsize=1)
def engine_version() -> str:
    return rendering.weasyprint_version()


def _subsetter() -> str:
    return os.environ.get("SHEETS_NO_HB_SUBSET", "")


def _key(kind: str, *inputs: bytes, fallback: bool = False) -> str:
    """The one rule: engine version, cache format, font subsetter, the bundled fonts (and the
    installed ones for text only they may draw: `fallback`), kind, then the inputs."""
    h = hashlib.sha256()
    installed = fontdirs.fingerprint() if fallback else "-"
    for part in (engine_version(), VERSION, _subsetter(), fonts.bundled_hash(), installed, kind):
        h.update(part.encode() + b"\0")
    for data in inputs:
        h.update(hashlib.sha256(data).digest())
    return h.hexdigest()


def sheet_key(html: str, forms: bool, finish: Finisher | None = None) -> str:
    """A laid-out sheet (or the kit's contents page): its HTML, forms or flat, finish step."""
    return _key("sheet", FORMS_KEY.encode() if forms else b"flat", (finish.key if finish is not None else "").encode(),
                html.encode("utf-8"), fallback=fonts.needs_fallback(html))


def blank_key(html: str) -> str:
    return _key("blank", html.encode("utf-8"), fallback=fonts.needs_fallback(html))


STAMPED_FORMAT = b"stamped: tagged while streamed (issue 38)"


def stamped_key(sheet: Sheet) -> str:
    # STAMPED_FORMAT: how the file is written (issue 38: tagged as it is streamed), so that an
    # entry written the old way is not taken for one of today's bytes
    inputs = [STAMPED_FORMAT, sheet.label.encode("utf-8")]
    inputs += [f"forms {FORMS_KEY} widgets-1".encode()] if sheet.forms else []
    # a part laid out in full has no blank (None): its place in the list still counts
    htmls = [render_html(s) if s is not None else "" for pair in sheet.parts or [] for s in pair]
    inputs += [html.encode("utf-8") for html in htmls]
    return _key("stamped", *inputs, fallback=any(fonts.needs_fallback(html) for html in htmls))


# -- where entries live ---------------------------------------------------------
def default_dir() -> Path:
    """The one cache (`SHEETS_CACHE_DIR`, else the user's cache folder: sheets.base.cachedir)."""
    return cachedir.root()


def sheet_path(cache: Path, key: str) -> Path:
    return cache / f"{key}.pdf"


def stamped_path(cache: Path, sheet: Sheet) -> Path:
    return cache / f"stamped-{stamped_key(sheet)}.pdf"


def contents_path(cache: Path, html: str) -> Path:
    return cache / f"contents-{sheet_key(html, False)}.pdf"


def holds_any_sheet(cache: Path | None) -> bool:
    return cache is not None and cache.is_dir() and next(cache.glob("*.pdf"), None) is not None


# -- reading and writing --------------------------------------------------------
def discard(path: Path) -> None:
    try:
        path.unlink()
    except OSError:
        pass


def read(path: Path) -> bytes | None:
    """An entry's data; None for a miss (a damaged entry is deleted, to be made again)."""
    try:
        raw = path.read_bytes()
    except OSError:
        return None
    data = _unsealed(raw)
    if data is None:
        discard(path)
    else:
        cachedir.touch(path)  # used now: trimming drops it last
    return data


def write(path: Path, data: bytes) -> None:
    """Whole or not at all (temporary file, then rename), sealed; a cache we cannot write is
    only slower."""
    try:
        output.write_atomic(path, _sealed(data))
    except SheetsError:
        pass


def has_blank(cache: Path | None, key: str) -> bool:
    return cache is not None and (cache / f"blank-{key}.pdf").is_file() and (cache / f"blank-{key}.json").is_file()


def read_blank(cache: Path | None, key: str) -> tuple[bytes, dict] | None:
    if cache is None:
        return None
    pdf, layout = read(cache / f"blank-{key}.pdf"), read(cache / f"blank-{key}.json")
    try:
        if pdf is not None and layout is not None:
            return pdf, json.loads(layout.decode("utf-8"))
    except ValueError:
        pass
    discard(cache / f"blank-{key}.pdf")  # half a blank is no blank: both are made again
    discard(cache / f"blank-{key}.json")
    return None


def blank_layout(cache: Path | None, key: str) -> dict | None:
    """A cached blank's layout alone (a worker plans on it; the PDF is read where it is written)."""
    if not has_blank(cache, key):
        return None
    layout = read(cache / f"blank-{key}.json")  # type: ignore[operator]
    try:
        return json.loads(layout.decode("utf-8")) if layout is not None else None
    except ValueError:
        return None


def write_blank(cache: Path | None, key: str, pdf: bytes, layout: dict) -> None:
    if cache is None:
        return
    write(cache / f"blank-{key}.json", json.dumps(layout, sort_keys=True).encode())
    write(cache / f"blank-{key}.pdf", pdf)


def prepared_path(cache: Path | None, key: str) -> Path | None:
    """Where blank `key`'s pages, as the tagged writer prepares them (sheets.pdf.tagged), are kept."""
    return cache / f"blank-{key}.tagged.json" if cache is not None else None


def clear(cache: Path | None = None) -> None:
    cachedir.clear(cache or default_dir())


def trim(cache: Path | None) -> None:
    """Keep the cache under its size bound (the entries used longest ago go first)."""
    if cache is not None:
        cachedir.trim(cache)

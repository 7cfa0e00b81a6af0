"""The one cache: where it is, its size, `clear`, and the size bound (the entries used longest ago go first)."""
from __future__ import annotations

import os
from pathlib import Path

import platformdirs

from sheets.base import cachedir
from sheets.pipeline import cache
import pytest

pytestmark = pytest.mark.unit  # `make check`'s fast tier

KEY = "0123456789abcdef" * 4  # a key's 64 hex digits


def entry(folder: Path, name: str, size: int, age_s: int) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"x" * size)
    then = 1_700_000_000 - age_s
    os.utime(path, (then, then))
    return path


def test_the_cache_is_the_users_cache_folder_unless_sheets_cache_dir_says(monkeypatch, tmp_path):
    monkeypatch.delenv("SHEETS_CACHE_DIR", raising=False)
    assert cachedir.root() == Path(platformdirs.user_cache_dir("warsheets", appauthor=False))
    assert cache.default_dir() == cachedir.root()
    monkeypatch.setenv("SHEETS_CACHE_DIR", str(tmp_path / "c"))
    assert cachedir.root() == tmp_path / "c" == cache.default_dir()


def test_trim_drops_the_entries_used_longest_ago_until_under_the_bound(tmp_path):
    old = entry(tmp_path, f"{KEY}.pdf", 400, age_s=300)
    older_kit = entry(tmp_path, f"kits/{KEY[:32]}/build-state.json", 100, age_s=400)
    middle = entry(tmp_path, f"blank-{KEY}.pdf", 400, age_s=200)
    new = entry(tmp_path, f"stamped-{KEY}.pdf", 400, age_s=100)
    assert cachedir.size(tmp_path) == (1300, 4)
    assert cachedir.trim(tmp_path, limit=1000) == 500  # the kit record, then the oldest sheet
    assert not older_kit.exists() and not old.exists() and middle.exists() and new.exists()
    assert not (tmp_path / "kits" / KEY[:32]).exists()  # its emptied folder too
    assert cachedir.trim(tmp_path, limit=1000) == 0  # under the bound: nothing goes


def test_a_hit_makes_an_entry_the_last_to_go(tmp_path):
    first = tmp_path / f"{KEY}.pdf"
    cache.write(first, b"%PDF first")
    second = tmp_path / f"contents-{KEY}.pdf"
    cache.write(second, b"%PDF second")
    os.utime(first, (1_600_000_000, 1_600_000_000))
    os.utime(second, (1_650_000_000, 1_650_000_000))
    assert cache.read(first) == b"%PDF first"  # used now
    cachedir.trim(tmp_path, limit=first.stat().st_size)
    assert first.exists() and not second.exists()


def test_the_bound_comes_from_sheets_cache_max_mb(monkeypatch):
    monkeypatch.delenv("SHEETS_CACHE_MAX_MB", raising=False)
    assert cachedir.max_bytes() == 500_000_000
    monkeypatch.setenv("SHEETS_CACHE_MAX_MB", "2.5")
    assert cachedir.max_bytes() == 2_500_000
    monkeypatch.setenv("SHEETS_CACHE_MAX_MB", "lots")
    assert cachedir.max_bytes() == 500_000_000


def test_clear_empties_the_cache_and_touches_nothing_else(tmp_path):
    entry(tmp_path, f"{KEY}.pdf", 10, 1)
    entry(tmp_path, f"blank-{KEY}.json", 10, 1)
    entry(tmp_path, f"kits/{KEY[:32]}/build-state.json", 10, 1)
    entry(tmp_path, f".{KEY}.pdf.x1y2.tmp", 10, 1)
    mine = entry(tmp_path, "notes.txt", 10, 1)  # SHEETS_CACHE_DIR pointed at a folder with other files
    other = entry(tmp_path, "photos/holiday.pdf", 10, 1)
    assert cachedir.clear(tmp_path) == (40, 4)
    assert sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*") if p.is_file()) \
        == ["notes.txt", "photos/holiday.pdf"]
    assert mine.exists() and other.exists() and cachedir.size(tmp_path) == (0, 0)

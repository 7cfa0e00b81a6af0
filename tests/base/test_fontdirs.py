"""A font installed after a sheet was cached: the sheet is made again (the cache key and the
kit's up-to-date answer both change), so a name once printed as missing-glyph boxes prints whole."""
from __future__ import annotations

import os

from sheets.base import fontdirs
from sheets.kit import uptodate
from sheets.pipeline import cache


def test_a_new_font_file_changes_every_cache_key_and_the_kit_fingerprint(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    (tmp_path / "fonts").mkdir()
    fontdirs.fingerprint.cache_clear()
    before = (cache.sheet_key("<p>李雷</p>", False), cache.blank_key("<p>x</p>"),
              uptodate.fingerprint({"build": "kit"}))
    os.utime(tmp_path / "fonts", ns=(1, 1))  # as when a font file is added to the folder
    fontdirs.fingerprint.cache_clear()
    after = (cache.sheet_key("<p>李雷</p>", False), cache.blank_key("<p>x</p>"),
             uptodate.fingerprint({"build": "kit"}))
    assert all(b != a for b, a in zip(before, after))
    fontdirs.fingerprint.cache_clear()
    assert (cache.sheet_key("<p>李雷</p>", False), cache.blank_key("<p>x</p>"),
            uptodate.fingerprint({"build": "kit"})) == after  # nothing changed: the same keys

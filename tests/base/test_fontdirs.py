"""A font installed after a sheet was cached: a sheet with text only installed fonts draw is
made again (its cache key and the kit's up-to-date answer change), so a name once printed as
missing-glyph boxes prints whole; a sheet the bundled fonts print whole keeps its key."""
from __future__ import annotations

import os

from sheets.base import fontdirs
from sheets.kit import uptodate
from sheets.pipeline import cache


def _install_a_font(folder) -> None:
    os.utime(folder, ns=(1, 1))  # as when a font file is added to the folder
    fontdirs.fingerprint.cache_clear()


def test_a_new_font_file_changes_the_keys_of_sheets_that_need_an_installed_font_only(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    (tmp_path / "fonts").mkdir()
    fontdirs.fingerprint.cache_clear()
    cjk = (cache.sheet_key("<p>李雷</p>", False), cache.blank_key("<p>李雷</p>"))
    latin = (cache.sheet_key("<p>Zoë Ünal, Ελένη, Светлана ≥ 2</p>", False), cache.blank_key("<p>x</p>"),
             uptodate.fingerprint({"build": "kit"}))
    _install_a_font(tmp_path / "fonts")
    assert all(b != a for b, a in zip(cjk, (cache.sheet_key("<p>李雷</p>", False), cache.blank_key("<p>李雷</p>"))))
    assert latin == (cache.sheet_key("<p>Zoë Ünal, Ελένη, Светлана ≥ 2</p>", False), cache.blank_key("<p>x</p>"),
                     uptodate.fingerprint({"build": "kit"}))
    fontdirs.fingerprint.cache_clear()
    assert cache.sheet_key("<p>李雷</p>", False) == cache.sheet_key("<p>李雷</p>", False)  # nothing changed: same key


def test_a_kit_that_needed_an_installed_font_is_made_again_once_one_is_installed(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    (tmp_path / "fonts").mkdir()
    fontdirs.fingerprint.cache_clear()
    out = tmp_path / "kit"
    out.mkdir()
    (out / "a.pdf").write_bytes(b"%PDF")
    for fallback, still in ((False, True), (True, False)):
        (tmp_path / "fonts").rmdir()
        (tmp_path / "fonts").mkdir()
        fontdirs.fingerprint.cache_clear()
        uptodate.record(out, "key", out, [out / "a.pdf"], {}, fallback=fallback)
        assert uptodate.up_to_date(out, "key", out) is not None
        _install_a_font(tmp_path / "fonts")
        assert (uptodate.up_to_date(out, "key", out) is not None) is still
    fontdirs.fingerprint.cache_clear()

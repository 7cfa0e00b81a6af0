"""`sheets doctor`: every check named in its output, what to install beside each finding that is not
OK, exit 1 when something required is missing and 0 otherwise.

The package's own fonts (sheets/base/fonts/) come with issue 28's fonts branch: until then these tests
point the check at a folder of fonts they make, so that they test the doctor, not the branch.
"""
from __future__ import annotations

import pytest
from fontTools.fontBuilder import FontBuilder
from fontTools.pens.ttGlyphPen import TTGlyphPen

from sheets.app import doctor

CHECKS = ["Python", "WeasyPrint", "Pango", "HarfBuzz subsetter", "bundled fonts", "CJK fallback font",
          "cache folder"]


def make_font(path, family: str) -> None:
    """A small TrueType font with a glyph for A, as fontTools builds it."""
    builder = FontBuilder(1000, isTTF=True)
    builder.setupGlyphOrder([".notdef", "A"])
    builder.setupCharacterMap({ord("A"): "A"})
    pen = TTGlyphPen(None)
    pen.moveTo((100, 0)), pen.lineTo((500, 700)), pen.lineTo((900, 0)), pen.closePath()
    glyph = pen.glyph()
    builder.setupGlyf({".notdef": TTGlyphPen(None).glyph(), "A": glyph})
    builder.setupHorizontalMetrics({".notdef": (500, 0), "A": (1000, 100)})
    builder.setupHorizontalHeader(ascent=800, descent=-200)
    builder.setupNameTable({"familyName": family, "styleName": "Regular"})
    builder.setupOS2()
    builder.setupPost()
    builder.save(str(path))


@pytest.fixture
def fonts(tmp_path, monkeypatch):
    folder = tmp_path / "fonts"
    folder.mkdir()
    make_font(folder / "TestSans.ttf", "Test Sans")
    make_font(folder / "TestSerif.ttf", "Test Serif")
    monkeypatch.setattr(doctor, "FONTS_DIR", folder)
    monkeypatch.setenv("SHEETS_CACHE_DIR", str(tmp_path / "cache"))
    return folder


def test_doctor_names_every_check_and_exits_0_when_all_required_is_here(cli, fonts):
    result = cli("doctor")
    assert result.exit_code == 0, result
    for check in CHECKS:
        assert f" {check}: " in result.stdout, check
    assert "ok       bundled fonts: 2 load: Test Sans, Test Serif" in result.stdout
    assert "ok       WeasyPrint: 70.0" in result.stdout
    assert f"cache folder: {fonts.parent / 'cache'} is writable" in result.stdout
    assert "doctor: everything required is here" in result.stdout


def test_no_bundled_font_is_a_required_failure(cli, fonts):
    for font in fonts.iterdir():
        font.unlink()
    result = cli("doctor")
    assert result.exit_code == 1, result
    assert f"MISSING  bundled fonts: no font file in {fonts}" in result.stdout
    assert "install: reinstall warsheets" in result.stdout
    assert "doctor: 1 required thing missing (bundled fonts)" in result.stderr
    assert "Traceback" not in result.stdout + result.stderr


def test_a_font_that_does_not_open_is_a_required_failure(cli, fonts):
    (fonts / "Broken.ttf").write_bytes(b"not a font at all")
    result = cli("doctor")
    assert result.exit_code == 1
    assert "MISSING  bundled fonts: 1 of 3 do not load: Broken.ttf" in result.stdout


def test_no_pango_is_a_required_failure_naming_what_to_install(cli, fonts, monkeypatch):
    error = OSError("cannot load library 'libpango-1.0-0': libpango-1.0-0: cannot open shared object file")
    monkeypatch.setattr(doctor, "_load_weasyprint", lambda: (None, error))
    result = cli("doctor")
    assert result.exit_code == 1
    assert "MISSING  WeasyPrint: does not load: cannot load library 'libpango-1.0-0'" in result.stdout
    assert "MISSING  Pango: not found" in result.stdout
    assert "libpango-1.0-0" in result.stdout and "brew install pango" not in result.stdout  # this is Linux
    assert "doctor: 2 required things missing (WeasyPrint, Pango)" in result.stderr


def test_no_cjk_font_and_no_harfbuzz_subsetter_are_warnings_only(cli, fonts, monkeypatch):
    monkeypatch.setattr(doctor, "_fc_families", lambda lang: [])
    real = doctor._load_weasyprint

    def without_subsetter():
        weasyprint, ffi = real()

        class NoSubset:
            pango = ffi.pango
            harfbuzz_subset = None
        return weasyprint, NoSubset
    monkeypatch.setattr(doctor, "_load_weasyprint", without_subsetter)
    result = cli("doctor")
    assert result.exit_code == 0, result
    assert "warning  CJK fallback font: no installed font for zh, ja, ko" in result.stdout
    assert "fonts-noto-cjk" in result.stdout
    assert "warning  HarfBuzz subsetter: libharfbuzz-subset not found" in result.stdout
    assert "libharfbuzz-subset0" in result.stdout
    assert "doctor: everything required is here (2 warnings)" in result.stdout


def test_a_cache_folder_that_cannot_be_written_is_a_required_failure(cli, fonts, tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("in the way")
    monkeypatch.setenv("SHEETS_CACHE_DIR", str(blocker / "cache"))  # a folder under a file cannot exist
    result = cli("doctor")
    assert result.exit_code == 1
    assert f"MISSING  cache folder: {blocker / 'cache'} is not writable" in result.stdout
    assert "SHEETS_CACHE_DIR" in result.stdout

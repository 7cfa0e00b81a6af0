"""The same kit on every machine: a fixed seed gives the same bytes whether the system's
fonts are visible or hidden (FONTCONFIG_FILE naming a config with no font folder) or are
other fonts than DejaVu (only Liberation, as on many non-Debian systems, where the platoon
cards did not fit before the fonts came with the package), and the kit built without them
embeds only the bundled fonts (DejaVu and the theme's title face)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO
from fontTools.ttLib import TTFont as FontFile

from sheets.base import fonts
from samebytes import hidden_fonts_env, kit_files, pdf_font_names


def _kit(tmp: Path, name: str, env: dict) -> tuple[subprocess.CompletedProcess, Path]:
    out = tmp / name
    env = dict(env, SHEETS_CACHE_DIR=str(tmp / f"cache-{name}"), PYTHONPATH=str(REPO))
    done = subprocess.run([sys.executable, "-m", "sheets", "kit", "--game", "platoon", "--seed", "1944",
                           "-o", str(out)], capture_output=True, text=True, env=env, cwd=tmp, timeout=600)
    return done, out


@pytest.fixture(scope="module")
def two_kits(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("same-bytes")
    visible = _kit(tmp, "visible", dict(os.environ))
    hidden = _kit(tmp, "hidden", hidden_fonts_env(tmp / "nofonts"))
    return visible, hidden


LIBERATION = Path("/usr/share/fonts/truetype/liberation")


@pytest.mark.skipif(not LIBERATION.is_dir(), reason="no Liberation fonts here (Debian: fonts-liberation)")
def test_the_kit_is_byte_identical_where_only_other_fonts_are_installed(two_kits, tmp_path):
    (seen, seen_dir), _ = two_kits
    other, other_dir = _kit(tmp_path, "liberation", hidden_fonts_env(tmp_path / "lib", only=LIBERATION))
    assert other.returncode == 0, other.stderr
    visible, elsewhere = kit_files(seen_dir), kit_files(other_dir)
    assert sorted(visible) == sorted(elsewhere)
    assert [name for name in visible if visible[name] != elsewhere[name]] == []


def test_the_kit_is_byte_identical_with_the_system_fonts_hidden(two_kits):
    (seen, seen_dir), (blind, blind_dir) = two_kits
    assert seen.returncode == 0, seen.stderr
    assert blind.returncode == 0, blind.stderr
    visible, hidden = kit_files(seen_dir), kit_files(blind_dir)
    assert "kit.pdf" in visible and len(visible) > 5
    assert sorted(visible) == sorted(hidden)
    assert [name for name in visible if visible[name] != hidden[name]] == []


def _bundled(name: str) -> bool:
    """A font name one of the bundled files is embedded under: WeasyPrint names a face by its
    CSS family ("Sheets-IBM-3270,", a theme's title face), the stamper by the file's own
    PostScript name ("DejaVuSans", the kit contents page's stamped subtitle)."""
    families = {fam.replace(" ", "-") for fam, _, _ in fonts.FILES}
    postscript = {str(FontFile(fonts.path(f), lazy=True)["name"].getDebugName(6)) for f in fonts.FILES.values()}
    return name in postscript or any(name == fam or name.startswith((fam + ",", fam + "-")) for fam in families)


def test_without_system_fonts_only_the_bundled_fonts_are_embedded(two_kits):
    _, (blind, blind_dir) = two_kits
    names = set()
    for pdf in blind_dir.glob("*.pdf"):
        names |= pdf_font_names(pdf)
    assert names and all(_bundled(name) for name in names), names
    assert "Font" not in blind.stderr and "fonts" not in blind.stderr, blind.stderr  # no fontconfig noise

"""The same kit on every machine: a fixed seed gives the same bytes whether the system's
fonts are visible or hidden (FONTCONFIG_FILE naming a config with no font folder) or are
other fonts than DejaVu (only Liberation, as on many non-Debian systems, where the platoon
cards did not fit before the fonts came with the package), and the kit built without them
embeds only the bundled DejaVu."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO
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


def test_without_system_fonts_only_the_bundled_dejavu_is_embedded(two_kits):
    _, (blind, blind_dir) = two_kits
    names = set()
    for pdf in blind_dir.glob("*.pdf"):
        names |= pdf_font_names(pdf)
    assert names and all("DejaVu" in name for name in names), names
    assert "Font" not in blind.stderr and "fonts" not in blind.stderr, blind.stderr  # no fontconfig noise

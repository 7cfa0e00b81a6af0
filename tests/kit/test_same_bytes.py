"""The same kit on every machine: a fixed seed gives the same bytes whether the system's
fonts are visible or hidden (FONTCONFIG_FILE naming a config with no font folder), and the
kit built without them embeds only the bundled DejaVu."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pypdf
import pytest

from conftest import REPO

#: fontconfig with no font folder at all: only the fonts the sheets bring can be used
NO_FONTS = """<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
<fontconfig><cachedir>{cache}</cachedir></fontconfig>
"""


def hidden_fonts_env(folder: Path, env: dict | None = None) -> dict:
    """The environment with the system's fonts hidden from fontconfig (and a cache of our own)."""
    folder.mkdir(parents=True, exist_ok=True)
    conf = folder / "fonts.conf"
    conf.write_text(NO_FONTS.format(cache=folder / "fc-cache"), encoding="utf-8")
    env = dict(os.environ if env is None else env)
    env["FONTCONFIG_FILE"] = str(conf)
    env.pop("FONTCONFIG_PATH", None)
    return env


def kit_files(folder: Path) -> dict[str, bytes]:
    """Every file a kit wrote (not its cache or build record), by path."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and ".cache" not in p.relative_to(folder).parts}


def pdf_font_names(path: Path) -> set[str]:
    """The BaseFont of every font a PDF's pages (and their form XObjects) use, subset tag dropped."""
    names = set()
    for page in pypdf.PdfReader(str(path)).pages:
        stack = [page.get("/Resources")]
        while stack:
            res = stack.pop()
            res = res.get_object() if res is not None else {}
            for font in (res.get("/Font") or {}).values():
                names.add(str(font.get_object().get("/BaseFont", "")).split("+")[-1])
            for xo in (res.get("/XObject") or {}).values():
                stack.append(xo.get_object().get("/Resources"))
    return names


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

"""Installed from its wheel, away from the checkout: the wheel carries the fonts, and
`sheets kit --seed 7`, run from an empty folder with the system's fonts hidden, writes
the same bytes as the checkout's own build of the same command (with the fonts visible: the
run's whole kit, tests/conftest.py's whole_kit). So does a homebrew game with a look of its own
(tests/homebrew.py), packed by its author with `sheets pack` and unpacked by a friend.

The wheel is `make dist`'s (tests/conftest.py's built_dist); the venv gets what a GM's
install gets: the wheel's dependencies and theirs, at the lock's versions and hashes, and
nothing of the test or build tools."""
from __future__ import annotations

import os
import re
import subprocess
import sys
import zipfile
from email.parser import Parser
from importlib.metadata import distribution
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

import pytest

from conftest import REPO
from homebrew import decorate
from samebytes import hidden_fonts_env, kit_files

pytestmark = pytest.mark.slow


def _run(args: list, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([str(a) for a in args], capture_output=True, text=True, timeout=600, **kwargs)


def _clean_env(tmp: Path) -> dict:
    """No path into the checkout, caches and config of its own (an empty home)."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "SHEETS_CACHE_DIR")}
    env.update(HOME=str(tmp / "home"), XDG_CACHE_HOME=str(tmp / "home" / ".cache"),
               XDG_CONFIG_HOME=str(tmp / "home" / ".config"))
    return env


def _runtime_lock(wheel: Path, target: Path) -> Path:
    """The lock's entries (pins and hashes) for the wheel's Requires-Dist, and theirs (as the
    checkout's venv has them installed, at the lock's versions), into `target`."""
    with zipfile.ZipFile(wheel) as z:
        meta = Parser().parsestr(z.read(next(n for n in z.namelist() if n.endswith(".dist-info/METADATA"))).decode())
    needed: set[str] = set()
    seen: set[tuple[str, frozenset]] = set()
    todo = [(spec, frozenset()) for spec in meta.get_all("Requires-Dist") or []]  # (requirement, extras asked of its owner)
    while todo:
        spec, extras = todo.pop()
        req = Requirement(spec)
        if req.marker is not None and not any(req.marker.evaluate({"extra": e}) for e in {"", *extras}):
            continue  # an extra nobody asked for (test, bench), or another platform's
        name = canonicalize_name(req.name)
        if (name, frozenset(req.extras)) not in seen:
            seen.add((name, frozenset(req.extras)))
            needed.add(name)
            todo += [(s, frozenset(req.extras)) for s in distribution(name).requires or []]
    blocks = re.split(r"\n(?=[a-z0-9])", (REPO / "requirements.txt").read_text())
    lines = [b for b in blocks if canonicalize_name(b.split("==", 1)[0]) in needed]
    assert {canonicalize_name(b.split("==", 1)[0]) for b in lines} == needed  # every one of them is locked
    target.write_text("\n".join(lines) + "\n")
    return target


def test_the_installed_wheel_builds_the_checkouts_kit_without_system_fonts(tmp_path, built_dist, whole_kit):
    assert not tmp_path.resolve().is_relative_to(REPO)
    wheel = built_dist["wheel"]
    names = zipfile.ZipFile(wheel).namelist()
    assert "sheets/base/fonts/LICENSE" in names
    assert {n for n in names if n.startswith("sheets/base/fonts/") and n.endswith(".ttf")} == {
        f"sheets/base/fonts/{p.name}" for p in (REPO / "sheets" / "base" / "fonts").glob("*.ttf")}

    venv = tmp_path / "venv"
    assert _run([sys.executable, "-m", "venv", venv]).returncode == 0
    python, sheets = venv / "bin" / "python", venv / "bin" / "sheets"
    pip = [python, "-m", "pip", "install", "-q", "--no-deps"]
    deps = _run([*pip, "--require-hashes", "-r", _runtime_lock(wheel, tmp_path / "requirements.txt")])
    assert deps.returncode == 0, deps.stderr
    assert _run([*pip, wheel]).returncode == 0

    empty = tmp_path / "empty"
    empty.mkdir()
    env = hidden_fonts_env(tmp_path / "nofonts", _clean_env(tmp_path / "installed"))
    where = _run([python, "-c", "import sheets; print(sheets.__file__)"], cwd=empty, env=env)
    assert Path(where.stdout.strip()).is_relative_to(venv), where
    version = _run([sheets, "--version"], cwd=empty, env=env)
    assert version.returncode == 0 and "0." in version.stdout, version
    kit = _run([sheets, "kit", "--seed", "7"], cwd=empty, env=env)
    assert kit.returncode == 0, kit.stderr
    assert "Font" not in kit.stderr, kit.stderr
    installed, own = kit_files(empty / "output" / "kit"), kit_files(whole_kit.folder)
    assert "kit.pdf" in own and sorted(installed) == sorted(own)
    assert [name for name in own if own[name] != installed[name]] == []


    # a homebrew game with its own look, packed by its author (the checkout) and printed by a friend
    author = tmp_path / "author"
    author.mkdir()
    checkout = [sys.executable, "-m", "sheets"]
    assert _run([*checkout, "new", "game", "brew"], cwd=author).returncode == 0
    decorate(author / "my-content" / "brew")
    for args in (["pack", "brew", "--content", "my-content", "-o", "brew.zip"],
                 ["kit", "--content", "my-content", "--game", "brew", "--seed", "7", "-o", "kit"]):
        done = _run([*checkout, *args], cwd=author)
        assert done.returncode == 0, done.stderr
    friend = tmp_path / "friend"
    zipfile.ZipFile(author / "brew.zip").extractall(friend / "my-content")
    checked = _run([sheets, "validate", "--content", "my-content"], cwd=friend, env=env)
    assert checked.returncode == 0, checked.stderr
    theirs = _run([sheets, "kit", "--content", "my-content", "--game", "brew", "--seed", "7", "-o", "kit"],
                  cwd=friend, env=env)
    assert theirs.returncode == 0, theirs.stderr
    mine, printed = kit_files(author / "kit"), kit_files(friend / "kit")
    assert "kit.pdf" in mine and sorted(printed) == sorted(mine)
    assert [name for name in mine if mine[name] != printed[name]] == []

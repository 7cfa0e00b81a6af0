"""Caches sealed, scratch cleaned (issue 50, item 6).

- Jinja's compiled templates (`jinja-SHA1.cache`) are sealed like every cache entry: 20 flipped
  bytes in one made every later `sheets reference wotw` fail ("ImportError: cannot import name
  'jinja2.runtime'", "NameError: name 'block_body'", or a segmentation fault) until
  `sheets cache clear`; now the template is compiled again, silently, and kept sealed.
- WeasyPrint's scratch (`weasyprint-*`, its @font-face fonts, ~4.6 MB a process) goes in the
  command's own folder, removed when it ends; a killed command's is swept by the next.
Each command runs in its own process with a private cache and a private TMPDIR.
"""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import fitz
import pytest

from conftest import REPO
from sheets.base import scratch
from sheets.base.cachedir import unsealed


def _env(tmp_path: Path) -> dict:
    (tmp_path / "tmp").mkdir(exist_ok=True)
    env = {k: v for k, v in os.environ.items() if k != scratch.ENV}  # not the test process's own folder
    return {**env, "SHEETS_CACHE_DIR": str(tmp_path / "cache"), "TMPDIR": str(tmp_path / "tmp")}


def sheets(env: dict, *args, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sheets", *map(str, args)], cwd=REPO, env=env,
                          capture_output=True, text=True, **kw)


def _compiled(tmp_path: Path) -> list[Path]:
    return sorted((tmp_path / "cache").glob("jinja-*.cache"))


def _forget_all_but_templates(tmp_path: Path) -> None:
    """The laid-out sheets go (a hit would render nothing): only the compiled templates stay."""
    for path in (tmp_path / "cache").rglob("*"):
        if path.is_file() and not path.name.startswith("jinja-"):
            path.unlink()


def _words(pdf: Path) -> list[str]:
    with fitz.open(pdf) as doc:
        return [w[4] for page in doc for w in page.get_text("words")]


@pytest.fixture(scope="module")
def first_reference(tmp_path_factory) -> tuple[Path, subprocess.CompletedProcess]:
    """`sheets reference wotw` once, in a folder of its own: its PDF and the cache it compiled
    the templates into (each corruption below starts from a copy of that cache)."""
    where = tmp_path_factory.mktemp("first-reference")
    first = sheets(_env(where), "reference", "wotw", "-o", where / "a.pdf")
    assert first.returncode == 0, first.stderr
    return where, first


@pytest.mark.parametrize("offset", [100, 200, 800])
def test_a_corrupted_compiled_template_is_rebuilt_silently(tmp_path, offset, first_reference):
    where, first = first_reference
    shutil.copytree(where / "cache", tmp_path / "cache")
    shutil.copy2(where / "a.pdf", tmp_path / "a.pdf")
    env = _env(tmp_path)
    compiled = _compiled(tmp_path)
    assert compiled and all(unsealed(p.read_bytes()) is not None for p in compiled)  # written sealed
    for path in compiled:  # 20 bytes flipped inside the marshalled code, as the audit did
        data = bytearray(path.read_bytes())
        start = min(offset, len(data) - 100)
        for i in range(start, start + 20):
            data[i] ^= 0x01
        path.write_bytes(bytes(data))
    _forget_all_but_templates(tmp_path)
    again = sheets(env, "reference", "wotw", "-o", tmp_path / "b.pdf")
    assert again.returncode == 0, again.stderr
    assert again.stderr.strip().splitlines() == first.stderr.strip().splitlines()  # nothing said about it
    assert _words(tmp_path / "b.pdf") == _words(tmp_path / "a.pdf")
    # compiled again and kept, sealed: the next command reads them
    assert all(unsealed(p.read_bytes()) is not None for p in _compiled(tmp_path))


def _left(tmp: Path) -> list[str]:
    """WeasyPrint's folders and the commands' scratch folders in the temporary folder, nested included."""
    return sorted(str(p.relative_to(tmp)) for p in tmp.rglob("*")
                  if p.is_dir() and (p.name.startswith("weasyprint-") or p.name.startswith(scratch.PREFIX)))


def test_a_kit_leaves_no_scratch_in_the_temporary_folder(tmp_path):
    env = _env(tmp_path)
    kit = sheets(env, "kit", "--seed", "1", "--game", "platoon", "--game", "wotw", "-o", tmp_path / "kit")
    assert kit.returncode == 0, kit.stderr
    assert list((tmp_path / "kit").glob("*.pdf"))
    assert _left(tmp_path / "tmp") == []


def test_a_killed_commands_scratch_is_swept_by_the_next_run(tmp_path):
    env = _env(tmp_path)
    tmp = tmp_path / "tmp"
    proc = subprocess.Popen([sys.executable, "-m", "sheets", "kit", "--seed", "1", "-o", str(tmp_path / "kit")],
                            cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    try:
        # killed once WeasyPrint has made its folder of fonts in the command's scratch
        while proc.poll() is None and not any("weasyprint-" in p for p in _left(tmp)):
            time.sleep(0.05)
        assert proc.poll() is None, "the kit ended before it laid out a page"
        os.killpg(proc.pid, signal.SIGKILL)
    finally:
        proc.wait()
    left = _left(tmp)
    assert any(p.startswith(scratch.PREFIX) for p in left), left  # SIGKILL: nothing could remove it
    assert not any(p.startswith("weasyprint-") for p in left), left  # and WeasyPrint's is inside it
    time.sleep(0.5)  # its workers see their pipe close and end
    nxt = sheets(env, "gauges", "platoon", "-o", tmp_path / "g.pdf")
    assert nxt.returncode == 0, nxt.stderr
    assert _left(tmp) == []

"""The native libraries' names (sheets.base.libraries): asked once per state of the machine."""
from __future__ import annotations

import ctypes.util
import json
import os
import subprocess
import sys

import pytest

from sheets.base import cachedir, libraries

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux") or not libraries.LOADER_CACHE.exists(),
                                reason="the record is kept on Linux, where a miss runs ldconfig and gcc")


def test_a_name_is_asked_once_then_answered_from_the_record(tmp_path, monkeypatch):
    asked = []

    def find_library(name):
        asked.append(name)
        return {"gobject-2.0": "libgobject-2.0.so.0"}.get(name)

    monkeypatch.setattr(ctypes.util, "find_library", find_library)
    for _ in range(2):
        with libraries.remembered(tmp_path):
            assert ctypes.util.find_library("libgobject-2.0-0") is None
            assert ctypes.util.find_library("gobject-2.0") == "libgobject-2.0.so.0"
        assert ctypes.util.find_library is find_library  # put back after the block
    assert asked == ["libgobject-2.0-0", "gobject-2.0"]
    record = libraries.record_path(tmp_path)
    assert json.loads(cachedir.unsealed(record.read_bytes())) == {"gobject-2.0": "libgobject-2.0.so.0",
                                                                  "libgobject-2.0-0": None}


def test_another_search_path_or_a_damaged_record_asks_again(tmp_path, monkeypatch):
    monkeypatch.setattr(ctypes.util, "find_library", lambda name: f"lib{name}.so.1")
    monkeypatch.setenv("LD_LIBRARY_PATH", "/opt/a")
    first = libraries.record_path(tmp_path)
    monkeypatch.setenv("LD_LIBRARY_PATH", "/opt/b")
    assert libraries.record_path(tmp_path) != first  # a new path may hold a new library
    path = libraries.record_path(tmp_path)
    whole = cachedir.sealed(json.dumps({"pango-1.0": "libpango-1.0.so.9"}).encode())
    path.write_bytes(whole[:-10])  # cut short: its seal does not match
    with libraries.remembered(tmp_path):
        assert ctypes.util.find_library("pango-1.0") == "libpango-1.0.so.1"
    assert json.loads(cachedir.unsealed(path.read_bytes())) == {"pango-1.0": "libpango-1.0.so.1"}


def test_weasyprint_imported_with_a_record_finds_the_same_libraries(tmp_path):
    """The second import, answered from the record the first wrote, loads the same files."""
    code = ("import sys\nfrom sheets.pipeline import rendering\nrendering.warm_up()\n"
            "print(sorted({line.split()[-1] for line in open('/proc/self/maps') "
            "if any(n in line for n in ('pango', 'harfbuzz', 'fontconfig', 'gobject'))}))")
    env = {**os.environ, "SHEETS_CACHE_DIR": str(tmp_path)}
    runs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
            for _ in range(2)]
    assert [r.returncode for r in runs] == [0, 0], runs[0].stderr
    assert runs[0].stdout == runs[1].stdout and "libpango-1.0.so" in runs[0].stdout
    assert len(list(tmp_path.glob("libraries-*.json"))) == 1

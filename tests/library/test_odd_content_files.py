"""Content reads only regular files (issue 50): a FIFO, a link to /dev/zero and a link out of the folder
anywhere in a content folder never block or feed a reader; `validate` names each in one line and
exits 1, and the kit (its up-to-date check reads the folder whole) still prints."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from sheets.base import paths
from sheets.base.userfiles import content_files


def _odd_content(tmp_path: Path) -> tuple[Path, str]:
    content = tmp_path / "content"
    shutil.copytree(paths.content_dir(), content)
    game = sorted(p.parent.name for p in content.glob("*/game.yaml"))[0]
    os.mkfifo(content / game / "pipe.yaml")
    (content / game / "zero.yaml").symlink_to("/dev/zero")
    outside = tmp_path / "elsewhere.yaml"
    outside.write_text("title: not in the folder\n")
    (content / game / "linked.yaml").symlink_to(outside)
    return content, game


def _sheets(*args, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sheets", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=300)  # a FIFO read would block forever: the bound makes the hang a failure


def test_content_files_skips_what_is_not_a_regular_file_inside(tmp_path):
    content, game = _odd_content(tmp_path)
    files, skipped = content_files(content)
    assert {s.path.name for s in skipped} == {"pipe.yaml", "zero.yaml", "linked.yaml"}
    assert all(f.is_file() and not f.is_symlink() for f in files)
    assert (content / game / "game.yaml") in files


def test_validate_names_each_odd_file_and_the_kit_still_prints(tmp_path):
    content, game = _odd_content(tmp_path)
    result = _sheets("validate", "--content", str(content), cwd=tmp_path)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    for name, why in (("pipe.yaml", "named pipe"), ("zero.yaml", "outside"), ("linked.yaml", "outside")):
        lines = [line for line in result.stderr.splitlines() if f"{game}/{name}" in line]
        assert len(lines) == 1 and why in lines[0], result.stderr
    kit = _sheets("kit", "--seed", "1", "--content", str(content), "--game", game, "-o", str(tmp_path / "kit"),
                  cwd=tmp_path)
    assert kit.returncode == 0, kit.stderr[-2000:]
    assert (tmp_path / "kit" / "kit.pdf").is_file()

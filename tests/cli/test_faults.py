"""Faults of the environment end in one line naming what and where, exit 1, no traceback, no file left
(issue 50: every fault is one line): a giant --dice, a HOME that is not a folder, a file name past the
file system's limit (CLI and desk), a full disk."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
LONG = "a" * 300  # past every common file system's 255-byte limit for one name


def sheets(*args: str, cwd: Path, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sheets", *args], cwd=cwd, capture_output=True, text=True,
                          env={**os.environ, **(env or {})}, timeout=600)


def one_line(result: subprocess.CompletedProcess) -> str:
    assert result.returncode == 1, (result.returncode, result.stderr[-2000:])
    assert "Traceback" not in result.stderr, result.stderr[-2000:]
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr[-2000:]
    return lines[0]


@pytest.mark.parametrize("command", [("mission",), ("playbook", "--random")])
def test_a_5000_digit_die_is_one_line(tmp_path, command):
    line = one_line(sheets(*command, "--dice", "1" * 5000, "-o", str(tmp_path / "x.pdf"), cwd=tmp_path))
    assert "--dice: entry 1" in line and "5,000 characters" in line
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("home", ["/dev/null", "a-file"])
@pytest.mark.parametrize("command", [("list",), ("validate",), ("reference", "platoon")])
def test_a_home_that_is_not_a_folder_is_one_line(tmp_path, home, command):
    if home == "a-file":
        (tmp_path / "a-file").write_text("not a folder\n")
        home = str(tmp_path / "a-file")
    line = one_line(sheets(*command, cwd=tmp_path, env={"HOME": home}))
    assert f"HOME is {home}, which is not a folder" in line
    assert sorted(p.name for p in tmp_path.iterdir()) == (["a-file"] if home.endswith("a-file") else [])


def test_file_names_past_the_limit_are_one_line(tmp_path):
    assert "name is longer than the file system allows" in one_line(sheets("new", "game", LONG, cwd=tmp_path))
    line = one_line(sheets("new", "character", "soldier", f"{LONG}.yaml", cwd=tmp_path))
    assert "name is longer than the file system allows" in line and "(305 characters)" in line
    line = one_line(sheets("campaign", "adjust", f"{LONG}.yaml", "--reason", "x", "--cp", "1", cwd=tmp_path))
    assert "name is longer than the file system allows" in line
    assert [p for p in tmp_path.rglob("*") if p.is_file()] == []


def test_the_desk_says_a_name_too_long_as_the_cli_does(tmp_path):
    sys.path.insert(0, str(REPO / "tests" / "web"))
    from deskfixtures import Desk
    workspace = tmp_path / "ws"
    workspace.mkdir()
    desk = Desk(workspace)
    page = desk.post("/wotw/campaign/new", {"file": f"{LONG}.yaml", "nation": "german", "theatre": "france-1944",
                                            "team": "random", "seed": "3"})
    assert page.status_code == 400, page.status_code
    assert "name is longer than the file system allows" in page.text


def _small_disk(tmp_path: Path, size: str) -> Path:
    """A tmpfs of `size` mounted for the test (root only: the machines `make test` runs on as CI are)."""
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("mounting a small disk needs root")
    disk = tmp_path / "disk"
    disk.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(disk)], capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode()[:200]}")
    return disk


@pytest.mark.parametrize("command", [("playbook", "--random", "--count", "100", "--seed", "1", "-o", "out/pb.pdf"),
                                     ("mission", "--count", "20", "--seed", "3", "-o", "out/m.pdf"),
                                     ("kit", "--seed", "1", "--game", "platoon", "-o", "out/kit")])
def test_a_full_disk_is_one_line_and_leaves_no_file(tmp_path, command):
    disk = _small_disk(tmp_path, "400k")
    try:
        line = one_line(sheets(*command, cwd=disk))
        assert "disk is full" in line or "No space left" in line, line
        # no temporary file, no scratch folder; a kit's parts finished before the disk filled are
        # whole files (each written atomically) and no kit.pdf or manifest claims a whole kit
        left = [p for p in disk.rglob("*") if p.name.endswith(".tmp") or p.name.startswith(".")
                or p.name in ("kit.pdf", "manifest.json")]
        assert left == [], left
        if command[0] != "kit":
            assert [p for p in disk.rglob("*") if p.is_file()] == []
    finally:
        subprocess.run(["umount", str(disk)], check=False)

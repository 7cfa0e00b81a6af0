"""A batch streams: the peak memory of `playbook --random --count N` does not grow with N.

Issue 38: stamped files used to be finished by reading the whole file back into pikepdf,
so memory grew by ~1.4 MB a playbook (1,000 playbooks: 1.6 GB). Now every page is tagged
as it is written (sheets.pipeline.stamp.tagged) and only numbers are kept for the end.
A resource check, not a timing: the peak resident memory of the whole process tree (the
command and its workers, sampled from /proc) for 500 playbooks is at most 20 % above the
peak for 50. Both runs use a warm cache (the blanks laid out once before), so that the
comparison is of stamping and writing only.
"""
from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")


def _tree_rss(pid: int) -> int:
    """Sum of the resident memory (bytes) of `pid` and all its descendants."""
    parents: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    page = os.sysconf("SC_PAGE_SIZE")
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            parents.setdefault(int(fields[1]), []).append(int(d))
            rss[int(d)] = int(fields[21]) * page
        except (OSError, ValueError, IndexError):
            pass
    total, stack = 0, [pid]
    while stack:
        p = stack.pop()
        total += rss.get(p, 0)
        stack.extend(parents.get(p, []))
    return total


def _peak(count: int, out: Path) -> int:
    proc = subprocess.Popen([sys.executable, "-m", "sheets", "playbook", "--random", "--seed", "5",
                             "--count", str(count), "-o", str(out)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=os.environ.copy())
    high = [0]

    def sample() -> None:
        while proc.poll() is None:
            high[0] = max(high[0], _tree_rss(proc.pid))
            time.sleep(0.02)

    watcher = threading.Thread(target=sample, daemon=True)
    watcher.start()
    _, err = proc.communicate(timeout=900)
    watcher.join()
    assert proc.returncode == 0, err.decode()[-500:]
    return high[0]


def test_peak_memory_does_not_grow_with_the_count(tmp_path):
    _peak(8, tmp_path / "warm.pdf")  # every kind of playbook's blank, laid out and cached
    small = _peak(50, tmp_path / "fifty.pdf")
    large = _peak(500, tmp_path / "five-hundred.pdf")
    assert large <= small * 1.2, f"peak {large / 1e6:.0f} MB for 500 playbooks, {small / 1e6:.0f} MB for 50"

"""A batch streams: the peak memory of `playbook --random --count N` does not grow with N.

Issue 38: stamped files used to be finished by reading the whole file back into pikepdf,
so memory grew by ~1.4 MB a playbook (1,000 playbooks: 1.6 GB). Now every page is tagged
as it is written (sheets.pdf.tagged) and only numbers are kept for the end.
A resource check, not a timing: the peak resident memory of the whole process tree (the
command and its workers, sampled from /proc) for 500 playbooks is at most 20 % above the
peak for 50. Both runs use a warm cache (the blanks laid out once before), so that the
comparison is of stamping and writing only.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from conftest import REPO

sys.path.insert(0, str(REPO / "benchmarks"))
from run import run  # noqa: E402 - benchmarks/run.py's sampler of a command's whole process tree

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")


def _peak(count: int, out: Path) -> int:
    """The peak resident memory of the whole process tree, sampled as `make bench` samples it."""
    return run(["playbook", "--random", "--seed", "5", "--count", str(count), "-o", str(out)], os.environ.copy())[1]


def test_peak_memory_does_not_grow_with_the_count(tmp_path):
    _peak(8, tmp_path / "warm.pdf")  # every kind of playbook's blank, laid out and cached
    small = _peak(50, tmp_path / "fifty.pdf")
    large = _peak(500, tmp_path / "five-hundred.pdf")
    assert large <= small * 1.2, f"peak {large / 1e6:.0f} MB for 500 playbooks, {small / 1e6:.0f} MB for 50"


def test_the_sampler_sums_the_whole_process_tree_as_a_scan_of_proc_does():
    """benchmarks/run.py walks the command's own tree (its `children` files) instead of scanning
    every process each 10 ms: the same sum, a child's child included."""
    import subprocess
    import time

    import run as bench

    code = ("import subprocess, sys, time\nx = bytearray(30_000_000)\n"
            "child = subprocess.Popen([sys.executable, '-c', "
            "'import subprocess, sys, time; y = bytearray(20_000_000); "
            "subprocess.Popen([sys.executable, \"-c\", \"import time; z = bytearray(10_000_000); time.sleep(3)\"]); "
            "time.sleep(3)'])\ntime.sleep(3)\n")
    tree = subprocess.Popen([sys.executable, "-c", code])
    try:
        time.sleep(1.5)
        walked = bench._tree_rss(tree.pid)
        parents: dict[int, list[int]] = {}
        rss: dict[int, int] = {}
        for d in filter(str.isdigit, os.listdir("/proc")):
            try:
                fields = Path(f"/proc/{d}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            parents.setdefault(int(fields[1]), []).append(int(d))
            rss[int(d)] = int(fields[21]) * bench.PAGE
        scanned, stack, seen = 0, [tree.pid], 0
        while stack:
            p = stack.pop()
            scanned += rss.get(p, 0)
            seen += 1
            stack.extend(parents.get(p, []))
        assert seen == 3 and walked > 60_000_000
        assert abs(walked - scanned) < 2_000_000  # sampled a moment apart: a page or two
    finally:
        tree.kill()
        tree.wait()

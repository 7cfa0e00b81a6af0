"""The hostile audit's cases (issue 50) replayed on a checkout: `python benchmarks/hostile_cases.py`.

For each case (odd files in a content folder, the block-set summary, the validated blow-ups, a
`then:` naming a d66 table, a HOME that is no folder, a giant --dice, names past the file
system's limit, games copied from a plug-in game or named as a template folder) one row: wall
time, the peak RSS of the command's process tree (sampled every 10 ms, as benchmarks/run.py
does), exit code and the first line it printed; then the `weasyprint-*` folders left in the
temporary folder. The content is built by tests/library/test_content_limits.py's own builders.
A measure, not a test: the tests that hold each case are named in the issue's closing note.
"""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO / "tests"), str(REPO / "tests" / "library"), str(REPO / "benchmarks")]

import test_content_limits as limits_cases  # noqa: E402 - the tests' own content builders
import test_hostile  # noqa: E402
from run import _tree_rss  # noqa: E402 - benchmarks/run.py's sampler of a process tree

BLOCK_SET = "{% set x %}{% for i in range(999) %}Break {{ i }}{% endfor %}{% endset %}{{ x }}"
BLOW_UPS = ("then: ten terms of 999", "a ruler ticked every 0.0000001", "100,000 rings", "a 60,000-row table",
            "then: naming a d66 table")


def measure(name: str, args: list, cwd: Path, env: dict | None = None, timeout: float = 600) -> tuple:
    """(name, wall time, peak tree RSS, exit code, first line printed) of `python -m sheets ARGS`."""
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "sheets", *map(str, args)], cwd=cwd, env={**os.environ, **(env or {})},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
    high, done = [0], threading.Event()

    def sample() -> None:
        while not done.wait(0.01):
            high[0] = max(high[0], _tree_rss(proc.pid))

    threading.Thread(target=sample, daemon=True).start()
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
        err = b"(killed at the timeout)\n" + err
    done.set()
    took = time.perf_counter() - start
    text = (err or out).decode(errors="replace").strip().splitlines()
    problems = [line.strip() for line in text if line.startswith("  ")]
    first = problems[0] if problems else (text[0] if text else "")
    return name, f"{took:.2f} s", f"{high[0] / 1e6:.0f} MB", proc.returncode, first[:170]


def main() -> None:
    work = Path(tempfile.mkdtemp(prefix="hostile-"))

    def content(fixture: bool = False) -> Path:
        return limits_cases._content(Path(tempfile.mkdtemp(dir=work)), fixture)

    rows = []
    root = content()
    game = sorted(p.parent.name for p in root.glob("*/game.yaml"))[0]
    os.mkfifo(root / game / "pipe.yaml")
    (root / game / "zero.yaml").symlink_to("/dev/zero")
    rows.append(measure("FIFO + /dev/zero link: validate", ["validate", "--content", root], work))
    rows.append(measure("FIFO + /dev/zero link: kit --seed 1",
                        ["kit", "--seed", "1", "--content", root, "--game", game, "-o", work / "k1"], work))
    root = content(fixture=True)
    trackers = root / "skirmish" / "trackers.yaml"
    summary = "summary: " + repr(BLOCK_SET).replace("\\\\", "\\")
    trackers.write_text(trackers.read_text().replace(test_hostile.SUMMARY, summary))
    rows.append(measure("block {% set %} summary: validate", ["validate", "--content", root], work))
    for case in BLOW_UPS:
        make, fixture, *_ = limits_cases.BLOW_UPS[case]
        root = content(fixture)
        make(root)
        rows.append(measure(f"{case}: validate", ["validate", "--content", root], work))
    root = content()
    limits_cases._then(root, "objective", "2+1d3")
    rows.append(measure("then: a d66 table: mission", ["mission", "--seed", "1", "--content", root, "-o", work / "m.pdf"], work))
    rows.append(measure("HOME=/dev/null: list", ["list"], work, {"HOME": "/dev/null"}))
    rows.append(measure("HOME=/dev/null: reference", ["reference", "platoon", "-o", work / "r.pdf"], work, {"HOME": "/dev/null"}))
    rows.append(measure("--dice of 5,000 digits: mission", ["mission", "--dice", "1" * 5000, "-o", work / "d.pdf"], work))
    rows.append(measure("300-character name: new character", ["new", "character", "soldier", "a" * 300 + ".yaml"], work))
    rows.append(measure("300-character name: new game", ["new", "game", "a" * 300], work))
    rows.append(measure("new game my-wotw --from wotw", ["new", "game", "my-wotw", "--from", "wotw", "--content", work / "c"], work))
    rows.append(measure("  its kit", ["kit", "--content", work / "c", "--game", "my-wotw", "--seed", "7", "-o", work / "kw"], work))
    rows.append(measure("new game web", ["new", "game", "web", "--content", work / "cw"], work))
    rows.append(measure("  its reference", ["reference", "web", "--content", work / "cw", "-o", work / "web.pdf"], work))
    for row in rows:
        print(" | ".join(map(str, row)))
    left = [p for p in Path(tempfile.gettempdir()).iterdir() if p.name.startswith("weasyprint-")]
    print("weasyprint-* folders in the temporary folder:", len(left))


if __name__ == "__main__":
    main()

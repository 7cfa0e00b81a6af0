"""Time and peak memory of the largest job each command allows (issue 11).

    .venv/bin/python benchmarks/limits.py            # every job
    .venv/bin/python benchmarks/limits.py trackers   # jobs whose label contains 'trackers'

Each job runs as its own `sheets` process; wall time, CPU time (user + system:
what the wall time is on an idle machine, for single-process jobs), the child's
peak RSS (os.wait4's rusage) and the load average are printed. The maxima in sheets/base/limits.py are chosen so that
every line stays under 60 s and 1 GB on a 2-core machine.
"""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from sheets.base import limits  # noqa: E402

SHEETS = [sys.executable, "-m", "sheets"]
T = "--tracker"


def jobs(out: Path) -> list[tuple[str, list[str]]]:
    n = limits.MAX_TRACKER_BOXES
    return [
        (f"playbook --random --count {limits.MAX_SOLDIERS}",
         ["playbook", "--random", "--count", str(limits.MAX_SOLDIERS), "--seed", "1", "-o", str(out / "p.pdf")]),
        (f"mission --count {limits.MAX_MISSIONS}",
         ["mission", "--count", str(limits.MAX_MISSIONS), "--seed", "1", "-o", str(out / "m.pdf")]),
        (f"trackers {limits.MAX_TEAMS} teams x 10 x {n // limits.MAX_TEAMS // 10} ({n} boxes, --names)",
         ["trackers", "regiment", T, "npc-strength", "--teams", str(limits.MAX_TEAMS), "--soldiers", "10",
          "--strength", str(n // limits.MAX_TEAMS // 10), "--names", "--seed", "1", "-o", str(out / "t1.pdf")]),
        (f"trackers 4 teams x {limits.MAX_GROUPS} x {limits.MAX_BOXES} ({4 * limits.MAX_GROUPS * limits.MAX_BOXES} boxes)",
         ["trackers", "regiment", T, "npc-strength", "--teams", "4", "--soldiers", str(limits.MAX_GROUPS),
          "--strength", str(limits.MAX_BOXES), "-o", str(out / "t2.pdf")]),
        (f"trackers grid {limits.MAX_TEAMS} rows",
         ["trackers", "masscombat", "--units", str(limits.MAX_TEAMS), T, "waves", "-o", str(out / "t3.pdf")]),
        (f"tokens platoon --copies {limits.MAX_COPIES}",
         ["tokens", "platoon", "--copies", str(limits.MAX_COPIES), "-o", str(out / "k.pdf")]),
        (f"tokens downrange --copies {limits.MAX_TOKENS // 82} ({limits.MAX_TOKENS // 82 * 82} tokens)",
         ["tokens", "downrange", "--copies", str(limits.MAX_TOKENS // 82), "-o", str(out / "k2.pdf")]),
        ("kit (every game, no cache)", ["kit", "--no-cache", "--seed", "1", "-o", str(out / "kit")]),
    ]


def run(args: list[str]) -> tuple[float, float, int, int]:
    start = time.monotonic()
    proc = subprocess.Popen(SHEETS + args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    err = proc.stderr.read().decode()
    if proc.returncode:
        print(err, file=sys.stderr)
    return time.monotonic() - start, usage.ru_utime + usage.ru_stime, usage.ru_maxrss // 1024, proc.returncode


def main() -> None:
    wanted = sys.argv[1:]
    with tempfile.TemporaryDirectory() as tmp:
        for label, args in jobs(Path(tmp)):
            if wanted and not any(w in label for w in wanted):
                continue
            seconds, cpu, mb, code = run(args)
            print(f"{label:<55} {seconds:6.1f} s wall {cpu:6.1f} s CPU {mb:5d} MB peak RSS  exit {code}   "
                  f"load {os.getloadavg()[0]:.1f}   sheets {' '.join(args[:-2])}", flush=True)


if __name__ == "__main__":
    main()

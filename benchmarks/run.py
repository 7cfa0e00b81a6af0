"""Speed benchmarks (not tests): `make bench` or `python benchmarks/run.py`.

Measures the DESIGN.md targets on this machine and prints one line each:
`sheets --help`, a cold kit, a cached rebuild, and data-only dice work.
"""
from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def timed(cmd: list[str], runs: int = 1) -> float:
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True, cwd=REPO)
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    py = sys.executable
    print(f"sheets --help            {timed([py, '-m', 'sheets', '--help'], runs=5):6.3f} s  (target < 0.3 s)")
    out = Path(tempfile.mkdtemp()) / "kit"
    cold = timed([py, "-m", "sheets", "kit", "--seed", "1", "-o", str(out)])
    n_pages = 0
    import pypdf

    for pdf in out.glob("*.pdf"):
        n_pages += len(pypdf.PdfReader(str(pdf)).pages)
    print(f"kit cold ({n_pages:3d} pages)    {cold:6.3f} s  (target < 6 s for 30 pages)")
    warm = timed([py, "-m", "sheets", "kit", "--seed", "1", "-o", str(out)])
    print(f"kit rebuild, unchanged   {warm:6.3f} s  (target < 1 s)")
    shutil.rmtree(out.parent)
    extra = Path(__file__).with_name("data_only.py")
    if extra.exists():
        subprocess.run([py, str(extra)], check=True, cwd=REPO)


if __name__ == "__main__":
    main()

"""The desk's figures for `make bench` (issue 20): `python benchmarks/desk.py` prints them as JSON.

Starts `sheets serve` as a real server on a scratch workspace (one character file), then:
  start_s           from launch to the first page answered
  form_p95_s        95th percentile of 100 loads of the character form (a file opened), over loopback
  preview_warm_s    median of 5 live previews (PNG of the filled playbook) after a first one
  previews20_s      20 previews asked at once, until the last arrives
  previews20_peak   the server's peak RSS (bytes, its whole process tree) meanwhile
"""
from __future__ import annotations

import http.client
import json
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlencode

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run import PY, REPO, _tree_rss  # noqa: E402

CHAR = {"playbook": "soldier", "name": "Hans Weber", "rank": "Corporal", "profile": "Cool",
        "background": "Athlete", "stat_set": "2", "moves": ["Battle tested", "Stone cold"], "loadout": "SMG"}


def _get(port: int, path: str) -> tuple[int, float]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    start = time.perf_counter()
    conn.request("GET", path)
    response = conn.getresponse()
    response.read()
    conn.close()
    return response.status, time.perf_counter() - start


def _preview(name: str) -> str:
    return "/regiment/character/preview.png?" + urlencode({**CHAR, "name": name}, doseq=True)


def main() -> None:
    work = Path(tempfile.mkdtemp(prefix="sheets-bench-desk-"))
    (work / "characters").mkdir()
    shutil.copy(REPO / "content" / "regiment" / "characters" / "ada-mercer.yaml", work / "characters" / "ada.yaml")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    start = time.perf_counter()
    server = subprocess.Popen([PY, "-m", "sheets", "serve", "--no-open", "--port", str(port), "--workspace", str(work)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        while True:
            try:
                if _get(port, "/")[0] == 200:
                    break
            except OSError:
                time.sleep(0.01)
        start_s = time.perf_counter() - start
        times = sorted(_get(port, "/regiment/character?file=characters/ada.yaml")[1] for _ in range(100))
        form_p95 = times[94]
        _get(port, _preview("Warm Up"))  # the blank laid out once, as after any first preview
        warm = statistics.median(_get(port, _preview(f"Soldier {i}"))[1] for i in range(5))
        peak = _tree_rss(server.pid)
        done = threading.Event()

        def sample():
            nonlocal peak
            while not done.is_set():
                peak = max(peak, _tree_rss(server.pid))
                time.sleep(0.01)
        sampler = threading.Thread(target=sample)
        sampler.start()
        t0 = time.perf_counter()
        threads = [threading.Thread(target=_get, args=(port, _preview(f"Private {i}"))) for i in range(20)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        many = time.perf_counter() - t0
        done.set()
        sampler.join()
    finally:
        server.terminate()
        server.wait(10)
        shutil.rmtree(work, ignore_errors=True)
    print(json.dumps({"start_s": start_s, "form_p95_s": form_p95, "preview_warm_s": warm, "previews20_s": many,
                      "previews20_peak": peak}))


if __name__ == "__main__":
    main()

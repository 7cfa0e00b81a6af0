"""`sheets serve --port P` with P taken: one line on stderr naming a free port to try, exit 1,
no traceback and no uvicorn ERROR line; nothing printed before it (no URL of a desk that is not there)."""
from __future__ import annotations

import re
import socket
import subprocess
import sys

from sheets.web.app import free_port


def test_a_busy_port_is_one_line_naming_a_free_one(tmp_path):
    with socket.socket() as taken:
        taken.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn binds: must still be refused
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run([sys.executable, "-m", "sheets", "serve", "--port", str(port), "--no-open",
                               "--workspace", str(tmp_path)], capture_output=True, text=True, timeout=120)
        assert done.returncode == 1, done
        assert done.stdout == ""
        lines = done.stderr.splitlines()
        assert len(lines) == 1, done.stderr
        found = re.fullmatch(rf"error: port {port} is in use; try --port (\d+)", lines[0])
        assert found, lines[0]
        suggested = int(found.group(1))
        assert suggested > port
        with socket.socket() as probe:  # the port it suggests can be had
            probe.bind(("127.0.0.1", suggested))
    assert "Traceback" not in done.stderr and "ERROR" not in done.stderr


def test_the_suggestion_skips_ports_that_are_busy_too():
    held = []
    try:
        first = socket.socket()
        first.bind(("127.0.0.1", 0))
        first.listen()
        held.append(first)
        port = first.getsockname()[1]
        try:
            second = socket.socket()
            second.bind(("127.0.0.1", port + 1))
            second.listen()
            held.append(second)
        except OSError:
            pass  # port + 1 was busy already: either way it is not the suggestion
        suggestion = free_port("127.0.0.1", port)
        assert suggestion is not None and suggestion >= port + 2
    finally:
        for sock in held:
            sock.close()

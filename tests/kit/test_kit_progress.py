"""`sheets kit` in a terminal shows a progress bar while it builds; piped, or up to date, it
prints only its lines (and an up-to-date kit does not even import Rich: issue 38's warm kit)."""
from __future__ import annotations

import os
import pty
import select
import subprocess
import sys

from conftest import REPO


def _in_a_terminal(args: list[str], env: dict) -> tuple[int, str]:
    """Run `python -m sheets ARGS` with a pseudo-terminal as its stdout and stderr."""
    main, child = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "sheets", *args], cwd=REPO, env=env, stdin=subprocess.DEVNULL,
                            stdout=child, stderr=child, close_fds=True)
    os.close(child)
    said = b""
    while True:
        ready, _, _ = select.select([main], [], [], 300)
        if not ready:
            proc.kill()
            break
        try:
            chunk = os.read(main, 65536)
        except OSError:  # the terminal's other end closed: the command ended
            break
        if not chunk:
            break
        said += chunk
    os.close(main)
    return proc.wait(timeout=60), said.decode("utf-8", "replace")


def test_the_kit_shows_a_bar_in_a_terminal_and_none_when_it_is_up_to_date(tmp_path):
    env = dict(os.environ, COLUMNS="120")
    out = tmp_path / "kit"
    code, said = _in_a_terminal(["kit", "--game", "downrange", "--seed", "3", "-o", str(out)], env)
    assert code == 0, said
    assert "building kit" in said or "built " in said, said  # Rich's bar, while the parts were made
    assert "kit.pdf" in said

    code, said = _in_a_terminal(["kit", "--game", "downrange", "--seed", "3", "-o", str(out)], env)
    assert code == 0 and "up to date" in said, said
    assert "building kit" not in said and "built " not in said, said

    trace = subprocess.run([sys.executable, "-X", "importtime", "-m", "sheets", "kit", "--game", "downrange",
                            "--seed", "3", "-o", str(out)], cwd=REPO, env=env, capture_output=True, text=True)
    assert trace.returncode == 0 and "up to date" in trace.stdout, trace.stdout + trace.stderr
    imported = {line.rsplit("|", 1)[-1].strip() for line in trace.stderr.splitlines() if line.startswith("import time:")}
    assert "rich.progress" not in imported and "yaml" not in imported, sorted(m for m in imported if "rich" in m or "yaml" in m)

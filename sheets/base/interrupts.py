"""Stopping cleanly: the moments a Ctrl-C or SIGTERM must wait for, and where a command is.

`held()` makes a short critical section (starting a worker process, creating a
temporary file, stopping the workers) whole: SIGINT and SIGTERM are blocked in this
thread for its duration and delivered, as usual, the moment it ends. A process started
inside it begins with both blocked, so a Ctrl-C sent to the whole process group while
a worker is still starting cannot print a traceback from the worker: the worker
ignores SIGINT before it unblocks them (`sheets.pipeline.workers`).

`phase(name)`: when SHEETS_PHASE_FILE names a file, each phase of a long command
appends a line `<unix time> <name>` to it, so that a test which interrupts the command
can say what it interrupted. Nothing is written otherwise.
"""
from __future__ import annotations

import os
import signal
import threading
import time
from contextlib import contextmanager
from typing import Iterator

STOPPING = {signal.SIGINT, signal.SIGTERM}


@contextmanager
def held() -> Iterator[None]:
    """SIGINT and SIGTERM wait until the block ends (only the main thread handles them)."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "pthread_sigmask"):
        yield  # only the main thread handles signals (and Windows has no signal mask)
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, STOPPING)
    try:
        yield
    finally:
        # a signal that came meanwhile is delivered here, and its handler raises as usual
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def release() -> None:
    """Unblock SIGINT and SIGTERM (in a worker process, which started with them held)."""
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, STOPPING)


def phase(name: str) -> None:
    path = os.environ.get("SHEETS_PHASE_FILE")
    if path:
        with open(path, "a", encoding="utf-8") as handle:
            handle.write(f"{time.time():.3f} {name}\n")

"""The worker processes that use every core: one pool per command, one way to stop it.

WeasyPrint is imported in the workers (spawned, so the parent never pays its import
unless it lays something out itself); Ctrl-C and SIGTERM are the parent's business:
it stops every worker (`Workers.stop`) before the exception goes on.
"""
from __future__ import annotations

import os
import signal
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from multiprocessing import get_context
from typing import Callable

from sheets import rendering
from sheets.paths import FIXED_EPOCH


def cores() -> int:
    try:
        return max(len(os.sched_getaffinity(0)), 1)
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def _worker_init() -> None:
    """Workers leave Ctrl-C to the parent, which stops them (and cleans up) itself."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    os.environ.setdefault("SOURCE_DATE_EPOCH", FIXED_EPOCH)


def _warm_up() -> None:
    rendering.warm_up()


def _new_pool(workers: int) -> ProcessPoolExecutor:
    os.environ.setdefault("SOURCE_DATE_EPOCH", FIXED_EPOCH)
    return ProcessPoolExecutor(max_workers=workers, mp_context=get_context("spawn"), initializer=_worker_init)


def _stop(pool: ProcessPoolExecutor) -> None:
    """Stop every worker now (interrupted or failed): terminate, then kill what is left."""
    procs = list((getattr(pool, "_processes", None) or {}).values())
    for p in procs:
        try:
            p.terminate()
        except (OSError, ValueError):
            pass
    for p in procs:
        try:
            p.join(1.0)
            if p.is_alive():
                p.kill()
                p.join(0.5)
        except (OSError, ValueError, AssertionError):
            pass
    pool.shutdown(wait=False, cancel_futures=True)


class Workers:
    """Worker processes shared by several `run_jobs` calls of one command (started on
    first use), so that a job in phases (lay out the blanks, then stamp) starts them once.

        with Workers(n) as shared:
            run_jobs(f, jobs, n, shared=shared); run_jobs(g, more, n, shared=shared)
    """

    def __init__(self, workers: int | None = None):
        self.workers = workers if workers is not None else cores()
        self.pool: ProcessPoolExecutor | None = None

    def get(self) -> ProcessPoolExecutor:
        if self.pool is None:
            self.pool = _new_pool(self.workers)
        return self.pool

    def warm(self) -> None:
        """Start every worker now (each imports WeasyPrint), before the first job is known."""
        if self.workers > 1:
            pool = self.get()
            for _ in range(self.workers):
                pool.submit(_warm_up)

    def close(self) -> None:
        """Let the workers finish and go (their part of the command is done)."""
        if self.pool is not None:
            self.pool.shutdown(wait=True)
            self.pool = None

    def stop(self) -> None:
        """Stop every worker now (interrupted or failed)."""
        if self.pool is not None:
            _stop(self.pool)
            self.pool = None

    def __enter__(self) -> "Workers":
        return self

    def __exit__(self, kind, exc, tb) -> None:
        if kind is None:
            self.close()
        else:
            self.stop()


def run_jobs(fn: Callable, jobs: list[tuple], workers: int | None = None,
             on_done: Callable[[int], None] | None = None, weight: Callable[[tuple], int] | None = None,
             shared: Workers | None = None, idle: Callable[[], bool] | None = None) -> list:
    """`fn(*job)` for each job, in order: in this process for one job, else on every core.

    Workers are spawned (they import WeasyPrint themselves), or taken from `shared`; on
    Ctrl-C, SIGTERM or an error every worker is stopped before the exception goes on.
    While workers work, `idle()` is called for small units of the caller's own next work
    (it returns False when it has nothing left).
    """
    results: list = [None] * len(jobs)
    workers = min(workers if workers is not None else cores(), len(jobs))
    # one job runs here, unless this process has its own work to do meanwhile (`idle`)
    if workers <= 1 and not (jobs and idle is not None and shared is not None and shared.workers > 1):
        for i, job in enumerate(jobs):
            results[i] = fn(*job)
            if on_done:
                on_done(i)
        return results
    pool = shared.get() if shared is not None else _new_pool(workers)
    try:
        # the biggest jobs first, so that the workers finish at about the same time
        order = sorted(range(len(jobs)), key=lambda i: -(weight(jobs[i]) if weight else 0))
        futures = {pool.submit(fn, *jobs[i]): i for i in order}
        pending, busy = set(futures), idle is not None
        while pending:
            busy = busy and idle()  # type: ignore[misc]
            done, pending = wait(pending, timeout=0 if busy else None, return_when=FIRST_COMPLETED)
            for future in sorted(done, key=lambda f: futures[f]):
                i = futures[future]
                results[i] = future.result()
                if on_done:
                    on_done(i)
    except BaseException:
        if shared is not None:
            shared.stop()
        else:
            _stop(pool)
        raise
    if shared is None:
        pool.shutdown(wait=True)
    return results

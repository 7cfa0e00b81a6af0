"""The worker processes that use every core: a plain pool, and one way to end it.

`Pool`: plain processes of our own (spawned: the parent never pays WeasyPrint's import unless
it lays something out itself), each with one pipe to this process: a job goes down, its result
or exception comes back. Every worker runs the pool's one warm-up as it starts (the layout
engine's imports for a pool that lays out, the stamper's for one that stamps), so that a pool
started before its jobs are known has its imports done meanwhile.

`pool.map(fn, jobs)` gives the results in the jobs' order, as the caller takes them; with `ahead`,
at most that many jobs are out (running, or done and not taken yet), so that what the workers
made and the caller has not used is bounded. The caller does its own work between two results,
may hand out the next jobs without waiting (`Results.poll`) and let the workers go once every
result is back (`Results.back`, `Pool.close`): the pool never calls the caller.

One way to end, `Pool.end`, taken by the pool's block (`with Pool() as pool`) and by a batch
that fails: its workers are asked to go and given GRACE seconds when their part is done, killed
at once otherwise (a worker holds nothing to clean up: the parent writes every file). `close()`
only asks them to go, so that they leave while the parent writes; the block's end waits for them.
Ctrl-C and SIGTERM are the parent's business: workers ignore SIGINT from the moment they start
(`sheets.base.interrupts.held`); a worker whose parent is gone sees its pipe close and ends too.
"""
from __future__ import annotations

import os
import pickle
import signal
import sys
import traceback
from collections import deque
from multiprocessing import get_context, resource_tracker
from multiprocessing.connection import Connection, wait
from typing import Any, Callable, Iterator

from sheets.base import interrupts, scratch
from sheets.base.errors import SheetsError
from sheets.base.paths import FIXED_EPOCH

GRACE = 5.0  # seconds a finished worker has to go before it is made to


def cores() -> int:
    try:
        return max(len(os.sched_getaffinity(0)), 1)
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def _sendable(exc: BaseException) -> BaseException:
    """The job's exception if it survives the pipe, else one that carries its traceback."""
    try:
        return pickle.loads(pickle.dumps(exc))
    except Exception:  # noqa: BLE001 - any exception that cannot be pickled
        return RuntimeError("".join(traceback.format_exception(exc)))


def _serve(conn: Connection, warm_up: Callable[[], Any] | None) -> None:
    """A worker: its warm-up, then jobs from the pipe until told to stop (None) or the parent is gone."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's business
    interrupts.release()  # it started with SIGINT and SIGTERM held
    os.environ.setdefault("SOURCE_DATE_EPOCH", FIXED_EPOCH)
    if warm_up is not None:
        try:
            warm_up()
        except Exception:  # noqa: BLE001 - only a head start: a job that needs it raises it itself
            pass
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return  # the parent is gone
        if job is None:  # asked to go: at once, without taking the interpreter apart (a tenth of
            _leave()     # a second with WeasyPrint loaded, that the command's end waited for)
        fn, args = job
        try:
            reply = (True, fn(*args))
        except Exception as exc:  # noqa: BLE001 - the parent re-raises it
            reply = (False, _sendable(exc))
        try:
            conn.send(reply)
        except (OSError, ValueError):
            return  # the parent is gone
        except Exception as exc:  # noqa: BLE001 - a result that cannot be pickled
            conn.send((False, _sendable(exc)))


def _leave() -> None:
    """A worker's end when asked to go: it holds nothing to clean up (the parent writes every
    file), so its streams are flushed and it exits now."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(0)


class WorkerLost(SheetsError):
    """A worker process ended in the middle of a job (killed, out of memory)."""


class _Worker:
    def __init__(self, process, conn: Connection):
        self.process = process
        self.conn = conn
        self.job: int | None = None  # the index of the job it runs (None: none)


class Pool:
    """`size` worker processes (every core by default), started on first use; see the module."""

    def __init__(self, size: int | None = None, warm_up: Callable[[], Any] | None = None):
        self.size = max(size if size is not None else cores(), 1)
        self.warm_up = warm_up
        self.workers: list[_Worker] = []
        self.leaving: list[_Worker] = []  # asked to go (`close`), not yet waited for
        self._context = get_context("spawn")

    @property
    def running(self) -> bool:
        return bool(self.workers)

    def start(self) -> None:
        """Start the workers (a pool of one has none: its jobs run here), each whole before a
        signal is handled; each runs the warm-up, then waits for its first job."""
        if self.size < 2:
            return
        os.environ.setdefault("SOURCE_DATE_EPOCH", FIXED_EPOCH)
        scratch.use()  # the workers' temporary files (WeasyPrint's fonts) in the command's folder: TMPDIR
        while len(self.workers) < self.size:
            interrupts.phase("workers starting")
            # multiprocessing's resource tracker, started with the first spawned process, blocks
            # SIGINT and SIGTERM for its own start and then *unblocks* them: started here, before
            # the signals are held, it cannot undo that hold (a Ctrl-C would reach a worker
            # still starting Python: "Fatal Python error: init_import_site ... KeyboardInterrupt")
            resource_tracker.ensure_running()
            with interrupts.held():
                mine, theirs = self._context.Pipe(duplex=True)
                process = self._context.Process(target=_serve, args=(theirs, self.warm_up), daemon=True,
                                                name=f"sheets-worker-{len(self.workers) + 1}")
                try:
                    process.start()
                finally:
                    theirs.close()  # when the worker ends, its pipe reads as closed here
                self.workers.append(_Worker(process, mine))

    def parallel(self, jobs: int) -> bool:
        """Whether `map` runs this many jobs on the workers: two or more, or one when the workers
        are running already (their imports are done; this process's need not be)."""
        return self.size > 1 and (jobs > 1 or (jobs == 1 and self.running))

    def map(self, fn: Callable, jobs: list[tuple], *, weight: Callable[[tuple], int] | None = None,
            ahead: int | None = None) -> "Results":
        """`fn(*job)` for every job, its results in the jobs' order (see the module); here, in
        order as they are taken, when not `parallel`. `weight`: the heaviest are handed out first
        (the workers finish about together; not with `ahead`). `ahead`: at most that many jobs
        out at once."""
        if weight is not None and ahead is not None:
            raise ValueError("ahead needs the jobs in order")  # a later job could hold the next one's place
        if not self.parallel(len(jobs)):
            return Results(None, fn, jobs, range(len(jobs)), None)
        if any(w.job is not None for w in self.workers):
            raise RuntimeError("a pool runs one batch at a time")
        order = sorted(range(len(jobs)), key=lambda i: -weight(jobs[i])) if weight else range(len(jobs))
        self.start()
        return Results(self, fn, jobs, order, ahead)

    def run(self, fn: Callable, jobs: list[tuple], weight: Callable[[tuple], int] | None = None) -> list:
        """Every result of `map`, as a list."""
        return list(self.map(fn, jobs, weight=weight))

    def close(self) -> None:
        """Ask every worker to go and go on at once (a Python with WeasyPrint loaded takes a tenth
        of a second to end): the block's end waits for them; a later batch starts new ones."""
        with interrupts.held():
            for worker in self.workers:
                try:
                    worker.conn.send(None)
                except (OSError, ValueError):
                    pass
            self.leaving += self.workers
            self.workers = []

    def end(self, graceful: bool) -> None:
        """The one way workers end. Graceful (their part is done): each is asked to go and
        given GRACE seconds. Then, and at once when interrupted or failed, whatever is left
        is killed. Signals wait until every worker is gone."""
        with interrupts.held():
            if graceful:
                self.close()
            workers, self.workers, self.leaving = self.workers + self.leaving, [], []
            for worker in workers if graceful else ():
                worker.process.join(GRACE)
            for worker in workers:
                if worker.process.exitcode is None:
                    worker.process.kill()
            for worker in workers:
                worker.process.join()
                worker.conn.close()
                worker.process.close()

    def __enter__(self) -> "Pool":
        return self

    def __exit__(self, kind, exc, tb) -> None:
        self.end(graceful=kind is None)


class Results:
    """One `Pool.map`'s results, in the jobs' order: iterate to take them (each waited for)."""

    def __init__(self, pool: Pool | None, fn: Callable, jobs: list[tuple], order, ahead: int | None):
        self._pool, self._fn, self._jobs = pool, fn, jobs
        self._queue = deque(order)  # not handed out yet
        self._done: dict[int, Any] = {}  # back, not taken yet
        self._next = 0  # the next to take
        self._ahead = max(ahead, 1) if ahead is not None else len(jobs)
        self.poll()

    def __len__(self) -> int:
        return len(self._jobs)

    @property
    def out(self) -> int:
        """Jobs out: running on a worker, or back and not taken yet (at most `ahead`)."""
        busy = sum(1 for w in self._pool.workers if w.job is not None) if self._pool is not None else 0
        return busy + len(self._done)

    @property
    def back(self) -> bool:
        """Every result is back (some perhaps not taken yet): the workers may go (`Pool.close`)."""
        return not self._queue and (self._pool is None or not any(w.job is not None for w in self._pool.workers))

    def __iter__(self) -> Iterator:
        return self

    def __next__(self):
        if self._next >= len(self._jobs):
            raise StopIteration
        if self._pool is None:  # a pool of one: the job runs here, when it is taken
            value = self._fn(*self._jobs[self._next])
        else:
            while self._next not in self._done:
                self._take(None)
            value = self._done.pop(self._next)
        self._next += 1
        return value

    def poll(self) -> None:
        """The results the workers have sent, taken in (without waiting), and the next jobs handed out."""
        if self._pool is not None:
            self._take(0)

    def _take(self, timeout: float | None) -> None:
        pool = self._pool
        assert pool is not None
        try:
            self._hand_out(pool)
            busy = [w for w in pool.workers if w.job is not None]
            if not busy:
                if timeout is None:  # waited for, and nothing will come: the workers were let go early
                    raise RuntimeError("the pool's workers were let go before every result was back")
                return
            answered = wait([w.conn for w in busy], timeout=timeout)
            for worker in busy:
                if worker.conn in answered:
                    i, worker.job = worker.job, None
                    self._done[i] = _reply(worker)  # type: ignore[index]
            self._hand_out(pool)
        except BaseException:
            pool.end(graceful=False)  # a failed or interrupted batch ends its pool's workers now
            raise

    def _hand_out(self, pool: Pool) -> None:
        out = self.out
        for worker in pool.workers:
            if not self._queue or out >= self._ahead:
                return
            if worker.job is None:
                i = worker.job = self._queue.popleft()
                worker.conn.send((self._fn, self._jobs[i]))
                out += 1


def _reply(worker: _Worker):
    try:
        ok, value = worker.conn.recv()
    except (EOFError, OSError):
        worker.process.join(1.0)  # its pipe closed as it died: how did it end?
        code = worker.process.exitcode
        how = f"signal {-code}" if code is not None and code < 0 else f"exit code {code}"
        raise WorkerLost(f"a worker process ended in the middle of a job ({how}); "
                         f"nothing half-written was left behind, run the command again") from None
    if not ok:
        raise value
    return value

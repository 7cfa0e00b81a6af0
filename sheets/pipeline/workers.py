"""The worker processes that use every core: one pool per command, one way to stop it.

A pool of plain processes of our own (spawned: the parent never pays WeasyPrint's
import unless it lays something out itself), each with one pipe to this process: a job
goes down, its result or exception comes back. There are no helper threads and no exit
hooks: every worker ends through `Pool.shutdown`, the one path, whether the command
finished (its workers are asked to go, then made to) or was interrupted or failed (they
are killed: a worker holds nothing to clean up). Ctrl-C and SIGTERM are the parent's
business: workers ignore SIGINT from the moment they start (`sheets.base.interrupts.held`);
a worker whose parent is gone sees its pipe close and ends too.
"""
from __future__ import annotations

import importlib
import os
import pickle
import signal
import sys
import threading
import traceback
from collections import deque
from contextlib import contextmanager
from multiprocessing import get_context, resource_tracker
from multiprocessing.connection import Connection, wait
from typing import Callable, Iterator

from sheets.base import interrupts
from sheets.base.errors import SheetsError
from sheets.base.paths import FIXED_EPOCH

GRACE = 5.0  # seconds a finished worker has to go before it is made to
# What a worker can make ready before its first job (`Pool.prepare`), by module name: the module
# imported and its `warm_up()` run, if it has one. Named, not imported, here: a command starts
# its workers (started_for) before it imports Jinja and the pipeline, so that they start meanwhile
LAYOUT = "sheets.pipeline.rendering"  # WeasyPrint imported, its fonts loaded
STAMPER = "sheets.pipeline.stamp.chunk"  # reportlab and pikepdf imported
# a batch's workers (`started_for`): a campaign's record is laid out in full (one worker makes the
# layout engine ready) while the other is ready to stamp; a squad's parts are all stamped
CAMPAIGN = (LAYOUT, STAMPER)
SQUAD = (STAMPER, STAMPER)


def cores() -> int:
    try:
        return max(len(os.sched_getaffinity(0)), 1)
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def _prepare(module: str) -> None:
    """A worker's warm-up: `module` imported, and its `warm_up()` run if it has one."""
    warm_up = getattr(importlib.import_module(module), "warm_up", None)
    if warm_up is not None:
        warm_up()


def _sendable(exc: BaseException) -> BaseException:
    """The job's exception if it survives the pipe, else one that carries its traceback."""
    try:
        return pickle.loads(pickle.dumps(exc))
    except Exception:  # noqa: BLE001 - any exception that cannot be pickled
        return RuntimeError("".join(traceback.format_exception(exc)))


def _serve(conn: Connection) -> None:
    """A worker: run jobs from the pipe until told to stop (None) or the parent is gone."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's business
    interrupts.release()  # it started with SIGINT and SIGTERM held
    os.environ.setdefault("SOURCE_DATE_EPOCH", FIXED_EPOCH)
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
        # warm-ups sent whose replies are not taken yet: a job may be sent behind them (the pipe
        # keeps the order), so that a job waits for the worker that has its imports done
        self.warming = 0
        self.prepared: set[str] = set()  # what its warm-ups made ready (LAYOUT, STAMPER)

    @property
    def busy(self) -> bool:
        return self.job is not None or self.warming > 0

    def prepare(self, what: str) -> None:
        """Send it a warm-up: `what` (a module's name) made ready; its reply is taken, never waited for."""
        self.conn.send((_prepare, (what,)))
        self.warming += 1
        self.prepared.add(what)


class Pool:
    """`size` worker processes, started on demand; ended only by `shutdown`."""

    def __init__(self, size: int):
        self.size = max(size, 1)
        self.workers: list[_Worker] = []
        self.leaving: list[_Worker] = []  # asked to go (`let_go`), not yet waited for
        self._context = get_context("spawn")

    def start(self) -> None:
        """Start the workers not yet running (each one whole, before a signal is handled)."""
        os.environ.setdefault("SOURCE_DATE_EPOCH", FIXED_EPOCH)
        while len(self.workers) < self.size:
            interrupts.phase("workers starting")
            # multiprocessing's resource tracker, started with the first spawned process, blocks
            # SIGINT and SIGTERM for its own start and then *unblocks* them: started here, before
            # the signals are held, it cannot undo that hold (a Ctrl-C would reach a worker
            # still starting Python: "Fatal Python error: init_import_site ... KeyboardInterrupt")
            resource_tracker.ensure_running()
            with interrupts.held():
                mine, theirs = self._context.Pipe(duplex=True)
                process = self._context.Process(target=_serve, args=(theirs,), daemon=True,
                                                name=f"sheets-worker-{len(self.workers) + 1}")
                try:
                    process.start()
                finally:
                    theirs.close()  # when the worker ends, its pipe reads as closed here
                self.workers.append(_Worker(process, mine))

    def warm(self) -> None:
        """Start every worker and have it import WeasyPrint before the first job is known."""
        interrupts.phase("workers importing the layout engine")
        self.prepare((LAYOUT,) * self.size)

    def prepare(self, what: tuple[str, ...]) -> None:
        """Start every worker, the i-th making `what[i]` ready (LAYOUT, STAMPER) before its
        first job; a job that needs it goes to a worker that has it (`run`'s `needs`)."""
        self.start()
        for worker, one in zip(self.workers, what):
            if one not in worker.prepared:
                worker.prepare(one)

    def run(self, fn: Callable, jobs: list[tuple], order: list[int], results: list,
            on_done: Callable[[int], None] | None, idle: Callable[[], bool] | None,
            ready: str | None = None, needs: str | None = None) -> None:
        """Every job on the workers, biggest first (`order`); results by index. `ready`: what
        a worker these jobs leave idle makes ready meanwhile (STAMPER: the next phase's imports).
        `needs`: what the jobs need made ready (LAYOUT): a worker that has it, or is making it
        ready, takes a job first, behind its warm-up."""
        self.start()
        queue = deque(order)
        self._hand_out(fn, jobs, queue, needs)
        for worker in self.workers:
            if ready is not None and not worker.busy and ready not in worker.prepared:
                worker.prepare(ready)
        while queue or any(w.job is not None for w in self.workers):
            self._hand_out(fn, jobs, queue, needs)
            busy = idle is not None and idle()  # asked on every turn: it may have new work
            working = [w for w in self.workers if w.busy]
            answered = wait([w.conn for w in working], timeout=0 if busy else None)
            finished = []
            for worker in working:
                if worker.conn in answered:
                    i, value = self._reply(worker)
                    if i is not None:
                        finished.append((i, value))
            self._hand_out(fn, jobs, queue, needs)  # the next jobs go out before `on_done` runs (it may write)
            for i, value in sorted(finished, key=lambda item: item[0]):  # type: ignore[arg-type,return-value]
                results[i] = value
                if on_done:
                    on_done(i)

    def _hand_out(self, fn: Callable, jobs: list[tuple], queue: deque, needs: str | None = None) -> None:
        # those that have what the jobs need (or are making it ready) first, then the idle
        free = sorted((w for w in self.workers if w.job is None),
                      key=lambda w: (needs is not None and needs not in w.prepared, w.warming > 0))
        for worker in free:
            if not queue:
                return
            if needs is not None and worker.warming and needs not in worker.prepared:
                continue  # busy making something else ready: the job would wait behind that
            i = queue.popleft()
            worker.conn.send((fn, jobs[i]))
            worker.job = i

    def _reply(self, worker: _Worker):
        try:
            ok, value = worker.conn.recv()
        except (EOFError, OSError):
            worker.process.join(1.0)  # its pipe closed as it died: how did it end?
            code = worker.process.exitcode
            how = f"signal {-code}" if code is not None and code < 0 else f"exit code {code}"
            raise WorkerLost(f"a worker process ended in the middle of a job ({how}); "
                             f"nothing half-written was left behind, run the command again") from None
        if worker.warming:  # the pipe answers in order: a warm-up's reply comes first
            worker.warming -= 1
            i = None
        else:
            i, worker.job = worker.job, None
        if not ok:
            raise value
        return i, value

    def let_go(self) -> None:
        """Ask every worker to go, and go on at once: its exit (a Python with WeasyPrint loaded
        takes a tenth of a second to end) is waited for by `shutdown`, which ends them all."""
        with interrupts.held():
            for worker in self.workers:
                try:
                    worker.conn.send(None)
                except (OSError, ValueError):
                    pass
            self.leaving += self.workers
            self.workers = []  # a later job starts new ones

    def shutdown(self, graceful: bool) -> None:
        """The one way workers end. Graceful (their part is done): each is asked to go and
        given GRACE seconds. Then, and at once when interrupted or failed, whatever is left
        is killed (a worker holds nothing to clean up: the parent writes every file).
        Signals wait until every worker is gone."""
        with interrupts.held():
            workers, self.workers, self.leaving = self.workers + self.leaving, [], []
            if graceful:
                for worker in workers:
                    try:
                        worker.conn.send(None)
                    except (OSError, ValueError):
                        pass
                for worker in workers:
                    worker.process.join(GRACE)
            for worker in workers:
                if worker.process.exitcode is None:
                    worker.process.kill()
            for worker in workers:
                worker.process.join()
                worker.conn.close()
                worker.process.close()


class Workers:
    """Worker processes shared by several `run_jobs` calls of one command (started on
    first use), so that a job in phases (lay out the blanks, then stamp) starts them once.

        with Workers(n) as shared:
            run_jobs(f, jobs, n, shared=shared); run_jobs(g, more, n, shared=shared)
    """

    def __init__(self, workers: int | None = None, batch: bool = False):
        self.workers = workers if workers is not None else cores()
        self.pool: Pool | None = None
        self.batch = batch  # one batch's (`started_for`): let go once its stamping is drawn

    def get(self) -> Pool:
        if self.pool is None:
            self.pool = Pool(self.workers)
        return self.pool

    def warm(self) -> None:
        """Start every worker now (each imports WeasyPrint), before the first job is known."""
        if self.workers > 1:
            self.get().warm()

    def close(self) -> None:
        """Let the workers finish and go (their part of the command is done)."""
        self._end(graceful=True)

    def let_go(self) -> None:
        """Ask the workers to go without waiting for them (the pool's end waits: `__exit__`)."""
        if self.pool is not None:
            self.pool.let_go()

    def stop(self) -> None:
        """Stop every worker now (interrupted or failed)."""
        self._end(graceful=False)

    def _end(self, graceful: bool) -> None:
        with interrupts.held():  # a Ctrl-C now cannot lose the pool between here and its shutdown
            pool, self.pool = self.pool, None
            if pool is not None:
                pool.shutdown(graceful)

    def __enter__(self) -> "Workers":
        return self

    def __exit__(self, kind, exc, tb) -> None:
        self._end(graceful=kind is None)


@contextmanager
def started_for(parts: int, prepare: tuple[str, ...] = (), fewest: int = 2) -> Iterator[Workers | None]:
    """A pool started now, before a batch of `parts` is rolled and rendered, so that its workers
    start Python and import what they need while this process does that (the stamping hands
    them their first jobs at once); None for a small batch or one core. Ended with the block.

    `prepare`: what each worker makes ready meanwhile (`Pool.prepare`: LAYOUT for a part laid
    out in full, such as a campaign's record; STAMPER). The command's pool: a `started_for`
    inside the block (the game's command, after the CLI started it before importing that
    command's modules) takes the same pool.
    """
    running = getattr(_COMMAND, "pool", None)
    if running is not None:
        yield running
        return
    if parts < fewest or cores() < 2:
        yield None
        return
    with Workers(batch=True) as pool:
        pool.get().prepare(prepare)
        _COMMAND.pool = pool
        try:
            yield pool
        finally:
            _COMMAND.pool = None


# the pool `started_for` started, while its block runs: the command's, in its thread (the desk
# runs one command at a time, each in a thread of its own)
_COMMAND = threading.local()


def run_jobs(fn: Callable, jobs: list[tuple], workers: int | None = None,
             on_done: Callable[[int], None] | None = None, weight: Callable[[tuple], int] | None = None,
             shared: Workers | None = None, idle: Callable[[], bool] | None = None,
             layout: bool = False, results: list | None = None, ready: str | None = None) -> list:
    """`fn(*job)` for each job, in order: in this process for one job, else on every core.

    Workers are spawned (they import WeasyPrint themselves), or taken from `shared`; on
    Ctrl-C, SIGTERM or an error every worker is stopped before the exception goes on.
    While workers work, `idle()` is called for small units of the caller's own next work
    (it returns False when it has nothing to do for now; it is asked again after each result). `layout`: the jobs lay out with WeasyPrint,
    so even one goes to `shared`'s workers when they are running (they have it imported).
    `results`: the list to fill (len(jobs) long), so that `on_done(i)` can read each result
    as it comes (a stamped file is written while its later chunks are still being drawn).
    `ready`: what each worker these jobs leave idle (fewer jobs than workers) makes ready for
    what comes next (`Pool.prepare`: STAMPER, the stamper's imports while a record is laid out).
    """
    results = results if results is not None else [None] * len(jobs)
    if not jobs:
        return results
    workers = min(workers if workers is not None else cores(), len(jobs))
    # one job runs here, unless this process has its own work to do meanwhile (`idle`), or
    # a shared pool is running already (its workers have imported WeasyPrint; this one need not)
    running = layout and shared is not None and shared.pool is not None and shared.workers > 1
    if workers <= 1 and not running and not (jobs and idle is not None and shared is not None and shared.workers > 1):
        for i, job in enumerate(jobs):
            results[i] = fn(*job)
            if on_done:
                on_done(i)
        return results
    # the biggest jobs first, so that the workers finish at about the same time
    order = sorted(range(len(jobs)), key=lambda i: -(weight(jobs[i]) if weight else 0))
    own = shared is None
    pool_of = Workers(workers) if own else shared
    try:
        pool_of.get().run(fn, jobs, order, results, on_done, idle, ready,  # type: ignore[union-attr]
                          needs=LAYOUT if layout else None)
    except BaseException:
        pool_of.stop()  # type: ignore[union-attr]
        raise
    if own:
        pool_of.close()  # type: ignore[union-attr]
    return results

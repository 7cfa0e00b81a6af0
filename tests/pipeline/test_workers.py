"""The worker pool (sheets.pipeline.workers): results in order, errors as raised, and one way to end."""
from __future__ import annotations

import multiprocessing
import os
import signal
import subprocess
import sys
import time

import pytest

from sheets.base.errors import SheetsError
from sheets.pipeline import workers


def _square(n: int) -> int:
    return n * n


def _fail(n: int) -> int:
    if n == 3:
        raise SheetsError(f"job {n}: a value that cannot fit")
    return n


class _Unpicklable(Exception):
    def __init__(self, a, b):  # pickling re-creates it with one argument: it does not come back
        super().__init__(f"{a} and {b}")


def _odd(n: int) -> int:
    raise _Unpicklable(n, "more")


def _die(n: int) -> int:
    if n == 1:
        os.kill(os.getpid(), signal.SIGKILL)
    time.sleep(0.2)
    return n


def _no_children_left() -> None:
    deadline = time.monotonic() + 2
    while multiprocessing.active_children() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert multiprocessing.active_children() == []


def test_results_come_back_in_order_from_every_core():
    done: list[int] = []
    assert workers.run_jobs(_square, [(n,) for n in range(7)], 2, on_done=done.append) == [n * n for n in range(7)]
    assert sorted(done) == list(range(7))
    _no_children_left()


def test_a_worker_error_is_raised_here_as_it_was_and_the_workers_end():
    with pytest.raises(SheetsError, match=r"^job 3: a value that cannot fit$"):
        workers.run_jobs(_fail, [(n,) for n in range(6)], 2)
    _no_children_left()


def test_an_error_that_cannot_cross_the_pipe_still_says_what_happened():
    with pytest.raises(RuntimeError, match=r"_Unpicklable: [01] and more"):
        workers.run_jobs(_odd, [(0,), (1,)], 2)
    _no_children_left()


def test_a_worker_killed_in_a_job_is_a_readable_error():
    with pytest.raises(workers.WorkerLost) as caught:
        workers.run_jobs(_die, [(n,) for n in range(4)], 2)
    assert str(caught.value) == ("a worker process ended in the middle of a job (signal 9); "
                                 "nothing half-written was left behind, run the command again")
    _no_children_left()


def test_shared_workers_start_once_and_end_when_the_block_ends():
    with workers.Workers(2) as shared:
        assert workers.run_jobs(_square, [(2,), (3,)], 2, shared=shared) == [4, 9]
        pids = {w.process.pid for w in shared.pool.workers}
        assert workers.run_jobs(_square, [(4,), (5,)], 2, shared=shared) == [16, 25]
        assert {w.process.pid for w in shared.pool.workers} == pids and len(pids) == 2
    assert shared.pool is None
    _no_children_left()


def test_no_executor_exit_hook_is_ever_installed():
    """The pool is our own: concurrent.futures' process pool (whose exit hook woke a pipe the
    interrupted pool had closed: "Exception ignored ... Bad file descriptor") is never loaded,
    even once workers have run and WeasyPrint is imported here."""
    code = ("import sys\nfrom sheets.kit import build as kit_build\nfrom sheets.pipeline import preview, rendering, workers\n"
            "assert workers.run_jobs(abs, [(-1,), (-2,)], 2) == [1, 2]\nrendering.warm_up()\n"
            "print(sorted(m for m in sys.modules if m.startswith('concurrent')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stdout, done.stderr) == (0, "[]\n", "")


def test_a_worker_is_started_with_ctrl_c_held_even_the_first():
    """Held from before its fork to after its start, in a fresh process too (where the first
    start also launches multiprocessing's resource tracker, which unblocks SIGINT and SIGTERM
    after its own launch): a Ctrl-C to the group cannot reach a worker still starting Python."""
    code = ("import signal\nfrom multiprocessing import process\nfrom sheets.pipeline import workers\nseen = []\n"
            "start = process.BaseProcess.start\n"
            "def watched(self):\n    start(self)\n    seen.append(signal.pthread_sigmask(signal.SIG_BLOCK, []))\n"
            "process.BaseProcess.start = watched\n"
            "with workers.Workers(2) as shared:\n    shared.get().start()\n"
            "print([sorted(s & {signal.SIGINT, signal.SIGTERM}) for s in seen], signal.pthread_sigmask(signal.SIG_BLOCK, []))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == ("[[<Signals.SIGINT: 2>, <Signals.SIGTERM: 15>], [<Signals.SIGINT: 2>, <Signals.SIGTERM: 15>]]"
                           " set()\n")


def test_workers_let_go_end_on_their_own_and_a_later_job_starts_new_ones():
    """`let_go` asks the workers to go and returns at once (a stamped file's writing does not
    wait for their exit); the block's end waits for them, and a job after it starts fresh ones."""
    with workers.Workers(2) as shared:
        assert workers.run_jobs(_square, [(2,), (3,)], 2, shared=shared) == [4, 9]
        first = [w.process for w in shared.pool.workers]
        shared.let_go()
        assert shared.pool.workers == [] and shared.pool.leaving != []
        for process in first:
            process.join(10)
            assert process.exitcode == 0  # asked, not killed
        assert workers.run_jobs(_square, [(4,), (5,)], 2, shared=shared) == [16, 25]
        assert {w.process.pid for w in shared.pool.workers}.isdisjoint({p.pid for p in first})
    assert shared.pool is None
    _no_children_left()


def _pid(n: int) -> int:
    time.sleep(0.3)
    return os.getpid()


def test_a_worker_left_idle_by_a_phase_gets_ready_for_the_next():
    """One job on two workers: the other worker makes `ready` ready meanwhile (a campaign's
    record is laid out on one; the other imports the stamper), and the job's result is not held
    up by it."""
    with workers.Workers(2) as shared:
        [busy] = workers.run_jobs(_pid, [(1,)], 2, shared=shared, idle=lambda: False, ready=workers.STAMPER)
        pids = {w.process.pid for w in shared.pool.workers}
        assert {w.process.pid for w in shared.pool.workers if workers.STAMPER in w.prepared} == pids - {busy}
        # the stamper's modules are in the idle one only
        ready = {pid: stamper for pid, _, stamper in workers.run_jobs(_what_is_ready, [(1,), (2,)], shared=shared)}
        assert ready == {busy: False, (pids - {busy}).pop(): True}
    _no_children_left()


def test_a_batch_starts_its_workers_before_it_is_rolled_and_ends_them_with_the_block():
    """`started_for`: no pool for one part (or one core), else workers running at once (they
    start Python while the batch is rolled), used by the jobs, and gone when the block ends,
    even when it ends in an error."""
    with workers.started_for(1) as none:
        assert none is None
    with workers.started_for(100) as pool:
        if workers.cores() < 2:
            assert pool is None
            return
        running = [w.process for w in pool.pool.workers]
        assert len(running) == pool.workers and all(p.is_alive() for p in running)
        assert workers.run_jobs(_square, [(2,), (3,)], shared=pool) == [4, 9]
        assert [w.process for w in pool.pool.workers] == running  # the same workers
    assert pool.pool is None
    with pytest.raises(SheetsError):
        with workers.started_for(100) as pool:
            raise SheetsError("bad input found while rolling")
    assert pool.pool is None
    _no_children_left()


def _what_is_ready(n: int) -> tuple[int, bool, bool]:
    time.sleep(0.3)  # each worker takes one
    return os.getpid(), "weasyprint" in sys.modules, "sheets.pipeline.stamp.chunk" in sys.modules


def test_a_layout_goes_to_the_worker_that_made_the_layout_engine_ready():
    """`started_for(n, prepare)`: the workers make ready what the batch will need before its
    first job; a layout goes to the worker that readied the layout engine, even while it is
    still importing it (behind that warm-up, in its pipe), not to the other, which would import
    it all over again. A `started_for` inside the block (the game's command, inside the CLI's)
    takes the same pool."""
    if workers.cores() < 2:
        pytest.skip("one core: no pool")
    with workers.started_for(2, (workers.STAMPER, workers.LAYOUT)) as pool:
        with workers.started_for(2, workers.SQUAD) as inner:
            assert inner is pool
        other: list = []  # another thread's command (the desk's) starts its own

        def elsewhere():
            with workers.started_for(2) as theirs:
                other.append(theirs)

        import threading
        thread = threading.Thread(target=elsewhere)
        thread.start()
        thread.join()
        assert isinstance(other[0], workers.Workers) and other[0] is not pool
        first, second = pool.pool.workers
        assert (first.prepared, second.prepared) == ({workers.STAMPER}, {workers.LAYOUT})
        [pid] = workers.run_jobs(_pid, [(1,)], shared=pool, layout=True, idle=lambda: False)
        assert pid == second.process.pid
        # each made ready what it was asked to: the stamper's modules, and WeasyPrint
        ready = {pid: (layout, stamper) for pid, layout, stamper in
                 workers.run_jobs(_what_is_ready, [(1,), (2,)], shared=pool)}
        assert ready == {first.process.pid: (False, True), second.process.pid: (True, False)}
    assert getattr(workers._COMMAND, "pool", None) is None  # noqa: SLF001
    _no_children_left()

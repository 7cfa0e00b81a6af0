"""The worker pool (sheets.pipeline.workers): results in order, a bounded number out, errors as
raised, one warm-up for every worker, and one way to end."""
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


def _pid(n: int) -> int:
    time.sleep(0.3)  # each worker takes one
    return os.getpid()


_WARMED: list[int] = []


def _warm() -> None:
    _WARMED.append(os.getpid())


def _warmed(n: int) -> tuple[int, list[int]]:
    time.sleep(0.3)
    return os.getpid(), list(_WARMED)


def _started(log: str, n: int) -> int:
    with open(log, "a") as handle:
        handle.write(f"{n}\n")
    return n


def _no_children_left() -> None:
    deadline = time.monotonic() + 2
    while multiprocessing.active_children() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert multiprocessing.active_children() == []


def test_results_come_back_in_order_from_every_core():
    with workers.Pool(2) as pool:
        assert pool.run(_square, [(n,) for n in range(7)]) == [n * n for n in range(7)]
        # the heaviest handed out first, the results still in the jobs' order
        assert pool.run(_square, [(n,) for n in range(7)], weight=lambda job: job[0]) == [n * n for n in range(7)]
        assert len({os.getpid(), *pool.run(_pid, [(1,), (2,)])}) == 3  # two workers, not this process
    _no_children_left()


def test_a_worker_error_is_raised_here_as_it_was_and_the_workers_end():
    with workers.Pool(2) as pool:
        with pytest.raises(SheetsError, match=r"^job 3: a value that cannot fit$"):
            pool.run(_fail, [(n,) for n in range(6)])
        assert pool.workers == []  # ended by the failed batch, not left to the block
        _no_children_left()
        assert pool.run(_square, [(2,), (3,)]) == [4, 9]  # a later batch starts new ones
    _no_children_left()


def test_an_error_that_cannot_cross_the_pipe_still_says_what_happened():
    with workers.Pool(2) as pool, pytest.raises(RuntimeError, match=r"_Unpicklable: [01] and more"):
        pool.run(_odd, [(0,), (1,)])
    _no_children_left()


def test_a_worker_killed_in_a_job_is_a_readable_error():
    with workers.Pool(2) as pool, pytest.raises(workers.WorkerLost) as caught:
        pool.run(_die, [(n,) for n in range(4)])
    assert str(caught.value) == ("a worker process ended in the middle of a job (signal 9); "
                                 "nothing half-written was left behind, run the command again")
    _no_children_left()


def test_a_pool_starts_its_workers_once_for_every_batch_and_they_end_with_the_block():
    with workers.Pool(2) as pool:
        assert pool.run(_square, [(2,), (3,)]) == [4, 9]
        pids = {w.process.pid for w in pool.workers}
        assert pool.run(_square, [(4,), (5,)]) == [16, 25]
        assert {w.process.pid for w in pool.workers} == pids and len(pids) == 2
    assert pool.workers == [] and pool.leaving == []
    _no_children_left()


def test_one_job_runs_here_unless_the_workers_are_running_and_a_pool_of_one_runs_all_here():
    with workers.Pool(2) as pool:
        assert pool.run(_pid, [(1,)]) == [os.getpid()] and pool.workers == []
        pool.start()
        [pid] = pool.run(_pid, [(1,)])
        assert pid in {w.process.pid for w in pool.workers}  # its imports are done there
    with workers.Pool(1) as one:
        assert set(one.run(_pid, [(1,), (2,)])) == {os.getpid()} and one.workers == []
    _no_children_left()


def test_every_worker_runs_the_one_warm_up_before_its_first_job():
    with workers.Pool(2, warm_up=_warm) as pool:
        done = pool.run(_warmed, [(1,), (2,)])
    assert len({pid for pid, _ in done}) == 2
    assert all(warmed == [pid] for pid, warmed in done)  # each once, in itself
    assert _WARMED == []  # not here
    _no_children_left()


def test_at_most_ahead_jobs_are_out_while_the_caller_is_slow(tmp_path):
    """A slow caller (a writer behind its workers): no job is handed out while `ahead` are out,
    running or back and not taken, so that what the workers made and the caller has not used is
    bounded; the results still come in the jobs' order."""
    log = tmp_path / "started"
    jobs = [(str(log), n) for n in range(12)]
    with workers.Pool(2) as pool:
        results = pool.map(_started, jobs, ahead=3)
        taken = []
        for value in results:
            taken.append(value)
            time.sleep(0.15)  # the workers would run on meanwhile
            results.poll()
            started = len(log.read_text().split())
            assert results.out <= 3 and started <= len(taken) + 3, (taken, started)
        assert taken == list(range(12))
    assert max(len(log.read_text().split()), 0) == 12
    _no_children_left()


def test_once_every_result_is_back_the_workers_can_go_and_the_rest_is_still_taken():
    """`back`: every result has come back, some not taken yet (a stamped file's writer is behind
    its workers); the workers are let go then, they leave on their own (not killed), and what
    is left is taken all the same."""
    with workers.Pool(2) as pool:
        results = pool.map(_square, [(n,) for n in range(6)])
        first = next(results)
        while not results.back:
            results.poll()
            time.sleep(0.02)
        processes = [w.process for w in pool.workers]
        pool.close()
        assert [first, *results] == [n * n for n in range(6)]
        assert pool.workers == [] and len(processes) == 2
        for process in processes:
            process.join(10)
            assert process.exitcode == 0  # asked, not killed
    _no_children_left()


def test_no_executor_exit_hook_is_ever_installed():
    """The pool is our own: concurrent.futures' process pool (whose exit hook woke a pipe the
    interrupted pool had closed: "Exception ignored ... Bad file descriptor") is never loaded,
    even once workers have run and WeasyPrint is imported here."""
    code = ("import sys\nfrom sheets.kit import build as kit_build\nfrom sheets.pipeline import preview, rendering, workers\n"
            "with workers.Pool(2) as pool:\n    assert pool.run(abs, [(-1,), (-2,)]) == [1, 2]\nrendering.warm_up()\n"
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
            "with workers.Pool(2) as pool:\n    pool.start()\n"
            "print([sorted(s & {signal.SIGINT, signal.SIGTERM}) for s in seen], signal.pthread_sigmask(signal.SIG_BLOCK, []))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == ("[[<Signals.SIGINT: 2>, <Signals.SIGTERM: 15>], [<Signals.SIGINT: 2>, <Signals.SIGTERM: 15>]]"
                           " set()\n")


def test_closed_workers_end_on_their_own_and_a_later_batch_starts_new_ones():
    """`close` asks the workers to go and returns at once (a stamped file's writing does not
    wait for their exit); the block's end waits for them, and a batch after it starts fresh ones."""
    with workers.Pool(2) as pool:
        assert pool.run(_square, [(2,), (3,)]) == [4, 9]
        first = [w.process for w in pool.workers]
        pool.close()
        assert pool.workers == [] and pool.leaving != []
        for process in first:
            process.join(10)
            assert process.exitcode == 0  # asked, not killed
        assert pool.run(_square, [(4,), (5,)]) == [16, 25]
        assert {w.process.pid for w in pool.workers}.isdisjoint({p.pid for p in first})
    assert pool.workers == []
    _no_children_left()


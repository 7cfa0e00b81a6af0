"""Stopping is always clean (issue 23): a sweep of interrupts across long commands.

A cold `kit` (one game's: every phase of the whole kit's, a quarter of its time), and the
stamped batch commands, are stopped at moments spread across their run (from just after
start to the final merge) while a CPU is kept busy (a helper process, or under pytest-xdist
the other workers' tests):
SIGINT to the process group (Ctrl-C), SIGTERM to the main process, SIGKILL to the whole
group. Each point must exit 130 / 143 with the command's one line on stderr and nothing
else (no traceback, no "Exception ignored"), leave no process of the command alive 2 s
later, nothing half-written in the output folder and no cache entry that is not whole;
after SIGKILL, the next identical command must succeed with the bytes of an uninterrupted
build. The default run takes a few points (here: three of the sweeps' own, which a run with the
sweeps leaves out here); `-m slow` (CI runs it: `make test`) the sweeps, each a module of its own (test_interrupt_sweep_*.py: pytest-xdist runs them at once),
with the fixtures of tests/base/conftest.py and the cases of tests/sweep.py.

The table (signal, moment, phase, exit code, result) is printed (`-s`) and written to
interrupt-sweep-MODULE.md in pytest's temporary folder (its path is printed too).
"""
from __future__ import annotations

import signal

import pytest
from sweep import FEW, INT, TERM, sweep
from sweep import busy, references, table  # noqa: F401 (the sweep's fixtures, one set per module)

from sheets.pipeline import cache


def test_a_few_interrupts_of_a_cold_kit_and_a_stamped_batch_are_clean(busy, references, table, tmp_path):
    """Three points of the sweeps (sweep.FEW); a run with the sweeps leaves this out (it runs them there)."""
    sweep(FEW, references, table, tmp_path)


# -- a damaged cache entry is detected, discarded and made again -----------------------
def test_a_cache_entry_is_sealed_and_a_damaged_one_is_discarded(tmp_path):
    entry = tmp_path / "entry.pdf"
    cache.write(entry, b"%PDF-1.7 whole")
    assert cache.read(entry) == b"%PDF-1.7 whole"
    raw = entry.read_bytes()
    assert raw.startswith(b"%PDF-1.7 whole\n%warsheets-cache-sha256 ") and len(raw) == len(b"%PDF-1.7 whole") + 90
    for damaged in (raw[:-10], raw[:5], b"", raw.replace(b"whole", b"whale"), b"%PDF-1.7 whole"):
        entry.write_bytes(damaged)
        assert cache.read(entry) is None
        assert not entry.exists()  # discarded: the next build makes it again


def test_a_damaged_blank_is_made_again_and_the_sheet_is_the_same(cli, tmp_path, monkeypatch):
    monkeypatch.setenv("SHEETS_CACHE_DIR", str(tmp_path / "cache"))  # this test's blanks only
    out = tmp_path / "one.pdf"
    assert cli("playbook", "--random", "--count", "2", "--seed", "3", "-o", out).exit_code == 0
    first = out.read_bytes()
    entries = sorted(cache.default_dir().glob("blank-*"))
    assert entries
    for path in entries:  # a crash of old cut them short (or a disk error garbled them)
        path.write_bytes(path.read_bytes()[: len(path.read_bytes()) // 2])
    out.unlink()
    assert cli("playbook", "--random", "--count", "2", "--seed", "3", "-o", out).exit_code == 0
    assert out.read_bytes() == first
    assert all(cache.read(p) is not None for p in entries)  # made again, whole


def test_a_ctrl_c_while_the_cli_is_still_being_imported_is_one_line_and_130(tmp_path):
    """The first tenths of a second of `sheets kit`, before the CLI is imported: no traceback,
    no death by SIGINT (sheets.__main__ handles Ctrl-C from its first line)."""
    import os
    import subprocess
    import sys
    import time

    for delay in (0.15, 0.3):  # past the interpreter's own start, within the CLI's import
        proc = subprocess.Popen([sys.executable, "-m", "sheets", "kit", "--seed", "5", "-o", str(tmp_path / "k")],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
                                env=dict(os.environ, SHEETS_CACHE_DIR=str(tmp_path / "cache")))
        time.sleep(delay)
        os.killpg(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=60)
        assert proc.returncode == 130, (delay, proc.returncode, err.decode())
        assert "Traceback" not in err.decode() and len(err.decode().strip().splitlines()) <= 1, err.decode()


def _catches(pid: int, sig: int) -> bool:
    """Whether process `pid` has a handler of its own for `sig` (Linux: /proc/PID/status SigCgt)."""
    try:
        with open(f"/proc/{pid}/status") as status:
            caught = next(line for line in status if line.startswith("SigCgt:"))
    except (OSError, StopIteration):
        return False
    return bool(int(caught.split()[1], 16) >> (sig - 1) & 1)


@pytest.mark.skipif(not __import__("os").path.exists("/proc/self/status"), reason="reads /proc (Linux)")
@pytest.mark.parametrize("sig,after,code", [
    (TERM, 0.0, 143), (TERM, 0.1, 143), (TERM, 0.25, 143), (TERM, 0.4, 143), (TERM, 0.6, 143), (TERM, 0.9, 143),
    (INT, 0.0, 130), (INT, 0.4, 130), (INT, 0.9, 130),
])
def test_the_first_second_of_a_cold_kit_ends_with_the_signals_code(tmp_path, sig, after, code):
    """SIGTERM is 143 and Ctrl-C 130 at any moment of the first second of a cold `sheets kit`
    (issue 37: a SIGTERM while Typer still parsed the options ended as a silent 130). The moments
    count from when the command's own code runs (its handler is installed: what happens before,
    while the interpreter itself starts, is Python's)."""
    import os
    import subprocess
    import sys
    import time

    proc = subprocess.Popen([sys.executable, "-m", "sheets", "kit", "--seed", "5", "-o", str(tmp_path / "k")],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
                            env=dict(os.environ, SHEETS_CACHE_DIR=str(tmp_path / "cache")))
    deadline = time.monotonic() + 30
    # Python catches SIGINT from its own start; sheets.__main__ adds SIGTERM just after its own SIGINT handler
    while not _catches(proc.pid, TERM) and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.002)
    time.sleep(after)
    if sig == INT:
        os.killpg(proc.pid, sig)  # Ctrl-C goes to the whole group
    else:
        os.kill(proc.pid, sig)
    _, err = proc.communicate(timeout=120)
    said = err.decode()
    assert proc.returncode == code, (after, proc.returncode, said)
    what = "terminated" if sig == TERM else "interrupted"
    assert said.strip() == f"error: {what}; nothing half-written was left behind", said


_SWALLOWING_COMMAND = '''
import os, signal, sys, time, weakref
import typer
from sheets.cli.errors import run, user_errors
app = typer.Typer()

@app.command()
@user_errors
def go(which: str):
    sig = signal.SIGTERM if which == "TERM" else signal.SIGINT
    class Part:
        pass
    part = Part()
    def collected(_):  # the signal arrives while this callback runs: Python ignores what it raises
        os.kill(os.getpid(), sig)
        end = time.monotonic() + 0.2
        while time.monotonic() < end:
            pass
    ref = weakref.ref(part, collected)
    del part
    time.sleep(5)  # the signal, sent again a moment later, ends this at once
    print("ran on")

run(app)
'''


@pytest.mark.parametrize("which,code", [("TERM", 143), ("INT", 130)])
def test_a_signal_that_falls_in_a_callback_python_ignores_still_stops_the_command(which, code):
    """A SIGTERM or Ctrl-C whose handler ran inside a weakref callback (the import machinery's
    module locks have one) was printed as "Exception ignored" and dropped, and the command ran
    on to exit 0 (seen once in a cold-kit sweep): sheets.cli.errors sends it again."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", _SWALLOWING_COMMAND, which],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == code, (done.returncode, done.stdout, done.stderr)
    assert "ran on" not in done.stdout
    what = "terminated" if which == "TERM" else "interrupted"
    assert done.stderr.strip() == f"error: {what}; nothing half-written was left behind", done.stderr


_DROPPING_COMMAND = '''
import os, signal, sys, time
import typer
from sheets.cli.errors import run, user_errors
app = typer.Typer()

@app.command()
@user_errors
def go(which: str):
    sig = signal.SIGTERM if which == "TERM" else signal.SIGINT
    try:  # as a library might: the stop caught and dropped
        os.kill(os.getpid(), sig)
        time.sleep(5)
    except KeyboardInterrupt:
        pass
    print("ran on")

run(app)
'''


@pytest.mark.parametrize("which,code", [("TERM", 143), ("INT", 130)])
def test_a_signal_that_code_catches_and_drops_still_ends_the_command_as_stopped(which, code):
    """A SIGTERM or Ctrl-C whose KeyboardInterrupt some code caught and dropped, so that the
    command ran on to its end (seen once as a cold kit's exit 0 after a SIGTERM at 0.9 s, under
    load): the command still ends as stopped, with the signal's code and line."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", _DROPPING_COMMAND, which],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == code, (done.returncode, done.stdout, done.stderr)
    what = "terminated" if which == "TERM" else "interrupted"
    assert done.stderr.strip() == f"error: {what}; nothing half-written was left behind", done.stderr


_STOPPED_AS_IT_ENDS = '''
import atexit, os, signal, sys, time
how, which = sys.argv.pop(1), sys.argv.pop(1)
sig = signal.SIGTERM if which == "TERM" else signal.SIGINT

def stop():
    os.kill(os.getpid(), sig)
    time.sleep(0.2)

class AtTeardown:  # taken apart with the modules, after the interpreter gave the signals back
    def __del__(self):
        stop()

if how == "exit functions":  # one the command registers (as multiprocessing does for its workers)
    import sheets.cli
    command = sheets.cli.main

    def registering():
        atexit.register(stop)
        command()

    sheets.cli.main = registering
else:
    kept = AtTeardown()
from sheets.__main__ import run
run()
'''


@pytest.mark.parametrize("which", ["TERM", "INT"])
@pytest.mark.parametrize("how", ["exit functions", "modules taken apart"])
def test_a_signal_as_the_command_ends_gives_its_code_and_line_not_a_death(tmp_path, how, which):
    """A SIGTERM or Ctrl-C that comes once the command is done (its workers' clean-up at exit, or
    the interpreter taking its modules apart, when SIGTERM and SIGINT are back to killing the
    process) ended the command as a death by the signal, with no line (seen once in the
    cold-kit sweep: a SIGTERM as the kit recorded its build), or ran the command to 0 with an
    "Exception ignored". The command ends through the interpreter's exit up to its last exit function: its code, or 143 / 130 and
    the line; never killed."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", _STOPPED_AS_IT_ENDS, how, which, "list"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=60)
    what = "terminated" if which == "TERM" else "interrupted"
    if how == "exit functions":  # the interpreter runs them before the last one: the signal is noted, then said
        assert done.returncode == (143 if which == "TERM" else 130), (done.returncode, done.stderr)
        assert done.stderr.strip() == f"error: {what}; nothing half-written was left behind", done.stderr
    else:  # the process ends before the interpreter takes its modules apart
        assert done.returncode == 0, (done.returncode, done.stderr)
        assert "Traceback" not in done.stderr and "Exception ignored" not in done.stderr, done.stderr


_WRAPPING_COMMAND = '''
import os, signal, sys, time
import typer
from sheets.cli.errors import run, user_errors
app = typer.Typer()

@app.command()
@user_errors
def go(which: str, where: str):
    sig = signal.SIGTERM if which == "TERM" else signal.SIGINT
    try:  # as pydantic's schema builder does with a KeyboardInterrupt raised inside it
        os.kill(os.getpid(), sig)
        time.sleep(5)
    except KeyboardInterrupt as exc:
        if where == "sheets error":
            from sheets.base.errors import SheetsError
            raise SheetsError("could not read the content") from exc
        raise RuntimeError("Error calling __set_name__ on a descriptor") from exc
    print("ran on")

run(app)
'''


@pytest.mark.parametrize("which,code", [("TERM", 143), ("INT", 130)])
@pytest.mark.parametrize("where", ["library error", "sheets error"])
def test_a_signal_a_library_turns_into_its_own_error_still_stops_the_command(which, code, where):
    """A Ctrl-C that fell while pydantic built a model class came out as its SchemaError (or a
    RuntimeError) and ended the command with a traceback and exit 1 (seen in a fresh clone's
    sweep, 0.4 s into a cold kit); one turned into our own error would say that error. Once a
    signal came, the error it became is the stop: its line and 130 / 143."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", _WRAPPING_COMMAND, which, where],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == code, (done.returncode, done.stdout, done.stderr)
    what = "terminated" if which == "TERM" else "interrupted"
    assert done.stderr.strip() == f"error: {what}; nothing half-written was left behind", done.stderr

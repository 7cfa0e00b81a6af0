"""The interrupt sweep's machinery (tests/base/test_interrupts.py): run a real command in its
own process group while a helper keeps a CPU busy, send it a signal at a chosen moment, and
check what it leaves: exit code, streams, processes, output folder, cache.

A point's row: signal, moment (seconds after start, and the fraction of an uninterrupted
run), phase (what the command was doing: SHEETS_PHASE_FILE), exit code, result.
"""
from __future__ import annotations

import hashlib
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from sheets.pipeline import cache

MESSAGES = {signal.SIGINT: "error: interrupted; nothing half-written was left behind\n",
            signal.SIGTERM: "error: terminated; nothing half-written was left behind\n"}
CODES = {signal.SIGINT: 130, signal.SIGTERM: 143, signal.SIGKILL: -signal.SIGKILL}
NOT_SEALED = {"build-state.json"}  # the kit's build record is checked by its own sha256s
#: phases that a command enters after its last cache write: a stop there finds the cache as a
#: cold run left it (every entry written), so the point starts from a copy of the reference's
#: cache and gets there in the time of a warm run, with the same cache and output to check
AFTER_THE_CACHE = {"previews", "writing the manifest", "writing the stamped file"}  # the kit's previews: PNGs
# in its folder, after the merge wrote the contents page's entry (the last of the kit's cache)
#: compiled templates (sheets.pipeline.rendering._Bytecode): Jinja writes them whole (a temporary
#: file, then a rename) and takes one only when its header and its source's checksum match
JINJA_BYTECODE = re.compile(r"^jinja-[0-9a-f]{40}\.cache$")


@dataclass
class Case:
    """A long command, and where it writes (a folder, or one file) and caches."""

    name: str
    args: list[str]
    env: dict = field(default_factory=dict)
    to_folder: bool = True  # -o FOLDER (the kit, its cache inside) or -o FOLDER/x.pdf


@dataclass
class Reference:
    seconds: float
    files: dict[str, str]  # relative path -> sha256 of an uninterrupted build's output
    cache: Path | None = None  # the cache it filled


@dataclass
class Row:
    case: str
    sig: str
    at: float
    fraction: float
    phase: str
    code: int | None
    result: str

    def line(self) -> str:
        return (f"| {self.case} | {self.sig} | {self.at:5.2f} s ({self.fraction:4.0%}) | {self.phase} | "
                f"{self.code} | {self.result} |")


HEADER = "| command | signal | moment | phase | exit code | result |\n|---|---|---|---|---|---|"


def busy_helper() -> subprocess.Popen:
    """A process that keeps one CPU busy while the sweep runs."""
    # busy until the tests end, or their process is gone (killed before it could stop this)
    return subprocess.Popen([sys.executable, "-c", "import os\np = os.getppid()\nwhile os.getppid() == p: pass"])


def _target(case: Case, where: Path) -> Path:
    return where / "out" if case.to_folder else where / "out" / "x.pdf"


def _env(case: Case, where: Path) -> dict:
    env = dict(os.environ, SHEETS_PHASE_FILE=str(where / "phases"), SHEETS_CACHE_DIR=str(where / "cache"))
    env.pop("SHEETS_NO_HB_SUBSET", None)
    env.update(case.env)
    return env


def start(case: Case, where: Path) -> subprocess.Popen:
    (where / "out").mkdir(parents=True, exist_ok=True)
    return subprocess.Popen([sys.executable, "-m", "sheets", *case.args, "-o", str(_target(case, where))],
                            env=_env(case, where), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True,  # its own process group, as in a terminal
                            preexec_fn=_as_in_a_terminal)


def _as_in_a_terminal() -> None:
    """Ctrl-C as a terminal delivers it, even when the tests run in the background of a
    shell script (which starts them with SIGINT ignored, and the command would inherit that)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def outputs(case: Case, where: Path) -> dict[str, str]:
    """sha256 of every visible output file (relative path), hidden files and the cache aside."""
    root = where / "out"
    found = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root)
        if path.is_file() and not any(part.startswith(".") for part in rel.parts):
            found[rel.as_posix()] = hashlib.sha256(path.read_bytes()).hexdigest()
    return found


def caches(case: Case, where: Path) -> list[Path]:
    return [where / "cache"]  # the one cache (SHEETS_CACHE_DIR); never inside the output folder


def reference(case: Case, where: Path) -> Reference:
    t0 = time.monotonic()
    proc = start(case, where)
    out, err = proc.communicate(timeout=600)
    assert proc.returncode == 0, err
    return Reference(time.monotonic() - t0, outputs(case, where), where / "cache")


def group_alive(pgid: int) -> list[int]:
    """Processes (not zombies) of the process group `pgid`."""
    alive = []
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if fields[0] != "Z" and int(fields[2]) == pgid:
            alive.append(int(d))
    return alive


def phase_at(where: Path, when: float) -> str:
    try:
        lines = (where / "phases").read_text().splitlines()
    except OSError:
        return "starting up"
    current = "starting up"
    for line in lines:
        t, _, name = line.partition(" ")
        if float(t) <= when:
            current = name
    return current


def problems(case: Case, where: Path, ref: Reference, whole: bool) -> list[str]:
    """What is wrong with the output folder and the caches after a stop.

    Every visible output file must be one of the uninterrupted build's (same name, same
    bytes): nothing half-written. `whole`: no temporary file either (a SIGKILL may leave
    one behind, hidden, which nothing reads). Every cache entry must be whole (sealed).
    """
    found = []
    for rel, sha in outputs(case, where).items():
        if ref.files.get(rel) != sha:
            found.append(f"{rel} differs from the uninterrupted build")
    for folder in [where / "out", *caches(case, where)]:
        if not folder.is_dir():
            continue
        for path in folder.rglob("*"):
            if not path.is_file():
                continue
            if path.name.endswith(".tmp"):
                if whole:
                    found.append(f"temporary file left: {path.name}")
                continue
            if folder.name in (".cache", "cache") and path.name not in NOT_SEALED \
                    and not JINJA_BYTECODE.match(path.name) \
                    and cache._unsealed(path.read_bytes()) is None:  # noqa: SLF001
                found.append(f"cache entry not whole: {path.name}")
    return found


def _wait_for_phase(proc: subprocess.Popen, where: Path, name: str) -> None:
    """Until the command enters phase `name` (or ends)."""
    while proc.poll() is None:
        try:
            if f" {name}\n" in (where / "phases").read_text():
                return
        except OSError:
            pass
        time.sleep(0.005)


def interrupt(case: Case, sig: signal.Signals, moment: float | str, ref: Reference, where: Path) -> Row:
    """Run `case` in `where`, send `sig` at `moment` (a fraction of the reference run, or
    the moment the command enters the phase of that name), then check everything; a phase
    after the last cache write (AFTER_THE_CACHE) from the reference's cache, warm."""
    warm = moment in AFTER_THE_CACHE and ref.cache is not None
    if warm:
        shutil.copytree(ref.cache, where / "cache")
    proc = start(case, where)
    t0 = time.monotonic()
    if isinstance(moment, str):
        _wait_for_phase(proc, where, moment)
    else:
        time.sleep(max(0.0, moment * ref.seconds - (time.monotonic() - t0)))
    at, when = time.monotonic() - t0, time.time()
    fraction = at / ref.seconds
    finished_first = proc.poll() is not None
    if not finished_first:
        if sig == signal.SIGTERM:
            proc.send_signal(sig)  # to the main process, as a service manager does
        else:
            os.killpg(proc.pid, sig)  # to the group, as Ctrl-C in a terminal (or a kill of it all)
    out, err = proc.communicate(timeout=120)
    code = proc.returncode
    phase = phase_at(where, when)
    deadline = time.monotonic() + 2
    while group_alive(proc.pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    bad = []
    left = group_alive(proc.pid)
    if left:
        bad.append(f"processes alive 2 s later: {left}")
        for pid in left:
            os.kill(pid, signal.SIGKILL)
    for stream, text in (("stdout", out), ("stderr", err)):
        if "Traceback" in text or "Exception ignored" in text:
            bad.append(f"{stream}: {text!r}")
    if code == 0:
        result = "finished before the signal"
        bad += problems(case, where, ref, whole=True)
        if outputs(case, where) != ref.files:
            bad.append("output differs from the uninterrupted build")
    elif sig == signal.SIGKILL:
        bad += [p for p in [f"exit code {code}"] if code != CODES[sig]]
        bad += problems(case, where, ref, whole=False)
        again = start(case, where)  # the next identical command: whole, and the same bytes
        out2, err2 = again.communicate(timeout=600)
        if again.returncode != 0 or "Traceback" in err2:
            bad.append(f"the next command failed: {again.returncode} {err2!r}")
        elif outputs(case, where) != ref.files:
            bad.append("the next command's output differs from an uninterrupted build")
        bad += problems(case, where, ref, whole=False)
        result = "killed; next run identical"
    else:
        if code != CODES[sig]:
            bad.append(f"exit code {code}")
        if err != MESSAGES[sig]:
            bad.append(f"stderr is not the one line: {err!r}")
        bad += problems(case, where, ref, whole=True)
        result = "stopped clean"
    name = f"{case.name} (warm cache)" if warm else case.name
    return Row(name, sig.name, at, fraction, phase, code, "; ".join(bad) if bad else result)


# -- the cases the interrupt tests sweep (tests/base/test_interrupt*.py) ----------------
INT, TERM, KILL = signal.SIGINT, signal.SIGTERM, signal.SIGKILL
#: a kit of one game goes through every phase of the whole kit's (workers, layout, stamping, the
#: merge, the manifest, previews) in a quarter of its time: the sweep keeps its dozen points
#: and costs a quarter; the two sweeps take the two games with stamped parts of their own
KIT = Case("kit --game regiment", ["kit", "--seed", "5", "--game", "regiment"])
KIT_NO_HB = Case("kit --game wotw --preview, fontTools subsetter", ["kit", "--seed", "5", "--game", "wotw", "--preview"],
                 env={"SHEETS_NO_HB_SUBSET": "1"})
PLAYBOOKS = Case("playbook --random --count 60", ["playbook", "--random", "--count", "60", "--seed", "1"],
                 to_folder=False)
MISSIONS = Case("mission --count 30", ["mission", "--count", "30", "--seed", "1"], to_folder=False)

#: a dozen moments, from just after start to the final merge: fractions of an uninterrupted
#: run, and (the short phases near its end) the moment the command enters a phase; the
#: signals take turns, so that each of them is sent across the whole run
DOZEN = [0.02, "workers importing the layout engine", 0.12, 0.25, 0.4, 0.55, 0.7, 0.85,
         "writing sheets", "stamping", "merging kit.pdf", "writing the manifest"]
TURNS = [INT, TERM, KILL]


def turns(case: Case, moments: list[float]) -> list:
    return [(case, TURNS[i % 3], f) for i, f in enumerate(moments)]


#: the sweeps (`-m slow`), each run by a module of its own (test_interrupt_sweep_*.py)
KIT_SWEEP = turns(KIT, DOZEN)
BATCH_SWEEP = (turns(PLAYBOOKS, [0.05, "laying out blanks", 0.4, "stamping", 0.75, "writing the stamped file"])
               + turns(MISSIONS, [0.15, "laying out blanks", "stamping", "writing the stamped file"]))
FONTTOOLS_SWEEP = turns(KIT_NO_HB, [0.1, 0.3, 0.5, 0.7, 0.9, "merging kit.pdf", "previews", "previews", "previews"])
#: the default run's few points (tests/base/test_interrupts.py), three of the sweeps' own: a Ctrl-C
#: a quarter into a cold kit, a SIGKILL as it writes its sheets, a SIGTERM as a batch lays out its
#: blanks. A run with the sweeps (`make test`) leaves them out (tests/conftest.py): it runs them there.
FEW = [KIT_SWEEP[3], KIT_SWEEP[8], BATCH_SWEEP[1]]
SWEEP_MODULES = ("test_interrupt_sweep_kit.py", "test_interrupt_sweep_batches.py")


def sweep(points: list, references, table, tmp_path) -> None:
    """Each point: its case's reference, then the command stopped at its moment; all clean."""
    rows = []
    for n, (case, sig, moment) in enumerate(points):
        ref = references(case)
        row = interrupt(case, sig, moment, ref, tmp_path / f"point-{n}")
        rows.append(row)
        with table.open("a") as f:
            f.write(row.line() + "\n")
    report = "\n".join([HEADER] + [r.line() for r in rows])
    print("\n" + report)
    ok = ("stopped clean", "killed; next run identical", "finished before the signal")
    assert all(r.result in ok for r in rows), report
    # the moments are fractions of a run measured under the same load; most must land in it
    stopped = [r for r in rows if r.result != "finished before the signal"]
    assert len(stopped) * 2 >= len(rows), report


# -- their fixtures, imported by each sweep module: one busy CPU, each case's uninterrupted
# reference and the sweep's table, per module (each sweep is a module of its own, so that
# pytest-xdist, `make test`, runs the sweeps on different workers at once)
@pytest.fixture(scope="module")
def busy():
    """A CPU kept busy while the module's sweep runs: a helper process of its own, or, under
    pytest-xdist (`make test`), the other workers' tests, which keep every core busy already
    (a helper there would only take a core from them)."""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        yield None
        return
    helper = busy_helper()
    yield helper
    helper.kill()
    helper.wait()


@pytest.fixture(scope="module")
def references(busy, tmp_path_factory):
    """Each case's uninterrupted build (made once, with the CPU as busy as in the sweep)."""
    made: dict[str, object] = {}

    def get(case: Case):
        if case.name not in made:
            made[case.name] = reference(case, tmp_path_factory.mktemp("reference"))
        return made[case.name]

    return get


@pytest.fixture(scope="module")
def table(request, tmp_path_factory):
    path = tmp_path_factory.getbasetemp() / f"interrupt-sweep-{request.module.__name__.rsplit('.', 1)[-1]}.md"
    path.write_text(HEADER + "\n")
    yield path
    print(f"\ninterrupt sweep table: {path}\n{path.read_text()}")

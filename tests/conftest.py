"""Shared helpers: run the CLI in-process, read PDFs back, copy content to tamper with."""
from __future__ import annotations

import hashlib
import io
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import pypdf
import pytest
from filelock import FileLock
from typer.testing import CliRunner

os.environ.setdefault("SOURCE_DATE_EPOCH", "946684800")
if "SHEETS_CACHE_DIR" not in os.environ:  # stamped sheets' blank cache: never the user's own
    # one per run, shared by pytest-xdist's workers (`make test` runs with -n): a blank one
    # worker laid out is read by the others (entries are written whole, then renamed)
    _RUN = os.environ.get("PYTEST_XDIST_TESTRUNUID")
    if _RUN:
        os.environ["SHEETS_CACHE_DIR"] = str(Path(tempfile.gettempdir()) / f"sheets-test-cache-{_RUN}")
    else:
        os.environ["SHEETS_CACHE_DIR"] = tempfile.mkdtemp(prefix="sheets-test-cache-")
# the user's own sheets.toml (~/.config/warsheets/) must not change what the tests see
os.environ["XDG_CONFIG_HOME"] = tempfile.mkdtemp(prefix="sheets-test-config-")
# nor the paper of the machine's locale or $SHEETS_PAPER: the tests' default paper is the built-in A4
for _variable in ("SHEETS_PAPER", "LC_ALL", "LC_PAPER"):
    os.environ.pop(_variable, None)
os.environ["LANG"] = "C.UTF-8"

from sheets.base import paths  # noqa: E402
from sheets.cli import app  # noqa: E402

# The interrupt tests send SIGINT (Ctrl-C) to the commands they start. A shell that runs the
# suite in the background (`make test &`, a CI runner's `cmd &`) starts it with SIGINT
# ignored, and every command would inherit that and rightly ignore the Ctrl-C. The suite
# takes SIGINT back (a handler is reset to the default in the commands it executes), so the
# tests measure the tool, not how the suite was launched.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

REPO = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"


class Result:
    def __init__(self, result):
        self.exit_code = result.exit_code
        self.stdout = result.stdout
        self.stderr = result.stderr
        self.exception = result.exception

    def __repr__(self):
        return f"<exit {self.exit_code}\nstdout: {self.stdout}\nstderr: {self.stderr}>"


@pytest.fixture
def cli(tmp_path, monkeypatch):
    """Run `sheets ARGS` in-process from a fresh working folder."""
    monkeypatch.chdir(tmp_path)

    def run(*args: str) -> Result:
        result = CliRunner().invoke(app, [str(a) for a in args], catch_exceptions=True)
        if result.exception and not isinstance(result.exception, SystemExit):
            raise result.exception
        return Result(result)

    return run


_TEXTS = Path(os.environ["SHEETS_CACHE_DIR"] + "-pdf-text")  # beside the run's blank cache, as shared


def pdf_text(path: Path) -> str:
    """pypdf's text of every page. The same bytes give the same text, so a file's text is read
    once for the run (by its sha256, across pytest-xdist's workers): the whole kit's parts are
    read by many tests, and pypdf takes ten seconds over them."""
    data = Path(path).read_bytes()
    keep = _TEXTS / f"{hashlib.sha256(data).hexdigest()}.txt"
    try:
        return keep.read_bytes().decode("utf-8", "surrogatepass")  # bytes: no newline translation
    except FileNotFoundError:
        pass
    reader = pypdf.PdfReader(io.BytesIO(data))
    text = "\n".join(page.extract_text() or "" for page in reader.pages)
    _TEXTS.mkdir(parents=True, exist_ok=True)
    scratch = keep.with_name(f".{keep.name}.{os.getpid()}")
    scratch.write_bytes(text.encode("utf-8", "surrogatepass"))
    os.replace(scratch, keep)  # whole, for the other workers
    return text


def text_runs(path: Path, index: int = 0) -> list[tuple[float, float, str]]:
    """(x, y, text) of every text run on a page, in PDF points, wherever it was drawn
    (laid out by WeasyPrint or stamped onto a blank): for tests about positions."""
    runs: list[tuple[float, float, str]] = []

    def visit(text, cm, tm, font_dict, font_size):
        if text.strip():
            x = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]
            y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
            runs.append((x, y, text.strip()))

    pypdf.PdfReader(str(path)).pages[index].extract_text(visitor_text=visit)
    return runs


def beside(runs: list[tuple[float, float, str]], label: str, side: str = "right", occurrence: int = -1,
           max_dx: float = 90.0, max_dy: float = 12.0) -> str:
    """The text run nearest to a label on its right (or left) on about the same line."""
    anchors = [r for r in runs if r[2].startswith(label)]
    assert anchors, f"no {label!r} on the page"
    ax, ay, _ = anchors[occurrence]
    near = [r for r in runs if abs(r[1] - ay) <= max_dy and r[2] != anchors[occurrence][2]
            and (0 < r[0] - ax <= max_dx if side == "right" else 0 < ax - r[0] <= max_dx)]
    assert near, f"nothing {side} of {label!r}"
    return min(near, key=lambda r: abs(r[0] - ax) + abs(r[1] - ay))[2]


def under(runs: list[tuple[float, float, str]], label: str, max_dy: float = 30.0, max_dx: float = 12.0) -> str:
    """The text run nearest below a label (a box written under its heading)."""
    anchor = next((r for r in runs if r[2] == label), None)
    assert anchor, f"no {label!r} on the page"
    near = [r for r in runs if 0 < anchor[1] - r[1] < max_dy and abs(r[0] - anchor[0]) < max_dx]
    assert near, f"nothing under {label!r}"
    return min(near, key=lambda r: anchor[1] - r[1])[2]


def squash(text: str) -> str:
    """Remove whitespace and inline markup, to compare text across line breaks."""
    text = text.replace("**", "").replace("*", "")
    return re.sub(r"\s+", "", text)


def pages(path: Path) -> int:
    return len(pypdf.PdfReader(str(path)).pages)


def card_part(kit: Path, game: str, set_id: str) -> Path:
    """The kit's part that holds card set `set_id` of `game`: its own file, or the one it shares
    with the sets beside it (`{game}-cards-a-and-b.pdf`; `{game}-cards.pdf` holds every set)."""
    found = [p for p in sorted(kit.glob(f"{game}-cards*.pdf"))
             if p.name == f"{game}-cards.pdf" or set_id in p.stem.removeprefix(f"{game}-cards-").split("-and-")]
    assert len(found) == 1, (game, set_id, found)
    return found[0]


def page_size_mm(path: Path, index: int = 0) -> tuple[float, float]:
    box = pypdf.PdfReader(str(path)).pages[index].mediabox
    return round(float(box.width) * 25.4 / 72, 1), round(float(box.height) * 25.4 / 72, 1)


@pytest.fixture
def content_copy(tmp_path) -> Path:
    """A writable copy of the bundled content, to break on purpose."""
    target = tmp_path / "content"
    shutil.copytree(paths.content_dir(), target)
    return target


@pytest.fixture
def fixture_content(tmp_path) -> Path:
    """The bundled print geometry plus one made-up game (tests/data/fixture-content)."""
    root = tmp_path / "fixture"
    shutil.copytree(DATA / "fixture-content", root)
    shutil.copytree(paths.content_dir() / "_print", root / "_print")
    return root


def bundled_games(content: str | None = None) -> list[str]:
    """The bundled games' ids as the library finds them, or those whose content has a kind's file (`content`:
    a content kind's name; its files as the kind declares them, `sheets.library.kinds`). What a test runs
    over instead of naming the games: a new game, content only, is in it. Read from the folder, not
    loaded: a parametrize list is made as the module is collected."""
    from sheets.library import kinds
    from sheets.library.content import Library

    games = Library(paths.content_dir())
    if content is None:
        return games.game_ids()
    files = next(kind.files for kind in kinds.every() if kind.name == content)
    return [game for game in games.game_ids() if any((games.root / game).glob(files))]


@pytest.fixture(scope="session")
def library():
    from sheets.library.content import Library

    return Library()


class BuiltKit:
    def __init__(self, folder: Path, stdout: str):
        self.folder, self.stdout = folder, stdout


@pytest.fixture(scope="session")
def shared(tmp_path_factory) -> Callable[[str, Callable[[Path], None]], Path]:
    """`shared(name, build)`: the folder `name`, made by `build(folder)` once for the whole run,
    however many pytest-xdist workers ask for it (the first builds it under a lock, the others
    wait for it and read it; nobody writes in it afterwards). Without xdist, once per session."""
    base = tmp_path_factory.getbasetemp()
    root = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base  # the run's, above the workers'
    root = root / "shared"
    root.mkdir(exist_ok=True)

    def get(name: str, build: Callable[[Path], None]) -> Path:
        folder = root / name
        with FileLock(root / f"{name}.lock"):  # released on leaving, or when the worker dies
            if not (root / f"{name}.done").exists():
                shutil.rmtree(folder, ignore_errors=True)  # a build that failed half-way
                folder.mkdir()
                build(folder)
                (root / f"{name}.done").write_text("")
        return folder

    return get


@pytest.fixture(scope="session")
def whole_kit(shared) -> BuiltKit:
    """`sheets kit --seed 7`, every game, built once for the whole run (across pytest-xdist's
    workers too): a whole kit is the suite's costliest build, so every test that reads one
    reads this one (and never writes in it). A test that only needs to know what a kit holds
    asks its plan (`sheets.kit.plan`)."""

    def build(folder: Path) -> None:
        result = CliRunner().invoke(app, ["kit", "--seed", "7", "-o", str(folder / "kit")])
        assert result.exit_code == 0, result.output
        (folder / "stdout").write_text(result.stdout, encoding="utf-8")

    folder = shared("whole-kit", build)
    return BuiltKit(folder / "kit", (folder / "stdout").read_text(encoding="utf-8"))


@pytest.fixture(scope="session")
def whole_kit_letter_4(shared) -> BuiltKit:
    """`sheets kit --seed 7 --paper letter --players 4`, every game and four player packets, built
    once for the whole run (across pytest-xdist's workers too, as whole_kit): the Letter kit the
    issue-47 measures (player pages, page fill) read beside the A4 one."""

    def build(folder: Path) -> None:
        result = CliRunner().invoke(app, ["kit", "--seed", "7", "--paper", "letter", "--players", "4",
                                          "-o", str(folder / "kit")])
        assert result.exit_code == 0, result.output
        (folder / "stdout").write_text(result.stdout, encoding="utf-8")

    folder = shared("whole-kit-letter-players-4", build)
    return BuiltKit(folder / "kit", (folder / "stdout").read_text(encoding="utf-8"))


@pytest.fixture(scope="session")
def built_dist(shared) -> dict[str, Path]:
    """`make dist`'s sdist and wheel (the lock's hatchling), built once for the run: the dist
    tests read both, the wheel test installs the wheel."""

    def build(folder: Path) -> None:
        done = subprocess.run([sys.executable, "-m", "hatchling", "build", "-d", str(folder)], cwd=REPO,
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr

    folder = shared("dist", build)
    wheel, = folder.glob("*.whl")
    sdist, = folder.glob("*.tar.gz")
    return {"wheel": wheel, "sdist": sdist}


@pytest.fixture(scope="session")
def whole_kit_letter(shared) -> BuiltKit:
    """`sheets kit --seed 7 --paper letter`, every game, built once for the whole run (across
    pytest-xdist's workers too, as whole_kit)."""

    def build(folder: Path) -> None:
        result = CliRunner().invoke(app, ["kit", "--seed", "7", "--paper", "letter", "-o", str(folder / "kit")])
        assert result.exit_code == 0, result.output
        (folder / "stdout").write_text(result.stdout, encoding="utf-8")

    folder = shared("whole-kit-letter", build)
    return BuiltKit(folder / "kit", (folder / "stdout").read_text(encoding="utf-8"))


def ink_margins_mm(path: Path, dpi: int = 72) -> list[tuple[float, float, float, float] | None]:
    """Per page, how far the ink (any pixel darker than near-white, PDFium at `dpi`) keeps from the
    paper's left, top, right and bottom edges, in mm; None for a blank page."""
    import numpy
    import pypdfium2 as pdfium

    found: list[tuple[float, float, float, float] | None] = []
    pdf = pdfium.PdfDocument(str(path))
    try:
        for index in range(len(pdf)):
            pixels = pdf[index].render(scale=dpi / 72).to_numpy()[:, :, :3]
            ys, xs = numpy.nonzero(pixels.min(axis=2) < 245)
            if len(xs) == 0:
                found.append(None)
                continue
            mm = 25.4 / dpi
            height, width = pixels.shape[:2]
            found.append((xs.min() * mm, ys.min() * mm, (width - 1 - xs.max()) * mm, (height - 1 - ys.max()) * mm))
    finally:
        pdf.close()
    return found


@pytest.fixture(scope="session")
def regiment(library):
    return library.game("regiment")


def pytest_addoption(parser):
    parser.addoption("--update-golden", action="store_true", default=False,
                     help="rewrite tests/golden/*.html from the current templates and content")


@pytest.hookimpl(trylast=True)  # after `-m` has deselected what it leaves out
def pytest_collection_modifyitems(config, items):
    """The slow tests first, then the modules with the most tests (a stable sort: a module's
    tests keep their order), so that pytest-xdist (`make test`, which keeps this order with
    --no-loadscope-reorder) starts the longest work at once and ends on short modules, instead
    of finishing on a sweep that one worker runs alone."""
    _few_interrupts_once(config, items)
    per_module: dict[str, int] = {}
    for item in items:
        per_module[item.nodeid.split("::", 1)[0]] = per_module.get(item.nodeid.split("::", 1)[0], 0) + 1
    items.sort(key=lambda item: (item.get_closest_marker("slow") is None, -per_module[item.nodeid.split("::", 1)[0]]))


def _few_interrupts_once(config, items) -> None:
    """The default run's few interrupt points (tests/base/test_interrupts.py) are points of the
    sweeps (tests/sweep.py FEW): a run that has the sweeps too (`make test`) runs them there, once."""
    from sweep import SWEEP_MODULES

    names = {item.nodeid.split("::", 1)[0].rsplit("/", 1)[-1] for item in items}
    if not all(module in names for module in SWEEP_MODULES):
        return
    few = [item for item in items if item.name == "test_a_few_interrupts_of_a_cold_kit_and_a_stamped_batch_are_clean"]
    if few:
        config.hook.pytest_deselected(items=few)
        items[:] = [item for item in items if item not in few]

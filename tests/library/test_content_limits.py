"""Every documented limit bounds the work (issue 50, item 3).

Each number content may hold has a maximum in sheets/base/limits.py. For each, a blow-up past
it (the audit's cases: a 60,000-row table, 100,000 rings, a ruler ticked every 0.0000001, a
then: count of ten 999s, a then: naming a d66 table) is refused by `validate` in one line
naming file, line, field and the bound, exit 1; and the largest legal content of that kind
prints, its peak memory measured as the memory test measures it (the sum of the resident
memory of the command's whole process tree, sampled; and the largest one process reached,
from the kernel's rusage). A resource check, not a timing.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import fitz
import pytest
import yaml

from conftest import DATA, REPO, pdf_text
from sheets.base import limits, paths

sys.path.insert(0, str(REPO / "benchmarks"))
from run import _tree_rss  # noqa: E402 - benchmarks/run.py's sampler of a command's process tree

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")

#: the issue's bound for the largest legal content of every kind
MEMORY = 1_000_000_000


def sheets(*args) -> tuple[int, str, int]:
    """(exit code, stderr, peak bytes) of `python -m sheets ARGS` in its own process."""
    proc = subprocess.Popen([sys.executable, "-m", "sheets", *map(str, args)], cwd=REPO,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    high, done = [0], threading.Event()

    def sample() -> None:  # never reaps the command: wait4 below reads its rusage
        while not done.wait(0.01):
            high[0] = max(high[0], _tree_rss(proc.pid))

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    err = proc.stderr.read().decode() if proc.stderr else ""
    _, status, usage = os.wait4(proc.pid, 0)
    done.set()
    sampler.join()
    proc.returncode = os.waitstatus_to_exitcode(status)
    return proc.returncode, err, max(high[0], usage.ru_maxrss * 1024)


def _yaml(path: Path) -> dict:
    return yaml.safe_load(path.read_text())


def _write(path: Path, data: dict) -> None:
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True))


def _content(tmp_path: Path, fixture: bool = False) -> Path:
    root = tmp_path / "content"
    if fixture:
        shutil.copytree(DATA / "fixture-content", root)
        shutil.copytree(paths.content_dir() / "_print", root / "_print")
    else:
        shutil.copytree(paths.content_dir(), root)
    return root


# -- the content of each kind, at a number of its own choosing ------------------------------------
def reference_table(root: Path, rows: int, columns: int = limits.MAX_TABLE_COLUMNS, game: str = "skirmish") -> str:
    """A section of a game's reference (the fixture game's) with one table of `rows` x `columns`."""
    path = root / game / "reference.yaml"
    doc = _yaml(path)
    doc["layout"] = {"orientation": "landscape"}  # room for every column
    doc["sections"].append({"id": "big", "title": "Big table", "blocks": [{"table": {
        "header": [f"C{c}" for c in range(columns)],
        "rows": [[f"{r}.{c}" for c in range(columns)] for r in range(rows)]}}]})
    _write(path, doc)
    return "skirmish"


def reference_text(root: Path, characters: int, game: str = "skirmish") -> str:
    """A game's reference (the fixture game's) grown by sections of paragraphs until its file holds
    `characters` of text, every string counted as the loader counts them (the title and the
    sections already there included)."""
    path = root / game / "reference.yaml"
    doc = _yaml(path)

    def text(value) -> int:
        if isinstance(value, str):
            return len(value)
        values = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
        return sum(text(v) for v in values)

    words = "Each side activates one unit at a time and rolls two dice for every model that can see".split()
    room, n = characters - text(doc), 0
    while room > 0:
        n += 1
        section = {"id": f"text-{n}", "title": f"Text {n}", "blocks": []}
        room -= text(section)
        while room > 0 and len(section["blocks"]) < 6:
            paragraph = " ".join(words[(n + i) % len(words)] for i in range(120))[:max(room, 1)]
            section["blocks"].append({"p": paragraph})
            room -= len(paragraph)
        doc["sections"].append(section)
    _write(path, doc)
    assert text(_yaml(path)) == characters + max(-room, 0) and -room < 20  # at the bound, to a title's length
    return game


def random_table(root: Path, rows: int) -> str:
    """The Patrol table (a modified 2d6 roll) with `rows` results, one row each."""
    path = root / "wotw" / "tables.yaml"
    doc = _yaml(path)
    patrol = next(t for t in doc["tables"] if t["id"] == "patrol")
    model = patrol["rows"][0]
    patrol["results"] = {"min": 1, "max": rows}
    patrol["rows"] = [{**model, "roll": str(n + 1), "name": f"Patrol group {n + 1}"} for n in range(rows)]
    _write(path, doc)
    return "wotw"


def rulers(root: Path, ticks: int, drawings: int = limits.MAX_GAUGES, marks: int = limits.MAX_GAUGE_MARKS) -> str:
    """Platoon's ruler strips, `drawings` of them (gauges x copies), each ticked `ticks` times and with `marks` marks."""
    path = root / "platoon" / "gauges.yaml"
    doc = _yaml(path)
    ruler = next(g for g in doc["gauges"] if g["kind"] == "ruler")
    length = ruler["end"] - ruler["start"]
    copies = 20
    gauges = []
    for n in range(-(-drawings // copies)):
        gauges.append({**ruler, "id": f"ruler-{n}", "copies": min(copies, drawings - n * copies),
                       "minor": length / ticks, "major": length / min(ticks, 25),
                       "marks": [{"at": ruler["start"] + length * (m + 0.5) / marks, "label": f"M{m}"} for m in range(marks)]})
    doc["gauges"] = gauges
    _write(path, doc)
    return "platoon"


def rings(root: Path, count: int, drawings: int = limits.MAX_GAUGES) -> str:
    """Down Range's fan of fire, `drawings` of it, each with `count` labelled rings."""
    path = root / "downrange" / "gauges.yaml"
    doc = _yaml(path)
    fan = next(g for g in doc["gauges"] if g["kind"] == "sector" and not g.get("corner"))
    at = [round(fan["radius"] * (n + 1) / count, 6) for n in range(count)]
    labelled = at[:limits.MAX_GAUGE_MARKS]
    gauges = [{**fan, "id": f"fan-{n}", "copies": min(20, drawings - n * 20), "rings": at,
               "marks": [{"at": a, "label": f"R{i}"} for i, a in enumerate(labelled)]}
              for n in range(-(-drawings // 20))]
    doc["gauges"] = gauges
    _write(path, doc)
    return "downrange"


def _every_step_rolls_town(root: Path, count: str, objective_steps: int = 0) -> dict:
    """Every Steps row one step and `count` rolls on the Town table (one step a row); every
    objective `objective_steps` steps longer."""
    path = root / "wotw" / "tables.yaml"
    doc = _yaml(path)
    tables = {t["id"]: t for t in doc["tables"]}
    for row in tables["steps"]["rows"]:
        row["steps"] = row["steps"][:1] or ["Road"]
        row["then"] = {"table": "town", "count": count}
    for row in tables["town"]["rows"]:
        row["steps"] = row["steps"][:1]
    for row in tables["objective"]["rows"]:
        row["steps"] = row["steps"] + [row["steps"][-1]] * objective_steps
    _write(path, doc)
    return doc


def longest_tracks(root: Path) -> str:
    """The Way of the Warrior's tables rolling the longest tracks they may: every Steps row rolls
    as often as the bounds allow on the Town table, every objective padded to the track's bound."""
    from sheets.games.wotw.mission import APPROACH_MAX, longest_track
    from sheets.library.content import Library

    def longest() -> int:
        return longest_track(Library(root).game("wotw").data)

    _every_step_rolls_town(root, "1")
    count = min(limits.MAX_ROLL_COUNT, 1 + (limits.MAX_TRACK_STEPS - longest()) // APPROACH_MAX)
    _every_step_rolls_town(root, str(count))
    _every_step_rolls_town(root, str(count), limits.MAX_TRACK_STEPS - longest())
    return "wotw"


# -- past each bound: refused by validate, in one line ---------------------------------------------
def _then(root: Path, table: str, count: str) -> str:
    """The Steps table's first row rolls `count` times on `table` next."""
    path = root / "wotw" / "tables.yaml"
    doc = _yaml(path)
    next(t for t in doc["tables"] if t["id"] == "steps")["rows"][0]["then"] = {"table": table, "count": count}
    _write(path, doc)
    return "wotw"


BLOW_UPS = {
    # name: (make it, fixture content?, file, field, words of the message)
    "a 60,000-row table": (lambda root: reference_table(root, 60_000, 2), True, "skirmish/reference.yaml",
                           r"sections\[\d+\]\.blocks\[0\]\.table\.rows", f"60,000 items, at most {limits.MAX_TABLE_ROWS}"),
    # Down Range's cards read their weapons' numbers from its reference's tables: one problem still
    "a 60,000-row table of a reference cards read": (lambda root: reference_table(root, 60_000, 2, "downrange"), False,
                                                    "downrange/reference.yaml", r"sections\[\d+\]\.blocks\[0\]\.table\.rows",
                                                    f"60,000 items, at most {limits.MAX_TABLE_ROWS}"),
    "a reference of 1 MB of text": (lambda root: reference_text(root, 1_000_000), True,
                                    "skirmish/reference.yaml", r"sections\[\d+\]\.blocks\[\d+\]\.p",
                                    f"passes {limits.MAX_FILE_TEXT:,} characters here"),
    "a table of 100 columns": (lambda root: reference_table(root, 3, 100), True, "skirmish/reference.yaml",
                               r"sections\[\d+\]\.blocks\[0\]\.table\.header", f"at most {limits.MAX_TABLE_COLUMNS}"),
    "a random table of 1,000 rows": (lambda root: random_table(root, 1000), False, "wotw/tables.yaml",
                                     r"tables\[\d+\]\.rows", f"1,000 items, at most {limits.MAX_TABLE_ROWS}"),
    "100,000 rings": (lambda root: rings(root, 100_000, 1), False, "downrange/gauges.yaml",
                      r"gauges\[0\]\.rings", f"100,000 items, at most {limits.MAX_RINGS}"),
    "a ruler ticked every 0.0000001": (lambda root: rulers(root, 250_000_000, 1, 1), False, "platoon/gauges.yaml",
                                       r"gauges\[0\]\.minor", f"more than the {limits.MAX_GAUGE_TICKS:,} one ruler"),
    "1,000 gauges": (lambda root: rulers(root, 10, 1000, 1), False, "platoon/gauges.yaml",
                     r"gauges", f"more than the {limits.MAX_GAUGES} one sheet"),
    "then: ten terms of 999": (lambda root: _then(root, "town", "+".join(["999"] * 10)), False, "wotw/tables.yaml",
                               r"tables\[0\]\.rows\[0\]\.then\.count", f"9,990, more than the {limits.MAX_ROLL_COUNT}"),
    "a track past its bound": (lambda root: _every_step_rolls_town(root, "1", limits.MAX_TRACK_STEPS),
                               False, "wotw/tables.yaml", r"tables\[\d+\]\.rows\[\d+\]",
                               f"more than the {limits.MAX_TRACK_STEPS} a track may have"),
    "then: naming a d66 table": (lambda root: _then(root, "objective", "2+1d3"), False, "wotw/tables.yaml", r"tables\[0\]\.rows\[0\]\.then\.table",
                                 "then: rolls a d6 on a table of steps, and 'objective' is rolled with d66"),
}


@pytest.mark.parametrize("case", BLOW_UPS)
def test_past_each_bound_validate_refuses_in_one_line(tmp_path, case):
    make, fixture, file, field, words = BLOW_UPS[case]
    root = _content(tmp_path, fixture)
    make(root)
    code, err, peak = sheets("validate", "--content", root)
    problems = [line for line in err.splitlines() if line.startswith("  ")]
    if "passes" not in words:  # a 60,000-row table is also more text than a file may print: said too
        problems = [line for line in problems if "the file's text passes" not in line]
    assert code == 1 and len(problems) == 1, err
    assert re.search(rf"{re.escape(file)}:\d+: {field}: .*{re.escape(words)}", problems[0]), problems[0]
    assert "Traceback" not in err
    assert peak < MEMORY, f"{peak / 1e6:.0f} MB"


def test_a_then_naming_a_d66_table_stops_the_mission_at_load(tmp_path):
    """The mission that crashed with KeyError: 4 now stops before rolling, in the same one line."""
    root = _content(tmp_path)
    _then(root, "objective", "2+1d3")
    code, err, _ = sheets("mission", "--content", root, "--seed", "1", "--count", "5", "-o", tmp_path / "m.pdf")
    assert code == 1 and "KeyError" not in err and "'objective' is rolled with d66" in err, err
    assert not (tmp_path / "m.pdf").exists()


# -- at each bound: the largest legal content prints -----------------------------------------------
def _prints(tmp_path: Path, *args) -> Path:
    out = tmp_path / "out.pdf"
    code, err, peak = sheets(*args, "-o", out)
    print(f"sheets {args[0]}: peak {peak / 1e6:.0f} MB")  # the measured figure, with -s
    assert code == 0, err
    assert peak < MEMORY, f"peak {peak / 1e6:.0f} MB"
    return out


def test_the_largest_reference_table_prints(tmp_path):
    root = _content(tmp_path, fixture=True)
    game = reference_table(root, limits.MAX_TABLE_ROWS)
    assert sheets("validate", "--content", root)[0] == 0
    text = pdf_text(_prints(tmp_path, "reference", game, "--content", root))
    last = limits.MAX_TABLE_ROWS - 1
    assert f"{last}.0" in text and f"{last}.{limits.MAX_TABLE_COLUMNS - 1}" in text


@pytest.mark.slow  # thirty pages laid out: most of a minute on a loaded machine
def test_the_most_text_a_file_may_hold_prints(tmp_path):
    root = _content(tmp_path, fixture=True)
    game = reference_text(root, limits.MAX_FILE_TEXT - 20)
    assert sheets("validate", "--content", root)[0] == 0
    text = pdf_text(_prints(tmp_path, "reference", game, "--content", root))
    # every section's title (its head in capitals) is there, the last one's too
    written = [s["title"].upper() for s in _yaml(root / game / "reference.yaml")["sections"] if s["id"].startswith("text-")]
    assert re.findall(r"TEXT \d+", text.upper()) == written and len(written) > 10


def test_the_largest_random_table_prints(tmp_path):
    root = _content(tmp_path)
    game = random_table(root, limits.MAX_TABLE_ROWS)
    assert sheets("validate", "--content", root)[0] == 0
    text = pdf_text(_prints(tmp_path, "reference", game, "--content", root))
    assert f"Patrol group {limits.MAX_TABLE_ROWS}" in text


def _strokes(path: Path) -> int:
    """The line and curve segments drawn on every page (a ruler's ticks, a fan's rings)."""
    with fitz.open(path) as doc:
        return sum(len(d["items"]) for page in doc for d in page.get_drawings())


def test_the_most_rulers_with_the_most_ticks_print(tmp_path):
    root = _content(tmp_path)
    game = rulers(root, limits.MAX_GAUGE_TICKS)
    assert sheets("validate", "--content", root)[0] == 0
    out = _prints(tmp_path, "gauges", game, "--content", root)
    assert _strokes(out) >= limits.MAX_GAUGES * (limits.MAX_GAUGE_TICKS + limits.MAX_GAUGE_MARKS)


def test_the_most_fans_with_the_most_rings_print(tmp_path):
    root = _content(tmp_path)
    game = rings(root, limits.MAX_RINGS)
    assert sheets("validate", "--content", root)[0] == 0
    out = _prints(tmp_path, "gauges", game, "--content", root)
    assert _strokes(out) >= limits.MAX_GAUGES * limits.MAX_RINGS
    assert pdf_text(out).count(f"R{limits.MAX_GAUGE_MARKS - 1}") >= limits.MAX_GAUGES


@pytest.mark.slow  # a hundred missions laid out: minutes on a loaded machine
def test_the_most_missions_with_the_longest_tracks_print(tmp_path):
    from sheets.games.wotw.mission import longest_track
    from sheets.library.content import Library

    root = _content(tmp_path)
    longest_tracks(root)
    assert longest_track(Library(root).game("wotw").data) == limits.MAX_TRACK_STEPS
    assert sheets("validate", "--content", root)[0] == 0
    out = _prints(tmp_path, "mission", "--content", root, "--seed", "1", "--count", limits.MAX_MISSIONS)
    with fitz.open(out) as doc:
        assert doc.page_count > limits.MAX_MISSIONS
        words = {w[4] for page in doc for w in page.get_text("words")}
    # the longest track rolled: the seed gives 6 rolls on the Steps table to some mission
    assert str(limits.MAX_TRACK_STEPS) in words

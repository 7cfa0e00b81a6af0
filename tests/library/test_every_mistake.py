"""Every mistake at once: an author's homebrew game, broken one mistake at a time and then two
at a time in one file; each mistake is reported in one `validate` run, with its file, line and
field, whatever else is wrong in the file."""
from __future__ import annotations

import copy
import itertools
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest
from sheets.base import paths
from sheets.base.errors import Problem
from sheets.base.errors import format_loc
from sheets.library.content import Library
from sheets.library.located import id_lists, walk

GAME = {
    "game.yaml": """\
id: brew
title: Brew Skirmish
source: the author's notes
""",
    "reference.yaml": """\
title: Brew reference
cards:
  title: Quick reference
  cards:
    - id: turn-card
      title: The turn
      sections: [turn]
sections:
  - id: turn
    title: The turn
    blocks:
      - p: Each side activates one unit at a time.
      - table:
          caption: Events
          dice: 2d6
          header: [Roll, Event]
          rows:
            - ["2-4", Rain]
            - ["5-6", Fog]
            - ["7", Calm]
            - ["8-10", Wind]
            - ["11-12", Storm]
  - id: morale
    title: Morale
    blocks:
      - list: [Test when half the unit is lost, Roll 2d6 under Morale]
""",
    "cards/units.yaml": """\
id: units
title: Units
size: poker
cards:
  - id: scouts
    title: Scouts
    stats:
      - {label: Move, value: 8}
      - {label: Armour, value: 1}
    blocks:
      - p: Scouts ignore difficult terrain.
  - id: gunners
    title: Gunners
    stats:
      - {label: Move, value: 4}
    blocks:
      - p: Gunners may not move and shoot.
""",
    "trackers.yaml": """\
trackers:
  - id: morale
    title: Morale
    kind: boxes
    unit_label: Unit
    units: 4
    boxes: 6
    notes: true
  - id: waves
    title: Waves
    kind: grid
    columns: [Wave, Faction, Notes]
    rows: 6
  - id: clocks
    title: Clocks
    kind: clocks
    clocks: 4
    segments: 6
""",
    "tokens.yaml": """\
title: Brew tokens
diameter_mm: 20
tokens:
  - {id: pinned, label: PINNED, count: 4, color: "#2e86c1"}
  - id: done
    label: DONE
    count: 6
""",
    "gauges.yaml": """\
title: Brew gauges
unit: in
gauges:
  - id: blast
    kind: circle
    label: Blast
    radius: 1.5
  - id: ruler
    kind: ruler
    label: Range
    end: 6
""",
}


@dataclass(frozen=True)
class Mistake:
    file: str
    old: str
    new: str
    field: str | None  # None: a file-wide problem (malformed YAML, a lint), said at its line only
    words: str
    at: str | None = None  # the text whose line is reported (default: the new text's first line)
    also: str | None = None  # a duplicate's first: its line is named too

    def apply(self, text: str) -> str:
        assert text.count(self.old) == 1, (self.file, self.old)
        return text.replace(self.old, self.new)

    def line(self, text: str) -> int:
        marker = self.at if self.at is not None else self.new.split("\n")[0]
        assert marker in text, (self.file, marker)
        return text[:text.index(marker)].count("\n") + 1


R, C, T, K, G = "reference.yaml", "cards/units.yaml", "trackers.yaml", "tokens.yaml", "gauges.yaml"
TABLE = "sections[0].blocks[1].table"
MISTAKES = [
    # game.yaml
    Mistake("game.yaml", "title: Brew", "titel: Brew", "titel", "did you mean 'title'"),
    Mistake("game.yaml", "id: brew", "id: Brew", "id", "lower-case letters"),
    Mistake("game.yaml", "source: the author's notes", "source: [a, b]", "source", "is not text"),
    Mistake("game.yaml", "source: the author's notes\n", "source: notes\nplugin: nope\n", "plugin", "no game plugin named 'nope'",
            at="plugin: nope"),
    # reference.yaml: keys, blocks, tables rolled with dice, quick-reference cards
    Mistake(R, "title: Brew reference", "titl: Brew reference", "titl", "did you mean 'title'"),
    Mistake(R, "  - id: morale", "  - id: turn", "sections[1].id", "section id 'turn' is used twice",
            at="  - id: turn\n    title: Morale", also="  - id: turn\n"),
    Mistake(R, "      - p: Each side", "      - h: Extra\n        p: Each side", "sections[0].blocks[0]", "exactly one of"),
    Mistake(R, '            - ["7", Calm]\n', "", f"{TABLE}.rows[2][0]", "gap: no row for 7", at='["8-10"'),
    Mistake(R, '["5-6", Fog]', '["5-7", Fog]', f"{TABLE}.rows[2][0]", "result 7 is covered twice",
            at='["7", Calm]', also='["5-7", Fog]'),
    Mistake(R, "dice: 2d6", "dice: 2d", f"{TABLE}.dice", "dice are written"),
    Mistake(R, '["11-12", Storm]', '["11-13", Storm]', f"{TABLE}.rows[4][0]", "13 is not a result of 2d6"),
    Mistake(R, '["8-10", Wind]', '["8-10", Wind, extra]', TABLE, "rows[3] has 3 cells", at="      - table:"),
    Mistake(R, "sections: [turn]", "sections: [turns]", "cards.cards[0].sections[0]", "no section with id 'turns'"),
    Mistake(R, "    title: Morale", "    tilte: Morale", "sections[1].tilte", "did you mean 'title'"),
    Mistake(R, "      - list: [Test when half the unit is lost, Roll 2d6 under Morale]",
            "      - list: Test when half the unit is lost", "sections[1].blocks[0].list", "expected a list"),
    Mistake(R, "      sections: [turn]\n", "      sections: [turn]\n    - id: turn-card\n      title: Again\n      sections: [turn]\n",
            "cards.cards[1].id", "card id 'turn-card' is used twice", at="    - id: turn-card\n      title: Again",
            also="    - id: turn-card\n      title: The turn"),
    # cards/units.yaml
    Mistake(C, "  - id: gunners", "  - id: scouts", "cards[1].id", "card id 'scouts' is used twice",
            at="  - id: scouts\n    title: Gunners", also="  - id: scouts\n    title: Scouts"),
    Mistake(C, "size: poker", "size: pokr", "size", "did you mean 'poker'"),
    Mistake(C, "id: units", "id: unit", "id", "must equal the file name 'units'"),
    Mistake(C, "    title: Gunners", "    titel: Gunners", "cards[1].titel", "did you mean 'title'"),
    Mistake(C, "{label: Move, value: 8}", "{label: [Move], value: 8}", "cards[0].stats[0].label", "is not text"),
    Mistake(C, "{label: Armour, value: 1}", "{label: Armour, value: {a: 1}}", "cards[0].stats[1].value", "is not"),
    Mistake(C, "  - id: scouts", "  - id: Scouts!", "cards[0].id", "lower-case letters"),
    Mistake(C, "      - p: Gunners may not", "      - q: Gunners may not", "cards[1].blocks[0].q", "unknown key"),
    Mistake(C, "    title: Scouts\n", "    title: Scouts\n    back: {title: B, colour: red}\n", "cards[0].back.colour", "unknown key", at="    back:"),
    # trackers.yaml
    Mistake(T, "    unit_label: Unit", "    unit_lable: Unit", "trackers[0].unit_lable", "did you mean 'unit_label'"),
    Mistake(T, "    units: 4", "    units: 0", "trackers[0].units", "too low"),
    Mistake(T, "    units: 4", "    units: 1:30", "trackers[0].units", "'1:30' is not a whole number"),
    Mistake(T, "    kind: clocks", "    kind: clock", "trackers[2].kind", "did you mean 'clocks'"),
    Mistake(T, "    notes: true", "    notes: yes", "trackers[0].notes", "'yes' is not true or false"),
    Mistake(T, "  - id: clocks", "  - id: morale", "trackers[2].id", "tracker id 'morale' is used twice",
            at="  - id: morale\n    title: Clocks", also="  - id: morale"),
    Mistake(T, "    rows: 6\n", "    rows: 6\n    prefill: {Wve: x}\n", "trackers[1].prefill", "'Wve' is not one of the columns",
            at="    prefill:"),
    Mistake(T, "    segments: 6", "    segments: 20", "trackers[2].segments", "too high"),
    Mistake(T, "    boxes: 6\n", "    boxes: 6\n    circles: [9]\n", "trackers[0].circles", "position 9 is outside",
            at="    circles:"),
    Mistake(T, "    clocks: 4", "    clock: 4", "trackers[2].clock", "did you mean 'clocks'"),
    # tokens.yaml
    Mistake(K, "  - id: done", "  - id: pinned", "tokens[1].id", "token id 'pinned' is used twice",
            at="  - id: pinned\n    label: DONE", also="{id: pinned"),
    Mistake(K, 'color: "#2e86c1"', 'color: "blue"', "tokens[0].color", "a colour is #"),
    Mistake(K, "    count: 6\n", "    count: 6\n    color: #ff0000\n", "color", "starts a comment", at="    color: #"),
    Mistake(K, "count: 4", "count: -1", "tokens[0].count", "too low"),
    Mistake(K, "count: 4", "count: four", "tokens[0].count", "'four' is not a whole number"),
    Mistake(K, "diameter_mm: 20", "diameter_mm: 200", "diameter_mm", "too high"),
    Mistake(K, "    label: DONE\n", "", "tokens[1].label", "required key is missing", at="  - id: done"),
    # gauges.yaml
    Mistake(G, "  - id: ruler", "  - id: blast", "gauges[1].id", "gauge id 'blast' is used twice",
            at="  - id: blast\n    kind: ruler", also="  - id: blast"),
    Mistake(G, "unit: in", "unit: mm", "unit", "'mm' is not one of the choices"),
    Mistake(G, "    radius: 1.5\n", "", "gauges[0]", "a circle needs a radius", at="  - id: blast"),
    Mistake(G, "    end: 6\n", "    end: 6\n    start: 8\n", "gauges[1]", "is not beyond its start", at="  - id: ruler"),
    Mistake(G, "    kind: circle", "    kind: circel", "gauges[0].kind", "is not one of the choices"),
    Mistake(G, "    radius: 1.5", "    radius: 1:30", "gauges[0].radius", "'1:30' is not a number"),
    Mistake(G, "title: Brew gauges", "titles: Brew gauges", "titles", "did you mean 'title'"),
    # malformed YAML: each usual cause, with its hint
    Mistake(T, "    units: 4", "\tunits: 4", None, "a tab in the indentation"),
    Mistake(C, "    title: Scouts", "    title: Scouts: fast", None, "put the value in quotes"),
    Mistake(K, "    label: DONE", "     label: DONE", None, "indented more than the key above it"),
    Mistake(R, "title: Brew reference", 'title: "Brew reference', None, "the quote opened on line 1 is never closed",
            at='["2-4"'),
    Mistake(C, "      - p: Scouts ignore", "      - p: *Scouts* ignore", None, "put the value in quotes"),
    Mistake(G, "    label: Blast", "    label: @Blast", None, "cannot start with '@'"),
    Mistake(K, "title: Brew tokens\n", "title: Brew tokens\ntitle: Again\n", None, "duplicate key", at="title: Again"),
    Mistake(R, "    title: The turn\n    blocks:", "    title: The turn\n  blocks:", None, "indentation",
            at="  blocks:\n"),
]


def _write(root: Path, files: dict[str, str]) -> Path:
    game = root / "brew"
    for rel, text in files.items():
        (game / rel).parent.mkdir(parents=True, exist_ok=True)
        (game / rel).write_text(text, encoding="utf-8")
    if not (root / "_print").exists():
        shutil.copytree(paths.content_dir() / "_print", root / "_print")
    return root


def _found(problems: list[Problem], mistake: Mistake, text: str) -> list[Problem]:
    file = f"brew/{mistake.file}"
    return [p for p in problems if p.file.endswith(file) and p.line == mistake.line(text)
            and (mistake.field is None or p.field == mistake.field) and mistake.words in p.message
            and (mistake.also is None or f"also at line {mistake.line_of_also(text)}" in p.message)]


def _line_of(text: str, marker: str) -> int:
    return text[:text.index(marker)].count("\n") + 1


Mistake.line_of_also = lambda self, text: _line_of(text, self.also)  # type: ignore[attr-defined]


def test_the_game_as_written_is_valid(tmp_path, cli):
    root = _write(tmp_path / "content", GAME)
    assert Library(root).validate() == []
    out = tmp_path / "kit"
    result = cli("kit", "--content", root, "--game", "brew", "-o", out)  # what validate passes prints
    assert result.exit_code == 0, result


def test_there_are_at_least_fifty_mistakes_in_every_file():
    assert len(MISTAKES) >= 50
    assert {m.file for m in MISTAKES} == set(GAME)


@pytest.mark.parametrize("mistake", MISTAKES, ids=lambda m: f"{m.file}:{m.new.strip()[:30]}")
def test_each_mistake_is_reported_with_file_line_and_field(tmp_path, mistake):
    files = {**GAME, mistake.file: mistake.apply(GAME[mistake.file])}
    problems = Library(_write(tmp_path / "content", files)).validate()
    assert _found(problems, mistake, files[mistake.file]), (mistake, [str(p) for p in problems])


def _pairs() -> list[tuple[Mistake, Mistake]]:
    """Two schema mistakes of one file that touch different text (malformed YAML stops a file's reading)."""
    pairs = []
    # a tracker's kind and a table's dice say what the rest is checked against: a mistake in them
    # hides the checks that need them (said where the kind or the dice are)
    anchors = [m for m in MISTAKES if m.field and m.field.endswith((".kind", ".dice")) and m.file != G]
    for first, second in itertools.combinations([m for m in MISTAKES if m.field is not None and m not in anchors], 2):
        if first.file != second.file or first.old in second.old or second.old in first.old:
            continue
        text = first.apply(GAME[first.file])
        if text.count(second.old) != 1 or first.new in second.old:
            continue
        both = second.apply(text)
        markers = [m.at if m.at is not None else m.new.split("\n")[0] for m in (first, second)]
        markers += [m.also for m in (first, second) if m.also is not None]
        if all(marker in both for marker in markers):
            pairs.append((first, second))
    return pairs


def test_there_are_pairs_in_every_file():
    assert {first.file for first, _ in _pairs()} == set(GAME)


def test_two_mistakes_in_one_file_are_both_reported(tmp_path):
    """Every pair of one file, each pair in a game of its own, all in one content folder's validate run."""
    root = tmp_path / "content"
    shutil.copytree(paths.content_dir() / "_print", root / "_print")
    expected = []
    for n, (first, second) in enumerate(_pairs()):
        files = {**GAME, first.file: second.apply(first.apply(GAME[first.file]))}
        folder = root / f"brew{n}"
        for rel, text in files.items():
            (folder / rel).parent.mkdir(parents=True, exist_ok=True)
            text = text.replace("id: brew\n", f"id: brew{n}\n") if rel == "game.yaml" else text
            (folder / rel).write_text(text, encoding="utf-8")
        expected.append((n, first, second, files[first.file]))
    problems = Library(root).validate()
    missed = []
    for n, first, second, text in expected:
        text = text.replace("id: brew\n", f"id: brew{n}\n") if first.file == "game.yaml" else text
        mine = [p for p in problems if f"brew{n}/" in p.file]
        for mistake in (first, second):
            if not _found(_renamed(mine, n), mistake, text):
                missed.append((mistake.file, mistake.new, mistake.field, [str(p) for p in mine]))
    assert not missed, missed
    assert len(expected) >= 50


def _renamed(problems: list[Problem], n: int) -> list[Problem]:
    return [Problem(p.file.replace(f"brew{n}/", "brew/"), p.line, p.field, p.message) for p in problems]


def test_every_kind_of_id_is_checked_in_every_bundled_file():
    """In every bundled file of every kind (plug-ins' too), each list of things with ids, made to
    repeat an id, is reported at the twin's id, naming the first's line: tokens, gauges, sections,
    cards, trackers, layouts, a plug-in's tables..."""
    from sheets.app.schemas import bundled_files
    from sheets.library.files import located_problems
    from sheets.library.yaml_source import YamlDocument, load_yaml

    tried: set = set()
    for path, kind in bundled_files():
        doc = load_yaml(path)
        for model, data, loc in walk(kind.model, doc.data):
            for key in id_lists(model):
                items = data.get(key)
                ids = [i.get("id") for i in items if isinstance(i, dict)] if isinstance(items, list) else []
                if (model, key) in tried or len(ids) < 2 or None in ids[:2]:
                    continue
                tried.add((model, key))
                twin = copy.deepcopy(doc.data)
                at = twin
                for part in loc + (key, 1):
                    at = at[part]
                at["id"] = ids[0]
                problems = located_problems(kind.model, YamlDocument(doc.name, twin, doc.lines))
                where = format_loc(loc + (key, 1, "id"))
                assert any(p.field == where and p.line == doc.line_of(loc + (key, 1, "id"))
                           and f"also at line {doc.line_of(loc + (key, 0, 'id'))}" in p.message
                           for p in problems), (path, where, [str(p) for p in problems])
    kinds = {model.__name__ for model, _ in tried}
    assert {"CardSet", "TokenSheet", "TrackerFile", "GaugeSheet", "ReferenceDoc", "PrintGeometry"} <= kinds, kinds

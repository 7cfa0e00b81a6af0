"""ARCHITECTURE.md's recipes, followed as written in a copy of the package: a new printable kind is
four files (its content model, its folder with the builder and `KIND`, its template, its printing
line), a new game is content only; each then prints through `sheets print` and the kit.

The copy runs in a subprocess with PYTHONPATH pointing at it, so what is added there is all it has.
"""
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO, pdf_text, squash

#: what the recipe adds for the kind `rolls`, path -> text (the printing line is added to its file)
MODEL = '''"""Roll sheets: a game's table of rolls (`rolls.yaml`)."""
from sheets.library.kinds import ContentKind
from sheets.library.validation import Strict


class Roll(Strict):
    roll: str
    result: str


class RollSheet(Strict):
    title: str
    rolls: list[Roll]


CONTENT = ContentKind("rolls", RollSheet, "rolls.yaml", "a game's rolls.yaml", rank=5)
'''
KIND = '''"""Roll sheets: a game's rolls.yaml on one page."""
from sheets.base.paper import page_size
from sheets.kinds.kind import Kind
from sheets.library.kinds import rolls
from sheets.pipeline.sheet import Sheet


def rolls_sheet(game, paper):
    doc = game.content["rolls"]
    context = {"title": f"{game.info.title}: {doc.title}", "page_size": page_size(paper), "rolls": doc.rolls}
    return Sheet(filename=f"{game.id}-rolls.pdf", template="rolls.html.j2", context=context, game=game.id,
                 label=f"{game.info.title} rolls")


KIND = Kind("rolls", "the game's roll sheet", ("rolls.html.j2",), "rolls", content=rolls.CONTENT,
            present=lambda game: game.content["rolls"] is not None,
            make=lambda lib, game, options, which: [rolls_sheet(game, options.paper)],
            listed=lambda game: "rolls", kit_rank=5)
'''
TEMPLATE = '''{% extends "base.html.j2" %}
{% block body %}<h1>{{ title }}</h1>
<table>{% for r in rolls %}<tr><td>{{ r.roll }}</td><td>{{ r.result }}</td></tr>{% endfor %}</table>
{% endblock %}
'''
PRINTING = "  rolls:\n    templates: [rolls.html.j2]\n    sides: one\n    copies: one for the table\n"
RECIPE = {"sheets/library/kinds/rolls.py": MODEL, "sheets/kinds/rolls/__init__.py": KIND,
          "templates/_base/rolls.html.j2": TEMPLATE}
CONTENT = "title: Morale rolls\nrolls:\n  - {roll: '1-2', result: Squad breaks and runs}\n  - {roll: '3-6', result: Holds fast}\n"
GAME = "downrange"  # a bundled game without a plug-in: a kind every game's content can have


def _copy(tmp_path: Path) -> Path:
    copy = tmp_path / "package"
    for name in ("sheets", "templates", "content", "schemas"):
        shutil.copytree(REPO / name, copy / name, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy2(REPO / "pyproject.toml", copy / "pyproject.toml")
    return copy


def _files(root: Path) -> dict[str, bytes]:
    """Every file under `root`, but Python's compiled bytecode (written as the commands run
    unless PYTHONDONTWRITEBYTECODE is set: not a file anyone writes)."""
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*")
            if p.is_file() and "__pycache__" not in p.parts}


def _sheets(copy: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(copy), COLUMNS="100")
    run = subprocess.run([sys.executable, "-m", "sheets", *args], cwd=cwd, env=env, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    return run


def _changed(before: dict[str, bytes], after: dict[str, bytes]) -> set[str]:
    return {name for name in after if before.get(name) != after[name]} | (before.keys() - after.keys())


@pytest.fixture(scope="module")
def package(tmp_path_factory) -> Path:
    return _copy(tmp_path_factory.mktemp("recipe"))


def test_a_new_kind_is_four_files_and_prints_through_print_and_the_kit(package, tmp_path):
    before = _files(package)
    for rel, text in RECIPE.items():
        (package / rel).parent.mkdir(parents=True, exist_ok=True)
        (package / rel).write_text(text, encoding="utf-8")
    printing = package / "content/_print/printing.yaml"
    printing.write_text(printing.read_text(encoding="utf-8").replace("kinds:\n", "kinds:\n" + PRINTING, 1),
                        encoding="utf-8")
    code = _changed(before, _files(package))
    assert len(code) <= 4, sorted(code)
    (package / "content" / GAME / "rolls.yaml").write_text(CONTENT, encoding="utf-8")  # content, not code

    found = subprocess.run([sys.executable, "-c", "import sheets; print(sheets.__file__)"], capture_output=True, cwd=tmp_path,
                           text=True, env=dict(os.environ, PYTHONPATH=str(package)), check=True)
    assert found.stdout.strip() == str(package / "sheets" / "__init__.py")
    assert "rolls" in _sheets(package, tmp_path, "list").stdout.split(GAME, 1)[1]
    _sheets(package, tmp_path, "print", "rolls", GAME, "-o", "rolls.pdf")
    assert "Squad breaks and runs" in pdf_text(tmp_path / "rolls.pdf")
    _sheets(package, tmp_path, "kit", "--game", GAME, "--seed", "1", "-o", "kit")
    text = squash(pdf_text(tmp_path / "kit" / "kit.pdf"))
    assert squash("Down Range: Morale rolls 1-2 Squad breaks and runs") in text


def test_a_new_game_is_content_only_and_prints_through_print_and_the_kit(package, tmp_path):
    before = _files(package)
    made = _sheets(package, tmp_path, "new", "game", "skirmish", "--content", str(package / "content"))
    assert "schemas" not in made.stdout
    changed = _changed(before, _files(package))
    assert changed and all(name.startswith("content/skirmish/") for name in changed), sorted(changed)
    for name in changed:  # each file's first line names a schema the repository has
        first = (package / name).read_text(encoding="utf-8").split("\n", 1)[0]
        if first.startswith("# yaml-language-server: $schema="):
            assert ((package / name).parent / first.split("=", 1)[1]).resolve().is_file(), name
    assert "skirmish" in _sheets(package, tmp_path, "list").stdout
    _sheets(package, tmp_path, "print", "cards", "skirmish", "-o", "cards.pdf")
    assert "ADVANCE" in pdf_text(tmp_path / "cards.pdf")
    _sheets(package, tmp_path, "kit", "--game", "skirmish", "--seed", "1", "-o", "kit")
    text = squash(pdf_text(tmp_path / "kit" / "kit.pdf"))
    assert all(squash(words) in text for words in ("Skirmish", "ADVANCE", "Hittable"))

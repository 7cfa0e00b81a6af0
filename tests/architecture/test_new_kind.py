"""ARCHITECTURE.md's recipes, followed as written in a copy of the package: a new printable kind is
four files (its content model, its folder with the builder and `KIND`, its template, its printing
line), a new game is content only; each then prints through `sheets print` and the kit. A new
write-in on a playbook is the character model's field and the template's line: it prints, it is a
form field of the fillable playbook, and the desk's form and preview have it.

The copy runs in a subprocess with PYTHONPATH pointing at it, so what is added there is all it has.
"""
import itertools
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pypdf
import pytest
from conftest import REPO, beside, pages, pdf_text, squash, text_runs

#: what the recipe adds for the kind `dice`, path -> text (the printing line is added to its file)
MODEL = '''"""Dice sheets: a game's table of rolls (`dice.yaml`)."""
from sheets.library.kinds import ContentKind
from sheets.library.validation import Strict


class Roll(Strict):
    roll: str
    result: str


class DiceSheet(Strict):
    title: str
    rolls: list[Roll]


CONTENT = ContentKind("dice", DiceSheet, "dice.yaml", "a game's dice.yaml", rank=5)
'''
KIND = '''"""Dice sheets: a game's dice.yaml on one page."""
from sheets.base.paper import page_size
from sheets.kinds.kind import Kind
from sheets.library.kinds import dice
from sheets.pipeline.sheet import Sheet


def dice_sheet(game, paper):
    doc = game.content["dice"]
    context = {"title": f"{game.info.title}: {doc.title}", "page_size": page_size(paper), "rolls": doc.rolls}
    return Sheet(filename=f"{game.id}-dice.pdf", template="dice.html.j2", context=context, game=game.id,
                 label=f"{game.info.title} dice")


KIND = Kind("dice", "the game's roll sheet", ("dice.html.j2",), "dice", content=dice.CONTENT,
            present=lambda game: game.content["dice"] is not None,
            make=lambda lib, game, options, which: [dice_sheet(game, options.paper)],
            listed=lambda game: "dice", kit_rank=5)
'''
TEMPLATE = '''{% extends "base.html.j2" %}
{% block body %}<h1>{{ title }}</h1>
<table>{% for r in rolls %}<tr><td>{{ r.roll }}</td><td>{{ r.result }}</td></tr>{% endfor %}</table>
{% endblock %}
'''
PRINTING = "  dice:\n    templates: [dice.html.j2]\n    sides: one\n    copies: one for the table\n"
RECIPE = {"sheets/library/kinds/dice.py": MODEL, "sheets/kinds/dice/__init__.py": KIND,
          "templates/_base/dice.html.j2": TEMPLATE}
CONTENT = "title: Morale rolls\nrolls:\n  - {roll: '1-2', result: Squad breaks and runs}\n  - {roll: '3-6', result: Holds fast}\n"


@pytest.fixture(scope="module")
def plain_game(library):
    """A bundled game without a plug-in (a kind every game's content can have), the first by id."""
    return next(game for game in map(library.game, library.game_ids()) if game.info.plugin is None)


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


def test_a_new_kind_is_four_files_and_prints_through_print_and_the_kit(package, tmp_path, plain_game):
    """The kind is named `dice`, a word the code says often (the dice object, --dice, its JSON key):
    nothing but its own four files names a kind, so no name is taken."""
    game = plain_game.id
    before = _files(package)
    for rel, text in RECIPE.items():
        (package / rel).parent.mkdir(parents=True, exist_ok=True)
        (package / rel).write_text(text, encoding="utf-8")
    printing = package / "content/_print/printing.yaml"
    printing.write_text(printing.read_text(encoding="utf-8").replace("kinds:\n", "kinds:\n" + PRINTING, 1),
                        encoding="utf-8")
    code = _changed(before, _files(package))
    assert len(code) <= 4, sorted(code)
    (package / "content" / game / "dice.yaml").write_text(CONTENT, encoding="utf-8")  # content, not code

    found = subprocess.run([sys.executable, "-c", "import sheets; print(sheets.__file__)"], capture_output=True, cwd=tmp_path,
                           text=True, env=dict(os.environ, PYTHONPATH=str(package)), check=True)
    assert found.stdout.strip() == str(package / "sheets" / "__init__.py")
    listed = _sheets(package, tmp_path, "list").stdout.split(f"{game} ", 1)[1].splitlines()[1:]
    assert "dice" in [line.strip() for line in itertools.takewhile(lambda line: line.startswith(" "), listed)]
    _sheets(package, tmp_path, "print", "dice", game, "-o", "dice.pdf")
    assert "Squad breaks and runs" in pdf_text(tmp_path / "dice.pdf")
    _sheets(package, tmp_path, "schema", "--out", "schemas")
    schema = json.loads((tmp_path / "schemas" / "dice.schema.json").read_text(encoding="utf-8"))
    assert "rolls" in schema["properties"]
    _sheets(package, tmp_path, "kit", "--game", game, "--seed", "1", "-o", "kit")
    text = squash(pdf_text(tmp_path / "kit" / "kit.pdf"))
    assert squash(f"{plain_game.info.title}: Morale rolls 1-2 Squad breaks and runs") in text


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
    assert "Advance" in pdf_text(tmp_path / "cards.pdf")  # titles as the content writes them (issue 47)
    _sheets(package, tmp_path, "kit", "--game", "skirmish", "--seed", "1", "-o", "kit")
    text = squash(pdf_text(tmp_path / "kit" / "kit.pdf"))
    assert all(squash(words) in text for words in ("Skirmish", "Advance", "Hittable"))


#: what a new write-in on The Regiment's playbook is: the model's field (after DEPLOYMENT's) and the template's line
CHARACTERS, PLAYBOOK = "sheets/games/regiment/characters.py", "templates/regiment/playbook.html.j2"
FIELD = '    callsign: Written = Field("", description="The soldier\'s callsign (the playbook\'s CALLSIGN line).")\n'
LINE = ('  <div class="idrow"><span class="label">CALLSIGN</span>{{ write(p ~ "callsign", '
        'ch.write_ins.callsign if ch else "", "68mm", fill, "Callsign") }}</div>\n')
#: the desk, in the copy: the character's form and its preview, as the browser gets them (printed as JSON)
DESK = '''
import html, json, re, sys
from pathlib import Path
from starlette.testclient import TestClient
from sheets.web import create_app
workspace = Path(sys.argv[1])
client = TestClient(create_app(workspace), base_url="http://127.0.0.1:8000")
page = client.get("/regiment/character?file=callsign.yaml").text
box = re.search(r'<input id="callsign" name="callsign" value="([^"]*)"', page)
src = html.unescape(re.search(r'<img id="preview" class="preview" src="([^"]+)"', page).group(1))
other = src.replace("callsign=Viper+Six", "callsign=Viper+Nine")
shown, changed = client.get(src), client.get(other)
print(json.dumps({"box": box and html.unescape(box.group(1)), "in_query": other != src,
                  "preview": [shown.status_code, shown.headers["content-type"], len(shown.content)],
                  "differs": shown.content != changed.content}))
'''


def test_a_new_write_in_is_the_models_field_and_the_templates_line(package, tmp_path):
    """CALLSIGN, added as the issue added it: a field of the character file's model and a line of the
    playbook's template, nothing else. The printed playbook prints it (still two pages: the NOTES box
    gives the room), the fillable one has a form field for it holding its value, the desk's form has a
    box with the file's value and its preview follows it."""
    before = _files(package)
    model = package / CHARACTERS
    text = model.read_text(encoding="utf-8")
    anchor = next(line for line in text.splitlines(True) if line.lstrip().startswith("deployment: Written"))
    model.write_text(text.replace(anchor, anchor + FIELD, 1), encoding="utf-8")
    template = package / PLAYBOOK
    text = template.read_text(encoding="utf-8")
    anchor = next(line for line in text.splitlines(True) if 'write(p ~ "deployment"' in line)
    template.write_text(text.replace(anchor, anchor + LINE, 1), encoding="utf-8")
    assert _changed(before, _files(package)) == {CHARACTERS, PLAYBOOK}

    walter = (REPO / "content" / "regiment" / "characters" / "walter-brzezinski.yaml").read_text(encoding="utf-8")
    character = tmp_path / "callsign.yaml"
    character.write_text(walter + "callsign: Viper Six\n", encoding="utf-8")
    _sheets(package, tmp_path, "playbook", "--character", str(character), "-o", "printed.pdf")
    assert beside(text_runs(tmp_path / "printed.pdf"), "CALLSIGN") == "Viper Six"  # on its line
    assert pages(tmp_path / "printed.pdf") == 2
    _sheets(package, tmp_path, "playbook", "--character", str(character), "--fillable", "-o", "fillable.pdf")
    fields = pypdf.PdfReader(str(tmp_path / "fillable.pdf")).get_fields()
    assert fields["c0.callsign"].get("/V") == "Viper Six" and pages(tmp_path / "fillable.pdf") == 2
    _sheets(package, tmp_path, "playbook", "sniper", "--fillable", "-o", "blank.pdf")
    assert "c0.callsign" in pypdf.PdfReader(str(tmp_path / "blank.pdf")).get_fields()
    desk = subprocess.run([sys.executable, "-c", DESK, str(tmp_path)], cwd=tmp_path, capture_output=True, text=True,
                          env=dict(os.environ, PYTHONPATH=str(package)))
    assert desk.returncode == 0, desk.stderr
    shown = json.loads(desk.stdout)
    assert shown["box"] == "Viper Six" and shown["in_query"]
    assert shown["preview"][:2] == [200, "image/png"] and shown["differs"]

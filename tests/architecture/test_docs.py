"""The authors' guide stays true: every YAML example in docs/ passes the model `sheets validate`
uses and the schema an editor uses, and docs/fields.md is what the models say today."""
import json
import re
from pathlib import Path

import jsonschema
import pytest

from conftest import REPO
from sheets.app import schemas
from sheets.app.scaffold import SCHEMA_DIR
from sheets.library.validation import validate
from sheets.library.yaml_source import parse_yaml

DOCS = REPO / "docs"
KINDS = {kind.name: kind for kind in schemas.kinds()}
BLOCK = re.compile(r"```yaml\n(.*?)```", re.S)


def examples() -> list[tuple[str, str]]:
    found = []
    for page in sorted(DOCS.glob("*.md")):
        for n, text in enumerate(BLOCK.findall(page.read_text(encoding="utf-8")), start=1):
            found.append((f"{page.name}#{n}", text))
    return found


EXAMPLES = examples()


def _modeline_in_a_new_game(kind) -> str:
    """The first line `sheets new game` writes in a file of this kind (my-content/GAME/...): the path
    from the file's folder to the content folder's .schemas/."""
    path = Path("my-content") / kind.pattern.replace("*", "my-game", 1).replace("*", "x")
    return schemas.modeline(path, kind, Path("my-content") / SCHEMA_DIR)


def test_the_guide_has_an_example_of_every_content_kind():
    named = {text.split("\n", 1)[0] for _, text in EXAMPLES}
    for kind in ("game", "reference", "cards", "trackers", "tokens", "gauges"):
        assert _modeline_in_a_new_game(KINDS[kind]) in named


@pytest.mark.parametrize("name, text", EXAMPLES, ids=[n for n, _ in EXAMPLES])
def test_a_yaml_example_passes_its_model_and_its_schema(name, text):
    """Each example starts with the first line its file has in a game `sheets new game` made (so the
    line resolves where the author puts the file), and passes its model and its schema."""
    first = text.split("\n", 1)[0]
    assert first.startswith(schemas.MODELINE), f"{name}: start the example with its schema line"
    kind = KINDS[Path(first).name.removesuffix(schemas.SUFFIX)]
    assert first == _modeline_in_a_new_game(kind), f"{name}: in a game's folder the line is {_modeline_in_a_new_game(kind)}"
    target = REPO / "schemas" / f"{kind.name}{schemas.SUFFIX}"  # what `sheets new game` copies to .schemas/
    doc = parse_yaml(text, name)
    validate(kind.model, doc)  # raises the located problems
    errors = list(jsonschema.Draft202012Validator(json.loads(target.read_text())).iter_errors(doc.data))
    assert errors == []


def test_the_modelines_sheets_new_game_writes_resolve(cli, tmp_path):
    assert cli("new", "game", "my-game", "--content", tmp_path / "my-content").exit_code == 0
    checked = 0
    for path in (tmp_path / "my-content" / "my-game").rglob("*.yaml"):
        first = path.read_text(encoding="utf-8").split("\n", 1)[0]
        assert first.startswith(schemas.MODELINE), path
        assert (path.parent / first.removeprefix(schemas.MODELINE)).resolve().is_file(), (path, first)
        checked += 1
    assert checked >= 5


def test_the_readme_modelines_resolve_from_the_clone():
    """The README's user files (a character, a squad) are written in the clone's folder: their first lines resolve there."""
    lines = re.findall(r"^# yaml-language-server: \$schema=(\S+)$", (REPO / "README.md").read_text(encoding="utf-8"), re.M)
    assert lines and all((REPO / line).is_file() for line in lines), lines


def test_the_field_reference_is_what_the_models_say():
    assert (DOCS / "fields.md").read_text(encoding="utf-8") == schemas.fields_markdown(), \
        "docs/fields.md is stale: run `make docs`"


def test_the_readme_points_to_the_guide():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert "docs/authoring.md" in readme and "make kit" in readme and "make test" in readme


def test_the_readme_opens_with_the_install_and_names_every_command():
    from sheets.cli import app
    from typer.main import get_command

    readme = (REPO / "README.md").read_text(encoding="utf-8")
    first = readme.split("\n## ", 2)[1]
    assert first.startswith("Install\n") and "pipx install ." in first and "uv tool install ." in first
    assert "make dist" in first and "docs/install.md" in first and (REPO / "docs" / "install.md").is_file()
    assert "make kit     #" in readme and "make test    #" in readme  # a clone's two commands stay
    root = get_command(app)
    names = root.list_commands(root.make_context("sheets", ["--help"], resilient_parsing=True))
    assert "kit" in names and len(names) > 10
    for name in names:
        assert f"| `sheets {name}" in readme, name
    install = (REPO / "docs" / "install.md").read_text(encoding="utf-8")
    for system in ("## Debian and Ubuntu", "## Fedora", "## macOS (Homebrew)", "## Windows"):
        section = install.split(system, 1)[1].split("\n## ", 1)[0]
        assert "tried here" in section.lower() or "from WeasyPrint's documentation" in section, system

"""JSON Schemas for every YAML kind, generated from the models: the committed schemas/ are what
`sheets schema` writes, every bundled file passes its schema and names it on its first line, and
schema and model refuse the same broken files at the same place."""
import json
import re

import jsonschema
import pytest

from conftest import DATA, REPO, bundled_games
from sheets.app import schemas
from sheets.base.errors import ContentError, format_loc
from sheets.library.validation import validate
from sheets.library.yaml_source import load_yaml

pytestmark = pytest.mark.unit  # `make check`'s fast tier

SCHEMAS = REPO / "schemas"
BROKEN = sorted((DATA / "broken").glob("*.yaml"))
KINDS = {kind.name: kind for kind in schemas.kinds()}
BUNDLED = schemas.bundled_files(REPO / "content")


def schema_errors(kind: schemas.SchemaFile, data) -> list[str]:
    """Where the schema refuses `data`, written like validate's fields (an unknown key by its name)."""
    validator = jsonschema.Draft202012Validator(json.loads((SCHEMAS / f"{kind.name}.schema.json").read_text()))
    found = []
    for error in validator.iter_errors(data):
        loc = tuple(error.absolute_path)
        extra = re.findall(r"'([^']+)' (?:was|were) unexpected", error.message)
        if error.validator == "additionalProperties" and extra:
            loc += (extra[0],)
        if error.validator == "required":
            loc += (re.match(r"'([^']+)'", error.message).group(1),)
        found.append(format_loc(loc))
    return found


def test_the_committed_schemas_are_what_sheets_schema_writes(cli, tmp_path):
    result = cli("schema", "--out", "fresh")
    assert result.exit_code == 0, result
    assert result.stdout == f"wrote {len(KINDS)} schemas in fresh\n"
    fresh = {p.name: p.read_text(encoding="utf-8") for p in (tmp_path / "fresh").iterdir()}
    committed = {p.name: p.read_text(encoding="utf-8") for p in SCHEMAS.iterdir()}
    assert sorted(committed) == sorted(fresh), "run `sheets schema --out schemas` and commit the result"
    for name, text in fresh.items():
        assert committed[name] == text, f"schemas/{name} is stale: run `sheets schema --out schemas`"


def test_every_kind_the_tool_reads_has_a_schema():
    assert {"game", "reference", "cards", "trackers", "tokens", "gauges", "layouts", "printing",
            "regiment.character", "regiment.squad", "wotw.team", "wotw.campaign"} <= set(KINDS)
    character = json.loads((SCHEMAS / "regiment.character.schema.json").read_text())
    assert character["additionalProperties"] is False
    assert set(character["required"]) == {"playbook", "name", "rank", "profile", "background", "moves", "loadout"}
    assert character["properties"]["stat_set"]["anyOf"][0] == {"maximum": 4, "minimum": 1, "type": "integer"}


@pytest.mark.parametrize("path, kind", BUNDLED, ids=[str(p.relative_to(REPO)) for p, _ in BUNDLED])
def test_a_bundled_file_passes_its_schema_and_names_it(path, kind):
    assert schema_errors(kind, load_yaml(path).data) == []
    first = path.read_text(encoding="utf-8").split("\n", 1)[0]
    assert first == schemas.modeline(path, kind, SCHEMAS)
    assert (path.parent / first.removeprefix(schemas.MODELINE)).resolve() == SCHEMAS / f"{kind.name}.schema.json"


def test_every_bundled_file_is_covered():
    covered = {path for path, _ in BUNDLED}
    content = REPO / "content"
    assert len(covered) == len(BUNDLED) > 40
    for game in bundled_games():
        assert content / game / "game.yaml" in covered
    assert content / "regiment" / "characters" / "walter-brzezinski.yaml" in covered
    assert content / "wotw" / "examples" / "german-team.yaml" in covered


@pytest.mark.parametrize("path", BROKEN, ids=[p.stem for p in BROKEN])
def test_schema_and_model_refuse_a_broken_file_at_the_same_place(path):
    kind = KINDS[path.stem.split("--")[0]]
    doc = load_yaml(path)
    with pytest.raises(ContentError) as refused:
        validate(kind.model, doc)
    model_fields = {p.field for p in refused.value.problems}
    found = schema_errors(kind, doc.data)
    assert found, f"the schema accepts {path.name}, which the model refuses"
    assert set(found) & model_fields, (found, model_fields)


def test_the_broken_corpus_covers_the_user_files():
    kinds = {p.stem.split("--")[0] for p in BROKEN}
    assert {"regiment.character", "regiment.squad", "wotw.team", "wotw.campaign", "cards", "game"} <= kinds
    assert len(BROKEN) >= 10

"""One truth for the editor: over probe files made from the models (each kind's file, broken one
way at a time where JSON Schema can say it: an unknown key, a required key missing, a wrong type,
a value out of bounds, not one of the choices, not of the pattern, a block of two keys), the
JSON Schema `sheets schema` writes and `sheets validate` agree."""
from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any, Literal, Union, get_args, get_origin

import annotated_types
import jsonschema
import pytest
from pydantic import BaseModel

from conftest import REPO
from sheets.app import schemas
from sheets.base.errors import ContentError
from sheets.library.located import walk
from sheets.library.validation import validate
from sheets.library.yaml_source import YamlDocument, parse_yaml

KINDS = schemas.kinds()
NOT_A_CHOICE = "zz-not-a-choice"


def _passes(kind: schemas.SchemaFile, data: Any) -> bool:
    try:
        validate(kind.model, YamlDocument("probe.yaml", data, {}))
    except ContentError:
        return False
    return True


def _base(kind: schemas.SchemaFile) -> Any:
    """A file of the kind its model takes: a bundled one, else the first of the repository's examples."""
    bundled = [path for path, k in schemas.bundled_files() if k.name == kind.name]
    candidates = bundled + sorted((REPO / "content").rglob("*.yaml")) + sorted((REPO / "tests" / "data").glob("*.yaml"))
    texts = [path.read_text(encoding="utf-8") for path in candidates]
    texts += re.findall(r"```yaml\n(.*?)```", (REPO / "README.md").read_text(encoding="utf-8"), re.S)  # a squad file
    for text in texts:
        data = parse_yaml(text, "example.yaml").data
        if _passes(kind, data):
            return data
    raise AssertionError(f"no file of kind {kind.name} to make probes from")


def _outer(tp: Any) -> Any:
    """A field's type without None and Annotated around it."""
    while True:
        origin = get_origin(tp)
        if origin is Union or (origin is not None and origin.__name__ == "UnionType"):
            options = [a for a in get_args(tp) if a is not type(None)]
            if len(options) != 1:
                return tp
            tp = options[0]
        elif str(origin) == "typing.Annotated" or getattr(tp, "__metadata__", None):
            tp = get_args(tp)[0]
        else:
            return tp


def _wrong(tp: Any) -> Any:
    """A value of no type the field takes."""
    outer = _outer(tp)
    return "text" if get_origin(outer) in (list, tuple, dict) or (isinstance(outer, type) and issubclass(outer, BaseModel)) \
        else [["zz"]]


def _mutations(model: type[BaseModel], data: dict) -> list[tuple[str, dict]]:
    """(what, the mapping broken so) for each way JSON Schema can say this mapping is wrong."""
    out = [("an unknown key", {**data, "zz_unknown": 1})]
    for name, info in model.model_fields.items():
        key = info.alias or name
        if info.is_required() and key in data:
            out.append((f"{key} missing", {k: v for k, v in data.items() if k != key}))
        if key not in data:
            continue
        out.append((f"{key} of a wrong type", {**data, key: _wrong(info.annotation)}))
        outer = _outer(info.annotation)
        if outer is bool:
            out.append((f"{key}: yes", {**data, key: "yes"}))
        if get_origin(outer) is Literal and len(get_args(outer)) > 1:
            out.append((f"{key} not a choice", {**data, key: NOT_A_CHOICE}))
        for bound in info.metadata:
            number = outer if outer in (int, float) else None
            if isinstance(bound, annotated_types.Ge) and number:
                out.append((f"{key} below its minimum", {**data, key: bound.ge - 1}))
            elif isinstance(bound, annotated_types.Gt) and number:
                out.append((f"{key} at its exclusive minimum", {**data, key: bound.gt}))
            elif isinstance(bound, annotated_types.Le) and number:
                out.append((f"{key} above its maximum", {**data, key: bound.le + 1}))
            elif isinstance(bound, annotated_types.Lt) and number:
                out.append((f"{key} at its exclusive maximum", {**data, key: bound.lt}))
            elif isinstance(bound, annotated_types.MinLen) and bound.min_length >= 1 and outer is str:
                out.append((f"{key} too short", {**data, key: "x" * (bound.min_length - 1)}))
            elif isinstance(bound, annotated_types.MinLen) and bound.min_length == 1 and get_origin(outer) is list:
                out.append((f"{key} empty", {**data, key: []}))
            elif isinstance(bound, annotated_types.MaxLen) and outer is str:
                out.append((f"{key} too long", {**data, key: "x" * (bound.max_length + 1)}))
            elif getattr(bound, "pattern", None) and outer is str:
                out.append((f"{key} not of its pattern", {**data, key: "Not Of The Pattern!"}))
    if {"h", "p", "list", "terms", "table"} <= {info.alias or name for name, info in model.model_fields.items()}:
        out.append(("a block of two keys", {**data, **({"h": "x"} if "h" not in data else {"p": "x"})}))
    return out


def _probes(kind: schemas.SchemaFile) -> list[tuple[str, Any]]:
    base = _base(kind)
    probes = []
    seen: set = set()
    for model, data, loc in walk(kind.model, base):
        if model in seen:  # each model once: its first mapping in the file
            continue
        seen.add(model)
        for what, broken in _mutations(model, data):
            whole = copy.deepcopy(base)
            if loc:
                at = whole
                for part in loc[:-1]:
                    at = at[part]
                at[loc[-1]] = broken
            else:
                whole = broken
            probes.append((f"{kind.name} {'.'.join(map(str, loc)) or '(top)'}: {what}", whole))
    return probes


@pytest.mark.parametrize("kind", KINDS, ids=[k.name for k in KINDS])
def test_the_schema_and_validate_agree_on_probes_of_every_kind(kind):
    schema = json.loads((REPO / "schemas" / f"{kind.name}{schemas.SUFFIX}").read_text(encoding="utf-8"))
    checker = jsonschema.Draft202012Validator(schema)
    base = _base(kind)
    assert checker.is_valid(base) and _passes(kind, base)
    probes = _probes(kind)
    assert len(probes) >= 3
    disagree = [(what, "schema accepts" if checker.is_valid(data) else "validate accepts")
                for what, data in probes if checker.is_valid(data) != _passes(kind, data)]
    assert disagree == [], disagree
    assert not any(checker.is_valid(data) for _, data in probes)  # each probe is a mistake: both refuse it


def test_probes_cover_every_kind_of_mistake():
    said = " ".join(what for kind in KINDS for what, _ in _probes(kind))
    for mistake in ("an unknown key", "missing", "of a wrong type", ": yes", "not a choice", "below its minimum",
                    "above its maximum", "not of its pattern", "a block of two keys", "too long"):
        assert mistake in said, mistake
    assert len(said) > 1000 and Path(schemas.__file__).is_file()

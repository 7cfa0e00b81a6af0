"""Strict models and located validation errors.

Every content and input model derives from `Strict` (unknown keys are errors,
the rendercv way); `validate` turns pydantic's errors into `Problem`s that
name file, line and field, all of them at once.
"""
from __future__ import annotations

import difflib
import functools
from types import UnionType
from typing import Annotated, Any, TypeVar, Union, get_args, get_origin

from pydantic import BaseModel, ConfigDict, TypeAdapter, ValidationError, field_validator, model_validator

from sheets.base import limits

from sheets.base.errors import ContentError, Problem
from sheets.library.yaml_source import YamlDocument

M = TypeVar("M", bound=BaseModel)


def _sane_numbers(value: Any) -> None:
    """Refuse NaN, infinities and absurdly large numbers anywhere in a value (lists and
    mappings included; nested models check themselves)."""
    if isinstance(value, bool):
        return
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise ValueError(f"{value} is not a number this tool can use (give a plain number)")
        if abs(value) > limits.MAX_NUMBER:
            raise ValueError(f"{value:g} is absurdly large (numbers in content stay within "
                             f"±{limits.MAX_NUMBER:.0e})")
    elif isinstance(value, int):
        if abs(value) > limits.MAX_NUMBER:
            digits = len(str(abs(value))) if value.bit_length() < 20_000 else "thousands of"
            raise ValueError(f"a number with {digits} digits is absurdly large (numbers in content stay "
                             f"within ±{limits.MAX_NUMBER:.0e})")
    elif isinstance(value, (list, tuple, set, frozenset)):
        for item in value:
            _sane_numbers(item)
    elif isinstance(value, dict):
        for key, item in value.items():
            _sane_numbers(key)
            _sane_numbers(item)


class Strict(BaseModel):
    """Base for all content models: unknown keys are errors, values are frozen,
    numbers are finite and of sane size (see `sheets.base.limits`)."""

    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=False, allow_inf_nan=False)

    @field_validator("*", mode="after")
    @classmethod
    def _numbers(cls, value: Any) -> Any:
        _sane_numbers(value)
        return value

    @model_validator(mode="before")
    @classmethod
    def _switches_given_true_or_false(cls, data: Any) -> Any:
        """A true/false field takes only true or false: pydantic alone would read 'yes', 'on', 1
        or 'false' (quoted) as a boolean, which YAML 1.2 (the editor's and ours) reads as text or
        a number. The value is swapped for one no boolean accepts, so the field's own error names it."""
        if isinstance(data, dict):
            for key in _switches(cls):
                value = data.get(key)
                if value is not None and type(value) is not bool and not isinstance(value, NotASwitch):
                    data = {**data, key: NotASwitch(value)}
        return data


class NotASwitch:
    """A value given where true or false is asked for; its field's error says what was found."""

    def __init__(self, value: Any):
        self.value = value

    def __repr__(self) -> str:
        return _not_a_switch(self.value)


_YAML11_SWITCHES = {"yes", "no", "on", "off", "y", "n"}


def _not_a_switch(value: Any) -> str:
    """A true/false field given anything else: pydantic would read 'yes', 'on', 1 or '0' as a
    boolean; YAML 1.2 (the editor's, and ours) reads them as text or a number, so say what was found."""
    if isinstance(value, str) and value.strip().lower() in _YAML11_SWITCHES:
        return f"{_quoted(value)} is not true or false (YAML 1.2 reads {value} as text): write true or false"
    if isinstance(value, str) and value.strip().lower() in ("true", "false"):
        return f"{_quoted(value)} is text (in quotes), not true or false: write {value.strip().lower()} without quotes"
    return f"{_quoted(value)} is not true or false: write true or false"


@functools.cache
def _switches(model: type) -> tuple[str, ...]:
    """The keys of `model`'s true/false fields (bool, or bool or None)."""
    def switch(tp: Any) -> bool:
        if tp is bool:
            return True
        args = [a for a in get_args(tp) if a is not type(None)]
        return get_origin(tp) in (Union, UnionType) and bool(args) and all(a is bool for a in args)
    return tuple(info.alias or name for name, info in model.model_fields.items() if switch(info.annotation))


def _quoted(value: Any) -> str:
    """A value as the user wrote it, near enough (5, 'five', true, 1000000000, nan)."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e16:
        value = int(value)
    text = repr(value) if isinstance(value, str) else str(value).lower() if isinstance(value, bool) else str(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _number(value: Any) -> str:
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e16:
        return str(int(value))
    return str(value)  # a number YAML read as text ('1e9') is shown as written


def _bound(ctx: dict, value: Any) -> str:
    limits_said = {"le": "at most", "ge": "at least", "lt": "less than", "gt": "more than"}
    (key, limit), = [(k, v) for k, v in ctx.items() if k in limits_said] or [("le", "?")]
    high = key in ("le", "lt")
    return f"{_number(value)} is too {'high' if high else 'low'}: {limits_said[key]} {_number(limit)}"


#: pydantic's error types, in the project's words (the value given is named; `_message`)
WORDS = {
    "int_parsing": lambda v, c: f"{_quoted(v)} is not a whole number",
    "int_type": lambda v, c: f"{_quoted(v)} is not a whole number",
    "int_from_float": lambda v, c: f"{_quoted(v)} is not a whole number",
    "float_parsing": lambda v, c: f"{_quoted(v)} is not a number",
    "float_type": lambda v, c: f"{_quoted(v)} is not a number",
    "finite_number": lambda v, c: f"{_quoted(v)} is not a finite number (give a plain number)",
    "bool_parsing": lambda v, c: f"{_quoted(v)} is not true or false",
    "bool_type": lambda v, c: f"{_quoted(v)} is not true or false",
    "string_type": lambda v, c: f"{_quoted(v)} is not text (put it in quotes)",
    "list_type": lambda v, c: f"expected a list ([a, b], or one '- item' a line), found {_quoted(v)}",
    "literal_error": lambda v, c: f"{_quoted(v)} is not one of the choices: {c.get('expected', '')}",
    "enum": lambda v, c: f"{_quoted(v)} is not one of the choices: {c.get('expected', '')}",
    "string_too_short": lambda v, c: f"too short: at least {c.get('min_length')} character{'s' if c.get('min_length') != 1 else ''}",
    "string_too_long": lambda v, c: f"too long: at most {c.get('max_length')} characters",
    "too_short": lambda v, c: f"too few: at least {c.get('min_length')} item{'s' if c.get('min_length') != 1 else ''}",
    "too_long": lambda v, c: f"too many: at most {c.get('max_length')} items",
    **{k: lambda v, c: _bound(c, v) for k in ("less_than_equal", "greater_than_equal", "less_than", "greater_than")},
}


def _message(err: dict) -> str:
    kind = err.get("type", "")
    if kind == "extra_forbidden":
        return "unknown key (check the spelling; allowed keys are listed in the README)"
    if kind == "missing":
        return "required key is missing"
    if kind in ("model_type", "model_attributes_type", "dict_type"):
        got = err.get("input")
        if got is None:
            return "empty: a mapping of keys was expected"
        return f"expected a mapping of keys (key: value), found {type(got).__name__} {str(got)[:40]!r}"
    if isinstance(err.get("input"), NotASwitch):
        return repr(err["input"])
    if kind in WORDS:
        return WORDS[kind](err.get("input"), err.get("ctx") or {})
    msg = err.get("msg", "invalid value")
    msg = msg.removeprefix("Value error, ")
    return msg


def _models_in(tp: Any) -> list[type[BaseModel]]:
    """The models a field's type holds (through Optional, list, dict, unions and Annotated)."""
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        return [tp]
    return [m for arg in get_args(tp) for m in _models_in(arg)]


def _keys_at(model: type[BaseModel] | None, loc: tuple) -> list[str]:
    """The keys a mapping at `loc` (a pydantic loc, union tags and all) may hold; [] when unknown."""
    found = [model] if model is not None else []
    for part in loc:
        if isinstance(part, int):
            continue
        tagged = [m for m in found if m.__name__ == part]
        fields = [m2 for m in found if part in m.model_fields for m2 in _models_in(m.model_fields[part].annotation)]
        found = tagged or fields
        if not found:
            return []
    return sorted({f.alias or name for m in found for name, f in m.model_fields.items()})


def _unknown_key(err: dict, model: type[BaseModel] | None) -> tuple[str, str | None]:
    """An unknown key's message, and the known key it is a misspelling of (its `missing` is then the same mistake)."""
    key = err["loc"][-1] if err["loc"] else ""
    allowed = _keys_at(model, tuple(err["loc"][:-1]))
    near = difflib.get_close_matches(str(key), allowed, n=1, cutoff=0.6)
    if near:
        return f"unknown key: did you mean {near[0]!r}?", near[0]
    if allowed:
        return f"unknown key; the keys here are: {', '.join(allowed)}", None
    return _message(err), None


def _data_loc(loc: tuple, data: Any) -> tuple:
    """Drop the parts of a pydantic loc that are not in the data (union tags)."""
    out: list = []
    value = data
    tagged = None  # the mapping whose union tag was dropped already
    for i, part in enumerate(loc):
        try:
            if (isinstance(value, dict) and isinstance(part, str) and i + 1 < len(loc)
                    and part in value.values() and not isinstance(value.get(part), (dict, list))):
                tagged = id(value)
                continue  # a discriminated union's tag (kind: boxes), even when a key has its name
            if (isinstance(value, dict) and i + 1 == len(loc) and tagged != id(value)
                    and value.get("kind") == part):
                continue  # a model-level error of a union member: loc ends with its tag
            if isinstance(value, dict) and part in value:
                value = value[part]
                out.append(part)
                continue
            if isinstance(value, list) and isinstance(part, int) and 0 <= part < len(value):
                value = value[part]
                out.append(part)
                continue
        except TypeError:
            pass
        if isinstance(part, str) and (("[" in part) or part[:1].isupper() or "-" in part):
            continue  # a union member / function validator name, not a data key
        if isinstance(part, str) and value is not None and not isinstance(value, (dict, list)) and i + 1 == len(loc):
            continue  # a union member's name (value.float, value.str) after a plain value
        out.append(part)  # a missing or unknown key: keep it for the message
        value = None
    return tuple(out)


def _value_at(data: Any, loc: tuple) -> Any:
    for part in loc:
        try:
            data = data[part]
        except (KeyError, IndexError, TypeError):
            return None
    return data


def _narrow(loc: tuple, message: str, data: Any) -> tuple[tuple, str]:
    """A model-level check that names one of the model's keys ('summary: ...') points at that key."""
    key, sep, rest = message.partition(": ")
    value = _value_at(data, loc)
    if sep and isinstance(value, dict) and key in value:
        return loc + (key,), rest
    return loc, message


def problems_from(exc: ValidationError, doc: YamlDocument, prefix: tuple = (),
                  model: type[BaseModel] | None = None) -> list[Problem]:
    """Every error of `exc`, located and in the project's words; with `model`, an unknown key names the
    nearest known one (and a required key it misspells is not reported missing as well)."""
    messages: dict[tuple, list[str]] = {}
    errors = exc.errors()
    said: dict[int, str] = {}
    misspelt: set[tuple] = set()
    for i, err in enumerate(errors):
        if err.get("type") == "extra_forbidden":
            said[i], near = _unknown_key(err, model)
            if near is not None:
                misspelt.add(tuple(err["loc"][:-1]) + (near,))
    for i, err in enumerate(errors):
        if err.get("type") == "missing" and tuple(err["loc"]) in misspelt:
            continue
        loc = _data_loc(tuple(err["loc"]), doc.data)
        loc, message = _narrow(prefix + loc, said.get(i) or _message(err), doc.data)
        if message not in messages.setdefault(loc, []):
            messages[loc].append(message)  # a union's members each complain: one problem, all reasons
    return [doc.problem(loc, "; or ".join(found)) for loc, found in messages.items()]


def validate(model: type[M], doc: YamlDocument, context: dict | None = None) -> M:
    """Validate a whole YAML document against `model`, or raise located errors."""
    try:
        return model.model_validate(doc.data, context=context)
    except ValidationError as exc:
        raise ContentError(problems_from(exc, doc, model=model)) from None


def validate_each(model: type[M], doc: YamlDocument) -> tuple[M | None, set[str], list[Problem]]:
    """Every problem of a document at once: (the model with each top-level key that passed, the keys that
    did not, their problems). A key that failed takes its default (None when it has none, as a required
    key that is missing), so the checks that read the other keys still run; None when the document is
    not a mapping."""
    try:
        return model.model_validate(doc.data), set(), []
    except ValidationError as exc:
        problems = problems_from(exc, doc, model=model)
        failed = {str(e["loc"][0]) for e in exc.errors() if e["loc"]}
    if not isinstance(doc.data, dict) or not failed:
        return None, failed, problems
    values: dict[str, Any] = {}
    for name, info in model.model_fields.items():
        key = info.alias or name
        if key in failed or key not in doc.data:
            values[name] = None if info.is_required() else info.get_default(call_default_factory=True)
            continue
        try:
            values[name] = TypeAdapter(Annotated[info.annotation, info]).validate_python(doc.data[key])
        except ValidationError:
            values[name] = None if info.is_required() else info.get_default(call_default_factory=True)
            failed.add(key)
    return model.model_construct(**values), failed, problems


def collect(problems: list[Problem], model: type[M], doc: YamlDocument, context: dict | None = None) -> M | None:
    """Like `validate`, but add problems to a list so that all files are checked."""
    try:
        return validate(model, doc, context)
    except ContentError as exc:
        problems.extend(exc.problems)
        return None

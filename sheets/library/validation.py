"""Strict models and located validation errors.

Every content and input model derives from `Strict` (unknown keys are errors,
the rendercv way); `validate` turns pydantic's errors into `Problem`s that
name file, line and field, all of them at once.
"""
from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError, field_validator

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
    msg = err.get("msg", "invalid value")
    msg = msg.removeprefix("Value error, ")
    return msg


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


def problems_from(exc: ValidationError, doc: YamlDocument, prefix: tuple = ()) -> list[Problem]:
    messages: dict[tuple, list[str]] = {}
    for err in exc.errors():
        loc = _data_loc(tuple(err["loc"]), doc.data)
        loc, message = _narrow(prefix + loc, _message(err), doc.data)
        if message not in messages.setdefault(loc, []):
            messages[loc].append(message)  # a union's members each complain: one problem, all reasons
    return [doc.problem(loc, "; or ".join(found)) for loc, found in messages.items()]


def validate(model: type[M], doc: YamlDocument, context: dict | None = None) -> M:
    """Validate a whole YAML document against `model`, or raise located errors."""
    try:
        return model.model_validate(doc.data, context=context)
    except ValidationError as exc:
        raise ContentError(problems_from(exc, doc)) from None


def collect(problems: list[Problem], model: type[M], doc: YamlDocument, context: dict | None = None) -> M | None:
    """Like `validate`, but add problems to a list so that all files are checked."""
    try:
        return validate(model, doc, context)
    except ContentError as exc:
        problems.extend(exc.problems)
        return None

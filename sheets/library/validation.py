"""Strict models and located validation errors.

Every content and input model derives from `Strict` (unknown keys are errors,
the rendercv way); `validate` turns pydantic's errors into `Problem`s that
name file, line and field, all of them at once.
"""
from __future__ import annotations

import difflib
import functools
import inspect
from types import UnionType
from typing import Annotated, Any, ClassVar, Literal, TypeVar, Union, get_args, get_origin

from pydantic import BaseModel, ConfigDict, TypeAdapter, ValidationError, ValidationInfo, field_validator, model_validator

from sheets.base import limits

from sheets.base.errors import ContentError, Problem
from sheets.library.messages import NotASwitch, message as _message
from sheets.library.located import Found, duplicates, id_lists, walk
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

    #: the list fields whose items' `id`s differ; None: every list of items that have an `id`
    #: (`located.id_lists`). Checked on the data as written when a file loads (`sheets.library.located`,
    #: each duplicate at its line, naming the first's), else by the model
    unique_ids: ClassVar[tuple[str, ...] | None] = None

    @classmethod
    def located_checks(cls, data: dict) -> list[Found]:
        """Problems of this model's data as written (before, and whatever, its fields' validation)."""
        return [found for key in id_lists(cls) for found in duplicates(data.get(key), "id", _one(key), (key,))]

    @model_validator(mode="after")
    def _ids_differ(self, info: ValidationInfo):
        if id_lists(type(self)) and not (info.context or {}).get(LOCATED):
            for key in id_lists(type(self)):
                ids = [item.id for item in getattr(self, key)]
                twice = next((i for n, i in enumerate(ids) if i in ids[:n]), None)
                if twice is not None:
                    raise ValueError(f"{key}: {_one(key)} id {twice!r} is used twice")
        return self

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


#: validation context: the data's located checks ran already (`FileLoader`), the model skips its own
LOCATED = "located"


def _one(key: str) -> str:
    """What one item of a list field is called: cards -> card."""
    return key[:-1] if key.endswith("s") else key


@functools.cache
def _switches(model: type) -> tuple[str, ...]:
    """The keys of `model`'s true/false fields (bool, or bool or None)."""
    def switch(tp: Any) -> bool:
        if tp is bool:
            return True
        args = [a for a in get_args(tp) if a is not type(None)]
        return get_origin(tp) in (Union, UnionType) and bool(args) and all(a is bool for a in args)
    return tuple(info.alias or name for name, info in model.model_fields.items() if switch(info.annotation))


def _models_in(tp: Any) -> list[type[BaseModel]]:
    """The models a field's type holds (through Optional, list, dict, unions and Annotated)."""
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        return [tp]
    return [m for arg in get_args(tp) for m in _models_in(arg)]


def _tagged(model: type[BaseModel], tag: Any) -> bool:
    """Is `tag` the value of one of the model's fixed fields (a discriminated union's `kind: boxes`)?"""
    return any(get_origin(info.annotation) is Literal and tag in get_args(info.annotation)
               for info in model.model_fields.values())


def _keys_at(model: type[BaseModel] | None, loc: tuple) -> list[str]:
    """The keys a mapping at `loc` (a pydantic loc, union tags and all) may hold; [] when unknown."""
    found = [model] if model is not None else []
    for part in loc:
        if isinstance(part, int):
            continue
        tagged = [m for m in found if m.__name__ == part or _tagged(m, part)]
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


_TYPE_NAMES = {"str", "int", "float", "bool", "none", "list", "dict"}


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
        if isinstance(part, str) and i + 1 == len(loc) and part in _TYPE_NAMES:
            continue  # ... or after a mapping or list where a plain value was asked for
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
        if err.get("type") == "union_tag_invalid":  # at the line of `kind: clock`, not of the item
            loc += (str((err.get("ctx") or {}).get("discriminator", "")).strip("'"),)
        loc, message = _narrow(prefix + loc, said.get(i) or _message(err), doc.data)
        if message not in messages.setdefault(loc, []):
            messages[loc].append(message)  # a union's members each complain: one problem, all reasons
    return [doc.problem(loc, "; or ".join(found)) for loc, found in messages.items()]


def validate(model: type[M], doc: YamlDocument, context: dict | None = None) -> M:
    """Validate a whole YAML document against `model`, or raise located errors: every one, the
    checks across a mapping's fields too (which pydantic skips when one of its fields failed)."""
    try:
        return model.model_validate(doc.data, context=context)
    except ValidationError as exc:
        problems = problems_from(exc, doc, model=model)
        said = {(p.line, p.field, p.message) for p in problems}
        hidden = [p for p in hidden_problems(model, doc, exc) if (p.line, p.field, p.message) not in said]
        raise ContentError(problems + hidden) from None


class _Info:
    """What a model's own check is given as its `info`: the file's located checks ran."""

    context = {LOCATED: True}


@functools.cache
def _checks_across_fields(model: type[BaseModel]) -> tuple:
    """The model's own `mode="after"` validators (Strict's shared ones aside), each with its arity."""
    shared = set(Strict.__pydantic_decorators__.model_validators)
    return tuple((d.func, len(inspect.signature(d.func).parameters)) for name, d in
                 model.__pydantic_decorators__.model_validators.items() if d.info.mode == "after" and name not in shared)


@functools.cache
def _field_reader(model: type[BaseModel], name: str) -> TypeAdapter:
    info = model.model_fields[name]
    return TypeAdapter(Annotated[(info.annotation, *info.metadata)] if info.metadata else info.annotation)


class _Failed:
    """A field given but failing its own validation: a check across fields that reads it raises TypeError
    (and says nothing). Not None: a block whose table failed still has its one key (a None here made
    "a block has exactly one of the keys" a second, false, problem beside the table's own)."""

    def _unreadable(self, *_args: Any) -> Any:
        raise TypeError("a field that failed its own validation")

    __getattr__ = __bool__ = __iter__ = __len__ = __contains__ = __getitem__ = _unreadable
    __eq__ = __ne__ = __lt__ = __le__ = __gt__ = __ge__ = _unreadable
    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = __truediv__ = __int__ = __float__ = _unreadable
    __str__ = __format__ = _unreadable
    __hash__ = None  # type: ignore[assignment]


def _partial(model: type[BaseModel], data: dict) -> BaseModel:
    """The model made of the fields that pass (a field missing is None, its default when it has one;
    a field given that fails is `_Failed`)."""
    values: dict[str, Any] = {}
    for name, info in model.model_fields.items():
        key = info.alias or name
        fallback = None if info.is_required() else info.get_default(call_default_factory=True)
        try:
            values[name] = _field_reader(model, name).validate_python(data[key]) if key in data else fallback
        except (ValidationError, TypeError):
            values[name] = _Failed()
    return model.model_construct(**values)


def hidden_problems(model: type[BaseModel], doc: YamlDocument, exc: ValidationError) -> list[Problem]:
    """What the checks across a mapping's fields (a tracker's circles within its boxes, a table's rows
    as long as its header) say of the fields that passed, where another field of the mapping failed."""
    failed = [_data_loc(tuple(e["loc"]), doc.data) for e in exc.errors()]
    problems: list[Problem] = []
    for each, data, loc in walk(model, doc.data):
        checks = _checks_across_fields(each)
        if not checks or not any(f[:len(loc)] == loc and len(f) > len(loc) for f in failed):
            continue  # none, or the mapping passed: pydantic ran them
        made = _partial(each, data)
        for check, arity in checks:
            try:
                check(made, _Info()) if arity == 2 else check(made)
            except ValueError as error:
                where, message = _narrow(loc, str(error), doc.data)
                problems.append(doc.problem(where, message))
            except Exception:  # noqa: BLE001 - the check read a field that failed (None): nothing to say
                continue
    return problems


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

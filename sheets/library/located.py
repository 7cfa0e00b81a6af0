"""Checks run on a file's own data, beside its model's: duplicate ids and dice coverage.

A model's validators run only when every field below them is valid, so one wrong type in a
card would hide the set's duplicate ids. These checks read the data as written instead,
wherever the model says a kind of thing sits (`Strict.unique_ids`, `Strict.located_checks`),
so every one of them is reported with the rest, each at the line it names: a duplicate at
the twin's line, naming the first one's.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from types import UnionType
from collections.abc import Iterator
from typing import Annotated, Any, Literal, Union, get_args, get_origin

from pydantic import BaseModel


@dataclass(frozen=True)
class Found:
    """One problem at `loc` (a path in the data); `first`: where what it repeats was written."""

    loc: tuple
    message: str
    first: tuple | None = None


def duplicates(items: Any, key: str, what: str, at: tuple = ()) -> list[Found]:
    """Items of a list (as written) whose `key` repeats an earlier item's: each at its own line."""
    if not isinstance(items, list):
        return []
    seen: dict[Any, int] = {}
    found: list[Found] = []
    for i, item in enumerate(items):
        value = item.get(key) if isinstance(item, dict) else None
        if value is None or isinstance(value, (dict, list)):
            continue
        if value in seen:
            found.append(Found(at + (i, key), f"{what} id {value!r} is used twice", at + (seen[value], key)))
        else:
            seen[value] = i
    return found


def check(model: type[BaseModel], data: Any) -> list[Found]:
    """Every located problem of `data`, read as `model` would read it (through lists, mappings,
    optional values and unions), whatever else is wrong with it."""
    found: list[Found] = []
    for each, part, loc in walk(model, data, only_checked=True):
        if _own_checks(each):
            found += [Found(loc + f.loc, f.message, loc + f.first if f.first is not None else None)
                      for f in getattr(each, "located_checks")(part)]  # Strict's, or the model's own
    return found


def walk(model: type[BaseModel], data: Any, only_checked: bool = False) -> Iterator[tuple[type[BaseModel], dict, tuple]]:
    """(model, its mapping as written, where) for every mapping of `data` that a model reads;
    `only_checked`: not into values that hold nothing with located checks."""
    yield from _model(model, data, (), only_checked)


@functools.cache
def id_lists(model: type[BaseModel]) -> tuple[str, ...]:
    """The keys of `model`'s lists whose items have an `id` (cards, tokens, trackers, sections...): their
    ids differ. A model may say otherwise (`unique_ids`, a tuple of keys, `()` for none)."""
    declared = getattr(model, "unique_ids", None)
    if declared is not None:
        return tuple(declared)
    keys = []
    for name, info in model.model_fields.items():
        tp = info.annotation
        options = [a for a in get_args(tp) if a is not type(None)] if get_origin(tp) in (Union, UnionType) else [tp]
        if len(options) != 1 or get_origin(options[0]) is not list or not get_args(options[0]):
            continue
        item = get_args(options[0])[0]
        item = get_args(item)[0] if get_origin(item) is Annotated else item
        members = _models(item) or [m for a in get_args(item) for m in _models(a)]
        if members and all("id" in m.model_fields for m in members):
            keys.append(info.alias or name)
    return tuple(keys)


def _own_checks(model: type[BaseModel]) -> bool:
    own = getattr(model, "located_checks", None)
    return own is not None and (bool(id_lists(model)) or "located_checks" in model.__dict__)


_BUSY: set = set()


@functools.cache
def _checked(tp: Any) -> bool:
    """Does a value of type `tp` hold anything with located checks? (So the rest is not walked.)"""
    if _models(tp):
        if tp in _BUSY:
            return False  # a model that holds itself: its own answer is being worked out
        _BUSY.add(tp)
        try:
            return _own_checks(tp) or any(_checked(info.annotation) for info in tp.model_fields.values())
        finally:
            _BUSY.discard(tp)
    return any(_checked(arg) for arg in get_args(tp) if not isinstance(arg, (str, int, float)) and arg is not None)


def _model(model: type[BaseModel], data: Any, loc: tuple, only: bool) -> Iterator:
    if not isinstance(data, dict):
        return
    yield model, data, loc
    for name, info in model.model_fields.items():
        key = info.alias or name
        if key in data and (not only or _checked(info.annotation)):  # type: ignore[arg-type]  # a type is hashable
            yield from _value(info.annotation, data[key], loc + (key,), only)


def _models(tp: Any) -> list[type[BaseModel]]:
    return [tp] if isinstance(tp, type) and issubclass(tp, BaseModel) else []


def _member(members: list[type[BaseModel]], value: Any) -> type[BaseModel] | None:
    """The union member a mapping is: the one whose fixed fields (`kind: boxes`) it matches."""
    if len(members) == 1:
        return members[0]
    if not isinstance(value, dict):
        return None
    for member in members:
        fixed = {info.alias or name: get_args(info.annotation) for name, info in member.model_fields.items()
                 if get_origin(info.annotation) is Literal}
        if fixed and all(value.get(key) in choices for key, choices in fixed.items()):
            return member
    return None


def _value(tp: Any, value: Any, loc: tuple, only: bool) -> Iterator:
    if _models(tp):
        yield from _model(tp, value, loc, only)
        return
    origin, args = get_origin(tp), get_args(tp)
    if origin is Annotated:
        yield from _value(args[0], value, loc, only)
    elif origin in (Union, UnionType):
        options = [a for a in args if a is not type(None)]
        members = [m for a in options for m in _models(get_args(a)[0] if get_origin(a) is Annotated else a)]
        if len(members) == len(options):
            member = _member(members, value)
            if member is not None:
                yield from _model(member, value, loc, only)
        elif len(options) == 1:
            yield from _value(options[0], value, loc, only)
    elif origin is list and isinstance(value, list) and args:
        for i, item in enumerate(value):
            yield from _value(args[0], item, loc + (i,), only)
    elif origin is dict and isinstance(value, dict) and len(args) == 2:
        for key, item in value.items():
            yield from _value(args[1], item, loc + (key,), only)

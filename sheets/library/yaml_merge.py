"""A user's file written again without losing what the user wrote in it.

A command that changes a user's YAML file (a campaign's state and entries) knows the new
values, not the user's comments, key order or quoting. `carried_over(old_text, new_text)`
gives the new values in the old text: both are read round-trip (ruamel.yaml), the new
values are put into the old document (a key the user moved stays where it is; a key that
is new goes after the key it follows in the new text; a value that did not change keeps
its quoting), and the old document is written out. Comments belong to the document's
containers (ruamel keeps them by key, by list index and at a list's end), so every comment
stays beside what it was written beside: the lines above `entries:` stay above it however
long the list before them grows. Only comments on list items that are dropped (an `undo`)
go with them.
"""
from __future__ import annotations

import io

import re

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.constructor import RoundTripConstructor
from ruamel.yaml.error import YAMLError
from ruamel.yaml.representer import RoundTripRepresenter
from ruamel.yaml.resolver import VersionedResolver
from ruamel.yaml.scalarstring import PlainScalarString

from sheets.library.yaml_source import CORE_SCHEMA, as_written


_CORE_TABLE: dict = {}  # first character -> [(tag, pattern)], as ruamel's resolvers keep them
for _tag, (_pattern, _first) in CORE_SCHEMA.items():
    for _char in list(_first) + ([""] if _tag.endswith(":null") else []):
        _CORE_TABLE.setdefault(_char, []).append((_tag, re.compile(_pattern)))


class CoreResolver(VersionedResolver):
    """YAML 1.2's core schema, the one `sheets.library.yaml_source.Loader` reads: no dates and no
    `1_000` (ruamel's own 1.2 resolver reads both)."""

    @property
    def versioned_resolver(self):
        return _CORE_TABLE


class WrittenNumber(PlainScalarString):
    """A plain scalar YAML 1.2 reads as a number, written otherwise than the number prints (`010`,
    `+1`, `1.50`): text, as the CLI reads it, written back plain as it was."""

    __slots__ = ("tag",)

    def __new__(cls, value: str, tag: str) -> "WrittenNumber":
        made = super().__new__(cls, value)
        made.tag = tag
        return made


class AsWrittenConstructor(RoundTripConstructor):
    def construct_yaml_int(self, node):
        value = as_written(self.construct_scalar(node), int)
        return WrittenNumber(value, node.tag) if isinstance(value, str) else super().construct_yaml_int(node)

    def construct_yaml_float(self, node):
        value = as_written(self.construct_scalar(node), float)
        return WrittenNumber(value, node.tag) if isinstance(value, str) else super().construct_yaml_float(node)


AsWrittenConstructor.add_constructor("tag:yaml.org,2002:int", AsWrittenConstructor.construct_yaml_int)
AsWrittenConstructor.add_constructor("tag:yaml.org,2002:float", AsWrittenConstructor.construct_yaml_float)


class AsWrittenRepresenter(RoundTripRepresenter):
    pass


AsWrittenRepresenter.add_representer(
    WrittenNumber, lambda representer, data: representer.represent_scalar(str(data.tag), str(data)))


def round_trip(width: int = 110) -> YAML:
    """ruamel's round-trip reader and writer (comments, key order, quoting kept), reading plain
    text as the CLI's reader does (YAML 1.2 core, numbers as written): the desk's and this module's."""
    yaml = YAML()
    yaml.Resolver = CoreResolver
    yaml.Constructor = AsWrittenConstructor
    yaml.Representer = AsWrittenRepresenter
    yaml.width = width
    yaml.preserve_quotes = True
    return yaml



def _kind(value) -> type | None:
    for kind in (bool, int, float, str):
        if isinstance(value, kind):
            return kind
    return None if value is None else type(value)


def _same_style(old, new) -> None:
    """A list or mapping written as the new text writes it (`[]` that grows becomes a block).
    ruamel sets the style of every non-empty collection it reads; an empty one is written `[]`
    or `{}` whatever its style, so block is the style of an unset one."""
    if new.fa.flow_style():
        old.fa.set_flow_style()
    else:
        old.fa.set_block_style()


def _merge_map(old: CommentedMap, new: CommentedMap) -> CommentedMap:
    for key in [k for k in old if k not in new]:
        del old[key]
        old.ca.items.pop(key, None)
    before = None
    for key, value in new.items():
        if key in old:
            old[key] = _merge(old[key], value)
        else:
            at = list(old).index(before) + 1 if before is not None else 0
            old.insert(at, key, value)
            if key in new.ca.items:
                old.ca.items[key] = new.ca.items[key]
        before = key
    _same_style(old, new)
    return old


def _merge_seq(old: CommentedSeq, new: CommentedSeq) -> CommentedSeq:
    for i in range(min(len(old), len(new))):
        old[i] = _merge(old[i], new[i])
    if len(old) > len(new):
        del old[len(new):]
        for i in [i for i in old.ca.items if isinstance(i, int) and i >= len(new)]:
            del old.ca.items[i]
    for i in range(len(old), len(new)):
        old.append(new[i])
        if i in new.ca.items:
            old.ca.items[i] = new.ca.items[i]
    _same_style(old, new)
    return old


def _merge(old, new):
    if isinstance(old, CommentedMap) and isinstance(new, CommentedMap):
        return _merge_map(old, new)
    if isinstance(old, CommentedSeq) and isinstance(new, CommentedSeq):
        return _merge_seq(old, new)
    if not isinstance(old, (CommentedMap, CommentedSeq)) and _kind(old) is _kind(new) and old == new:
        return old  # unchanged: as the user wrote it (quotes and all)
    return new


def carried_over(old_text: str, new_text: str, *, width: int = 110) -> str | None:
    """`new_text`'s values in `old_text`'s document (its comments, key order, quoting); None when
    either text is not one mapping the round-trip reader takes (the caller writes `new_text`)."""
    reader = round_trip(width)  # both texts were read and checked by yaml_source first; this keeps their comments
    try:
        old, new = reader.load(old_text), reader.load(new_text)
    except YAMLError:
        return None
    if not isinstance(old, CommentedMap) or not isinstance(new, CommentedMap):
        return None
    buffer = io.StringIO()
    reader.dump(_merge(old, new), buffer)
    return buffer.getvalue()

"""pydantic's errors, and values given where true or false is asked for, in the project's words:
each message names the value found and says what the field takes (never a regex or a pydantic type)."""
from __future__ import annotations

import difflib
from typing import Any

from sheets.library.ids import pattern_words

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


def _quoted(value: Any) -> str:
    """A value as the user wrote it, near enough (5, 'five', true, 1000000000, nan)."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e16:
        value = int(value)
    text = repr(value) if isinstance(value, str) else str(value).lower() if isinstance(value, bool) else str(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _not_whole(value: Any) -> str:
    """A strict whole-number field (a user's file: sheets.games.wotw.records.Whole) given anything
    else: what was found, and how to write it (4.0 is said as written, not as the 4 it would be)."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e16:
        return f"{value!r} is a decimal number, not a whole number: write {int(value)}"
    if isinstance(value, str) and value.strip().lstrip("+-").isdigit():
        return f"{_quoted(value)} is text (in quotes), not a whole number: write {value.strip()} without quotes"
    return f"{_quoted(value)} is not a whole number"


def _number(value: Any) -> str:
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e16:
        return str(int(value))
    return str(value)  # a number YAML read as text ('1e9') is shown as written


def _tag_words(ctx: dict) -> str:
    """`kind: clock` where the kinds are boxes, grid and clocks: the kinds, and the nearest."""
    expected = [t.strip(" '") for t in str(ctx.get("expected_tags", "")).split(",") if t.strip(" '")]
    near = difflib.get_close_matches(str(ctx.get("tag")), expected, n=1, cutoff=0.6)
    hint = f"did you mean {near[0]!r}? " if near else ""
    return f"{_quoted(ctx.get('tag'))} is not one of the kinds: {hint}the kinds are {', '.join(expected)}"


def _bound(ctx: dict, value: Any) -> str:
    limits_said = {"le": "at most", "ge": "at least", "lt": "less than", "gt": "more than"}
    (key, limit), = [(k, v) for k, v in ctx.items() if k in limits_said] or [("le", "?")]
    high = key in ("le", "lt")
    return f"{_number(value)} is too {'high' if high else 'low'}: {limits_said[key]} {_number(limit)}"


def _too_many(ctx: dict) -> str:
    """A list past its bound: how many it has (when pydantic counted them) and the bound."""
    bound, found = ctx.get("max_length"), ctx.get("actual_length")
    had = f"{found:,} items, " if isinstance(found, int) else ""
    return f"too many: {had}at most {bound:,}" if isinstance(bound, int) else f"too many: at most {bound} items"


#: pydantic's error types, in the project's words (the value given is named; `_message`)
WORDS = {
    "int_parsing": lambda v, c: f"{_quoted(v)} is not a whole number",
    "int_type": lambda v, c: _not_whole(v),
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
    "too_long": lambda v, c: _too_many(c),
    "union_tag_invalid": lambda v, c: _tag_words(c),
    "union_tag_not_found": lambda v, c: f"{str(c.get('discriminator', 'kind')).strip(chr(39))} is missing: it says "
                                        f"which kind this is",
    "string_pattern_mismatch": lambda v, c: f"{_quoted(v)}: {pattern_words(c.get('pattern'))}",
    **{k: lambda v, c: _bound(c, v) for k in ("less_than_equal", "greater_than_equal", "less_than", "greater_than")},
}


def message(err: dict) -> str:
    """One pydantic error in words."""
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

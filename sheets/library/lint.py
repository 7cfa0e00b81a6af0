"""Content lint: YAML that is valid but would print something the author did not mean.

Only a double-quoted YAML string turns escapes into characters: `"12\\""` is `12"`. In
a block scalar (`|`, `>`), a plain or a single-quoted one, a backslash escape stays as
typed, so `12\\"` prints a backslash on the sheet; in a block scalar a doubled `''` (the
single-quoted way of writing one quote) prints two. Each is reported with file and line.
"""
from __future__ import annotations

import re

from sheets.base.errors import Problem
from sheets.library.yaml_source import scalar_events

# what an author writes meaning an escape: \" \' \\ \n \t \/ \0, \uXXXX, \xXX
_ESCAPE = re.compile(r"""\\(?:["'\\/nt0]|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2})""")
_DOUBLED_QUOTE = re.compile(r"''")
_STYLE = {"|": "a block scalar (|)", ">": "a folded block scalar (>)", None: "an unquoted value",
          "'": "a single-quoted value"}


def literal_escapes(text: str, name: str) -> list[Problem]:
    """Every escape sequence that would print literally, as a located problem."""
    problems: list[Problem] = []
    for event in scalar_events(text):
        if event.style == '"':
            continue
        style = event.style or None  # plain: None (PyYAML) or "" (libyaml)
        source = text[event.start_mark.index:event.end_mark.index]
        found = [(m.start(), m.group(0)) for m in _ESCAPE.finditer(source)]
        if style in ("|", ">"):
            found += [(m.start(), "''") for m in _DOUBLED_QUOTE.finditer(source)]
        for offset, what in sorted(found)[:1]:  # one per value: the author fixes them together
            line = event.start_mark.line + 1 + source[:offset].count("\n")
            fix = ("write the character itself (a double-quoted string is the only kind that reads "
                   "escapes)" if what != "''" else "write one ' (only a single-quoted string doubles it)")
            problems.append(Problem(name, line, "", f"{what} in {_STYLE.get(style, 'this value')} "
                                                    f"prints literally: {fix}"))
    return problems


# `color: #1f4e79`: after ": " a # starts a comment, so the value is empty (no colour at all)
_COLOUR_COMMENT = re.compile(r"^\s*(?:- )?([\w-]+):[ \t]+(#[0-9a-fA-F]{6}|#[0-9a-fA-F]{3})\b")


def colour_comments(text: str, name: str) -> list[Problem]:
    """A colour written without quotes: YAML reads it as a comment and the key as empty."""
    return [Problem(name, n, m.group(1), f"{m.group(2)} after ': ' starts a comment, so this value is empty: "
                                         f"put the colour in quotes (\"{m.group(2)}\")")
            for n, line in enumerate(text.splitlines(), 1) if (m := _COLOUR_COMMENT.match(line))]

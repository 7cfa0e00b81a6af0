"""Read YAML while remembering the line of every value.

Validation errors must name file, line and field; PyYAML's node tree has the
line marks, so we compose nodes, construct the data, and keep a map from each
value's path to its (1-based) line.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from sheets.base import limits
from sheets.base.userfiles import STDIN, UnreadableFile, read_user_file
from sheets.base.errors import ContentError, Problem, format_loc


@dataclass
class YamlDocument:
    """Parsed YAML data plus the line of every mapping key and list item."""

    name: str  # how the file is named in messages (relative path)
    data: Any
    lines: dict[tuple, int] = field(default_factory=dict)
    node: Any = field(default=None, repr=False, compare=False)  # the root node, when asked for (keep_node)

    def line_of(self, loc: tuple) -> int | None:
        """The line of `loc`, or of its nearest ancestor that has one."""
        loc = tuple(loc)
        while loc:
            if loc in self.lines:
                return self.lines[loc]
            loc = loc[:-1]
        return self.lines.get((), 1)

    def problem(self, loc: tuple, message: str) -> Problem:
        return Problem(self.name, self.line_of(loc), format_loc(loc), message)

    def sub(self, loc: tuple) -> "YamlDocument":
        """A view of the value at `loc`, keeping line numbers."""
        value = self.data
        for part in loc:
            value = value[part]
        n = len(loc)
        lines = {k[n:]: v for k, v in self.lines.items() if k[:n] == tuple(loc)}
        return YamlDocument(self.name, value, lines)


# libyaml's parser is ~10x faster and keeps the same line marks; fall back to pure Python.
_Base = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class Loader(_Base):  # type: ignore[misc,valid-type]
    """PyYAML's safe loader reading YAML 1.2's core schema, as an editor (and ruamel) does.

    PyYAML resolves plain text by YAML 1.1: `yes`, `on`, `NO` and `OFF` are booleans, `1:30` is
    90 (base 60), `010` is 8, `1_000` is 1000 and `2024-05-01` a date. Here only `true`/`false`
    (any case of those two) are booleans, `null` and `~` nothing, and a number is a number when
    it is written the way the number prints (`12`, `-3`, `2.5`): any other plain text (`yes`,
    `1:30`, `010`, `+1`, `1.50`, `1_000`, a date) stays the text the author wrote. A field whose
    model asks for a number still reads `010` or `+1` as one; a boolean field takes only
    true or false (`sheets.library.validation`), so nothing changes behind the author's back.
    """

    yaml_implicit_resolvers: dict = {}
    yaml_constructors = dict(_Base.yaml_constructors)


#: YAML 1.2 core schema (https://yaml.org/spec/1.2.2/#1032-tag-resolution): tag -> (pattern, first
#: characters); `yaml_merge.CoreResolver` (the desk's ruamel) reads by the same table
CORE_SCHEMA = {
    "tag:yaml.org,2002:null": (r"^(?:~|null|Null|NULL|)$", "~nN"),
    "tag:yaml.org,2002:bool": (r"^(?:true|True|TRUE|false|False|FALSE)$", "tTfF"),
    "tag:yaml.org,2002:int": (r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$", "-+0123456789"),
    "tag:yaml.org,2002:float": (r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
                                r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$", "-+.0123456789"),
    "tag:yaml.org,2002:merge": (r"^(?:<<)$", "<"),  # `<<: *defaults`, which ruamel reads in 1.2 too
}
for _tag, (_pattern, _first) in CORE_SCHEMA.items():
    Loader.add_implicit_resolver(_tag, re.compile(_pattern), list(_first))
Loader.add_implicit_resolver("tag:yaml.org,2002:null", re.compile(r"^$"), [""])

_PRINTED_INT = re.compile(r"-?(?:0|[1-9][0-9]*)")


def as_written(text: str, kind: type) -> int | float | str:
    """A plain scalar YAML 1.2 reads as a number (`kind`, int or float): the number when its text
    is how the number prints (`12`, `-3`, `2.5`; `.inf` and `.nan` too, which the models refuse in
    their words), else the text (`010`, `+1`, `0x1F`, `1.50`, `1e3`, `.5`)."""
    if kind is int:
        return int(text) if _PRINTED_INT.fullmatch(text) else text
    lowered = text.lower()
    if lowered.lstrip("+-") in (".inf", ".nan"):
        return float(lowered.replace(".", ""))
    try:
        value = float(text)
    except ValueError:
        return text
    return value if repr(value) == text else text


def _int_as_written(loader, node):
    return as_written(loader.construct_scalar(node), int)


def _float_as_written(loader, node):
    return as_written(loader.construct_scalar(node), float)


Loader.add_constructor("tag:yaml.org,2002:int", _int_as_written)
Loader.add_constructor("tag:yaml.org,2002:float", _float_as_written)
for _text in ("tag:yaml.org,2002:timestamp", "tag:yaml.org,2002:merge"):  # a date; `<<` as a value
    Loader.add_constructor(_text, Loader.yaml_constructors["tag:yaml.org,2002:str"])


def _walk(loader, node: yaml.Node, loc: tuple, lines: dict, problems: list, name: str) -> None:
    lines.setdefault(loc, node.start_mark.line + 1)
    if isinstance(node, yaml.MappingNode):
        seen: set = set()
        for key_node, value_node in node.value:
            key = loader.construct_object(key_node, deep=True)
            if isinstance(key, list):
                key = tuple(key)
            if key in seen:
                problems.append(Problem(name, key_node.start_mark.line + 1, format_loc(loc + (key,)),
                                        "duplicate key (the second one would silently win)"))
            seen.add(key)
            lines[loc + (key,)] = key_node.start_mark.line + 1
            _walk(loader, value_node, loc + (key,), lines, problems, name)
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            _walk(loader, item, loc + (i,), lines, problems, name)


class _Shape(Exception):
    """The document's shape breaks a limit (too deep, aliases expand too far)."""

    def __init__(self, line: int | None, message: str):
        super().__init__(message)
        self.line = line
        self.message = message


def _events(text: str):
    """PyYAML's event stream (a seam for tests that play a newer PyYAML's refusals)."""
    return yaml.parse(text, Loader=Loader)


def scalar_events(text: str) -> list:
    """Every scalar of a document as PyYAML's event (value, style, marks), for the content
    lint; none when the text is malformed (the loader reports that, located)."""
    try:
        return [e for e in _events(text) if isinstance(e, yaml.ScalarEvent)]
    except yaml.YAMLError:
        return []


_DEPTH_MESSAGE = (f"nested more than {limits.MAX_YAML_DEPTH} levels deep (lists or mappings inside "
                  f"each other); content never needs that many")


def _own_limit(exc: yaml.MarkedYAMLError) -> _Shape | None:
    """PyYAML's own guard rails, in our words.

    Newer PyYAML releases (libyaml's MAX_NESTING_LEVEL, from 6.0.4) refuse deep nesting or
    alias expansion themselves, sometimes before our event-stream check sees the depth; the
    user gets the same located message whichever PyYAML is installed.
    """
    reason = f"{exc.problem or ''} {exc.context or ''}".lower()
    mark = exc.problem_mark or exc.context_mark
    line = mark.line + 1 if mark else None
    if "nesting" in reason and ("depth" in reason or "level" in reason):
        return _Shape(line, _DEPTH_MESSAGE)
    if "alias" in reason and any(word in reason for word in ("exceed", "too many", "limit", "maximum")):
        return _Shape(line, f"aliases (*name) here expand to more than the {limits.MAX_YAML_NODES:,} "
                            f"values a file may hold")
    return None


def _character(char) -> str:
    code = ord(char) if isinstance(char, str) else int(char)
    return "a NUL character (\\0)" if code == 0 else f"the control character U+{code:04X}"


_LONG_NUMBER = re.compile(r"[-+]?[0-9][0-9_]*")


def _check_number(event) -> None:
    """A plain scalar Python would refuse to turn into an int (over 4,300 digits), in our words."""
    value = event.value
    if len(value) > _NUMBER_DIGITS and not event.style and _LONG_NUMBER.fullmatch(value):
        digits = sum(c.isdigit() for c in value)
        raise _Shape(event.start_mark.line + 1,
                     f"column {event.start_mark.column + 1}: a number of {digits:,} digits; numbers are at most "
                     f"{limits.MAX_NUMBER:,} (quote it if it is text)")


_NUMBER_DIGITS = 1000  # longer plain scalars of digits are refused before PyYAML turns them into ints


def _check_depth(text: str) -> None:
    """Refuse nesting deeper than MAX_YAML_DEPTH, and numbers too long to read, from the event
    stream (no recursion)."""
    depth = 0
    for event in _events(text):
        if isinstance(event, yaml.ScalarEvent):
            _check_number(event)
        elif isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
            depth += 1
            if depth > limits.MAX_YAML_DEPTH:
                raise _Shape(event.start_mark.line + 1, _DEPTH_MESSAGE)
        elif isinstance(event, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
            depth -= 1


def _check_size(root: yaml.Node) -> None:
    """Refuse documents whose aliases expand to more than MAX_YAML_NODES values
    (a "billion laughs" document), and aliases that contain themselves."""
    sizes: dict[int, int] = {}
    busy = object()

    def size(node: yaml.Node) -> int:
        key = id(node)
        known = sizes.get(key)
        if known is busy:
            raise _Shape(node.start_mark.line + 1, "an alias refers to the list or mapping that contains it")
        if known is not None:
            return known
        sizes[key] = busy  # type: ignore[assignment]
        if isinstance(node, yaml.SequenceNode):
            n = 1 + sum(size(item) for item in node.value)
        elif isinstance(node, yaml.MappingNode):
            n = 1 + sum(size(k) + size(v) for k, v in node.value)
        else:
            n = 1
        sizes[key] = n
        return n

    if size(root) <= limits.MAX_YAML_NODES:
        return
    node = root  # name the innermost value that is too big
    while True:
        children = (node.value if isinstance(node, yaml.SequenceNode)
                    else [v for _, v in node.value] if isinstance(node, yaml.MappingNode) else [])
        big = [c for c in children if sizes[id(c)] > limits.MAX_YAML_NODES]
        if not big:
            break
        node = big[0]
    raise _Shape(node.start_mark.line + 1,
                 f"aliases (*name) here expand to {sizes[id(node)]:,} values, more than the "
                 f"{limits.MAX_YAML_NODES:,} a file may hold")


_QUOTE_IT = "put the value in quotes"


_OPENS_QUOTE = re.compile(r"""^\s*(?:- )?(?:[\w-]+:\s+)?(["'])""")


def _unclosed_quote(lines: list[str]) -> int | None:
    """The first line whose value opens a quote it does not close (YAML lets the quote run on over the
    following lines, so the error is found far below)."""
    for n, line in enumerate(lines, 1):
        m = _OPENS_QUOTE.match(line)
        if m and line.rstrip().count(m.group(1)) % 2 == 1 and not line.rstrip().endswith(m.group(1) * 2):
            return n
    return None


def malformed_hint(exc: yaml.MarkedYAMLError, text: str) -> str | None:
    """The usual cause of a YAML error, in words: a tab, a colon or a quote in unquoted text, a
    character that cannot start plain text, indentation, an unclosed bracket or quote."""
    mark = exc.problem_mark or exc.context_mark
    lines = text.splitlines()
    line = lines[mark.line] if mark and mark.line < len(lines) else ""
    reason = f"{exc.problem or ''} {exc.context or ''}"
    _, colon, value = line.partition(": ")
    if "\t" in line[:len(line) - len(line.lstrip())] or "tab" in reason:
        return "a tab in the indentation: YAML indents with spaces only (replace the tab with spaces)"
    if "quoted scalar" in reason and "end of stream" in reason and exc.context_mark is not None:
        return f"the quote opened on line {exc.context_mark.line + 1} is never closed"
    unclosed = _unclosed_quote(lines[:mark.line + 1] if mark else [])
    if unclosed is not None:
        return f"the quote opened on line {unclosed} is never closed on its line"
    if colon and value.lstrip().startswith("'") and value.count("'") > 2:
        return "a ' inside single-quoted text is written twice ('it''s'), or quote the text with \" instead"
    if "mapping values are not allowed" in reason:
        if colon and ": " in value and not value.lstrip().startswith(("'", '"')):
            return f'the value holds ": ": {_QUOTE_IT} (key: "Fire: the rule")'
        return "this line is indented more than the key above it: the keys of one mapping start in one column"
    if "alias" in reason:
        return f"text that starts with * is read as an alias (*name): {_QUOTE_IT}"
    if "cannot start any token" in reason:
        char = line[mark.column] if mark and mark.column < len(line) else ""
        return f"plain text cannot start with {char or 'this character'!r}: {_QUOTE_IT}"
    if colon and value.lstrip()[:1] in ("{", "[") and "flow" not in reason:
        return f"a value that starts with {value.lstrip()[0]} is read as a list or mapping: {_QUOTE_IT}"
    if "flow" in reason:
        return "a [list] or {mapping} is not closed, or text inside it holds , : [ ] { }: close it or quote the text"
    if "expected key" in reason or "'-' indicator" in reason or "block end" in reason:
        return ("check this line's indentation against the lines above: the keys of one mapping, and the "
                "'- ' items of one list, start in one column")
    return None


def parse_yaml(text: str, name: str, *, keep_node: bool = False) -> YamlDocument:
    """Parse one YAML document; malformed YAML is a located ContentError.

    Before anything is built, the document's shape is bounded: nesting depth and
    the number of values after aliases are expanded (see `sheets.base.limits`). With
    `keep_node`, the document keeps its node tree (marks: where each value's text is),
    for an edit made in the user's own text.
    """
    loader = Loader(text)
    try:
        _check_depth(text)
        node = loader.get_single_node()
        if node is None:
            return YamlDocument(name, None, {(): 1})
        _check_size(node)
        data = loader.construct_document(node)
        lines: dict[tuple, int] = {}
        problems: list[Problem] = []
        _walk(loader, node, (), lines, problems, name)
    except _Shape as exc:
        raise ContentError.single(name, exc.line, "", exc.message) from None
    except yaml.MarkedYAMLError as exc:
        shape = _own_limit(exc)
        if shape is not None:
            raise ContentError.single(name, shape.line, "", shape.message) from None
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        reason = exc.problem or str(exc)
        if exc.context:
            reason = f"{reason} ({exc.context})"
        hint = malformed_hint(exc, text)
        raise ContentError.single(name, line, "", f"malformed YAML: {reason}" + (f"; {hint}" if hint else "")) from None
    except yaml.reader.ReaderError as exc:  # a character YAML refuses (NUL, other controls): where it is
        line, column = _where(text, exc.position)
        raise ContentError.single(name, line, "", f"column {column}: {_character(exc.character)} is not allowed "
                                                  f"in a YAML file (is it a text file?)") from None
    except yaml.YAMLError as exc:
        raise ContentError.single(name, None, "", f"malformed YAML: {exc}") from None
    except (ValueError, TypeError, OverflowError, RecursionError) as exc:
        # a scalar PyYAML cannot turn into a value (a 5,000-digit number, a date that is no date)
        raise ContentError.single(name, None, "", f"a value cannot be read: {str(exc)[:200]}") from None
    finally:
        loader.dispose()
    if problems:
        raise ContentError(problems)
    return YamlDocument(name, data, lines, node if keep_node else None)


def _where(data, at: int) -> tuple[int, int]:
    """The 1-based line and column of offset `at` in `data` (bytes or text)."""
    newline = b"\n" if isinstance(data, bytes) else "\n"
    return data.count(newline, 0, at) + 1, at - (data.rfind(newline, 0, at) + 1) + 1


def decode(data: bytes, name: str) -> str:
    """UTF-8 text, or a ContentError naming the line and column of the first byte that is not."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line, column = _where(data, exc.start)
        raise ContentError.single(name, line, "", f"column {column}: byte 0x{data[exc.start]:02X} is not UTF-8 "
                                                  f"text (a file saved as Latin-1 or Windows-1252?); save the "
                                                  f"file as UTF-8") from None


def load_yaml(path: Path, name: str | None = None) -> YamlDocument:
    """Read and parse a YAML file (`-`: standard input); unreadable files are user errors too."""
    name = name or ("standard input" if str(path) == STDIN else str(path))
    try:
        data = read_user_file(path)
    except FileNotFoundError:
        raise ContentError.single(name, None, "", "file not found") from None
    except UnreadableFile as exc:
        raise ContentError.single(name, None, "", exc.reason) from None
    return parse_yaml(decode(data, name), name)

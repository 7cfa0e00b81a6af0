"""Read YAML while remembering the line of every value.

Validation errors must name file, line and field; PyYAML's node tree has the
line marks, so we compose nodes, construct the data, and keep a map from each
value's path to its (1-based) line.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from sheets.errors import ContentError, Problem, format_loc


@dataclass
class YamlDocument:
    """Parsed YAML data plus the line of every mapping key and list item."""

    name: str  # how the file is named in messages (relative path)
    data: Any
    lines: dict[tuple, int] = field(default_factory=dict)

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


# libyaml's loader is ~10x faster and keeps the same line marks; fall back to pure Python.
Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


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


def parse_yaml(text: str, name: str) -> YamlDocument:
    """Parse one YAML document; malformed YAML is a located ContentError."""
    loader = Loader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return YamlDocument(name, None, {(): 1})
        data = loader.construct_document(node)
        lines: dict[tuple, int] = {}
        problems: list[Problem] = []
        _walk(loader, node, (), lines, problems, name)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        reason = exc.problem or str(exc)
        if exc.context:
            reason = f"{reason} ({exc.context})"
        raise ContentError.single(name, line, "", f"malformed YAML: {reason}") from None
    except yaml.YAMLError as exc:
        raise ContentError.single(name, None, "", f"malformed YAML: {exc}") from None
    finally:
        loader.dispose()
    if problems:
        raise ContentError(problems)
    return YamlDocument(name, data, lines)


def load_yaml(path: Path, name: str | None = None) -> YamlDocument:
    """Read and parse a YAML file; unreadable files are user errors too."""
    name = name or str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ContentError.single(name, None, "", "file not found") from None
    except UnicodeDecodeError as exc:
        raise ContentError.single(name, None, "", f"not UTF-8 text ({exc.reason})") from None
    except OSError as exc:
        raise ContentError.single(name, None, "", f"cannot read file ({exc.strerror})") from None
    return parse_yaml(text, name)

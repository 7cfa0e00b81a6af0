"""The values in a filled sheet's HTML: every `data-field` element, and the page footer.

The skeleton (the HTML with every field blanked) tells whether a filled sheet can be
stamped on a blank at all: both must have the same skeleton.
"""
from __future__ import annotations

import html as htmllib
import re
from dataclasses import dataclass

#: in a field's name: a sample of how a `data-rows` section's rows look (sheets.pipeline.stamp.rows),
#: `<section>~<key>`
SAMPLE = "~"
_FIELD = re.compile(r'<(span|td|th|div|p|li|section)\b([^>]*?\sdata-field="([^"]*)"[^>]*)>(.*?)</\1>', re.S)
_CLASS = re.compile(r'\bclass="([^"]*)"')
_MARK = re.compile(r'\bdata-mark="([^"]*)"')
_LABEL = re.compile(r'\bdata-label="([^"]*)"')
_GROW = re.compile(r'\bdata-grow\b')
_RADIO = re.compile(r'\bdata-radio="([^"]*)"')
_ROWS = re.compile(r'\bdata-rows\b')
_FOOTER = re.compile(r'(data-footer=")([^"]*)(")')
_TITLE = re.compile(r"<title>.*?</title>", re.S)
_TAG = re.compile(r"<[^>]+>")
_FLOOR = re.compile(r'<html\b[^>]*\sdata-stamp-floor="([0-9.]+)"')


@dataclass(frozen=True)
class Value:
    text: str
    classes: frozenset
    mark: str  # "" (text or box), "underline", "shade"
    label: str = ""  # `data-label`: the field in words (a fillable sheet's tooltip)
    grow: bool = False  # `data-grow`: a box that grows with its text when the sheet is laid out
    radio: str = ""  # `data-radio`: the choice a box is one of (a fillable sheet's radio field)
    #: `data-rows` (a <section>): rows of plain and bold words, set by the stamper in the style
    #: of the blank's sample rows (sheets.pipeline.stamp.rows); `markup` is the section's HTML
    rows: bool = False
    markup: str = ""

    @property
    def kind(self) -> str:
        if self.rows:
            return "rows"
        return "box" if "box" in self.classes else (self.mark or "text")

    @property
    def state(self) -> str:
        return "marked" if "marked" in self.classes else ("premarked" if "premarked" in self.classes else "")


@dataclass
class Fields:
    skeleton: str
    values: dict[str, Value]
    footer: str
    #: the smallest type a value may be shrunk to (<html data-stamp-floor>: the large-print
    #: edition's floor; None: a page that names none, the stamper's own MIN_SHEET_PT)
    floor_pt: float | None = None


_SEEN: dict[tuple[str, str], "Value"] = {}  # a field's markup -> its value (shared: a Value is frozen)
_SEEN_MAX = 20_000  # entries kept, at most (bounds a long batch's memory)


def _value(attrs: str, inner: str) -> Value:
    """The value of a field with these attributes and this content (`_SEEN` remembers it: most
    fields of a batch's parts read the same, a box left empty, a word not chosen)."""
    found = _SEEN.get((attrs, inner))
    if found is None:
        cls = _CLASS.search(attrs)
        mark = _MARK.search(attrs)
        label = _LABEL.search(attrs)
        radio = _RADIO.search(attrs)
        text = " ".join(htmllib.unescape(_TAG.sub("", inner)).split())
        rows = bool(_ROWS.search(attrs))
        found = Value(text, frozenset(cls.group(1).split()) if cls else frozenset(),
                      mark.group(1) if mark else "", htmllib.unescape(label.group(1)) if label else "",
                      bool(_GROW.search(attrs)), htmllib.unescape(radio.group(1)) if radio else "",
                      rows, inner if rows else "")
        if len(_SEEN) >= _SEEN_MAX:
            _SEEN.clear()
        _SEEN[(attrs, inner)] = found
    return found


def fields_of(html: str) -> Fields:
    values: dict[str, Value] = {}

    def take(m: re.Match) -> str:
        name = m.group(3)
        values[name] = _value(m.group(2), m.group(4))
        return f"<F {name}>"

    skeleton = _FIELD.sub(take, html)
    footers = _FOOTER.findall(skeleton)
    skeleton = _TITLE.sub("", _FOOTER.sub(r"\1\3", skeleton))
    floor = _FLOOR.search(html)
    return Fields(skeleton, values, htmllib.unescape(footers[0][1]) if footers else "",
                  float(floor.group(1)) if floor else None)

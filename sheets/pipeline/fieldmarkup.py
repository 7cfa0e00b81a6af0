"""The sheets' fields as HTML: `box`, `write` and `mark`, which every template imports from
templates/_base/macros.html.j2 (it binds those names to these functions).

A filled sheet of a batch is rendered once per part, and its fields are most of its markup
(a mission's log sheet calls `write` two hundred times): as Jinja macros each call cost a
frame of Jinja's runtime, as functions a format. The markup is the macros' own, byte for byte
(tests/pipeline/test_rendering.py renders both): every value escaped, the same attributes in
the same order, nothing around the tag.

`fill`: a PDF form field (an <input>) instead of the printed field; `name`: the field's unique
name (a blank's fields and a filled sheet's are matched by it, sheets.pipeline.stamp.fields);
`label`: what a player sees beside it, the form field's tooltip (read aloud by a screen reader).

A batch renders the same fields again and again (a squad's playbooks: the same boxes, ticked
or not), so each function remembers its last few thousand answers (`_remembered`), for calls
whose arguments are all plain values (text, numbers, None): those give the same markup every time.
"""
from __future__ import annotations

from functools import lru_cache, wraps

from markupsafe import Markup, escape

_PLAIN = frozenset({str, Markup, int, float, bool, type(None)})  # exact types: a subclass may change


def _remembered(fn):
    """`fn`, its answers kept for plain arguments (any other value, e.g. a plug-in's object,
    is rendered each time: its text may change between calls)."""
    cached = lru_cache(maxsize=4096, typed=True)(fn)

    @wraps(fn)
    def call(*args, **kwargs):
        if _PLAIN.issuperset(map(type, args)) and _PLAIN.issuperset(map(type, kwargs.values())):
            return cached(*args, **kwargs)
        return fn(*args, **kwargs)
    call.uncached = fn  # the tests compare with it
    return call


def _text(value) -> Markup:
    return escape("" if value is None else value)


def _attribute(name: str, value) -> str:
    return f' {name}="{escape(value)}"' if value else ""


@_remembered
def box(name, marked=False, fill=False, shape="square", premarked=False, label="", radio="") -> Markup:
    """A check box: ticked (`marked`), shaded (`premarked`: the playbook's own mark), or empty.
    `radio`: the name of the choice it is one of (a rank, a stat set): in a fillable sheet the
    boxes of one choice are one radio field, so that ticking one unticks the others."""
    if fill:
        return Markup('<input type="checkbox" name="%s"%s%s>' % (
            escape(name), _attribute("title", label), " checked" if marked or premarked else ""))
    classes = (" circle" if shape == "circle" else "") + (" marked" if marked else " premarked" if premarked else "")
    return Markup('<span class="box%s" data-field="%s"%s%s>%s</span>' % (
        classes, escape(name), _attribute("data-label", label), _attribute("data-radio", radio), "✔" if marked else ""))


@_remembered
def write(name, value="", width="30mm", fill=False, label="", grow=False) -> Markup:
    """A line to write on, `width` long at least, with `value` written on it; `grow`: a box
    whose height follows its text (an audit trail)."""
    if fill:
        return Markup('<input type="text" name="%s"%s value="%s" style="width: %s">' % (
            escape(name), _attribute("title", label), _text(value), escape(width)))
    return Markup('<span class="write" style="min-width: %s" data-field="%s"%s%s>%s</span>' % (
        escape(width), escape(name), _attribute("data-label", label), " data-grow" if grow else "", _text(value)))


@_remembered
def mark(name, text, marked=False, fill=False, how="underline", tag="span") -> Markup:
    """Text printed on every sheet that a mark picks out for this character: `how` is
    "underline" (a chosen word) or "shade" (a chosen table cell)."""
    field = "" if fill else ' data-field="%s" data-mark="%s"' % (escape(name), escape(how))
    return Markup('<%s class="%s%s"%s>%s</%s>' % (
        escape(tag), escape(how), " marked" if marked else "", field, escape(text), escape(tag)))

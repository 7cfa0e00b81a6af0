"""A chunk of a stamped PDF's parts, planned and drawn: what a worker does (sheets.pipeline.stamp.write).

Each filled part is rendered (Jinja), compared with its blank's fields and planned (what to
draw on each page, or None: it must be laid out in full); a part whose growing box is too
short is planned on the blank with that box taller when the cache holds it (`Taller`). Then
the chunk's overlay is drawn: one transparent page per page of its parts.
"""
from __future__ import annotations

import pickle
from dataclasses import dataclass, field
from pathlib import Path

from sheets.pipeline import cache
from sheets.pipeline.sheet import render_html
from sheets.pipeline.stamp.fields import Fields, fields_of
from sheets.pipeline.stamp.overlay import Op, draw_overlay, footers_drawable, growth, grown_html, margin_ops, plan_part
from sheets.pdf.marking import marked_pages


FIELD_OPS = ("text", "tick", "underline", "shade")  # what a fillable sheet's fields show instead


def warm_up() -> None:
    """Nothing to run: a stamping worker's warm-up is this module's import (reportlab, pikepdf),
    done as the function is unpickled in the worker (sheets.pipeline.workers.Pool)."""


@dataclass
class Plan:
    key: str  # the base (blank) the part is drawn on; "": none yet (a part laid out in full)
    ops: list[list[Op]] | None  # per page; None: the part must be laid out in full
    footer: str
    html: str | None = None  # the filled HTML, kept only when it must be laid out
    values: dict | None = None  # a fillable sheet's: the part's field values (they go in its form)
    grow: dict | None = None  # not stamped on its blank, but it would be with these boxes taller (pt)
    grown_from: str | None = None  # planned on a blank made taller (`grow`): the blank it was made from


def plan_chunk(blanks: dict, items: list, forms: bool = False, taller: "Taller | None" = None) -> list[Plan]:
    """Jinja-render each filled part and plan what to draw (runs in a worker for big jobs).
    For a fillable sheet, a value that goes in a form field (text, a tick, a chosen mark) is not drawn.
    A part whose growing box is too short is planned on the blank with that box taller when
    the cache holds it (`taller`), else left to `StampJob.grow`."""
    plans = []
    for key, filled in items:
        if isinstance(filled, Plan):  # planned already (while the blanks were laid out)
            plans.append(filled)
            continue
        html = render_html(filled)
        if key is None:  # no blank: this part is laid out in full (still in chunks, on every core)
            plans.append(Plan("", None, fields_of(html).footer, html))
            filled.html = None
            continue
        fields, layout = blanks[key]
        plan = plan_on(key, fields, layout, html, forms)
        filled_fields = fields_of(html) if plan.ops is None else None
        if filled_fields is not None and plan_part(fields, layout, filled_fields) is None:  # not its footer
            plan.grow = growth(fields, layout, filled_fields)
            if plan.grow and taller is not None:
                found = taller.find(key, plan.grow, len(layout["pages"]))
                if found is not None:
                    grown = plan_on(found[0], found[1], found[2], html, forms)
                    if grown.ops is not None:
                        grown.grow, grown.grown_from = plan.grow, key
                        blanks[found[0]] = (found[1], found[2])  # its overlay pages are drawn on it
                        plan = grown
        plans.append(plan)
        filled.html = None  # keep memory flat
    return plans


@dataclass
class Taller:
    """The blanks of a chunk with a growing box made taller, as the cache holds them (in a worker)."""

    html: dict[str, str]  # blank key -> its HTML
    cache_dir: Path | None
    found: dict = field(default_factory=dict)

    def find(self, key: str, heights: dict, pages: int) -> tuple[str, Fields, dict] | None:
        """(key, fields, layout) of blank `key` with these boxes this tall, if cached and of the
        same page count (the chunk's page numbers stand)."""
        html = grown_html(self.html[key], heights)
        taller = cache.blank_key(html)
        if taller not in self.found:
            layout = cache.blank_layout(self.cache_dir, taller)
            ok = layout is not None and len(layout["pages"]) == pages
            self.found[taller] = (taller, fields_of(html), layout) if ok else None
        return self.found[taller]


def plan_on(key: str, fields: Fields, layout: dict, html: str, forms: bool, read: Fields | None = None) -> Plan:
    """A filled part's plan on the base `key` (its fields and layout); `read`: the part's fields,
    when they were read already."""
    f = read if read is not None else fields_of(html)
    ops = plan_part(fields, layout, f)
    if ops is not None and not all(footers_drawable(page["margins"], f.footer, fields.footer)
                                   for page in layout["pages"]):
        ops = None  # a footer (it names the character) the stamp font cannot draw
    if forms and ops is not None:
        # a fillable sheet holds its values in fields: the text, the ticks, and the marks that
        # show a choice (a chosen word's underline, a chosen stat set's shade), which its radio
        # and text fields carry: printed, an edit of the field would leave them standing
        ops = [[op for op in page if op.kind not in FIELD_OPS] for page in ops]
    return Plan(key, ops, f.footer, html if ops is None else None, f.values if forms else None)


def overlay_pages(plans: list[Plan], bases: dict, first: int, total: int) -> list:
    pages, number = [], first
    for plan in plans:
        base = bases[plan.key]
        layout = base["layout"] if isinstance(base, dict) else base.layout
        blank_footer = base["footer"] if isinstance(base, dict) else (base.fields.footer if base.fields else "")
        for p, page in enumerate(layout["pages"]):
            number += 1
            ops = list(plan.ops[p]) if plan.ops else []
            ops += margin_ops(page["margins"], plan.footer or blank_footer, blank_footer, number, total)
            pages.append((page["width"], page["height"], ops))
    return pages


_READ: dict[str, tuple] = {}  # in a worker: the blanks unpacked so far, by key (see `packed`)
_READ_MAX = 16


def packed(key: str, fields: Fields, layout: dict):
    """A blank as a chunk sends it to a worker: (fields, layout) pickled once by the process that
    writes the file, unpickled once per worker (`_unpacked`), not once per chunk. A blank's key is
    its HTML's hash, so one key is one blank; a part's own base ("part-N", numbered within one
    job) goes as it is."""
    if key.startswith("part-"):
        return fields, layout
    return pickle.dumps((fields, layout), protocol=pickle.HIGHEST_PROTOCOL)


def _unpacked(blanks: dict) -> dict:
    found = {}
    for key, value in blanks.items():
        if isinstance(value, bytes):
            hit = _READ.get(key)
            if hit is None:
                if len(_READ) >= _READ_MAX:
                    _READ.clear()
                hit = _READ[key] = pickle.loads(value)
            value = hit
        found[key] = value
    return found


def stamp_chunk(blanks: dict, items: list, first: int, total: int,
                 forms: bool = False, taller: Taller | None = None, marked: bool = False) -> tuple[list[Plan], object]:
    """Plan a chunk of parts and draw its overlay (None when a part must be laid out in full).
    `blanks`: key -> (fields, layout), or that `packed`. `marked` (on the workers): the overlay
    comes with each page's content marked for the structure tree (`marking.marked_pages`), so
    that the process writing the file does not."""
    blanks = _unpacked(blanks)
    plans = plan_chunk(blanks, items, forms, taller)
    if any(p.ops is None for p in plans):
        return plans, None
    return draw_chunk(blanks, plans, first, total, marked)


def draw_chunk(blanks: dict, plans: list[Plan], first: int, total: int, marked: bool = False) -> tuple[list[Plan], object]:
    """A chunk planned already, its overlay drawn: the last step of `stamp_chunk`, and all of a
    chunk drawn again on the final page count after a part was laid out in full. `blanks` as
    `stamp_chunk`'s; a part's own base has no fields (its footer is the page's own)."""
    blanks = _unpacked(blanks)
    bases = {k: {"layout": lay, "footer": f.footer if f is not None else ""} for k, (f, lay) in blanks.items()}
    overlay = draw_overlay(overlay_pages(plans, bases, first, total))
    return plans, Drawn(overlay, marked_pages(overlay)) if marked else overlay


@dataclass
class Drawn:
    """A chunk's overlay PDF and each page's marked content (or None: not one content stream)."""

    pdf: bytes
    pages: list | None = None

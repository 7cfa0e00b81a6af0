"""Trackers: sheets of boxes to tick off, drawn from numbers in content.

A `BoxTracker` is rows of units (a TEAM, a SQUAD), each with groups of boxes (one
group per soldier), some drawn as circles or already filled in; a `GridTracker`
is a write-in table. The numbers come from `trackers.yaml` and may be changed on
the command line (`--units/--groups/--boxes`); designations for the units can be
rolled with the injected dice. No game is special here: everything a game needs
is in its data.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pydantic import ValidationError

from sheets.base.dice import Dice
from sheets.base.errors import SheetsError
from sheets.base.paper import page_size
from sheets.library.kinds.trackers import BoxTracker, ClockTracker, GridTracker, TrackerKind
from sheets.pipeline.sheet import Sheet
from sheets.kinds import style

if TYPE_CHECKING:
    from sheets.library.content import Game

#: the command-line options that change each number (for messages)
OPTION_NAMES = {"units": "--units", "groups": "--groups", "boxes": "--boxes", "rows": "--units",
                "clocks": "--units", "segments": "--boxes"}


@dataclass
class Overrides:
    """Numbers from the command line that replace those in content (None: keep)."""

    units: int | None = None
    groups: int | None = None
    boxes: int | None = None

    def any(self) -> bool:
        return any(v is not None for v in (self.units, self.groups, self.boxes))


def trackers_of(game: "Game") -> dict[str, TrackerKind]:
    """A game's trackers by id (empty: it has no trackers.yaml)."""
    return game.content["trackers"]


def pick_trackers(game: "Game", tracker_id: str | None = None) -> list[TrackerKind]:
    trackers = trackers_of(game)
    if not trackers:
        raise SheetsError(f"{game.info.title} has no trackers (no trackers.yaml)")
    if tracker_id is None:
        return list(trackers.values())
    if tracker_id not in trackers:
        raise SheetsError(f"unknown tracker {tracker_id!r} for {game.info.title}; "
                          f"choose one of: {', '.join(trackers)}")
    return [trackers[tracker_id]]


def apply_overrides(tracker: TrackerKind, overrides: Overrides) -> TrackerKind:
    """The tracker with the given numbers replaced, validated like content."""
    updates: dict[str, int] = {}
    if isinstance(tracker, ClockTracker):
        if overrides.groups is not None:
            raise SheetsError(f"tracker {tracker.id!r} is a sheet of clocks: --units (clocks) and --boxes (segments) "
                              f"can be changed")
        updates = {k: v for k, v in (("clocks", overrides.units), ("segments", overrides.boxes)) if v is not None}
        if "segments" in updates and tracker.hours:
            updates["hours"] = []  # the hours belong to the content's number of segments
    elif isinstance(tracker, BoxTracker):
        updates = {k: v for k, v in (("units", overrides.units), ("groups", overrides.groups),
                                     ("boxes", overrides.boxes)) if v is not None}
    else:
        if overrides.groups is not None or overrides.boxes is not None:
            raise SheetsError(f"tracker {tracker.id!r} is a write-in table: only --units (its rows) can be changed")
        if overrides.units is not None:
            updates = {"rows": overrides.units}
    if not updates:
        return tracker
    try:
        return type(tracker).model_validate({**tracker.model_dump(), **updates})
    except ValidationError as exc:
        given = ", ".join(f"{OPTION_NAMES[k]} {v}" for k, v in updates.items())
        reasons = "; ".join(
            (f"{'.'.join(map(str, e['loc']))}: " if e["loc"] else "") + e["msg"].removeprefix("Value error, ")
            for e in exc.errors())
        raise SheetsError(f"tracker {tracker.id!r} with {given}: {reasons}") from None


def roll_designations(tracker: BoxTracker, dice: Dice) -> list[str]:
    """One designation per unit from the tracker's `names`, without repeats while
    names last (then the list is drawn again)."""
    if not tracker.names:
        raise SheetsError(f"tracker {tracker.id!r} has no names to roll (add `names:` to it in trackers.yaml)")
    out: list[str] = []
    pool: list[str] = []
    for unit in range(1, tracker.units + 1):
        if not pool:
            pool = list(tracker.names)
        name = dice.pick(pool, f"designation of {tracker.unit_label} {unit}")
        pool.remove(name)
        out.append(name)
    return out


@dataclass
class TrackerPage:
    """One tracker, ready for the template."""

    tracker: TrackerKind
    summary: str | None
    designations: list[str] = field(default_factory=list)

    @property
    def copies(self) -> list[str]:
        """The id every copy of the tracker on its page names its fields by: the tracker's own
        for the first (a one-copy tracker's fields keep their names), `id-2`, ... for the others."""
        t = self.tracker
        count = t.per_page if isinstance(t, BoxTracker) else 1
        return [t.id] + [f"{t.id}-{n}" for n in range(2, count + 1)]

    @property
    def kind(self) -> str:
        return self.tracker.kind

    def units(self) -> list[dict]:
        """Box trackers: every unit with its groups of boxes (shape, filled)."""
        t = self.tracker
        assert isinstance(t, BoxTracker)
        circles, premarked = t.positions("circles"), t.positions("premarked")
        boxes = [{"pos": pos, "circle": pos in circles, "premarked": pos in premarked,
                  "label": t.box_labels[pos - 1] if t.box_labels else ""}
                 for pos in range(1, t.boxes + 1)]
        return [{"number": n, "designation": self.designations[n - 1] if self.designations else None,
                 "groups": [boxes] * t.groups} for n in range(1, t.units + 1)]

    def clocks(self) -> list[dict]:
        """Clock trackers: every clock's segments as SVG wedge paths (viewBox -50..50, top first)."""
        t = self.tracker
        assert isinstance(t, ClockTracker)
        r = 40.0
        ends = [h / 12 for h in t.hours] or [(k + 1) / t.segments for k in range(t.segments)]
        wedges, marks = [], []
        for k, end in enumerate(ends):
            a0, a1 = 2 * math.pi * (ends[k - 1] if k else 0.0), 2 * math.pi * end
            x0, y0 = r * math.sin(a0), -r * math.cos(a0)
            x1, y1 = r * math.sin(a1), -r * math.cos(a1)
            large = 1 if a1 - a0 > math.pi else 0
            wedges.append(f"M0 0 L{x0:.3f} {y0:.3f} A{r:g} {r:g} 0 {large} 1 {x1:.3f} {y1:.3f} Z")
            if t.hours:
                sx, cy = math.sin(a1), math.cos(a1)
                anchor = "start" if sx > 0.3 else ("end" if sx < -0.3 else "middle")
                marks.append({"x": round(50 + 43 * sx, 3), "y": round(50 - 45 * cy + 2.2, 3),
                              "label": f"{t.hours[k]:g}:00", "anchor": anchor})
        return [{"number": n, "wedges": wedges, "marks": marks} for n in range(1, t.clocks + 1)]

    def grid_rows(self) -> list[list[str]]:
        """Grid trackers: every row's cells, prefilled where content says."""
        t = self.tracker
        assert isinstance(t, GridTracker)
        rows = [list(r) for r in t.filled]
        return rows + [[t.prefill.get(col, "").replace("{n}", str(n)).replace("{group}", str((n - 1) // t.group_rows + 1))
                        for col in t.columns]
                       for n in range(len(rows) + 1, t.rows + 1)]

    def grid_cells(self) -> list[dict]:
        """Grid trackers: every row as the template draws it: its cells (a tick box in a `ticks`
        column of a row not written in advance) and whether it starts a group of rows."""
        t = self.tracker
        assert isinstance(t, GridTracker)
        ticks = {t.columns.index(col) for col in t.ticks}
        return [{"starts_group": t.group_rows > 1 and n > 0 and n % t.group_rows == 0,
                 "cells": [{"text": cell, "tick": i in ticks and n >= len(t.filled)} for i, cell in enumerate(row)]}
                for n, row in enumerate(self.grid_rows())]


def tracker_sheet(game: "Game", trackers: list[TrackerKind], *, paper: str = "a4",
                  designations: dict[str, list[str]] | None = None, origin: str = "",
                  filename: str | None = None) -> Sheet:
    """The trackers as one PDF sheet, one tracker per page (phase one: nothing rendered)."""
    designations = designations or {}
    pages = [TrackerPage(t, t.summary_text(), designations.get(t.id, [])) for t in trackers]
    # what rolled the designations (a seed, dice) goes in the PDF's metadata, not on the page
    footer = f"{game.info.title} · trackers · warsheets"
    context = {**style.of(game), "title": f"{game.info.title} trackers", "page_size": page_size(paper),
               "landscape_size": page_size(paper, landscape=True), "pages": pages,
               "footer": footer, "keywords": f"designations rolled with {origin}" if origin else ""}
    name = filename or f"{game.id}-trackers.pdf"
    return Sheet(filename=name, template="trackers.html.j2", context=context, game=game.id, templates=game.templates,
                 label=f"{game.info.title} trackers")

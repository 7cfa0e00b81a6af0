"""True-scale gauges (`gauges.yaml`): blast circles, fans of fire and range rulers.

The models only; sheets/kinds/gauges/builder.py draws them.
"""
from __future__ import annotations

from typing import Literal

from pydantic import Field, ValidationInfo, field_validator, model_validator

from sheets.base import limits
from sheets.library.kinds import ContentKind
from sheets.library.validation import Strict


class GaugeMark(Strict):
    at: float = Field(ge=0)
    label: str = Field(min_length=1, max_length=40)


class Gauge(Strict):
    """One shape. `circle`: radius; `sector`: radius and angle (a fan of fire when
    centred, a quarter of a blast circle when drawn from a `corner`); `ruler`: start,
    end, ticks every `minor` (at most 500 ticks), numbers every `major`."""

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    kind: Literal["circle", "sector", "ruler"]
    label: str
    note: str | None = None
    radius: float | None = Field(None, gt=0, le=100)
    angle: float | None = Field(None, gt=0, le=180)
    corner: bool = False            # sector drawn from its corner (apex bottom-left), angle <= 90
    rings: list[float] = Field([], max_length=limits.MAX_RINGS)  # arcs (circle, sector) at these distances from the centre
    start: float = Field(0, ge=0)   # ruler
    end: float | None = Field(None, gt=0, le=200)
    minor: float = Field(1, gt=0)
    major: float = Field(1, gt=0)
    marks: list[GaugeMark] = Field([], max_length=limits.MAX_GAUGE_MARKS)  # labelled ticks (ruler) or labelled rings
    copies: int = Field(1, ge=1, le=20)

    @field_validator("minor")
    @classmethod
    def _ticks(cls, minor: float, info: ValidationInfo) -> float:
        # the builder draws a tick every `minor`: bounded here, at the field, before a tiny one asks for millions
        start, end = info.data.get("start"), info.data.get("end")
        if info.data.get("kind") == "ruler" and start is not None and end is not None and end > start:
            ticks = (end - start) / minor
            if ticks > limits.MAX_GAUGE_TICKS:
                raise ValueError(f"a tick every {minor:g} from {start:g} to {end:g} is {ticks:,.0f} ticks, more than "
                                 f"the {limits.MAX_GAUGE_TICKS:,} one ruler may have: a larger minor")
        return minor

    @model_validator(mode="after")
    def _fields_for_kind(self):
        if self.kind in ("circle", "sector") and self.radius is None:
            raise ValueError(f"a {self.kind} needs a radius")
        if self.kind == "sector" and self.angle is None:
            raise ValueError("a sector needs an angle (degrees)")
        if self.corner and (self.kind != "sector" or (self.angle or 0) > 90):
            raise ValueError("corner: only a sector of 90 degrees or less is drawn from its corner")
        if self.kind == "ruler":
            if self.end is None:
                raise ValueError("a ruler needs an end")
            if self.end <= self.start:
                raise ValueError(f"ruler end {self.end:g} is not beyond its start {self.start:g}")
            if self.major < self.minor:
                raise ValueError("major ticks must not be closer than minor ticks")
            for m in self.marks:
                if not self.start <= m.at <= self.end:
                    raise ValueError(f"mark at {m.at:g} is outside the ruler ({self.start:g} to {self.end:g})")
        for r in self.rings:
            if self.radius is None or not 0 < r <= self.radius:
                raise ValueError(f"ring {r:g} is outside the radius")
        return self


class GaugeSheet(Strict):
    title: str
    unit: Literal["in", "cm"]
    orientation: Literal["portrait", "landscape"] = "portrait"
    note: str | None = None
    gauges: list[Gauge] = Field(min_length=1, max_length=limits.MAX_GAUGES)

    @field_validator("gauges")
    @classmethod
    def _drawings(cls, gauges: list[Gauge]) -> list[Gauge]:
        # each copy is drawn and laid out: the sheet's work is the gauges times their copies
        total = sum(g.copies for g in gauges)
        if total > limits.MAX_GAUGES:
            raise ValueError(f"the gauges and their copies make {total:,} drawings, more than the "
                             f"{limits.MAX_GAUGES:,} one sheet may have (fewer copies)")
        return gauges


CONTENT = ContentKind("gauges", GaugeSheet, "gauges.yaml", "a game's gauges.yaml", rank=4)

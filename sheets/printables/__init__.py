"""Generic printable content: card sets, card layouts, tracker kinds, token sheets, gauges.

These models are shared by every game; a game defines its cards, trackers, tokens
and true-scale gauges as data in its content folder. One module per kind; every
name is re-exported here (`from sheets.printables import CardSet`).
"""
from __future__ import annotations

from sheets.printables.cards import Card, CardBack, CardSet, CardSize, Layout, PaperSize, PrintGeometry, Stat
from sheets.printables.gauges import Gauge, GaugeMark, GaugeSheet
from sheets.printables.ids import Id
from sheets.printables.tokens import Token, TokenSheet
from sheets.printables.trackers import (
    BoxTracker,
    ClockTracker,
    GridTracker,
    TrackerFile,
    TrackerKind,
    summary_text,
)

__all__ = [
    "Id",
    "Stat", "CardBack", "Card", "CardSet", "PaperSize", "CardSize", "Layout", "PrintGeometry",
    "summary_text", "BoxTracker", "GridTracker", "ClockTracker", "TrackerKind", "TrackerFile",
    "Token", "TokenSheet",
    "GaugeMark", "Gauge", "GaugeSheet",
]

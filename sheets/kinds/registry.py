"""The registry of printable kinds: each kind declared once, and read by everything that lists kinds.

A kind is what the kit, `sheets list`, `sheets watch`, `sheets schema`, the contents page and
the desk know of a printable: its name, what it is, its content model and files, its
template(s), its printing advice (its key in content/_print/printing.yaml) and how a game's
sheets of that kind are made. The generic kinds are declared here (`GENERIC`); a game's
own kinds (playbooks, log sheets...) by its plug-in's `kinds()` hook, which the plug-in's
own sheets make (`GamePlugin.kit_sheets`).

Adding a generic kind: a folder `sheets/kinds/<kind>/` (its `model.py`, loaded by
`sheets.library.content`, and its `builder.py`), one entry in `GENERIC`, its template under
templates/_base/, and a line in content/_print/printing.yaml (ARCHITECTURE.md has the recipe).
"""
from __future__ import annotations

from sheets.base.errors import SheetsError
from sheets.base.options import PrintOptions
from sheets.kinds.cards.builder import card_sheet, pick_sets
from sheets.kinds.cards.model import CardSet
from sheets.kinds.gauges.builder import gauge_sheet
from sheets.kinds.gauges.model import GaugeSheet
from sheets.kinds.kind import Kind
from sheets.kinds.reference.builder import has_reference, reference_sheet
from sheets.kinds.tokens.builder import token_sheet
from sheets.kinds.tokens.model import TokenSheet
from sheets.kinds.trackers.builder import pick_trackers, tracker_sheet
from sheets.kinds.trackers.model import TrackerFile
from sheets.library import plugins
from sheets.library.blocks import ReferenceDoc
from sheets.library.content import Game, Library
from sheets.pipeline.sheet import Sheet

def _cards(lib: Library, game: Game, options: PrintOptions, which: str | None) -> list[Sheet]:
    return [card_sheet(game, s, lib.geometry(), paper=options.paper) for s in pick_sets(game, which or "all")]


def _trackers(lib: Library, game: Game, options: PrintOptions, tracker: str | None) -> list[Sheet]:
    name = f"{game.id}-trackers" + (f"-{tracker}" if tracker else "") + ".pdf"
    return [tracker_sheet(game, pick_trackers(game, tracker), paper=options.paper, filename=name)]


GENERIC: tuple[Kind, ...] = (
    Kind("reference", "a game's reference.yaml", ("reference.html.j2",), "reference",
         model=ReferenceDoc, files="reference.yaml", present=has_reference,
         make=lambda lib, game, options, _: [reference_sheet(game, options.paper)],
         listed=lambda game: "reference", kit_rank=0),
    Kind("cards", "a card set, cards/<set>.yaml", ("card.html.j2",), "cards",
         model=CardSet, files="cards/*.yaml", present=lambda game: bool(game.card_sets), make=_cards,
         listed=lambda game: "cards (" + ", ".join(game.card_sets) + ")", takes_id=True, kit_rank=2),
    Kind("trackers", "a game's trackers.yaml", ("trackers.html.j2",), "trackers",
         model=TrackerFile, files="trackers.yaml", present=lambda game: bool(game.trackers), make=_trackers,
         listed=lambda game: "trackers (" + ", ".join(game.trackers) + ")", takes_id=True, kit_rank=1),
    Kind("tokens", "a game's tokens.yaml", ("tokens.html.j2",), "tokens",
         model=TokenSheet, files="tokens.yaml", present=lambda game: game.tokens is not None,
         make=lambda lib, game, options, _: [token_sheet(game, options.paper)],
         listed=lambda game: "tokens", kit_rank=3),
    Kind("gauges", "a game's gauges.yaml", ("gauges.html.j2",), "gauges",
         model=GaugeSheet, files="gauges.yaml", present=lambda game: game.gauges is not None,
         make=lambda lib, game, options, _: [gauge_sheet(game, options.paper)],
         listed=lambda game: "gauges", kit_rank=4),
)


def generic(name: str) -> Kind:
    for kind in GENERIC:
        if kind.name == name:
            return kind
    raise SheetsError(f"unknown kind {name!r}; choose one of: {', '.join(k.name for k in GENERIC)}")


def every() -> list[Kind]:
    """The generic kinds, then every plug-in's own, by the plug-in's name."""
    out = list(GENERIC)
    for _, plugin in sorted(plugins.every().items()):
        out += plugin.kinds()
    return out


def of_template(template: str | None) -> Kind | None:
    """The kind whose sheets are made from `template` (None for a template no kind declares)."""
    for kind in every():
        if template in kind.templates:
            return kind
    return None


def table_sheets(lib: Library, game: Game, options: PrintOptions = PrintOptions()) -> list[Sheet]:
    """A game's generic printables for the kit, in kit order: every kind the game has, all of it."""
    ranked = sorted((k for k in GENERIC if k.make and k.present and k.present(game)), key=lambda k: k.kit_rank)
    return [sheet for kind in ranked for sheet in kind.make(lib, game, options, None)]


def listing(game: Game) -> list[str]:
    """`sheets list`'s lines for a game: its plug-in's kinds first, then the generic ones it has."""
    lines = game.plugin.sheet_kinds(game) if game.plugin else []
    return lines + [kind.listed(game) for kind in GENERIC if kind.listed and kind.present and kind.present(game)]

"""The registry of printable kinds: every kind listed once, and read by everything that lists kinds.

A kind is what the kit, `sheets list`, `sheets watch`, `sheets schema`, the contents page and
the desk know of a printable. Each generic kind declares itself in its folder
(`sheets/kinds/<kind>/__init__.py`: `KIND`, its templates, printing advice, builder, kit rank
and `sheets list` line; its content side is `sheets/library/kinds/<kind>.py`), and is listed
here, one line each (`GENERIC`). A game's own kinds (playbooks, log sheets...) come from its
plug-in's print side (`sheets.kinds.print_plugin`), whose own sheets make them for the kit.

Adding a generic kind: ARCHITECTURE.md has the recipe.
"""
from __future__ import annotations

from sheets.base.errors import SheetsError
from sheets.base.options import PrintOptions
from sheets.kinds import cards, gauges, print_plugin, reference, tokens, trackers
from sheets.kinds.kind import Kind
from sheets.library import plugins
from sheets.library.content import Game, Library
from sheets.pipeline.sheet import Sheet

GENERIC: tuple[Kind, ...] = (
    reference.KIND,
    cards.KIND,
    trackers.KIND,
    tokens.KIND,
    gauges.KIND,
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
        if isinstance(plugin, print_plugin.PrintPlugin):
            out += plugin.kinds()
    return out


def of_template(template: str | None) -> Kind | None:
    """The kind whose sheets are made from `template` (None for a template no kind declares)."""
    for kind in every():
        if template in kind.templates:
            return kind
    return None


def has(kind: Kind, game: Game) -> bool:
    return kind.present is None or kind.present(game)


def table_sheets(lib: Library, game: Game, options: PrintOptions = PrintOptions()) -> list[Sheet]:
    """A game's generic printables for the kit, in kit order: every kind the game has, all of it."""
    ranked = sorted((k for k in GENERIC if k.make and k.present and k.present(game)), key=lambda k: k.kit_rank)
    return [sheet for kind in ranked for sheet in kind.make(lib, game, options, None)]


def listing(game: Game) -> list[str]:
    """`sheets list`'s lines for a game: its plug-in's kinds first, then the generic ones it has."""
    kinds = print_plugin.of(game).kinds() + list(GENERIC)
    return [kind.listed(game) for kind in kinds if kind.listed and has(kind, game)]

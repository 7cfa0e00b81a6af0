"""The registry of printable kinds: every kind found once, and read by everything that lists kinds.

A kind is what the kit, `sheets list`, `sheets print`, `sheets watch`, `sheets schema`, the
contents page and the desk know of a printable. Each generic kind declares itself in its folder
(`sheets/kinds/<kind>/__init__.py`: `KIND`, its templates, printing advice, builder, kit rank and
`sheets list` line; its content side is `sheets/library/kinds/<kind>.py`), and is found there:
every package under `sheets/kinds/` with a `KIND` is one (`GENERIC`, in the order of their
content's rank), so adding a kind names it nowhere here. A game's own kinds (playbooks, log
sheets...) come from its plug-in's print side (`sheets.kinds.print_plugin`), made like the
generic ones (`Kind.make`).

Adding a generic kind: ARCHITECTURE.md has the recipe.
"""
from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

from sheets.base.errors import SheetsError
from sheets.kinds import print_plugin
from sheets.kinds.kind import Kind
from sheets.library import plugins
from sheets.library.content import Game


def _found() -> tuple[Kind, ...]:
    """Every kind declared in a folder of this package (its `KIND`), in its content's load order."""
    kinds = []
    for module in pkgutil.iter_modules([str(Path(__file__).parent)]):
        if module.ispkg:
            kind = getattr(importlib.import_module(f"{__package__}.{module.name}"), "KIND", None)
            if isinstance(kind, Kind):
                kinds.append(kind)
    return tuple(sorted(kinds, key=lambda k: (k.content.rank if k.content else len(kinds), k.name)))


GENERIC: tuple[Kind, ...] = _found()


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


def printable(name: str) -> Kind:
    """The kind `sheets print KIND` names: a generic one, or a plug-in's (`<game>.<kind>`) that makes sheets."""
    kinds = [kind for kind in every() if kind.make is not None]
    for kind in kinds:
        if kind.name == name:
            return kind
    raise SheetsError(f"unknown kind {name!r}; choose one of: {', '.join(k.name for k in kinds)}")


def of_template(template: str | None) -> Kind | None:
    """The kind whose sheets are made from `template` (None for a template no kind declares)."""
    for kind in every():
        if template in kind.templates:
            return kind
    return None


def has(kind: Kind, game: Game) -> bool:
    return kind.present is None or kind.present(game)


def kit_kinds(game: Game) -> list[Kind]:
    """A game's kinds in its kit section's order: its plug-in's own (as it lists them), then every
    generic kind it has, by kit rank."""
    own = [kind for kind in print_plugin.of(game).kinds() if kind.make is not None]
    return own + sorted((k for k in GENERIC if k.make and k.present and k.present(game)), key=lambda k: k.kit_rank)


def listing(game: Game) -> list[str]:
    """`sheets list`'s lines for a game: its plug-in's kinds first, then the generic ones it has."""
    kinds = print_plugin.of(game).kinds() + list(GENERIC)
    return [kind.listed(game) for kind in kinds if kind.listed and has(kind, game)]

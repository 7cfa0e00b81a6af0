"""The game plug-in interface, declared in one place, and the one way plug-ins are found.

A game whose content cannot say everything (playbooks, a mission generator) names a
plug-in in its game.yaml (`plugin: <name>`): the package `sheets/games/<name>/`. Its
`plugin.py` holds `plugin`, an instance of a `GamePlugin` subclass that overrides the hooks
below; its optional `cli.py` (`register(app)`, `register_new(new)`) and `web.py` (`routes(desk)`,
`NAV`) add the game's commands and desk pages. The core never imports a game by name:
`find`, `every` and `parts` look them up where they live.

These are the content hooks; what a plug-in prints (its kinds, kit sheets, player packets and
reference pages) is its print side, `sheets.kinds.print_plugin.PrintHooks`, a layer above.
Plug-ins sit above the core's layers, so this module imports them by name at run time only
(importlib), and names the types of its hooks for the type checker only.
"""
from __future__ import annotations

import importlib
import importlib.util
import pkgutil
from types import ModuleType
from typing import TYPE_CHECKING, Any

from sheets.base import paths
from sheets.base.errors import Problem

if TYPE_CHECKING:
    from sheets.library.kinds import ContentKind
    from sheets.library.kinds.cards import CardSet
    from sheets.library.files import FileLoader
    from sheets.library.game import Game
    from sheets.library.yaml_source import YamlDocument

GAMES_PACKAGE = "sheets.games"


class GamePlugin:
    """What a game adds beyond generic content. Subclasses override the hooks they need;
    each default says "nothing to add"."""

    #: files in the game folder the plugin knows but does not load (glob patterns, e.g.
    #: example files that their own commands read); `validate` reports any other unread file
    extra_files: tuple[str, ...] = ()

    def load(self, files: FileLoader) -> Any:
        """Load and validate the game's own files; record problems in `files`."""
        return None

    def card_sets(self, game: Game) -> dict[str, CardSet]:
        """Card sets built from the game's structured data."""
        return {}

    def file_kinds(self) -> list[ContentKind]:
        """The YAML kinds this game reads beyond the generic ones, for `sheets schema`, each the
        record a generic kind's content is (`ContentKind`: its name, the model that validates it,
        a glob of its files in the game folder or None for the user's own files, what it is)."""
        return []

    def check_user_file(self, game: Game, doc: YamlDocument) -> list[Problem] | None:
        """Problems in a user's file (a campaign, a squad) if it is one of this game's; else None."""
        return None

    def user_file_notes(self, game: Game, doc: YamlDocument) -> list[str] | None:
        """What a valid user file of this game's deserves to be told beyond validity (a crew short
        of a man), or None when the file is not this game's."""
        return None


def names() -> list[str]:
    """Every game package under sheets/games/, in the order of their names."""
    return sorted(m.name for m in pkgutil.iter_modules([str(paths.PACKAGE_DIR / "games")]) if m.ispkg)


def part(name: str, which: str) -> ModuleType | None:
    """A game package's module `which` ("plugin", "cli", "web"), or None when it has none."""
    module = f"{GAMES_PACKAGE}.{name}.{which}"
    if importlib.util.find_spec(module) is None:
        return None
    return importlib.import_module(module)


def find(name: str) -> GamePlugin:
    """The plug-in game.yaml names; ImportError when there is no such plug-in."""
    if name not in names():
        raise ImportError(f"no game plugin named {name!r}")
    module = part(name, "plugin")
    if module is None:
        raise ImportError(f"no game plugin named {name!r}")
    return module.plugin


def every() -> dict[str, GamePlugin]:
    """Every plug-in in sheets/games/, by its name."""
    return {name: find(name) for name in names() if part_exists(name, "plugin")}


def parts(which: str) -> list[ModuleType]:
    """The `which` module ("cli", "web") of every game package that has one, in name order."""
    return [module for name in names() if (module := part(name, which)) is not None]


def part_exists(name: str, which: str) -> bool:
    return importlib.util.find_spec(f"{GAMES_PACKAGE}.{name}.{which}") is not None

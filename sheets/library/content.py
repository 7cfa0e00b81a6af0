"""Loading and validating a content folder.

`content/<game>/game.yaml` makes a folder a game. Generic printables are found by file name,
as each content kind declares its files (`sheets.library.kinds`), and loaded into
`Game.content[<kind>]`; a game's plugin (named in game.yaml) loads the rest. Every file is
validated against a strict model; all problems of all files are collected and reported
together, each with file, line and field.
"""
from __future__ import annotations

from pathlib import Path, PurePosixPath

from sheets.base import paths
from sheets.base.errors import ContentError, Problem, SheetsError
from sheets.base.userfiles import content_files
from sheets.library import assets, kinds, plugins
from sheets.library.files import FileLoader
from sheets.library.game import Game, GameInfo
from sheets.library.kinds.cards import Palette, PrintGeometry, Shops
from sheets.library.kinds.theme import BaseTheme

__all__ = ["FileLoader", "Game", "GameInfo", "Library", "SHARED_DIR"]

SHARED_DIR = "_print"  # print geometry shared by all games
SHARED_FILES = ("layouts.yaml", "printing.yaml", "shops.yaml", "palette.yaml", "design.yaml")  # the files in it
# (printing.yaml: sheets/kit/assemble.py; shops.yaml and palette.yaml: the print-shop exports of cards;
# design.yaml: the base theme, every game's look sits on it)


class Library:
    """All games of one content folder, loaded on demand and cached."""

    def __init__(self, root: Path | None = None):
        self.root = Path(root) if root else paths.content_dir()
        if not self.root.is_dir():
            raise SheetsError(f"content folder {self.root} does not exist")
        self._games: dict[str, Game] = {}
        self._geometry: PrintGeometry | None = None
        self._shared: dict[str, object] = {}

    def game_ids(self) -> list[str]:
        return sorted(p.parent.name for p in self.root.glob("*/game.yaml") if not p.parent.name.startswith("_"))

    def game(self, game_id: str) -> Game:
        if game_id not in self._games:
            if game_id not in self.game_ids():
                known = ", ".join(self.game_ids()) or "none"
                raise SheetsError(f"unknown game {game_id!r}; the content folder has: {known}")
            problems: list[Problem] = []
            game = self._load_game(self.root / game_id, problems)
            if problems or game is None:
                raise ContentError(problems)
            self._games[game_id] = game
        return self._games[game_id]

    def geometry(self) -> PrintGeometry:
        if self._geometry is None:
            problems: list[Problem] = []
            files = FileLoader(self.root, self.root / SHARED_DIR, problems)
            geometry = files.model("layouts.yaml", PrintGeometry)
            if problems or geometry is None:
                raise ContentError(problems)
            self._geometry = geometry
        return self._geometry

    def shared(self, name: str, model: type):
        """One more file of _print/ (shops.yaml, palette.yaml), loaded and checked, kept; a content
        folder without it uses the bundled one."""
        if name not in self._shared:
            problems: list[Problem] = []
            root = self.shared_file(name).parent.parent
            value = FileLoader(root, root / SHARED_DIR, problems).model(name, model)
            if problems or value is None:
                raise ContentError(problems)
            self._shared[name] = value
        return self._shared[name]

    def shared_file(self, name: str) -> Path:
        """The _print/ file `shared` reads: the content folder's own, else the bundled one."""
        own = self.root / SHARED_DIR / name
        return own if own.is_file() else paths.content_dir() / SHARED_DIR / name

    def shops(self) -> Shops:
        return self.shared("shops.yaml", Shops)

    def palette(self) -> Palette:
        return self.shared("palette.yaml", Palette)

    def theme(self) -> BaseTheme:
        """The base theme (type scale, headings, spacing, neutral colours) every game's look sits on."""
        return self.shared("design.yaml", BaseTheme)

    def validate(self) -> list[Problem]:
        """Load everything; return every problem found (empty when all is well)."""
        problems: list[Problem] = []
        for load in (self.geometry, self.shops, self.palette, self.theme):
            try:
                load()
            except ContentError as exc:
                problems += exc.problems
        for game_id in self.game_ids():
            try:
                self.game(game_id)
            except ContentError as exc:
                problems += exc.problems
        problems += self.unread_files()
        return list({str(p): p for p in problems}.values())  # a shared file's problem, met by every game, once

    # -- loading -----------------------------------------------------------
    def card_sizes(self) -> list[str] | None:
        """The card sizes the print geometry defines (None if it does not load: reported apart)."""
        try:
            return list(self.geometry().card_sizes)
        except ContentError:
            return None

    def _load_game(self, folder: Path, problems: list[Problem]) -> Game | None:
        files = FileLoader(self.root, folder, problems)
        info = files.model("game.yaml", GameInfo)
        if info is None:
            written = files.data("game.yaml")
            plugin = written.get("plugin") if isinstance(written, dict) else None
            if isinstance(plugin, str) and plugin not in plugins.names():  # said with the file's other mistakes
                files.problem("game.yaml", ("plugin",), f"no game plugin named {plugin!r} in sheets.games")
            return None
        if info.id != folder.name:
            files.problem("game.yaml", ("id",), f"id {info.id!r} must equal the folder name {folder.name!r}")
        plugin = None
        if info.plugin:
            try:
                plugin = plugins.find(info.plugin)
            except ImportError:
                files.problem("game.yaml", ("plugin",), f"no game plugin named {info.plugin!r} in sheets.games")
        game = Game(info=info, folder=folder, plugin=plugin)
        for kind in kinds.every():
            game.content[kind.name] = kind.read(files, game, self)
        if plugin is not None:
            game.data = plugin.load(files)
            if game.data is not None:
                for set_id, card_set in plugin.card_sets(game).items():
                    game.card_sets.setdefault(set_id, card_set)
        game.files_read = set(files.claimed)
        return game

    def unread_files(self) -> list[Problem]:
        """Files in the content folder that no loader reads: misnamed, misplaced or stray."""
        problems: list[Problem] = []
        root = self.root

        def report(path: Path, message: str) -> None:
            try:
                shown = str(path.relative_to(root.parent))
            except ValueError:
                shown = str(path)
            problems.append(Problem(shown, None, "", message))

        odd = content_files(root)[1]  # a FIFO, a device, a link out of the folder: never read
        for skipped in odd:
            report(skipped.path, f"{skipped.why}: the tool reads only regular files inside the content folder; "
                                 "remove it")
        said = {skipped.path for skipped in odd}
        games = set(self.game_ids())
        for entry in sorted(root.iterdir()):
            if entry.name.startswith(".") or (entry.name not in games and assets.kept_aside(PurePosixPath(entry.name))):
                continue  # a README, a LICENSE, an art/ folder beside the games: the person's, not the tool's
            if entry.is_file():
                report(entry, "no loader reads this file (content files live in a game folder or _print/)")
            elif entry.name == SHARED_DIR:
                for path in sorted(entry.rglob("*")):
                    if path.is_file() and not path.name.startswith(".") and \
                            path.relative_to(entry).as_posix() not in SHARED_FILES:
                        report(path, f"no loader reads this file (_print/ holds {', '.join(SHARED_FILES)})")
            elif entry.is_dir() and entry.name not in games:
                near = sorted(p.name for p in entry.glob("game.*")) + sorted(p.name for p in entry.glob("Game.*"))
                hint = f" (found {', '.join(near)}: rename it game.yaml)" if near else ""
                report(entry, f"not a game: the folder has no game.yaml{hint}, so nothing in it is read")
        for game_id in sorted(games):
            game = self._games.get(game_id)
            if game is not None:
                problems += [p for p in assets.check_folder(game.folder, f"{root.name}/{game_id}")
                             if root.parent / p.file not in said]
                for path in (p for p in _unread_in(game) if p not in said):
                    hint = " (YAML files end in .yaml)" if path.suffix.lower() == ".yml" else ""
                    report(path, f"no loader reads this file{hint}: misnamed or in the wrong folder?")
        return problems


def _unread_in(game: Game) -> list[Path]:
    """The files of a game's folder that none of its loaders read (nor its plug-in claims)."""
    patterns = game.plugin.extra_files if game.plugin else ()
    unread = []
    for path in sorted(game.folder.rglob("*")):
        rel = path.relative_to(game.folder).as_posix()
        if not path.is_file() or any(part.startswith(".") for part in Path(rel).parts):
            continue
        if assets.kept_aside(PurePosixPath(rel)) or assets.in_asset_folder(PurePosixPath(rel)):
            continue  # a person's notes and sources; the look's files, which `assets.check_folder` checks
        if rel in game.files_read or any(path.relative_to(game.folder).match(p) for p in patterns):
            continue
        unread.append(path)
    return unread

"""Loading and validating a content folder.

`content/<game>/game.yaml` makes a folder a game. Generic printables are found
by file name — `reference.yaml`, `cards/*.yaml`, `trackers.yaml`,
`tokens.yaml`, `gauges.yaml` — and a game's plugin (named in game.yaml) loads the rest. Every
file is validated against a strict model; all problems of all files are
collected and reported together, each with file, line and field.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, Field

from sheets.base import paths
from sheets.base.errors import ContentError, Problem, SheetsError
from sheets.kinds.cards.model import Card, CardBack, CardSet, PrintGeometry
from sheets.kinds.gauges.model import GaugeSheet
from sheets.kinds.tokens.model import TokenSheet
from sheets.kinds.trackers.model import TrackerFile, TrackerKind
from sheets.library import plugins
from sheets.library.blocks import Block, ReferenceDoc
from sheets.library.lint import literal_escapes
from sheets.library.plugins import GamePlugin
from sheets.library.validation import Strict, collect
from sheets.library.yaml_source import YamlDocument, load_yaml

M = TypeVar("M", bound=BaseModel)

SHARED_DIR = "_print"  # print geometry shared by all games
SHARED_FILES = ("layouts.yaml", "printing.yaml")  # the files in it (printing.yaml: sheets/kit/assemble.py)


class GameInfo(Strict):
    id: str = Field(pattern=r"^[a-z][a-z0-9-]*$")
    title: str
    subtitle: str | None = None
    source: str
    plugin: str | None = Field(None, pattern=r"^[a-z][a-z0-9_]*$")


class FileLoader:
    """Loads files of one content folder, collecting problems instead of stopping."""

    def __init__(self, root: Path, folder: Path, problems: list[Problem]):
        self.root = root
        self.folder = folder
        self.problems = problems
        self.claimed: set[str] = set()  # files (relative to `folder`) some loader read or looked for

    def name(self, path: Path) -> str:
        try:
            return str(path.relative_to(self.root.parent))
        except ValueError:
            return str(path)

    def exists(self, rel: str) -> bool:
        self.claimed.add(rel)
        return (self.folder / rel).is_file()

    def inside(self, path: Path) -> bool:
        """Does `path` (after following links and '..') stay inside the content folder?"""
        try:
            return path.resolve().is_relative_to(self.root.resolve())
        except (OSError, RuntimeError):  # a link loop
            return False

    def document(self, rel: str) -> YamlDocument | None:
        path = self.folder / rel
        self.claimed.add(rel)
        if not self.inside(path):
            # never read it: its text must not reach the messages
            self.problems.append(Problem(self.name(path), None, "", "refused: this file is a link (or path) to a "
                                         "place outside the content folder; content may only use files inside it"))
            return None
        try:
            doc = load_yaml(path, self.name(path))
        except ContentError as exc:
            self.problems.extend(exc.problems)
            return None
        self.problems.extend(literal_escapes(path.read_text(encoding="utf-8"), doc.name))  # \" in a block prints \"
        return doc

    def model(self, rel: str, model: type[M], required: bool = True) -> M | None:
        if not self.exists(rel):
            if required:
                self.problems.append(Problem(self.name(self.folder / rel), None, "", "required file is missing"))
            return None
        doc = self.document(rel)
        if doc is None:
            return None
        return collect(self.problems, model, doc)

    def glob(self, pattern: str) -> list[str]:
        return sorted(str(p.relative_to(self.folder)) for p in self.folder.glob(pattern) if p.is_file())

    def problem(self, rel: str, loc: tuple, message: str) -> None:
        doc = self.document(rel) if self.inside(self.folder / rel) else None
        if doc is not None:
            self.problems.append(doc.problem(loc, message))
        else:
            self.problems.append(Problem(self.name(self.folder / rel), None, "", message))


@dataclass
class Game:
    info: GameInfo
    folder: Path
    plugin: GamePlugin | None
    data: Any = None
    reference: ReferenceDoc | None = None
    card_sets: dict[str, CardSet] = field(default_factory=dict)
    trackers: dict[str, TrackerKind] = field(default_factory=dict)
    tokens: TokenSheet | None = None
    gauges: GaugeSheet | None = None
    files_read: set[str] = field(default_factory=set)  # relative to `folder`

    @property
    def id(self) -> str:
        return self.info.id



def _quickref_cards(reference: ReferenceDoc, files: FileLoader) -> CardSet | None:
    """Cards cut from the reference: each card shows the sections it names, in order."""
    spec = reference.cards
    cards = []
    ok = True
    for ci, card in enumerate(spec.cards):
        blocks: list[Block] = []
        for si, section_id in enumerate(card.sections):
            section = reference.section(section_id)
            if section is None:
                files.problem("reference.yaml", ("cards", "cards", ci, "sections", si),
                              f"no section with id {section_id!r} in this file")
                ok = False
                continue
            if len(card.sections) > 1:
                blocks.append(Block(h=section.title))
            blocks.extend(section.blocks)
        cards.append(Card(id=card.id, title=card.title, blocks=blocks))
    if not ok:
        return None
    back = CardBack(title=spec.back_title or reference.title, subtitle="Quick reference")
    return CardSet(id=spec.id, title=spec.title, size=spec.size, back=back, cards=cards)


class Library:
    """All games of one content folder, loaded on demand and cached."""

    def __init__(self, root: Path | None = None):
        self.root = Path(root) if root else paths.content_dir()
        if not self.root.is_dir():
            raise SheetsError(f"content folder {self.root} does not exist")
        self._games: dict[str, Game] = {}
        self._geometry: PrintGeometry | None = None

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

    def validate(self) -> list[Problem]:
        """Load everything; return every problem found (empty when all is well)."""
        problems: list[Problem] = []
        try:
            self.geometry()
        except ContentError as exc:
            problems += exc.problems
        for game_id in self.game_ids():
            try:
                self.game(game_id)
            except ContentError as exc:
                problems += exc.problems
        problems += self.unread_files()
        return problems

    # -- loading -----------------------------------------------------------
    def _card_sizes(self) -> list[str] | None:
        """The card sizes the print geometry defines (None if it does not load: reported apart)."""
        try:
            return list(self.geometry().card_sizes)
        except ContentError:
            return None

    def _load_game(self, folder: Path, problems: list[Problem]) -> Game | None:
        files = FileLoader(self.root, folder, problems)
        info = files.model("game.yaml", GameInfo)
        if info is None:
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
        game.reference = files.model("reference.yaml", ReferenceDoc, required=False)
        if game.reference is not None and game.reference.cards is not None:
            derived = _quickref_cards(game.reference, files)
            if derived is not None:
                game.card_sets[derived.id] = derived
        for rel in files.glob("cards/*.yaml"):
            card_set = files.model(rel, CardSet)
            if card_set is not None:
                if card_set.id != Path(rel).stem:
                    files.problem(rel, ("id",), f"id {card_set.id!r} must equal the file name {Path(rel).stem!r}")
                sizes = self._card_sizes()
                if sizes is not None and card_set.size not in sizes:
                    files.problem(rel, ("size",), f"unknown card size {card_set.size!r}; "
                                                  f"the sizes in _print/layouts.yaml are: {', '.join(sizes)}")
                game.card_sets[card_set.id] = card_set
        tracker_file = files.model("trackers.yaml", TrackerFile, required=False)
        if tracker_file is not None:
            for i, tracker in enumerate(tracker_file.trackers):
                if tracker.id in game.trackers:
                    files.problem("trackers.yaml", ("trackers", i, "id"), f"tracker id {tracker.id!r} is used twice")
                game.trackers[tracker.id] = tracker
            primaries = [i for i, t in enumerate(tracker_file.trackers) if getattr(t, "primary", False)]
            for i in primaries[1:]:
                files.problem("trackers.yaml", ("trackers", i, "primary"),
                              "only one tracker may be primary (the one numbers change without --tracker)")
        game.tokens = files.model("tokens.yaml", TokenSheet, required=False)
        game.gauges = files.model("gauges.yaml", GaugeSheet, required=False)
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

        games = set(self.game_ids())
        for entry in sorted(root.iterdir()):
            if entry.name.startswith("."):
                continue
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
            if game is None:
                continue
            patterns = game.plugin.extra_files if game.plugin else ()
            for path in sorted(game.folder.rglob("*")):
                rel = path.relative_to(game.folder).as_posix()
                if not path.is_file() or any(part.startswith(".") for part in Path(rel).parts):
                    continue
                if rel in game.files_read or any(path.relative_to(game.folder).match(p) for p in patterns):
                    continue
                hint = " (YAML files end in .yaml)" if path.suffix.lower() == ".yml" else ""
                report(path, f"no loader reads this file{hint}: misnamed or in the wrong folder?")
        return problems

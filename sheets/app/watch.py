"""`sheets watch TARGET…`: rebuild printables and their PNG previews whenever a file they read changes.

A target is `KIND:GAME[:ID]`, KIND a generic kind of the registry (`sheets.kinds.registry`):
`reference:GAME`, `cards:GAME:SET` (one card set; `cards:GAME` is every set),
`trackers:GAME[:TRACKER]`, `tokens:GAME`, `gauges:GAME`. Every target is built once at the start; then each batch of changes
under the content folder or the templates rebuilds only the targets that read a changed file
(`affected`: a game's `reference.yaml` its reference, `cards/SET.yaml` that set's cards, its
game.yaml, theme and look folders every target of the game; `_print/` and a shared template every
target; a kind's own template that kind's targets; a README or notes none).
A build that fails prints its located error and the watch goes on: fix the file and save.
"""
from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from sheets.app import api
from sheets.base import paths
from sheets.base.errors import SheetsError
from sheets.base.options import PrintOptions
from sheets.kinds import registry
from sheets.library import assets
from sheets.library.content import Library
from sheets.pipeline.preview import write_previews

KINDS = tuple(kind.name for kind in registry.GENERIC if kind.make is not None)


@dataclass(frozen=True)
class Target:
    kind: str
    game: str
    id: str | None = None

    def __str__(self) -> str:
        return ":".join(p for p in (self.kind, self.game, self.id) if p)


def parse_target(text: str) -> Target:
    parts = text.split(":")
    if len(parts) not in (2, 3) or parts[0] not in KINDS or not all(parts):
        raise SheetsError(f"watch target {text!r}: give KIND:GAME[:ID], KIND one of {', '.join(KINDS)} "
                          f"(e.g. cards:GAME:SET, reference:GAME)")
    if len(parts) == 3 and not registry.generic(parts[0]).takes_id:
        raise SheetsError(f"watch target {text!r}: only cards (a set) and trackers (one tracker) take an ID")
    return Target(*parts)


def build(target: Target, options: PrintOptions) -> list[Path]:
    """The target's PDFs (in the options' folder) and a PNG of every page under its preview/."""
    pdfs = api.make_kind(registry.generic(target.kind), target.game, options, target.id)
    pngs = [png for pdf in pdfs for png in write_previews(Path(pdf))]
    return [*pdfs, *pngs]


def watched(content: Path | None) -> list[Path]:
    """The folders whose files a printable reads: the content folder and the templates."""
    return [Path(content) if content else paths.content_dir(), paths.templates_dir()]


#: a game's files every one of its targets reads: its game.yaml, its look (sheets.library.assets)
_EVERY_TARGET = ("game.yaml", "theme.yaml")
def _cards_read_reference(content_root: Path, game_id: str) -> bool:
    """Do the game's cards read its reference.yaml: quick-reference cards cut from it, or a weapon that
    takes its numbers from one of its tables? (A game that does not load: it may.)"""
    try:
        game = Library(content_root).game(game_id)
    except SheetsError:
        return True
    reference = game.content.get("reference")
    if reference is not None and reference.cards is not None:
        return True
    return any(w.table for card_set in game.card_sets.values() for card in card_set.cards for w in card.weapons)


def reads(target: Target, rel: PurePosixPath, content_root: Path) -> bool:
    """Does the target read this file of its game's folder (`rel`, relative to the folder)?"""
    if not rel.parts or assets.kept_aside(rel):
        return False  # a README, notes, an art/ source: nothing prints them
    if rel.as_posix() in _EVERY_TARGET or rel.parts[0] in assets.FOLDERS:
        return True
    own = {k.name: k.content.files for k in registry.GENERIC if k.content is not None and k.content.files}
    kind = next((name for name, files in own.items() if rel.match(files)), None)
    if kind is None:
        return True  # a plug-in's own file (or one no loader reads yet): it may feed any sheet of the game
    if kind == target.kind:
        return target.id is None or target.kind != "cards" or rel == PurePosixPath("cards", f"{target.id}.yaml")
    if target.kind == "cards" and kind == "reference":
        return _cards_read_reference(content_root, target.game)
    return False


def _template_readers(targets: list[Target], rel: PurePosixPath) -> list[Target]:
    """The targets a changed template can touch: a kind's own template, its kind's targets; a shared
    one (base.html.j2, base.css, the macros), every target."""
    kinds = {k.name for k in registry.GENERIC if rel.name in k.templates}
    return [t for t in targets if t.kind in kinds] if kinds else list(targets)


def affected(targets: list[Target], changed: Iterable[Path], content_root: Path) -> list[Target]:
    """The targets a batch of changed files can touch: each file, the targets that read it (a game's
    file, its targets that read it; a shared file of _print/, every target; a template, the targets
    of the kinds made from it), in the order the targets were given."""
    hit: set[Target] = set()
    templates = paths.templates_dir().resolve()
    for path in changed:
        resolved = Path(path).resolve()
        if resolved.is_relative_to(templates):
            hit.update(_template_readers(targets, PurePosixPath(resolved.relative_to(templates).as_posix())))
            continue
        try:
            rel = PurePosixPath(resolved.relative_to(content_root.resolve()).as_posix())
        except ValueError:
            return list(targets)  # somewhere else the targets read: every target
        if len(rel.parts) == 1:
            continue  # beside the games: a README of the folder, a stray file no loader reads
        if rel.parts[0] == "_print":
            return list(targets)
        hit.update(t for t in targets if t.game == rel.parts[0] and reads(t, PurePosixPath(*rel.parts[1:]), content_root))
    return [t for t in targets if t in hit]


def run(targets: list[Target], changes: Iterable[Iterable[Path]], options: PrintOptions,
        echo: Callable[[str], None]) -> None:
    """Build every target, then rebuild on each batch of changes until `changes` ends."""
    root = watched(options.content)[0]

    def rebuild(which: list[Target]) -> None:
        for target in which:
            start = time.perf_counter()
            try:
                written = build(target, options)
            except SheetsError as exc:
                echo(f"error: {target}: {exc}")
                continue
            pdfs = [p for p in written if p.suffix == ".pdf"]
            echo(f"built {target} in {time.perf_counter() - start:.2f} s: "
                 f"{', '.join(p.name for p in pdfs)} and {len(written) - len(pdfs)} page previews")

    rebuild(targets)
    echo("watching for changes (Ctrl-C stops)")
    for batch in changes:
        changed = [Path(p) for p in batch]
        which = affected(targets, changed, root)
        if which:
            echo(f"changed: {', '.join(sorted(p.name for p in changed if p.exists())) or 'a file removed'}")
            rebuild(which)

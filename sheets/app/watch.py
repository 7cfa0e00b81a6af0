"""`sheets watch TARGET…`: rebuild printables and their PNG previews whenever a file they read changes.

A target is `KIND:GAME[:ID]`, KIND a generic kind of the registry (`sheets.kinds.registry`):
`reference:GAME`, `cards:GAME:SET` (one card set; `cards:GAME` is every set),
`trackers:GAME[:TRACKER]`, `tokens:GAME`, `gauges:GAME`. Every target is built once at the start; then each batch of changes
under the content folder or the templates rebuilds the targets it can touch (a change in a
game's folder rebuilds that game's targets; a template or `_print/` change rebuilds all).
A build that fails prints its located error and the watch goes on: fix the file and save.
"""
from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from sheets.app import api
from sheets.base import paths
from sheets.base.errors import SheetsError
from sheets.base.options import PrintOptions
from sheets.kinds import registry
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


def affected(targets: list[Target], changed: Iterable[Path], content_root: Path) -> list[Target]:
    """The targets a batch of changed files can touch."""
    games: set[str] = set()
    for path in changed:
        try:
            rel = Path(path).resolve().relative_to(content_root.resolve())
        except ValueError:
            return list(targets)  # a template: every target
        if not rel.parts or rel.parts[0] == "_print" or len(rel.parts) == 1:
            return list(targets)
        games.add(rel.parts[0])
    return [t for t in targets if t.game in games]


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

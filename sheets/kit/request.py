"""The print-and-play kit: every sheet of every game, kit.pdf, manifest.json (`sheets kit`).

A kit asked again for the same thing (same seed and options) from unchanged sources is
up to date (sheets.kit.uptodate): it is reported without loading content or laying out a
page, so this module imports the pipeline (`sheets.kit.build`) only when it builds.
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable

from sheets.base import cachedir
from sheets.base.errors import SheetsError
from sheets.base.limits import MAX_PLAYERS
from sheets.kinds.print_plugin import KitOptions
from sheets.kit import uptodate
from sheets.kit.result import Kit, recorded_kit


def make_kit(options: KitOptions = KitOptions(), *, games: list[str] | None = None,
             progress: Callable[[int], Callable[[str], None]] | None = None,
             use_cache: bool = True, preview: bool = False) -> Kit:
    """The kit in `options.output` (a folder; default the output root's kit/), on `options.paper`,
    with `options.seed` (None: a new one), `options.players` player packets (one per character of
    `options.squad` when given), of `games` (None: every game), each once, in the order given."""
    games = list(dict.fromkeys(games)) if games else None
    paper, content, ink_saver = options.paper.name, options.content, options.ink_saver
    seed, players = options.seed, options.players
    if not 0 <= players <= MAX_PLAYERS:
        raise SheetsError(f"--players {players}: give a number from 1 to {MAX_PLAYERS}")
    out_dir = Path(options.output) if options.output else options.home() / "kit"
    cache = cachedir.root() if use_cache else None  # the one cache, never inside the kit's folder
    state_key = None
    if cache is not None and seed is not None:
        squad = []
        if options.squad:  # a squad file's members are read as YAML: PyYAML is imported only then
            from sheets.library.yaml_source import load_yaml  # noqa: PLC0415 - an up-to-date kit without --squad skips PyYAML

            squad = uptodate.user_files(options.squad, load_yaml)
        # the same request from the same sources makes the same bytes: nothing to do
        state_key = uptodate.fingerprint({"build": "kit", "seed": seed, "paper": paper, "games": games,
                                          "players": players, "preview": preview, "ink_saver": ink_saver,
                                          "large_print": options.large_print,
                                          "squad": squad, "layout": options.layout,
                                          "duplex": options.duplex},
                                         content)
        done = uptodate.up_to_date(uptodate.state_dir(cache, out_dir), state_key, out_dir)
        if done is not None:
            try:
                return recorded_kit(done, seed)
            except (KeyError, IndexError, TypeError):
                pass  # a record this version cannot read: build
        uptodate.forget(uptodate.state_dir(cache, out_dir))

    # lazy: an up-to-date kit is answered without loading the pipeline (warm kit < 0.5 s)
    from sheets.kit import build as kit_build  # noqa: PLC0415

    return kit_build.build_kit(out_dir, options, games=games, progress=progress, cache=cache, preview=preview,
                               state_key=state_key)

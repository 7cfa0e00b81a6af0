"""The print-and-play kit: every sheet of every game, kit.pdf, manifest.json (`sheets kit`).

A kit asked again for the same thing (same seed and options) from unchanged sources is
up to date (sheets.uptodate): it is reported without loading content or laying out a
page, so this module imports the heavy parts of the pipeline only when it builds.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from sheets import paths
from sheets.errors import SheetsError
from sheets.limits import MAX_PLAYERS

if TYPE_CHECKING:
    from sheets.build import Built
    from sheets.library import Library


@dataclass
class Kit:
    built: list[Built]  # the sheets built this time ([] when the kit was up to date)
    seed: int
    kit_pdf: Path
    manifest: Path
    packets: list[Path] = field(default_factory=list)
    previews: list[Path] = field(default_factory=list)
    parts: list[Path] = field(default_factory=list)  # every part's PDF, in kit order
    unchanged: int = 0  # parts taken from the cache (all of them when up to date)
    up_to_date: bool = False  # nothing changed since the last identical build: nothing was made

    def files(self) -> list[Path]:
        """Every file of the kit, in the order the CLI reports them."""
        return [*self.parts, *self.packets, self.manifest, *self.previews, self.kit_pdf]


def _recorded_kit(done, seed: int) -> Kit:
    files, info = done.files, done.info
    n_parts, n_packets, n_previews = info["parts"], info["packets"], info["previews"]
    parts, rest = files[:n_parts], files[n_parts:]
    packets, rest = rest[:n_packets], rest[n_packets:]
    manifest, rest = rest[0], rest[1:]
    previews, kit_pdf = rest[:n_previews], rest[n_previews]
    return Kit([], seed, kit_pdf, manifest, packets, previews, parts, unchanged=n_parts, up_to_date=True)


def make_kit(out_dir: Path | None = None, *, seed: int | None = None, paper: str = "a4",
             game: str | None = None, content: Path | None = None,
             progress: Callable[[int], Callable[[str], None]] | None = None,
             use_cache: bool = True, players: int = 0, preview: bool = False,
             ink_saver: bool = False) -> Kit:
    if not 0 <= players <= MAX_PLAYERS:
        raise SheetsError(f"--players {players}: give a number from 1 to {MAX_PLAYERS}")
    out_dir = Path(out_dir) if out_dir else paths.default_output_dir() / "kit"
    cache = (out_dir / ".cache") if use_cache else None
    state_key = None
    if cache is not None and seed is not None:
        # the same request from the same sources makes the same bytes: nothing to do
        from sheets import uptodate  # noqa: PLC0415

        state_key = uptodate.fingerprint({"build": "kit", "seed": seed, "paper": paper, "game": game,
                                          "players": players, "preview": preview, "ink_saver": ink_saver},
                                         content)
        done = uptodate.up_to_date(cache, state_key, out_dir)
        if done is not None:
            try:
                return _recorded_kit(done, seed)
            except (KeyError, IndexError, TypeError):
                pass  # a record this version cannot read: build
        uptodate.forget(cache)

    from sheets import assemble  # noqa: PLC0415
    from sheets.api import kit_sheets, library, new_seed  # noqa: PLC0415
    from sheets import rendering  # noqa: PLC0415
    from sheets.build import build  # noqa: PLC0415

    lib = library(content)
    seed = seed if seed is not None else new_seed()
    games = None
    if game is not None:
        if game not in lib.game_ids():
            raise SheetsError(f"unknown game {game!r}; choose one of: {', '.join(lib.game_ids())}")
        games = [game]
    sheets = kit_sheets(lib, seed, paper, games, ink_saver)
    packets = player_packets(lib, seed, paper, games, players, ink_saver) if players else []
    extra = [s for packet in packets for s in packet[1]]
    tick = progress(len(sheets) + len(extra)) if progress else None
    everything = build(sheets + extra, out_dir, cache_dir=cache, progress=tick)
    built = everything[:len(sheets)]
    printing = assemble.load_printing(lib.root)
    titles = {gid: lib.game(gid).info.title for gid in lib.game_ids()}
    parts = [assemble.describe(b.path, title=b.sheet.label or b.sheet.filename, game=b.sheet.game,
                               game_title=titles.get(b.sheet.game or "", "Other"), template=b.sheet.template,
                               printing=printing) for b in built]
    scope = titles[game] if game else "All games"
    kit_pdf = assemble.assemble(parts, out_dir / assemble.KIT_PDF, title="warsheets print-and-play kit",
                                subtitle=f"{scope} · {paper} · dice seed {seed}",
                                paper_size=rendering.page_size(paper), cache_dir=cache)
    packet_paths: list[Path] = []
    packet_parts: list = []
    offset = len(sheets)
    for (name, packet_sheets, title, gid) in packets:
        sources = [b.path for b in everything[offset:offset + len(packet_sheets)]]
        offset += len(packet_sheets)
        path = assemble.merge(sources, out_dir / name, title=title)
        for src in sources:
            src.unlink()
        packet_paths.append(path)
        packet_parts.append(assemble.describe(path, title=title, game=gid, game_title=titles[gid], template=None,
                                              printing=printing, kind="packet"))
    kit_part = assemble.describe(kit_pdf, title="The whole kit", game=None, game_title="", template=None,
                                 printing=printing)
    kit_part.kind = "kit"
    data = assemble.manifest([kit_part] + parts + packet_parts, out_dir, seed=seed, content_root=lib.root)
    manifest_path = assemble.write_manifest(data, out_dir / assemble.MANIFEST)
    previews: list[Path] = []
    if preview:
        from sheets import preview as previewer  # noqa: PLC0415

        labels = assemble.page_labels(parts)
        previews = previewer.write_previews(kit_pdf, labels=labels, contact_sheet=True)
    kit = Kit(built, seed, kit_pdf, manifest_path, packet_paths, previews, parts=[b.path for b in built],
              unchanged=sum(b.cached for b in built))
    if state_key is not None:
        from sheets import uptodate  # noqa: PLC0415

        uptodate.record(cache, state_key, out_dir, kit.files(),
                        {"parts": len(kit.parts), "packets": len(packet_paths), "previews": len(previews)})
    return kit


def player_packets(lib: Library, seed: int, paper: str, games: list[str] | None, players: int,
                   ink_saver: bool = False) -> list:
    """(file name, sheets to staple together, title, game) for each player's packet."""
    from sheets.api import ink_save  # noqa: PLC0415
    from sheets.library import KitOptions  # noqa: PLC0415

    options = KitOptions(seed=seed, paper=paper)
    out = []
    for gid in games or lib.game_ids():
        game = lib.game(gid)
        if game.plugin is None:
            continue
        for i, packet in enumerate(game.plugin.player_packets(game, options, players)):
            for j, sheet in enumerate(packet):
                sheet.filename = f".packet-{i + 1}-{j}-{sheet.filename}"
            out.append((f"player-{i + 1}.pdf", ink_save(packet, ink_saver),
                        f"{game.info.title}: player {i + 1} of {players}", gid))
    if not out:
        raise SheetsError("--players: no game in this kit makes player packets")
    if len({name for name, *_ in out}) != len(out):
        raise SheetsError("--players: more than one game makes player packets; choose one with --game")
    return out

"""Building the kit: every game's sheets, built, assembled into kit.pdf with its manifest."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Callable

from sheets.base import fonts, interrupts
from sheets.base.errors import SheetsError
from sheets.kinds.print_plugin import KitOptions
from sheets.kit import assemble, folder, uptodate
from sheets.kit.plan import kit_sheets
from sheets.kit.result import Kit
from sheets.library.access import library, new_seed, slug
from sheets.library.content import Library
from sheets.kinds import print_plugin, style
from sheets.pipeline import preview as previewer
from sheets.pipeline.build import build, layout_pool
from sheets.pipeline.sheet import ink_save, render_html


def build_kit(out_dir: Path, options: KitOptions, *, games: list[str] | None,
              progress: Callable[[int], Callable[[str], None]] | None, cache: Path | None,
              preview: bool, state_key: str | None) -> Kit:
    interrupts.phase("loading content")
    lib = library(options.content)
    if options.seed is None:
        options = replace(options, seed=new_seed())
    seed, paper, players = options.seed, options.paper, options.players
    for game in games or []:
        if game not in lib.game_ids():
            raise SheetsError(f"--game: unknown game {game!r}; choose one of: {', '.join(lib.game_ids())}")
    left_out: list[tuple[str, str]] = []  # games whose sheets cannot be made: the others' kit is made all the same
    sheets = kit_sheets(lib, options, games, left_out)
    if left_out and not sheets:
        raise SheetsError("\n".join(why for _, why in left_out))
    if left_out:
        games = [g for g in games or lib.game_ids() if g not in {gid for gid, _ in left_out}]
    packets = player_packets(lib, options, games) if players or options.squad else []
    extra = [s for packet in packets for s in packet[1]]
    previous = folder.previous_files(out_dir)  # what the last build here wrote: gone unless written again
    tick = progress(len(sheets) + len(extra)) if progress else None
    # one pool for the sheets and then the contents page (laid out last: it names every
    # part's pages), so that this process never imports WeasyPrint itself
    with layout_pool() as shared:
        try:
            everything = build(sheets + extra, out_dir, cache_dir=cache, progress=tick, shared=shared)
        except SheetsError:
            # a sheet that cannot be laid out (an author's template that fixes a width wider than
            # the page): find whose it is, leave that game out, and make the others' kit all the same
            failing = _games_that_fail(sheets + extra, out_dir, cache, shared)
            if not failing or len(failing) == len({s.game for s in sheets + extra}):
                raise
            left_out += failing
            gone = {gid for gid, _ in failing}
            sheets, packets = [s for s in sheets if s.game not in gone], [p for p in packets if p[3] not in gone]
            extra = [s for packet in packets for s in packet[1]]
            games = [g for g in games or lib.game_ids() if g not in gone]
            everything = build(sheets + extra, out_dir, cache_dir=cache, shared=shared)  # laid out above: cached
        built = everything[:len(sheets)]
        printing = assemble.load_printing(lib.root)
        titles = {gid: lib.game(gid).info.title for gid in games or lib.game_ids()}  # only its games: a broken other stops nothing
        parts = [assemble.describe(b.path, title=b.sheet.label or b.sheet.filename, game=b.sheet.game,
                                   game_title=titles.get(b.sheet.game or "", "Other"), template=b.sheet.template,
                                   printing=printing, copies=b.sheet.copies, options=b.sheet.reprint) for b in built]
        # the packets first: the contents page lists them (files of their own beside kit.pdf)
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
            packet_parts.append(assemble.describe(path, title=title, game=gid, game_title=titles[gid],
                                                  template=None, printing=printing, kind="packet"))
        interrupts.phase("merging kit.pdf")
        scope = " · ".join(titles[g] for g in games) if games else "All games"
        kit_pdf = assemble.assemble(parts, out_dir / assemble.KIT_PDF, title="warsheets print-and-play kit",
                                    subtitle=f"{scope} · {paper.name} · dice seed {seed}",
                                    paper_size=paper.page_size(), cache_dir=cache, shared=shared,
                                    separate=tuple(packet_parts), run=_run_options(options),
                                    keywords=f"warsheets print-and-play kit; dice seed {seed}")
    previews: list[Path] = []
    if preview:
        interrupts.phase("previews")
        labels = assemble.page_labels(parts)
        previews = previewer.write_previews(kit_pdf, labels=labels, contact_sheet=True)
    interrupts.phase("writing the manifest")
    kit_part = assemble.describe(kit_pdf, title="The whole kit", game=None, game_title="", template=None,
                                 printing=printing)
    kit_part.kind = "kit"
    data = assemble.manifest([kit_part] + parts + packet_parts, out_dir, seed=seed, content_root=lib.root)
    manifest_path = assemble.write_manifest(assemble.with_previews(data, previews, out_dir),
                                            out_dir / assemble.MANIFEST)
    kit = Kit(built, seed, kit_pdf, manifest_path, packet_paths, previews, parts=[b.path for b in built],
              unchanged=sum(b.cached for b in built))
    folder.remove_stale(out_dir, previous, kit.files())
    if left_out:  # written without them, and said so: not recorded as up to date, and the command fails
        raise SheetsError(f"wrote {kit_pdf} without " + ", ".join(gid for gid, _ in left_out) + ":\n"
                          + "\n".join(f"  {why}" for _, why in left_out))
    if state_key is not None:
        interrupts.phase("recording the build")
        uptodate.record(uptodate.state_dir(cache, out_dir), state_key, out_dir, kit.files(),
                        {"parts": len(kit.parts), "packets": len(packet_paths), "previews": len(previews)},
                        fallback=_needs_fallback(sheets + extra))
    return kit


def _games_that_fail(sheets: list, out_dir: Path, cache: Path | None, shared) -> list[tuple[str, str]]:
    """(game, why) for each game whose sheets, built alone, fail; what the others' build writes and
    caches is what the kit's next build takes."""
    failing = []
    for gid in dict.fromkeys(s.game for s in sheets):
        try:
            build([s for s in sheets if s.game == gid], out_dir, cache_dir=cache, shared=shared)
        except SheetsError as exc:
            failing.append((gid or "", str(exc)))
    return failing


def _run_options(options: KitOptions) -> dict[str, str]:
    """The run's options every command the contents page prints carries: the duplex edge, when it is
    not the one `sheets cards` takes anyway (long: no sheets.toml sets another), so lines stay short."""
    return {"--duplex": options.duplex} if options.duplex != "long" else {}


def _needs_fallback(sheets: list) -> bool:
    """Has any sheet text that only installed fonts draw (then the kit depends on them)?"""
    pages = [p for s in sheets for p in ([p for pair in s.parts for p in pair if p is not None] if s.stamped else [s])]
    return any(fonts.needs_fallback(render_html(p)) for p in pages)


def player_packets(lib: Library, options: KitOptions, games: list[str] | None) -> list:
    """(file name, sheets to staple together, title, game) for each player's packet: `options.players`
    of them, or one per character of `options.squad`, each named after its character."""
    asked = "--squad" if options.squad else "--players"
    out = []
    for gid in games or lib.game_ids():
        game = lib.game(gid)
        packets = print_plugin.of(game).player_packets(game, options)
        names: list[str] = []
        for i, packet in enumerate(packets):
            for j, sheet in enumerate(packet):
                sheet.filename = f".packet-{i + 1}-{j}-{sheet.filename}"
            who = getattr(packet, "who", "")
            name = f"player-{slug(who)}" if who else f"player-{i + 1}"
            names.append(name if name not in names else f"{name}-{i + 1}")  # two soldiers of one name
            title = f"{game.info.title}: {who}" if who else f"{game.info.title}: player {i + 1} of {len(packets)}"
            out.append((f"{names[-1]}.pdf", style.large_print(ink_save(packet, options.ink_saver), options.large_print),
                        title, gid))
    if not out:
        raise SheetsError(f"{asked}: no game in this kit makes player packets")
    if len({name for name, *_ in out}) != len(out):
        raise SheetsError(f"{asked}: more than one game makes player packets; choose one with --game")
    return out

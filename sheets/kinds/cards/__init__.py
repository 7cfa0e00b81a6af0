"""Cards: a card set rendered one card per page, checked for overflow, imposed n-up.

1. Render (`builder.py`). Every card of a set becomes one PDF page of exactly its card
   size plus bleed (`card.html.j2`, one HTML document per set, so WeasyPrint loads the
   fonts once). Backs, when asked for, follow the fronts in the same document.
2. Pre-flight (`impose.py`). A card whose text does not fit runs onto a second page.
   Each card carries an anchor id, which WeasyPrint writes as a named destination, so
   the page each card starts on tells which card ran over; that is an error naming the
   card, never a card silently cut off.
3. Impose (`impose.py`, geometry in `grid.py`). Each card page becomes a Form XObject
   that paper pages place with a `cm` matrix computed from the layout (`CardGrid`),
   then crop marks are drawn as plain PDF paths outside the cut lines. With backs, a
   back page follows each front page, laid out so that duplex printing puts card k's
   back behind card k.

4. Export (`export.py`, `sheets cards GAME --export png|pdf|tts [--shop NAME]`): for a print
   shop, the same card document laid out 1-up with bleed and a safe zone, pre-flighted, and
   rasterised with PDFium into one PNG per card face, or kept as one PDF per deck with print
   boxes and, for a PDF/X-1a shop, CMYK only (`shop_pdf.py`, `cmyk.py`); for Tabletop
   Simulator, the faces pasted into grid images (`tts.py`).

Steps 2 and 3 are the sheet's `finish` step (see sheets/pipeline/sheet.py): they run on
WeasyPrint's PDF in the same worker, are deterministic, and take part in the cache key.
The model (card sets, sizes, layouts, papers) is `sheets.library.kinds.cards`.
"""
from __future__ import annotations

from sheets.kinds.cards.builder import decks_sheet, pick_sets, shared_decks
from sheets.kinds.cards.grid import CardGrid
from sheets.base.options import PrintOptions
from sheets.kinds.kind import Kind
from sheets.library.content import Game, Library
from sheets.library.kinds import cards
from sheets.library.kinds.cards import CardSet, Layout
from sheets.pipeline.sheet import Sheet


def _make(lib: Library, game: Game, options: PrintOptions, which: str | None) -> list[Sheet]:
    """The game's card sets on the options' paper, each with its backs; in a kit with a layout (`sheets kit --layout`, or
    sheets.toml's), the sets of that layout's paper and card size take it (a size and its US twin
    alike: poker-us-letter prints poker sets at 2.5x3.5 in), the others their size's default. Sets of
    one layout share their sheets where that saves paper (`builder.shared_decks`)."""
    geometry = lib.geometry()
    chosen = getattr(options, "layout", None)
    layout = geometry.layout(chosen) if chosen else None
    paper = str(options.paper)

    def fits(card_set) -> bool:
        return (layout is not None and layout.card.removesuffix("-us") == card_set.size.removesuffix("-us")
                and layout.paper.removesuffix("-landscape") == paper)

    # the decks with their backs (issue 47: backs inside the kit, no terminal needed): each page of
    # backs right after its page of fronts, placed for the run's duplex edge; a landscape sheet
    # turns about its short edge, as the contents page says of every landscape part
    by_layout: dict[str, tuple[Layout, list[CardSet]]] = {}
    for card_set in pick_sets(game, which or "all"):
        own = layout if layout is not None and fits(card_set) else geometry.default_layout(card_set.size, paper)
        by_layout.setdefault(own.id, (own, []))[1].append(card_set)
    order = list(game.card_sets)
    made: list[tuple[int, Sheet]] = []
    for own, card_sets in by_layout.values():
        duplex = "short" if own.paper.endswith("-landscape") else getattr(options, "duplex", "long")
        for run in shared_decks(card_sets, CardGrid.from_layout(geometry, own).per_page):
            every = len(run) == len(game.card_sets) and len(run) > 1
            name = f"{game.id}-cards.pdf" if every else f"{game.id}-cards-{'-and-'.join(s.id for s in run)}.pdf"
            sheet = decks_sheet(game, run, geometry, paper=options.paper, layout=own, backs=True, duplex=duplex,
                                filename=name, large_print=options.large_print)
            sheet.reprint["--duplex"] = duplex
            if len(run) > 1:  # decks on shared sheets (the part's title names them) come apart by their backs
                sheet.copies = "one of each deck, for the table; once cut, sort the cards into their decks by their backs"
            made.append((order.index(run[0].id) if run[0].id in order else len(order), sheet))
    return [sheet for _, sheet in sorted(made, key=lambda placed: placed[0])]  # in the game's order of sets


KIND = Kind("cards", "the game's card sets", ("card.html.j2",), "cards",
            content=cards.CONTENT, present=lambda game: bool(game.card_sets), make=_make,
            listed=lambda game: "cards (" + ", ".join(game.card_sets) + ")", takes_id=True, kit_rank=2)

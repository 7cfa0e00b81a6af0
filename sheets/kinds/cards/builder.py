"""Card sets to sheets: the options of `sheets cards` checked, and a `Sheet` built.

Every card of a set becomes one PDF page of exactly its card size plus bleed
(`card.html.j2`, one HTML document per set, so WeasyPrint loads the fonts once).
Backs, when asked for, follow the fronts in the same document. The sheet's finish
step (`Imposition`, see impose.py) then checks that every card fits and imposes
the pages n-up.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from sheets.base.colors import MIN_TEXT_PT, text_on, tint
from sheets.base.errors import SheetsError
from sheets.base.limits import MAX_COPIES
from sheets.kinds import style
from sheets.kinds.cards import fit
from sheets.kinds.cards.grid import CardGrid, fold_grid
from sheets.kinds.cards.impose import Imposition
from sheets.library import assets
from sheets.library.content import Library
from sheets.library.kinds.cards import Card, CardBack, CardSet, Layout, PrintGeometry
from sheets.pipeline.rendering import game_titled
from sheets.pipeline.sheet import Sheet

if TYPE_CHECKING:
    from sheets.base.paper import Paper
    from sheets.library.content import Game

DUPLEX = ("long", "short")
BACK_ANGLES = (45, -45, 0, 90, 22.5, -67.5)  # the hatching of a game's decks' backs, one each
MAX_BACK_OFFSET_MM = 20.0


def parse_back_offset(text: str | None) -> tuple[float, float]:
    """`--back-offset X,Y` in millimetres: '1.5,-0.5' -> (1.5, -0.5)."""
    if text is None or not str(text).strip():
        return 0.0, 0.0
    parts = [p.strip() for p in str(text).split(",")]
    try:
        x, y = (float(p) for p in parts)
    except ValueError:
        raise SheetsError(f"--back-offset {text!r}: give two numbers in millimetres, X,Y (e.g. 1.5,-0.5)") from None
    if abs(x) > MAX_BACK_OFFSET_MM or abs(y) > MAX_BACK_OFFSET_MM:
        raise SheetsError(f"--back-offset {text!r}: each shift must be at most {MAX_BACK_OFFSET_MM:g} mm")
    return x, y


def default_back(card_set: CardSet, game_title: str) -> CardBack:
    return CardBack(title=game_title, subtitle=card_set.title)


def large_print_backs(card_set: CardSet) -> CardSet:
    """The deck of the large-print edition: a back is one card behind every card and cannot run
    on, and rules text at 12 pt does not fit one (the Regiment's vehicles: Attack a Vehicle on a
    poker card), so each back with rules text is the deck's designed back (its title and subtitle),
    and its rules are read on a front, which continues on the next card as any front does: the
    front that carries them already (the Regiment's vehicle-damage card), or one added at the end."""
    def plain(back: CardBack | None) -> CardBack | None:
        if back is None or not back.blocks or back.image:
            return back
        return CardBack(title=back.title, subtitle=back.subtitle)

    fronts = [[b.model_dump() for b in c.blocks] for c in card_set.cards]
    texts = [b for b in [card_set.back, *(c.back for c in card_set.cards)] if b is not None and b.blocks and not b.image]
    added: list[Card] = []
    for back in texts:
        blocks = [b.model_dump() for b in back.blocks]
        if blocks not in fronts:
            fronts.append(blocks)
            taken = {c.id for c in card_set.cards} | {c.id for c in added}
            cid = next(i for i in (f"back-rules-{n}" for n in range(1, len(taken) + 2)) if i not in taken)
            added.append(Card(id=cid, title=back.title, subtitle=back.subtitle, blocks=back.blocks))
    if not texts:
        return card_set
    cards = [c.model_copy(update={"back": plain(c.back)}) for c in card_set.cards] + added
    return card_set.model_copy(update={"back": plain(card_set.back), "cards": cards})


def card_colours(game: "Game", cmyk: bool = False) -> dict[str, str]:
    """The card template's colours as CSS, from the game's content folder's palette
    (content/_print/palette.yaml): RGB, or CMYK for a print shop's PDF/X."""
    return Library(game.folder.parent).palette().css(cmyk)


def card_sheet(game: "Game", card_set: CardSet, geometry: PrintGeometry, *, layout: Layout | None = None,
               paper: Paper | str = "a4", backs: bool = False, duplex: str = "long",
               crop_marks: bool | None = None, filename: str | None = None, copies: int = 1,
               back_offset: tuple[float, float] = (0.0, 0.0), fold: bool = False, cmyk: bool = False,
               large_print: bool = False) -> Sheet:
    """One card set as an imposed PDF sheet (phase one: no rendering happens here); `large_print`:
    the large-print edition's deck (`large_print_backs`)."""
    return decks_sheet(game, [card_set], geometry, layout=layout, paper=paper, backs=backs, duplex=duplex,
                       crop_marks=crop_marks, filename=filename, copies=copies, back_offset=back_offset,
                       fold=fold, cmyk=cmyk, large_print=large_print)


def decks_sheet(game: "Game", card_sets: Sequence[CardSet], geometry: PrintGeometry, *,
                layout: Layout | None = None, paper: Paper | str = "a4", backs: bool = False,
                duplex: str = "long", crop_marks: bool | None = None, filename: str | None = None,
                copies: int = 1, back_offset: tuple[float, float] = (0.0, 0.0), fold: bool = False,
                cmyk: bool = False, large_print: bool = False) -> Sheet:
    """Card sets of one card size as one imposed PDF sheet: one set (`card_sheet`), or small sets
    sharing their paper (`shared_decks`: the kit's battle plans and a loadout on two sheets, not
    three), each card with its own deck's footer and back, so a shared sheet cut up sorts by its backs."""
    if duplex not in DUPLEX:
        raise SheetsError(f"unknown duplex {duplex!r}; choose long or short")
    if not card_sets:
        raise SheetsError("no card set to print")
    for card_set in card_sets:
        if not card_set.cards:
            raise SheetsError(f"card set {card_set.id!r} has no cards")
    if not 1 <= copies <= MAX_COPIES:
        raise SheetsError(f"--copies {copies}: give a number from 1 to {MAX_COPIES}")
    if fold and backs:
        raise SheetsError("--fold puts the backs beside the fronts; it does not go with --backs")
    if large_print and (backs or fold):
        card_sets = [large_print_backs(s) for s in card_sets]
    first = card_sets[0]
    shared = len(card_sets) > 1
    layout = layout or geometry.default_layout(first.size, str(paper))
    size = geometry.card_sizes[layout.card]
    grid = fold_grid(geometry, layout, str(paper)) if fold else CardGrid.from_layout(geometry, layout)
    backs = backs or fold
    decks = [(s, k, c) for s in card_sets for k, c in enumerate(s.cards)]  # every card: its set, its place in it
    back_of: tuple[int, ...] | None = None
    back_pages: list[CardBack] = []
    back_names: list[str] = []
    back_decks: list[int] = []
    if backs:
        index: dict[str, int] = {}
        per_card = []
        for card_set, _, card in decks:
            back = card.back or card_set.back or default_back(card_set, game.info.title)
            key = back.model_dump_json()
            if key not in index:  # identical backs are rendered once and placed many times
                index[key] = len(back_pages)
                back_pages.append(back)
                of_set = f" of set {card_set.id!r}" if shared else ""
                back_names.append((f"the back of card {card.id!r}" if card.back else "the card back") + of_set)
                back_decks.append(card_sets.index(card_set))
            per_card.append(index[key])
        back_of = tuple(per_card)
    titles = [s.title for s in card_sets]
    joined = titles[0] if not shared else ", ".join(titles[:-1]) + " and " + titles[-1]
    set_id = first.id if not shared else "+".join(s.id for s in card_sets)
    spec = Imposition(
        set_id=set_id, set_title=joined, size_name=layout.card,
        cards=tuple((c.id, c.title) for _, _, c in decks), back_of=back_of, back_names=tuple(back_names),
        grid=grid, duplex=duplex, crop_marks=layout.crop_marks if crop_marks is None else crop_marks,
        mark_length=layout.mark_length_mm, mark_offset=layout.mark_offset_mm,
        title=game_titled(game.info.title, joined if not shared else f"{joined} cards", ": "), copies=copies,
        back_offset=tuple(back_offset), fold=fold,
        counts=tuple(c.count for _, _, c in decks),
        sets_of=tuple(s.id for s, _, _ in decks) if shared else None,
    )

    def angle(card_set: CardSet) -> float:
        # each deck of a game its own hatching on its backs (the angle by the deck's place in the game)
        place = list(game.card_sets).index(card_set.id) if card_set.id in game.card_sets else 0
        return BACK_ANGLES[place % len(BACK_ANGLES)]

    def front(i: int, card_set: CardSet, place: int, card: Card) -> dict:
        own = {"anchor": f"card-{i}", "card": card, **_fitted(card, size), **_look(game, card)}
        if not shared:
            return {**own, "number": i + 1}
        # a shared sheet: each card numbered in its own deck and footed with its deck's name
        return {**own, "number": place + 1, "of": len(card_set.cards),
                "set_label": game_titled(game.info.title, card_set.title), "set_title": card_set.title}

    context = {**style.of(game, band=False),
        "title": spec.title,
        "colours": card_colours(game, cmyk),
        # the game's accent and frame in a print shop's CMYK file too: its RGB is made CMYK through the
        # palette (cards.cmyk), where every bundled game's look has its CMYK; a homebrew colour the
        # palette lacks is refused with the line to add
        "themed": True,
        "theme_frame_tint": tint(style.frame_of(game), 0.35), "band": style.band_of(game), "set_title": first.title,
        "back_angle": angle(first),
        "back_hatch": tint(style.back_of(game), 0.78),  # the back's colour a little lighter
        "page_size": f"{grid.cell_w:g}mm {grid.cell_h:g}mm", "cell_mm": (grid.cell_w, grid.cell_h),
        "inset_mm": round(layout.bleed_mm + size.margin_mm, 3),
        "margin_mm": size.margin_mm,
        "font_pt": size.font_pt,
        "card_h_mm": size.height_mm,
        "set_label": game_titled(game.info.title, first.title),
        "art_mm": art_mm(size),
        # art and icons' rules only on sheets with some: the bundled decks' HTML stays as it was
        "card_looks": bool(assets.icon_names(game.folder)) or any(c.image or c.icons for _, _, c in decks),
        "fronts": [front(i, s, k, c) for i, (s, k, c) in enumerate(decks)],
        "backs": [{"anchor": f"back-{j}", "back": b, **({"deck": back_decks[j]} if shared else {}),
                   **({"art": assets.data_uri(game.folder, "images", b.image)} if b.image else {})}
                  for j, b in enumerate(back_pages)],
    }
    if shared:
        context["deck_angles"] = [angle(s) for s in card_sets]
    suffix = "-fold" if fold else (("-backs-" + duplex) if backs else "")
    suffix += f"-x{copies}" if copies > 1 else ""
    name = filename or f"{game.id}-cards-{'-and-'.join(s.id for s in card_sets)}{suffix}.pdf"
    label = f"{game.info.title}: {joined}" + ("" if not shared and "card" in first.title.lower() else " cards")
    reprint = {"--layout": layout.id} if shared else {"--set": first.id, "--layout": layout.id}
    return Sheet(filename=name, template="card.html.j2", context=context, game=game.id, templates=game.templates,
                 label=label, finish=spec, reprint=reprint)


def shared_decks(card_sets: Sequence[CardSet], per_sheet: int) -> list[list[CardSet]]:
    """`card_sets` (of one layout, in order) cut into runs that each print as one sheet: the fewest
    paper sheets in all (a run's cards, their `count` copies each, flow from one set into the next),
    and of the ways to print that few, the one that keeps the most sets on sheets of their own (a
    set shares only where it saves paper). Weapons 24, vehicles 6, battle plans 11 and a loadout of 4
    on 9-up sheets: 3 + 1 + 2 + 1 = 7 sheets apart, 5 together."""
    cards = [sum(c.count for c in s.cards) for s in card_sets]
    best: list[tuple[int, int, int]] = [(0, 0, 0)]  # per prefix: (sheets, -runs, where its last run starts)
    for end in range(1, len(card_sets) + 1):
        best.append(min((best[start][0] + -(-sum(cards[start:end]) // per_sheet), best[start][1] - 1, start)
                        for start in range(end)))
    runs, end = [], len(card_sets)
    while end:
        start = best[end][2]
        runs.append(list(card_sets[start:end]))
        end = start
    return runs[::-1]


FOOT_MM = 3.4  # card.html.j2's footer band (its foot_mm): a footer's line wholly 3 mm inside the cut


ART_SHARE = 0.38  # of the card's text box a card's art takes, across its whole width


def art_mm(size) -> float:
    """The height of a card's art (card.html.j2's .art): a share of its text box."""
    return round((size.height_mm - 2 * size.margin_mm - FOOT_MM) * ART_SHARE, 2)


def _look(game: "Game", card) -> dict:
    """A card's own look: its head's colour (a theme colour's name resolved), its art and icons as
    data: URIs (sheets.library.assets; the loader checked every name). A print shop's CMYK file
    is made CMYK through the palette (cards.cmyk), as the theme's accent is."""
    look: dict = {}
    if card.colour is not None:
        fill = card.colour if card.colour.startswith("#") else game.content["theme"].look.colours[card.colour]
        look["head"] = {"fill": fill, "ink": text_on(fill)}
    if card.image is not None:
        look["art"] = assets.data_uri(game.folder, "images", card.image)
    if card.icons:
        files = assets.icon_names(game.folder)
        look["icons"] = [(name, assets.data_uri(game.folder, "icons", files[name])) for name in card.icons]
    return look


def overrun_mm(card, size) -> tuple[float, float]:
    """(what the card's body needs, the room it has), in mm, by the layout's model at the card
    size's own size with the stats at their tightest: `validate` names a card whose need is larger."""
    width = size.width_mm - 2 * size.margin_mm
    base = max(size.font_pt, MIN_TEXT_PT)
    room = size.height_mm - 2 * size.margin_mm - FOOT_MM - fit.head_mm(card, size.font_pt, width, fit.TIGHT_STAT_SCALE)
    room -= art_mm(size) + 1 if card.image is not None else 0
    return fit.body_mm(card, base, width, base), room


def _fitted(card, size) -> dict[str, float]:
    """The card's body size fitted to its card (sheets/kinds/cards/fit.py), and its stats' size:
    large, unless the body needs their room at the card size's own size."""
    width = size.width_mm - 2 * size.margin_mm
    base = max(size.font_pt, MIN_TEXT_PT)
    for scale in (fit.STAT_SCALE, fit.TIGHT_STAT_SCALE):
        room = size.height_mm - 2 * size.margin_mm - FOOT_MM - fit.head_mm(card, size.font_pt, width, scale)
        room -= art_mm(size) + 1 if card.image is not None else 0  # its art (card.html.j2's .art and margin)
        if fit.body_mm(card, base, width, base) <= fit.TARGET * room:
            break
    return {"body_pt": fit.fitted_pt(card, base, width, room), "stat_pt": round(size.font_pt * scale, 2)}


def pick_sets(game: "Game", which: str = "all") -> list[CardSet]:
    """The card sets `--set` names ('all' for every one)."""
    if not game.card_sets:
        raise SheetsError(f"{game.info.title} has no cards")
    if which == "all":
        return list(game.card_sets.values())
    if which not in game.card_sets:
        raise SheetsError(f"unknown card set {which!r} for {game.info.title}; "
                          f"choose one of: {', '.join(game.card_sets)}, all")
    return [game.card_sets[which]]

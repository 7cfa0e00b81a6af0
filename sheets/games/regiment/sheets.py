"""Render contexts for The Regiment's sheets (playbooks, references, kit)."""
from __future__ import annotations

from sheets.build import Sheet
from sheets.dice import Dice
from sheets.games.regiment.characters import Character, roll_character
from sheets.games.regiment.models import STATS, Playbook
from sheets.library import Game, KitOptions
from sheets.rendering import page_size

EQUIPMENT_LINES = 12
NPC_TRACKER = "npc-strength"  # trackers.yaml: printed on the reference's NPC page too


def playbook_entry(game: Game, pb: Playbook, char: Character | None, index: int, origin: str = "") -> dict:
    title = f"{game.info.title} · {pb.name} playbook"
    if char is not None:
        title += f" · {char.rank.abbr} {char.name}"
    if origin:
        title += f" · {origin}"
    return {
        "pb": pb,
        "char": char,
        "prefix": f"c{index}.",
        "footer": f"{title} · warsheets",
        "move_names": char.move_names if char else {pb.own_move.name},
        "bonds": sorted(char.bonds.items()) if char else [],
    }


def playbook_sheet(game: Game, entries: list[dict], filename: str, paper: str = "a4",
                   fillable: bool = False, title: str = "") -> Sheet:
    data = game.data
    context = {
        "title": title or f"{game.info.title} playbooks",
        "page_size": page_size(paper),
        "entries": entries,
        "fields": data.lists.sheet_fields,
        "lists": data.lists,
        "vof": data.lists.vof,
        "stat_names": STATS,
        "stat_pairs": [("battle", "lucky"), ("guts", "tactics"), ("leadership", "forward")],
        "fill": fillable,
        "equipment_lines": EQUIPMENT_LINES,
    }
    return Sheet(filename=filename, template="playbook.html.j2", context=context, game=game.id,
                 forms=fillable, label=title or filename)


def blank_playbook(game: Game, pb: Playbook, paper: str = "a4", fillable: bool = False) -> Sheet:
    suffix = "-fillable" if fillable else ""
    return playbook_sheet(game, [playbook_entry(game, pb, None, 0)], f"regiment-{pb.id}{suffix}.pdf",
                          paper, fillable, f"{pb.name} playbook (blank)")


def filled_playbooks(game: Game, chars: list[Character], filename: str, paper: str = "a4",
                     fillable: bool = False) -> Sheet:
    entries = []
    for i, ch in enumerate(chars):
        origin = ch.origin
        if len(chars) > 1 and origin.startswith(("seed", "dice")):
            origin = f"{origin} · soldier {i + 1} of {len(chars)}"
        entries.append(playbook_entry(game, ch.playbook, ch, i, origin))
    return playbook_sheet(game, entries, filename, paper, fillable,
                          f"{len(chars)} filled playbook{'s' if len(chars) != 1 else ''}")


def roll_squad(game: Game, dice: Dice, count: int, playbook: Playbook | None = None) -> list[Character]:
    """`count` random soldiers; with no playbook given, each soldier's playbook is rolled too."""
    squad = []
    playbooks = list(game.data.playbooks.values())
    for _ in range(count):
        pb = playbook or dice.pick(playbooks, "playbook")
        ch = roll_character(game.data, pb, dice)
        squad.append(ch)
    return squad


def reference_pages(game: Game) -> list[dict]:
    """The moves reference, elements of warfare (with the weapon tags) and GM moves."""
    from sheets.blocks import Block, Section, Term  # noqa: PLC0415

    data = game.data
    parts: list[dict] = [{"kind": "moves", "title": "The Regiment: Moves", "groups": data.basic_moves.groups,
                          "recovery": data.basic_moves.recovery}]
    if data.elements is not None:
        sections = list(data.elements.sections)
        if data.tags is not None:
            terms = [Term(term=f"{t.name}:", text=t.text) for t in data.tags.tags]
            tags = Section(id="weapon-tags", title="Weapon tags", blocks=[Block(terms=terms)])
            # where the seed prints them: right after the weapon ranges
            after = next((i + 1 for i, s in enumerate(sections) if s.id == "weapon-ranges"), len(sections))
            sections.insert(after, tags)
        npcs = next((s for s in sections if s.id == "npcs"), None)
        tracker = game.trackers.get(NPC_TRACKER)
        if npcs is not None and tracker is not None:
            sections.remove(npcs)
        parts.append({"kind": "doc", "title": data.elements.title, "sections": sections})
        if npcs is not None and tracker is not None:
            # the seed's NPC page: the rule, then the team strength tracks it says are "included below"
            from sheets.trackers import TrackerPage  # noqa: PLC0415

            page = TrackerPage(tracker.model_copy(update={"footer": None}), tracker.summary_text())
            parts.append({"kind": "tracker", "title": "The Regiment: NPCs", "sections": [npcs], "tracker": page})
    if data.gm_moves is not None:
        parts.append({"kind": "gm_moves", "title": "The Regiment: GM Moves", "groups": data.gm_moves.groups})
    return parts


def kit_sheets(game: Game, options: KitOptions) -> list[Sheet]:
    sheets = [blank_playbook(game, pb, options.paper) for pb in game.data.playbooks.values()]
    dice = Dice.seeded(options.seed)
    squad = roll_squad(game, dice, 4)
    sheets.append(filled_playbooks(game, squad, "regiment-random-squad.pdf", options.paper))
    return sheets


def player_packets(game: Game, options: KitOptions, players: int) -> list[list[Sheet]]:
    """One packet per player: a rolled soldier's playbook, then the player-facing moves
    reference (basic and peripheral moves; no GM pages). The soldiers are the kit's
    random squad and its next ones: the same seed rolls the same soldiers in the same order."""
    dice = Dice.seeded(options.seed)
    squad = roll_squad(game, dice, players)
    moves = [p for p in reference_pages(game) if p["kind"] == "moves"]
    packets = []
    for i, soldier in enumerate(squad):
        origin = f"{soldier.origin} · player {i + 1} of {players}"
        entry = playbook_entry(game, soldier.playbook, soldier, 0, origin)
        playbook = playbook_sheet(game, [entry], f"player-{i + 1}-playbook.pdf", options.paper,
                                  title=f"Player {i + 1}: {soldier.rank.abbr} {soldier.name}")
        context = {"title": f"{game.info.title}: moves", "page_size": page_size(options.paper), "parts": moves,
                   "footer": f"{game.info.title} · moves · player {i + 1} · warsheets"}
        reference = Sheet(filename=f"player-{i + 1}-moves.pdf", template="reference.html.j2", context=context,
                          game=game.id, label=f"{game.info.title} moves (player {i + 1})")
        packets.append([playbook, reference])
    return packets

"""Render contexts for The Regiment's sheets (playbooks, references, kit)."""
from __future__ import annotations

import re
from pathlib import Path

from sheets.base.dice import Dice
from sheets.base.errors import SheetsError
from sheets.base.paper import page_size
from sheets.games.regiment.characters import BOND_ROWS, Character, resolve_character, roll_character
from sheets.games.regiment.improvements import (CONDITIONS, PROTECTION, TRACKS, TrackMarks, protection_note,
                                                track_marks)
from sheets.games.regiment.models import STATS, Playbook
from sheets.games.regiment.squads import SquadRoster, bond_grid, is_squad, read_squad
from sheets.kinds.trackers.builder import TrackerPage, trackers_of
from sheets.library.access import make_dice
from sheets.library.blocks import Block, Section, Term
from sheets.library.content import Game
from sheets.base.options import PrintOptions
from sheets.kinds.print_plugin import KitOptions, Packet
from sheets.library.yaml_source import load_yaml
from sheets.pipeline.sheet import Sheet
from sheets.kinds import style

EQUIPMENT_LINES = 12
NPC_TRACKER = "npc-strength"  # trackers.yaml: printed on the reference's NPC page too


def playbook_entry(game: Game, pb: Playbook, char: Character | None, index: int, origin: str = "") -> dict:
    title = f"{game.info.title} · {pb.name} playbook"
    if char is not None:
        title += f" · {char.rank.abbr} {char.name}"
    # what rolled a soldier (its seed or dice) is metadata, never on the page a player holds
    shown = [piece for piece in origin.split(" · ") if piece and not piece.startswith(("seed ", "dice "))]
    if shown:
        title += " · " + " · ".join(shown)
    return {
        "pb": pb,
        "char": char,
        "prefix": f"c{index}.",
        "footer": f"{title} · warsheets",
        "move_names": char.move_names if char else {pb.own_move.name},
        "bonds": sorted(char.bonds.items()) if char else [],
        "smokes": "" if char is None or char.smokes is None else str(char.smokes),
        "bond_rows": BOND_ROWS,
        "marked": {t: marked_boxes(pb, t, char.marks(t) if char else 0) for t in ("xp", *TRACKS)},
        # box -> what to write beside it ("guts" for a +1 STAT box, "" otherwise)
        "improved": {i.box: (i.stat or "") for i in char.improvements} if char else {},
        "conditions": set(char.all_conditions) if char else set(),
        "track_marks": {t.id: track_marks(pb, t.id) for t in pb.tracks},
        "totals": {k: str(char.total(k)) if char else "" for k in PROTECTION},
        "protection_note": protection_note(char.protection) if char else "",
        "break_before": index > 0,
    }


def marked_boxes(pb: Playbook, track: str, count: int) -> set[int]:
    """The 1-based boxes ticked for `count` marks: left to right, skipping the pre-marked ones."""
    if track == "xp":
        boxes, premarked = pb.experience.boxes, pb.experience.premarked
    else:
        t = pb.track(track)
        if t is None:
            return set()
        boxes, premarked = t.boxes, t.premarked
    free = [i for i in range(1, boxes + 1) if i not in premarked]
    return set(free[:count])


def playbook_sheet(game: Game, entries: list[dict], filename: str, paper: str = "a4",
                   fillable: bool = False, title: str = "") -> Sheet:
    data = game.data
    context = {**style.of(game),
        "title": title or f"{game.info.title} playbooks",
        "page_size": page_size(paper),
        "entries": entries,
        "fields": data.lists.sheet_fields,
        "lists": data.lists,
        "vof": data.lists.vof,
        "stat_names": STATS,
        "stat_pairs": [("battle", "lucky"), ("guts", "tactics"), ("leadership", "forward")],
        "conditions": CONDITIONS,
        "fill": fillable,
        "equipment_lines": EQUIPMENT_LINES,
    }
    return Sheet(filename=filename, template="playbook.html.j2", context=context, game=game.id, templates=game.templates,
                 forms=fillable, label=title or filename)


def blank_playbook(game: Game, pb: Playbook, paper: str = "a4", fillable: bool = False) -> Sheet:
    suffix = "-fillable" if fillable else ""
    sheet = playbook_sheet(game, [playbook_entry(game, pb, None, 0)], f"regiment-{pb.id}{suffix}.pdf",
                           paper, fillable, f"{pb.name} playbook (blank)")
    # the blank itself, stamped with nothing but its page footers (and cached); fillable, the
    # same pages with a form field at every write-in and box (sheets.pipeline.stamp.widgets)
    blank = _stamp_blank(game, pb, paper)
    sheet.parts = [(blank, blank)]
    return sheet


def _stamp_blank(game: Game, pb: Playbook, paper: str) -> Sheet:
    """The blank every filled playbook of this kind is stamped onto."""
    return playbook_sheet(game, [playbook_entry(game, pb, None, 0)], f"regiment-{pb.id}.pdf", paper,
                          False, f"{pb.name} playbook (blank)")


def filled_playbooks(game: Game, chars: list[Character], filename: str, paper: str = "a4",
                     fillable: bool = False) -> Sheet:
    entries = []
    for i, ch in enumerate(chars):
        origin = ch.origin
        if len(chars) > 1 and origin.startswith(("seed", "dice")):
            origin = f"{origin} · soldier {i + 1} of {len(chars)}"
        entries.append(playbook_entry(game, ch.playbook, ch, i, origin))
    title = f"{len(chars)} filled playbook{'s' if len(chars) != 1 else ''}"
    sheet = playbook_sheet(game, entries, filename, paper, fillable, title)
    rolled = sorted({ch.origin for ch in chars if ch.origin.startswith(("seed", "dice"))})
    sheet.context["keywords"] = "; ".join(f"rolled with {origin}" for origin in rolled)  # the PDF's, not the page's
    # each character drawn onto its playbook's cached blank (fillable: its values in the fields)
    sheet.parts = _stamped_parts(game, chars, entries, filename, paper, title)
    return sheet


def _stamped_parts(game: Game, chars: list[Character], entries: list[dict], filename: str, paper: str,
                   label: str) -> list[tuple[Sheet, Sheet]]:
    """(its playbook's cached blank, the character's one-playbook sheet) for each character."""
    blanks: dict[str, Sheet] = {}
    parts = []
    for ch, entry in zip(chars, entries):
        if ch.playbook.id not in blanks:
            blanks[ch.playbook.id] = _stamp_blank(game, ch.playbook, paper)
        one = playbook_sheet(game, [dict(entry, prefix="c0.", break_before=False)], filename, paper, False, label)
        parts.append((blanks[ch.playbook.id], one))
    return parts


ROSTER_ROWS = 8  # a blank roster's rows; a larger squad gets one row per soldier
ROSTER_TRACKS = ("wounds", "stress", "xp")
TWO_LINE_ROWS = 8  # up to this many soldiers a row has its tracks on a line of their own, in 4 mm boxes
CONDITION_HEADS = {"suppressed": "SUP", "pinned": "PIN", "critical": "CRIT", "stabilized": "STAB"}


def _shape(pb: Playbook, track: str) -> tuple[int, tuple[int, ...], TrackMarks | None]:
    """A track as a playbook draws it: its boxes, the grey ones, its recovery line and critical box."""
    if track == "xp":
        return pb.experience.boxes, tuple(pb.experience.premarked), None
    t = pb.track(track)
    return (0, (), None) if t is None else (t.boxes, tuple(t.premarked), track_marks(pb, track))


def roster_track(pb: Playbook | None, track: str, count: int, playbooks: list[Playbook]) -> dict:
    """One roster row's track, drawn as its soldier's playbook draws it (a blank row: as every
    playbook draws it, or, should they differ, the most boxes with no grey one and no line)."""
    shapes = {_shape(p, track) for p in playbooks}
    if pb is not None:
        boxes, premarked, marks = _shape(pb, track)
    elif len(shapes) == 1:
        boxes, premarked, marks = next(iter(shapes))
    else:
        boxes, premarked, marks = max(s[0] for s in shapes), (), None
    ticked = marked_boxes(pb, track, count) if pb is not None else set()
    states = ["marked" if i in ticked else "premarked" if i in premarked else "open" for i in range(1, boxes + 1)]
    return {"boxes": states, "critical": marks.critical if marks else None,
            "line_after": marks.line_after if marks else None}


def roster_context(game: Game, roster: SquadRoster | None) -> dict:
    """The GM's squad roster: one row per soldier, and the bonds between them as a grid."""
    playbooks = list(game.data.playbooks.values())
    members = roster.members if roster else []
    rows: list[dict] = []
    widest = dict.fromkeys(ROSTER_TRACKS, 0)
    for i in range(max(ROSTER_ROWS, len(members))):
        ch = members[i] if i < len(members) else None
        marks = {t: roster_track(ch.playbook if ch else None, t, ch.marks(t) if ch else 0, playbooks)
                 for t in ROSTER_TRACKS}
        widest = {t: max(widest[t], len(marks[t]["boxes"])) for t in ROSTER_TRACKS}
        rows.append({"n": i + 1, "char": ch, "marks": marks,
                     "stats": {s: ch.stats[s] for s in STATS} if ch else {},
                     "conditions": ch.all_conditions if ch else []})
    fields = game.data.lists.sheet_fields
    grid, others = bond_grid(members) if members else ([], [])
    return {
        "squad": {"designation": roster.designation if roster else None, "op": roster.op if roster else None,
                  "leader": roster.leader if roster else None},
        "rows": rows,
        "tracks": ROSTER_TRACKS,
        "track_heads": {t: next((p.track(t).label for p in playbooks if p.track(t)), t.upper()) if t != "xp" else "XP"
                        for t in ROSTER_TRACKS},
        # a one-line row's track column: 3.5 mm boxes 0.3 mm apart, the recovery line, the cell's padding
        "track_mm": {t: round(3.8 * n + 3.2, 1) for t, n in widest.items()},
        "two_line_rows": TWO_LINE_ROWS,
        "condition_heads": CONDITION_HEADS,
        "legend": fields.track_legend,
        "grid": grid,
        "other_bonds": others,
        "footer": f"{game.info.title} · squad roster" + (f" · {roster.origin}" if roster and roster.origin else "")
                  + " · warsheets",
    }


def squad_sheet(game: Game, roster: SquadRoster | None, filename: str, paper: str = "a4",
                fillable: bool = False) -> Sheet:
    """The roster page, then every member's playbook (a blank roster alone without a squad)."""
    entries = []
    for i, ch in enumerate(roster.members if roster else []):
        entry = playbook_entry(game, ch.playbook, ch, i, ch.origin)
        entry["break_before"] = True
        entries.append(entry)
    label = f"squad roster and {len(entries)} playbooks" if roster else "squad roster (blank)"
    sheet = playbook_sheet(game, entries, filename, paper, fillable, label)
    sheet.template = "squad.html.j2"
    sheet.context["roster"] = roster_context(game, roster)
    if entries:
        # the roster laid out (it is this squad's own page); every playbook stamped onto its
        # kind's cached blank, as `playbook --random` does
        page = playbook_sheet(game, [], filename, paper, False, label)
        page.template, page.context["roster"] = "squad.html.j2", sheet.context["roster"]
        sheet.parts = [(None, page), *_stamped_parts(game, roster.members, entries, filename, paper, label)]
    return sheet


def roll_squad(game: Game, dice: Dice, count: int, playbook: Playbook | None = None) -> list[Character]:
    """`count` random soldiers; with no playbook given, each soldier's playbook is dealt too:
    drawn from the playbooks not yet dealt (the last one taken without a roll), all of them
    again once every one is dealt, so that a squad of four is one of each."""
    squad = []
    deck: list[Playbook] = []
    for _ in range(count):
        pb = playbook
        if pb is None:
            deck = deck or list(game.data.playbooks.values())
            pb = deck[0] if len(deck) == 1 else dice.pick(deck, "playbook")
            deck.remove(pb)
        ch = roll_character(game.data, pb, dice)
        squad.append(ch)
    return with_squad_bonds(squad)


def with_squad_bonds(squad: list[Character]) -> list[Character]:
    """A rolled squad's soldiers, each with a BOND WITH row per squad mate (as many as the page
    has rows), the bond's value left for the player: the rules say to create bonds, not at what."""
    for ch in squad:
        mates = [m.name for m in squad if m is not ch and m.name != ch.name]
        ch.bonds = dict.fromkeys(list(dict.fromkeys(mates))[:BOND_ROWS])
    return squad


# The moves reference in two columns (lines of 60-75 characters, not 150), the GM moves' short
# lines in three; the reference template reads `columns` and `font_pt` as it does a reference.yaml's layout.
REFERENCE_COLUMNS = {"moves": {"columns": 2, "font_pt": 8.0}, "gm_moves": {"columns": 3, "font_pt": 8.0, "balance": True}}
# where a move's outcomes begin: "On a hit", "**On a 10+**", "On a 7-9", "On a miss" (not inside the bold's **)
_OUTCOME = re.compile(r"(?<!\*)(?=(?:\*\*)?On an? (?:hit|10\+|7-9|miss|6-))")


def outcome_lines(text: str) -> list[str]:
    """A move's text as its lines: the trigger, then each outcome on a line of its own, the words as written."""
    lines = [part.strip() for part in _OUTCOME.split(text)]
    return [line if line.startswith("**") or not line.startswith("On a")
            else re.sub(r"^(On an? [^,.:]+)", r"**\1**", line) for line in lines if line]


def reference_pages(game: Game) -> list[dict]:
    """The moves reference, elements of warfare (with the weapon tags) and GM moves."""
    data = game.data
    moves = [m for g in data.basic_moves.groups for m in g.moves]
    parts: list[dict] = [{"kind": "moves", "title": "The Regiment: Moves", "groups": data.basic_moves.groups,
                          "recovery": data.basic_moves.recovery, "layout": REFERENCE_COLUMNS["moves"],
                          "lines": {m.name: outcome_lines(m.text) for m in moves}}]
    if data.elements is not None:
        sections = list(data.elements.sections)
        if data.tags is not None:
            terms = [Term(term=f"{t.name}:", text=t.printed) for t in data.tags.tags]
            tags = Section(id="weapon-tags", title="Weapon tags", blocks=[Block(terms=terms)])
            # where the rules print them: right after the weapon ranges
            after = next((i + 1 for i, s in enumerate(sections) if s.id == "weapon-ranges"), len(sections))
            sections.insert(after, tags)
        npcs = next((s for s in sections if s.id == "npcs"), None)
        tracker = trackers_of(game).get(NPC_TRACKER)
        if npcs is not None and tracker is not None:
            sections.remove(npcs)
        parts.append({"kind": "doc", "title": data.elements.title, "sections": sections})
        if npcs is not None and tracker is not None:
            # the rules' NPC page: the rule, then the team strength tracks it says are "included below"
            page = TrackerPage(tracker.model_copy(update={"footer": None}), tracker.summary_text())
            parts.append({"kind": "tracker", "title": "The Regiment: NPCs", "sections": [npcs], "tracker": page})
    if data.gm_moves is not None:
        parts.append({"kind": "gm_moves", "title": "The Regiment: GM Moves", "groups": data.gm_moves.groups,
                      "layout": REFERENCE_COLUMNS["gm_moves"]})
    return parts


RANDOM_SQUAD = 4  # the kit's random squad when it has no players: one soldier of each playbook


def kit_playbooks(game: Game, options: PrintOptions) -> list[Sheet]:
    """The kit's playbooks: every one blank, then the GM's own squad (`sheets kit --squad`), else a
    squad rolled with the kit's seed (none given: a fresh one), as many as the kit has players."""
    sheets = [blank_playbook(game, pb, options.paper) for pb in game.data.playbooks.values()]
    kit = options if isinstance(options, KitOptions) else None
    if kit is not None and kit.squad:  # the GM's own squad: its characters' playbooks, as many as there are
        squad = own_squad(game, kit.squad)
        filled = filled_playbooks(game, squad, "regiment-your-squad.pdf", options.paper)
    else:  # the random squad: the players' soldiers when the kit has players (the packets hold the same ones)
        dice = make_dice(kit.seed if kit is not None else None, None)
        squad = roll_squad(game, dice, (kit.players if kit is not None else 0) or RANDOM_SQUAD)
        filled = filled_playbooks(game, squad, "regiment-random-squad.pdf", options.paper)
    if kit is not None and (kit.players or kit.squad):  # each player's playbook is in their packet too
        filled.copies = ("none if you print the player packets (player-*.pdf: each player's playbook "
                         "with the moves); else one set, each player takes their own soldier's pages")
    else:
        filled.copies = "one set: each player takes their own soldier's pages"
    sheets.append(filled)
    return sheets


def kit_roster(game: Game, options: PrintOptions) -> list[Sheet]:
    """The kit's blank squad roster, and with `sheets kit --squad` the GM's squad's roster filled in."""
    sheets = [squad_sheet(game, None, "regiment-squad-roster.pdf", options.paper)]
    if isinstance(options, KitOptions) and options.squad:
        sheets.append(roster_page(game, own_roster(game, options.squad), "regiment-your-squad-roster.pdf",
                                  options.paper))
    return sheets


def roster_page(game: Game, roster: SquadRoster, filename: str, paper: str = "a4") -> Sheet:
    """A squad's roster page alone (the GM's; its members' playbooks print elsewhere)."""
    page = playbook_sheet(game, [], filename, paper, False, "squad roster (your squad)")
    page.template, page.context["roster"] = "squad.html.j2", roster_context(game, roster)
    return page


def own_roster(game: Game, files) -> SquadRoster:
    """`sheets kit --squad FILE ...` as one squad: every file's characters in order, named as its
    first squad file names the squad."""
    squads = [read_squad(doc, Path(path).parent, game.data) for path in files
              if isinstance((doc := load_yaml(Path(path))).data, dict) and is_squad(doc.data)]
    head = squads[0] if squads else SquadRoster(None, None, None, [])
    return SquadRoster(head.designation, head.op, head.leader, own_squad(game, files),
                       origin=", ".join(Path(p).name for p in files))


def own_squad(game: Game, files) -> list[Character]:
    """The characters of `sheets kit --squad FILE`: a squad file's members, or character files, in order."""
    squad: list[Character] = []
    for path in files:
        doc = load_yaml(Path(path))
        if isinstance(doc.data, dict) and is_squad(doc.data):
            squad += read_squad(doc, Path(path).parent, game.data).members
        else:
            squad.append(resolve_character(doc, game.data))
    return squad


def player_packets(game: Game, options: KitOptions) -> list[Packet]:
    """One packet per player: a soldier's playbook, then the player-facing moves reference (basic
    and peripheral moves; no GM pages), named after the soldier. The soldiers are the GM's own
    squad (`options.squad`: one packet per character), else the kit's random squad: the same
    seed rolls the same soldiers in the same order."""
    players = options.players
    if options.squad:
        squad = own_squad(game, options.squad)
        if players and players != len(squad):
            raise SheetsError(f"--players {players}: the squad has {len(squad)} characters, one packet each; "
                              f"leave --players out or give --players {len(squad)}")
    else:
        squad = roll_squad(game, Dice.seeded(options.seed), players)
    moves = [p for p in reference_pages(game) if p["kind"] == "moves"]
    packets = []
    for i, soldier in enumerate(squad):
        # the GM's own squad: each packet is its character's, and says so; a random one: player N of M
        who = soldier.name if options.squad else f"player {i + 1}"
        origin = soldier.origin if options.squad else f"{soldier.origin} · player {i + 1} of {len(squad)}"
        entry = playbook_entry(game, soldier.playbook, soldier, 0, origin)
        playbook = playbook_sheet(game, [entry], f"player-{i + 1}-playbook.pdf", options.paper,
                                  title=("" if options.squad else f"Player {i + 1}: ") + f"{soldier.rank.abbr} {soldier.name}")
        context = {**style.of(game), "title": f"{game.info.title}: moves", "page_size": page_size(options.paper), "parts": moves,
                   "footer": f"{game.info.title} · moves · {who} · warsheets"}
        reference = Sheet(filename=f"player-{i + 1}-moves.pdf", template="reference.html.j2", context=context,
                          game=game.id, templates=game.templates, label=f"{game.info.title} moves ({who})")
        packets.append(Packet([playbook, reference], who=soldier.name if options.squad else ""))
    return packets

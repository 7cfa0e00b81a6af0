"""Characters of The Regiment: the character-file contract, its checks, and random soldiers.

A character file names a playbook and the player's choices, and, as a campaign
goes on, the marks on the sheet (xp, gear, wounds, stress, conditions) and the
improvements taken. `resolve_character` checks every choice against the
playbook and The Regiment's rules and reports all problems at once, each with file
and line. `roll_character` makes a legal character from dice. Moves that change
a stat (Battle tested) are applied in one place, `improvements.effective_stats`, whichever
way a character is made.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from itertools import permutations
from pathlib import PurePath
from typing import Annotated

from pydantic import Field, StrictInt

from sheets.base.dice import Dice
from sheets.base.errors import ContentError
from sheets.games.regiment.improvements import (
    CONDITIONS, CRITICAL_RULE, CRITICAL_STRESS, CRITICAL_WOUNDS, TRACKS, Improvement, a, can_be_critical,
    check_improvements, effective_stats, markable, norm, protection,
)
from sheets.games.regiment.models import STATS, Loadout, Move, Playbook, Rank, RegimentData
from sheets.library.validation import Strict, validate_each
from sheets.library.yaml_source import YamlDocument

BOND_ROWS = 5  # the playbook's YOUR SQUAD & BONDS box prints five BOND WITH rows

#: a whole number as the file writes it: `true` is not 1, nor 2.0 two (pydantic's strict ints)
Whole = StrictInt


class WriteIn:
    """What marks a key of the character file as a write-in: a line the player writes on the playbook
    (DEPLOYMENT), text that no rule reads and that prints as written.

    A field declared `Written = Field("", description=...)` is all a new write-in needs in Python: the
    character keeps it (`Character.write_ins`), `--save` writes it back, the desk's form shows it and
    its preview prints it (`webform.typed`); the template's line prints it (`ch.write_ins.<key>`).
    """


WRITE_IN = WriteIn()
Written = Annotated[str, WRITE_IN]


class Squad(Strict):
    designation: str | None = None
    op: Whole | None = Field(None, ge=-3, le=6)
    leader: str | None = None


class CharacterFile(Strict):
    """The character file format (part of the CLI contract; see README)."""

    playbook: str
    name: str
    rank: str
    profile: str
    background: str
    stat_set: Whole | None = Field(None, ge=1, le=4)
    stats: dict[str, Whole] | None = None
    moves: list[str]
    loadout: str
    squad: Squad | None = None
    deployment: Written = Field("", description="Where the soldier is deployed (printed on the playbook's DEPLOYMENT line).")
    bonds: dict[str, Whole | None] = {}  # None: the bond is there, its value not yet chosen
    smokes: Whole | None = Field(None, description="The SMOKES box: barter smokes held (a new soldier: the playbook's).")
    notes: str = ""
    # campaign state: marks on the sheet and improvements, in the order taken
    xp: Whole = Field(0, ge=0)
    gear: Whole = Field(0, ge=0)
    wounds: Whole = Field(0, ge=0)
    stress: Whole = Field(0, ge=0)
    conditions: list[str] = []
    improvements: list[str] = []


#: the character file's write-ins, in the file's order (the keys whose field is `Written`)
WRITE_INS = tuple(key for key, spec in CharacterFile.model_fields.items() if WRITE_IN in spec.metadata)


def _no_write_ins() -> dict[str, str]:
    return dict.fromkeys(WRITE_INS, "")


@dataclass
class Character:
    playbook: Playbook
    name: str
    rank: Rank
    profile: str
    background: str
    stats: dict[str, int]  # effective: the stat set or assignment, plus moves and improvements
    moves: list[Move]  # the chosen moves (the playbook's own move is implied)
    loadout: Loadout
    stat_set: int | None = None
    squad: Squad = field(default_factory=Squad)
    write_ins: dict[str, str] = field(default_factory=_no_write_ins)  # every write-in, "" when not written
    bonds: dict[str, int | None] = field(default_factory=dict)  # None: a bond whose value is not chosen yet
    smokes: int | None = None
    notes: str = ""
    origin: str = ""  # "seed 7", "dice 3,5,1", "walter.yaml" (the file's name, never its folder: it prints)
    base_stats: dict[str, int] = field(default_factory=dict)  # as chosen at creation
    xp: int = 0
    gear: int = 0
    wounds: int = 0
    stress: int = 0
    conditions: list[str] = field(default_factory=list)  # as entered (suppressed, pinned, critical, stabilized)
    improvements: list[Improvement] = field(default_factory=list)

    @property
    def improvement_moves(self) -> list[Move]:
        return [i.move for i in self.improvements if i.move is not None]

    @property
    def held_moves(self) -> list[Move]:
        """Every move held, in the playbook's order (own move first)."""
        names = self.move_names
        return [m for m in self.playbook.moves if m.name in names]

    @property
    def move_names(self) -> set[str]:
        return {self.playbook.own_move.name, *(m.name for m in self.moves),
                *(m.name for m in self.improvement_moves)}

    @property
    def critical(self) -> bool:
        """Critical: the marks allow it (3+ wounds or 4+ stress) and it was not removed (stabilized)."""
        return can_be_critical(self.wounds, self.stress) and "stabilized" not in self.conditions

    @property
    def all_conditions(self) -> list[str]:
        """The conditions as printed: the entered ones, and critical when the marks give it."""
        implied = self.critical and "critical" not in self.conditions
        return [*self.conditions, *(["critical"] if implied else [])]

    def marks(self, track: str) -> int:
        return getattr(self, track)

    @property
    def protection(self) -> dict[str, list]:
        """tough and grit: each lasting source (armour, moves held, improvements)."""
        return protection(self.playbook, self.held_moves, self.improvements)

    def total(self, kind: str) -> int:
        """The TOUGH or GRIT box: the sum of its lasting sources."""
        return sum(s.value for s in self.protection[kind])


def _match_rank(text: str, ranks: list[Rank]) -> Rank | None:
    key = norm(text)
    for rank in ranks:
        if key in (norm(rank.abbr), norm(rank.name), norm(rank.full)):
            return rank
    return None


def _find(text: str, options: list[str]) -> str | None:
    key = norm(text)
    return next((o for o in options if norm(o) == key), None)


def check_state(sheet: CharacterFile, pb: Playbook, bad) -> None:
    """The marks on the sheet: within the boxes the playbook prints; conditions by name."""
    for track in ("xp", *TRACKS):
        value, most = getattr(sheet, track), markable(pb, track)
        if value > most:
            label = "EXPERIENCE" if track == "xp" else pb.track(track).label
            extra = ("; when you would mark one more, take an improvement (add it to improvements) "
                     "and clear the track") if track == "xp" else ""
            bad((track,), f"{value} marked, but {a(pb.name)}'s {label} track has {most} boxes to mark{extra}")
    if isinstance(sheet.name, str) and not sheet.name.strip():
        bad(("name",), "a name is required: the character's name, as the playbook prints it (e.g. name: Joe Kowalski)")
    if len(sheet.bonds) > BOND_ROWS:
        bad(("bonds",), f"{len(sheet.bonds)} bonds, but the playbook prints {BOND_ROWS} BOND WITH rows; "
                        f"keep the {BOND_ROWS} that matter")
    for who in sheet.bonds:
        if not str(who).strip():
            bad(("bonds",), "a bond without a name: say who the bond is with, e.g. bonds: {Doc Keller: 1}")
        elif isinstance(sheet.name, str) and norm(str(who)) == norm(sheet.name):
            bad(("bonds", who), f"a bond with {who} is a bond with this character: bonds are with others "
                                f"in the squad")
    seen: dict[str, int] = {}
    marks = f"this file marks {sheet.wounds} wound{'s' if sheet.wounds != 1 else ''}, {sheet.stress} stress"
    for i, cond in enumerate(sheet.conditions):
        key = norm(str(cond))
        if key not in CONDITIONS:
            bad(("conditions", i), f"unknown condition {cond!r}; the conditions are {', '.join(CONDITIONS)} "
                                   f"(critical needs {CRITICAL_WOUNDS}+ wounds or {CRITICAL_STRESS}+ stress; "
                                   f"stabilized records that it was removed)")
        elif key in seen:
            bad(("conditions", i), f"{key!r} is listed twice")
        elif key in ("critical", "stabilized") and not can_be_critical(sheet.wounds, sheet.stress):
            what = ("critical needs" if key == "critical"
                    else "stabilized removes the critical condition, which needs")
            bad(("conditions", i), f"{what} {CRITICAL_WOUNDS}+ wounds or {CRITICAL_STRESS}+ stress, and {marks} "
                                   f"({CRITICAL_RULE})")
        elif {key, *seen} >= {"critical", "stabilized"}:
            bad(("conditions", i), f"critical and stabilized contradict each other: stabilizing removes the "
                                   f"critical condition ({CRITICAL_RULE}); keep one")
        seen.setdefault(key, i)


def _check_stats(sheet, pb, failed: set, bad) -> dict[str, int]:
    """The character's stats: its stat set, or its assignment of the playbook's values ({} when wrong)."""
    stats: dict[str, int] = {}
    if failed & {"stat_set", "stats"}:
        pass  # reported as it is
    elif pb.stats.stat_sets is not None:
        if sheet.stats is not None:
            bad(("stats",), f"{a(pb.name)} chooses a stat set: use stat_set: 1-{len(pb.stats.stat_sets)} instead of stats")
        elif sheet.stat_set is None:
            bad(("stat_set",), f"stat_set is missing: choose 1-{len(pb.stats.stat_sets)}")
        elif sheet.stat_set > len(pb.stats.stat_sets):
            bad(("stat_set",), f"stat_set {sheet.stat_set} does not exist; choose 1-{len(pb.stats.stat_sets)}")
        else:
            stats = pb.stats.stat_sets[sheet.stat_set - 1].as_dict()
    else:
        wanted = sorted(pb.stats.assign or [])
        shown = ", ".join(f"{v:+d}" if v else "0" for v in sorted(wanted, reverse=True))
        if sheet.stat_set is not None:
            bad(("stat_set",), f"{a(pb.name)} has no stat sets: assign {shown} with stats: {{battle: .., guts: ..}}")
        elif sheet.stats is None:
            bad(("stats",), f"stats is missing: assign {shown} to {', '.join(STATS)}")
        else:
            keys = {k.lower(): v for k, v in sheet.stats.items()}
            unknown = sorted(set(keys) - set(STATS))
            missing = [s for s in STATS if s not in keys]
            if unknown:
                bad(("stats",), f"unknown stat(s) {', '.join(unknown)}; the stats are {', '.join(STATS)}")
            elif missing:
                bad(("stats",), f"missing stat(s) {', '.join(missing)}; assign {shown} to all five")
            elif sorted(keys.values()) != wanted:
                got = ", ".join(f"{s} {keys[s]:+d}" for s in STATS)
                bad(("stats",), f"the stats ({got}) are not an assignment of {shown}")
            else:
                stats = {s: keys[s] for s in STATS}
    return stats


def _check_moves(sheet, pb, data: RegimentData, bad) -> list[Move]:
    """The moves the character chose besides the playbook's own."""
    chosen: list[Move] = []
    own = pb.own_move
    choosable = pb.moves[1:]
    for i, name in enumerate(sheet.moves or []):
        if norm(name) == norm(own.name):
            bad(("moves", i), f"{own.name!r} is the {pb.name}'s own move: every {pb.name} has it, list only the {pb.choose_moves} chosen")
            continue
        move = next((m for m in choosable if norm(m.name) == norm(name)), None)
        if move is None:
            other = next((p.name for p in data.playbooks.values() if p.id != pb.id
                          and any(norm(m.name) == norm(name) for m in p.moves)), None)
            hint = f" (that is {a(other)} move)" if other else ""
            bad(("moves", i), f"{name!r} is not {a(pb.name)} move{hint}; choose from: {', '.join(m.name for m in choosable)}")
        elif move in chosen:
            bad(("moves", i), f"{move.name!r} is chosen twice")
        else:
            chosen.append(move)
    if sheet.moves is not None and len(sheet.moves) != pb.choose_moves:
        bad(("moves",), f"{a(pb.name)} chooses exactly {pb.choose_moves} moves besides {own.name!r}; this file lists {len(sheet.moves)}")
    return chosen


def resolve_character(doc: YamlDocument, data: RegimentData) -> Character:
    """Validate a character document against its playbook; all problems at once."""
    # every problem at once: a key of the wrong type is reported, and the checks of the other keys still run
    sheet, failed, problems = validate_each(CharacterFile, doc)
    if sheet is None or sheet.playbook is None:
        raise ContentError(problems)

    def bad(loc: tuple, message: str) -> None:
        problems.append(doc.problem(loc, message))

    try:
        pb = data.playbook(sheet.playbook)
    except Exception:  # noqa: BLE001 - reported as a located problem
        bad(("playbook",), f"unknown playbook {sheet.playbook!r}; choose one of: {', '.join(data.playbooks)}")
        raise ContentError(problems) from None

    rank = _match_rank(sheet.rank, pb.ranks) if sheet.rank is not None else None
    if rank is None and sheet.rank is not None:
        allowed = ", ".join(r.full for r in pb.ranks)
        bad(("rank",), f"rank {sheet.rank!r} is not allowed for {a(pb.name)}; allowed: {allowed}")

    profile = _find(sheet.profile, data.lists.profiles) if sheet.profile is not None else None
    if profile is None and sheet.profile is not None:
        bad(("profile",), f"unknown profile {sheet.profile!r}; choose one of: {', '.join(data.lists.profiles)}")
    background = _find(sheet.background, data.lists.backgrounds) if sheet.background is not None else None
    if background is None and sheet.background is not None:
        bad(("background",), f"unknown background {sheet.background!r}; choose one of: "
                             f"{', '.join(data.lists.backgrounds)}")

    stats = _check_stats(sheet, pb, failed, bad)
    chosen = _check_moves(sheet, pb, data, bad)

    loadout = next((lo for lo in pb.loadouts if norm(lo.name) == norm(sheet.loadout or "")), None)
    if loadout is None and sheet.loadout is not None:
        bad(("loadout",), f"unknown loadout {sheet.loadout!r} for {a(pb.name)}; choose one of: {', '.join(lo.name for lo in pb.loadouts)}")

    check_state(sheet, pb, bad)
    improvements: list[Improvement] = []
    if stats:
        improvements = check_improvements(pb, data, sheet.improvements, stats, chosen,
                                          lambda i, message: bad(("improvements", i), message))

    if problems:
        raise ContentError(problems)
    return Character(
        playbook=pb, name=sheet.name, rank=rank, profile=profile, background=background,
        stats=effective_stats(stats, chosen, improvements), moves=chosen, loadout=loadout,
        stat_set=sheet.stat_set, squad=sheet.squad or Squad(), write_ins={key: getattr(sheet, key) for key in WRITE_INS},
        bonds=dict(sheet.bonds), notes=sheet.notes, smokes=sheet.smokes,
        origin=PurePath(doc.name).name, base_stats=stats, xp=sheet.xp, gear=sheet.gear, wounds=sheet.wounds,
        stress=sheet.stress, conditions=[norm(c) for c in sheet.conditions], improvements=improvements,
    )


def assignments(values: list[int]) -> list[tuple[int, ...]]:
    """Every distinct way to assign `values` to the five stats, in a fixed order."""
    return sorted(set(permutations(values)), reverse=True)


def roll_character(data: RegimentData, playbook: Playbook, dice: Dice) -> Character:
    """A legal character from dice, in a fixed order of rolls."""
    rank = dice.pick(playbook.ranks, "rank")
    name = dice.pick(data.lists.names, "name")
    profile = dice.pick(data.lists.profiles, "profile")
    background = dice.pick(data.lists.backgrounds, "background")
    stat_set = None
    if playbook.stats.stat_sets is not None:
        stat_set = dice.roll(len(playbook.stats.stat_sets), "stat set")
        stats = playbook.stats.stat_sets[stat_set - 1].as_dict()
    else:
        stats = dict(zip(STATS, dice.pick(assignments(playbook.stats.assign or []), "stats")))
    moves = dice.sample(playbook.moves[1:], playbook.choose_moves, "move")
    moves.sort(key=playbook.moves.index)
    loadout = dice.pick(playbook.loadouts, "loadout")
    return Character(
        playbook=playbook, name=name, rank=rank, profile=profile, background=background,
        stats=effective_stats(stats, moves), moves=moves, loadout=loadout, stat_set=stat_set,
        origin=dice.describe, base_stats=stats, smokes=playbook.smokes,
    )


def character_file_data(ch: Character) -> dict:
    """The character as a character file holds it (what `--save` writes; `--character` reads it back)."""
    out: dict = {"playbook": ch.playbook.id, "name": ch.name, "rank": ch.rank.abbr, "profile": ch.profile,
                 "background": ch.background}
    if ch.stat_set is not None:
        out["stat_set"] = ch.stat_set
    else:
        out["stats"] = dict(ch.base_stats)
    out["moves"] = [m.name for m in ch.moves]
    out["loadout"] = ch.loadout.name
    squad = {k: v for k, v in ch.squad.model_dump().items() if v is not None}
    if squad:
        out["squad"] = squad
    out.update((key, text) for key, text in ch.write_ins.items() if text)
    if ch.bonds:
        out["bonds"] = dict(ch.bonds)
    if ch.notes:
        out["notes"] = ch.notes
    if ch.smokes is not None:
        out["smokes"] = ch.smokes
    for key in ("xp", *TRACKS):
        out[key] = ch.marks(key)
    out["conditions"] = list(ch.conditions)
    out["improvements"] = [i.text for i in ch.improvements]
    return out


def character_json(ch: Character) -> dict:
    """The resolved character (`sheets playbook --character FILE --json`): effective values."""
    return {
        "name": ch.name,
        "playbook": ch.playbook.id,
        "rank": ch.rank.full,
        "profile": ch.profile,
        "background": ch.background,
        "stat_set": ch.stat_set,
        "stats": {s: ch.stats[s] for s in STATS},
        "base_stats": {s: ch.base_stats[s] for s in STATS},
        "moves": [m.name for m in ch.held_moves],
        "loadout": ch.loadout.name,
        "xp": ch.xp,
        "gear": ch.gear,
        "smokes": ch.smokes,
        "wounds": ch.wounds,
        "stress": ch.stress,
        "conditions": ch.all_conditions,
        "improvements": [i.text for i in ch.improvements],
        "tough": ch.total("tough"),
        "grit": ch.total("grit"),
        **{f"{k}_from": [{"source": s.name, "kind": s.kind, "value": s.value} for s in found]
           for k, found in ch.protection.items()},
        "squad": ch.squad.model_dump(),
        "bonds": dict(ch.bonds),
        "notes": ch.notes,
    }

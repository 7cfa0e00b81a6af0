"""The Regiment's character advancement: the marks a playbook prints and the improvements taken.

What a character file's campaign state is checked against (`check_improvements`), and
the one place where moves and improvements change the stats (`effective_stats`),
whichever way a character is made (from a file or rolled).
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from sheets.base.errors import SheetsError
from sheets.base.formats import signed
from sheets.games.regiment.models import STATS, Move, Playbook, RegimentData

# The rules (The Regiment, Recovery & healing; Conditions): "When you have 3+ wounds or 4+ stress, you have
# the critical condition, and you'll get worse until you're stabilized and the condition is
# removed". The marks decide whether a soldier can be critical; the file may say so
# (`critical`) or record its removal (`stabilized`); with neither, the marks decide.
CRITICAL_WOUNDS = 3
CRITICAL_STRESS = 4
CRITICAL_RULE = ("The Regiment's rules, Recovery & healing: \"When you have 3+ wounds or 4+ stress, you have the critical "
                 "condition ... until you're stabilized and the condition is removed\"")
CONDITIONS = ("suppressed", "pinned", "critical", "stabilized")  # what a soldier carries between scenes
TRACKS = ("gear", "wounds", "stress")
#: the mark that makes a soldier critical, per track (the 3rd wound, the 4th stress)
CRITICAL_AT = {"wounds": CRITICAL_WOUNDS, "stress": CRITICAL_STRESS}


@dataclass(frozen=True)
class Improvement:
    """One improvement taken: what it is and which box of the playbook it ticks."""

    text: str  # canonical: "+1 guts", "Battle tested", "+1 grit", "1 tough", "go home"
    kind: str  # stat | move | advanced | final
    box: str  # the playbook's box: "imp.basic.1", "imp.adv.2", "imp.final.1"
    stat: str | None = None
    move: Move | None = None


def a(name: str) -> str:
    """'Operator' -> 'an Operator', 'Medic' -> 'a Medic'."""
    return f"{'an' if name[:1].lower() in 'aeiou' else 'a'} {name}"


def norm(text: str) -> str:
    return " ".join(text.lower().split())


def can_be_critical(wounds: int, stress: int) -> bool:
    return wounds >= CRITICAL_WOUNDS or stress >= CRITICAL_STRESS


def markable(pb: Playbook, track: str) -> int:
    """How many boxes of a track the player can mark: the pre-marked (shaded) ones are not."""
    if track == "xp":
        return pb.experience.boxes - len(pb.experience.premarked)
    t = pb.track(track)
    return 0 if t is None else t.boxes - len(t.premarked)


@dataclass(frozen=True)
class TrackMarks:
    """Where a WOUNDS or STRESS track's rules sit on its boxes (1-based box numbers).

    Recovery & healing: "When you recover a wound or stress, erase a mark in one of the boxes to
    the left of the line. When you heal a wound or stress, erase a mark from any box. When you have
    3+ wounds or 4+ stress, you have the critical condition". The seed's text lost the line itself;
    it is drawn where critical begins (before the 3rd wound box, the 4th stress box): recovering
    erases only marks short of critical, healing any, which is what tells the two apart.
    """

    critical: int  # the box whose mark makes the soldier critical
    line_after: int  # the recovery line is drawn after this box


def track_marks(pb: Playbook, track: str) -> TrackMarks | None:
    """The critical box and the recovery line of a playbook's track (None: a track without them)."""
    t = pb.track(track) if track in CRITICAL_AT else None
    if t is None:
        return None
    free = [i for i in range(1, t.boxes + 1) if i not in t.premarked]  # marks go left to right, past the grey
    if len(free) < CRITICAL_AT[track]:
        return None
    box = free[CRITICAL_AT[track] - 1]
    return TrackMarks(critical=box, line_after=box - 1)


def _apply_bonus(stats: dict[str, int], move: Move) -> None:
    bonus = move.stat_bonus
    if bonus is not None:
        stats[bonus.stat] = max(stats[bonus.stat], min(bonus.max, stats[bonus.stat] + bonus.by))


def effective_stats(base: dict[str, int], moves: list[Move], improvements: Sequence[Improvement] = ()) -> dict[str, int]:
    """The stats a sheet prints: the creation moves' bonuses, then each improvement in order."""
    stats = dict(base)
    for move in moves:
        _apply_bonus(stats, move)
    for imp in improvements:
        if imp.stat is not None:
            stats[imp.stat] += 1
        if imp.move is not None:
            _apply_bonus(stats, imp.move)
    return stats


STAT_MAX = 3  # every "+1stat (max+3)" box of the playbooks


def _threshold(label: str, fallback_name: str) -> int:
    found = re.search(r"\((\d+)\+\)", label)
    if found is None:
        raise SheetsError(f"the playbook's {fallback_name} improvements label {label!r} does not say "
                          f"how many improvements must come first, e.g. 'ADVANCED (4+)'")
    return int(found.group(1))


def _key(text: str) -> str:
    """'get +1grit' / '+1 Grit' -> '+1 grit'; 'get 1-tough' -> '1 tough'."""
    text = norm(text).removeprefix("get ")
    text = re.sub(r"^([+-]?\d+)\s*-?\s*", r"\1 ", text)
    return text


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def _take_stat(pb: Playbook, stat: str, text: str, stat_boxes: list[int], stats: dict[str, int],
               taken: list[Improvement], bad) -> None:
    """+1 STAT, in the next box, if a box is left and the stat stays at most STAT_MAX."""
    used = [t for t in taken if t.kind == "stat"]
    if len(used) >= len(stat_boxes):
        bad(f"{text!r}: {a(pb.name)} can take +1 STAT at most {len(stat_boxes)} times "
            f"(the playbook prints {len(stat_boxes)} boxes); this is the {_ordinal(len(used) + 1)}")
        return
    if stats[stat] + 1 > STAT_MAX:
        bad(f"{text!r} would make {stat} {signed(stats[stat] + 1, zero='0')}; no stat goes above "
            f"+{STAT_MAX} (it is {signed(stats[stat], zero='0')} counting moves and earlier improvements)")
        return
    stats[stat] += 1
    taken.append(Improvement(f"+1 {stat}", "stat", f"imp.basic.{stat_boxes[len(used)]}", stat=stat))


def _take_move(pb: Playbook, move: Move, text: str, move_boxes: list[int], held: set[str], stats: dict[str, int],
               taken: list[Improvement], bad) -> None:
    """A move of the playbook not yet held, in the next move box."""
    used = [t for t in taken if t.kind == "move"]
    if move.name in held:
        how = ("every " + pb.name + " has it") if move is pb.own_move else "the character already holds it"
        bad(f"{move.name!r} cannot be taken as an improvement: {how}")
    elif len(used) >= len(move_boxes):
        bad(f"{text!r}: {a(pb.name)} can take a {pb.name} move as an improvement at most "
            f"{len(move_boxes)} times (the playbook prints {len(move_boxes)} boxes); this is the "
            f"{_ordinal(len(used) + 1)}")
    else:
        held.add(move.name)
        _apply_bonus(stats, move)
        taken.append(Improvement(move.name, "move", f"imp.basic.{move_boxes[len(used)]}", move=move))


def check_improvements(pb: Playbook, data: RegimentData, texts: list[str], base: dict[str, int],
                       creation_moves: list[Move], bad) -> list[Improvement]:
    """The improvements in the order taken, each checked against the boxes and rules the playbook prints.

    `bad(index, message)` is called for each refusal; refused entries are left out.
    """
    basic = pb.improvements.basic
    stat_boxes = [i + 1 for i, t in enumerate(basic) if "stat" in norm(t)]
    move_boxes = [i + 1 for i, t in enumerate(basic) if "move" in norm(t)]
    advanced = {_key(t): i + 1 for i, t in enumerate(pb.improvements.advanced.items)}
    final = {_key(t): i + 1 for i, t in enumerate(pb.improvements.final.items)}
    adv_after = _threshold(pb.improvements.advanced.label, "advanced")
    final_after = _threshold(pb.improvements.final.label, "final")
    taken: list[Improvement] = []
    stats = effective_stats(base, creation_moves)
    held = {pb.own_move.name, *(m.name for m in creation_moves)}

    for i, text in enumerate(texts):
        if not isinstance(text, str):
            bad(i, f"expected an improvement as text (e.g. '+1 guts' or a {pb.name} move), found {text!r}")
            continue
        key = _key(text)
        ended = next((t for t in taken if t.kind == "final"), None)
        if ended is not None:
            bad(i, f"{text!r} comes after {ended.text!r}, a final improvement: the character has left "
                   f"the unit and takes no more improvements")
            continue
        before = len(taken)
        stat_match = re.fullmatch(r"\+1 (\w+)", key)
        if stat_match and stat_match.group(1) in STATS:
            _take_stat(pb, stat_match.group(1), text, stat_boxes, stats, taken, lambda m: bad(i, m))  # noqa: B023 - called here
            continue
        if key in advanced:
            label = "+1 grit" if "grit" in key else ("1 tough" if "tough" in key else key)
            if any(t.text == label for t in taken):
                bad(i, f"{text!r} is taken twice; the playbook prints one box for it")
            elif before < adv_after:
                bad(i, f"{text!r} is an advanced improvement: it needs {adv_after} improvements before it, "
                       f"and {before} came before")
            else:
                taken.append(Improvement(label, "advanced", f"imp.adv.{advanced[key]}"))
            continue
        if key in final:
            if before < final_after:
                bad(i, f"{text!r} is a final improvement: it needs {final_after} improvements before it, "
                       f"and {before} came before")
            else:
                taken.append(Improvement(key, "final", f"imp.final.{final[key]}"))
            continue
        move = next((m for m in pb.moves if norm(m.name) == norm(text)), None)
        if move is not None:
            _take_move(pb, move, text, move_boxes, held, stats, taken, lambda m: bad(i, m))  # noqa: B023 - called here
            continue
        other = next((p.name for p in data.playbooks.values() if p.id != pb.id
                      and any(norm(m.name) == norm(text) for m in p.moves)), None)
        if other:
            bad(i, f"{text!r} is {a(other)} move; {a(pb.name)} improves only with moves of its own playbook")
        else:
            bad(i, f"unknown improvement {text!r}; an improvement is '+1 STAT' ({', '.join(STATS)}), "
                   f"a {pb.name} move not yet held, '+1 grit', '1 tough', 'go home' or 'new character'")
    return taken


@dataclass(frozen=True)
class Option:
    """One improvement the playbook offers, as the next one to take: legal, or refused and why."""

    text: str  # what a character file's improvements list says: "+1 guts", "Spotter", "+1 grit", "go home"
    label: str  # as the playbook prints it: "get +1stat (max+3): guts", "sniper move: Spotter", "get +1grit"
    kind: str  # stat | move | advanced | final
    legal: bool
    reason: str = ""  # check_improvements' refusal, word for word ('' when legal)


def improvement_options(pb: Playbook, data: RegimentData, taken: list[str], base: dict[str, int],
                        creation_moves: list[Move]) -> list[Option]:
    """Every improvement the playbook offers, each judged as the next after `taken` by
    `check_improvements` itself (so a refusal here is the one the CLI would print)."""
    stat_label = next((t for t in pb.improvements.basic if "stat" in norm(t)), "+1 STAT")
    move_label = next((t for t in pb.improvements.basic if "move" in norm(t)), f"{pb.name} move")
    offered = [(f"+1 {s}", f"{stat_label}: {s}", "stat") for s in STATS]
    offered += [(m.name, f"{move_label}: {m.name}", "move") for m in pb.moves[1:]]
    offered += [(_key(t), t, "advanced") for t in pb.improvements.advanced.items]
    offered += [(_key(t), t, "final") for t in pb.improvements.final.items]
    options = []
    for text, label, kind in offered:
        refused: list[str] = []
        check_improvements(pb, data, [*taken, text], base, creation_moves,
                           lambda i, message: refused.append(message) if i == len(taken) else None)  # noqa: B023 - called here
        options.append(Option(text, label, kind, not refused, refused[0] if refused else ""))
    return options


# -- tough and grit: what the TOUGH and GRIT boxes hold ----------------------------------------
PROTECTION = ("tough", "grit")  # the rules: tough reduces wounds taken, grit stress, 1-for-1


@dataclass(frozen=True)
class Source:
    """One lasting source of tough or grit: a piece of gear, a move held, an improvement."""

    name: str
    kind: str  # gear | move | improvement
    value: int

    @property
    def note(self) -> str:
        what = {"move": f"{self.name} move", "improvement": "improvement"}.get(self.kind, self.name)
        return f"{what} {self.value:+d}"


def protection(pb: Playbook, held: list[Move], taken: list[Improvement]) -> dict[str, list[Source]]:
    """Where each of tough and grit comes from: the armour, the moves held, the improvements taken."""
    found: dict[str, list[Source]] = {k: [] for k in PROTECTION}
    if pb.armor_gives is not None:
        for k in PROTECTION:
            if getattr(pb.armor_gives, k):
                found[k].append(Source(pb.armor_gives.source or "armour", "gear", getattr(pb.armor_gives, k)))
    for move in held:
        for k in PROTECTION:
            if move.gives is not None and getattr(move.gives, k):
                found[k].append(Source(move.gives.source or move.name, "move", getattr(move.gives, k)))
    for imp in taken:
        got = re.fullmatch(r"\+?(\d+) (tough|grit)", imp.text)
        if got:
            found[got.group(2)].append(Source(imp.text, "improvement", int(got.group(1))))
    return found


def protection_note(found: dict[str, list[Source]]) -> str:
    """'tough 1 (Kevlar vest and helmet +1) · grit 2 (Stone cold move +1, improvement +1)'."""
    return " · ".join(f"{k} {sum(s.value for s in found[k])} ({', '.join(s.note for s in found[k])})"
                      for k in PROTECTION if found[k])

"""`sheets new character PLAYBOOK FILE`: a commented starter character file that validates.

Every key carries its choices in a comment (the playbook's ranks, moves and loadouts, the
profiles and backgrounds of lists.yaml); the values are the first legal ones, so the file
prints as it is, and the campaign keys (xp, gear, wounds, …) are written out at zero.
The text is checked like any character file before it is written; an existing file is never
overwritten.
"""
from __future__ import annotations

import json
import textwrap
from pathlib import Path

from sheets.base import output
from sheets.base.errors import SheetsError
from sheets.games.regiment.characters import STATS, assignments, resolve_character
from sheets.games.regiment.models import RegimentData
from sheets.library.yaml_source import parse_yaml


def _v(value) -> str:
    """A YAML scalar or flow collection (JSON is YAML)."""
    return json.dumps(value, ensure_ascii=False)


def _choices(label: str, options: list[str]) -> list[str]:
    text = f"{label}: " + ", ".join(options)
    return [f"# {line}" for line in textwrap.wrap(text, 94, subsequent_indent="    ", break_on_hyphens=False)]


def starter_text(data: RegimentData, playbook: str, schema: str | None = None) -> str:
    pb = data.playbook(playbook)
    lines = [f"# yaml-language-server: $schema={schema}"] if schema else []
    lines += [
        f"# {'An' if pb.name[:1] in 'AEIOU' else 'A'} {pb.name} of The Regiment, written by `sheets new character {pb.id}`: change any value to",
        "# one of the choices above it (names match case-insensitively), then",
        "# `sheets playbook --character FILE` checks the file and prints the playbook.",
        "",
        f"playbook: {pb.id}",
        *_choices("name: any name; the roll uses", data.lists.names[:8] + ["..."]),
        f"name: {_v(data.lists.names[0])}",
        *_choices("rank: the abbreviation or the full name", [r.full for r in pb.ranks]),
        f"rank: {_v(pb.ranks[0].abbr)}",
        *_choices("profile", data.lists.profiles),
        f"profile: {_v(data.lists.profiles[0])}",
        *_choices("background", data.lists.backgrounds),
        f"background: {_v(data.lists.backgrounds[0])}",
    ]
    if pb.stats.stat_sets is not None:
        sets = [", ".join(f"{s} {getattr(line, s):+d}" for s in STATS) for line in pb.stats.stat_sets]
        lines += [f"# stat_set: which \"choose a set\" column, 1-{len(sets)}:"]
        lines += [f"#   {n}: {text}" for n, text in enumerate(sets, start=1)]
        lines += ["stat_set: 1"]
    else:
        values = assignments(pb.stats.assign or [])[0]
        lines += [f"# stats: assign {', '.join(f'{v:+d}' for v in pb.stats.assign or [])} to the five stats, "
                  "in any order",
                  f"stats: {{{', '.join(f'{s}: {v}' for s, v in zip(STATS, values))}}}"]
    lines += [
        f"# moves: choose {pb.choose_moves}; {pb.moves[0].name} (the playbook's own) is implied",
        *_choices("  of", [m.name for m in pb.moves[1:]]),
        f"moves: {_v([m.name for m in pb.moves[1:1 + pb.choose_moves]])}",
        *_choices("loadout", [lo.name for lo in pb.loadouts]),
        f"loadout: {_v(pb.loadouts[0].name)}",
        "",
        "# Optional: the squad (designation, op, leader), bonds with other soldiers, notes.",
        "# squad: {designation: 2nd Squad, op: 1, leader: Sgt Haines}",
        "# bonds: {Doc Keller: 2}",
        "notes: \"\"",
        "",
        "# As the campaign goes on: marked boxes on the sheet, conditions and improvements.",
        "xp: 0               # EXPERIENCE boxes, 0-4 (the 5th is IMPROVE: take an improvement, clear the track)",
        "gear: 0             # GEAR boxes, 0-6",
        "wounds: 0           # WOUNDS boxes, 0-5",
        "stress: 0           # STRESS boxes, 0-5",
        "conditions: []      # suppressed, pinned",
        "improvements: []    # in the order taken: +1 STAT, a move of this playbook, +1 grit, 1 tough, ...",
    ]
    return "\n".join(lines) + "\n"


def write_starter(data: RegimentData, playbook: str, path: Path, schema: str | None = None) -> Path:
    """Check the starter against the rules, then write it; an existing file is left alone."""
    path = Path(path)
    if path.exists():
        raise SheetsError(f"{path} exists: `sheets new` never overwrites a file; choose another name")
    text = starter_text(data, playbook, schema)
    resolve_character(parse_yaml(text, str(path)), data)  # raises located problems: never expected
    output.write_atomic(output.through_links(path), text.encode("utf-8"))  # a link (to a file to be) stays a link
    return path

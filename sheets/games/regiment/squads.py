"""Squads of The Regiment: the squad file, its members, and saving rolled soldiers.

A squad file names the squad (`designation`, `op`, `leader`) and its `members`:
paths of character files (relative to the squad file) or characters written
inline. Every member is checked like a character file; a member file's problem
is reported with that file's own name and line.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from pydantic import Field

from sheets import output
from sheets.errors import ContentError, Problem
from sheets.games.regiment.characters import Character, Squad, character_file_data, resolve_character
from sheets.games.regiment.improvements import norm
from sheets.games.regiment.models import RegimentData
from sheets.services import slug
from sheets.validation import Strict, validate
from sheets.yaml_source import load_yaml


class SquadFile(Strict):
    """The squad file format (part of the CLI contract; see README)."""

    designation: str | None = None
    op: int | None = Field(None, ge=-3, le=6)
    leader: str | None = None
    members: list[str | dict[str, Any]] = Field(min_length=1)


@dataclass
class SquadRoster:
    designation: str | None
    op: int | None
    leader: str | None
    members: list[Character]
    origin: str = ""

    @property
    def squad(self) -> Squad:
        return Squad(designation=self.designation, op=self.op, leader=self.leader)


def load_squad(path: Path, data: RegimentData) -> SquadRoster:
    """Read a squad file and every member; all problems of all files at once."""
    doc = load_yaml(Path(path))
    sheet = validate(SquadFile, doc)
    problems: list[Problem] = []
    members: list[Character] = []
    seen: dict[Path, int] = {}
    for i, member in enumerate(sheet.members):
        try:
            if isinstance(member, str):
                member_path = Path(path).parent / member
                resolved = member_path.resolve()
                if resolved in seen:
                    problems.append(doc.problem(("members", i), f"{member!r} is listed twice "
                                                               f"(first as members[{seen[resolved]}])"))
                    continue
                seen[resolved] = i
                if not member_path.is_file():
                    problems.append(doc.problem(("members", i), f"character file {member!r} not found "
                                                               f"(looked for {member_path})"))
                    continue
                members.append(resolve_character(load_yaml(member_path), data))
            else:
                members.append(resolve_character(doc.sub(("members", i)), data))
        except ContentError as exc:
            problems.extend(_inline_loc(p, i) if not isinstance(member, str) else p for p in exc.problems)
    if problems:
        raise ContentError(problems)
    roster = SquadRoster(sheet.designation, sheet.op, sheet.leader, members, origin=doc.name)
    # a member's own squad block wins; otherwise the squad file fills it in
    roster.members = [m if m.squad != Squad() else dataclasses.replace(m, squad=roster.squad) for m in members]
    return roster


def _inline_loc(problem: Problem, index: int) -> Problem:
    field = f"members[{index}]" + (f".{problem.field}" if problem.field else "")
    return dataclasses.replace(problem, field=field)


def _dump(data: dict) -> str:
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, default_flow_style=None, width=100)


def save_squad(chars: list[Character], folder: Path, origin: str, command: str) -> list[Path]:
    """One character file per soldier and a squad.yaml naming them; previous versions kept as .bak."""
    output.ensure_dir(Path(folder))
    names: list[str] = []
    files: list[tuple[Path, bytes]] = []
    for i, ch in enumerate(chars):
        stem = slug(ch.name)
        name = f"{stem}.yaml"
        n = 2
        while name in names or name == "squad.yaml":
            name, n = f"{stem}-{n}.yaml", n + 1
        names.append(name)
        where = f" (soldier {i + 1} of {len(chars)})" if len(chars) > 1 else ""
        head = (f"# {ch.rank.abbr} {ch.name}, {ch.playbook.name}: rolled with {origin}{where} by `{command}`.\n"
                f"# A character file: edit it as the campaign goes on (xp, gear, wounds, stress, conditions,\n"
                f"# improvements); `sheets playbook --character {folder / name}` checks it and prints the playbook.\n")
        files.append((folder / name, (head + _dump(character_file_data(ch))).encode("utf-8")))
    squad = ("# A squad file: `sheets squad squad.yaml` prints a roster for the GM and every member's playbook.\n"
             f"# Rolled with {origin} by `{command}`.\n"
             "# Name the squad when you know it:\n"
             "# designation: 2nd Squad\n# op: 1\n# leader: Sgt Haines\n"
             "members:\n" + "".join(f"  - {_dump(n).removesuffix(chr(10)).removesuffix('...').strip()}\n" for n in names))
    files.append((folder / "squad.yaml", squad.encode("utf-8")))
    return [output.write_keeping_previous(p, data) for p, data in files]


def bond_grid(members: list[Character]) -> tuple[list[list[int | None]], list[str]]:
    """Row member's bond with column member (None: no bond written); bonds with others, as text."""
    keys = [norm(m.name) for m in members]
    grid: list[list[int | None]] = [[None] * len(members) for _ in members]
    others: list[str] = []
    for r, m in enumerate(members):
        for who, value in m.bonds.items():
            key = norm(who)
            if key in keys:
                grid[r][keys.index(key)] = value
            else:
                others.append(f"{m.name} → {who} {value:+d}")
    return grid, others

"""Squads of The Regiment: the squad file and its members (`saving` writes rolled soldiers into one).

A squad file names the squad (`designation`, `op`, `leader`) and its `members`:
paths of character files (relative to the squad file) or characters written
inline. Every member is checked like a character file; a member file's problem
is reported with that file's own name and line.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path, PurePath
from typing import Any

from pydantic import Field

from sheets.base.errors import ContentError, Problem
from sheets.games.regiment.characters import Character, Squad, resolve_character
from sheets.games.regiment.improvements import norm
from sheets.games.regiment.models import RegimentData
from sheets.library.validation import Strict, validate
from sheets.library.yaml_source import YamlDocument, load_yaml


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


def is_character(data: dict) -> bool:
    """Does a user's file look like a character file (it names its playbook)?"""
    return "playbook" in data and "kind" not in data


def is_squad(data: dict) -> bool:
    """Does a user's file look like a squad file: members that are character files or characters?

    Another game's team file also has `members`, written inline with no playbook (and a `nation`).
    """
    members = data.get("members")
    if "members" not in data or "kind" in data or "nation" in data:
        return False
    if any(k in data for k in ("designation", "op", "leader")) or not isinstance(members, list) or not members:
        return True
    return any(isinstance(m, str) or (isinstance(m, dict) and "playbook" in m) for m in members)


def load_squad(path: Path, data: RegimentData) -> SquadRoster:
    """Read a squad file and every member; all problems of all files at once."""
    return read_squad(load_yaml(Path(path)), Path(path).parent, data)


def read_squad(doc: YamlDocument, folder: Path, data: RegimentData) -> SquadRoster:
    """A squad document whose member files are named relative to `folder`; all problems at once."""
    sheet = validate(SquadFile, doc)
    problems: list[Problem] = []
    members: list[Character] = []
    seen: dict[Path, int] = {}
    for i, member in enumerate(sheet.members):
        try:
            if isinstance(member, str):
                member_path = folder / member
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
    roster = SquadRoster(sheet.designation, sheet.op, sheet.leader, members, origin=PurePath(doc.name).name)
    # a member's own squad block wins; otherwise the squad file fills it in
    roster.members = [m if m.squad != Squad() else dataclasses.replace(m, squad=roster.squad) for m in members]
    return roster


def _inline_loc(problem: Problem, index: int) -> Problem:
    field = f"members[{index}]" + (f".{problem.field}" if problem.field else "")
    return dataclasses.replace(problem, field=field)


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
                others.append(f"{m.name} → {who}" + (f" {value:+d}" if value is not None else ""))
    return grid, others

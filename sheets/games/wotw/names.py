"""Names a command can name: the one rule for a man's name, in a team file, a campaign file and a command.

A name is typed in commands (`--promote NAME`, `--skill NAME=SKILL`) and written in the ledger's rows
(`recruited A, B (...)`, `adjusted (A healed): why`), which the proof reads back: so it holds none of the
characters that syntax uses, no control characters, at most `MAX_NAME` characters, and two names the
commands would take for one (NFKC and case-folded: `Strauss` and `Strauß`) are never both in a team.
"""
from __future__ import annotations

import unicodedata

from sheets.base.limits import MAX_NAME

#: characters the command syntax and the ledger's rows use around a name: NAME=SKILL, NAME=WEAPON, NAME=STATE
#: (`=`), `recruited A, B (Green LMG)` and `adjusted (A healed, B killed): reason` (`,` and the brackets)
NAME_SYNTAX = "=,()"


def name_key(name: str) -> str:
    """How names are compared, by every command and every rule: NFKC, trimmed, case-folded (so 'Mäkinen'
    typed either way is one man, and 'Strauss' is 'Strauß')."""
    return unicodedata.normalize("NFKC", name).strip().casefold()


def name_problem(text: str) -> tuple[str, str] | None:
    """Why a name cannot be a man's (message, rule code), or None: a command must be able to name him."""
    if not text.strip():
        return "a man needs a name: an empty name cannot be printed on the roster or named again", "name-empty"
    if len(text) > MAX_NAME:
        return (f"name {text[:20]!r}...: {len(text)} characters, at most {MAX_NAME} (a name is printed on the roster "
                f"and typed in commands)", "name-too-long")
    if text != text.strip():
        return f"name {text!r}: no spaces before or after a name (the commands trim what they are given)", "name-unspeakable"
    bad = [c for c in text if c in NAME_SYNTAX or unicodedata.category(c).startswith("C")]
    if bad:
        return (f"name {text!r}: {bad[0]!r} cannot be in a name (the commands write NAME=SKILL, NAME=WEAPON, "
                f"NAME=STATE and the ledger 'recruited A, B (...)'; no control characters), so that man could never "
                f"be named again", "name-unspeakable")
    return None


def name_problems(names: list[str], unique_only: bool = False) -> list[tuple[int, str]]:
    """Each name (by index) a command could not name: `name_problem`, or the same as an earlier one's
    (`unique_only`: only that, for a team file that no command names a man of)."""
    problems: list[tuple[int, str]] = []
    seen: dict[str, str] = {}
    for i, name in enumerate(names):
        problem = None if unique_only else name_problem(name)
        if problem:
            problems.append((i, problem[0]))
        elif name_key(name) in seen:
            problems.append((i, f"{name!r} and {seen[name_key(name)]!r} are one name to the commands (they compare "
                                f"names case-folded): names must be unique"))
        seen.setdefault(name_key(name), name)
    return problems

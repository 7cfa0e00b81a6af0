"""A Way of the Warrior campaign file's records: the team, the missions, the ledger.

The shape of the YAML file (`kind: campaign`); the rules it must satisfy and the changes
between missions are `campaign.py`.
"""
from __future__ import annotations

import unicodedata
from typing import Literal

from pydantic import ConfigDict, Field

from sheets.base.errors import SheetsError
from sheets.library.validation import Strict

Status = Literal["fit", "wounded", "killed"]
Outcome = Literal["in progress", "success", "aborted"]


class Record(Strict):
    """A user's campaign record: strict like content, but changed step by step (on copies)."""

    model_config = ConfigDict(extra="forbid", frozen=False)


class Refused(SheetsError):
    """A change the rules do not allow; the file is left as it was."""


class Man(Record):
    name: str = Field(min_length=1)
    quality: Literal["Green", "Private", "Veteran"]
    weapon: str
    medical: bool = False
    engineer: bool = False
    skills: list[str] = []
    grenades: int = Field(4, ge=0, le=9)
    status: Status = "fit"
    history: list[str] = []
    notes: str = ""  # from the team file; printed on the log sheet


class Casualties(Record):
    killed: list[str] = []
    wounded: list[str] = []


class MissionRecord(Record):
    number: int = Field(ge=1)
    seed: int | None = None
    dice: str | None = None
    objective: str = ""
    steps: int = Field(0, ge=0)
    track: str = ""
    weather: str | None = None
    struck_step: int | None = None
    outcome: Outcome = "in progress"
    casualties: Casualties = Casualties()
    xp: int = Field(0, ge=0)
    xp_roll: str | None = None
    cp: int = Field(0, ge=0)


class LedgerEntry(Record):
    after: int = Field(ge=0)  # missions played when it happened (0: before the first)
    what: str
    cp: int = 0
    xp: int = 0


EntryKind = Literal["new", "baseline", "mission", "strike", "debrief", "spend", "adjust"]


class Recruit(Record):
    """A man as the `new` entry names him (the first team)."""

    name: str
    quality: Literal["Green", "Private", "Veteran"]
    weapon: str
    medical: bool = False
    engineer: bool = False
    notes: str = ""


class Entry(Record):
    """One change, as the command that made it was given: replaying the entries gives the state.

    `new` (or `baseline`, for a file from before the ledger) comes first; then `mission`
    (its dice; `strike` when struck at the roll), `strike` (STEP), `debrief`, `spend` (one of
    promote, learn+skill, recruit, rearm+weapon, make_engineer) and `adjust` (reason and
    what the table changed)."""

    do: EntryKind
    # new
    nation: str | None = None
    theatre: str | None = None
    optional_rules: list[str] = []
    team: list[Recruit] = []
    rolled: str | None = None
    # baseline: the state a file from before the ledger held, trusted as it was
    state: dict | None = None
    # debrief
    outcome: Outcome | None = None
    killed: list[str] = []
    wounded: list[str] = []
    enemy_hq: bool = False
    # mission, debrief: the dice as given (a seed, or the faces rolled at the table)
    seed: int | None = None
    dice: str | None = None
    strike: int | None = Field(None, ge=1)
    # strike
    step: int | None = Field(None, ge=1)
    # spend
    promote: str | None = None
    learn: str | None = None
    skill: str | None = None
    recruit: list[str] = []
    quality: str | None = None
    weapon: str | None = None
    medical: bool = False
    engineer: bool = False
    rearm: str | None = None
    make_engineer: str | None = None
    # adjust
    reason: str | None = None
    cp: int = 0
    xp: int = 0
    heal: list[str] = []
    set_state: dict[str, Status] = {}
    grenades: dict[str, int] = {}


#: characters the command syntax uses in a name (NAME=SKILL, NAME=WEAPON, NAME=STATE)
NAME_SYNTAX = "="


def name_key(name: str) -> str:
    """How names are compared: NFC, trimmed, case-folded (so 'Mäkinen' typed either way is one man)."""
    return unicodedata.normalize("NFC", name).strip().casefold()


def clean_name(name: str, taken: list[str] = ()) -> str:
    """A name as it enters the team: NFC, trimmed, not empty, none of `=`, unique in the team."""
    text = unicodedata.normalize("NFC", name).strip()
    if not text:
        raise Refused("a man needs a name: an empty name cannot be printed on the roster or named again")
    bad = [c for c in text if c in NAME_SYNTAX or unicodedata.category(c).startswith("C")]
    if bad:
        raise Refused(f"name {text!r}: {bad[0]!r} cannot be in a name (the commands write NAME=SKILL, "
                      f"NAME=WEAPON, NAME=STATE), so that man could never be named again")
    if name_key(text) in {name_key(t) for t in taken}:
        raise Refused(f"the team already has a man named {text!r}: names must be unique")
    return text


class Campaign(Record):
    game: Literal["wotw"] = "wotw"
    kind: Literal["campaign"] = "campaign"
    nation: str
    theatre: str
    enemy: str
    optional_rules: list[Literal["airborne", "beachhead", "engineers"]] = []
    cp: int = Field(ge=0)
    xp: int = Field(ge=0)
    team: list[Man] = Field(min_length=1)
    missions: list[MissionRecord] = []
    ledger: list[LedgerEntry] = []
    entries: list[Entry] = []

    # -- views ---------------------------------------------------------
    @property
    def engineers(self) -> bool:
        return "engineers" in self.optional_rules

    @property
    def living(self) -> list[Man]:
        return [m for m in self.team if m.status != "killed"]

    @property
    def in_progress(self) -> MissionRecord | None:
        return next((m for m in self.missions if m.outcome == "in progress"), None)

    @property
    def played(self) -> int:
        return sum(1 for m in self.missions if m.outcome != "in progress")

    def man(self, name: str) -> Man:
        key = name_key(name)
        for m in self.team:
            if name_key(m.name) == key:
                return m
        raise Refused(f"no man named {name!r} in the team; the team: {', '.join(m.name for m in self.team)}")

    def as_json(self) -> dict:
        return {
            "nation": self.nation, "theatre": self.theatre, "enemy": self.enemy,
            "optional_rules": self.optional_rules, "cp": self.cp, "xp": self.xp,
            "team": [{"name": m.name, "quality": m.quality, "weapon": m.weapon, "status": m.status,
                      "skills": m.skills, "grenades": m.grenades, "medical": m.medical, "engineer": m.engineer,
                      "history": m.history} for m in self.team],
            "missions": [{"number": m.number, "seed": m.seed, "dice": m.dice, "objective": m.objective,
                          "track": m.track, "steps": m.steps, "weather": m.weather, "struck_step": m.struck_step,
                          "outcome": m.outcome, "xp_roll": m.xp_roll, "xp": m.xp, "cp": m.cp,
                          "killed": m.casualties.killed, "wounded": m.casualties.wounded} for m in self.missions],
            "ledger": [e.model_dump() for e in self.ledger],
        }

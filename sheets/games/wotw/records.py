"""A Way of the Warrior campaign file's records: the team, the missions, the ledger.

The shape of the YAML file (`kind: campaign`); the rules it must satisfy and the changes
between missions are `campaign.py`.
"""
from __future__ import annotations

from typing import Literal

from pydantic import ConfigDict, Field

from sheets.errors import SheetsError
from sheets.validation import Strict

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
        key = name.strip().lower()
        for m in self.team:
            if m.name.lower() == key:
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
                          "track": m.track, "outcome": m.outcome, "xp": m.xp, "cp": m.cp,
                          "killed": m.casualties.killed, "wounded": m.casualties.wounded} for m in self.missions],
            "ledger": [e.model_dump() for e in self.ledger],
        }

"""A Way of the Warrior campaign file's records: the team, the missions, the ledger.

The shape of the YAML file (`kind: campaign`), its ledger's entries with the rules an entry
holds by itself (one model per kind of change); the rules the campaign must satisfy and the
changes between missions are `campaign.py` and `rules_*.py`, dispatched to by `ledger.py`.
"""
from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from typing import TYPE_CHECKING, Annotated, Any, Literal, Union, get_args

from pydantic import (BaseModel, ConfigDict, Discriminator, Field, PrivateAttr, StrictBool, StrictInt, Tag, TypeAdapter,
                      ValidationError, model_serializer, model_validator)
from pydantic.json_schema import SkipJsonSchema

from sheets.base.errors import SheetsError
from sheets.base.limits import MAX_CAMPAIGN_ENTRIES, MAX_ENTRY_DICE, MAX_NOTES, MAX_REASON, MAX_SEED
from sheets.games.wotw.names import NAME_SYNTAX, name_key, name_problem, name_problems  # noqa: F401 - said here too
from sheets.library.validation import Strict

Status = Literal["fit", "wounded", "killed"]
#: a count, a number of points, a seed: a whole number as written, never `true`, "3" or 3.0 (a lax
#: model reads them as 1, 3 and 3, and a forged state slips past the replay that compares numbers)
Whole = StrictInt
#: yes or no as written: `true`/`false`, never 1 or "yes"
YesNo = StrictBool
#: a seed as `--seed` takes it (0 to MAX_SEED): a file claiming dice no command could have rolled is refused
Seed = Annotated[StrictInt, Field(ge=0, le=MAX_SEED)]
Outcome = Literal["in progress", "success", "aborted"]


class Record(Strict):
    """A user's campaign record: strict like content, but changed step by step (on copies)."""

    model_config = ConfigDict(extra="forbid", frozen=False)


class Refused(SheetsError):
    """A change the rules do not allow; the file is left as it was.

    `code` names the rule in the game's words ("team-too-small", "not-wounded"): what a face
    keys on (a CLI flag to suggest, a form field to mark) without reading the message.
    """

    def __init__(self, message: str, code: str = "refused"):
        super().__init__(message)
        self.code = code


class Man(Record):
    name: str = Field(min_length=1)
    quality: Literal["Green", "Private", "Veteran"]
    weapon: str
    medical: YesNo = False
    engineer: YesNo = False
    skills: list[str] = []
    grenades: Whole = Field(4, ge=0, le=9)
    status: Status = "fit"
    history: list[str] = []
    notes: str = Field("", max_length=MAX_NOTES)  # from the team file; printed on the log sheet


class Casualties(Record):
    killed: list[str] = []
    wounded: list[str] = []


class MissionRecord(Record):
    number: Whole = Field(ge=1)
    seed: Seed | None = None
    dice: str | None = None
    objective: str = ""
    steps: Whole = Field(0, ge=0)
    track: str = ""
    weather: str | None = None
    struck_step: Whole | None = None
    outcome: Outcome = "in progress"
    casualties: Casualties = Casualties()
    xp: Whole = Field(0, ge=0)
    xp_roll: str | None = None
    cp: Whole = Field(0, ge=0)
    #: whether the team had an Engineer at the mission's briefing (set when the rules roll it; None: a state
    #: read from a file, whose replay or proof sets it). Not in the file: the entries say it.
    _briefed_engineer: bool | None = PrivateAttr(None)

    @property
    def briefed_engineer(self) -> bool | None:
        return self._briefed_engineer

    def brief(self, engineer: bool) -> None:
        self._briefed_engineer = engineer


class LedgerEntry(Record):
    after: Whole = Field(ge=0)  # missions played when it happened (0: before the first)
    what: str
    cp: Whole = 0
    xp: Whole = 0


EntryKind = Literal["new", "baseline", "mission", "strike", "debrief", "spend", "adjust"]


class Recruit(Record):
    """A man as the `new` entry names him (the first team)."""

    name: str
    quality: Literal["Green", "Private", "Veteran"]
    weapon: str
    medical: YesNo = False
    engineer: YesNo = False
    notes: str = Field("", max_length=MAX_NOTES)


# -- the ledger's entries: one model per kind of change, told apart by `do` -------------------
# Each holds what its command was given, no more; the rules that need only the entry itself
# (exactly one purchase per spend, a seed or dice but not both, ...) are its validators, so a
# command and a hand-edited file are refused alike. The rules that need the campaign are
# the rules modules' (campaign.py, rules_*.py).

#: the order of an entry's keys in the file: the order they had when one model held every kind,
#: so that files written before keep their bytes (campaign_io.dump writes what model_dump gives)
FILE_ORDER = ("do", "nation", "theatre", "optional_rules", "team", "rolled", "state", "outcome", "killed", "wounded",
              "enemy_hq", "seed", "dice", "strike", "step", "promote", "learn", "skill", "recruit", "quality", "weapon",
              "medical", "engineer", "rearm", "make_engineer", "reason", "cp", "xp", "heal", "set_state", "grenades")

ONE_SPEND = ("give one of --promote NAME, --skill NAME=SKILL, --recruit NAME --quality Q --weapon W, "
             "--rearm NAME=WEAPON or --make-engineer NAME")
RECRUIT_ONLY = "--quality, --weapon, --medical and --engineer go with --recruit"
RECRUIT_NEEDS = ("--recruit needs --quality (Green, Private, Veteran) and --weapon, "
                 "e.g. --recruit 'Paul Roth' --quality Green --weapon Rifle")
BOTH_DICE = "give either --seed or --dice, not both"


class _Kind(Record):
    """What every entry shares: its `do` (each kind narrows it), and its keys in FILE_ORDER."""

    do: EntryKind  # declared here so that it comes first in every kind's schema

    @model_serializer(mode="wrap")
    def _in_file_order(self, handler):
        out = handler(self)
        return {k: out[k] for k in FILE_ORDER if k in out}


class _Rolls(_Kind):
    """An entry that rolls dice: a seed, or the faces rolled at the table; never both."""

    seed: Seed | None = None
    dice: str | None = Field(None, max_length=MAX_ENTRY_DICE)

    @model_validator(mode="after")
    def _rolls(self):
        self._one_way_to_roll()
        return self

    def _one_way_to_roll(self) -> None:
        if self.seed is not None and self.dice is not None:
            raise ValueError(BOTH_DICE)

    @property
    def rolled_with(self) -> str:
        return f"seed {self.seed}" if self.seed is not None else f"dice {self.dice}" if self.dice else ""


class NewEntry(_Kind):
    """The first team: comes first."""

    do: Literal["new"]
    nation: str | None = None
    theatre: str | None = None
    optional_rules: list[str] = []
    team: list[Recruit] = []
    rolled: str | None = None


class BaselineEntry(_Kind):
    """The state a file from before the ledger held, trusted as it was: comes first."""

    do: Literal["baseline"]
    state: dict | None = None


class MissionEntry(_Rolls):
    """A mission rolled (`strike`: the step struck at the roll)."""

    do: Literal["mission"]
    strike: Whole | None = Field(None, ge=1)


class StrikeEntry(_Kind):
    """An Engineer strikes a step of the mission in progress."""

    do: Literal["strike"]
    step: Whole | None = Field(None, ge=1)


class DebriefEntry(_Rolls):
    """The mission in progress closed: its outcome, casualties and (after a success) its XP dice."""

    do: Literal["debrief"]
    outcome: Outcome | None = None
    killed: list[str] = []
    wounded: list[str] = []
    enemy_hq: YesNo = False

    @model_validator(mode="after")
    def _rolls(self):  # in place of _Rolls's: after an abort, any dice at all is what is said first
        if self.outcome == "aborted" and (self.seed is not None or self.dice is not None):
            raise ValueError(f"--{'seed' if self.seed is not None else 'dice'}: an aborted mission rolls no XP "
                             f"(the rules, Post-mission debriefing); leave it out")
        self._one_way_to_roll()
        return self


SpendAction = Literal["promote", "learn", "recruit", "rearm", "make_engineer"]


class SpendEntry(_Kind):
    """One purchase between missions: exactly one of promote, learn, recruit, rearm or make_engineer.

    learn names its skill; recruit its quality, weapon and whether medical or engineer; rearm its weapon."""

    do: Literal["spend"]
    promote: str | None = None
    learn: str | None = None
    skill: str | None = None
    recruit: list[str] = []
    quality: str | None = None
    weapon: str | None = None
    medical: YesNo = False
    engineer: YesNo = False
    rearm: str | None = None
    make_engineer: str | None = None

    @property
    def given(self) -> list[SpendAction]:
        named: dict[SpendAction, object] = {"promote": self.promote, "learn": self.learn, "recruit": self.recruit or None,
                 "rearm": self.rearm, "make_engineer": self.make_engineer}
        return [k for k, v in named.items() if v is not None]

    @property
    def action(self) -> SpendAction:
        return self.given[0]

    @model_validator(mode="after")
    def _one_purchase(self):
        if len(self.given) != 1:
            raise ValueError(ONE_SPEND)
        if (self.quality or (self.weapon and self.rearm is None) or self.medical or self.engineer) and not self.recruit:
            raise ValueError(RECRUIT_ONLY)
        if self.recruit and (not self.quality or not self.weapon):
            raise ValueError(RECRUIT_NEEDS)
        return self


class AdjustEntry(_Kind):
    """What the rules leave to the table, with its reason."""

    do: Literal["adjust"]
    reason: str | None = Field(None, max_length=MAX_REASON)
    cp: Whole = 0
    xp: Whole = 0
    heal: list[str] = []
    set_state: dict[str, Status] = {}
    grenades: dict[str, Whole] = {}

    @model_validator(mode="after")
    def _a_reason_and_a_change(self):
        if not (self.reason or "").strip():
            raise ValueError("--reason: say why (it is printed in the record's ledger)")
        if not (self.cp or self.xp or self.heal or self.set_state or self.grenades):
            raise ValueError("adjust what? give --cp, --xp, --heal NAME, --set-state NAME=STATE or --grenades NAME=N")
        return self


class _NoKind(Record):
    """An entry whose `do` is missing or unknown: only its `do` is reported (as when one model held
    every kind), never the keys no kind was chosen for. It never validates."""

    model_config = ConfigDict(extra="allow")
    do: EntryKind


KINDS = (NewEntry, BaselineEntry, MissionEntry, StrikeEntry, DebriefEntry, SpendEntry, AdjustEntry)
_TAGS = {get_args(k.model_fields["do"].annotation)[0]: k.__name__ for k in KINDS}  # "spend": "SpendEntry"


def _kind_of(value) -> str:
    # The tags are the class names: a located error then names the entry's keys only
    # (sheets.library.validation drops capitalised parts of a loc, as it drops union members).
    if isinstance(value, BaseModel):
        return type(value).__name__
    if isinstance(value, dict):
        return _TAGS.get(value.get("do"), "NoKind")
    return "NoKind"  # not a mapping: said as for any model


#: one change, as the command that made it was given: replaying the entries gives the state.
#: `new` (or `baseline`, for a file from before the ledger) comes first; then `mission`,
#: `strike`, `debrief`, `spend` and `adjust`.
if TYPE_CHECKING:  # the commands read an entry's kind from its `do` at run time, by table
    Entry = Any
else:
    Entry = Annotated[Union[tuple(Annotated[k, Tag(k.__name__)] for k in KINDS)
                            + (Annotated[SkipJsonSchema[_NoKind], Tag("NoKind")],)], Discriminator(_kind_of)]
_ENTRY: TypeAdapter[Entry] = TypeAdapter(Entry)


def make_entry(**fields) -> Entry:
    """The entry a command gives, checked by its kind's model: refused (`Refused`, the message a
    hand-edited file gets too) before anything is read or written."""
    try:
        return _ENTRY.validate_python(fields)
    except ValidationError as exc:
        raise Refused("; ".join(_said(err) for err in exc.errors()), code="entry-malformed") from None


def _said(err) -> str:
    message = err["msg"].removeprefix("Value error, ")
    keys = [str(p) for p in err["loc"] if not str(p)[:1].isupper()]
    return f"{'.'.join(keys)}: {message}" if keys and err["type"] != "value_error" else message


def clean_name(name: str, taken: Sequence[str] = ()) -> str:
    """A name as it enters the team: NFC, trimmed, a name a command can say (`name_problem`), unique in the
    team under the folding the commands use (`name_key`)."""
    text = unicodedata.normalize("NFC", name).strip()
    problem = name_problem(text)
    if problem:
        raise Refused(problem[0], code=problem[1])
    same = [t for t in taken if name_key(t) == name_key(text)]
    if same:
        raise Refused(f"the team already has a man named {same[0]!r}, and {text!r} is the same name to the commands "
                      f"(they compare names case-folded): names must be unique", code="name-taken")
    return text


class Campaign(Record):
    game: Literal["wotw"] = "wotw"
    kind: Literal["campaign"] = "campaign"
    nation: str
    theatre: str
    enemy: str
    optional_rules: list[Literal["airborne", "beachhead", "engineers"]] = []
    cp: Whole = Field(ge=0)
    xp: Whole = Field(ge=0)
    team: list[Man] = Field(min_length=1)
    missions: list[MissionRecord] = []
    ledger: list[LedgerEntry] = []
    entries: list[Entry] = Field([], max_length=MAX_CAMPAIGN_ENTRIES)

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

    def fork(self, men=(), last_mission: bool = False) -> Campaign:
        """A copy for a rule to change: the men named (and the last mission) copied whole, the rest shared with
        this state, which no rule changes (a deep copy of every history and row made each replay quadratic)."""
        keys = {name_key(n) for n in men}
        missions = list(self.missions)
        if last_mission and missions:
            missions[-1] = missions[-1].model_copy(deep=True)
        return self.model_copy(update={"team": [m.model_copy(update={"history": list(m.history), "skills": list(m.skills)})
                                                if name_key(m.name) in keys else m for m in self.team],
                                       "missions": missions, "ledger": list(self.ledger),
                                       "optional_rules": list(self.optional_rules)})

    def man(self, name: str) -> Man:
        key = name_key(name)
        for m in self.team:
            if name_key(m.name) == key:
                return m
        raise Refused(f"no man named {name!r} in the team; the team: {', '.join(m.name for m in self.team)}", code="no-such-man")

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

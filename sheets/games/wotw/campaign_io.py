"""Reading and writing a campaign file: checked on load, checked again before every write.

A write keeps the previous version beside the file as `FILE.bak` (one generation) and
replaces the file atomically (sheets/base/output.py), so a crash or a typo never loses a campaign.
"""
from __future__ import annotations

from pathlib import Path

import yaml

from sheets.base import output
from sheets.base.errors import ContentError, SheetsError
from sheets.base.limits import MAX_FILE_BYTES
from sheets.games.wotw.campaign import check
from sheets.games.wotw.ledger import EntryRefused, Replay, describe, flatten, prove, proved, replay, state_dict
from sheets.games.wotw.models import WotwData
from sheets.games.wotw.records import BaselineEntry, Campaign, Refused
from sheets.library.validation import validate
from sheets.library.yaml_merge import carried_over
from sheets.library.yaml_source import YamlDocument, load_yaml, parse_yaml

HEADER = """\
# The Way of the Warrior campaign (warsheets). Plain YAML, kept as a ledger: at the bottom,
# `entries` lists every change (new, mission, strike, debrief, spend, adjust) as it was given;
# the state above is what replaying them gives. `sheets validate {name}` replays the entries
# and names any value here that disagrees; `sheets campaign undo {name}` drops the last
# entries; `sheets campaign history {name}` lists them; `sheets campaign adjust` records
# what your table changes (with its reason). Every change keeps the previous file as {name}.bak.
#
# nation, theatre, enemy     the theatre's two nations (content/wotw/theatres.yaml)
# optional_rules             any of airborne, beachhead, engineers (seed optional rules #1-#3)
# cp, xp                     saved Command Points and unused team XP
# team                       one row per man (an LMG or Mortar crew is two rows):
#                            quality Green|Private|Veteran, weapon from the nation's table,
#                            grenades 4 (5 with Grenadier), status fit|wounded|killed
# missions                   every mission rolled: seed or dice, objective, track in short,
#                            outcome (in progress|success|aborted), casualties, XP and CP gained
# ledger                     every CP and XP gained or spent, in order
#
# Readings of the rules where the seed is silent: a wounded man stays wounded between
# missions (no healing rule; `campaign adjust --heal NAME` if your table heals him); the 1d3
# XP is one d6 halved, rounding up; medical expertise is bought only with a new recruit; a
# crew short of a man fights on and takes one replacement at the pair's CP halved, rounding up.
"""

ENTRIES = """
# entries: every change, in order, as given (the state above is what replaying them gives).
# Edit the state by hand and `sheets validate` names the line; change it with an entry instead
# (`sheets campaign adjust FILE --reason TEXT ...`), or drop entries with `sheets campaign undo`.
"""


def is_campaign(data) -> bool:
    return isinstance(data, dict) and data.get("kind") == "campaign"


def read(doc: YamlDocument, data: WotwData) -> Campaign:
    """A checked campaign from a parsed file; every problem located by line and field.

    The rules hold for the stored state (check), then the entries are replayed and every
    stored value that disagrees is named. A file from before the ledger (no `entries`) is
    taken as it stands: its one entry is a `baseline` (written out on the next change)."""
    if not is_campaign(doc.data):
        raise ContentError([doc.problem(("kind",), "not a campaign file (it needs `kind: campaign`)")])
    campaign = validate(Campaign, doc)
    problems = [doc.problem(loc, msg) for loc, msg in check(campaign, data)]
    if not campaign.entries:  # no replay to prove it: the plays its traces tell (ledger.prove)
        problems += [] if problems else [doc.problem(loc, msg) for loc, msg in prove(campaign, data)]
    elif campaign.entries[0].do == "baseline":
        problems += _baseline_problems(doc, campaign.entries[0], data)
    if problems:
        raise ContentError(problems)
    if not campaign.entries:  # the proved state: the same values, and what the plays say beyond them
        base = BaselineEntry(do="baseline", state=state_dict(campaign))
        return proved(campaign, data)[1].model_copy(update={"entries": [base]})
    try:
        replayed = replay(campaign.entries, data)
    except EntryRefused as exc:
        e = campaign.entries[exc.index]
        raise ContentError([doc.problem(("entries", exc.index),
                                        f"entry {exc.index + 1} ({describe(e)}) is refused by the rules: {exc.reason} "
                                        f"(rule {exc.code})")]) from None
    problems = disagreements(doc, campaign, replayed)
    if problems:
        raise ContentError(problems)
    # the replayed state: the same values, and what the entries say beyond the file (who was at a briefing)
    return replayed.state.model_copy(update={"entries": campaign.entries})


def _baseline_problems(doc: YamlDocument, entry: BaselineEntry, data: WotwData) -> list:
    """A `baseline` entry's state, located inside the entry: the campaign's rules, and proof.py's."""
    at = ("entries", 0, "state")
    try:
        base = Campaign.model_validate({k: v for k, v in (entry.state or {}).items() if k != "entries"})
    except ValueError:
        return []  # said by the replay (ledger.baseline), as a rule of the entry
    problems = check(base, data)
    return [doc.problem(at + loc, f"baseline: {msg}") for loc, msg in problems or prove(base, data)]


def _show(v) -> str:
    return repr(v) if isinstance(v, str) else "null" if v is None else str(v).lower() if isinstance(v, bool) else str(v)


def disagreements(doc: YamlDocument, campaign: Campaign, replayed: Replay) -> list:
    """Every stored value the replay does not give, located, with the entry that last set it."""
    stored, wanted = flatten(state_dict(campaign)), flatten(state_dict(replayed.state))
    problems: list = []
    covered: list[tuple] = []

    def by(key: tuple) -> str:
        i = replayed.last_set.get(key)
        if i is None:
            return ""
        return f" (last set by entry {i + 1}, line {doc.line_of(('entries', i))}: {describe(campaign.entries[i])})"

    for key in sorted(set(stored) | set(wanted), key=lambda k: [str(p).zfill(6) if isinstance(p, int) else str(p) for p in k]):
        if any(key[:len(c)] == c for c in covered) or stored.get(key, ...) == wanted.get(key, ...):
            continue
        if key[-1] == "#":
            loc = key[:-1]
            covered.append(loc)
            problems.append(doc.problem(loc, f"stored {stored.get(key, 0)} rows, but replaying the entries gives "
                                             f"{wanted.get(key, 0)}{by(key)}"))
        elif key not in stored or key not in wanted:
            covered.append(key)
            problems.append(doc.problem(key, f"stored {_show(stored.get(key))}, but replaying the entries gives "
                                             f"{_show(wanted.get(key))}{by(key)}"))
        else:
            problems.append(doc.problem(key, f"stored {_show(stored[key])}, but replaying the entries gives "
                                             f"{_show(wanted[key])}{by(key)}"))
    return problems


def unused_dice(doc: YamlDocument, campaign: Campaign, data: WotwData) -> list[str]:
    """Each entry whose stored dice were not all rolled, with its line (a warning: the file is valid)."""
    if campaign.entries and campaign.entries[0].do == "baseline" and "entries" not in (doc.data or {}):
        return []
    found = replay(campaign.entries, data).unused
    return [f"line {doc.line_of(('entries', i, 'dice'))}: entries[{i}].dice: {left} of the {given} dice given "
            f"{'was' if left == 1 else 'were'} not used (the rolls needed {given - left})"
            for i, (left, given) in sorted(found.items())]


def load(path: Path, data: WotwData) -> Campaign:
    return read(load_yaml(Path(path)), data)


def dump(campaign: Campaign, name: str) -> str:
    """The file's text: a function of the entries alone (so `undo` gives back the earlier bytes)."""
    state = yaml.safe_dump(state_dict(campaign), sort_keys=False, allow_unicode=True,
                           default_flow_style=None, width=110)
    entries = yaml.safe_dump({"entries": [e.model_dump(mode="json", exclude_defaults=True) for e in campaign.entries]},
                             sort_keys=False, allow_unicode=True, default_flow_style=None, width=110)
    return HEADER.format(name=name) + state + ENTRIES + entries


def _reads_back(text: str, path: Path, campaign: Campaign, data: WotwData) -> bool:
    try:
        return read(parse_yaml(text, str(path)), data) == campaign
    except ContentError:
        return False


def _user_text(path: Path) -> str | None:
    """The file as it is now, when there is one to carry the user's comments over from; its lines
    end in LF here (the writer gives the file back its own line endings, CRLF included)."""
    try:
        return output.read_user_file(path).decode("utf-8").replace("\r\n", "\n")
    except (FileNotFoundError, UnicodeDecodeError):
        return None


def save(path: Path, campaign: Campaign, data: WotwData, *, new: bool = False) -> Path:
    """Check, then write atomically; the old bytes go to FILE.bak first.

    An existing file keeps what its user wrote: the new state and entries are carried into
    its text (yaml_merge: comments, key order, quoting); the text must read back as the
    campaign, or the file is written as `dump` writes it (its values are what matter)."""
    path = Path(path)
    text = dump(campaign, path.name)
    if len(text.encode("utf-8")) > MAX_FILE_BYTES:  # the tool must read back whatever a command writes
        raise Refused(f"{path}: this change would grow the file to {len(text.encode('utf-8')):,} bytes, past the "
                      f"{MAX_FILE_BYTES:,} a campaign file may have; nothing was written (start a new campaign file)",
                      code="file-too-large")
    # the written text must read back as the same, valid campaign (guards the dumper)
    if not _reads_back(text, path, campaign, data):
        raise SheetsError(f"internal: {path} would not read back as written; nothing was written")
    if new and (path.exists() or path.is_symlink()):
        raise SheetsError(f"{path} exists: a campaign file is never overwritten by `campaign new`; "
                          f"choose another name or delete it")
    old = None if new else _user_text(path)
    if old is not None:
        kept = carried_over(old, text)
        if kept is not None and len(kept.encode("utf-8")) <= MAX_FILE_BYTES and _reads_back(kept, path, campaign, data):
            text = kept
    return output.write_keeping_previous(path, text.encode("utf-8"))

"""Reading and writing a campaign file: checked on load, checked again before every write.

A write keeps the previous version beside the file as `FILE.bak` (one generation) and
replaces the file atomically (sheets/output.py), so a crash or a typo never loses a campaign.
"""
from __future__ import annotations

from pathlib import Path

import yaml

from sheets import output
from sheets.errors import ContentError, SheetsError
from sheets.games.wotw.campaign import check
from sheets.games.wotw.models import WotwData
from sheets.games.wotw.records import Campaign
from sheets.validation import validate
from sheets.yaml_source import YamlDocument, load_yaml, parse_yaml

HEADER = """\
# The Way of the Warrior campaign (warsheets). Plain YAML: edit it by hand if you like;
# `sheets validate {name}` checks it against the rules, and every `sheets campaign` change
# checks it again before writing and keeps the previous version as {name}.bak.
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
# missions (no healing rule; edit his status if your table heals him); the 1d3 XP is one d6
# halved, rounding up; medical expertise is bought only with a new recruit.
"""


def is_campaign(data) -> bool:
    return isinstance(data, dict) and data.get("kind") == "campaign"


def read(doc: YamlDocument, data: WotwData) -> Campaign:
    """A checked campaign from a parsed file; every problem located by line and field."""
    if not is_campaign(doc.data):
        raise ContentError([doc.problem(("kind",), "not a campaign file (it needs `kind: campaign`)")])
    campaign = validate(Campaign, doc)
    problems = [doc.problem(loc, msg) for loc, msg in check(campaign, data)]
    if problems:
        raise ContentError(problems)
    return campaign


def load(path: Path, data: WotwData) -> Campaign:
    return read(load_yaml(Path(path)), data)


def dump(campaign: Campaign, name: str) -> str:
    body = yaml.safe_dump(campaign.model_dump(mode="json"), sort_keys=False, allow_unicode=True,
                          default_flow_style=None, width=110)
    return HEADER.format(name=name) + body


def save(path: Path, campaign: Campaign, data: WotwData, *, new: bool = False) -> Path:
    """Check, then write atomically; the old bytes go to FILE.bak first."""
    path = Path(path)
    text = dump(campaign, path.name)
    # the written text must read back as the same, valid campaign (guards the dumper)
    back = read(parse_yaml(text, str(path)), data)
    if back != campaign:
        raise SheetsError(f"internal: {path} would not read back as written; nothing was written")
    if new and path.exists():
        raise SheetsError(f"{path} exists: a campaign file is never overwritten by `campaign new`; "
                          f"choose another name or delete it")
    return output.write_keeping_previous(path, text.encode("utf-8"))

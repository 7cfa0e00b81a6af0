"""Campaign files do not change with the code that reads them: every campaign file in tests/ and in
the bundled content loads, replays and dumps back to its very bytes, and replays to the states it
did before the ledger's entries were typed.

campaigns/ holds files written by that earlier code (one model for every kind of entry), between
them every kind of entry and every key an entry may hold; campaigns/replayed.json is what that code
said of them: the state after each entry, and how each entry reads (`history`, `validate`).
"""
from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from conftest import REPO
from sheets.games.wotw import campaign_io, ledger
from sheets.library.yaml_source import load_yaml, parse_yaml
from wotwfixtures import data  # noqa: F401 - the fixture

pytestmark = pytest.mark.unit  # `make check`'s fast tier

HERE = Path(__file__).parent
BEFORE = json.loads((HERE / "campaigns" / "replayed.json").read_text(encoding="utf-8"))


def campaign_files() -> list[Path]:
    """Every campaign file in tests/ and content/ (the broken corpus apart: those are refused on purpose)."""
    found = []
    for root in (REPO / "tests", REPO / "content"):
        for path in sorted(root.rglob("*.yaml")):
            if "broken" in path.relative_to(root).parts or "kind: campaign" not in path.read_text(encoding="utf-8"):
                continue
            if campaign_io.is_campaign(load_yaml(path).data):
                found.append(path)
    return found


FILES = campaign_files()


def test_the_files_cover_every_kind_of_entry_and_every_key(data):
    assert {p.name for p in FILES} >= {"engineers.yaml", "random.yaml", "make-engineer.yaml", "baseline.yaml",
                                       "wotw-campaign-today.yaml"}
    kinds, keys = set(), set()
    for path in FILES:
        for e in campaign_io.load(path, data).entries:
            kinds.add(e.do)
            keys |= set(e.model_dump(exclude_defaults=True))
    assert kinds == {"new", "baseline", "mission", "strike", "debrief", "spend", "adjust"}
    assert keys == {"do", "nation", "theatre", "optional_rules", "team", "rolled", "state", "outcome", "killed",
                    "wounded", "enemy_hq", "seed", "dice", "strike", "step", "promote", "learn", "skill", "recruit",
                    "quality", "weapon", "medical", "rearm", "make_engineer", "reason", "cp", "xp", "heal",
                    "set_state", "grenades"}  # and `engineer`, a recruit's, is in a `new` entry's team


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(REPO)) for p in FILES])
def test_a_campaign_file_loads_replays_and_dumps_back_to_its_bytes(data, path):
    text = path.read_text(encoding="utf-8")
    campaign = campaign_io.load(path, data)
    replayed = ledger.replay(campaign.entries, data)
    assert replayed.state == campaign.model_copy(update={"entries": []})
    dumped = campaign_io.dump(campaign, path.name)
    if "\nentries:" in text:
        assert dumped == text
    else:  # a file from before the ledger: its first write adds the baseline, and says the same state
        assert campaign_io.read(parse_yaml(dumped, str(path)), data) == campaign
    before = BEFORE.get(path.name)
    if before is not None:
        assert [ledger.state_dict(s) for s in replayed.states] == before["states"]
        assert [ledger.describe(e) for e in campaign.entries] == before["describe"]


@pytest.mark.parametrize("was, now, where, message", [
    ("{do: spend, promote: Karl Brandt}", "{do: spend, promote: Karl Brandt, learn: Kurt Keller}", "entries[9]",
     "give one of --promote NAME, --skill NAME=SKILL, --recruit NAME --quality Q --weapon W, --rearm NAME=WEAPON or "
     "--make-engineer NAME"),
    ("{do: spend, promote: Karl Brandt}", "{do: spend, promote: Karl Brandt, weapon: SMG}", "entries[9]",
     "--quality, --weapon, --medical and --engineer go with --recruit"),
    ("{do: mission, seed: 12}", "{do: mission, seed: 12, dice: '4'}", "entries[7]",
     "give either --seed or --dice, not both"),
    ("{do: adjust, reason: lost kit, cp: -1}", "{do: adjust, reason: ' ', cp: -1}", "entries[15]",
     "--reason: say why (it is printed in the record's ledger)"),
    ("{do: strike, step: 3}", "{do: strik, step: 3}", "entries[4].do",
     "'strik' is not one of the choices: 'new', 'baseline', 'mission', 'strike', 'debrief', 'spend' or 'adjust'"),
    ("{do: strike, step: 3}", "{step: 3}", "entries[4].do", "required key is missing"),
    ("{do: strike, step: 3}", "{do: strike, step: 3, promote: Kurt Keller}", "entries[4].promote",
     "unknown key; the keys here are: do, step"),
])
def test_a_hand_edited_entry_that_breaks_its_kinds_rules_is_one_located_error(cli, tmp_path, was, now, where, message):
    text = (HERE / "campaigns" / "engineers.yaml").read_text(encoding="utf-8")
    assert was in text
    (tmp_path / "ww.yaml").write_text(text.replace(was, now), encoding="utf-8")
    line = next(i for i, row in enumerate(text.splitlines(), 1) if was in row)
    r = cli("validate", "ww.yaml")
    assert r.exit_code == 1 and "Traceback" not in r.stderr, r
    assert "1 problem found" in r.stderr and f"ww.yaml:{line}: {where}: {message}" in r.stderr, r.stderr


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(REPO)) for p in FILES])
def test_the_campaign_schema_takes_each_entry_as_exactly_one_kind(path):
    schema = json.loads((REPO / "schemas" / "wotw.campaign.schema.json").read_text(encoding="utf-8"))
    errors = list(jsonschema.Draft202012Validator(schema).iter_errors(load_yaml(path).data))
    assert errors == [], [e.message[:200] for e in errors]
    assert len(schema["properties"]["entries"]["items"]["oneOf"]) == 7

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

import pytest

from conftest import REPO
from sheets.games.wotw import campaign_io, ledger
from sheets.library.yaml_source import load_yaml, parse_yaml
from wotwfixtures import data  # noqa: F401 - the fixture

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


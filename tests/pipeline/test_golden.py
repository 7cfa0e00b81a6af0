"""Golden HTML: one rendered sheet of every kind, compared with tests/golden/.

A template or content change that alters a sheet shows up here as a diff to review.
When the change is intended, refresh the files with
`python -m pytest tests/pipeline/test_golden.py --update-golden` and commit them with the change.
"""

import pytest

from conftest import REPO

from sheets.base.dice import Dice
from sheets.pipeline.sheet import render_html

GOLDEN = REPO / "tests" / "golden"


def blank_medic(lib):
    from sheets.games.regiment.sheets import blank_playbook

    game = lib.game("regiment")
    return blank_playbook(game, game.data.playbook("medic"))


def filled_sniper(lib):
    from sheets.games.regiment.characters import resolve_character
    from sheets.games.regiment.sheets import filled_playbooks
    from sheets.library.yaml_source import load_yaml

    game = lib.game("regiment")
    path = REPO / "content" / "regiment" / "characters" / "walter-brzezinski.yaml"
    char = resolve_character(load_yaml(path, "walter-brzezinski.yaml"), game.data)
    return filled_playbooks(game, [char], "x.pdf", fillable=True)


def regiment_reference(lib):
    from sheets.kinds.reference.builder import reference_sheet

    return reference_sheet(lib.game("regiment"))


def worked_example_log_sheet(lib):
    from sheets.games.wotw.sheets import log_sheet, roll_missions

    game = lib.game("wotw")
    missions = roll_missions(game, Dice.parse_script("2,1,6,2,4,1,1,1,1,1,1"), 1, "russia-1943", None)
    return log_sheet(game, missions, "x.pdf")


def platoon_reference(lib):
    from sheets.kinds.reference.builder import reference_sheet

    return reference_sheet(lib.game("platoon"))


def regiment_trackers(lib):
    from sheets.kinds.trackers.builder import tracker_sheet

    game = lib.game("regiment")
    return tracker_sheet(game, list(game.content["trackers"].values()))


def downrange_tokens(lib):
    from sheets.kinds.tokens.builder import token_sheet

    return token_sheet(lib.game("downrange"), lib.geometry().papers["a4"])


def strategy_cards(lib):
    from sheets.kinds.cards.builder import card_sheet

    game = lib.game("masscombat")
    return card_sheet(game, game.card_sets["strategies"], lib.geometry(), backs=True)


def downrange_gauges(lib):
    from sheets.kinds.gauges.builder import gauge_sheet

    return gauge_sheet(lib.game("downrange"), lib.geometry().papers["a4"])


def wotw_campaign_record(lib):
    from sheets.games.wotw import campaign_io
    from sheets.games.wotw.sheets import campaign_record

    game = lib.game("wotw")
    campaign = campaign_io.load(REPO / "tests" / "data" / "wotw-campaign-today.yaml", game.data)
    return campaign_record(game, campaign, "x.pdf")


def regiment_squad_roster(lib):
    from sheets.games.regiment.characters import resolve_character
    from sheets.games.regiment.sheets import squad_sheet
    from sheets.games.regiment.squads import SquadRoster
    from sheets.library.yaml_source import load_yaml

    game = lib.game("regiment")
    folder = REPO / "content" / "regiment" / "characters"
    members = [resolve_character(load_yaml(folder / f"{name}.yaml", f"{name}.yaml"), game.data)
               for name in ("walter-brzezinski", "ada-mercer")]
    return squad_sheet(game, SquadRoster("2nd Squad", 1, "Sgt Haines", members), "x.pdf")


SHEETS = [blank_medic, filled_sniper, regiment_reference, worked_example_log_sheet, platoon_reference,
          regiment_trackers, downrange_tokens, strategy_cards, downrange_gauges, wotw_campaign_record,
          regiment_squad_roster]


@pytest.mark.parametrize("make", SHEETS, ids=[f.__name__ for f in SHEETS])
def test_sheet_html_matches_golden(make, library, request):
    html = render_html(make(library))
    golden = GOLDEN / f"{make.__name__}.html"
    if request.config.getoption("--update-golden"):
        golden.write_text(html, encoding="utf-8")
        pytest.skip(f"updated {golden.name}")
    assert golden.is_file(), f"no golden file {golden.name}: run pytest tests/pipeline/test_golden.py --update-golden"
    expected = golden.read_text(encoding="utf-8")
    if html != expected:
        import difflib

        diff = "".join(list(difflib.unified_diff(expected.splitlines(True), html.splitlines(True),
                                                 "golden", "now", n=1))[:60])
        pytest.fail(f"{golden.name} changed (refresh with --update-golden if intended):\n{diff}")

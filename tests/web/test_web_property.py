"""A desk no request can stall (issue 30): arbitrary parameters at every route never give a 500,
and `/` answers within 0.5 s while a slow request is in flight on a real server."""
from __future__ import annotations

import shutil
import threading
import time
from pathlib import Path
from urllib.error import HTTPError
from urllib.parse import quote
from urllib.request import urlopen

import pytest
from deskfixtures import Desk, LiveDesk
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.routing import Route

from sheets.base.errors import SheetsError
from sheets.games.regiment import web as regiment_web
from sheets.games.regiment import webform
from sheets.games.wotw import commands as wotw_commands

REPO = Path(__file__).parents[2]
KEYS = ["file", "playbook", "name", "rank", "profile", "background", "stat_set", "stat_guts", "moves", "loadout",
        "xp", "conditions", "notes", "bond_name_0", "bond_value_0", "bond_name_4", "bond_name_99", "bond_value_²",
        "bond_name_²", "bond_name_" + "7" * 5000,
        "improvements", "take", "action", "version", "seed", "count", "folder", "squad", "game", "paper",
        "players", "ink_saver", "set", "duplex", "copies", "backs", "back_offset", "fold", "step", "x", "y",
        "printed_with", "nation", "theatre", "team", "airborne", "engineers", "outcome", "killed", "wounded",
        "enemy_hq", "spend", "man", "detail", "quality", "medical", "cp", "heal", "reason", "steps", "page",
        "name_0", "quality_0", "weapon_0", "medical_0", "token", "csrf"]
ODD = ["", "0", "-1", "1", "3", "99999999999999999999999", "9" * 5000, "²", "１２", "1e9", "NaN", "\x00",
       "soldier", "medic", "sniper", "ww.yaml", "ada.yaml", "../x.yaml", "/etc/passwd", "C:x", "new.yaml",
       "us", "german", "france-1944", "success", "aborted", "save", "print", "check", "mission", "debrief",
       "spend", "undo", "strike", "adjust", "record", "promote", "recruit", "a4", "letter", "long", "short",
       "regiment/weapons", "readings", "store", "sheet", "team", "update", "create", "1,-0.5", "Veteran"]
TEXT = st.text(st.characters(exclude_categories=["Cs"]), max_size=40)
PARAMS = st.lists(st.tuples(st.one_of(st.sampled_from(KEYS), TEXT), st.one_of(st.sampled_from(ODD), TEXT)),
                  max_size=12)


def _stub(*args, **kwargs):
    raise SheetsError("(a build: left out of this test)")


@pytest.fixture(scope="module")
def fuzzed(tmp_path_factory):
    """A desk on a workspace with a character and a campaign, its builds stubbed (they are the CLI's, tested
    there): what is left is every page's reading of its parameters, and the checks and replays behind them."""
    workspace = tmp_path_factory.mktemp("fuzz")
    shutil.copy(REPO / "content" / "regiment" / "characters" / "ada-mercer.yaml", workspace / "ada.yaml")
    wotw_commands.campaign_new(workspace / "ww.yaml", "us", "france-1944", random=True, seed=1)
    patch = pytest.MonkeyPatch()
    for module, name in ((regiment_web.commands, "make_playbook"), (regiment_web.commands, "make_squad"),
                         (regiment_web, "_preview_png"), (wotw_commands, "make_mission"),
                         (wotw_commands, "campaign_mission"), (wotw_commands, "campaign_show"),
                         (wotw_commands, "campaign_strike")):
        patch.setattr(module, name, _stub)
    from sheets.web import calibration, pages
    patch.setattr(pages.api, "make_cards", _stub)
    patch.setattr(calibration.api, "make_calibration", _stub)
    desk = Desk(workspace)
    patch.setattr(desk.app.app.state.desk, "start", lambda *a, **k: "stubbed-job")
    yield desk
    patch.undo()


def routes(app) -> list[tuple[str, str]]:
    found = []
    for route in app.app.router.routes:
        if isinstance(route, Route):
            found += [(method, route.path) for method in sorted(route.methods or ()) if method in ("GET", "POST")]
    return found


ROUTES = [("GET", "/"), ("GET", "/kit"), ("POST", "/kit"), ("GET", "/kit/build/{job}"), ("GET", "/kit.zip"),
          ("GET", "/cards"), ("POST", "/cards"), ("GET", "/files/{path:path}"), ("POST", "/cards/calibrate"),
          ("GET", "/regiment/character"), ("POST", "/regiment/character"), ("GET", "/regiment/character/preview.png"),
          ("GET", "/regiment/squad"), ("POST", "/regiment/squad"), ("GET", "/wotw/campaign"),
          ("POST", "/wotw/campaign/new"), ("GET", "/wotw/campaign/desk"), ("POST", "/wotw/campaign/desk"),
          ("GET", "/wotw/campaign/spend"), ("GET", "/wotw/mission"), ("POST", "/wotw/mission")]


def test_the_fuzzed_routes_are_every_route(fuzzed):
    assert sorted(routes(fuzzed.app)) == sorted(ROUTES)  # a new route shows up here: add it to ROUTES


@pytest.mark.parametrize("method,path", ROUTES)
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                 HealthCheck.too_slow])
@given(params=PARAMS, segment=TEXT, with_csrf=st.booleans())
def test_arbitrary_parameters_never_give_a_500(fuzzed, method, path, params, segment, with_csrf):
    url = path.replace("{job}", quote(segment, safe="") or "x").replace("{path:path}", quote(segment, safe="/") or "x")
    if method == "GET":
        response = fuzzed.client.get(url, params=params)
    else:
        form = [(k, v) for k, v in params if k != "csrf"] + ([("csrf", fuzzed.csrf)] if with_csrf else [])
        response = fuzzed.client.post(url, data=_multi(form))
    assert response.status_code < 500, (method, url, params, response.text[-600:])


def _multi(pairs) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for k, v in pairs:
        found.setdefault(k, []).append(v)
    return found


def status(url: str) -> int:
    """GET on the real server; the status."""
    try:
        with urlopen(url, timeout=30) as response:
            response.read()
            return response.status
    except HTTPError as exc:
        return exc.code


def test_home_answers_within_half_a_second_while_a_slow_request_is_in_flight(tmp_path, monkeypatch):
    """A page whose own work is slow (here: reading the character form takes 4 s) runs off the event loop."""
    entered, release = threading.Event(), threading.Event()
    real = webform.fields_from_form

    def slow(form):
        if form.get("name") == "slow":
            entered.set()
            release.wait(4)
        return real(form)
    monkeypatch.setattr(webform, "fields_from_form", slow)
    with LiveDesk(tmp_path) as live:
        assert status(f"{live.url}/") == 200  # warm
        started = time.monotonic()
        bond = status(f"{live.url}/regiment/character/preview.png?playbook=medic&bond_name_1000000=x")
        assert 400 <= bond < 500 and time.monotonic() - started < 2  # issue 30's bond-row GET
        done = {}
        slow_request = threading.Thread(target=lambda: done.setdefault(
            "status", status(f"{live.url}/regiment/character/preview.png?playbook=medic&name=slow")))
        slow_request.start()
        try:
            assert entered.wait(20), "the slow request never reached its page"
            times = []
            for _ in range(3):  # the best of three: a loaded machine may pause any one request
                started = time.monotonic()
                assert status(f"{live.url}/") == 200
                times.append(time.monotonic() - started)
            assert not release.is_set() and "status" not in done  # still in flight while / answered
            assert min(times) < 0.5, times
        finally:
            release.set()
            slow_request.join(30)
        assert done["status"] == 422  # the slow one finished too (the checker's answer: a medic with no choices)

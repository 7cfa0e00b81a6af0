"""The new-campaign wizard (the team built against the CP budget) and the spend page (what each man
can afford), over HTTP: the same functions as `sheets campaign new --team` and `campaign spend`."""
import html
import json
import re

from deskfixtures import alerts, desk, field  # noqa: F401 - the fixture

from sheets.games.wotw import campaign_io, commands

BASE = {"file": "ww.yaml", "nation": "german", "theatre": "france-1944"}
TEAM = {"name_0": "Hans Weber", "quality_0": "Veteran", "weapon_0": "SMG",
        "name_1": "Karl Brandt", "quality_1": "Green", "weapon_1": "Rifle", "medical_1": "1",
        "name_2": "Otto Lenz", "quality_2": "Green", "weapon_2": "Rifle",
        "name_3": "Willi Haas", "quality_3": "Green", "weapon_3": "Rifle"}
TEAM_FILE = """\
nation: german
members:
  - {name: Hans Weber, quality: Veteran, weapon: SMG}
  - {name: Karl Brandt, quality: Green, weapon: Rifle, medical: true}
  - {name: Otto Lenz, quality: Green, weapon: Rifle}
  - {name: Willi Haas, quality: Green, weapon: Rifle}
"""


def text(page) -> str:
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page.text)))


def options(page, name: str) -> list[str]:
    select = re.search(rf'<select id="{name}" name="{name}"[^>]*>(.*?)</select>', page.text, re.S)
    assert select, name
    return re.findall(r"<option[^>]*>([^<]*)</option>", select.group(1))


def budget(page) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", re.search(r'<p class="budget">(.*?)</p>', page.text, re.S).group(1))).strip()


def test_step_one_leads_to_the_team_rows_with_only_legal_weapons(desk):
    page = desk.post("/wotw/campaign/new", {**BASE, "step": "team"})
    assert page.status_code == 200
    assert "<h1>New campaign: the team</h1>" in page.text
    assert budget(page) == "Budget 5 CP spent 0 CP remaining 5 CP"
    assert len(re.findall(r'name="name_\d"', page.text)) == 7  # "Max team members: 7"
    assert options(page, "weapon_0") == ["Rifle", "SMG", "LMG", "Mortar"]  # a Green's rows
    page = desk.post("/wotw/campaign/new", {**BASE, **TEAM, "step": "update"})
    assert page.status_code == 200
    assert options(page, "weapon_0") == ["Rifle", "SMG", "Assault Rifle"]  # the Veteran's rows
    assert budget(page) == "Budget 5 CP spent 5 CP remaining 0 CP"
    costs = [re.sub(r"<[^>]+>", "", c) for c in re.findall(r'<td id="cost_\d" data-live-part>(.*?)</td>', page.text)]
    assert costs == ["4", "1", "0", "0", "-", "-", "-"]
    assert not (desk.workspace / "ww.yaml").exists()  # updating writes nothing


def test_the_wizards_campaign_is_the_clis_with_that_team_file(desk, tmp_path, cli):
    page = desk.post("/wotw/campaign/new", {**BASE, **TEAM, "step": "create"})
    assert page.status_code == 200, alerts(page.text)
    assert str(page.url).endswith("/wotw/campaign/desk?file=ww.yaml")
    (tmp_path / "cli").mkdir()
    (tmp_path / "team.yaml").write_text(TEAM_FILE)
    cli("campaign", "new", tmp_path / "cli" / "ww.yaml", "--nation", "german", "--theatre", "france-1944",
        "--team", tmp_path / "team.yaml")
    assert (desk.workspace / "ww.yaml").read_text() == (tmp_path / "cli" / "ww.yaml").read_text()


def test_over_budget_and_an_illegal_weapon_are_refused_with_the_rules_messages(desk):
    over = {**TEAM, "quality_2": "Green", "weapon_2": "LMG", "weapon_3": "LMG"}
    page = desk.post("/wotw/campaign/new", {**BASE, **over, "step": "update"})
    assert page.status_code == 200
    assert budget(page) == "Budget 5 CP spent 8 CP remaining -3 CP (over budget)"
    message = "starting CP: the team costs 8 CP but a German team starts with 5 CP (the rules, Equipment)"
    assert message in text(page)
    page = desk.post("/wotw/campaign/new", {**BASE, **over, "step": "create"})
    assert page.status_code == 400
    assert alerts(page.text) == f"Not started (no file written): {message}"
    assert budget(page) == "Budget 5 CP spent 8 CP remaining -3 CP (over budget)"  # the rows kept
    assert field(page.text, "name_2") == "Otto Lenz"

    illegal = {**TEAM, "weapon_2": "Assault Rifle"}  # no Green starts with one (a Veteran's row)
    page = desk.post("/wotw/campaign/new", {**BASE, **illegal, "step": "update"})
    assert options(page, "weapon_2") == ["Assault Rifle: not for a Green", "Rifle", "SMG", "LMG", "Mortar"]
    row = "German has no Green with Assault Rifle; recruits: Veteran Rifle (4 CP);"
    assert row in text(page)
    page = desk.post("/wotw/campaign/new", {**BASE, **illegal, "step": "create"})
    assert page.status_code == 400
    assert alerts(page.text).startswith(f"Not started (no file written): Otto Lenz: {row}")

    few = {k: v for k, v in TEAM.items() if k.endswith(("_0", "_1"))}
    page = desk.post("/wotw/campaign/new", {**BASE, **few, "step": "create"})
    assert alerts(page.text) == ("Not started (no file written): team size: 2 men, but a team starts with at least 3 "
                                 "(the rules, Equipment)")
    nowhere = desk.post("/wotw/campaign/new", {**BASE, "nation": "italian", "theatre": "russia-1943", "step": "team"})
    assert nowhere.status_code == 400
    assert "Italian does not fight in" in text(nowhere)
    assert sorted(p.name for p in desk.workspace.iterdir() if not p.name.endswith(".lock")) == []  # the lock file is empty


def test_the_wizard_needs_the_csrf_token(desk):
    for step in ("team", "update", "create"):
        page = desk.post("/wotw/campaign/new", {**BASE, **TEAM, "step": step}, csrf=False)
        assert page.status_code == 403 and "no valid CSRF token" in page.text
    assert not (desk.workspace / "ww.yaml").exists()


def campaign_with_xp(desk, xp: int):
    desk.post("/wotw/campaign/new", {**BASE, **TEAM, "step": "create"})
    commands.campaign_adjust(desk.workspace / "ww.yaml", "a test's XP", xp_delta=xp)


def test_the_spend_page_lists_each_mans_offers_and_buys_the_clis_entry(desk):
    campaign_with_xp(desk, 1)
    page = desk.get("/wotw/campaign/spend?file=ww.yaml")
    assert page.status_code == 200
    assert "<h1>Spend: ww.yaml</h1>" in page.text
    assert [h for h in re.findall(r'<h2 id="man_\d">([^<]*)', page.text)] == [
        "Hans Weber ", "Karl Brandt ", "Otto Lenz ", "Willi Haas "]
    words = text(page)
    assert ("promote to Private 1 XP Buy") in words
    assert ("learn Camouflage 2 XP cannot pay now: a skill costs 2 XP but the team has 1 XP "
            "(the rules, Post-mission debriefing)") in words
    assert "rearm with Rifle free Buy" in words
    assert 'aria-label="Buy: promote to Private for Karl Brandt"' in page.text
    assert 'href="/wotw/campaign/spend?file=ww.yaml"' in desk.get("/wotw/campaign/desk?file=ww.yaml").text
    offer = next(o for o in commands.campaign_offers(desk.workspace / "ww.yaml")[1]["Karl Brandt"] if o.kind == "promote")
    page = desk.post("/wotw/campaign/desk", {"file": "ww.yaml", "version": field(page.text, "version"), "action": "spend",
                                            "page": "spend", "spend": "promote", "man": "Karl Brandt", "detail": ""})
    assert page.status_code == 200
    assert alerts(page.text) == "promoted Karl Brandt to Private; now 0 XP and 0 CP saved"
    assert "<h1>Spend: ww.yaml</h1>" in page.text  # back on the spend page
    assert "Karl Brandt <small>(Private, Rifle, fit)" in page.text
    entries = json.loads(commands.campaign_json(desk.workspace / "ww.yaml"))
    assert entries["ledger"][-1]["what"] == "promoted Karl Brandt to Private"
    assert (desk.workspace / "ww.yaml").read_text().endswith("- {do: spend, promote: Karl Brandt}\n")
    data = commands._wotw(None).data
    assert campaign_io.load(desk.workspace / "ww.yaml", data).entries[-1] == offer.entry  # the entry the list offered


def test_a_purchase_the_team_cannot_pay_is_refused_with_the_listed_reason(desk):
    campaign_with_xp(desk, 1)
    page = desk.get("/wotw/campaign/spend?file=ww.yaml")
    before = (desk.workspace / "ww.yaml").read_bytes()
    page = desk.post("/wotw/campaign/desk", {"file": "ww.yaml", "version": field(page.text, "version"), "action": "spend",
                                            "page": "spend", "spend": "skill", "man": "Otto Lenz", "detail": "Camouflage"})
    assert page.status_code == 400
    reason = "a skill costs 2 XP but the team has 1 XP (the rules, Post-mission debriefing)"
    assert alerts(page.text) == f"Not done (the file is unchanged): {reason}"
    assert f"learn Camouflage 2 XP cannot pay now: {reason}" in text(page)
    assert (desk.workspace / "ww.yaml").read_bytes() == before
    assert desk.get("/wotw/campaign/spend?file=nothing.yaml").status_code == 404

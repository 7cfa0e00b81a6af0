"""The WotW campaign desk and mission pre-roller: the CLI's campaign functions behind every form,
refusals shown with the file unchanged, the stale-write conflict, the PDFs."""
import html
import json
import re

from deskfixtures import alerts, desk, field  # noqa: F401 - the fixture

from conftest import pdf_text, squash

from sheets.games.wotw import commands
from sheets.games.wotw.preroll import MissionRequest, roll_missions


def new_campaign(desk, **extra):
    page = desk.post("/wotw/campaign/new", {"file": "ww.yaml", "nation": "german", "theatre": "france-1944",
                                            "seed": "7", **extra})
    assert page.status_code == 200, alerts(page.text)
    return page


def act(desk, page, action, **data):
    return desk.post("/wotw/campaign/desk", {"file": "ww.yaml", "version": field(page.text, "version"),
                                            "action": action, **data})


def state(desk) -> dict:
    return json.loads(commands.campaign_json(desk.workspace / "ww.yaml"))


def test_new_campaign_is_the_clis(desk, tmp_path, cli):
    page = new_campaign(desk)
    assert str(page.url).endswith("/wotw/campaign/desk?file=ww.yaml")
    (tmp_path / "cli").mkdir()
    cli("campaign", "new", tmp_path / "cli" / "ww.yaml", "--nation", "german", "--theatre", "france-1944",
        "--random", "--seed", "7")
    assert (desk.workspace / "ww.yaml").read_text() == (tmp_path / "cli" / "ww.yaml").read_text()
    assert "<h1>Campaign: ww.yaml</h1>" in page.text
    assert 'href="/wotw/campaign/desk?file=ww.yaml"' in desk.get("/wotw/campaign").text
    again = desk.post("/wotw/campaign/new", {"file": "ww.yaml", "nation": "german", "theatre": "france-1944"})
    assert again.status_code == 400
    assert "ww.yaml exists: a campaign file is never overwritten" in html.unescape(again.text)
    bad = desk.post("/wotw/campaign/new", {"file": "x.yaml", "nation": "germany", "theatre": "france-1944"})
    assert "unknown nation 'germany'; choose one of: german, italian, finnish, us, russian" in html.unescape(bad.text)
    assert not (desk.workspace / "x.yaml").exists()


def test_a_mission_a_debrief_a_spend_and_the_record(desk):
    page = new_campaign(desk)
    page = act(desk, page, "mission", seed="3")
    assert page.status_code == 200, alerts(page.text)
    assert alerts(page.text).startswith("mission 1 rolled with seed 3: Eliminate Radio Station, 15 steps; "
                                        "recorded as in progress")
    log = desk.workspace / "output" / "campaign" / "wotw-campaign-mission1-seed3.pdf"
    assert 'href="/files/output/campaign/wotw-campaign-mission1-seed3.pdf"' in page.text
    assert "EliminateRadioStation" in squash(pdf_text(log))
    assert state(desk)["missions"][0]["outcome"] == "in progress"
    men = re.findall(r'name="killed" value="([^"]+)"', page.text)
    assert men == [m["name"] for m in state(desk)["team"]]
    page = act(desk, page, "debrief", outcome="success", wounded=men[0], seed="5")
    assert alerts(page.text) == (f"mission 1: success, XP d6 4 -> 1d3 2 (seed 5); +2 XP, +2 CP -> 2 XP and 2 CP saved; "
                                 f"killed: none; wounded: {men[0]}")
    page = act(desk, page, "spend", spend="promote", man=men[1])
    assert alerts(page.text) == f"promoted {men[1]} to Private; now 1 XP and 2 CP saved"
    assert state(desk)["ledger"][-1]["what"] == f"promoted {men[1]} to Private"
    page = act(desk, page, "record")
    record = desk.workspace / "output" / "campaign" / "wotw-campaign-ww.pdf"
    assert 'href="/files/output/campaign/wotw-campaign-ww.pdf"' in page.text and record.is_file()
    assert (desk.workspace / "ww.yaml.bak").is_file()


def test_a_refused_change_is_shown_and_the_file_is_unchanged(desk):
    page = new_campaign(desk)
    before = (desk.workspace / "ww.yaml").read_bytes()
    for action, data, message in (
            ("debrief", {"outcome": "success"}, "no mission in progress: roll one"),  # the desk says the rule; the CLI adds its command
            ("spend", {"spend": "promote", "man": "Nobody"}, "no man named 'Nobody' in the team"),
            ("spend", {"spend": "bribe", "man": "X"}, "spend 'bribe': one of promote, skill, rearm, engineer, recruit"),
            ("spend", {"spend": "recruit", "man": "Paul Roth"}, "--recruit needs --quality (Green, Private, Veteran) "
                                                                "and --weapon")):
        refused = act(desk, page, action, **data)
        assert refused.status_code == 400, action
        assert message in alerts(refused.text), (action, alerts(refused.text))
        assert (desk.workspace / "ww.yaml").read_bytes() == before
    assert act(desk, page, "undo-everything").status_code == 400


def test_a_stale_form_gets_the_conflict_page_and_nothing_is_written(desk, cli):
    page = new_campaign(desk)
    cli("campaign", "mission", desk.workspace / "ww.yaml", "--seed", "1", "-o", desk.workspace / "x.pdf")
    on_disk = (desk.workspace / "ww.yaml").read_text()
    stale = act(desk, page, "mission", seed="3")
    assert stale.status_code == 409
    text = html.unescape(stale.text)
    assert "ww.yaml was changed since you opened it (in another tab or by the CLI); nothing was written" in text
    assert "<h1>Changed since you opened it</h1>" in text
    # a diff of the version the form was made from and the file now, not the whole file twice
    diff = re.search(r'<pre class="diff">(.*?)</pre>', text, re.S).group(1)
    added = [re.sub(r"<[^>]+>", "", line) for line in diff.splitlines() if 'class="add"' in line]
    assert "+- {do: mission, seed: 1}" in added
    assert "-missions: []" in [re.sub(r"<[^>]+>", "", line) for line in diff.splitlines() if 'class="del"' in line]
    assert "kind: campaign" not in diff and len(diff.splitlines()) < 60  # the unchanged lines are not dumped
    assert (desk.workspace / "ww.yaml").read_text() == on_disk
    # "reload and apply again": the same form, made from the file as it is now
    again = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">',
                            text.partition('class="again"')[2].partition("</form>")[0]))
    assert again["action"] == "mission" and again["seed"] == "3" and again["version"] != field(page.text, "version")
    assert "Reload and apply again" in text
    applied = desk.post("/wotw/campaign/desk", {k: v for k, v in again.items() if k != "csrf"})
    assert applied.status_code == 400  # applied to the file as it is now: the rules' own refusal, nothing written
    assert "in progress" in alerts(applied.text) and (desk.workspace / "ww.yaml").read_text() == on_disk


def test_the_mission_pre_roller_shows_the_briefing_and_its_rolls(desk):
    page = desk.post("/wotw/mission", {"theatre": "france-1944", "seed": "11"})
    assert page.status_code == 200, alerts(page.text)
    _, missions = roll_missions(MissionRequest(theatre="france-1944", seed=11))
    mission = missions[0].as_json()
    assert f'<h2 id="briefing">Briefing: {mission["objective"]["name"]}</h2>' in page.text
    assert page.text.count("<tr><td>") == len(mission["track"]) + len(mission["rolls"])
    pdf = re.search(r'href="(/files/output/missions/[^"]+\.pdf)"', page.text).group(1)
    assert pdf == "/files/output/missions/wotw-mission-france-1944-seed11.pdf"
    assert desk.get(pdf).content[:5] == b"%PDF-"
    assert desk.post("/wotw/mission", {"theatre": "mars-2100"}).status_code == 400


def test_adjust_history_and_undo_from_the_desk_are_the_clis(desk):
    page = new_campaign(desk)
    before_mission = (desk.workspace / "ww.yaml").read_bytes()
    page = act(desk, page, "mission", seed="3")
    page = act(desk, page, "debrief", outcome="aborted")
    assert page.status_code == 200, alerts(page.text)
    after_debrief = (desk.workspace / "ww.yaml").read_bytes()
    refused = act(desk, page, "adjust", reason="", cp="1")
    assert refused.status_code == 400
    assert "adjust: say why" in html.unescape(refused.text)
    assert (desk.workspace / "ww.yaml").read_bytes() == after_debrief
    page = act(desk, page, "adjust", reason="found a supply dump (house rule)", cp="2")
    assert page.status_code == 200, alerts(page.text)
    assert alerts(page.text).endswith("now 0 XP and 3 CP saved")
    assert state(desk)["ledger"][-1]["what"].startswith("adjusted")
    history = [html.unescape(line) for line in re.findall(r"<li><code>(.*?)</code></li>", page.text)]
    assert len(history) == 4 and "found a supply dump (house rule)" in history[-1] and "3 CP, 0 XP" in history[-1]
    page = act(desk, page, "undo", steps="1")
    assert page.status_code == 200, alerts(page.text)
    assert (desk.workspace / "ww.yaml").read_bytes() == after_debrief
    page = act(desk, page, "undo", steps="2")
    assert (desk.workspace / "ww.yaml").read_bytes() == before_mission


def test_the_desks_changes_and_undo_go_through_a_link_and_keep_crlf(desk):
    """The desk writes as the CLI does (issue 50): a campaign file that is a link, saved with CRLF by a
    Windows editor, stays a link to the same file, CRLF throughout, and undo gives its bytes back."""
    page = new_campaign(desk)
    kept = desk.workspace / "kept"
    kept.mkdir()
    target = kept / "ww.yaml"
    original = (desk.workspace / "ww.yaml").read_bytes().replace(b"\n", b"\r\n")
    target.write_bytes(original)
    (desk.workspace / "ww.yaml").unlink()
    (desk.workspace / "ww.yaml").symlink_to(target)
    page = desk.get("/wotw/campaign/desk?file=ww.yaml")
    for action, data in (("adjust", {"reason": "house", "cp": "1"}), ("undo", {"steps": "1"})):
        page = act(desk, page, action, **data)
        assert page.status_code == 200, alerts(page.text)
        assert (desk.workspace / "ww.yaml").is_symlink()
        written = target.read_bytes()
        assert written.count(b"\n") == written.count(b"\r\n") > 0, action
    assert target.read_bytes() == original

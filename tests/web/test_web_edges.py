"""The desk at its edges (issue 30): numbers from a request bounded before use, every file kind's
located message when it is broken, served on every address, the token link, the conflict page
for a file that exists, a squad roll that never rewrites a squad file, a log line per refusal."""
import html
import logging
import re
import time

from deskfixtures import Desk, alerts, desk  # noqa: F401 - the fixture
from starlette.testclient import TestClient

from sheets.web import create_app

from sheets.web import security

HANS = {"playbook": "soldier", "name": "Hans Weber", "rank": "Corporal", "profile": "Cool", "background": "Athlete",
        "stat_set": "2", "moves": ["Battle tested", "Stone cold"], "loadout": "SMG"}


def message(response) -> str:
    found = re.search(r"<pre>(.*?)</pre>", response.text, re.S)
    return html.unescape(found.group(1)) if found else response.text


def test_a_bond_row_number_is_bounded_before_it_is_used(desk):
    started = time.monotonic()
    big = desk.get("/regiment/character/preview.png?playbook=medic&bond_name_1000000=x")
    assert time.monotonic() - started < 2  # was seconds, growing with the number
    assert big.status_code == 400
    assert "'bond_name_1000000': bond rows are bond_name_N and bond_value_N, N from 0 to 49" in message(big)
    for key in ("bond_name_%C2%B2", "bond_value_%C2%B2", "bond_name_" + "9" * 5000, "bond_name_-1", "bond_name_1e3"):
        response = desk.get(f"/regiment/character/preview.png?playbook=medic&{key}=x")
        assert response.status_code == 400, key
    posted = desk.post("/regiment/character", {**HANS, "bond_name_" + "7" * 5000: "Ada"})
    assert posted.status_code == 400 and "(5010 characters)" in message(posted)
    # the rows the page has are still read
    ok = desk.post("/regiment/character", {**HANS, "bond_name_4": "Ada Mercer", "bond_value_4": "1"})
    assert ok.status_code == 200, alerts(ok.text)
    assert 'value="Ada Mercer"' in ok.text


def test_a_number_in_a_form_is_bounded_before_int_reads_it(desk):
    for seed in ("9" * 5000, "²", "１２", "1_000", "0x10"):
        response = desk.post("/wotw/mission", {"theatre": "france-1944", "seed": seed})
        assert response.status_code == 400, seed
        assert "seed:" in message(response) and "is not a whole number of at most 20 digits" in message(response)
    # a mark typed as a huge number is the checker's to refuse, with its line: text, never int() of it
    marked = desk.post("/regiment/character", {**HANS, "xp": "9" * 5000})
    assert marked.status_code == 422 and "xp" in alerts(marked.text)


def test_every_broken_character_file_gets_the_clis_located_message(desk):
    (desk.workspace / "malformed.yaml").write_text("playbook: medic\nname: [oops\n")
    (desk.workspace / "latin1.yaml").write_bytes(b"playbook: medic\nname: J\xf6rg\n")
    (desk.workspace / "list.yaml").write_text("- playbook: medic\n- name: x\n")
    (desk.workspace / "twice.yaml").write_text("playbook: medic\nname: A\nname: B\n")
    expected = {
        "malformed.yaml": "malformed.yaml:3: malformed YAML: did not find expected ',' or ']'",
        "latin1.yaml": "latin1.yaml:2: column 8: byte 0xF6 is not UTF-8 text",
        "list.yaml": "list.yaml:1: expected a mapping of keys (key: value), found list",
        "twice.yaml": "twice.yaml:3:",
    }
    for name, said in expected.items():
        for response in (desk.get(f"/regiment/character?file={name}"),
                         desk.post("/regiment/character", {**HANS, "file": name, "action": "save"})):
            assert response.status_code == 400, (name, response.status_code)
            assert said in message(response), message(response)
    assert (desk.workspace / "list.yaml").read_text() == "- playbook: medic\n- name: x\n"  # nothing written


def test_every_other_file_kind_gets_the_clis_located_message(desk):
    ws = desk.workspace
    (ws / "camp.yaml").write_text("kind: campaign\nnation: [oops\n")
    (ws / "camp-latin1.yaml").write_bytes(b"kind: campaign\nnation: \xff\n")
    (ws / "camp-list.yaml").write_text("- kind: campaign\n")
    (ws / "squad.yaml").write_text("members: [oops\n")
    (ws / "team.yaml").write_text("members:\n  - name: [x\n")
    cases = [
        (desk.get("/wotw/campaign/desk?file=camp.yaml"), "camp.yaml:3: malformed YAML"),
        (desk.get("/wotw/campaign/spend?file=camp-latin1.yaml"), "camp-latin1.yaml:2: column 9: byte 0xFF is not UTF-8 text"),
        (desk.get("/wotw/campaign/desk?file=camp-list.yaml"), "camp-list.yaml:1: kind: not a campaign file"),
        (desk.post("/regiment/squad", {"squad": "squad.yaml"}), "squad.yaml:2: malformed YAML"),
        (desk.post("/wotw/campaign/new", {"file": "n.yaml", "nation": "us", "theatre": "france-1944",
                                          "team": "team.yaml"}), "team.yaml:3: malformed YAML"),
    ]
    (ws / "sheets.toml").write_bytes(b"paper = \n")
    cases += [(desk.get("/cards"), "sheets.toml: not valid TOML: Invalid value (at line 1"),
              (desk.get("/kit"), "sheets.toml: not valid TOML")]
    for response, said in cases:
        assert response.status_code == 400, said
        assert said in message(response), message(response)


def test_served_on_every_address_it_answers_its_own_addresses_with_the_token(tmp_path):
    for wildcard, own in (("0.0.0.0", "192.168.1.5"), ("::", "fe80::1")):
        guard = create_app(tmp_path, hosts=("127.0.0.1", "localhost", "::1", wildcard), token="s3cret")
        reached = {"server": own}

        async def app(scope, receive, send, guard=guard, reached=reached):
            scope["server"] = (reached["server"], 8000)  # the address the connection reached (as uvicorn says)
            await guard(scope, receive, send)
        client = TestClient(app, base_url="http://127.0.0.1:8000", follow_redirects=True)

        def get(host: str, server: str, token: bool = True, client=client, reached=reached):
            client.cookies.clear()
            reached["server"] = server
            shown = f"[{host}]" if ":" in host else host
            return client.get("/?token=s3cret" if token else "/", headers={"host": f"{shown}:8000"})
        assert get(own, own).status_code == 200
        assert "<h1>Desk</h1>" in get(own, own).text
        assert get(own, own, token=False).status_code == 403  # still the token
        if wildcard == "0.0.0.0":
            assert get(own, f"::ffff:{own}").status_code == 200  # an IPv4 client of a dual-stack socket
        refused = get("attacker.example", own)
        assert refused.status_code == 400 and "and to this machine's own addresses" in refused.text
        assert get("10.9.9.9", own).status_code == 400  # an address that is not the one reached
    loopback = Desk(tmp_path)  # on loopback, nothing changes
    assert loopback.get("/", headers={"host": "192.168.1.5:8000"}).status_code == 400


def test_a_token_link_keeps_the_page_it_names(tmp_path):
    (tmp_path / "ww.yaml").write_text("x")
    desk = Desk(tmp_path, hosts=("127.0.0.1", "192.168.1.5"), token="s3cret")
    desk.client.follow_redirects = False
    first = desk.get("/wotw/campaign/desk?file=ww.yaml&token=s3cret&x=a+b")
    assert first.status_code == 303
    assert first.headers["location"] == "/wotw/campaign/desk?file=ww.yaml&x=a+b"
    desk.client.cookies.clear()
    assert desk.get("/kit?token=s3cret").headers["location"] == "/kit"


def test_another_sites_page_cannot_make_the_desk_work_in_the_background(desk):
    img = desk.get("/regiment/character/preview.png?playbook=medic",
                   headers={"sec-fetch-site": "cross-site", "sec-fetch-mode": "no-cors", "sec-fetch-dest": "image"})
    assert img.status_code == 403 and "another site's page may not make requests" in img.text
    visit = desk.get("/", headers={"sec-fetch-site": "cross-site", "sec-fetch-mode": "navigate"})
    assert visit.status_code == 200  # a link to the desk from elsewhere still opens it
    own = desk.get("/regiment/character/preview.png?playbook=soldier&name=X",
                   headers={"sec-fetch-site": "same-origin", "sec-fetch-mode": "no-cors"})
    assert own.status_code == 422  # the desk's own page: served (the checker's answer)


def test_each_refused_request_leaves_one_line_in_the_servers_log(tmp_path, caplog):
    (tmp_path / "ws").mkdir()
    desk = Desk(tmp_path / "ws", hosts=("127.0.0.1", "localhost", "::1", "192.168.1.5"), token="s3cret")
    caplog.set_level(logging.WARNING, logger="sheets.web")

    def lines_for(request) -> list[str]:
        caplog.clear()
        request()
        return [r.getMessage() for r in caplog.records if r.name == "sheets.web"]
    host = lines_for(lambda: desk.get("/", headers={"host": "evil.example"}))
    assert len(host) == 1 and host[0].startswith("refused GET / from testclient: unknown Host 'evil.example'")
    token = lines_for(lambda: desk.get("/kit"))
    assert token == ["refused GET /kit from testclient: no access token"]
    wrong = lines_for(lambda: desk.get("/kit?token=nope"))
    assert wrong == ["refused GET /kit from testclient: a wrong access token"]
    desk.get("/?token=s3cret")  # the cookie from now on
    csrf = lines_for(lambda: desk.post("/kit", {"csrf": "forged"}, csrf=False))
    assert csrf == ["refused POST /kit from testclient: no valid CSRF token in the form"]
    path = lines_for(lambda: desk.get("/regiment/character?file=../secret.yaml"))
    assert len(path) == 1 and path[0].startswith("refused GET /regiment/character from testclient: a path outside "
                                                 "the workspace: '../secret.yaml'")
    served = lines_for(lambda: desk.get("/"))
    assert served == []


def test_a_new_character_whose_file_exists_says_so_shows_the_diff_and_offers_to_apply_again(desk):
    (desk.workspace / "characters").mkdir()
    theirs = "# Hans from the CLI\nplaybook: soldier\nname: Hans Weber\n"
    (desk.workspace / "characters" / "hans-weber.yaml").write_text(theirs)
    stale = desk.post("/regiment/character", {**HANS, "action": "save"})
    assert stale.status_code == 409
    text = html.unescape(stale.text)
    assert "<h1>The file exists</h1>" in text
    assert ("characters/hans-weber.yaml exists: a file of that name was already in the workspace (or was written "
            "meanwhile); nothing was written") in text
    assert "changed since you opened it" not in text
    diff = re.findall(r'<span class="(add|del)">([^<]*)</span>', text)
    assert ("add", "+loadout: SMG") in diff and ("del", "-# Hans from the CLI") not in diff
    assert (desk.workspace / "characters" / "hans-weber.yaml").read_text() == theirs
    again = re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">',
                       text.partition('class="again"')[2].partition("</form>")[0])
    assert ("moves", "Battle tested") in again and ("moves", "Stone cold") in again
    posted: dict[str, list[str]] = {}
    for k, v in again:
        posted.setdefault(k, []).append(v)
    applied = desk.post("/regiment/character", {k: v for k, v in posted.items() if k != "csrf"})
    assert applied.status_code == 200, alerts(applied.text)
    written = (desk.workspace / "characters" / "hans-weber.yaml").read_text()
    assert written.startswith("# Hans from the CLI\n") and "loadout: SMG\n" in written


def test_a_squad_roll_never_rewrites_a_squad_file(desk):
    first = desk.post("/regiment/squad", {"count": "1", "seed": "1", "folder": "squad"})
    assert first.status_code == 200, alerts(first.text)
    squad = desk.workspace / "squad" / "squad.yaml"
    edited = squad.read_text().replace("# designation: 2nd Squad", "designation: Dog Company")
    squad.write_text(edited)
    for n, seed in ((2, "2"), (3, "3")):
        again = desk.post("/regiment/squad", {"count": "1", "seed": seed, "folder": "squad"})
        assert again.status_code == 200, alerts(again.text)
        assert f"squad/ holds a squad already (its squad.yaml is left as it is): the new squad is in squad-{n}/" \
            in alerts(again.text)
        assert (desk.workspace / f"squad-{n}" / "squad.yaml").is_file()
    assert squad.read_text() == edited and not (desk.workspace / "squad" / "squad.yaml.bak").exists()
    assert sorted(p.name for p in (desk.workspace / "squad").iterdir() if not p.name.endswith(".lock")) == [
        "gordon-mcbride.yaml", "squad.yaml"]  # (the empty .squad.yaml.lock of the one-writer lock stays)


def test_the_guard_refuses_an_absurd_content_length_without_reading_it(desk):
    response = desk.client.post("/kit", content=b"x", headers={"content-length": "9" * 40,
                                                                "content-type": "application/x-www-form-urlencoded"})
    assert response.status_code in (400, 413)
    assert security.MAX_BODY < 10**12

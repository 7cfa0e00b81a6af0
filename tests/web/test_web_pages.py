"""The core's pages: home, kit (build, contact sheet, downloads, zip), cards; `sheets serve` itself."""
import html
import io
import re
import time
import zipfile

import pypdf
from deskfixtures import Desk, alerts, desk  # noqa: F401 - the fixture

from conftest import pages, pdf_text, squash

from sheets.base.errors import SheetsError
from sheets.web.desk import Job


def finished(desk, response, limit: float = 300):
    """Follow a build's progress page (it refreshes itself) until the build is done."""
    assert re.search(r"/kit/build/[\w-]+$", str(response.url)), response.url
    deadline = time.monotonic() + limit
    while "Building the kit" in response.text and time.monotonic() < deadline:
        assert '<meta http-equiv="refresh" content="1">' in response.text
        time.sleep(0.2)
        response = desk.get(str(response.url))
    return response


def test_home_lists_the_pages_and_the_workspace_files(desk):
    (desk.workspace / "walter.yaml").write_text("playbook: soldier\n")
    page = desk.get("/")
    assert page.status_code == 200
    for href in ("/kit", "/cards", "/regiment/character", "/regiment/squad", "/wotw/campaign", "/wotw/mission"):
        assert f'href="{href}"' in page.text
    assert "<code>walter.yaml</code>" in page.text


def test_kit_builds_with_its_contact_sheet_and_downloads(tmp_path, fixture_content):
    (tmp_path / "ws").mkdir()
    desk = Desk(tmp_path / "ws", content=fixture_content)
    form = desk.get("/kit")
    assert '<input id="game-skirmish" name="game" type="checkbox" value="skirmish">' in form.text
    page = finished(desk, desk.post("/kit", {"seed": "7", "paper": "a4", "players": "0"}))
    assert page.status_code == 200, page.text
    assert "Kit built: dice seed 7" in page.text
    links = re.findall(r'href="(/files/output/kit/[^"]+)"', page.text)
    assert "/files/output/kit/kit.pdf" in links
    kit_pdf = desk.get("/files/output/kit/kit.pdf")
    assert kit_pdf.headers["content-type"] == "application/pdf"
    reader = pypdf.PdfReader(io.BytesIO(kit_pdf.content))
    assert len(reader.pages) == pages(desk.workspace / "output" / "kit" / "kit.pdf") > 1
    sheet = re.search(r'<img class="contact" src="([^"]+)"', page.text).group(1)
    png = desk.get(sheet)
    assert png.headers["content-type"] == "image/png" and png.content[:8] == b"\x89PNG\r\n\x1a\n"
    archive = zipfile.ZipFile(io.BytesIO(desk.get("/kit.zip").content))
    assert "kit/kit.pdf" in archive.namelist() and "kit/skirmish-reference.pdf" in archive.namelist()
    again = finished(desk, desk.post("/kit", {"seed": "7", "paper": "a4"}))
    assert "Kit up to date: dice seed 7" in again.text


def test_the_kit_page_takes_its_paper_from_the_workspace_sheets_toml(desk):
    assert re.search(r'<option value="a4" selected>', desk.get("/kit").text)  # the built-in default
    (desk.workspace / "sheets.toml").write_text('paper = "letter"  # US printer\n', encoding="utf-8")
    page = desk.get("/kit").text
    assert re.search(r'<option value="letter" selected>', page) and not re.search(r'<option value="a4" selected>', page)


def test_the_kit_page_takes_a_squad_file_and_several_games_as_the_cli_does(desk, monkeypatch):
    """The kit page's own squad (a workspace squad file) and games reach make_kit as `sheets kit --squad FILE
    --game A --game B` gives them (KitOptions.squad; the build itself is the CLI's, tested there)."""
    (desk.workspace / "table").mkdir()
    (desk.workspace / "table" / "squad.yaml").write_text("members: [a.yaml]\n", encoding="utf-8")
    page = desk.get("/kit").text
    assert '<option value="table/squad.yaml">table/squad.yaml</option>' in page
    assert re.search(r'<input id="game-regiment" name="game" type="checkbox" value="regiment">', page)
    from sheets.web import pages as web_pages

    asked = {}

    def record(options, **kwargs):
        asked.update(options=options, **kwargs)
        raise SheetsError("recorded")
    monkeypatch.setattr(web_pages, "make_kit", record)
    done = finished(desk, desk.post("/kit", {"seed": "1", "game": ["regiment", "wotw"], "squad": "table/squad.yaml"}))
    assert done.status_code == 400 and "recorded" in done.text
    assert asked["games"] == ["regiment", "wotw"]
    assert asked["options"].squad == ((desk.workspace / "table" / "squad.yaml").resolve(),)
    assert asked["options"].layout is None and asked["options"].duplex == "long"
    # the workspace's sheets.toml layout and the form's duplex edge, as `sheets kit --duplex short` there
    (desk.workspace / "sheets.toml").write_text('layout = "poker-us-letter"\n', encoding="utf-8")
    assert '<option value="short">short edge</option>' in desk.get("/kit").text
    finished(desk, desk.post("/kit", {"seed": "1", "duplex": "short"}))
    assert asked["options"].layout == "poker-us-letter" and asked["options"].duplex == "short"
    assert desk.post("/kit", {"duplex": "sideways"}).status_code == 400
    refused = desk.post("/kit", {"squad": "../elsewhere/squad.yaml"})
    assert refused.status_code == 400 and "choose one of the workspace's squad files" in html.unescape(refused.text)


def test_the_kit_progress_page_follows_the_build(desk, monkeypatch):
    state = desk.app.app.state.desk
    state.jobs["j1"] = Job(total=5, done=2, label="Regiment reference")
    page = desk.get("/kit/build/j1")
    assert '<progress id="bar" max="5" value="2">' in page.text
    assert "Building the kit: 2 of 5 parts (last: Regiment reference)." in page.text
    assert desk.get("/kit/build/nope").status_code == 404
    from sheets.web import pages as web_pages

    def refuse(*args, **kwargs):
        raise SheetsError("--players 3: a refusal from the build")
    monkeypatch.setattr(web_pages, "make_kit", refuse)
    failed = finished(desk, desk.post("/kit", {"seed": "1"}))
    assert failed.status_code == 400 and "--players 3: a refusal from the build" in failed.text


def test_kit_refusals(desk):
    assert desk.get("/kit.zip").status_code == 404
    for data, message in (({"paper": "a3"}, "paper 'a3': choose a4 or letter"),
                          ({"game": "chess"}, "game 'chess': choose one of downrange, masscombat, platoon, regiment, wotw"),
                          ({"players": "lots"}, "players: 'lots' is not a whole number"),
                          ({"seed": "-1"}, "seed: -1 is out of range")):
        page = desk.post("/kit", data)
        assert page.status_code == 400, data
        assert message in html.unescape(page.text), data
    assert not (desk.workspace / "output" / "kit").exists()


def test_cards_make_the_pdf_the_cli_makes(desk):
    page = desk.post("/cards", {"set": "regiment/weapons", "paper": "a4", "duplex": "long", "backs": "1", "copies": "1"})
    assert page.status_code == 200, page.text
    pdf = desk.workspace / "output" / "cards" / "regiment-weapons.pdf"
    assert 'href="/files/output/cards/regiment-weapons.pdf"' in page.text
    assert pages(pdf) % 2 == 0  # a page of backs after each page of fronts
    assert "Weapons" in squash(pdf_text(pdf)) or "weapon" in pdf_text(pdf).lower()
    bad = desk.post("/cards", {"set": "regiment/weapons", "back_offset": "left", "copies": "1"})
    assert bad.status_code == 400
    assert "back" in alerts(bad.text).lower()
    assert desk.post("/cards", {"set": "chess/pieces"}).status_code == 400


def test_sheets_serve_prints_its_url_and_opens_the_browser_unless_told_not_to(cli, monkeypatch, tmp_path):
    from sheets.web import app as web_app
    served, opened = [], []
    monkeypatch.setattr(web_app.server, "run", lambda settings: served.append(settings))
    monkeypatch.setattr(web_app.webbrowser, "open", opened.append)
    result = cli("serve", "--no-open", "--port", "8123", "--workspace", tmp_path)
    assert result.exit_code == 0, result
    assert result.stdout == f"warsheets desk on http://127.0.0.1:8123/ (workspace {tmp_path}); Ctrl-C stops it\n"
    assert [(s.host, s.port, s.log_level) for s in served] == [("127.0.0.1", 8123, "warning")] and opened == []
    assert issubclass(served[0].http, web_app.server.GuardedProtocol)  # the header deadline and connection bound
    result = cli("serve", "--port", "8124", "--workspace", tmp_path)
    assert opened == ["http://127.0.0.1:8124/"]


def test_sheets_serve_off_loopback_warns_and_needs_a_token(cli, monkeypatch, tmp_path):
    from sheets.web import app as web_app
    monkeypatch.setattr(web_app.server, "run", lambda settings: None)
    result = cli("serve", "--no-open", "--host", "0.0.0.0", "--workspace", tmp_path)
    assert result.exit_code == 0, result
    assert result.stderr.startswith("warning: serving on 0.0.0.0: anyone who can reach this address")
    assert re.search(r"^warsheets desk on http://0\.0\.0\.0:8000/\?token=[\w-]{20,} ", result.stdout)


def test_sheets_serve_refuses_a_workspace_that_is_not_a_folder(cli, tmp_path):
    result = cli("serve", "--no-open", "--workspace", tmp_path / "nope")
    assert result.exit_code == 1
    assert result.stderr == f"error: --workspace {tmp_path / 'nope'}: not a folder\n"


def test_a_desk_print_takes_the_paper_in_force_in_its_workspace(tmp_path, monkeypatch):
    """The desk prints as a `sheets` command run in its workspace: a sheets.toml above it says letter."""
    (tmp_path / "sheets.toml").write_text('paper = "letter"\n', encoding="utf-8")
    (tmp_path / "ws").mkdir()
    desk = Desk(tmp_path / "ws")
    assert re.search(r'<option value="letter" selected>', desk.get("/kit").text)
    page = desk.post("/wotw/mission", {"theatre": "france-1944", "seed": "11"})
    assert page.status_code == 200, alerts(page.text)
    pdf = desk.workspace / "output" / "missions" / "wotw-mission-france-1944-seed11.pdf"
    box = pypdf.PdfReader(str(pdf)).pages[0].mediabox
    assert (round(float(box.width) / 72 * 25.4, 1), round(float(box.height) / 72 * 25.4, 1)) == (215.9, 279.4)

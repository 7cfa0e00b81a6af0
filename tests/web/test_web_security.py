"""Safe by default: Host allowlist, access token, CSRF, Origin, bounded bodies, the workspace's walls,
no traceback in the browser."""
import html
import os
import subprocess
import sys

from deskfixtures import Desk, desk  # noqa: F401 - the fixture
from starlette.routing import Route

from conftest import REPO

from sheets.web import security


def post_routes(app) -> list[str]:
    return sorted({r.path for r in app.app.router.routes if isinstance(r, Route) and "POST" in (r.methods or ())})


def test_every_state_changing_route_is_listed(desk):
    """The CSRF test below covers each of these: a new POST route shows up here first."""
    paths = post_routes(desk.app)
    assert paths == ["/cards", "/cards/calibrate", "/kit", "/regiment/character", "/regiment/squad", "/wotw/campaign/desk",
                     "/wotw/campaign/new", "/wotw/mission"]


def test_every_post_route_refuses_a_missing_or_wrong_csrf_token_and_writes_nothing(desk):
    for path in post_routes(desk.app):
        for token in (None, "not-the-token"):
            data = {"file": "c.yaml", "name": "X", "playbook": "soldier", "action": "save", "nation": "us",
                    "theatre": "france-1944", "count": "1"}
            if token:
                data["csrf"] = token
            response = desk.post(path, data, csrf=False)
            assert response.status_code == 403, path
            assert "no valid CSRF token" in response.text, path
    assert sorted(p.name for p in desk.workspace.rglob("*")) == []


def test_a_foreign_host_is_refused_dns_rebinding(desk):
    for method in (desk.client.get, desk.client.post):
        response = method("/", headers={"host": "attacker.example:8000"})
        assert response.status_code == 400
        assert response.text == ("400: unknown Host 'attacker.example:8000': this desk answers only to "
                                 "127.0.0.1, ::1, localhost")
    assert desk.get("/", headers={"host": "localhost:8000"}).status_code == 200
    assert desk.get("/", headers={"host": "[::1]:8000"}).status_code == 200


def test_a_post_from_another_origin_is_refused_even_with_the_token(desk):
    response = desk.post("/wotw/campaign/new", {"file": "c.yaml", "nation": "us", "theatre": "france-1944"},
                         headers={"origin": "http://evil.example"})
    assert response.status_code == 403
    assert response.text == "403: a request from http://evil.example may not change anything here"
    assert not (desk.workspace / "c.yaml").exists()


def test_off_loopback_every_request_needs_the_access_token(tmp_path):
    desk = Desk(tmp_path, hosts=("127.0.0.1", "192.168.1.5"), token="s3cret")
    desk.client.follow_redirects = False
    assert desk.get("/").status_code == 403
    assert "needs its access token" in desk.get("/?token=wrong").text
    first = desk.get("/kit?token=s3cret")
    assert first.status_code == 303 and first.headers["location"] == "/kit"
    assert "sheets_token=s3cret" in first.headers["set-cookie"] and "HttpOnly" in first.headers["set-cookie"]
    assert desk.get("/kit").status_code == 200  # the cookie now carries it
    assert desk.get("/", headers={"host": "192.168.1.5:8000"}).status_code == 200


def test_request_bodies_are_bounded(desk):
    big = "x" * (security.MAX_BODY + 1)
    response = desk.post("/regiment/character", {"notes": big, "playbook": "soldier"})
    assert response.status_code == 413
    assert response.text == "413: the request is larger than 1000 KB"

    def chunks():  # no Content-Length: counted as it arrives
        for _ in range(security.MAX_BODY // 50_000 + 2):
            yield b"a" * 50_000
    response = desk.client.post("/regiment/character", content=chunks(),
                                headers={"content-type": "application/x-www-form-urlencoded"})
    assert response.status_code == 413


def test_files_only_inside_the_workspace(desk, tmp_path):
    secret = tmp_path / "secret.yaml"
    secret.write_text("playbook: soldier\n")
    (desk.workspace / "out.yaml").symlink_to(secret)
    (desk.workspace / "output").mkdir()
    (desk.workspace / "output" / "notes.txt").write_text("hi")
    for url in ("/files/%2e%2e/secret.yaml", "/files/out.yaml", "/regiment/character?file=../secret.yaml",
                "/regiment/character?file=out.yaml", "/wotw/campaign/desk?file=%2Fetc%2Fpasswd"):
        response = desk.get(url)
        assert response.status_code == 403, url
        assert "workspace" in response.text and "playbook: soldier" not in response.text, url
    assert desk.get("/files/output/notes.txt").status_code == 404  # not a kind of file the desk hands out
    response = desk.post("/wotw/campaign/new", {"file": "../escape.yaml", "nation": "us", "theatre": "france-1944"})
    assert response.status_code == 403
    assert "'../escape.yaml': give a file name inside the workspace (no '..', no absolute path)" in html.unescape(response.text)
    assert not (tmp_path / "escape.yaml").exists()


def test_no_traceback_reaches_the_browser(desk, monkeypatch):
    from sheets.web import pages

    def boom(*args, **kwargs):
        raise RuntimeError("internal detail /secret/path")
    monkeypatch.setattr(pages, "_games", boom)
    response = desk.get("/kit")
    assert response.status_code == 500
    assert "Something went wrong" in response.text
    assert "Traceback" not in response.text and "/secret/path" not in response.text


def test_the_cli_stays_light_the_desk_loads_only_for_serve():
    code = "import sys, sheets.cli; print(sorted(m for m in ('starlette', 'uvicorn', 'sheets.web') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO,
                         env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}, check=True)
    assert out.stdout.strip() == "[]"

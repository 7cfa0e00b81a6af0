"""Helpers for the desk's tests: an app on a workspace, its CSRF token, a live server for the browser."""
from __future__ import annotations

import re
import socket
import threading
import time
from html.parser import HTMLParser
from pathlib import Path

import pytest
import uvicorn
from starlette.testclient import TestClient

from sheets.web import create_app, server

BASE = "http://127.0.0.1:8000"


class Desk:
    """A TestClient on a fresh workspace, with the token every form carries."""

    def __init__(self, workspace: Path, content: Path | None = None, **kwargs):
        self.workspace = workspace
        self.app = create_app(workspace, content=content, **kwargs)
        self.client = TestClient(self.app, base_url=BASE, raise_server_exceptions=False, follow_redirects=True)
        self.csrf = self.app.app.state.desk.csrf

    def get(self, url: str, **kw):
        return self.client.get(url, **kw)

    def post(self, url: str, data: dict | None = None, csrf: bool = True, **kw):
        return self.client.post(url, data={**({"csrf": self.csrf} if csrf else {}), **(data or {})}, **kw)


@pytest.fixture
def desk(tmp_path) -> Desk:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    return Desk(workspace)


def field(html: str, name: str) -> str:
    """The value of a hidden input (the first one with that name)."""
    found = re.search(rf'name="{name}" value="([^"]*)"', html)
    assert found, f"no {name} field in the page"
    return found.group(1)


class _Controls(HTMLParser):
    """The controls of one form, read as a browser reads them to submit it."""

    def __init__(self, form_id: str):
        super().__init__(convert_charrefs=True)
        self.form_id, self.inside, self.found = form_id, False, []
        self.select = self.option = self.textarea = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            self.inside = a.get("id") == self.form_id
        if not self.inside or "disabled" in a:
            return
        if tag == "input" and a.get("name") and a.get("type", "text") not in ("submit", "button", "reset"):
            if a.get("type") not in ("checkbox", "radio") or "checked" in a:
                self.found.append((a["name"], a.get("value", "on" if a.get("type") in ("checkbox", "radio") else "")))
        elif tag == "select":
            self.select = [a.get("name"), None, None]  # name, the selected option's value, the first option's
        elif tag == "option" and self.select:
            self.option = [a.get("value"), "selected" in a, ""]
        elif tag == "textarea":
            self.textarea = [a.get("name"), ""]

    def handle_data(self, data):
        if self.option is not None:
            self.option[2] += data
        if self.textarea is not None:
            self.textarea[1] += data

    def handle_endtag(self, tag):
        if tag == "form":
            self.inside = False
        elif tag == "option" and self.option is not None:
            value = self.option[0] if self.option[0] is not None else self.option[2]
            self.select[2] = value if self.select[2] is None else self.select[2]
            self.select[1] = value if self.option[1] else self.select[1]
            self.option = None
        elif tag == "select" and self.select:
            self.found.append((self.select[0], self.select[1] if self.select[1] is not None else self.select[2]))
            self.select = None
        elif tag == "textarea" and self.textarea:
            self.found.append(tuple(self.textarea))
            self.textarea = None


def controls(html: str, form_id: str) -> dict[str, list[str]]:
    """What submitting the form `form_id` as the page shows it sends: name -> its values (the checked
    boxes, the selected options, every text box and hidden field), as a browser would."""
    parser = _Controls(form_id)
    parser.feed(html)
    out: dict[str, list[str]] = {}
    for name, value in parser.found:
        out.setdefault(name, []).append(value)
    return out


def alerts(html: str) -> str:
    """The text of the page's status and alert boxes (what a refusal or a success says)."""
    boxes = re.findall(r'role="(?:alert|status)">(.*?)</div>', html, re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", " ".join(boxes))).replace("&#39;", "'").replace("&gt;", ">").strip()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LiveDesk:
    """The desk served by uvicorn in a thread, as `sheets serve` serves it."""

    def __init__(self, workspace: Path, content: Path | None = None, **guards):
        self.workspace = workspace
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.app = create_app(workspace, content=content)
        config = server.config(self.app, "127.0.0.1", self.port, **guards)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self):
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the desk did not start")
            time.sleep(0.05)
        return self

    def __exit__(self, *exc):
        self.server.should_exit = True
        self.thread.join(10)

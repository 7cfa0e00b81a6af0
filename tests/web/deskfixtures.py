"""Helpers for the desk's tests: an app on a workspace, its CSRF token, a live server for the browser."""
from __future__ import annotations

import re
import socket
import threading
import time
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

"""The desk's app: its pages, the games' pages, the guard in front, and the error pages.

`create_app(workspace)` is what the tests drive (Starlette's TestClient) and what
`serve` hands to uvicorn. No traceback ever reaches the browser: a SheetsError is shown
as the CLI shows it (a 400 page), anything else as a generic error page (500) while the
traceback goes to the server's log.
"""
from __future__ import annotations

import errno
import logging
import socket
import sys
import webbrowser
from pathlib import Path
from urllib.parse import urlencode

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from sheets.base import paths
from sheets.base.errors import SheetsError, os_error_message
from sheets.library import plugins
from sheets.web import server
from sheets.web.desk import Desk, NavItem, refused
from sheets.web.pages import routes as core_routes
from sheets.web.security import LOOPBACK, Guard, new_secret
from sheets.web.workspace import Conflict, OutsideWorkspace, Workspace

log = logging.getLogger("sheets.web")


def game_webs() -> list:
    """The `web` module of every game package that has one (found where they live, like the CLIs)."""
    return plugins.parts("web")


def create_app(workspace: Path, *, content: Path | None = None, hosts: tuple[str, ...] = LOOPBACK,
               token: str | None = None) -> Guard:
    desk = Desk(Workspace(workspace), content=content)
    desk.nav = [NavItem("/", "Desk"), NavItem("/kit", "Kit"), NavItem("/cards", "Cards")]
    routes: list[Route | Mount] = [*core_routes(desk)]
    for web in game_webs():
        routes += web.routes(desk)
        desk.nav += [NavItem(href, label) for href, label in web.NAV]
    routes.append(Mount("/static", StaticFiles(directory=str(paths.templates_dir() / "web" / "static")), name="static"))

    async def http_error(request: Request, exc: HTTPException):
        return desk.message(f"{exc.status_code}", str(exc.detail), status=exc.status_code)

    async def user_error(request: Request, exc: SheetsError):
        if isinstance(exc, Conflict):
            return desk.page("web/conflict.html.j2", status=409, conflict=exc, **_again(desk, request, exc),
                             title="The file exists" if exc.was_new else "Changed since you opened it")
        if isinstance(exc, OutsideWorkspace):
            refused(request, f"a path outside the workspace: {str(exc)[:200]}")
        status = 403 if isinstance(exc, OutsideWorkspace) else 400
        return desk.message("Not done", str(exc), status=status)

    async def crash(request: Request, exc: Exception):
        said = os_error_message(exc) if isinstance(exc, OSError) else None
        if said:  # the environment's (a name too long for the file system, a full disk): said as the CLI says it
            return desk.message("Not done", said, status=400)
        log.exception("error on %s %s", request.method, request.url.path)
        return desk.message("Something went wrong", "The desk hit an error it did not expect; nothing was "
                            "half-written. The server's terminal shows the details.", status=500)

    app = Starlette(routes=routes, exception_handlers={HTTPException: http_error, SheetsError: user_error,
                                                       Exception: crash})
    app.state.desk = desk
    return Guard(app, allowed_hosts=tuple(hosts), token=token)


def _again(desk: Desk, request: Request, conflict: Conflict) -> dict:
    """The conflict page's offer: the same form again, made from the file as it is now (its version)."""
    form = getattr(request.state, "form", None)
    if form is None:
        return {"again": None, "reload": None}
    version = desk.workspace.digest(desk.workspace.path(conflict.rel))
    fields = [(k, str(v)) for k, v in form.multi_items() if k not in ("csrf", "version")] + [("version", version)]
    reload = f"{request.url.path}?{urlencode({'file': conflict.rel})}" if form.get("file") else None
    return {"again": {"action": request.url.path, "fields": fields}, "reload": reload}


def _log_to_terminal() -> None:
    """The desk's own lines (refusals, errors) on the server's terminal, one line each."""
    if not log.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("%(asctime)s desk: %(message)s", "%H:%M:%S"))
        log.addHandler(handler)
        log.setLevel(logging.INFO)
        log.propagate = False


#: how many ports above a busy one are tried for the one to suggest
PORTS_TRIED = 50


def _bound(host: str, port: int) -> socket.socket:
    """A socket listening-ready on host:port, as uvicorn binds it; OSError when it cannot be had."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family=family)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    return sock


def free_port(host: str, busy: int) -> int | None:
    """The first port above `busy` that can be bound on `host` (None if none of the next few can)."""
    for port in range(busy + 1, min(busy + 1 + PORTS_TRIED, 65536)):
        try:
            _bound(host, port).close()
            return port
        except OSError:
            continue
    return None


def listen(host: str, port: int) -> socket.socket:
    """A socket bound to host:port as uvicorn binds it, tried before anything is printed: a busy port
    is one line naming a free one, not uvicorn's ERROR and exit 3 after the desk's URL."""
    try:
        return _bound(host, port)
    except OSError as exc:
        if exc.errno in (errno.EADDRINUSE, errno.EACCES):
            other = free_port(host, port)
            hint = f"; try --port {other}" if other else ""
            what = "is in use" if exc.errno == errno.EADDRINUSE else "cannot be opened by this user"
            raise SheetsError(f"port {port} {what}{hint}") from None
        raise SheetsError(f"cannot listen on {host} port {port}: {exc.strerror or exc}") from None


def serve(workspace: Path, *, host: str = "127.0.0.1", port: int = 8000, open_browser: bool = True,
          content: Path | None = None, echo=print) -> None:
    """Run the desk until Ctrl-C: print its URL, open the browser (unless told not to)."""
    listen(host, port).close()  # before anything is printed: a busy port is one line and exit 1
    token = None
    hosts: tuple[str, ...] = LOOPBACK
    if host not in LOOPBACK:
        token = new_secret()
        hosts = (*LOOPBACK, host)
        echo(f"warning: serving on {host}: anyone who can reach this address and has the token can read and "
             f"change the files in {Path(workspace).resolve()}", file=sys.stderr)
    app = create_app(workspace, content=content, hosts=hosts, token=token)
    _log_to_terminal()
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{port}/" + (f"?token={token}" if token else "")
    echo(f"warsheets desk on {url} (workspace {Path(workspace).resolve()}); Ctrl-C stops it")
    if open_browser:
        webbrowser.open(url)
    server.run(server.config(app, host, port))

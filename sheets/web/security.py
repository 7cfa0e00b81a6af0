"""Safe by default: who may talk to the desk, and what a request may carry.

- Host allowlist (DNS rebinding): a page from another site whose name resolves to
  127.0.0.1 still sends its own Host header, and is refused. Served on every address
  (`--host 0.0.0.0` or `::`), the desk also answers to the address the client reached
  it on (its own, whatever the interface) and to this machine's name.
- Access token: off loopback (`--host`), every request needs the token, given once
  as `?token=...` (then kept in a cookie; the link's page is where it leads).
- CSRF: every state-changing request carries the desk's token in its form; an Origin
  from elsewhere is refused before that, and so is a request another site's page makes
  in the background (an `<img>`, a fetch: `Sec-Fetch-Site` says so) rather than a visit.
- Bounded bodies: a request body over MAX_BODY bytes is refused (413) while it arrives.

Each refusal leaves one line in the server's log (logger `sheets.web`).
"""
from __future__ import annotations

import hmac
import ipaddress
import logging
import secrets
import socket
from http.cookies import SimpleCookie
from urllib.parse import parse_qsl, urlencode, urlsplit

from starlette.exceptions import HTTPException
from starlette.responses import PlainTextResponse, RedirectResponse

MAX_BODY = 1_000_000  # bytes: a character or campaign form is a few KB
LOOPBACK = ("127.0.0.1", "localhost", "::1")
TOKEN_COOKIE = "sheets_token"
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")
WILDCARDS = ("0.0.0.0", "::")  # --host on every address of this machine
log = logging.getLogger("sheets.web")


def new_secret() -> str:
    return secrets.token_urlsafe(24)


def same(a: object, b: object) -> bool:  # a form's value may be a file sent in its place
    return bool(a) and bool(b) and hmac.compare_digest(str(a), str(b))


def host_name(value: str) -> str:
    """'127.0.0.1:8000' -> '127.0.0.1'; '[::1]:80' -> '::1' (lower case)."""
    value = value.strip().lower()
    if value.startswith("["):
        return value[1:].partition("]")[0]
    return value.rpartition(":")[0] if value.count(":") == 1 else value


def same_address(a: str, b: str) -> bool:
    """Two spellings of one IP address ('::ffff:10.0.0.5' is '10.0.0.5'); False if either is no address."""
    def parse(text: str):
        address = ipaddress.ip_address(text.strip("[]").partition("%")[0])
        return getattr(address, "ipv4_mapped", None) or address
    try:
        return parse(a) == parse(b)
    except ValueError:
        return False


def machine_names() -> tuple[str, ...]:
    """This machine's own names, as a browser on the network may type them (served on every address)."""
    names = {socket.gethostname().lower()}
    try:
        names.add(socket.getfqdn().lower())
    except OSError:  # pragma: no cover - no resolver
        pass
    return tuple(sorted(n for n in names if n))


class BodyTooLarge(HTTPException):
    """Raised while a body arrives: the app's error page answers it (413), or the guard if none started."""

    def __init__(self) -> None:
        super().__init__(413, f"the request is larger than {MAX_BODY // 1000} KB")


class Guard:
    """ASGI middleware: Host, access token, Origin, body size. CSRF is checked with the form."""

    def __init__(self, app, *, allowed_hosts: tuple[str, ...], token: str | None = None, max_body: int = MAX_BODY):
        self.app, self.allowed = app, {h.lower() for h in allowed_hosts}
        self.token, self.max_body = token, max_body
        self.everywhere = bool(self.allowed & set(WILDCARDS))
        if self.everywhere:
            self.allowed |= set(machine_names())

    def known_host(self, host: str, scope) -> bool:
        """Host names this desk: an allowed name, or (served on every address) the address it was reached on."""
        if host in self.allowed or any(same_address(host, a) for a in self.allowed):
            return True
        server = scope.get("server") or (None, None)
        return self.everywhere and server[0] is not None and same_address(host, str(server[0]))

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        refusal = self._refusal(scope, headers)
        if refusal is not None:
            _log_refusal(scope, refusal.body.decode())
            return await refusal(scope, receive, send)
        if self.token is not None and not same(_cookie(headers, TOKEN_COOKIE), self.token):
            query = parse_qsl(scope.get("query_string", b"").decode("latin-1"), keep_blank_values=True)
            given = next((v for k, v in query if k == "token"), None)
            if not same(given, self.token):
                _log_refusal(scope, "no access token" if given is None else "a wrong access token")
                return await PlainTextResponse("403: this desk needs its access token: open the URL "
                                               "`sheets serve` printed", status_code=403)(scope, receive, send)
            rest = urlencode([(k, v) for k, v in query if k != "token"])  # the page the link names, without it
            response = RedirectResponse(scope.get("path", "/") + (f"?{rest}" if rest else ""), status_code=303)
            response.set_cookie(TOKEN_COOKIE, self.token, httponly=True, samesite="strict")
            return await response(scope, receive, send)
        length = headers.get("content-length", "")
        if length.isdigit() and (len(length) > 12 or int(length) > self.max_body):
            _log_refusal(scope, f"a body of {length[:20]} bytes")
            return await _too_large()(scope, receive, send)
        received = 0
        started = False

        async def bounded_receive():
            nonlocal received
            message = await receive()
            received += len(message.get("body", b""))
            if received > self.max_body:
                raise BodyTooLarge()
            return message

        async def tracking_send(message):
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, bounded_receive, tracking_send)
        except BodyTooLarge:
            if not started:
                await _too_large()(scope, receive, send)

    def _refusal(self, scope, headers):
        host = host_name(headers.get("host", ""))
        if not self.known_host(host, scope):
            everywhere = " and to this machine's own addresses" if self.everywhere else ""
            shown = sorted(self.allowed - set(WILDCARDS))
            return PlainTextResponse(f"400: unknown Host {headers.get('host', '')[:200]!r}: this desk answers only "
                                     f"to {', '.join(shown)}{everywhere}", status_code=400)
        origin = headers.get("origin")
        if scope["method"] not in SAFE_METHODS and origin and origin != "null" \
                and not self.known_host(host_name(urlsplit(origin).netloc), scope):
            return PlainTextResponse(f"403: a request from {origin[:200]} may not change anything here",
                                     status_code=403)
        site, mode = headers.get("sec-fetch-site", ""), headers.get("sec-fetch-mode", "")
        if site in ("cross-site", "same-site") and not (scope["method"] == "GET" and mode == "navigate"):
            return PlainTextResponse("403: another site's page may not make requests to the desk in the background "
                                     "(open the desk's own page)", status_code=403)
        return None


def _log_refusal(scope, why: str) -> None:
    """One line in the server's log for each request the guard refused."""
    client = (scope.get("client") or ("?",))[0]
    log.warning("refused %s %s from %s: %s", scope.get("method", "?"), scope.get("path", "?"), client,
                why.removeprefix("400: ").removeprefix("403: "))


def _too_large():
    return PlainTextResponse(f"413: the request is larger than {MAX_BODY // 1000} KB", status_code=413)


def _cookie(headers: dict, name: str) -> str | None:
    jar = SimpleCookie()
    try:
        jar.load(headers.get("cookie", ""))
    except Exception:  # noqa: BLE001 - a malformed cookie header is no token
        return None
    return jar[name].value if name in jar else None

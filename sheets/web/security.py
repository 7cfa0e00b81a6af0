"""Safe by default: who may talk to the desk, and what a request may carry.

- Host allowlist (DNS rebinding): a page from another site whose name resolves to
  127.0.0.1 still sends its own Host header, and is refused.
- Access token: off loopback (`--host`), every request needs the token, given once
  as `?token=...` (then kept in a cookie).
- CSRF: every state-changing request carries the desk's token in its form; an Origin
  from elsewhere is refused before that.
- Bounded bodies: a request body over MAX_BODY bytes is refused (413) while it arrives.
"""
from __future__ import annotations

import hmac
import secrets
from http.cookies import SimpleCookie
from urllib.parse import parse_qs, urlsplit

from starlette.exceptions import HTTPException
from starlette.responses import PlainTextResponse, RedirectResponse

MAX_BODY = 1_000_000  # bytes: a character or campaign form is a few KB
LOOPBACK = ("127.0.0.1", "localhost", "::1")
TOKEN_COOKIE = "sheets_token"
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")


def new_secret() -> str:
    return secrets.token_urlsafe(24)


def same(a: str | None, b: str | None) -> bool:
    return bool(a) and bool(b) and hmac.compare_digest(str(a), str(b))


def host_name(value: str) -> str:
    """'127.0.0.1:8000' -> '127.0.0.1'; '[::1]:80' -> '::1' (lower case)."""
    value = value.strip().lower()
    if value.startswith("["):
        return value[1:].partition("]")[0]
    return value.rpartition(":")[0] if value.count(":") == 1 else value


class BodyTooLarge(HTTPException):
    """Raised while a body arrives: the app's error page answers it (413), or the guard if none started."""

    def __init__(self) -> None:
        super().__init__(413, f"the request is larger than {MAX_BODY // 1000} KB")


class Guard:
    """ASGI middleware: Host, access token, Origin, body size. CSRF is checked with the form."""

    def __init__(self, app, *, allowed_hosts: tuple[str, ...], token: str | None = None, max_body: int = MAX_BODY):
        self.app, self.allowed = app, {h.lower() for h in allowed_hosts}
        self.token, self.max_body = token, max_body

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        refusal = self._refusal(scope, headers)
        if refusal is not None:
            return await refusal(scope, receive, send)
        if self.token is not None and not same(_cookie(headers, TOKEN_COOKIE), self.token):
            given = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("token", [None])[0]
            if not same(given, self.token):
                return await PlainTextResponse("403: this desk needs its access token: open the URL "
                                               "`sheets serve` printed", status_code=403)(scope, receive, send)
            response = RedirectResponse(scope.get("path", "/"), status_code=303)
            response.set_cookie(TOKEN_COOKIE, self.token, httponly=True, samesite="strict")
            return await response(scope, receive, send)
        length = headers.get("content-length", "")
        if length.isdigit() and int(length) > self.max_body:
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
        if host not in self.allowed:
            return PlainTextResponse(f"400: unknown Host {headers.get('host', '')!r}: this desk answers only "
                                     f"to {', '.join(sorted(self.allowed))}", status_code=400)
        origin = headers.get("origin")
        if scope["method"] not in SAFE_METHODS and origin and origin != "null" \
                and host_name(urlsplit(origin).netloc) not in self.allowed:
            return PlainTextResponse(f"403: a request from {origin} may not change anything here", status_code=403)
        return None


def _too_large():
    return PlainTextResponse(f"413: the request is larger than {MAX_BODY // 1000} KB", status_code=413)


def _cookie(headers: dict, name: str) -> str | None:
    jar = SimpleCookie()
    try:
        jar.load(headers.get("cookie", ""))
    except Exception:  # noqa: BLE001 - a malformed cookie header is no token
        return None
    return jar[name].value if name in jar else None

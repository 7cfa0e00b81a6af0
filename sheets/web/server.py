"""The desk's HTTP server: uvicorn, with the guards a server on a network needs and uvicorn lacks.

uvicorn reads a request's headers for as long as the client cares to send them and accepts
every connection the process can open. A client sending a byte a second on a thousand
sockets (a slow-loris) then holds every file descriptor, and each refused accept logs a
traceback. `GuardedProtocol` (uvicorn's h11 protocol, extended only through the
`asyncio.Protocol` interface it implements: `connection_made`, `data_received`,
`connection_lost`) adds:

- a deadline for each request's headers (`HEADER_TIMEOUT`): a connection that has not sent
  a whole request head by then is closed;
- a bound on open connections (`MAX_CONNECTIONS`): past it, the connection that has waited
  longest for its headers is closed to make room (so the desk stays reachable under a flood of
  idle sockets); when every open connection is a real request in progress, the newcomer gets a
  503;
- one log line per kind of refusal (`Refusals`), then a count at most once a minute, never a
  traceback per socket.

The body of a request is bounded in time where it is read (`sheets.web.desk.Desk.form`).
"""
from __future__ import annotations

import asyncio
import logging
import resource
import time
from collections import Counter

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

HEADER_TIMEOUT = 10.0  # seconds for a request's head: a browser sends it in one packet
MAX_CONNECTIONS = 1000  # open connections at once (a desk has a handful of users)
SUMMARY_EVERY = 60.0  # seconds between two count lines of the same refusal
BUSY = (b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain; charset=utf-8\r\n"
        b"connection: close\r\ncontent-length: 38\r\n\r\nThe desk is busy: try again in a moment")
log = logging.getLogger("sheets.web")


class Refusals:
    """One log line the first time a kind of refusal happens, then a count at most every minute."""

    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()
        self._said: dict[str, tuple[float, int]] = {}

    def refuse(self, kind: str) -> None:
        self.counts[kind] += 1
        now = time.monotonic()
        said = self._said.get(kind)
        if said is None:
            log.warning("refused a connection: %s (further ones are counted, one line a minute)", kind)
            self._said[kind] = (now, self.counts[kind])
        elif now - said[0] >= SUMMARY_EVERY and self.counts[kind] > said[1]:
            log.warning("refused %d more connections in the last minute: %s", self.counts[kind] - said[1], kind)
            self._said[kind] = (now, self.counts[kind])


class GuardedProtocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol with a header deadline and a bound on connections (module doc)."""

    refusals = Refusals()
    header_timeout = HEADER_TIMEOUT
    max_connections = MAX_CONNECTIONS
    # the connections still waiting for their request head, oldest first (a dict keeps order)
    waiting: dict["GuardedProtocol", float] = {}

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self._deadline: asyncio.TimerHandle | None = None
        self._refused = False
        if len(self.connections) >= self.max_connections and not self._make_room():
            self._refused = True
            self.refusals.refuse(f"more than {self.max_connections} open connections, all busy (503)")
            transport.write(BUSY)  # type: ignore[attr-defined]
            transport.close()
            return
        super().connection_made(transport)  # type: ignore[arg-type]
        self._await_head()

    def data_received(self, data: bytes) -> None:
        if self._refused:
            return
        between = self.cycle is None or self.cycle.response_complete
        if between and self._deadline is None:
            self._await_head()  # the next request on a kept-alive connection: its head has a deadline too
        before = self.cycle
        super().data_received(data)
        if self.cycle is not before:  # a whole request head arrived: the app has it now
            self._head_done()

    def connection_lost(self, exc: Exception | None) -> None:
        self._head_done()
        if self._refused:
            return
        super().connection_lost(exc)

    # -- the head's deadline ----------------------------------------------------
    def _await_head(self) -> None:
        self._deadline = self.loop.call_later(self.header_timeout, self._too_slow)
        type(self).waiting[self] = time.monotonic()

    def _head_done(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None
        type(self).waiting.pop(self, None)

    def _too_slow(self) -> None:
        self._deadline = None
        type(self).waiting.pop(self, None)
        self.refusals.refuse(f"request headers not complete within {self.header_timeout:g} s")
        if self.transport is not None and not self.transport.is_closing():
            self.transport.close()

    def _make_room(self) -> bool:
        """Close the connection that has waited longest for its head; False if none is waiting."""
        waiting = type(self).waiting
        for oldest in waiting:
            waiting.pop(oldest, None)
            if oldest._deadline is not None:  # noqa: SLF001 - a connection of this class
                oldest._deadline.cancel()  # noqa: SLF001
                oldest._deadline = None  # noqa: SLF001
            self.refusals.refuse(f"more than {self.max_connections} open connections: "
                                 "the one idle longest before its request was closed")
            oldest.transport.close()
            oldest.connections.discard(oldest)  # its slot is free now, before the loop reports it lost
            return True
        return False


class _Collapsed(logging.Filter):
    """asyncio's 'socket.accept() out of system resource' (with its traceback) once per minute, in one line."""

    def __init__(self, refusals: Refusals) -> None:
        super().__init__()
        self.refusals = refusals

    def filter(self, record: logging.LogRecord) -> bool:
        if "accept" in str(record.msg):
            self.refusals.refuse("no file descriptor left to accept with")
            return False
        return True


def _more_descriptors() -> int:
    """Raise this process's soft limit of open files to its hard one (at most 65,536); the new limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = 65536 if hard == resource.RLIM_INFINITY else min(hard, 65536)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
        except (ValueError, OSError):
            pass
    return soft


def config(app, host: str, port: int, *, header_timeout: float = HEADER_TIMEOUT,
           max_connections: int = MAX_CONNECTIONS) -> uvicorn.Config:
    """The uvicorn configuration `sheets serve` runs (and the tests' live desk)."""
    files = _more_descriptors()
    protocol: type[GuardedProtocol] = type("DeskProtocol", (GuardedProtocol,), {
        "header_timeout": header_timeout,
        # a connection costs a descriptor; keep some for the cache, fonts and the workers' pipes
        "max_connections": max(8, min(max_connections, files - 64)) if files != resource.RLIM_INFINITY
        else max_connections,
        "refusals": Refusals(), "waiting": {}})
    logging.getLogger("asyncio").addFilter(_Collapsed(protocol.refusals))
    return uvicorn.Config(app, host=host, port=port, log_level="warning", http=protocol,
                          timeout_keep_alive=5)


def run(settings: uvicorn.Config) -> None:
    """Serve until Ctrl-C."""
    uvicorn.Server(settings).run()

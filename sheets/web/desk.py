"""What every page shares: the workspace, the templates, the CSRF check, running a command.

Pages (the core's in `pages`, each game's in `sheets/games/<game>/web.py`) receive a
`Desk`. Every page is a plain (not async) function: Starlette runs it in a worker thread,
so no page's work (a preview, a campaign replayed, a character checked) ever holds up the
event loop, and `/` answers while a slow request is in flight. In a page,
`desk.form(request)` reads the form (on the event loop, bounded) and checks its CSRF token,
`desk.call(fn, ...)` runs a command that writes or builds, `desk.read(fn, ...)` one that only
reads (a preview), `desk.page(...)` renders a template. A SheetsError raised by a command
becomes the page the CLI's message would be.

Who waits for whom: pages that only read (the home page, the forms) wait for nothing; reads
(previews) take one of READ_SLOTS, commands one of COMMAND_SLOTS, so a flood of one never
starves the other, and a kit build runs in a thread of its own beside both (one kit at a
time). Writes to the same file wait for each other through the file's own lock
(`sheets.base.output.locked`, as two `sheets` processes do), not through the desk. Each
request runs in its own context, so scripted dice are its own (`forget_scripted`). A request
that cannot get a slot within BUSY_WAIT seconds is answered 503 rather than queued forever.
"""
from __future__ import annotations

import logging
import re
import secrets
import threading
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio.from_thread
import jinja2
from starlette.datastructures import FormData
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse

from sheets.base import config, paths
from sheets.base.options import PrintOptions
from sheets.base.dice import forget_scripted
from sheets.base.errors import SheetsError
from sheets.base.paper import resolve
from sheets.library.access import library
from sheets.library.content import Library
from sheets.web.security import new_secret, same
from sheets.web.workspace import Workspace

MAX_FIELDS = 400  # form fields in one request (a campaign form has a few dozen)
MAX_DIGITS = 20  # a number in a form: a seed (< 2**63) has 19 digits
MAX_JOBS = 20  # builds remembered for their progress pages (the oldest finished ones are forgotten)
COMMAND_SLOTS = 2  # commands that write or build at once (a build is CPU-bound: one per core here)
READ_SLOTS = 2  # previews at once
BUSY_WAIT = 30.0  # seconds a request waits for a slot before it is answered 503
BODY_TIMEOUT = 30.0  # seconds to receive a form's body (bounded at MAX_BODY bytes): a slow client is cut off
UNEXPECTED = ("The desk hit an error it did not expect; nothing was half-written. "
              "The server's terminal shows the details.")
log = logging.getLogger("sheets.web")


@dataclass
class NavItem:
    href: str
    label: str


@dataclass
class Job:
    """A long build (the kit) running in the background; its page polls this."""

    context: dict = field(default_factory=dict)
    total: int = 0
    done: int = 0
    label: str = "starting"
    result: Any = None  # what the job's function returned
    error: str | None = None
    finished: bool = False

    def progress(self, total: int):
        """The `progress` callback `make_kit` takes (the CLI's progress bar takes the same)."""
        self.total = total

        def tick(label: str) -> None:
            self.done, self.label = self.done + 1, label
        return tick


@dataclass
class Desk:
    workspace: Workspace
    content: Path | None = None
    csrf: str = field(default_factory=new_secret)
    nav: list[NavItem] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._commands = threading.BoundedSemaphore(COMMAND_SLOTS)
        self._reads = threading.BoundedSemaphore(READ_SLOTS)
        self._kit = threading.Lock()  # one kit build at a time (the next one waits in its own thread)
        self._library: tuple[tuple, Library] | None = None
        self.jobs: OrderedDict[str, Job] = OrderedDict()
        self.templates = jinja2.Environment(
            loader=jinja2.FileSystemLoader(str(paths.templates_dir())),
            autoescape=True, trim_blocks=True, lstrip_blocks=True, undefined=jinja2.StrictUndefined)

    def library(self) -> Library:
        """The content, loaded once and again only when a content file changes (a homebrew author
        edits while the desk runs): a form page must not parse every YAML file (≤ 50 ms)."""
        root = Path(self.content) if self.content else paths.content_dir()
        stamp = tuple((str(p), p.stat().st_mtime_ns, p.stat().st_size) for p in sorted(root.rglob("*")) if p.is_file())
        if self._library is None or self._library[0] != stamp:
            self._library = (stamp, library(self.content))
        return self._library[1]

    def print_options(self, output: Path) -> PrintOptions:
        """A desk print's options: the paper in force in the workspace (as a `sheets` command run there
        takes it: its sheets.toml or one above, $SHEETS_PAPER, the locale), into `output`, from the desk's content."""
        return PrintOptions(paper=resolve(config.in_force(self.workspace.root)["paper"].value), output=output,
                            content=self.content)

    # -- requests -------------------------------------------------------------
    def form(self, request: Request) -> FormData:
        """The posted form, if it carries this desk's CSRF token (else 403, nothing done).

        Called from a page's worker thread: the body is read on the event loop."""
        async def read() -> FormData:
            with anyio.fail_after(BODY_TIMEOUT):
                return await request.form(max_files=0, max_fields=MAX_FIELDS)
        try:
            form = anyio.from_thread.run(read)
        except TimeoutError:
            refused(request, f"the form's body did not arrive within {BODY_TIMEOUT:g} s")
            raise HTTPException(408, f"the form did not arrive within {BODY_TIMEOUT:g} seconds") from None
        request.state.form = form  # the conflict page offers it again
        if not same(form.get("csrf"), self.csrf):
            refused(request, "no valid CSRF token in the form")
            raise HTTPException(403, "the form has no valid CSRF token: reload the page and try again")
        return form

    def call(self, fn, *args, **kwargs):
        """A command that writes or builds, in one of COMMAND_SLOTS (a page runs in a worker thread already)."""
        with _slot(self._commands, "command"):
            forget_scripted()
            return fn(*args, **kwargs)

    def read(self, fn, *args, **kwargs):
        """A command that only reads and builds nothing it keeps (a preview), in one of READ_SLOTS."""
        with _slot(self._reads, "preview"):
            forget_scripted()
            return fn(*args, **kwargs)

    def start(self, fn, *args, context: dict | None = None, **kwargs) -> str:
        """Run `fn(..., progress=...)` in the background (one build at a time, beside every other request); the job's id."""
        job, job_id = Job(context=context or {}), secrets.token_urlsafe(9)
        for old in [k for k, j in self.jobs.items() if j.finished][: max(0, len(self.jobs) + 1 - MAX_JOBS)]:
            del self.jobs[old]
        self.jobs[job_id] = job

        def run() -> None:
            try:
                with self._kit:
                    forget_scripted()
                    job.result = fn(*args, progress=job.progress, **kwargs)
            except SheetsError as exc:
                job.error = str(exc)
            except Exception:  # noqa: BLE001 - logged for the terminal; the page says it plainly
                log.exception("error in a background build")
                job.error = UNEXPECTED
            finally:
                job.finished = True
        threading.Thread(target=run, name=f"desk-job-{job_id}", daemon=True).start()
        return job_id

    # -- responses ------------------------------------------------------------
    def render(self, template: str, **context) -> str:
        return self.templates.get_template(template).render(csrf=self.csrf, nav=self.nav, **context)

    def page(self, template: str, status: int = 200, **context) -> HTMLResponse:
        return HTMLResponse(self.render(template, **context), status_code=status)

    def message(self, title: str, text: str, status: int = 200, **context) -> HTMLResponse:
        return self.page("web/message.html.j2", status=status, title=title, text=text, **context)

    def link(self, path: Path) -> str:
        """The URL that downloads a file the desk wrote into the workspace."""
        return "/files/" + self.workspace.rel(path)


@contextmanager
def _slot(slots: threading.BoundedSemaphore, what: str) -> Iterator[None]:
    """One of `slots` for the block, or a 503 when none frees up within BUSY_WAIT seconds."""
    if not slots.acquire(timeout=BUSY_WAIT):
        log.warning("busy: a %s waited %g s for a free slot (answered 503)", what, BUSY_WAIT)
        raise HTTPException(503, f"the desk is busy with other {what}s: try again in a moment")
    try:
        yield
    finally:
        slots.release()


def refused(request: Request, why: str) -> None:
    """One line in the server's log for a request the desk refused."""
    client = request.client.host if request.client else "?"
    log.warning("refused %s %s from %s: %s", request.method, request.url.path, client, why)


def checked(value: object) -> bool:
    """An HTML checkbox (a form's value, whatever was sent): present (any value but '') means on."""
    return value not in (None, "", "0", "off")


def number(form: FormData, name: str, *, default: int | None = None, lo: int | None = None,
           hi: int | None = None) -> int | None:
    """An integer field: '' gives the default; anything else not a whole number in range is refused."""
    text = str(form.get(name) or "").strip()
    if not text:
        return default
    if not re.fullmatch(r"[-+]?[0-9]{1,%d}" % MAX_DIGITS, text):  # bounded before int() sees it
        shown = text if len(text) <= 40 else f"{text[:20]}...({len(text)} characters)"
        raise HTTPException(400, f"{name}: {shown!r} is not a whole number of at most {MAX_DIGITS} digits")
    value = int(text)
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        raise HTTPException(400, f"{name}: {value} is out of range ({lo} to {hi})")
    return value

"""The build pipeline: sheets (template + context) -> HTML -> PDF -> files.

Two phases, the pelican way: callers first load content and roll every die
into plain render contexts (`Sheet`s); only then does `build` render. PDFs are
cached by a hash of their HTML (same HTML -> same bytes, so a cache hit is
exact), and uncached PDFs are made in worker processes so both cores work.

A sheet whose PDF is not WeasyPrint's output as is (n-up card sheets) names a
`finish` step: WeasyPrint renders its HTML, then the step turns those pages into
the final PDF, in the same worker. The step's `key` joins the cache key.
"""
from __future__ import annotations

import hashlib
import os
from functools import lru_cache
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from multiprocessing import get_context
from pathlib import Path
from typing import Callable, Protocol

from sheets import output
from sheets.paths import FIXED_EPOCH


class Finisher(Protocol):
    """Turns the PDF WeasyPrint made of a sheet's HTML into the final PDF.

    It runs in worker processes, so it must pickle; it must be deterministic; and
    `key` must name everything that changes its output (it joins the cache key).
    It may raise SheetsError (e.g. a card whose text does not fit).
    """

    key: str

    def __call__(self, pdf: bytes) -> bytes: ...


@dataclass
class Sheet:
    """One PDF to make: a template, its context, and where it goes."""

    filename: str
    template: str
    context: dict
    game: str | None = None
    forms: bool = False
    label: str = ""
    html: str | None = field(default=None, repr=False)
    finish: Finisher | None = None  # e.g. card imposition; None: WeasyPrint's PDF is the sheet
    # stamped: (blank, filled) sheet pairs, one per character/mission, in order. The PDF is
    # then each blank laid out once (cached) with the filled values drawn on it
    # (sheets.stamping), not the whole HTML laid out; `template`/`context` stay the
    # laid-out equivalent (used for --fillable and as the reference in tests).
    parts: list[tuple["Sheet", "Sheet"]] | None = field(default=None, repr=False)

    @property
    def stamped(self) -> bool:
        return bool(self.parts) and not self.forms


@dataclass
class Built:
    sheet: Sheet
    path: Path
    cached: bool = False  # taken from the cache, not rendered again


def render_html(sheet: Sheet) -> str:
    if sheet.html is None:
        from sheets import rendering  # noqa: PLC0415 - Jinja only when a sheet is rendered

        sheet.html = rendering.render_html(sheet.template, sheet.context, sheet.game)
    return sheet.html


@lru_cache(maxsize=1)
def _engine_version() -> str:
    from sheets import rendering  # noqa: PLC0415

    return rendering.weasyprint_version()


def _cache_key(html: str, forms: bool, finish: Finisher | None = None) -> str:
    h = hashlib.sha256()
    h.update(_engine_version().encode())
    h.update(b"forms" if forms else b"flat")
    if finish is not None:
        h.update(b"finish:" + finish.key.encode("utf-8") + b"\0")
    h.update(html.encode("utf-8"))
    return h.hexdigest()


def _pdf_worker(html: str, forms: bool, finish: Finisher | None = None) -> bytes:
    """Runs in a spawned worker: imports WeasyPrint there, not in the parent."""
    from sheets import rendering  # noqa: PLC0415

    pdf = rendering.html_to_pdf(html, forms=forms)
    return finish(pdf) if finish is not None else pdf


Job = tuple[str, bool, "Finisher | None"]  # html, forms, finish step


def cores() -> int:
    try:
        return max(len(os.sched_getaffinity(0)), 1)
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def _worker_init() -> None:
    """Workers leave Ctrl-C to the parent, which stops them (and cleans up) itself."""
    import signal  # noqa: PLC0415

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    os.environ.setdefault("SOURCE_DATE_EPOCH", FIXED_EPOCH)


def _stop(pool: ProcessPoolExecutor) -> None:
    """Stop every worker now (interrupted or failed): terminate, then kill what is left."""
    procs = list((getattr(pool, "_processes", None) or {}).values())
    for p in procs:
        try:
            p.terminate()
        except (OSError, ValueError):
            pass
    for p in procs:
        try:
            p.join(1.0)
            if p.is_alive():
                p.kill()
                p.join(0.5)
        except (OSError, ValueError, AssertionError):
            pass
    pool.shutdown(wait=False, cancel_futures=True)


class Workers:
    """Worker processes shared by several `run_jobs` calls of one command (started on
    first use), so that a job in phases (lay out the blanks, then stamp) starts them once.

        with Workers(n) as shared:
            run_jobs(f, jobs, n, shared=shared); run_jobs(g, more, n, shared=shared)
    """

    def __init__(self, workers: int | None = None):
        self.workers = workers if workers is not None else cores()
        self.pool: ProcessPoolExecutor | None = None

    def get(self) -> ProcessPoolExecutor:
        if self.pool is None:
            self.pool = _new_pool(self.workers)
        return self.pool

    def warm(self) -> None:
        """Start every worker now (each imports WeasyPrint), before the first job is known."""
        if self.workers > 1:
            pool = self.get()
            for _ in range(self.workers):
                pool.submit(_warm_up)

    def close(self) -> None:
        """Let the workers finish and go (their part of the command is done)."""
        if self.pool is not None:
            self.pool.shutdown(wait=True)
            self.pool = None

    def stop(self) -> None:
        """Stop every worker now (interrupted or failed)."""
        if self.pool is not None:
            _stop(self.pool)
            self.pool = None

    def __enter__(self) -> "Workers":
        return self

    def __exit__(self, kind, exc, tb) -> None:
        if kind is None:
            self.close()
        else:
            self.stop()


def _warm_up() -> None:
    from sheets import rendering  # noqa: PLC0415

    rendering.warm_up()


def _new_pool(workers: int) -> ProcessPoolExecutor:
    os.environ.setdefault("SOURCE_DATE_EPOCH", FIXED_EPOCH)
    return ProcessPoolExecutor(max_workers=workers, mp_context=get_context("spawn"), initializer=_worker_init)


def run_jobs(fn: Callable, jobs: list[tuple], workers: int | None = None,
             on_done: Callable[[int], None] | None = None, weight: Callable[[tuple], int] | None = None,
             shared: Workers | None = None, idle: Callable[[], bool] | None = None) -> list:
    """`fn(*job)` for each job, in order: in this process for one job, else on every core.

    Workers are spawned (they import WeasyPrint themselves), or taken from `shared`; on
    Ctrl-C, SIGTERM or an error every worker is stopped before the exception goes on.
    While workers work, `idle()` is called for small units of the caller's own next work
    (it returns False when it has nothing left).
    """
    results: list = [None] * len(jobs)
    workers = min(workers if workers is not None else cores(), len(jobs))
    # one job runs here, unless this process has its own work to do meanwhile (`idle`)
    if workers <= 1 and not (jobs and idle is not None and shared is not None and shared.workers > 1):
        for i, job in enumerate(jobs):
            results[i] = fn(*job)
            if on_done:
                on_done(i)
        return results
    from concurrent.futures import FIRST_COMPLETED, wait  # noqa: PLC0415

    pool = shared.get() if shared is not None else _new_pool(workers)
    try:
        # the biggest jobs first, so that the workers finish at about the same time
        order = sorted(range(len(jobs)), key=lambda i: -(weight(jobs[i]) if weight else 0))
        futures = {pool.submit(fn, *jobs[i]): i for i in order}
        pending, busy = set(futures), idle is not None
        while pending:
            busy = busy and idle()  # type: ignore[misc]
            done, pending = wait(pending, timeout=0 if busy else None, return_when=FIRST_COMPLETED)
            for future in sorted(done, key=lambda f: futures[f]):
                i = futures[future]
                results[i] = future.result()
                if on_done:
                    on_done(i)
    except BaseException:
        if shared is not None:
            shared.stop()
        else:
            _stop(pool)
        raise
    if shared is None:
        pool.shutdown(wait=True)
    return results


def make_pdfs(jobs: list[Job], workers: int | None = None,
              on_done: Callable[[int], None] | None = None) -> list[bytes]:
    """PDF bytes for each job, in order, using up to `workers` processes."""
    return run_jobs(_pdf_worker, jobs, workers, on_done, weight=lambda job: len(job[0]))


def _job(kind: str, *args):
    """One unit of work in a worker: a sheet's PDF, or a blank to stamp onto (PDF + layout)."""
    if kind == "blank":
        from sheets import stamping  # noqa: PLC0415

        return stamping.render_base(*args)
    return _pdf_worker(*args)


def build(sheets: list[Sheet], out_dir: Path, *, cache_dir: Path | None = None,
          workers: int | None = None, progress: Callable[[str], None] | None = None) -> list[Built]:
    """Render every sheet and write it atomically into `out_dir`.

    Laid-out sheets and the blanks that stamped sheets need are made together, in one
    pool on every core; stamped sheets are then drawn onto their (now cached) blanks.
    """
    output.ensure_dir(out_dir)
    with Workers(workers) as shared:
        nothing_cached = cache_dir is None or not cache_dir.is_dir() or next(cache_dir.glob("*.pdf"), None) is None
        if len(sheets) > 1 and nothing_cached:
            # every sheet will be laid out, on every core: start the workers now, and they
            # import WeasyPrint while this process renders the HTML
            shared.warm()
        return _build(sheets, out_dir, cache_dir, workers, progress, shared)


def _build(sheets: list[Sheet], out_dir: Path, cache_dir: Path | None, workers: int | None,
           progress: Callable[[str], None] | None, shared: Workers) -> list[Built]:
    everything = sheets
    stamped = [s for s in sheets if s.stamped]
    sheets = [s for s in sheets if not s.stamped]
    htmls = [render_html(s) for s in sheets]
    pdfs: list[bytes | None] = [None] * len(sheets)
    cached = [False] * len(sheets)
    keys = [_cache_key(h, s.forms, s.finish) for h, s in zip(htmls, sheets)]
    if cache_dir is not None:
        for i, key in enumerate(keys):
            hit = cache_dir / f"{key}.pdf"
            if hit.is_file():
                pdfs[i] = hit.read_bytes()
                cached[i] = True
                if progress:
                    progress(sheets[i].label or sheets[i].filename)
    todo = [i for i in range(len(sheets)) if pdfs[i] is None]
    blanks: dict[str, str] = {}
    if stamped:
        from sheets import stamping  # noqa: PLC0415

        blank_cache = cache_dir if cache_dir is not None else stamping.default_cache_dir()
        for sheet in stamped:
            if _stamped_hit(sheet, cache_dir) is None:
                blanks.update(stamping.missing_blanks(sheet.parts or [], blank_cache))

    def done(j: int) -> None:
        if progress and j < len(todo):
            s = sheets[todo[j]]
            progress(s.label or s.filename)

    jobs = [("pdf", htmls[i], sheets[i].forms, sheets[i].finish) for i in todo]
    jobs += [("blank", html) for html in blanks.values()]
    made = run_jobs(_job, jobs, workers, done, weight=lambda job: len(job[1]), shared=shared)
    shared.close()
    for i, pdf in zip(todo, made):
        pdfs[i] = pdf
        if cache_dir is not None:
            output.write_atomic(cache_dir / f"{keys[i]}.pdf", pdf)
    for key, (pdf, layout) in zip(blanks, made[len(todo):]):
        stamping.cache_write(blank_cache, key, pdf, layout)
    results: dict[int, Built] = {}
    for sheet, pdf, hit in zip(sheets, pdfs, cached):
        path = output.write_atomic(out_dir / sheet.filename, pdf)  # type: ignore[arg-type]
        results[id(sheet)] = Built(sheet, path, cached=hit)
    for sheet in stamped:
        results[id(sheet)] = _build_stamped(sheet, out_dir / sheet.filename, cache_dir, workers)
        if progress:
            progress(sheet.label or sheet.filename)
    return [results[id(s)] for s in everything]


def _stamped_hit(sheet: Sheet, cache_dir: Path | None) -> Path | None:
    if cache_dir is None:
        return None
    from sheets.stamping import STAMPER_VERSION  # noqa: PLC0415

    hit = cache_dir / f"stamped-{STAMPER_VERSION}-{_stamped_key(sheet)}.pdf"
    return hit if hit.is_file() else None


def _stamped_key(sheet: Sheet) -> str:
    h = hashlib.sha256()
    h.update(f"{_engine_version()}\0stamped\0{os.environ.get('SHEETS_NO_HB_SUBSET', '')}\0".encode())
    h.update(sheet.label.encode("utf-8") + b"\0")
    for blank, filled in sheet.parts or []:
        h.update(hashlib.sha256(render_html(blank).encode("utf-8")).digest())
        h.update(hashlib.sha256(render_html(filled).encode("utf-8")).digest())
    return h.hexdigest()


def _build_stamped(sheet: Sheet, target: Path, cache_dir: Path | None, workers: int | None) -> Built:
    """A stamped sheet, taken whole from the kit's cache when nothing in it changed."""
    from sheets import stamping  # noqa: PLC0415

    found = _stamped_hit(sheet, cache_dir)
    if found is not None:
        return Built(sheet, output.write_atomic(target, found.read_bytes()), cached=True)
    path = stamping.write_stamped(sheet.parts or [], target, title=sheet.context.get("title", ""),
                                  cache_dir=cache_dir, workers=workers)
    if cache_dir is not None:
        from sheets.stamping import STAMPER_VERSION  # noqa: PLC0415

        output.write_atomic(cache_dir / f"stamped-{STAMPER_VERSION}-{_stamped_key(sheet)}.pdf", path.read_bytes())
    return Built(sheet, path)


def build_one(sheet: Sheet, target: Path) -> Path:
    """Render one sheet to `target` (atomic)."""
    if sheet.stamped:
        from sheets import stamping  # noqa: PLC0415

        return stamping.write_stamped(sheet.parts or [], target, title=sheet.context.get("title", ""))
    html = render_html(sheet)
    return output.write_atomic(target, _pdf_worker(html, sheet.forms, sheet.finish))

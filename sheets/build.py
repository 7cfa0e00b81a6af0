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

from sheets import output, rendering


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


@dataclass
class Built:
    sheet: Sheet
    path: Path
    cached: bool = False  # taken from the cache, not rendered again


def render_html(sheet: Sheet) -> str:
    if sheet.html is None:
        sheet.html = rendering.render_html(sheet.template, sheet.context, sheet.game)
    return sheet.html


@lru_cache(maxsize=1)
def _engine_version() -> str:
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
    pdf = rendering.html_to_pdf(html, forms=forms)
    return finish(pdf) if finish is not None else pdf


Job = tuple[str, bool, "Finisher | None"]  # html, forms, finish step


def make_pdfs(jobs: list[Job], workers: int | None = None,
              on_done: Callable[[int], None] | None = None) -> list[bytes]:
    """PDF bytes for each job, in order, using up to `workers` processes."""
    results: list[bytes | None] = [None] * len(jobs)
    workers = workers if workers is not None else min(os.cpu_count() or 1, 2)
    if workers <= 1 or len(jobs) <= 1:
        for i, job in enumerate(jobs):
            results[i] = _pdf_worker(*job)
            if on_done:
                on_done(i)
        return results  # type: ignore[return-value]
    os.environ.setdefault("SOURCE_DATE_EPOCH", rendering.FIXED_EPOCH)
    with ProcessPoolExecutor(max_workers=workers, mp_context=get_context("spawn")) as pool:
        # longest documents first, so that the workers finish at about the same time
        order = sorted(range(len(jobs)), key=lambda i: -len(jobs[i][0]))
        futures = {pool.submit(_pdf_worker, *jobs[i]): i for i in order}
        from concurrent.futures import as_completed  # noqa: PLC0415

        for future in as_completed(futures):
            i = futures[future]
            results[i] = future.result()
            if on_done:
                on_done(i)
    return results  # type: ignore[return-value]


def build(sheets: list[Sheet], out_dir: Path, *, cache_dir: Path | None = None,
          workers: int | None = None, progress: Callable[[str], None] | None = None) -> list[Built]:
    """Render every sheet and write it atomically into `out_dir`."""
    output.ensure_dir(out_dir)
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

    def done(j: int) -> None:
        if progress:
            s = sheets[todo[j]]
            progress(s.label or s.filename)

    made = make_pdfs([(htmls[i], sheets[i].forms, sheets[i].finish) for i in todo], workers, done)
    for i, pdf in zip(todo, made):
        pdfs[i] = pdf
        if cache_dir is not None:
            output.write_atomic(cache_dir / f"{keys[i]}.pdf", pdf)
    results = []
    for sheet, pdf, hit in zip(sheets, pdfs, cached):
        path = output.write_atomic(out_dir / sheet.filename, pdf)  # type: ignore[arg-type]
        results.append(Built(sheet, path, cached=hit))
    return results


def build_one(sheet: Sheet, target: Path) -> Path:
    """Render one sheet to `target` (atomic)."""
    html = render_html(sheet)
    return output.write_atomic(target, _pdf_worker(html, sheet.forms, sheet.finish))

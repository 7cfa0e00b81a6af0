"""Stage two of the pipeline: sheets (template + context) -> HTML -> PDF -> files.

Stage one (loading content, rolling every die into plain render contexts, the pelican
way) ends in `Sheet`s; only then does `build` render. PDFs are cached by their HTML
(`sheets.pipeline.cache`: the same HTML gives the same bytes, so a hit is exact), and uncached
PDFs are made in worker processes (`sheets.pipeline.workers`) so both cores work.

A sheet whose PDF is not WeasyPrint's output as is (n-up card sheets) names a
`finish` step: WeasyPrint renders its HTML, then the step turns those pages into
the final PDF, in the same worker. The step's `key` joins the cache key. A stamped
sheet (`Sheet.parts`) is drawn onto cached blanks (`sheets.pipeline.stamp`).
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable

from sheets.base import interrupts, output
from sheets.pipeline import cache
from sheets.pipeline.layout_jobs import finished_pdf, layout_job
from sheets.pipeline.rendering import warm_up
from sheets.pipeline.sheet import Built, Finisher, Sheet, render_html
from sheets.pipeline.stamp.write import missing_blanks, write_stamped
from sheets.pipeline.workers import Pool

__all__ = ["Built", "Sheet", "build", "build_one", "make_pdfs", "render_html", "sheet_pdf"]

Job = tuple[str, bool, "Finisher | None"]  # html, forms, finish step


def layout_pool(workers: int | None = None) -> Pool:
    """A pool whose workers lay out: each imports WeasyPrint and loads the fonts as it starts."""
    return Pool(workers, warm_up=warm_up)


def make_pdfs(jobs: list[Job], workers: int | None = None) -> list[bytes]:
    """PDF bytes for each job, in order, using up to `workers` processes."""
    with layout_pool(workers) as pool:
        return pool.run(finished_pdf, jobs, weight=lambda job: len(job[0]))


def build(sheets: list[Sheet], out_dir: Path, *, cache_dir: Path | None = None,
          workers: int | None = None, progress: Callable[[str], None] | None = None,
          shared: Pool | None = None) -> list[Built]:
    """Render every sheet and write it atomically into `out_dir`.

    Laid-out sheets and the blanks that stamped sheets need are made together, in one
    pool on every core; stamped sheets are then drawn onto their (now cached) blanks.
    `shared`: the caller's pool, kept running for what it lays out next (a kit's
    contents page); without it the pool is this call's own, closed once the layout is done.
    """
    output.ensure_dir(out_dir)
    if shared is not None:
        built = _build(sheets, out_dir, cache_dir, workers, progress, shared, own=False)
    else:
        with layout_pool(workers) as own:
            built = _build(sheets, out_dir, cache_dir, workers, progress, own, own=True)
    cache.trim(cache_dir if cache_dir is not None else cache.default_dir())  # under its size bound
    return built


def _build(sheets: list[Sheet], out_dir: Path, cache_dir: Path | None, workers: int | None,
           progress: Callable[[str], None] | None, shared: Pool, own: bool) -> list[Built]:
    if len(sheets) > 1 and not cache.holds_any_sheet(cache_dir):
        # every sheet will be laid out, on every core: start the workers now, and they
        # import WeasyPrint while this process renders the HTML
        interrupts.phase("workers importing the layout engine")
        shared.start()
    everything = sheets
    stamped = [s for s in sheets if s.stamped]
    sheets = [s for s in sheets if not s.stamped]
    htmls = [render_html(s) for s in sheets]
    keys = [cache.sheet_key(h, s.forms, s.finish) for h, s in zip(htmls, sheets)]
    pdfs = _cached(sheets, keys, cache_dir, progress)
    cached = [pdf is not None for pdf in pdfs]
    todo = [i for i in range(len(sheets)) if pdfs[i] is None]
    blanks: dict[str, str] = {}
    blank_cache = cache_dir if cache_dir is not None else cache.default_dir()
    for sheet in stamped:
        if _stamped_hit(sheet, cache_dir) is None:
            blanks.update(missing_blanks(sheet.parts or [], blank_cache))

    jobs = [("pdf", htmls[i], sheets[i].forms, sheets[i].finish) for i in todo]
    jobs += [("blank", html) for html in blanks.values()]
    interrupts.phase("laying out")
    made = []
    for j, pdf in enumerate(shared.map(layout_job, jobs, weight=lambda job: len(job[1]))):
        made.append(pdf)
        if progress and j < len(todo):
            progress(sheets[todo[j]].label or sheets[todo[j]].filename)
    if own:
        shared.close()  # the layout is done: let the workers go before writing
    interrupts.phase("writing sheets")
    for i, pdf in zip(todo, made):
        pdfs[i] = pdf
        if cache_dir is not None:
            cache.write(cache.sheet_path(cache_dir, keys[i]), pdf)
    for key, (pdf, layout) in zip(blanks, made[len(todo):]):
        cache.write_blank(blank_cache, key, pdf, layout)
    results: dict[int, Built] = {}
    for sheet, pdf, hit in zip(sheets, pdfs, cached):
        path = output.write_atomic(out_dir / sheet.filename, pdf)  # type: ignore[arg-type]
        results[id(sheet)] = Built(sheet, path, cached=hit)
    for sheet in stamped:
        results[id(sheet)] = _build_stamped(sheet, out_dir / sheet.filename, cache_dir, workers,
                                            None if own else shared)
        if progress:
            progress(sheet.label or sheet.filename)
    return [results[id(s)] for s in everything]


def _cached(sheets: list[Sheet], keys: list[str], cache_dir: Path | None,
            progress: Callable[[str], None] | None) -> list[bytes | None]:
    """Each sheet's PDF from the cache, or None: to be laid out."""
    pdfs: list[bytes | None] = [None] * len(sheets)
    if cache_dir is not None:
        for i, key in enumerate(keys):
            pdfs[i] = cache.read(cache.sheet_path(cache_dir, key))
            if pdfs[i] is not None and progress:
                progress(sheets[i].label or sheets[i].filename)
    return pdfs


def _stamped_hit(sheet: Sheet, cache_dir: Path | None) -> Path | None:
    if cache_dir is None:
        return None
    hit = cache.stamped_path(cache_dir, sheet)
    return hit if hit.is_file() else None


def _build_stamped(sheet: Sheet, target: Path, cache_dir: Path | None, workers: int | None,
                   shared: Pool | None) -> Built:
    """A stamped sheet, taken whole from the kit's cache when nothing in it changed."""
    found = _stamped_hit(sheet, cache_dir)
    data = cache.read(found) if found is not None else None
    if data is not None:
        return Built(sheet, output.write_atomic(target, data), cached=True)
    path = _stamped_and_finished(sheet, target, cache_dir=cache_dir, workers=workers, pool=shared)
    if cache_dir is not None:
        cache.write(cache.stamped_path(cache_dir, sheet), path.read_bytes())
    return Built(sheet, path)


def _stamped_and_finished(sheet: Sheet, target: Path, **how) -> Path:
    """A stamped file, tagged and described as it is streamed to `target` (one pass, no
    scratch file: sheets.pdf.tagged); the whole file is written atomically, so an
    interrupted run never leaves an unfinished file under the target's name."""
    title = sheet.context.get("title", "")
    output.ensure_dir(target.parent)
    # a fillable file is the same streamed, tagged file, then its form fields added and tagged
    # (sheets.pipeline.stamp.widgets)
    return write_stamped(sheet.parts or [], target, title=title, forms=sheet.forms,
                         keywords=sheet.context.get("keywords") or "", **how)


def build_one(sheet: Sheet, target: Path, *, cache_dir: Path | None = None) -> Path:
    """Render one sheet to `target` (atomic); a laid-out sheet is taken from `cache_dir` (and
    put there) when given: the same HTML gives the same bytes, so a hit is exact."""
    if sheet.stamped:
        return _stamped_and_finished(sheet, target)
    return output.write_atomic(target, sheet_pdf(sheet, cache_dir))


def sheet_pdf(sheet: Sheet, cache_dir: Path | None = None) -> bytes:
    """A laid-out (not stamped) sheet's PDF, in this process: from `cache_dir` when it holds it,
    else laid out and put there (a command that lays a sheet out to measure it, then writes it,
    lays it out once)."""
    html = render_html(sheet)
    entry = cache.sheet_path(cache_dir, cache.sheet_key(html, sheet.forms, sheet.finish)) if cache_dir else None
    pdf = cache.read(entry) if entry is not None else None
    if pdf is None:
        pdf = finished_pdf(html, sheet.forms, sheet.finish)
        if entry is not None:
            cache.write(entry, pdf)
            cache.trim(cache_dir)
    return pdf

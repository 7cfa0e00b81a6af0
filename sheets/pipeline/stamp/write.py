"""A stamped PDF: every part's values drawn on its cached blank, streamed into the file.

`write_stamped` runs a job in three phases, on one set of worker processes:
  1. the blanks the cache lacks, and the parts that have no blank (a roster, a campaign
     record: laid out in full), are laid out, while this process renders the filled
     parts' HTML (Jinja) meanwhile;
  2. every part is planned and its overlay drawn, CHUNK parts at a time; a part that
     cannot be stamped exactly (a value the stamp font cannot draw, or that does not fit
     its box at the smallest type) is laid out in full instead, its values in flow;
  3. the pages are streamed into the target, chunk by chunk (temporary file, then rename),
     each chunk as it is taken from the workers, in order, while they draw the next ones
     (at most AHEAD chunks out at once: sheets.pipeline.workers; sheets.pipeline.stamp.out).
The workers are let go once the last chunk is drawn (when no part needs laying out in full):
they leave while the file is written.
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from sheets.base import interrupts, output
from sheets.pdf import tagged
from sheets.pdf.stream import open_source
from sheets.pipeline.workers import Pool
from sheets.pipeline import cache
from sheets.pipeline.sheet import Sheet, render_html
from sheets.pipeline.stamp.fields import Fields, fields_of
from sheets.pipeline.stamp.layout import render_base
from sheets.pipeline.stamp.out import CHUNK, Out as _Out
from sheets.pipeline.stamp.widgets import add_form, widgets_of
from sheets.pipeline.stamp import chunk
from sheets.pipeline.stamp.chunk import Plan, Taller, draw_chunk, overlay_pages, plan_chunk, plan_on, stamp_chunk, packed
from sheets.pipeline.stamp.overlay import draw_overlay, grown_html

if TYPE_CHECKING:
    import pikepdf

StampPart = tuple  # (blank Sheet or None, filled Sheet)
PLAN_AHEAD = 8 * CHUNK  # parts planned while the blanks are laid out, at most (bounds memory)
AHEAD = 2  # chunks drawn and not yet written, at most, beyond one a worker (bounds memory)


@dataclass
class Base:
    """A laid-out page source: the blank's PDF (footers taken out) and its layout."""

    key: str
    pdf: bytes
    layout: dict
    fields: Fields | None = None
    _reader: "pikepdf.Pdf | None" = None
    #: where the cache keeps this blank's pages as the tagged writer prepares them
    #: (sheets.pdf.tagged.prepared): read with the blank, written once they are all made
    prepared_at: Path | None = None
    _prepared_kept: bool = False

    @property
    def reader(self):
        if self._reader is None:
            self._reader = open_source(self.pdf)
            if self.prepared_at is not None:
                data = cache.read(self.prepared_at)
                self._prepared_kept = data is not None and tagged.load_prepared(self._reader, data)
        return self._reader

    def keep_prepared(self) -> None:
        """Its pages as the tagged writer prepared them, into the cache (once, when all are made)."""
        if self.prepared_at is None or self._prepared_kept or self._reader is None:
            return
        data = tagged.dump_prepared(self._reader, self.pages)
        if data is not None:
            cache.write(self.prepared_at, data)
            self._prepared_kept = True

    @property
    def pages(self) -> int:
        return len(self.layout["pages"])

    @property
    def read_fields(self) -> Fields:
        """Its fields, which the job reads with its blank's HTML (`StampJob.lay_out_bases`)."""
        assert self.fields is not None, self.key
        return self.fields

    def let_go(self) -> None:
        """Drawn for the last time: its bytes and what was read of them go (bounds memory)."""
        self.keep_prepared()
        if self._reader is not None:
            tagged.forget(self._reader)
        self._reader = None
        self.pdf = b""


def _same_shape_as_cached(layout: dict) -> dict:
    return json.loads(json.dumps(layout))  # tuples become lists, as in a cache hit


def _html_of(plan: Plan) -> str:
    """A part's filled HTML, which its plan keeps when the part must be laid out in full."""
    assert plan.html is not None, plan.key
    return plan.html


def missing_blanks(parts: list, cache_dir: Path | None) -> dict[str, str]:
    """{key: html} of the blanks these parts need that the cache does not hold."""
    found: dict[str, str] = {}
    for blank, _ in parts:
        if blank is None:
            continue
        html = render_html(blank)
        key = cache.blank_key(html)
        if key not in found and not cache.has_blank(cache_dir, key):
            found[key] = html
    return found


def read_now(pdf: bytes, between: Callable[[], None]):
    """A laid-out PDF opened and each of its pages made ready to be a tagged page's form
    (sheets.pdf.tagged.prepared), `between` called after each page (the workers' next jobs
    handed out): work done while this process would otherwise wait on its workers."""
    reader = open_source(pdf)
    for p in range(len(reader.pages)):
        tagged.prepared(reader, p)
        between()
    return reader


@dataclass
class StampJob:
    """One stamped PDF in the making: its parts, the bases they are drawn on, the workers."""

    parts: list[StampPart]
    target: Path
    title: str
    cache_dir: Path | None
    pool: Pool
    progress: Callable[[str], None] | None = None
    stats: dict | None = None
    own_pool: bool = True  # False: the caller's pool (a kit's), which the caller ends
    blank_html: dict[str, str] = field(default_factory=dict)  # key -> HTML of every base
    part_keys: list[str | None] = field(default_factory=list)  # each part's base (None: none yet)
    bases: dict[str, Base] = field(default_factory=dict)
    todo: list[str] = field(default_factory=list)  # blanks the cache does not hold
    keywords: str = ""  # the file's /Keywords (what rolled its dice: metadata, never on a page)
    forms: bool = False  # fillable: a form field at every field the blank leaves to the player
    planned: dict = field(default_factory=dict)  # part index -> its Plan, made while the blanks were laid out
    planned_on: dict = field(default_factory=dict)  # the (fields, layout) of the blanks those plans are on
    taller_laid_out: int = 0  # blanks with a growing box made taller, laid out by this job (`grow`)
    redrawn: int = 0  # chunks whose overlay was drawn again in this process (after a fallback)

    # -- phase 1: bases ---------------------------------------------------------
    def _prepared_at(self, key: str) -> Path | None:
        """Where the cache keeps blank `key`'s pages as the tagged writer prepares them."""
        return cache.prepared_path(self.cache_dir, key)

    def find_blanks(self) -> None:
        for blank, _ in self.parts:
            if blank is None:
                self.part_keys.append(None)
                continue
            html = render_html(blank)
            key = cache.blank_key(html)
            self.blank_html.setdefault(key, html)
            self.part_keys.append(key)
        for key in self.blank_html:
            hit = cache.read_blank(self.cache_dir, key)
            if hit is not None:
                self.bases[key] = Base(key, hit[0], hit[1], prepared_at=self._prepared_at(key))
            else:
                self.todo.append(key)

    def lay_out_bases(self) -> list[int]:
        """The missing blanks and the parts with no blank, laid out; returns those parts."""
        # parts with no blank (a roster, a campaign record) are laid out now, with the blanks,
        # so that every page count is known before anything is stamped
        direct = [i for i, k in enumerate(self.part_keys) if k is None]
        direct_html = {i: render_html(self.parts[i][1]) for i in direct}
        jobs = [(self.blank_html[k],) for k in self.todo] + [(direct_html[i],) for i in direct]
        interrupts.phase("laying out blanks")
        # this process's own work meanwhile; then, while the workers lay out the rest, each part
        # laid out in full read as it comes back (`opened`): its tree walked and its content read
        # now, not after every part is back, when this process alone writes the file
        opened: dict[int, pikepdf.Pdf] = {}
        made = self.laid_out(jobs, meanwhile=self._work_ahead(), opened=opened,
                             read=range(len(self.todo), len(jobs)))
        for key, (pdf, layout) in zip(self.todo, made):
            self.bases[key] = Base(key, pdf, layout, prepared_at=self._prepared_at(key))
        for j, (i, (pdf, layout)) in enumerate(zip(direct, made[len(self.todo):]), len(self.todo)):
            key = self.part_keys[i] = f"part-{i}"  # its own base: only its page footers are stamped on it
            self.bases[key] = Base(key, pdf, _same_shape_as_cached(layout), _reader=opened.get(j))
            self.blank_html[key] = direct_html.pop(i)
            self.parts[i][1].html = None
        for key, base in self.bases.items():
            base.fields = fields_of(self.blank_html[key])
        return direct

    def _work_ahead(self):
        """What this process does while the workers lay out, a step at a time: each filled part
        rendered (Jinja) and, when this process has its blank, planned as a worker would
        (`plan_chunk`, PLAN_AHEAD parts at most), so that the stamping only draws it; then the
        pages of the blanks those plans go on made ready to be forms (sheets.pdf.tagged.prepared)."""
        planning = self.planned_on  # key -> (fields, layout): the cached blanks, and taller ones found
        taller = Taller({}, self.cache_dir)
        for i, (key, (_, filled)) in enumerate(zip(self.part_keys, self.parts)):
            if key is not None and key in self.bases and len(self.planned) < PLAN_AHEAD:
                if key not in planning:
                    base = self.bases[key]
                    base.fields = base.fields or fields_of(self.blank_html[key])
                    planning[key] = (base.fields, base.layout)
                    if "data-grow" in self.blank_html[key]:
                        taller.html[key] = self.blank_html[key]
                self.planned[i] = plan_chunk(planning, [(key, filled)], self.forms, taller)[0]
            elif key is not None:
                render_html(filled)
            yield True
        plans = list(self.planned.values())
        self._load_taller(plans)
        yield from self._read_ahead(dict.fromkeys(p.key for p in plans if p.key in self.bases))

    def laid_out(self, jobs: list[tuple[str]], meanwhile=(), opened: dict | None = None,
                 read=()) -> list[tuple[bytes, dict]]:
        """Each HTML laid out in full (render_base), taken from the cache when it holds it (a
        blank, a part with no blank, a part that could not be stamped: the same HTML gives the
        same bytes), the rest laid out on the workers and cached. `meanwhile`: this process's
        own steps, taken while the workers lay out (each followed by handing out their next job),
        and only while they do. The jobs in `read` are read (`read_now`) into `opened` (job
        index -> source PDF) as each is had, in order, while the workers lay out the next."""
        keys = [cache.blank_key(html) for html, in jobs]
        made: list = [cache.read_blank(self.cache_dir, key) for key in keys]
        todo = [i for i, hit in enumerate(made) if hit is None]
        fresh = self.pool.map(render_base, [jobs[i] for i in todo], weight=lambda job: len(job[0]))
        for _ in meanwhile:
            fresh.poll()
            if not fresh.out:  # the workers are done: what is left is the stamping's (on every core)
                break
        wanted = set(read) if opened is not None else set()
        for i in sorted(wanted - set(todo)):  # the cache's, read while the workers lay out the rest
            if not fresh.out:  # none out (a warm run): read when the file is written, as before
                break
            opened[i] = read_now(made[i][0], fresh.poll)  # type: ignore[index]
        for i, (pdf, layout) in zip(todo, fresh):
            layout = _same_shape_as_cached(layout)
            cache.write_blank(self.cache_dir, keys[i], pdf, layout)
            made[i] = (pdf, layout)
            if i in wanted and fresh.out:  # none out: the rest is read when the file is written
                opened[i] = read_now(pdf, fresh.poll)  # type: ignore[index]
        return made

    # -- phase 2: plans and overlays ------------------------------------------------
    def plan_and_draw(self, out: "_Out") -> tuple[list[Plan], list[int]]:
        """Every chunk planned and drawn on the workers, and written into `out` as it is taken,
        in order, while they draw the next (the file grows while later chunks are drawn). A part
        that must be laid out in full changes the page count: then nothing is kept of `out`
        and the file is written after (`out.written` is 0)."""
        total = out.total = sum(self.bases[k].pages for k in self.part_keys if k is not None)
        chunks = -(-len(self.parts) // CHUNK)
        parallel = chunks > 1 and any(k is not None for k in self.part_keys) and self.pool.parallel(chunks)
        # on the workers, a page's content comes marked (marking.marked_pages): that work is
        # theirs, not this process's, which writes every page (in one process it gains nothing)
        jobs = self._chunk_jobs(total, parallel)
        interrupts.phase("stamping")
        if parallel:
            drawn = self.pool.map(stamp_chunk, jobs, ahead=self.pool.size + AHEAD)
            for _ in self._read_ahead():  # the bases parsed while the workers draw the first chunks
                drawn.poll()
            between = drawn.poll  # their next chunks handed out between two pages written
        else:
            if self.own_pool:
                self.pool.close()  # the workers laid out the blanks; the stamping is done here
            drawn = (stamp_chunk(*job) for job in jobs)  # type: ignore[assignment]
            between = None
        plans: list[Plan] = []
        for chunk_plans, data in drawn:
            if self.progress:
                for _ in chunk_plans:
                    self.progress(self.title)
            self._load_taller(chunk_plans)
            plans += chunk_plans
            if data is None:  # a part to lay out in full: the page count may change
                out.discard()
            elif out.live:
                if self.own_pool and parallel and drawn.back:
                    self.pool.close()  # all drawn, none to lay out: the workers go while the rest is written
                    between = None
                out.write(chunk_plans, data, between)
        fallback = [i for i, p in enumerate(plans) if p.ops is None]
        if fallback:  # lay those parts out in full; the page count may change, so draw again
            grown = self.grow(plans, fallback)
            fallback = [i for i in fallback if i not in grown]
            laid = self.laid_out([(_html_of(plans[i]),) for i in fallback])
            for i, (pdf, layout) in zip(fallback, laid):
                key = f"part-{i}"
                self.bases[key] = Base(key, pdf, _same_shape_as_cached(layout))
                plans[i] = Plan(key, [[] for _ in layout["pages"]], plans[i].footer)
            out.total = sum(self.bases[p.key].pages for p in plans)
        return plans, fallback

    def _packed_bases(self) -> dict:
        """Every base as a chunk's job sends it to a worker (`chunk.packed`: each blank pickled once)."""
        return {k: packed(k, b.read_fields, b.layout) for k, b in self.bases.items()}

    def _chunk_jobs(self, total: int, marked: bool) -> list[tuple]:
        """`stamp_chunk`'s arguments for each chunk: its blanks (each pickled once), its parts
        (a part planned already as its plan), its first page number and the page count."""
        blanks = self._packed_bases()
        jobs, first = [], 0
        for start in range(0, len(self.parts), CHUNK):
            keys = self.part_keys[start:start + CHUNK]
            items = [(k, self.planned.pop(start + j, None) or self._own_plan(k, filled))
                     for j, (k, (_, filled)) in enumerate(zip(keys, self.parts[start:start + CHUNK]))]
            mine = {k for k in keys if k is not None}
            drawn_on = mine | {plan.key for _, plan in items if isinstance(plan, Plan)}  # a taller blank, perhaps
            jobs.append(({k: blanks[k] if k in blanks else packed(k, *self.planned_on[k]) for k in drawn_on},
                         items, first, total, self.forms,
                         Taller({k: self.blank_html[k] for k in mine if "data-grow" in self.blank_html[k]},
                                self.cache_dir), marked))
            first += sum(self.bases[k].pages for k in keys if k is not None)
        return jobs

    def _own_plan(self, key: str | None, filled: Sheet):
        """A part laid out in full (its own base, only footers to draw), planned from its base's fields."""
        if key is None or not key.startswith("part-"):
            return filled
        base = self.bases[key]
        return plan_on(key, base.read_fields, base.layout, self.blank_html[key], self.forms, base.fields)

    def _load_taller(self, plans: list[Plan]) -> None:
        """The taller blanks (`Taller`) a worker planned these parts on, read from the cache."""
        for plan in plans:
            if plan.grown_from is None or plan.key in self.bases:
                continue
            html = self.blank_html[plan.key] = grown_html(self.blank_html[plan.grown_from], plan.grow or {})
            hit = cache.read_blank(self.cache_dir, plan.key)
            if hit is None:  # trimmed by another command meanwhile: the same HTML gives the same bytes
                self.taller_laid_out += 1
                pdf, layout = render_base(html)
                hit = (pdf, _same_shape_as_cached(layout))
                cache.write_blank(self.cache_dir, plan.key, *hit)
            self.bases[plan.key] = Base(plan.key, hit[0], hit[1], fields_of(html),
                                        prepared_at=self._prepared_at(plan.key))

    def grow(self, plans: list[Plan], fallback: list[int]) -> set[int]:
        """The parts that do not fit their blank only because a growing box (`data-grow`, an
        audit trail) is too short for their text: each stamped on its blank with that box as
        tall as its lines, a blank of its own (laid out once, cached, shared by every part that
        needs the same heights) instead of the part laid out in full. Returns those parts."""
        wanted: dict[int, str] = {}
        for i in fallback:
            heights, key = plans[i].grow, self.part_keys[i]
            if not heights or key is None:
                continue
            html = grown_html(self.blank_html[key], heights)
            taller = cache.blank_key(html)
            self.blank_html.setdefault(taller, html)
            wanted[i] = taller
        todo = [k for k in dict.fromkeys(wanted.values()) if k not in self.bases]
        self.taller_laid_out += sum(1 for k in todo if not cache.has_blank(self.cache_dir, k))
        for key, (pdf, layout) in zip(todo, self.laid_out([(self.blank_html[k],) for k in todo])):
            self.bases[key] = Base(key, pdf, _same_shape_as_cached(layout), fields_of(self.blank_html[key]),
                                   prepared_at=self._prepared_at(key))
        grown = set()
        for i, key in wanted.items():
            base = self.bases[key]
            plan = plan_on(key, base.read_fields, base.layout, _html_of(plans[i]), self.forms)
            if plan.ops is not None:
                plan.grow, plan.grown_from = plans[i].grow, self.part_keys[i]
                plans[i] = plan
                grown.add(i)
        return grown

    def _read_ahead(self, keys=None):
        """Each base's pages made ready to be forms (sheets.pdf.tagged.prepared), one page a step:
        the parts' bases, or those of `keys`."""
        for key in keys if keys is not None else dict.fromkeys(k for k in self.part_keys if k is not None):
            base = self.bases[key]
            for p in range(base.pages):
                tagged.prepared(base.reader, p)
                yield True

    # -- phase 3: the file --------------------------------------------------------
    def stream(self, plans: list[Plan], out: "_Out") -> None:
        """The chunks not written yet (all of them after a fallback: drawn again on the final
        page count, on the workers when there are several, written in order as each is taken,
        as `plan_and_draw` writes them), then the file closed."""
        out.settle()
        todo = range(out.written, -(-len(plans) // CHUNK))
        chunks = [plans[c * CHUNK:(c + 1) * CHUNK] for c in todo]
        self.redrawn += len(chunks)
        if len(chunks) > 1 and self.pool.running:  # workers still up (started again, they would cost more than they save)
            drawn = self.pool.map(draw_chunk, self._redraw_jobs(chunks, out.number, out.total),
                                  ahead=self.pool.size + AHEAD)
            for chunk, (_, data) in zip(chunks, drawn):
                if self.own_pool and drawn.back and self.pool.running:
                    self.pool.close()  # all drawn: the workers go while the rest is written
                out.write(chunk, data, drawn.poll if self.pool.running else None)
        else:
            for chunk in chunks:
                out.write(chunk, draw_overlay(overlay_pages(chunk, self.bases, out.number, out.total)))
        out.commit()

    def _redraw_jobs(self, chunks: list[list[Plan]], first: int, total: int) -> list[tuple]:
        """`draw_chunk`'s arguments for each chunk: the bases its parts are drawn on (each blank
        pickled once), its first page number, the page count, and that it comes marked (the
        chunks are drawn again on the workers only when there are several)."""
        blanks, jobs = self._packed_bases(), []
        for chunk_plans in chunks:
            jobs.append(({p.key: blanks[p.key] for p in chunk_plans}, chunk_plans, first, total, True))
            first += sum(self.bases[p.key].pages for p in chunk_plans)
        return jobs

    def add_form(self, plans: list[Plan]) -> None:
        """The stamped file with its form fields (sheets.pipeline.stamp.widgets)."""
        sizes: list[tuple[float, float]] = []
        pages: list[list] = []
        for i, plan in enumerate(plans):
            base = self.bases[plan.key]
            sizes += [(p["width"], p["height"]) for p in base.layout["pages"]]
            if plan.values is None or base.fields is None:  # laid out in full: its values printed
                pages += [[] for _ in base.layout["pages"]]
            else:
                pages += widgets_of(base.layout, base.fields.values, plan.values, i)
        output.write_atomic(self.target, add_form(self.target.read_bytes(), sizes, pages))

    def run(self) -> Path:
        self.find_blanks()
        direct = self.lay_out_bases()
        t0 = time.perf_counter()
        with _Out(self) as out:
            plans, fallback = self.plan_and_draw(out)
            t1 = time.perf_counter()
            if self.own_pool and not fallback and out.live:
                self.pool.close()  # the workers' part is done: they go (after a fallback, once they have drawn again)
            if self.stats is not None:
                laid_out = len(fallback) + len(direct)
                self.stats.update(stamped=len(self.parts) - laid_out, no_blank=len(direct),
                                  grown=sum(1 for p in plans if p.grown_from),
                                  laid_out=laid_out, blanks_rendered=len(self.todo),
                                  chunks=-(-len(self.parts) // CHUNK), plan_draw_s=round(t1 - t0, 3))
            self.stream(plans, out)
        for base in self.bases.values():  # the blanks' prepared pages, for the next file stamped on them
            base.keep_prepared()
        if self.forms:
            self.add_form(plans)
        if self.stats is not None:
            self.stats.update(write_s=round(time.perf_counter() - t1, 3), taller_laid_out=self.taller_laid_out,
                              redrawn=self.redrawn)
        return self.target


def write_stamped(parts: list[StampPart], target: Path, *, title: str = "", cache_dir: Path | None = None,
                  workers: int | None = None, progress: Callable[[str], None] | None = None,
                  stats: dict | None = None, pool: Pool | None = None,
                  forms: bool = False, keywords: str = "") -> Path:
    """Stamp every part onto its cached blank and stream the pages into `target` (atomic).

    Big jobs are split in chunks of CHUNK parts, planned and drawn on every core (`workers`
    processes, or the caller's `pool`: a kit's, whose workers have WeasyPrint imported already);
    the pages are streamed to disk chunk by chunk, tagged and described as they are written
    (sheets.pdf.tagged.TaggedPdf).
    """
    chosen = cache_dir if cache_dir is not None else cache.default_dir()
    where: Path | None = chosen
    try:
        chosen.mkdir(parents=True, exist_ok=True)
    except OSError:
        where = None  # a cache we cannot make is only slower
    if pool is not None:
        written = StampJob(parts, target, title, where, pool, progress, stats, own_pool=False,
                           forms=forms, keywords=keywords).run()
    else:
        with Pool(workers, warm_up=chunk.warm_up) as own:  # started once, for every phase that needs them
            if len(parts) > CHUNK:
                own.start()  # its workers start Python while this process renders the blanks' HTML
            written = StampJob(parts, target, title, where, own, progress, stats,
                               forms=forms, keywords=keywords).run()
    cache.trim(where)  # under its size bound
    return written

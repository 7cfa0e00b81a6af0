"""A stamped file as it is written: chunk by chunk into a temporary file beside the target,
renamed over it at the end (atomic), so that the file grows while the workers still draw the
later chunks (sheets.pipeline.stamp.write). `discard` drops what was written (a part that must
be laid out in full changes the page count, so every footer): the file is then written again,
from the start, by the same calls in the same order, so the bytes are the same either way.
"""
from __future__ import annotations

import os
import tempfile
from contextlib import contextmanager
from typing import BinaryIO, Callable

from sheets.base import interrupts, output
from sheets.pdf.stream import open_source
from sheets.pipeline.stamp.chunk import Drawn
from sheets.pdf.tagged import TaggedPdf

CHUNK = 25  # parts per overlay document (bounds memory; a worker's unit of work)


class Out:
    """The target's temporary file and the PDF written into it (see the module)."""

    def __init__(self, job) -> None:
        self.job = job  # the StampJob: its target, title, bases
        self.total = 0  # pages in the whole file (the footers' "page N of M")
        self.written = 0  # chunks written
        self.number = 0  # pages written
        self.live = True  # False once discarded: nothing more goes in until `reopen`
        self.sure = False  # the page count is final: what is written stays
        self._later: list = []  # bases drawn for the last time, let go when the file is sure
        self._tmp: str | None = None
        self._target = self.job.target
        self._handle: BinaryIO | None = None
        self._pdf: TaggedPdf | None = None

    # -- the temporary file ------------------------------------------------------
    @contextmanager
    def _errors(self):
        try:
            yield
        except OSError as exc:
            raise output.OutputError(f"cannot write {self.job.target}: {exc.strerror or exc}") from None

    def _open(self) -> TaggedPdf:
        target = self._target = output.through_links(self.job.target)  # a link stays a link: its file is written
        with self._errors():
            output.ensure_dir(target.parent)
            interrupts.phase("writing the stamped file")
            prefix = f".{target.name}."
            output.sweep_stale(target.parent, prefix)  # what a killed run (SIGKILL: no clean-up) left
            with interrupts.held():  # a Ctrl-C waits until the name is known, so that it is removed
                fd, self._tmp = tempfile.mkstemp(prefix=output.scratch_prefix(prefix), suffix=".tmp",
                                                 dir=target.parent)
            handle = self._handle = os.fdopen(fd, "wb")
        self._pdf = TaggedPdf(handle, self.job.title, keywords=self.job.keywords)
        return self._pdf

    def discard(self) -> None:
        """Nothing written is kept (see the module)."""
        self.live = False
        self.written = self.number = 0
        self._pdf = None
        self._later = []  # drawn again from the start: kept
        self._drop()

    def settle(self) -> None:
        """The page count is final (the workers are done): what is written from now on stays,
        and a base drawn for the last time is let go at once."""
        self.live = self.sure = True
        self._let_go()

    def _drop(self) -> None:
        handle, self._handle = self._handle, None
        tmp, self._tmp = self._tmp, None
        try:
            if handle is not None:
                handle.close()  # on a full disk, its last flush raises: the file is removed all the same
        finally:
            if tmp and os.path.exists(tmp):
                os.unlink(tmp)

    # -- the pages ---------------------------------------------------------------
    def write(self, chunk: list, data, between: Callable[[], None] | None = None) -> None:
        """One chunk's parts: each page its base's page with the chunk's overlay page on top.
        `data`: the overlay PDF, or a worker's `Drawn` (the overlay with its pages' content
        marked already). `between`: called after each page (the workers'
        next chunks handed out while this process writes: sheets.pipeline.stamp.write)."""
        pdf, bases = self._pdf or self._open(), self.job.bases
        marked = data.pages if isinstance(data, Drawn) else None
        overlay = open_source(data.pdf if isinstance(data, Drawn) else data)
        source, n = f"overlay-{self.written * CHUNK}", 0
        with self._errors(), overlay:
            for plan in chunk:
                base = bases[plan.key]
                for p, page in enumerate(base.layout["pages"]):
                    form, size = pdf.form(plan.key, base.reader, p), (page["width"], page["height"])
                    if marked is not None and pdf.tagged(form):
                        resources = overlay.pages[n].obj.get("/Resources")
                        pdf.add_marked_page(form, size, source, resources, *marked[n])
                    else:
                        pdf.add_page(form, size, source, overlay.pages[n])
                    n += 1
                    self.number += 1
                    if between is not None:
                        between()
                if plan.key.startswith("part-"):  # a part's own base: drawn here only
                    pdf.forget(plan.key)
                    self._later.append(base)
        self.written += 1
        if self.sure:
            self._let_go()

    def _let_go(self) -> None:
        for base in self._later:
            base.let_go()
        self._later = []

    def commit(self) -> None:
        """The file closed, flushed and renamed over the target."""
        pdf = self._pdf or self._open()
        handle, tmp = self._handle, self._tmp
        assert handle is not None and tmp is not None  # the file is open (`_open`)
        with self._errors():
            pdf.close()
            handle.flush()
            os.fsync(handle.fileno())
            handle.close()
            self._handle = None
            os.chmod(tmp, 0o644)
            os.replace(tmp, self._target)
            self._tmp = None

    def __enter__(self) -> "Out":
        return self

    def __exit__(self, kind, exc, tb) -> None:
        self._drop()  # a file not committed (an error, an interrupt) is removed

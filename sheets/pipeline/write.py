"""The one writer: a command's sheets to files, where its options say (`write`).

Every command that prints ends here, so the choice between a file, a folder and one merged
file is made once. A printable of its own (a reference, a playbook, a log sheet) goes where
`PrintOptions.target` says: `-o FILE.pdf`, `-o` an existing folder, or the output root. A set
(a game's card sets, what `sheets watch` rebuilds) goes into a folder, `-o`'s (made if need
be) or the output root; a set that has a title (`merged`) is merged into one file under that
title when `-o` names a .pdf file.

A sheet laid out before (the same HTML: the same paper, values and content) is taken from the
one cache (`sheets.pipeline.cache`, keyed by its HTML, so a hit is exact), as the kit's parts
are: printing a reference or a card set again costs no layout.
"""
from __future__ import annotations

import tempfile
from pathlib import Path

from sheets.base import output
from sheets.base.options import PrintOptions
from sheets.pipeline import cache
from sheets.pipeline.build import build, build_one
from sheets.pipeline.sheet import Sheet, ink_save
from sheets.pdf.merge import merge_pdfs


def write(sheets: list[Sheet], options: PrintOptions, *, folder: bool = False,
          merged: str | None = None) -> list[Path]:
    """Ink-save `sheets` as the options ask, lay them out and write them: each where the options
    put a printable (`folder`: into a folder; `merged`: the title of the one file `-o FILE.pdf`
    makes of a set). The paths written, in order."""
    sheets = ink_save(sheets, options.ink_saver)
    laid_out = cache.default_dir()  # the one cache: a sheet printed before is not laid out again
    if not folder:
        return [build_one(sheet, options.target(sheet.filename), cache_dir=laid_out) for sheet in sheets]
    out = options.output
    if merged is not None and out is not None and Path(out).suffix.lower() == ".pdf" and not Path(out).is_dir():
        if len(sheets) == 1:
            return [build_one(sheets[0], Path(out), cache_dir=laid_out)]
        output.ensure_dir(Path(out).parent)
        with tempfile.TemporaryDirectory(prefix=".cards-", dir=Path(out).parent) as tmp:
            built = build(sheets, Path(tmp), cache_dir=laid_out)
            return [output.write_atomic(Path(out), merge_pdfs([b.path for b in built], title=merged))]
    return [b.path for b in build(sheets, options.folder(), cache_dir=laid_out)]

"""What a worker lays out: a sheet's PDF, or a blank to stamp onto (PDF + field layout).

A module of its own so that a worker imports the layout side only (WeasyPrint, Jinja,
fontTools, and pikepdf for the last pass over each PDF), not the stamper (reportlab and its
writer), which `sheets.pipeline.build` brings: each worker starts faster and some 10 MB lighter.
"""
from __future__ import annotations

from sheets.pdf.finish import finish_pdf
from sheets.pipeline.sheet import pdf_of_html
from sheets.pipeline.stamp.layout import render_base


def finished_pdf(html: str, forms: bool, finish=None) -> bytes:
    """A sheet's PDF as it is written: laid out, finished (cards imposed, and tagged as they are:
    `writes_tagged`), then described and boxed (sheets.pdf.finish, pikepdf)."""
    return finish_pdf(pdf_of_html(html, forms, finish), marked=getattr(finish, "writes_tagged", False))


def layout_job(kind: str, *args):
    """One unit of work in a worker: ("pdf", html, forms, finish) or ("blank", html)."""
    if kind == "blank":
        return render_base(*args)
    return finished_pdf(*args)

"""What a worker lays out: a sheet's PDF, or a blank to stamp onto (PDF + field layout).

A module of its own so that a worker imports the layout side only (WeasyPrint, Jinja,
fontTools), not the stamper's reportlab and pypdf, which `sheets.pipeline.build` brings: each
worker starts faster and some 10 MB lighter.
"""
from __future__ import annotations

from sheets.pipeline.sheet import pdf_of_html
from sheets.pipeline.stamp.layout import render_base


def layout_job(kind: str, *args):
    """One unit of work in a worker: ("pdf", html, forms, finish) or ("blank", html)."""
    if kind == "blank":
        return render_base(*args)
    return pdf_of_html(*args)

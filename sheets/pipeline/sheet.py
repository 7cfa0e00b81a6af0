"""What a printable is before it is a PDF: a `Sheet` (template, context, where it goes).

Stage one of the pipeline (loading content, rolling dice) ends in Sheets; stage two
(`sheets.pipeline.build`) turns them into files. `render_html` is the only step between the two
that every stage-two path shares: Jinja only, no layout engine.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from sheets.base import fonts
from sheets.pipeline import rendering
from sheets.pdf.forms import finish_form  # light: pikepdf is imported when a form is finished


class Finisher(Protocol):
    """Turns the PDF WeasyPrint made of a sheet's HTML into the final PDF.

    It runs in worker processes, so it must pickle; it must be deterministic; and
    `key` must name everything that changes its output (it joins the cache key).
    It may raise SheetsError (e.g. a card whose text does not fit). A page it draws from
    forms carrying their page's tags (sheets.pdf.carried: an imposed card) is tagged by the
    last pass, each drawing one element of its page (sheets.pdf.finish).
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
    # the game's plug-in (game.yaml's `plugin:`, `Game.templates`): its templates folder is
    # searched before the shared one. Not the game's id: a copy of a game under a new id prints
    # as its source does, and no id can reach the tool's own templates (the desk's `web`)
    templates: str | None = None
    forms: bool = False
    label: str = ""
    copies: str | None = None  # how many, for whom, when it differs from its kind's printing advice
    # the options that make this sheet again (a card set's --set and --layout): a command the
    # kit's contents page prints for it (its backs) carries them
    reprint: dict[str, str] = field(default_factory=dict)
    html: str | None = field(default=None, repr=False)
    finish: Finisher | None = None  # e.g. card imposition; None: WeasyPrint's PDF is the sheet
    # stamped: (blank, filled) sheet pairs, one per character/mission, in order. The PDF is
    # then each blank laid out once (cached) with the filled values drawn on it
    # (sheets.pipeline.stamp), not the whole HTML laid out; `template`/`context` stay the
    # laid-out equivalent (the reference in tests). With `forms`, the stamped file gets a form
    # field at each field the blank leaves to the player (sheets.pipeline.stamp.widgets).
    parts: list[tuple["Sheet", "Sheet"]] | None = field(default=None, repr=False)

    @property
    def stamped(self) -> bool:
        return bool(self.parts)


@dataclass
class Built:
    sheet: Sheet
    path: Path
    cached: bool = False  # taken from the cache, not rendered again


def render_html(sheet: Sheet) -> str:
    """The sheet's HTML (Jinja), rendered once and kept on the sheet."""
    if sheet.html is None:
        sheet.html = rendering.render_html(sheet.template, sheet.context, sheet.templates,
                                           sheet.context.get(rendering.OWN_TEMPLATES))
        fonts.check_text(sheet.html)  # letters no font here has: the command says so once
    return sheet.html


def ink_save(sheets: list[Sheet], on: bool = True) -> list[Sheet]:
    """Ink-saver mode: the shared stylesheet swaps solid fills for outlines and tints."""
    if on:
        for sheet in sheets:
            # a stamped sheet's blanks and filled parts too (a blank shared by parts is set once)
            for one in [sheet, *(s for pair in sheet.parts or [] for s in pair if s is not None)]:
                one.context["ink_saver"] = True
                one.html = None
    return sheets


def pdf_of_html(html: str, forms: bool, finish: Finisher | None = None) -> bytes:
    """WeasyPrint's PDF of `html`, finished (runs in a worker: WeasyPrint is imported there)."""
    pdf = rendering.html_to_pdf(html, forms=forms)
    if forms:  # a form every reader fills and shows alike (appearances, field tree, tooltips)
        pdf = finish_form(pdf)
    return finish(pdf) if finish is not None else pdf

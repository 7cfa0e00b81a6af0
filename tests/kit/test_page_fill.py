"""Pages that flow (issue 47, item 6): no page of any part of `sheets kit` (A4) or `sheets kit
--paper letter --players 4` holds less than a fifth of a page body where the page before had room
for all it holds (tests/pagefill.py: ink measured with PDFium below the header band and above the
footer).

A page is excepted only where its part says, as data, that it starts one thing of its own:
- a card part's pages are sheets of cards imposed n-up, each page of backs behind its fronts
  (its sheet's finish is an `Imposition`): a sheet of cards does not flow into the one before;
- a kind whose builder lays its sheet out page by page (its context's `pages`: a tracker, a page
  of tokens, a page of gauges each on a page of their own, by their templates) has each of those
  pages excepted where it begins: the page whose first line is that page's title (a tracker's),
  or, for pages without a title, every page when the part has exactly as many pages as its
  builder made (a page that ran over is then measured like any other);
- a reference part that starts its own page (`own_page`, the designer's notes; or a part laid out
  in columns), where its title begins a page.

The kits are the run's shared builds (conftest's `whole_kit`, `whole_kit_letter_4`), read back,
never built again here; the plan (`sheets.kit.plan`, no layout) tells what each part is."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pymupdf
import pytest

from pagefill import BOTTOM_MARGIN_MM, TOP_MARGIN_MM, short_pages
from sheets.kinds.cards.impose import Imposition
from sheets.kinds.print_plugin import KitOptions
from sheets.kit.plan import kit_sheets
from sheets.library.content import Library
from sheets.pipeline.sheet import Sheet

MM = 72 / 25.4
KITS = {"a4": ("whole_kit", KitOptions(seed=7)),
        "letter-4": ("whole_kit_letter_4", KitOptions(paper="letter", seed=7, players=4))}


def _squash(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "", text.lower())


def _first_lines(pdf: Path) -> list[str]:
    """Per page, its first line of body text (below the header band), squashed."""
    out = []
    with pymupdf.open(pdf) as doc:
        for page in doc:
            lines = [(line["bbox"][1], "".join(span["text"] for span in line["spans"]))
                     for block in page.get_text("dict")["blocks"] for line in block.get("lines", ())
                     if line["bbox"][1] > TOP_MARGIN_MM * MM]
            out.append(_squash(min(lines)[1]) if lines else "")
    return out


def _own_page_titles(sheet: Sheet) -> tuple[list[str], int]:
    """(the titles of the things the sheet starts on a page of their own, the number of pages its
    builder laid out one by one, 0 for none), from its context."""
    context = sheet.context or {}
    titles = [part["title"] for part in context.get("parts", ())
              if part.get("own_page") or (part.get("layout") is not None and getattr(part["layout"], "columns", 1) > 1)]
    laid = list(context.get("pages", ()))
    titles += [page.tracker.title for page in laid if hasattr(page, "tracker")]
    return [_squash(t) for t in titles], len(laid)


def _exempt(pdf: Path, sheet: Sheet | None) -> frozenset[int] | None:
    """The 1-based pages of `pdf` that start a thing of their own by its part's data; None: every
    page (a sheet of cards)."""
    if sheet is None:  # a part the plan does not hold as one sheet (a player's packet): every page measured
        return frozenset()
    if isinstance(sheet.finish, Imposition):
        return None
    titles, laid = _own_page_titles(sheet)
    firsts = _first_lines(pdf)
    if laid and laid == len(firsts) and not titles:
        return frozenset(range(1, laid + 1))
    return frozenset(n for n, first in enumerate(firsts, 1) if titles and any(first.startswith(t) for t in titles))


@pytest.fixture(scope="module", params=list(KITS))
def kit(request) -> tuple[Path, dict[str, Sheet]]:
    fixture, options = KITS[request.param]
    folder = request.getfixturevalue(fixture).folder
    return folder, {s.filename: s for s in kit_sheets(Library(), options)}


def test_the_measure_sees_a_page_the_one_before_could_have_taken(tmp_path):
    from sheets.pipeline.rendering import html_to_pdf

    def pdf(body: str) -> bytes:  # the kit's page margins (templates/_base/base.css)
        return html_to_pdf(f"<html><head><style>@page {{ size: A4; margin: {TOP_MARGIN_MM}mm 9mm "
                           f"{BOTTOM_MARGIN_MM}mm 9mm }}</style></head><body>{body}</body></html>")

    half, last = "<div style='height: 130mm; border: 1pt solid black'></div>", "<p>The last words.</p>"
    flowed, forced = pdf(half + last), pdf(half + "<p style='break-before: page'>The last words.</p>")
    assert pymupdf.open(stream=flowed).page_count == 1 and short_pages(flowed) == []
    problems = short_pages(forced)
    assert len(problems) == 1 and problems[0].startswith("page 2 holds"), problems
    assert short_pages(forced, exempt=frozenset({2})) == []
    full = pdf("<div style='height: 272mm; border: 1pt solid black'></div>" + last)  # no room before: not short
    assert pymupdf.open(stream=full).page_count == 2 and short_pages(full) == []
    more = pdf(half + "<div style='break-before: page; height: 60mm; border: 1pt solid black'></div>")
    assert short_pages(more) == []  # more than a fifth of a page: a page of its own may hold it


def test_no_page_of_any_part_holds_what_the_page_before_had_room_for(kit):
    folder, sheets = kit
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    parts = [f["path"] for f in manifest["files"] if f["kind"] != "kit" and f["path"].endswith(".pdf")]
    assert len(parts) > 20 and all((folder / p).exists() for p in parts)  # every game's parts
    assert any(f["pages"] > 1 for f in manifest["files"] if f["path"] in parts)
    found, measured = {}, 0
    for part in parts:
        exempt = _exempt(folder / part, sheets.get(Path(part).name))
        if exempt is None:
            continue
        measured += 1
        if problems := short_pages(folder / part, exempt):
            found[part] = problems
    assert measured > 10  # the references, trackers, sheets and packets, not only the excepted cards
    assert found == {}


def test_a_tracker_that_runs_over_is_measured(kit):
    """The exception of a page-by-page part holds only where one of its pages begins: a tracker's
    own second page is measured (the Letter platoon tracker's rule text alone on one, issue 47)."""
    folder, sheets = kit
    trackers = [(name, s) for name, s in sheets.items() if any(hasattr(p, "tracker") for p in s.context.get("pages", ()))]
    assert trackers
    for name, sheet in trackers:
        exempt = _exempt(folder / name, sheet)
        assert exempt is not None and len(exempt) == len(sheet.context["pages"]), (name, sorted(exempt or ()))

"""The kit as one product: `kit.pdf` (contents page + every part + bookmarks) and `manifest.json`.

Works on finished files: it takes the list of PDFs a build wrote (whatever sheets
the kit holds) and merges them with pikepdf (qpdf; never WeasyPrint's Document.copy, which
upstream discourages). How each part is printed is data (`content/_print/printing.yaml`),
keyed by the template the sheet was made from, so new kinds of sheet only add a line there.
"""
from __future__ import annotations

import hashlib
import io
import json
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Literal

import pypdfium2 as pdfium
from markupsafe import Markup, escape
from pydantic import Field

from sheets import __version__
from sheets.base import interrupts, output, paths
from sheets.base.errors import ContentError, Problem
from sheets.base.userfiles import content_files
from sheets.base.paper import PAPERS, paper_name
from sheets.kinds import registry, style
from sheets.library import assets
from sheets.library.content import Library
from sheets.library.validation import Strict, collect
from sheets.library.yaml_source import load_yaml
from sheets.pipeline import cache, rendering
from sheets.pipeline.sheet import Sheet
from sheets.pipeline.stamp.write import write_stamped
from sheets.pdf.merge import merge_pdfs
from sheets.pipeline.workers import Pool

with interrupts.held():  # a Ctrl-C while pikepdf registers its C++ types aborts the process
    import pikepdf

KIT_PDF = "kit.pdf"
MANIFEST = "manifest.json"
PRINTING_FILE = "_print/printing.yaml"


class PrintHow(Strict):
    """How to print one kind of sheet."""
    templates: list[str] = []
    sides: Literal["one", "two"] = "one"
    flip: Literal["long", "short"] | None = None
    cut: str | None = None
    fold: str | None = None
    copies: str = "one"
    # a command that prints what goes with the part but is not in the kit (a card set's backs):
    # the contents page lists it in its colophon, not in the part's row a person reads
    command: str | None = None
    #: what prints on the reverse, said with the flip edge (cards: each page of backs behind its fronts)
    reverse: str | None = None

    def command_for(self, game: str | None = None, paper: str | None = None,
                    options: dict[str, str] | None = None, run: dict[str, str] | None = None) -> str | None:
        """The part's command (`command`), carrying the paper, the part's options and the run's."""
        if not self.command:
            return None
        return _with_options("`" + self.command.replace("{game}", game or "GAME") + "`",
                             _given(paper, options, run)).strip("`")

    def steps(self, game: str | None = None, paper: str | None = None,
              options: dict[str, str] | None = None, run: dict[str, str] | None = None) -> list[str]:
        """The instructions as short phrases, in the order a person does them ({game}: the game's id).
        A command they name (`sheets ...`) carries the paper the part is printed on (`--paper letter`)
        and `options` (the part's own, such as a card set's --set and --layout, and the run's, such as
        its --duplex edge), so that what it prints matches the part whatever sheets.toml says."""
        reverse = f" ({self.reverse})" if self.reverse else ""
        out = [f"two-sided{reverse}, flip on the " + (self.flip or "long") + " edge" if self.sides == "two" else "one-sided"]
        if self.cut:
            out.append("cut " + self.cut)
        if self.fold:
            out.append("fold " + self.fold)
        out.append("copies: " + self.copies.replace("{game}", game or "GAME"))
        given = _given(paper, options, run)
        return [_with_options(step, given) for step in out]


def _given(paper: str | None, options: dict[str, str] | None, run: dict[str, str] | None) -> dict[str, str]:
    """The options a part's command carries: its own, its paper's and the run's."""
    paper = (paper or "").removesuffix("-landscape")
    return {**(options or {}), **({"--paper": paper} if paper in PAPERS else {}), **(run or {})}


def steps_html(steps: list[str]) -> Markup:
    """Steps as the contents page shows them: each command's words (an option with its value) kept
    whole, so that a line breaks between them, never inside one (`--` at a line's end, `duplex` on
    the next, reads as two words)."""
    def words(found: re.Match) -> str:
        kept = re.findall(r"`?--?[^\s]+(?: (?!-)[^\s]+)?|[^\s]+", found[0])  # the quotes with their words
        return " ".join(f'<span class="word">{word}</span>' for word in kept)
    return Markup(re.sub(r"`sheets [^`]*`", words, str(escape("; ".join(steps)))))


def _with_options(step: str, options: dict[str, str]) -> str:
    """Every `sheets ...` command in `step` given each of `options` it does not name already."""
    def add(found: re.Match) -> str:
        command = found[1]
        for option, value in options.items():
            if not re.search(rf"(^|\s){re.escape(option)}(\s|=|$)", command):
                command += f" {option} {value}"
        return f"`{command}`"
    return re.sub(r"`(sheets [^`]*)`", add, step)


class Printing(Strict):
    kinds: dict[str, PrintHow] = Field(min_length=1)

    def kind_of(self, template: str | None) -> str:
        for kind, how in self.kinds.items():
            if template and template in how.templates:
                return kind
        return "default" if "default" in self.kinds else next(iter(self.kinds))


def load_printing(content_root: Path | None = None) -> Printing:
    """The printing instructions of a content folder (the bundled ones if it has none)."""
    root = Path(content_root) if content_root else paths.content_dir()
    path = root / PRINTING_FILE
    if not path.is_file():
        path = paths.content_dir() / PRINTING_FILE
    problems: list[Problem] = []
    doc = load_yaml(path, str(path))
    model = collect(problems, Printing, doc)
    if problems or model is None:
        raise ContentError(problems)
    return model


@dataclass
class Part:
    """One finished PDF of the kit, and what the contents page says about it."""
    path: Path
    title: str
    game: str | None
    game_title: str
    kind: str
    how: PrintHow
    pages: int
    paper: str
    first_page: int = 0  # 1-based page in kit.pdf, set when assembled
    options: dict[str, str] = field(default_factory=dict)  # what a command printed for it carries (Sheet.reprint)

    def steps(self, run: dict[str, str] | None = None) -> list[str]:
        """How to print it; a command named carries its paper, its own options and the run's (`run`)."""
        return self.how.steps(self.game, self.paper, self.options, run)

    def command(self, run: dict[str, str] | None = None) -> str | None:
        """The command that prints what goes with it (a card set's backs), for the colophon."""
        return self.how.command_for(self.game, self.paper, self.options, run)

    @property
    def last_page(self) -> int:
        return self.first_page + self.pages - 1


def printing_kind(printing: Printing, template: str | None) -> str:
    """The printing advice for a sheet made from `template`: its registered kind's, when the
    content's printing.yaml has it; else the kind whose `templates` list it; else `default`."""
    declared = registry.of_template(template)
    if declared is not None and declared.printing in printing.kinds:
        return declared.printing
    return printing.kind_of(template)


def describe(path: Path, *, title: str, game: str | None, game_title: str, template: str | None,
             printing: Printing, kind: str | None = None, copies: str | None = None,
             options: dict[str, str] | None = None) -> Part:
    pages, (width, height) = _pages_and_size(path)
    kind = kind or printing_kind(printing, template)
    how = printing.kinds[kind]
    if copies:  # this sheet's own (e.g. one squad of filled playbooks, shared out among the players)
        how = how.model_copy(update={"copies": copies})
    landscape = width > height
    if how.sides == "two" and (options or {}).get("--duplex") in ("long", "short"):
        how = how.model_copy(update={"flip": (options or {})["--duplex"]})  # the edge its backs are placed for
    if how.sides == "two" and pages == 1:
        how = how.model_copy(update={"sides": "one", "flip": None})  # nothing to print on the back
    elif how.sides == "two" and landscape:
        # landscape pages read upright on the back only when the sheet turns about its short edge
        how = how.model_copy(update={"flip": "short"})
    return Part(Path(path), title, game, game_title, kind, how, pages, paper_name(width, height),
                options=dict(options or {}))


def _pages_and_size(path: Path) -> tuple[int, tuple[float, float]]:
    """How many pages a PDF has, and its first page's size in pt (PDFium reads it in
    milliseconds, without parsing the file's object streams to count its pages)."""
    doc = pdfium.PdfDocument(str(path))
    try:
        return len(doc), tuple(doc[0].get_size())
    finally:
        doc.close()


def sha256(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def content_fingerprint(root: Path) -> str:
    """sha256 over every content file (relative path and bytes), in sorted order. What a person
    keeps beside the games or in a game's folder (a README, a LICENSE, an `art/` folder) is read
    by nothing, so it is not what the kit was made from: a game shared without them (`sheets pack`)
    gives its receiver the author's manifest."""
    h = hashlib.sha256()
    for file in content_files(Path(root))[0]:  # regular files only (dot files and folders left out)
        rel = file.relative_to(root).as_posix()
        parts = PurePosixPath(rel).parts
        if assets.kept_aside(PurePosixPath(*parts)) or (len(parts) > 1 and assets.kept_aside(PurePosixPath(*parts[1:]))):
            continue
        h.update(rel.encode("utf-8") + b"\0")
        h.update(file.read_bytes())
        h.update(b"\0")
    return h.hexdigest()


# -- kit.pdf -----------------------------------------------------------------
def _contents_pdf(parts: list[Part], *, title: str, subtitle: str, paper_size: str,
                  cache_dir: Path | None = None, pages: int = 1, shared: Pool | None = None,
                  separate: tuple[Part, ...] = (), compact: bool = False, run: dict[str, str] | None = None) -> bytes:
    """The contents page(s), cached by a hash of their HTML (laid out by `shared`'s workers
    when they are running); `compact`: tighter rows, for a kit that runs just over a page."""
    groups: list[tuple[str, list[Part]]] = []
    for part in parts:
        if not groups or groups[-1][0] != part.game_title:
            groups.append((part.game_title, []))
        groups[-1][1].append(part)
    context = {**style.of_library(Library()), "title": title, "subtitle": subtitle, "page_size": paper_size, "groups": groups,
               "total": sum(p.pages for p in parts) + pages, "label": part_label, "separate": list(separate),
               "link": part_link, "compact": compact, "run": dict(run or {}), "steps_html": steps_html}
    html = rendering.render_html("kit_contents.html.j2", context)
    if cache_dir is None:  # --no-cache: the same bytes, made from a blank laid out now
        with tempfile.TemporaryDirectory(prefix="sheets-contents-") as tmp:
            return _contents_pdf_in(Path(tmp), context, html, title, shared)
    return _contents_pdf_in(Path(cache_dir), context, html, title, shared)


def _contents_pdf_in(cache_dir: Path, context: dict, html: str, title: str, shared: Pool | None) -> bytes:
    """Stamped: the page without its subtitle (which names the seed) is laid out once and
    cached, so a kit with new dice does not lay it out again."""
    hit = cache.contents_path(cache_dir, html)
    data = cache.read(hit)
    if data is None:
        filled = Sheet("kit-contents.pdf", "kit_contents.html.j2", context, html=html)
        blank = Sheet("kit-contents.pdf", "kit_contents.html.j2", dict(context, subtitle=""))
        with tempfile.TemporaryDirectory(prefix="sheets-contents-") as tmp:
            # tagged and described as it is written, by the stamped files' own tagger (sheets.pdf.tagged)
            made = write_stamped([(blank, filled)], Path(tmp) / "contents.pdf", title=title, cache_dir=cache_dir,
                                 pool=shared)
            data = made.read_bytes()
        cache.write(hit, data)
    return data


def _number(parts: list[Part], contents_pages: int) -> None:
    page = contents_pages + 1
    for part in parts:
        part.first_page = page
        page += part.pages


def contents(parts: list[Part], *, title: str, subtitle: str, paper_size: str, cache_dir: Path | None = None,
             shared: Pool | None = None, separate: tuple[Part, ...] = (), run: dict[str, str] | None = None) -> bytes:
    """The kit's contents page(s), each part numbered with the page it starts on in kit.pdf.

    A contents just over a page (more players, Letter's shorter page) would leave a line or two
    alone on its last page: tighter rows take them back; a longer one runs over, numbered so."""

    def laid_out(pages: int, compact: bool = False) -> tuple[bytes, int]:
        _number(parts, pages)
        data = _contents_pdf(parts, title=title, subtitle=subtitle, paper_size=paper_size, cache_dir=cache_dir,
                             pages=pages, shared=shared, separate=separate, compact=compact, run=run)
        with pikepdf.open(io.BytesIO(data)) as pdf:
            return data, len(pdf.pages)

    data, n = laid_out(1)
    if n != 1:
        tight, fewer = laid_out(n - 1, compact=True)
        data, n = (tight, fewer) if fewer == n - 1 else laid_out(n)
    return data


def assemble(parts: list[Part], target: Path, *, title: str, subtitle: str, paper_size: str,
             cache_dir: Path | None = None, shared: Pool | None = None, separate: tuple[Part, ...] = (),
             run: dict[str, str] | None = None, keywords: str | None = None) -> Path:
    """Write the one-file kit: contents page(s), then every part, with an outline. `run`: the run's
    options every command the contents page prints carries (`{"--duplex": "short"}`); `keywords`:
    kit.pdf's /Keywords (its dice seed, which no player's page prints).

    The outline has one entry per game with one child per part, each pointing at the
    part's first page (the page the contents page names). `separate` parts (the player
    packets) are files of their own beside kit.pdf: the contents page lists them too.
    """
    first = contents(parts, title=title, subtitle=subtitle, paper_size=paper_size, cache_dir=cache_dir,
                     shared=shared, separate=separate, run=run)
    outline: list[tuple[str, int, int | None]] = [("Contents", 0, None)]
    current = None
    for part in parts:
        if part.game_title != current:
            current = part.game_title
            game_item = len(outline)
            outline.append((current, part.first_page - 1, None))
        outline.append((part_label(part), part.first_page - 1, game_item))
    links = {part_link(part): part.first_page - 1 for part in parts}
    merged = merge_pdfs([first, *(part.path for part in parts)], title=title, outline=outline,
                        page_mode="/UseOutlines", links=links, keywords=keywords)
    return output.write_atomic(target, merged)


def page_labels(parts: list[Part]) -> list[str]:
    """A title for every page of kit.pdf, in order: the contents page(s), then each part's pages."""
    contents_pages = parts[0].first_page - 1 if parts else 1  # a long kit's contents run over a page
    return ["Contents"] * contents_pages + [f"{p.game_title}: {part_label(p)}" for p in parts for _ in range(p.pages)]


def part_link(part: Part) -> str:
    """The URI the contents page links a part with; kit.pdf links it to the part's first page."""
    return f"warsheets-part:{part.path.name}"


def part_label(part: Part) -> str:
    """A part's title without its game's name in front (the outline's parent names it)."""
    title = part.title
    if part.game_title and title.startswith(part.game_title):
        title = title[len(part.game_title):].lstrip(" :·-") or part.title
    return title[:1].upper() + title[1:]


def merge(sources: list[Path], target: Path, *, title: str, lang: str = "en") -> Path:
    """Concatenate finished PDFs into one tagged file (atomic)."""
    return output.write_atomic(target, merge_pdfs(list(sources), title=title, lang=lang))


# -- manifest.json ----------------------------------------------------------------
def manifest(parts: list[Part], out_dir: Path, *, seed: int, content_root: Path) -> dict:

    files = []
    for part in parts:
        files.append({
            "path": Path(part.path).resolve().relative_to(Path(out_dir).resolve()).as_posix(),
            "title": part.title, "game": part.game, "kind": part.kind, "pages": part.pages,
            "paper": part.paper, "sha256": sha256(part.path),
        })
    return {"seed": seed, "content_fingerprint": content_fingerprint(content_root),
            "warsheets_version": __version__, "files": files}


def with_previews(data: dict, previews: list[Path], out_dir: Path) -> dict:
    """The manifest with the page previews it wrote (so that the next build knows them)."""
    root = Path(out_dir).resolve()
    if previews:
        data["previews"] = [{"path": Path(p).resolve().relative_to(root).as_posix(), "sha256": sha256(p)}
                            for p in previews]
    return data


def write_manifest(data: dict, target: Path) -> Path:
    text = json.dumps(data, indent=2, ensure_ascii=False, sort_keys=False) + "\n"
    return output.write_atomic(target, text.encode("utf-8"))

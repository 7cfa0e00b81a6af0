"""Templates to HTML (Jinja2) and HTML to PDF (WeasyPrint).

Jinja runs with autoescape and StrictUndefined; a template error names the
template file and line. WeasyPrint is imported only when a PDF is actually
made (its import alone costs about a second), gets a URL fetcher that serves
files under the template/content folders and the bundled fonts (`sheets-font:` URLs,
sheets.base.fonts) and nothing else, and writes
byte-identical PDFs for identical HTML.
"""
from __future__ import annotations

import contextvars
import logging
import os
import pickle
import re
import unicodedata
import warnings
from functools import lru_cache
from importlib.metadata import version
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

import jinja2
import jinja2.sandbox
from markupsafe import Markup, escape

from sheets.base import cachedir, colors, fonts, libraries, output, paths, scratch
from sheets.base.errors import SheetsError
from sheets.base.formats import signed
from sheets.base.overflow import find_overflows
from sheets.library.kinds.notes import LOST_MARK
from sheets.pipeline import fieldmarkup
from sheets.pdf.fonts import finish_fonts

# fontTools stamps the current time into subset fonts unless this is set.
from sheets.base.paths import FIXED_EPOCH  # noqa: E402,F401 - re-exported



class LayoutOverflowError(SheetsError):
    """Something on a page runs out of its column or off the page (see sheets/base/overflow.py)."""


class TemplateError(SheetsError):
    """A template is broken; the message names the template file and line."""


# -- inline markup ---------------------------------------------------------
_BOLD = re.compile(r"\*\*(.+?)\*\*", re.S)
_ITALIC = re.compile(r"(?<![*\w])\*(?!\s)(.+?)(?<!\s)\*(?![*\w])", re.S)
#: the space before a bold or italic word goes inside its tag ("or <strong>orders</strong>" is
#: written "or<strong> orders</strong>"; the same break, the same words). WeasyPrint (70) measures
#: a run of text that ends in a space with the space: when the tag after it does not fit on the
#: line, the run is laid out again a point narrower, fits Pango's line without its space but not
#: WeasyPrint's with it, and the line is cut after its *first* word ("Introduce" alone above "new,
#: conflicting, or confusing orders"; "passing" alone on a Down Range tank card: issue 47's review)
_SPACE_BEFORE_TAG = re.compile(r" <(strong|em)>")


# Values that must not break across lines: a number joined to its word by a hyphen
# ("1-stress", "3-strength", "2-crew", "11-16"), a number and its unit ("5 cm", "24 in"),
# a short parenthesised abbreviation ("(M/Sgt)", "(AP)"). They are wrapped in a
# `white-space: nowrap` span (base.css `.nb`), which keeps the text itself unchanged for
# copy and search (a U+2011 hyphen would not match "1-stress" in extracted text).
# The patterns run on escaped HTML before any tag is added.
# A number and its inch mark (12", 12″) needs no span: Unicode line breaking never breaks
# between a digit and a quotation mark or prime (UAX #14, LB19 and LB25), and a nowrap span
# that straddles the end of a line makes WeasyPrint break the line at its first opportunity
# instead ("• The" alone on a line, issue 31): spans only where a break could otherwise fall.
_NOBREAK = re.compile(
    r"(?<![\w&#])[+\u2212-]?\d+(?:[.,]\d+)?(?:[-\u2013]\w+)+"          # 1-stress, 3-strength, 11-16
    r"|(?<![\w&#])\d+(?:[.,]\d+)?[ \u00a0](?:cm|mm|km|m|in|pt|kg|lb)\b"  # 5 cm, 2 in
    r"|\((?=[^()\s]{1,12}\))[^()\s]*/[^()\s]*\)"                         # (M/Sgt)
)


def _nobreak(html: str) -> str:
    def wrap(match: re.Match) -> str:
        return f'<span class="nb">{match.group(0).replace(" ", chr(0xA0))}</span>'

    return _LOST.sub(_LOST_BOX, _NOBREAK.sub(wrap, html))


#: a value the source lost (content writes LOST_MARK where it belongs): a box to write it in,
#: marked with the symbol the game's notes page explains; never a dash or an invented value.
#: What it is written against ("4d" of "4d◊": four dice of a lost type) stays on its line.
_LOST = re.compile(rf"([\w.+-]*){re.escape(LOST_MARK)}")
_LOST_BOX = rf'<span class="nb">\1<span class="lost">{LOST_MARK}</span></span>'


def nobreak(text: Any) -> Markup:
    """Escape a plain value and keep its number-and-unit pieces on one line."""
    if text is None:
        return Markup("&#8212;")
    return Markup(_nobreak(str(escape(str(text)))))


def inline_markup(text: Any) -> Markup:
    """Escape text, keep values on one line, then turn **bold** and *italic* into tags."""
    if text is None:
        return Markup("&#8212;")
    if type(text) is str:  # the content's own strings: each marked up once (a batch repeats them)
        return _inline_markup_of(text)
    return _marked_up(text)


def _marked_up(text: Any) -> Markup:
    html = _nobreak(str(escape(str(text))))
    html = _BOLD.sub(r"<strong>\1</strong>", html)
    html = _ITALIC.sub(r"<em>\1</em>", html)
    return Markup(_SPACE_BEFORE_TAG.sub(r"<\1> ", html))


@lru_cache(maxsize=4096)
def _inline_markup_of(text: str) -> Markup:
    return _marked_up(text)


_NUMBERED = re.compile(r"^\s*(?:\d+|[a-z])[.)]\s")


#: context keys a game's look puts on its sheets (sheets.kinds.style.of): its own templates folder,
#: searched before the bundled ones, and its icons (name -> data: URI) that `:name:` in text shows
OWN_TEMPLATES, INLINE_ICONS = "own_templates", "inline_icons"
#: `:name:` in text: a game's icon (icons/NAME.svg|png), or a die's face `:d6-1:` … `:d6-6:`
_ICON = re.compile(r":([a-z0-9][a-z0-9_-]{0,40}):")
_DIE_FACES = {f"d6-{n}": chr(0x2680 + n - 1) for n in range(1, 7)}  # ⚀ … ⚅: every bundled sans face has them


def with_icons(html: Markup, icons: dict[str, str]) -> Markup:
    """`:name:` in marked-up text as the game's icon, set at the text's size, or a die's face."""
    if ":" not in html:
        return html

    def icon(match: re.Match) -> str:
        name = match.group(1)
        if name in icons:
            return f'<img class="icon" alt="{name}" src="{icons[name]}">'
        return _DIE_FACES.get(name, match.group(0))

    return Markup(_ICON.sub(icon, str(html)))


#: the icons of the sheet being rendered: `md` runs in imported macros too, which do not see
#: the sheet's context, so `render_html` sets them here for the render's length
_icons: contextvars.ContextVar[dict[str, str]] = contextvars.ContextVar("inline_icons", default={})  # noqa: B039


def _md(text: Any) -> Markup:
    icons = _icons.get()
    marked = inline_markup(text)
    return with_icons(marked, icons) if icons else marked


def numbered(items: list) -> bool:
    """A list whose every item carries its own number ("1. Check …"): no bullet before it."""
    return bool(items) and all(_NUMBERED.match(str(item)) for item in items)


def plain(text: Any) -> str:
    """Strip inline markup: '**Medic:** x' -> 'Medic: x'."""
    if text is None:
        return "—"
    return str(text).replace("**", "").replace("*", "")


def game_titled(game_title: str, title: str, sep: str = " · ") -> str:
    """'Game · title', unless the title already starts with the game's name
    ('Down Range units' stays as it is; no 'Down Range · Down Range units')."""
    base = re.sub(r"\s*\(.*?\)", "", game_title).strip().casefold()
    if base and title.casefold().startswith(base):
        return title
    return f"{game_title}{sep}{title}"


#: what joins a game's name to the rest of a title ("Down Range — Quick Reference", "The Regiment: Moves")
_JOIN = ":·—–,-"


def beneath_band(title: str, band_title: str) -> str:
    """A page's own heading under the header band: its title without the game's name the band prints
    just above it ('Down Range — Quick Reference' -> 'Quick Reference', 'Down Range templates (true
    scale)' -> 'Templates (true scale)'). A title that is the game's name alone, one that only starts
    with the same letters ('Down Ranger'), or a page without a band keeps its title whole; the PDF's
    title and outline keep the game's name either way (a file is read without its band)."""
    if not band_title:
        return title
    for name in dict.fromkeys((band_title, re.sub(r"\s*\(.*?\)", "", band_title).strip())):
        after = title[len(name):]
        if not name or not title.casefold().startswith(name.casefold()) or not after[:1].isspace() and after[:1] not in _JOIN:
            continue
        rest = after.lstrip(_JOIN + " ").strip()
        if rest:
            return rest[0].upper() + rest[1:]
    return title



# -- combining marks --------------------------------------------------------
#: nonspacing marks (accents, dots, tildes: Unicode's Mn and Me) kept on one letter. Each stacks over
#: or under the one before, out of the letter's line: fifty of them ("Z̴̡̛...", as a forged name or a
#: pasted text brings) ran up and down through the lines around it. Two are what writing needs once
#: composed (NFC): Vietnamese's tone over a vowel sign is one precomposed letter, Thai's vowel and
#: tone marks two, an Arabic shadda with its vowel two, an emoji keycap two.
MAX_MARKS = 2


#: where a run of marks may be: three or more characters in a row from U+0300 up (every mark is
#: there); each run found is then read letter by letter. A plain search, fast over a whole sheet
#: (a class of every mark's range made re try each of hundreds of ranges at every character)
_PAST_LATIN = re.compile(f"[\u0300-\U0010ffff]{{{MAX_MARKS + 1},}}")


def _is_mark(ch: str) -> bool:
    return unicodedata.category(ch) in ("Mn", "Me")


def _capped(run: re.Match) -> str:
    kept, marks = [], 0
    for ch in run.group(0):
        marks = marks + 1 if _is_mark(ch) else 0
        if marks <= MAX_MARKS:
            kept.append(ch)
    return "".join(kept)


def within_letters(text: str) -> str:
    """`text` composed (NFC) with at most MAX_MARKS nonspacing marks on any letter: what a sheet
    prints stays in its letter's line. ASCII (most of every sheet) is returned as it is."""
    if text.isascii():
        return text
    if not unicodedata.is_normalized("NFC", text):
        text = unicodedata.normalize("NFC", text)
    return _PAST_LATIN.sub(_capped, text)


# -- Jinja -----------------------------------------------------------------
#: the tool's own template folders: the shared sheets' (`_base`) and the desk's pages (`web`).
#: A game's templates are its plug-in's folder, `templates/<plugin>/`, never one of these (a
#: plug-in's name is the package's under sheets/games/, which tests keep apart from these names),
#: and never found by the game's id: a game named `web`, or a `--from` copy under a new id,
#: prints with the templates of what it is (tests/pipeline/test_template_folders.py)
TOOL_FOLDERS = ("_base", "web")


def template_search_path(plugin: str | None, override: Path | None = None) -> list[Path]:
    """User override folder -> the game's plug-in's templates -> _base."""
    root = paths.templates_dir()
    folder = plugin if plugin and plugin not in TOOL_FOLDERS else None
    dirs: list[Path] = []
    if override is not None:
        if folder:
            dirs.append(override / folder)
        dirs.append(override)
    if folder:
        dirs.append(root / folder)
    dirs.append(root / "_base")
    return [d for d in dirs if d.is_dir()]


class _Bytecode(jinja2.FileSystemBytecodeCache):
    """Compiled templates kept in the cache folder (`jinja-SHA1.cache`, keyed by the template's
    name, file and source): a worker process starts with empty Jinja caches, and compiling the
    templates again cost it most of a second. A folder it cannot write is only slower.

    Sealed as every cache entry is (cachedir.sealed): Jinja's own file checks only its magic and
    the source's checksum, so 20 flipped bytes in the marshalled code made every later command
    that rendered the template fail until `sheets cache clear`. A file whose seal does not match
    is no entry: the template is compiled again and the file written anew."""

    def dump_bytecode(self, bucket) -> None:
        try:
            # written whole, then renamed, a Ctrl-C waiting the few milliseconds (output.write_atomic)
            output.write_atomic(Path(self._get_cache_filename(bucket)), cachedir.sealed(bucket.bytecode_to_string()))
        except (OSError, SheetsError):
            pass

    def load_bytecode(self, bucket) -> None:
        try:
            data = cachedir.unsealed(Path(self._get_cache_filename(bucket)).read_bytes())
            if data is None:
                bucket.reset()  # none, cut short or altered: compiled again, and dumped sealed
                return
            bucket.bytecode_from_string(data)
        except (OSError, EOFError, ValueError, TypeError, pickle.UnpicklingError):
            bucket.reset()


#: the prefix a game's own template names a bundled one by (the one it replaces, to extend it)
BUNDLED = "bundled"


class _ConfinedLoader(jinja2.FileSystemLoader):
    """Templates of the search path, each read only if it stays inside its folder after links are
    followed (a game's own templates/ may not lead elsewhere)."""

    def get_source(self, environment, template):
        source, filename, uptodate = super().get_source(environment, template)
        real = os.path.realpath(filename)
        if not any(Path(real).is_relative_to(os.path.realpath(p)) for p in self.searchpath):
            raise jinja2.TemplateNotFound(f"{template} (refused: a link to a place outside its templates folder)")
        return source, filename, uptodate


@lru_cache(maxsize=None)
def _environment(search_path: tuple[Path, ...], sandboxed: bool = False) -> jinja2.Environment:
    # a game's own templates come from a shared folder: run in Jinja's sandbox (no attribute
    # reaches Python's internals), the bundled ones as they are
    kind = jinja2.sandbox.SandboxedEnvironment if sandboxed else jinja2.Environment
    loader: jinja2.BaseLoader = _ConfinedLoader([str(p) for p in search_path])
    if sandboxed:  # an override may extend the template it replaces: {% extends "bundled/card.html.j2" %}
        loader = jinja2.ChoiceLoader([loader, jinja2.PrefixLoader(
            {BUNDLED: jinja2.FileSystemLoader(str(paths.templates_dir() / "_base"))})])
    env = kind(
        loader=loader,
        # a sandboxed environment compiles other code (its calls go through the sandbox): its own files
        # a sandboxed environment compiles other code (its calls go through the sandbox): its own files
        bytecode_cache=_Bytecode(str(cachedir.root()), "jinja-sandboxed-%s.cache" if sandboxed else "jinja-%s.cache"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=False,
    )
    env.filters["md"] = _md
    env.filters["plain"] = plain
    env.filters["beneath_band"] = beneath_band
    env.filters["nb"] = nobreak
    env.tests["numbered"] = numbered
    env.filters["signed"] = signed
    env.filters["dash"] = lambda v: "—" if v is None else v
    env.filters["text_on"] = colors.text_on
    env.filters["tint"] = colors.tint
    env.globals["min_text_pt"] = colors.MIN_TEXT_PT
    env.globals["fieldmarkup"] = fieldmarkup  # box, write, mark: macros.html.j2 binds them
    return env


def environment(plugin: str | None, override: Path | None = None) -> jinja2.Environment:
    return _environment(tuple(template_search_path(plugin, override)), override is not None)


def _display(path: str | None) -> str:
    if not path:
        return "<template>"
    resolved = Path(path).resolve()
    for base in (paths.templates_dir().parent, Path.cwd()):  # a bundled template; a game's own, from here
        if resolved.is_relative_to(base.resolve()):
            return str(resolved.relative_to(base.resolve()))
    return path


def render_html(template: str, context: dict, plugin: str | None = None, override: Path | None = None) -> str:
    """Render a template to an HTML string (`plugin`: the game's plug-in, whose templates come
    before the shared ones); template bugs become TemplateError."""
    env = environment(plugin, override)
    token = _icons.set(context.get(INLINE_ICONS) or {})
    try:
        return within_letters(env.get_template(template).render(**context))
    except jinja2.TemplateSyntaxError as exc:
        raise TemplateError(f"{_display(exc.filename)}:{exc.lineno}: template error: {exc.message}") from None
    except jinja2.TemplateNotFound as exc:
        looked = ", ".join(map(str, template_search_path(plugin, override)))
        raise TemplateError(f"template not found: {exc.name} (looked in {looked})") from None
    except Exception as exc:  # noqa: BLE001 - locate any error raised inside a template
        where = _template_frame(exc)
        if where is None:
            raise
        raise TemplateError(f"{where}: template error: {type(exc).__name__}: {exc}") from None
    finally:
        _icons.reset(token)


def _template_frame(exc: BaseException) -> str | None:
    tb = exc.__traceback__
    found = None
    while tb is not None:
        name = tb.tb_frame.f_code.co_filename
        if name.endswith(".j2"):
            found = f"{_display(name)}:{tb.tb_lineno}"
        tb = tb.tb_next
    return found


# -- WeasyPrint ------------------------------------------------------------
class RenderWarnings(logging.Handler):
    """Collects WeasyPrint's warnings (dropped CSS etc.) so tests can fail on them."""

    def __init__(self) -> None:
        super().__init__(level=logging.WARNING)
        self.messages: list[str] = []

    #: machine-specific notices, not problems of our sheets
    IGNORED = ("Using fontTools instead of HarfBuzz-Subset",)

    def emit(self, record: logging.LogRecord) -> None:
        message = record.getMessage()
        if not message.startswith(self.IGNORED):
            self.messages.append(message)


_warnings = RenderWarnings()


def render_warnings() -> list[str]:
    return list(_warnings.messages)


@lru_cache(maxsize=1)
def _weasy():
    os.environ.setdefault("SOURCE_DATE_EPOCH", FIXED_EPOCH)
    # WeasyPrint's folder of @font-face fonts (mkdtemp, never removed by a process that exits or is
    # killed) goes in the command's scratch folder, which goes when the command does
    scratch.use()
    # the sheets bring their own fonts: a machine with none installed is not "ugly output"
    warnings.filterwarnings("ignore", message="No fonts configured in FontConfig")
    # lazy: importing WeasyPrint costs ~1 s; only the processes that lay out pages pay it
    with libraries.remembered():  # its native libraries' names, looked up once per machine
        import weasyprint  # noqa: PLC0415
        from weasyprint.text.fonts import FontConfiguration  # noqa: PLC0415
        from weasyprint.urls import FatalURLFetchingError, URLFetcher  # noqa: PLC0415

    if os.environ.get("SHEETS_NO_HB_SUBSET"):
        # as on a plain `pip install` without Debian's libharfbuzz-subset0: WeasyPrint
        # subsets fonts with fontTools (slower); benchmarks/run.py --no-harfbuzz measures it
        import weasyprint.pdf.fonts as pdf_fonts  # noqa: PLC0415

        pdf_fonts.harfbuzz_subset = None
    logger = logging.getLogger("weasyprint")
    if _warnings not in logger.handlers:
        logger.addHandler(_warnings)
    logger.propagate = False

    roots = [paths.templates_dir().resolve(), paths.content_dir().resolve()]

    class SandboxFetcher(URLFetcher):
        """Serve data: URIs and files under the bundled folders; refuse the rest."""

        def __init__(self) -> None:
            super().__init__(allowed_protocols={"file", "data"}, allow_redirects=False)

        def fetch(self, url, headers=None):
            if url.startswith("data:"):
                return super().fetch(url, headers)
            if url.startswith(fonts.SCHEME):  # a bundled font (base.css @font-face): by file name only
                name = unquote(url[len(fonts.SCHEME):])
                target = fonts.path(name)
                if "/" not in name and "\\" not in name and target.suffix == ".ttf" and target.is_file():
                    return super().fetch(target.as_uri(), headers)
            if url.startswith("file:"):
                target = Path(unquote(urlparse(url).path)).resolve()
                if any(target.is_relative_to(root) for root in roots) and target.is_file():
                    return super().fetch(url, headers)
            raise FatalURLFetchingError(f"refused to fetch {url!r}: only bundled template/content/font files may be used")

    return weasyprint, FontConfiguration(), SandboxFetcher, FatalURLFetchingError


#: a document's one style sheet (base.html.j2's <style> in its <head>)
_HEAD_STYLE = re.compile(r"<style>(.*?)</style>(?=\s*</head>)", re.S)


@lru_cache(maxsize=16)
def _style_sheet(text: str, base: str):
    """A <style>'s text parsed once per process: a batch's blanks and sheets share their game's
    style (theme, base.css, the template's own rules), which WeasyPrint would parse again for each
    document (a fifth of a blank's layout)."""
    weasyprint, fonts, fetcher_cls, _ = _weasy()
    return weasyprint.CSS(string=text, base_url=base, url_fetcher=fetcher_cls(), font_config=fonts)


def _render(weasyprint, text: str, base: str, fetcher, fonts, **options):
    """`HTML(string=text).render(...)`, the head's style sheet parsed once (`_style_sheet`) and
    given as the document's only author sheet: the same cascade, so the same boxes and bytes
    (a document with another <style> is rendered as it is)."""
    found = _HEAD_STYLE.search(text) if text.count("<style") == 1 else None
    if found is None:
        return weasyprint.HTML(string=text, base_url=base, url_fetcher=fetcher).render(font_config=fonts, **options)
    bare = text[:found.start()] + text[found.end():]
    return weasyprint.HTML(string=bare, base_url=base, url_fetcher=fetcher).render(
        stylesheets=[_style_sheet(found.group(1), base)], font_config=fonts, **options)


def lay_out(html: str):
    """WeasyPrint's laid-out Document of `html` (sandboxed fetcher, the shared fonts)."""
    weasyprint, fonts, fetcher_cls, fatal = _weasy()
    try:
        return _render(weasyprint, html, str(paths.templates_dir()) + "/", fetcher_cls(), fonts)
    except fatal as exc:
        raise SheetsError(str(exc)) from None


def warm_up() -> None:
    """Import WeasyPrint and load the fonts now (a worker waiting for its first job)."""
    _weasy()


#: a template asks for a tagged PDF (structure for screen readers and reflow) with this
#: tag in its <head>; being in the HTML, the wish is part of every cache key for free
TAGGED_MARK = '<meta name="warsheets-pdf-tags" content="on">'


#: the style of a page laid out again because its first layout ran out of its columns (html_to_pdf)
BREAK_ANYWHERE = "<style>body * { overflow-wrap: anywhere !important; } .nb { white-space: normal !important; }</style>"


def html_to_pdf(html: str, forms: bool = False, base_url: Path | None = None, tags: bool | None = None) -> bytes:
    """One HTML document to PDF bytes (deterministic for identical HTML).

    Pre-flight: a laid-out box that runs out of its column or off the page is an
    error naming the page and the box, never a PDF with text printed over text.
    Tagged (structure for screen readers and reflow) unless `tags` is False.
    """
    weasyprint, fonts, fetcher_cls, fatal = _weasy()
    base = str(base_url or paths.templates_dir()) + "/"
    if tags is None:
        tags = True  # every sheet is tagged (issue 29); TAGGED_MARK is kept for templates that name it
    options = {"pdf_forms": forms, "uncompressed_pdf": False, "pdf_tags": tags}

    def laid_out(text: str):
        try:
            # what HTML.write_pdf does, with the check between layout and drawing
            return _render(weasyprint, text, base, fetcher_cls(), fonts, **options)
        except fatal as exc:
            raise SheetsError(str(exc)) from None

    document = laid_out(html)
    problems = find_overflows(document)
    if problems and "</head>" in html:
        # what the user wrote is printed whole, never refused for its layout: a word too long for
        # its cell or column (a homebrew table of long names, a URL) may then break anywhere. Only
        # a page that ran over is laid out again, so every page that fits keeps its bytes.
        document = laid_out(html.replace("</head>", BREAK_ANYWHERE + "</head>", 1))
        problems = find_overflows(document)
    if problems:
        title = _document_title(html)
        listed = "\n".join(f"  {p.describe()}" for p in problems[:8])
        more = f"\n  … and {len(problems) - 8} more" if len(problems) > 8 else ""
        raise LayoutOverflowError(f"{title}: the layout runs out of its columns:\n{listed}{more}\n"
                                  f"shorten the text, or let the template wrap or shrink it")
    return finish_fonts(document.write_pdf(**options))  # each subset's tag its own (sheets/pdf/fonts.py)


def _document_title(html: str) -> str:
    match = re.search(r"<title>(.*?)</title>", html, re.S)
    return match.group(1).strip() if match else "the sheet"


def weasyprint_version() -> str:
    """Without importing WeasyPrint (for cache keys)."""
    return version("weasyprint")

"""The fonts that travel with the package: DejaVu and each game's title face, in
`sheets/base/fonts/` with their licenses (LICENSE: DejaVu; LICENSE-<face>: the title faces, each
from its Debian package, SIL Open Font License 1.1).

Every consumer takes them from here, so a fixed seed gives the same bytes on any machine:
the templates through `@font-face` (templates/_base/base.css, URLs `sheets-font:FILE`, which
the layout engine's fetcher serves from FONTS_DIR only), the stamper, the previews and the
gauges' SVG text. In CSS they carry names no installed font has (FAMILIES), so an installed
DejaVu of another version never stands in for them.

Only the faces the sheets ask for are bundled (FILES). Text the bundled fonts lack (Chinese,
Japanese, Korean, ...) falls back to installed fonts: `needs_fallback` says when a sheet
may, so that only such sheets' cache keys count the installed fonts, and `check_text`
notes the values no font here can print (`missing`), for the command to say so once.
"""
from __future__ import annotations

import hashlib
import html as html_module
import re
from functools import lru_cache
from pathlib import Path

from sheets.base import fontdirs

FONTS_DIR = Path(__file__).resolve().parent / "fonts"
#: the URL scheme of a bundled font in CSS: url("sheets-font:DejaVuSans.ttf")
SCHEME = "sheets-font:"

#: the CSS family names of the bundled fonts (templates ask for these)
SANS, CONDENSED, SERIF = "Sheets DejaVu Sans", "Sheets DejaVu Sans Condensed", "Sheets DejaVu Serif"
FAMILIES = (SANS, CONDENSED, SERIF)

#: (CSS family, bold, italic) -> file in FONTS_DIR: the faces the templates, the stamper, the
#: previews and the gauges use (no serif roman, no bold italic: nothing asks for them)
FILES: dict[tuple[str, bool, bool], str] = {
    (SANS, False, False): "DejaVuSans.ttf",
    (SANS, True, False): "DejaVuSans-Bold.ttf",
    (SANS, False, True): "DejaVuSans-Oblique.ttf",
    (CONDENSED, False, False): "DejaVuSansCondensed.ttf",
    (CONDENSED, True, False): "DejaVuSansCondensed-Bold.ttf",
    (CONDENSED, False, True): "DejaVuSansCondensed-Oblique.ttf",
    (SERIF, True, False): "DejaVuSerif-Bold.ttf",
    (SERIF, False, True): "DejaVuSerif-Italic.ttf",
}

#: a theme's title face (content/<game>/theme.yaml `title_face`) -> (CSS family, weight): the
#: display face of a game's titles and header band; text is always DejaVu (every glyph there), so
#: a title face only ever sets titles, with the sans family behind it for any letter it lacks
TITLE_FACES: dict[str, tuple[str, str]] = {
    "dejavu-condensed": (CONDENSED, "bold"),
    "gnu-typewriter": ("Sheets GNU Typewriter", "normal"),   # a typed order
    "vollkorn": ("Sheets Vollkorn", "bold"),                 # a wartime book face
    "routed-gothic": ("Sheets Routed Gothic", "normal"),     # routed signage and panels
    "ibm-3270": ("Sheets IBM 3270", "normal"),               # a terminal's face
    "cabin-sketch": ("Sheets Cabin Sketch", "bold"),         # lettering drawn by hand
}
#: a title face whose strokes need more than the play size to read in the header band (its
#: smallest size there, pt): hand-drawn lettering at 8 pt breaks up into its sketch lines
BAND_MIN_PT: dict[str, float] = {"cabin-sketch": 9.0}
FILES.update({
    ("Sheets GNU Typewriter", False, False): "GNUTypewriter.ttf",
    ("Sheets Vollkorn", True, False): "Vollkorn-Bold.ttf",
    ("Sheets Routed Gothic", False, False): "routed-gothic.ttf",
    ("Sheets IBM 3270", False, False): "3270SemiCondensed-Regular.ttf",
    ("Sheets Cabin Sketch", True, False): "CabinSketch-Bold.ttf",
})


def font_face_css(family: str) -> str:
    """The @font-face rules of a bundled family (a title face's: its theme's CSS declares it, so
    a sheet loads only its own game's face)."""
    return "".join(
        f'@font-face {{ font-family: "{fam}"; src: url("{SCHEME}{name}"); font-weight: {"bold" if bold else "normal"}; '
        f'font-style: {"italic" if italic else "normal"}; }}\n'
        for (fam, bold, italic), name in FILES.items() if fam == family)


#: the names a template may use for each bundled family (older templates said "DejaVu Sans")
ALIASES = {
    SANS: SANS, "dejavu sans": SANS, "sans-serif": SANS,
    CONDENSED: CONDENSED, "dejavu sans condensed": CONDENSED,
    SERIF: SERIF, "dejavu serif": SERIF, "serif": SERIF,
}


# a theme's title face is bundled too: the stamper draws the header band (a page-margin box in the
# title face) in that face's own file, not in the family behind it (issue 47: the WotW log
# sheet's band was stamped in DejaVu Sans Condensed Bold, its laid-out pages' in Vollkorn)
ALIASES.update({family: family for family, _ in TITLE_FACES.values()})
ALIASES.update({family.casefold(): family for family, _ in TITLE_FACES.values()})


def path(name: str) -> Path:
    """A bundled font file by name (e.g. "DejaVuSans.ttf")."""
    return FONTS_DIR / name


def bundled_family(family: str) -> str | None:
    """The bundled family a CSS family name stands for, or None."""
    return ALIASES.get(family) or ALIASES.get(family.strip().strip("'\"").casefold())


def face(family: str, bold: bool, italic: bool) -> Path:
    """The bundled file for a family and style; the nearest one when that face is not bundled
    (as fontconfig picks it: the slant first, then the weight)."""
    for want in ((bold, italic), (not bold, italic), (bold, not italic), (not bold, not italic)):
        name = FILES.get((family, *want))
        if name:
            return path(name)
    raise KeyError(family)


@lru_cache(maxsize=1)
def bundled_hash() -> str:
    """sha256 over every bundled font file (name and bytes): cache keys name the fonts by it."""
    h = hashlib.sha256()
    for file in sorted(FONTS_DIR.glob("*.ttf")):
        h.update(file.name.encode() + b"\0" + hashlib.sha256(file.read_bytes()).digest())
    return h.hexdigest()


# -- what the bundled fonts cover ----------------------------------------------------------
#: characters every bundled sans face has (tests/base/test_fonts.py checks it against the
#: files): text made of these alone needs no look at the fonts' tables
_SURELY = ("\t\n\r -~\u00a0-\u024f\u0370-\u0377\u037a-\u037f\u0384-\u038a\u038c\u038e-\u03a1"
           "\u03a3-\u03ff\u0400-\u045f\u2013\u2014\u2018\u2019\u201c\u201d\u2020\u2022\u2026"
           "\u2032\u2033\u2190-\u2193\u2212\u221e\u2264\u2265\u25a1\u25cb\u2610\u2714\u2716")
_OUTSIDE_SURELY = re.compile(f"[^{_SURELY}]")
_TAG = re.compile(r"<[^>]*>")
_IGNORED = re.compile(r"[\s\u00ad\u200b-\u200f\u2028-\u202e\u2060-\u2064\ufeff]")


@lru_cache(maxsize=1)
def covered() -> frozenset[int]:
    """Code points the bundled sans faces have (the sans family closes every font stack)."""
    from fontTools.ttLib import TTFont  # noqa: PLC0415 - only when text leaves the common scripts

    points: set[int] = set()
    for (family, _, _), name in FILES.items():
        if family in (SANS, CONDENSED):  # titles' faces always have the sans family behind them
            points.update((TTFont(path(name), lazy=True).getBestCmap() or {}).keys())
    return frozenset(points)


@lru_cache(maxsize=32)  # a sheet's HTML is asked twice: for its cache key, and by check_text
def uncovered(text: str) -> frozenset[str]:
    """The characters of `text` (HTML: tags dropped, entities read) no bundled sans face has."""
    if not _OUTSIDE_SURELY.search(text):
        return frozenset()
    plain = html_module.unescape(_TAG.sub(" ", text))
    have = covered()
    return frozenset(ch for ch in set(_OUTSIDE_SURELY.findall(plain)) if ord(ch) not in have and not _IGNORED.match(ch))


def needs_fallback(text: str) -> bool:
    """True when `text` may be drawn in an installed font (it has letters the bundled fonts lack)."""
    return bool(uncovered(text))


# -- letters no font here has ----------------------------------------------------------------
MAX_NOTED = 8
_missing: dict[str, None] = {}  # values (in the order met) with letters no font here has


def check_text(text: str) -> None:
    """Note every value of `text` with a letter neither the bundled nor any installed font has."""
    lacking = {ch for ch in uncovered(text) if not fontdirs.installed_font_has(ch)}
    if not lacking:
        return
    plain = html_module.unescape(_TAG.sub("\n", text))
    for word in re.split(r"\s+", plain):
        if len(_missing) < MAX_NOTED and any(ch in lacking for ch in word):
            _missing.setdefault(word[:40], None)


def forget_missing() -> None:
    _missing.clear()


def missing() -> list[str]:
    """The values noted by `check_text` since `forget_missing`."""
    return list(_missing)


_CJK = re.compile("[\u1100-\u11ff\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef\U00020000-\U0003ffff]")


def missing_line(values: list[str]) -> str:
    """One line: the values no font here can print, and how to install one that can."""
    package = "fonts-noto-cjk" if any(_CJK.search(v) for v in values) else "fonts-noto-core"
    named = ", ".join(f'"{v}"' for v in values)
    return (f"warning: no font on this machine has every letter of {named}: printed as boxes; "
            f"install a font that has them (e.g. apt install {package}) and make the sheet again")

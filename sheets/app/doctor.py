"""`sheets doctor`: is this machine ready to print? Each finding with what to install.

Required (a failure makes `sheets doctor` exit 1): Python, WeasyPrint and the Pango it
loads, the fonts bundled in the package (`sheets/base/fonts/*.ttf`, each opened with
fontTools), a writable cache folder. Worth having (a warning): a font with Chinese,
Japanese and Korean letters for fontconfig to fall back on, and HarfBuzz's subsetter
(without it WeasyPrint subsets fonts with fontTools, slower; the PDFs are the same).
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from sheets.base import cachedir, paths

OK, WARNING, MISSING = "ok", "warning", "MISSING"
PYTHON_NEEDED = (3, 11)
PANGO_NEEDED = (1, 44)  # WeasyPrint's documented minimum
WEASYPRINT_PINNED = "70.0"
#: the fonts the package carries (sheets/base/fonts/, with their LICENSE)
FONTS_DIR = paths.PACKAGE_DIR / "base" / "fonts"
#: a letter each of the scripts a fallback font must cover: Chinese, Japanese (kana), Korean
CJK = {"zh": "\u674e", "ja": "\u3042", "ko": "\ud55c"}
DOCS = "see docs/install.md"


@dataclass
class Finding:
    check: str  # what was checked, as printed
    status: str  # OK, WARNING or MISSING
    detail: str  # what was found
    fix: str = ""  # what to install or do, when not OK
    required: bool = True

    def line(self) -> str:
        return f"{self.status:<8} {self.check}: {self.detail}"


def _platform_hint(debian: str, fedora: str, macos: str, windows: str) -> str:
    if sys.platform == "darwin":
        return f"macOS: {macos}; {DOCS}"
    if sys.platform.startswith("win"):
        return f"Windows: {windows}; {DOCS}"
    return f"Debian/Ubuntu: {debian}; Fedora: {fedora}; {DOCS}"


def check_python() -> Finding:
    have = sys.version_info[:3]
    text = ".".join(map(str, have))
    if have[:2] >= PYTHON_NEEDED:
        return Finding("Python", OK, f"{text} ({'.'.join(map(str, PYTHON_NEEDED))} or newer needed)")
    return Finding("Python", MISSING, f"{text}, but {'.'.join(map(str, PYTHON_NEEDED))} or newer is needed",
                   _platform_hint("sudo apt install python3", "sudo dnf install python3", "brew install python",
                                  "Python from python.org or the Microsoft Store"))


def _load_weasyprint():
    """(weasyprint module, its ffi module) or the error that stopped its import."""
    try:
        import weasyprint  # noqa: PLC0415 - about a second, and it is what this checks
        from weasyprint.text import ffi  # noqa: PLC0415
    except (OSError, ImportError) as exc:
        return None, exc
    return weasyprint, ffi


PANGO_FIX = _platform_hint("sudo apt install libpango-1.0-0 libpangoft2-1.0-0", "sudo dnf install pango",
                           "brew install pango",
                           "Pango from MSYS2 (pacman -S mingw-w64-x86_64-pango), WEASYPRINT_DLL_DIRECTORIES")


def check_engine() -> list[Finding]:
    """WeasyPrint and the Pango it loaded."""
    weasyprint, ffi = _load_weasyprint()
    if weasyprint is None:
        first = str(ffi).splitlines()[0] if str(ffi) else type(ffi).__name__
        return [Finding("WeasyPrint", MISSING, f"does not load: {first}", PANGO_FIX),
                Finding("Pango", MISSING, "not found (WeasyPrint needs it to lay pages out)", PANGO_FIX)]
    version = getattr(weasyprint, "__version__", "?")
    found = [Finding("WeasyPrint", OK, version) if version == WEASYPRINT_PINNED else
             Finding("WeasyPrint", WARNING, f"{version}, but warsheets is made and tested with {WEASYPRINT_PINNED} "
                     "(other versions lay pages out differently)", "reinstall warsheets (it pins weasyprint==70.0)",
                     required=False)]
    number = ffi.pango.pango_version()
    pango = (number // 10000, number // 100 % 100, number % 100)
    text = ".".join(map(str, pango))
    if pango[:2] >= PANGO_NEEDED:
        found.append(Finding("Pango", OK, f"{text} ({'.'.join(map(str, PANGO_NEEDED))} or newer needed)"))
    else:
        found.append(Finding("Pango", MISSING, f"{text}, but WeasyPrint needs {'.'.join(map(str, PANGO_NEEDED))} "
                             "or newer", PANGO_FIX))
    if getattr(ffi, "harfbuzz_subset", None) is not None:
        found.append(Finding("HarfBuzz subsetter", OK, "libharfbuzz-subset loaded (fonts subset fast)",
                             required=False))
    else:
        found.append(Finding("HarfBuzz subsetter", WARNING, "libharfbuzz-subset not found: WeasyPrint subsets "
                             "fonts with fontTools instead (slower, same PDFs)",
                             _platform_hint("sudo apt install libharfbuzz-subset0", "sudo dnf install harfbuzz",
                                            "brew install harfbuzz", "part of MSYS2's mingw-w64-x86_64-harfbuzz"),
                             required=False))
    return found


def check_bundled_fonts(folder: Path | None = None) -> Finding:
    """Every font file the package carries opens with fontTools; none at all is a failure."""
    folder = Path(folder) if folder is not None else FONTS_DIR
    fix = "reinstall warsheets: its wheel carries the fonts (sheets/base/fonts/)"
    files = sorted(folder.glob("*.ttf")) if folder.is_dir() else []
    if not files:
        return Finding("bundled fonts", MISSING, f"no font file in {folder}", fix)
    from fontTools.ttLib import TTFont  # noqa: PLC0415 - only when there are fonts to open

    names, broken = [], []
    for path in files:
        try:
            with TTFont(str(path), lazy=True) as font:
                font["cmap"].getBestCmap()
                names.append(font["name"].getBestFullName() or path.stem)
        except Exception as exc:  # noqa: BLE001 - any failure to read a font file is the finding
            broken.append(f"{path.name} ({type(exc).__name__})")
    if broken:
        return Finding("bundled fonts", MISSING, f"{len(broken)} of {len(files)} do not load: {', '.join(broken)}",
                       fix)
    return Finding("bundled fonts", OK, f"{len(files)} load: {', '.join(names)}")


def _fc_families(lang: str) -> list[str]:
    out = subprocess.run(["fc-list", f":lang={lang}", "family"], capture_output=True, text=True, timeout=30,
                         check=False).stdout
    return sorted({line.split(",")[0].strip() for line in out.splitlines() if line.strip()})


def check_cjk_fallback() -> Finding:
    """A system font fontconfig can fall back on for names in Chinese, Japanese or Korean."""
    fix = _platform_hint("sudo apt install fonts-noto-cjk", "sudo dnf install google-noto-sans-cjk-fonts",
                         "macOS's own fonts cover it (check fontconfig sees /System/Library/Fonts)",
                         "Windows' own fonts cover it (check fontconfig sees C:\\Windows\\Fonts)")
    if shutil.which("fc-list") is None:
        return Finding("CJK fallback font", WARNING, "cannot tell: fontconfig's fc-list is not installed", fix,
                       required=False)
    try:
        found = {lang: _fc_families(lang) for lang in CJK}
    except (OSError, subprocess.SubprocessError) as exc:
        return Finding("CJK fallback font", WARNING, f"cannot tell: fc-list failed ({exc})", fix, required=False)
    lacking = [lang for lang, families in found.items() if not families]
    if lacking:
        return Finding("CJK fallback font", WARNING, f"no installed font for {', '.join(lacking)}: names in those "
                       "scripts print as boxes (the sheet is still written)", fix, required=False)
    every = sorted(set().union(*found.values()))
    return Finding("CJK fallback font", OK, f"{every[0]} and others ({len(every)} families cover zh, ja, ko)",
                   required=False)


def check_cache() -> Finding:
    """The one cache folder exists or can be made, and takes a file."""
    folder = cachedir.root()
    fix = f"make {folder} writable, or point ${cachedir.ENV_DIR} at a folder you can write"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".doctor.", suffix=".tmp"):
            pass
    except OSError as exc:
        return Finding("cache folder", MISSING, f"{folder} is not writable ({exc.strerror or exc})", fix)
    size, files = cachedir.size(folder)
    bound = cachedir.max_bytes()
    return Finding("cache folder", OK, f"{folder} is writable; {size / 1e6:.1f} MB in {files} files "
                   f"(kept under {bound / 1e6:.0f} MB, ${cachedir.ENV_MAX_MB})")


def run_checks() -> list[Finding]:
    """Every check, in the order they are printed."""
    return [check_python(), *check_engine(), check_bundled_fonts(), check_cjk_fallback(), check_cache()]


def failed(findings: list[Finding]) -> list[Finding]:
    return [f for f in findings if f.required and f.status == MISSING]


def environment() -> dict[str, str]:
    """The variables that change where things are found, for the report's last lines."""
    names = ("SHEETS_CACHE_DIR", "SHEETS_CACHE_MAX_MB", "FONTCONFIG_FILE", "WEASYPRINT_DLL_DIRECTORIES")
    return {name: os.environ[name] for name in names if os.environ.get(name)}


def report() -> tuple[list[str], str, bool]:
    """What `sheets doctor` prints: a line per finding (with what to install under it when it is not
    OK), the variables in force; then its verdict, and whether everything required is here."""
    findings = run_checks()
    lines = []
    for finding in findings:
        lines.append(finding.line())
        if finding.fix and finding.status != OK:
            lines.append(f"{'':<8} install: {finding.fix}")
    lines += [f"{'':<8} {name}={value}" for name, value in environment().items()]
    missing = failed(findings)
    warnings = sum(f.status == WARNING for f in findings)
    if missing:
        return lines, (f"doctor: {len(missing)} required thing{'s' if len(missing) != 1 else ''} missing "
                       f"({', '.join(f.check for f in missing)}): install {'it' if len(missing) == 1 else 'them'} "
                       "as said above"), False
    return lines, f"doctor: everything required is here ({warnings} warning{'s' if warnings != 1 else ''})", True

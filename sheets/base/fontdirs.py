"""Which fonts this machine has: a fingerprint for cache keys, and whether one has a letter.

Only text the bundled fonts (`sheets.base.fonts`) lack is drawn in an installed font, so only
the sheets with such text count this fingerprint in their cache keys.

A laid-out PDF depends on the installed fonts as well as on its HTML: a name in a script
that no font had prints as missing-glyph boxes, and the same HTML prints it whole once a
font with those letters is installed (fontconfig's fallback). The fingerprint changes when
a font folder fontconfig reads gains or loses a file (each folder's modification time), so
a cached sheet made before the install is made again, never served with boxes in it.
"""
from __future__ import annotations

import hashlib
import os
import sys
from functools import lru_cache
from pathlib import Path


def _folders() -> list[Path]:
    home = Path.home()
    data = Path(os.environ.get("XDG_DATA_HOME") or home / ".local" / "share")
    return [Path("/usr/share/fonts"), Path("/usr/local/share/fonts"), data / "fonts", home / ".fonts"]


@lru_cache(maxsize=1)
def fingerprint() -> str:
    """sha256 over every font folder's path and modification time (a few dozen stat calls)."""
    h = hashlib.sha256()
    for top in _folders():
        for folder, subfolders, _ in os.walk(top):
            subfolders.sort()
            try:
                h.update(f"{folder}\0{os.stat(folder).st_mtime_ns}\0".encode("utf-8", "surrogateescape"))
            except OSError:
                continue
    return h.hexdigest()


_FONTCONFIG = {"darwin": ("libfontconfig.1.dylib", "libfontconfig.dylib"),
               "win32": ("libfontconfig-1.dll", "fontconfig-1", "fontconfig")}.get(
    sys.platform, ("libfontconfig.so.1", "fontconfig"))


@lru_cache(maxsize=1)
def _fontconfig():
    """fontconfig's font listing (the library Pango finds fonts with), or None without it."""
    try:
        import cffi  # noqa: PLC0415 - only for text the bundled fonts lack

        ffi = cffi.FFI()
        ffi.cdef("""
            typedef struct _FcPattern FcPattern; typedef struct _FcCharSet FcCharSet;
            typedef struct _FcObjectSet FcObjectSet;
            typedef struct { int nfont; int sfont; FcPattern **fonts; } FcFontSet;
            FcCharSet *FcCharSetCreate(void); int FcCharSetAddChar(FcCharSet *, unsigned int);
            void FcCharSetDestroy(FcCharSet *);
            FcPattern *FcPatternCreate(void); void FcPatternDestroy(FcPattern *);
            int FcPatternAddCharSet(FcPattern *, const char *, const FcCharSet *);
            FcObjectSet *FcObjectSetCreate(void); void FcObjectSetDestroy(FcObjectSet *);
            FcFontSet *FcFontList(void *, FcPattern *, FcObjectSet *); void FcFontSetDestroy(FcFontSet *);
        """)
        for name in _FONTCONFIG:
            try:
                return ffi, ffi.dlopen(name)
            except OSError:
                continue
    except ImportError:
        pass
    return None


@lru_cache(maxsize=None)
def installed_font_has(char: str) -> bool:
    """True when an installed font (as fontconfig lists them) has a glyph for `char`;
    True too when fontconfig cannot be asked (then nothing is claimed missing)."""
    found = _fontconfig()
    if found is None:
        return True
    ffi, fc = found
    charset, pattern, objects = fc.FcCharSetCreate(), fc.FcPatternCreate(), fc.FcObjectSetCreate()
    try:
        fc.FcCharSetAddChar(charset, ord(char))
        fc.FcPatternAddCharSet(pattern, b"charset", charset)
        fonts = fc.FcFontList(ffi.NULL, pattern, objects)
        if fonts == ffi.NULL:
            return True
        count = fonts.nfont
        fc.FcFontSetDestroy(fonts)
        return count > 0
    finally:
        fc.FcObjectSetDestroy(objects)
        fc.FcPatternDestroy(pattern)
        fc.FcCharSetDestroy(charset)

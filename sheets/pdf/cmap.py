"""A ToUnicode CMap read as code -> text: plain bytes, no pikepdf, so that a module that only
reads a font's map (forms, imported wherever a sheet is made) loads none of the PDF library."""
from __future__ import annotations

import re

_BFCHAR = re.compile(rb"beginbfchar(.*?)endbfchar", re.S)
_BFRANGE = re.compile(rb"beginbfrange(.*?)endbfrange", re.S)
_HEX = re.compile(rb"<([0-9a-fA-F]*)>")


def _utf16(hex_bytes: bytes) -> str:
    return bytes.fromhex(hex_bytes.decode("ascii")).decode("utf-16-be", errors="replace")


def cmap_codes(data: bytes) -> dict[int, str]:
    """Code -> text of a ToUnicode CMap's bytes."""
    out: dict[int, str] = {}
    for block in _BFCHAR.findall(data):
        codes = _HEX.findall(block)
        for src, dst in zip(codes[::2], codes[1::2]):
            out[int(src, 16)] = _utf16(dst)
    for block in _BFRANGE.findall(data):
        for line in block.splitlines():
            codes = _HEX.findall(line)
            if len(codes) == 3 and b"[" not in line:
                lo, hi, first = int(codes[0], 16), int(codes[1], 16), _utf16(codes[2])
                if first:
                    base = ord(first[-1])
                    for i in range(hi - lo + 1):
                        out[lo + i] = first[:-1] + chr(base + i)
    return out

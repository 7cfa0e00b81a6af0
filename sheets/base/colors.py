"""Colour arithmetic for print: contrast (WCAG 2), readable text on a fill, light tints.

Text on a coloured fill must reach MIN_CONTRAST in every mode; ink-saver mode swaps
solid fills for tints (the colour mixed with white) carrying dark text.
"""
from __future__ import annotations

MIN_CONTRAST = 4.5
MIN_TEXT_PT = 7.5  # smallest type on tokens and cards: the play floor of the theme (content/_print/design.yaml)
MIN_SHEET_PT = 6.0  # smallest type a filled sheet is stamped at (not in large print: sheets.kinds.style.stamp_floors): a value that does not fit at 6 pt is laid out
DARK, LIGHT = "#111111", "#ffffff"


def _rgb(hex_colour: str) -> tuple[float, float, float]:
    h = hex_colour.lstrip("#")
    if len(h) == 3:
        h = "".join(c * 2 for c in h)
    return tuple(int(h[i:i + 2], 16) / 255 for i in (0, 2, 4))  # type: ignore[return-value]


def luminance(hex_colour: str) -> float:
    def channel(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in _rgb(hex_colour))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def text_on(fill: str) -> str:
    """Dark or light text, whichever reads better on `fill` (one of them always reaches 4.5:1)."""
    return DARK if contrast(DARK, fill) >= contrast(LIGHT, fill) else LIGHT


def tint(hex_colour: str, strength: float = 0.22) -> str:
    """`hex_colour` mixed with white: `strength` of the colour, the rest paper."""
    r, g, b = (round(255 - (255 - c * 255) * strength) for c in _rgb(hex_colour))
    return f"#{r:02x}{g:02x}{b:02x}"

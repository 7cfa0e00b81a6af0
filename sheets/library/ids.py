"""Fields every printable model shares, and what their patterns mean in words."""
from __future__ import annotations

from pydantic import Field

ID_PATTERN = r"^[a-z0-9][a-z0-9-]*$"
Id = Field(pattern=ID_PATTERN)
COLOUR_OR_NAME = r"^(#[0-9a-fA-F]{6}|[a-z0-9][a-z0-9-]*)$"
IMAGE_FILE = r"^(images/)?[^/\\]+\.(png|jpg|jpeg|svg|gif|webp)$"

#: a pattern a field's text must match -> what it asks for, in the messages (never the regex); a
#: module declaring a pattern of its own adds its words (sheets.library.tables: dice)
PATTERN_WORDS = {
    ID_PATTERN: "an id is lower-case letters, digits and hyphens, starting with a letter or digit (e.g. heavy-gun)",
    r"^[a-z][a-z0-9-]*$": "an id here is lower-case letters, digits and hyphens, starting with a letter (e.g. my-game)",
    r"^[a-z0-9-]+$": "lower-case letters, digits and hyphens only",
    r"^[a-z][a-z0-9_]*$": "a plug-in's name is lower-case letters, digits and underscores, starting with a letter",
    r"^#[0-9a-fA-F]{6}$": "a colour is # and six hex digits (#1f4e79)",
    COLOUR_OR_NAME: "a colour is # and six hex digits (#1f4e79) or the name of one of theme.yaml's colours",
    IMAGE_FILE: "an image is a file of the game's images/ folder (art.png, images/art.png): png, jpg, svg, gif or webp",
}


def pattern_words(pattern: str | None) -> str:
    """What a field's pattern asks for, in words."""
    if pattern in PATTERN_WORDS:
        return PATTERN_WORDS[pattern]
    return "it is not written the way this field is (see docs/fields.md)"

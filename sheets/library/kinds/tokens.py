"""Token sheets: round counters to cut out."""
from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from sheets.base import limits
from sheets.library.ids import Id
from sheets.library.kinds import ContentKind
from sheets.library.validation import Strict


#: the marks a token type may wear (sheets/kinds/tokens/shapes.py draws them): in greyscale, or on a
#: mono laser printer, two types of one colour are told apart by their mark
Shape = Literal["circle", "square", "diamond", "triangle", "triangle-down", "hexagon", "pentagon", "octagon",
                "star", "plus", "cross", "ring", "square-ring", "bar", "pillar", "chevron"]


class Token(Strict):
    id: str = Id
    label: str
    detail: str | None = None
    count: int = Field(1, ge=0, le=200)
    color: str | None = Field(None, pattern=r"^#[0-9a-fA-F]{6}$")
    #: its mark; without one, the sheet gives each type a mark no other type of it wears
    shape: Shape | None = None


class TokenSheet(Strict):
    title: str
    diameter_mm: float = Field(20, ge=8, le=60)
    tokens: list[Token]

    @model_validator(mode="after")
    def _something_to_print(self):
        if not any(t.count for t in self.tokens):
            raise ValueError("every token has count 0 (or there are none), so there is nothing to print")
        shapes = [t.shape for t in self.tokens if t.shape is not None]
        if len(shapes) != len(set(shapes)):
            twice = sorted({s for s in shapes if shapes.count(s) > 1})
            raise ValueError(f"two token types wear the mark {twice[0]!r}: give each type its own")
        total = sum(t.count for t in self.tokens)
        if total > limits.MAX_TOKENS:
            raise ValueError(f"the counts add up to {total:,} tokens, more than the {limits.MAX_TOKENS:,} "
                             f"one sheet may have")
        return self


CONTENT = ContentKind("tokens", TokenSheet, "tokens.yaml", "a game's tokens.yaml", rank=3)

"""What a printable kind is (`Kind`): the record the registry holds, one per kind.

A module of its own, importing nothing heavy, so that a game's plug-in (loaded with the
content, for `validate` and `--json`) can declare its kinds without loading any builder.
A kind's content side (its model and files) is its `ContentKind` (`sheets.library.kinds`);
this is its print side.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sheets.base.options import PrintOptions
    from sheets.library.content import Game, Library
    from sheets.library.kinds import ContentKind
    from sheets.pipeline.sheet import Sheet

#: (library, game, options, id or None for all) -> the kind's sheets for that game, printed as the options say
Make = Callable[["Library", "Game", "PrintOptions", "str | None"], "list[Sheet]"]


@dataclass(frozen=True)
class Kind:
    name: str  # the command and the watch target's KIND ("cards"); a plug-in's kinds are "<game>.<kind>"
    about: str  # what it is: its command's help, and for a plug-in's kind its description
    templates: tuple[str, ...]  # the templates its sheets are made from
    printing: str  # its key in content/_print/printing.yaml: the contents page's printing advice
    content: ContentKind | None = None  # what its content file says (None: made from other content)
    present: Callable[[Game], bool] | None = None  # does a game have this kind? (None: the plug-in decides)
    make: Make | None = None  # its sheets, for the kit, `sheets print` and `sheets watch` (None: its game's commands only)
    listed: Callable[[Game], str] | None = None  # its line in `sheets list`, for a game that has it
    takes_id: bool = False  # `watch KIND:GAME:ID` names one of them (a card set, a tracker)
    kit_rank: int = 0  # its place in a game's kit section: the reference, what is used in play, what is cut
    command: str | None = None  # the help of its plain command `sheets KIND GAME` (None: `sheets print KIND GAME` only)
    ink: bool = True  # its commands take --preview and --ink-saver


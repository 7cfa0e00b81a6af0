"""What every printable takes, validated once: the paper, ink saver, where output goes, the content.

The CLI builds it from its options (sheets.toml having set their defaults), the desk from
its forms and the workspace's sheets.toml, the watcher from its command line: all through
this one constructor, so a paper is checked by one rule. Each `make_*` function takes it
plus what is its own (a card set, a tracker, a seed).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from sheets.base import output, paper, paths


@dataclass(frozen=True)
class PrintOptions:
    paper: str = "a4"
    ink_saver: bool = False
    output: Path | None = None  # a file (.pdf) or folder; None: the default output folder
    content: Path | None = None  # a content folder (homebrew); None: the bundled content

    def __post_init__(self) -> None:
        object.__setattr__(self, "paper", paper.check(self.paper))

    def target(self, filename: str) -> Path:
        """Where a printable named `filename` is written: -o's file, or `filename` in -o's folder
        (the default output folder without -o)."""
        return output.resolve_target(self.output, paths.default_output_dir(), filename)

    def folder(self) -> Path:
        """The folder for printables that write several files."""
        return self.output if self.output is not None else paths.default_output_dir()

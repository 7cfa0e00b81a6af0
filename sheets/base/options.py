"""What every printable takes, validated once: the paper, ink saver, where output goes, the content.

The CLI builds it from its options (sheets.toml having set their defaults and its output
root), the desk from its forms and the workspace's sheets.toml, the watcher from its command
line: all through this one constructor, so a paper is looked up by one rule and travels
resolved (`options.paper` is a `sheets.base.paper.Paper`: name and size). Each `make_*`
function and each kind's `make` takes it whole, plus what is its own (a card set, a
tracker, a seed); the kit takes `sheets.kinds.print_plugin.KitOptions`, the same plus what only the kit takes.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from sheets.base import output
from sheets.base.paper import Paper, resolve


def default_output_dir(root: Path | None = None) -> Path:
    """The output root: the folder sheets.toml names, or output/ in the current folder."""
    return Path(root) if root is not None else Path.cwd() / "output"


@dataclass(frozen=True)
class PrintOptions:
    paper: Paper = resolve("a4")  # given by name or as a Paper; always a Paper once made
    ink_saver: bool = False
    large_print: bool = False  # the large-print edition: every text at the theme's large-print floor, high contrast
    output: Path | None = None  # a file (.pdf) or folder; None: the output root
    content: Path | None = None  # a content folder (homebrew); None: the bundled content
    root: Path | None = None  # the output root (sheets.toml `output`); None: ./output/

    def __post_init__(self) -> None:
        object.__setattr__(self, "paper", resolve(self.paper))

    def target(self, filename: str) -> Path:
        """Where a printable named `filename` is written: -o's file, or `filename` in -o's folder
        (the output root without -o)."""
        return output.resolve_target(self.output, self.home(), filename)

    def folder(self) -> Path:
        """The folder for printables that write several files."""
        return self.output if self.output is not None else self.home()

    def home(self) -> Path:
        """The output root: where output goes when no -o is given."""
        return default_output_dir(self.root)


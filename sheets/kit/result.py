"""What a kit build made: its files, in the order the CLI reports them (and the build state records)."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sheets.pipeline.sheet import Built


@dataclass
class Kit:
    built: list[Built]  # the sheets built this time ([] when the kit was up to date)
    seed: int
    kit_pdf: Path
    manifest: Path
    packets: list[Path] = field(default_factory=list)
    previews: list[Path] = field(default_factory=list)
    parts: list[Path] = field(default_factory=list)  # every part's PDF, in kit order
    unchanged: int = 0  # parts taken from the cache (all of them when up to date)
    up_to_date: bool = False  # nothing changed since the last identical build: nothing was made

    def files(self) -> list[Path]:
        """Every file of the kit, in the order the CLI reports them."""
        return [*self.parts, *self.packets, self.manifest, *self.previews, self.kit_pdf]

    def breakdown(self) -> str:
        """What `files()` holds, in words: '33 parts, 4 player packets, manifest.json, kit.pdf'."""
        def n(count: int, one: str, many: str) -> str:
            return f"{count} {one if count == 1 else many}"
        said = [n(len(self.parts), "part", "parts")]
        if self.packets:
            said.append(n(len(self.packets), "player packet", "player packets"))
        if self.previews:
            said.append(n(len(self.previews), "preview", "previews"))
        return ", ".join(said + ["manifest.json", "kit.pdf"])


def recorded_kit(done, seed: int) -> Kit:
    files, info = done.files, done.info
    n_parts, n_packets, n_previews = info["parts"], info["packets"], info["previews"]
    parts, rest = files[:n_parts], files[n_parts:]
    packets, rest = rest[:n_packets], rest[n_packets:]
    manifest, rest = rest[0], rest[1:]
    previews, kit_pdf = rest[:n_previews], rest[n_previews]
    return Kit([], seed, kit_pdf, manifest, packets, previews, parts, unchanged=n_parts, up_to_date=True)

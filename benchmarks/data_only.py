"""Data-only speed: rolling missions and soldiers without rendering anything."""
from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sheets.base.dice import Dice
from sheets.games.regiment.sheets import roll_squad
from sheets.games.wotw.mission import MissionRoller
from sheets.library.content import Library


def main() -> None:
    lib = Library()
    roller = MissionRoller(lib.game("wotw").data)
    dice = Dice.seeded(1)
    start = time.perf_counter()
    for _ in range(10_000):
        roller.roll(dice, "winter-1942", airborne=True, beachhead=True)
    took = time.perf_counter() - start
    print(f"10,000 missions (data)   {took:6.3f} s  (target: 1,000 < 1 s; issue: 10,000 well under 1 s)")
    regiment = lib.game("regiment")
    start = time.perf_counter()
    roll_squad(regiment, Dice.seeded(2), 10_000)
    print(f"10,000 random soldiers   {time.perf_counter() - start:6.3f} s")


if __name__ == "__main__":
    main()

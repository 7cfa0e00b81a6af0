"""The one source of randomness.

Every generator takes a `Dice`. A seeded `Dice` reproduces the same rolls for
the same seed; a scripted `Dice` replays dice rolled at a real table, in
order. Every roll is logged so that sheets can print an audit trail.
"""
from __future__ import annotations

import random
from contextvars import ContextVar
from typing import NamedTuple, Sequence, TypeVar

from sheets.base import limits
from sheets.base.errors import SheetsError

T = TypeVar("T")


class DiceError(SheetsError):
    """Scripted dice ran out or did not fit the die rolled."""


#: the scripted dice parsed from the command line in this run, so the CLI can report
#: any left unused at the end (`unused_dice`)
_scripted: ContextVar[tuple["Dice", ...]] = ContextVar("scripted_dice", default=())


def forget_scripted() -> None:
    _scripted.set(())


def count_given(dice: "Dice") -> None:
    """Count these scripted dice as given on this run's command line (once, however often asked)."""
    if all(d is not dice for d in _scripted.get()):
        _scripted.set(_scripted.get() + (dice,))


def unused_dice() -> int:
    """How many dice given with --dice in this run were never rolled."""
    return sum(d.unused for d in _scripted.get())


class Roll(NamedTuple):
    """One physical die: how many sides, what it showed, what it was for."""

    sides: int
    value: int
    purpose: str


class Dice:
    """Seeded or scripted dice with d3 (halved d6), d6, 2d6 and d66."""

    def __init__(self, seed: int | None = None, script: Sequence[int] | None = None):
        if (seed is None) == (script is None):
            raise ValueError("give exactly one of seed or script")
        self.seed = seed
        self.script = list(script) if script is not None else None
        self._rng = random.Random(seed) if seed is not None else None
        self._next = 0
        self.log: list[Roll] = []

    @classmethod
    def seeded(cls, seed: int) -> "Dice":
        return cls(seed=seed)

    @classmethod
    def scripted(cls, values: Sequence[int]) -> "Dice":
        return cls(script=values)

    @classmethod
    def parse_script(cls, text: str, *, given: bool = True) -> "Dice":
        """'3,5,1' (or '3 5 1') -> scripted dice; bad text is a user error.

        `given`: dice given on this run's command line, counted by `unused_dice` (dice stored in a
        file and replayed are not: they were counted when they were given)."""
        parts = [p for p in text.replace(",", " ").split() if p]
        if not parts:
            raise DiceError("--dice needs at least one value, e.g. --dice 3,5,1")
        if len(parts) > limits.MAX_DICE:
            raise DiceError(f"--dice: {len(parts):,} dice given; at most {limits.MAX_DICE:,} may be replayed")
        values = []
        for i, p in enumerate(parts, start=1):
            # ASCII digits only: '²' and '٣' are digits to str.isdigit but not die results
            # a die result has a few digits: a longer entry is refused before int() reads it (Python
            # refuses numbers of over 4,300 digits with a ValueError of its own)
            if (not (p.isascii() and p.isdigit()) or len(p) > len(str(limits.MAX_DIE_VALUE)) + 1
                    or not 1 <= int(p) <= limits.MAX_DIE_VALUE):
                shown = p if len(p) <= 20 else f"{p[:12]}...({len(p):,} characters)"
                raise DiceError(f"--dice: entry {i} ({shown!r}) is not a die result (whole numbers 1 to "
                                f"{limits.MAX_DIE_VALUE} in ASCII digits, comma separated)")
            values.append(int(p))
        dice = cls.scripted(values)
        if given:
            count_given(dice)
        return dice

    @property
    def describe(self) -> str:
        """How to reproduce these dice: 'seed 7' or 'dice 3,5,1'."""
        if self.seed is not None:
            return f"seed {self.seed}"
        return "dice " + ",".join(str(v) for v in self.script or [])

    # -- the primitive -----------------------------------------------------
    def roll(self, sides: int, purpose: str = "") -> int:
        """One die with `sides` faces, 1..sides."""
        if self._rng is not None:
            # one Mersenne-Twister double per die: fast and the same on every platform
            value = 1 + int(self._rng.random() * sides)
        else:
            assert self.script is not None
            if self._next >= len(self.script):
                raise DiceError(
                    f"ran out of scripted dice: {len(self.script)} given, "
                    f"die #{self._next + 1} needed (a d{sides}{' for ' + purpose if purpose else ''})"
                )
            value = self.script[self._next]
            if not 1 <= value <= sides:
                raise DiceError(
                    f"scripted die #{self._next + 1} is {value}, but it was rolled as a d{sides}"
                    f"{' for ' + purpose if purpose else ''} (1-{sides})"
                )
            self._next += 1
        self.log.append(Roll(sides, value, purpose))
        return value

    # -- the dice the games use -------------------------------------------
    def d6(self, purpose: str = "") -> int:
        return self.roll(6, purpose)

    def d3(self, purpose: str = "") -> int:
        """1d3 is one d6 halved, rounding up (1-2 -> 1, 3-4 -> 2, 5-6 -> 3)."""
        return (self.d6(purpose) + 1) // 2

    def two_d6(self, purpose: str = "") -> int:
        return self.d6(purpose) + self.d6(purpose)

    def d66(self, purpose: str = "") -> int:
        """Tens die then units die: 11..66."""
        tens = self.d6(f"{purpose} (tens)" if purpose else "tens")
        units = self.d6(f"{purpose} (units)" if purpose else "units")
        return tens * 10 + units

    def pick(self, options: Sequence[T], purpose: str = "") -> T:
        """One of `options`, as a d<len> roll (scripted: the 1-based index)."""
        if not options:
            raise ValueError("nothing to pick from")
        return options[self.roll(len(options), purpose) - 1]

    def sample(self, options: Sequence[T], k: int, purpose: str = "") -> list[T]:
        """`k` different options, each a pick from those not yet taken."""
        pool = list(options)
        chosen = []
        for _ in range(k):
            item = self.pick(pool, purpose)
            pool.remove(item)
            chosen.append(item)
        return chosen

    @property
    def used(self) -> int:
        return len(self.log)

    @property
    def unused(self) -> int:
        """Scripted dice not rolled (yet); 0 for seeded dice."""
        return len(self.script) - self._next if self.script is not None else 0

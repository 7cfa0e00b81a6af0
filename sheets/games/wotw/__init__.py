"""The Way of the Warrior: mission pre-roller, log sheet, campaign and reference."""
from sheets.games.wotw.plugin import plugin  # noqa: F401

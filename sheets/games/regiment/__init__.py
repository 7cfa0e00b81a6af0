"""The Regiment: playbooks (blank, filled, random) and the GM material."""
from sheets.games.regiment.plugin import plugin  # noqa: F401

"""How numbers read on a sheet and in a message (no Jinja here: the --json paths use it too)."""
from __future__ import annotations


def signed(value: int | None, zero: str = "=0") -> str:
    """+2 / =0 / -1, as the playbooks print stats (`zero` for how 0 reads)."""
    if value is None:
        return "—"
    return f"+{value}" if value > 0 else (zero if value == 0 else str(value))

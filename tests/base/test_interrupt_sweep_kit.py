"""The dozen moments of a cold kit, from just after start to the final merge.

A sweep of tests/base/test_interrupts.py (read its docstring: what each point must show), in a
module of its own so that pytest-xdist runs the sweeps at once on different workers."""
from __future__ import annotations

import pytest
from sweep import KIT_SWEEP, sweep
from sweep import busy, references, table  # noqa: F401 (the sweep's fixtures, one set per module)

pytestmark = pytest.mark.slow


def test_sweep_a_cold_kit(busy, references, table, tmp_path):
    sweep(KIT_SWEEP, references, table, tmp_path)

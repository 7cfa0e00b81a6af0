"""The cold kit again with fontTools as the subsetter (as on a machine without HarfBuzz's
subsetter: the slower cold kit), and its previews.

A sweep of tests/base/test_interrupts.py (read its docstring: what each point must show), in a
module of its own so that pytest-xdist runs the sweeps at once on different workers."""
from __future__ import annotations

import pytest
from sweep import FONTTOOLS_SWEEP, sweep
from sweep import busy, references, table  # noqa: F401 (the sweep's fixtures, one set per module)

pytestmark = pytest.mark.slow


def test_sweep_a_cold_kit_with_the_fonttools_subsetter(busy, references, table, tmp_path):
    """As on a machine without HarfBuzz's subsetter (the slower cold kit), with previews."""
    sweep(FONTTOOLS_SWEEP, references, table, tmp_path)

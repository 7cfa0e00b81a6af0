"""The stamped batch commands: a batch of playbooks and a batch of missions.

A sweep of tests/base/test_interrupts.py (read its docstring: what each point must show), in a
module of its own so that pytest-xdist runs the sweeps at once on different workers."""
from __future__ import annotations

import pytest
from sweep import BATCH_SWEEP, sweep
from sweep import busy, references, table  # noqa: F401 (the sweep's fixtures, one set per module)

pytestmark = pytest.mark.slow


def test_sweep_stamped_batches(busy, references, table, tmp_path):
    sweep(BATCH_SWEEP, references, table, tmp_path)

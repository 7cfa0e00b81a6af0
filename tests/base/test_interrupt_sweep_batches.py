"""The stamped batch commands: a batch of playbooks and a batch of missions.

A sweep of tests/base/test_interrupts.py (read its docstring: what each point must show), in a
module of its own so that pytest-xdist runs the sweeps at once on different workers."""
from __future__ import annotations

import pytest
from sweep import MISSIONS, PLAYBOOKS, sweep, turns
from sweep import busy, references, table  # noqa: F401 (the sweep's fixtures, one set per module)

pytestmark = pytest.mark.slow


def test_sweep_stamped_batches(busy, references, table, tmp_path):
    sweep(turns(PLAYBOOKS, [0.05, "laying out blanks", 0.4, "stamping", 0.75, "writing the stamped file"])
          + turns(MISSIONS, [0.15, "stamping", "writing the stamped file"]),
          references, table, tmp_path)

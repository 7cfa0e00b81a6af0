"""WeasyPrint's laid-out boxes are reached in one module, checked on the pinned version."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from sheets.base import weasyboxes

pytestmark = pytest.mark.unit
SHEETS = Path(__file__).resolve().parents[2] / "sheets"


def test_the_module_was_checked_on_the_weasyprint_that_is_installed_and_pinned():
    import weasyprint

    pinned = re.search(r"^weasyprint==(\S+)", (SHEETS.parent / "requirements.txt").read_text(), re.M)
    assert weasyprint.__version__ == weasyboxes.CHECKED_ON == pinned.group(1)


def test_no_other_module_reaches_the_page_box():
    reaching = [p.relative_to(SHEETS).as_posix() for p in SHEETS.rglob("*.py") if "._page_box" in p.read_text()]
    assert reaching == ["base/weasyboxes.py"]


def test_a_page_without_its_box_is_named_with_the_version_checked():
    with pytest.raises(RuntimeError, match=weasyboxes.CHECKED_ON):
        weasyboxes.page_box(object())

"""WeasyPrint's laid-out boxes: the one place that reaches them (WeasyPrint has no public way).

A WeasyPrint `Document` gives its pages, not the box tree it laid them out from; the stamper
needs the boxes (where each field and each page footer was put: `sheets.pipeline.stamp.layout`)
and so does the overflow check (what escapes the page: `sheets.base.overflow`). `page_box` is
the only reader of that private attribute, checked on the pinned WeasyPrint (`CHECKED_ON`,
requirements.txt): an upgrade that moves it fails here, by name, and
tests/base/test_weasyboxes.py fails on any other version until this is checked again.
"""
from __future__ import annotations

CHECKED_ON = "70.0"  # the WeasyPrint version whose Page._page_box this was read against


def page_box(page):
    """The laid-out box tree of a WeasyPrint page (its PageBox: margin boxes, then the content)."""
    try:
        return page._page_box  # noqa: SLF001 - no public way to the laid-out boxes (see the module)
    except AttributeError:
        import weasyprint  # noqa: PLC0415 - only to name the version in the message

        raise RuntimeError(f"WeasyPrint {weasyprint.__version__} keeps no laid-out page box where "
                           f"{CHECKED_ON} did (sheets/base/weasyboxes.py)") from None

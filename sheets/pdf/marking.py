"""A stamped page's content marked for the structure tree, where its overlay was drawn.

A tagged stamped file's page is its blank (a form XObject, `/WSBase`) drawn, then its overlay
page's content; `mark_content` marks that content as `TaggedPdf` (sheets.pdf.tagged)
writes it, and `marked_pages` does so for every page of a chunk's overlay in the worker that drew
it, so that the process writing the file only numbers each page's objects. No object number is
in the content, so the bytes are the same wherever it is made. This module brings pikepdf into a
worker (the writing process reads the overlay with pikepdf too).
"""
from __future__ import annotations

import io
import zlib

from sheets.base import interrupts

with interrupts.held():  # a Ctrl-C while pikepdf registers its C++ types aborts the process
    import pikepdf

BASE = "/WSBase"
BASE_DRAWN = b"q /WSBase Do Q\n"  # a stamped page's content begins by drawing its blank


def runs(ops: list, forms: dict) -> list[tuple[str, list]]:
    """The page's own operators cut at the top level: ("form", ops) for a `q … Do … Q` group
    (or a bare Do), ("marked", ops) for a group already marked, ("own", ops) for the rest.
    `ops`: (operands, operator) pairs, or pikepdf's instructions as parsed, each run holding them
    as given (read by index: an instruction's operands become Python values only for a Do)."""
    found: list[tuple[str, list]] = []
    names = [str(item[1]) for item in ops]  # each operator's name, once
    start = depth = 0
    for end, name in enumerate(names, 1):
        if name in _OPENS:
            depth += 1
        elif name in _CLOSES:
            depth -= 1
        if depth > 0:
            continue
        group = ops[start:end]
        kind = ("marked" if names[start] in ("BMC", "BDC")
                else "form" if "Do" in names[start:end] and any(
                    str(o[1]) == "Do" and str(o[0][0]) in forms for o in group) else "own")
        if kind == "own" and found and found[-1][0] == "own":
            found[-1][1].extend(group)
        else:
            found.append((kind, group))
        start = end
    if start < len(ops):
        found.append(("own", ops[start:]))
    return found


_OPENS = frozenset(("q", "BT", "BMC", "BDC"))
_CLOSES = frozenset(("Q", "ET", "EMC"))


def has_text(ops: list) -> bool:
    return any(str(item[1]) in ("Tj", "TJ", "'", '"') for item in ops)


def mark_content(ops: list, tagged: bool) -> tuple[bytes, str]:
    """A stamped page's content (its blank drawn, then its overlay: `ops`, the (operands,
    operator) pairs pikepdf parses) marked for the structure tree: the blank's form left as it is
    when the blank is tagged, each run of the page's own text a `Span` (MCID 0, 1, ...), the rest
    an `Artifact`. Returns the content and its events, in order: "F" the tagged form, "T" a text
    run (`TaggedPdf._tagged_page` numbers the page's objects by them). No object number is in the
    content, so a worker can make it. The instructions are written back as parsed (a real
    operand as it was written), never turned into Python values: that is most of the cost, and
    the bytes are the same whichever process marks the page."""
    out: list = []
    events: list[str] = []
    spans = 0
    form = tagged  # the first tagged form is the blank's
    for kind, group in runs(ops, {BASE: True} if tagged else {}):
        if kind == "form" and form:
            form = False
            events.append("F")
            out.extend(group)
        elif kind in ("form", "marked"):
            out.extend(group)
        elif has_text(group):
            out.append(([pikepdf.Name.Span, pikepdf.Dictionary(MCID=spans)], pikepdf.Operator("BDC")))
            events.append("T")
            spans += 1
            out.extend(group)
            out.append(([], pikepdf.Operator("EMC")))
        else:
            out.append(([pikepdf.Name.Artifact], pikepdf.Operator("BMC")))
            out.extend(group)
            out.append(([], pikepdf.Operator("EMC")))
    return pikepdf.unparse_content_stream(out), "".join(events)


def marked_pages(overlay: bytes) -> list[tuple[bytes, str]] | None:
    """Each page of a chunk's overlay PDF as `TaggedPdf.add_marked_page` takes it: its content
    marked (on a tagged blank) and compressed as the writer compresses a stream, and its events
    (done in the worker that drew the overlay, so that the writing process only numbers them).
    None when a page's content is not one stream (the writing process then marks it, as ever)."""
    found = []
    with pikepdf.open(io.BytesIO(overlay)) as pdf:
        scratch = pikepdf.Stream(pdf, b"")
        for page in pdf.pages:
            contents = page.obj.get("/Contents")
            if contents is not None and not isinstance(contents, pikepdf.Stream):
                return None
            scratch.write(BASE_DRAWN + (contents.read_bytes() if contents is not None else b""))
            marked, events = mark_content(pikepdf.parse_content_stream(scratch), True)
            found.append((zlib.compress(marked, 6), events))
    return found

"""A stamped page's content marked for the structure tree, where its overlay was drawn.

A tagged stamped file's page is its blank (a form XObject, `/WSBase`) drawn, then its overlay
page's content; `mark_content` marks that content as `TaggedPdf` (sheets.pdf.tagged)
writes it, and `marked_pages` does so for every page of a chunk's overlay in the worker that drew
it, so that the process writing the file only numbers each page's objects. No object number is
in the content, so the bytes are the same wherever it is made. This module brings pikepdf into a
worker, not pypdf (the writer's).
"""
from __future__ import annotations

import io
import re
import zlib

from sheets.pdf.finish import _has_text, _runs, pikepdf

_BASE = "/WSBase"
BASE_DRAWN = b"q /WSBase Do Q\n"  # a stamped page's content begins by drawing its blank


def mark_content(ops: list, tagged: bool) -> tuple[bytes, str]:
    """A stamped page's content (its blank drawn, then its overlay: `ops`, the (operands,
    operator) pairs pikepdf parses) marked for the structure tree: the blank's form left as it is
    when the blank is tagged, each run of the page's own text a `Span` (MCID 0, 1, ...), the rest
    an `Artifact`. Returns the content and its events, in order: "F" the tagged form, "T" a text
    run (`TaggedPdf._tagged_page` numbers the page's objects by them). No object number is in the
    content, so a worker can make it."""
    return _marked(_runs([(operands, op) for operands, op in ops], {_BASE: True} if tagged else {}), tagged)


def _marked(runs: list, tagged: bool) -> tuple[bytes, str]:
    """`mark_content` of the page's runs (`finish._runs`)."""
    out: list = []
    events: list[str] = []
    spans = 0
    form = tagged  # the first tagged form is the blank's
    for kind, group in runs:
        if kind == "form" and form:
            form = False
            events.append("F")
            out.extend(group)
        elif kind in ("form", "marked"):
            out.extend(group)
        elif _has_text(group):
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


# The worker's way, twice as quick: the runs (`finish._runs`) of the instructions as parsed, their
# operands never turned into Python values (that is most of the cost). pikepdf writes a parsed
# real operand back as it was written, and a converted one in its canonical form (".5" as "0.5",
# "-.5" as "-0.5", "5." as "5"): the content is put in that form first (`_canonical`, outside its
# strings), so that both ways give the same bytes (tests/pipeline/test_stream_tagging.py compares
# the two whole files). A real inside an array is written otherwise again ("-0.25" as "-.25"), so
# a content with an array (a TJ's, a dash's: the overlay draws none) goes the slower way.
_STRING = re.compile(rb"\((?:[^()\\]|\\.|\((?:[^()\\]|\\.)*\))*\)|<[0-9A-Fa-f\s]*>", re.S)
_FRACTION = re.compile(rb"(?<![\w.#/])(-?)\.(\d)")
_WHOLE = re.compile(rb"(?<![\w.#/])(-?\d+)\.(?![\w])")
_INLINE_IMAGE = re.compile(rb"(?<![\w])ID(?![\w])")


def _canonical(content: bytes) -> bytes | None:
    """The content with every real number written as pikepdf writes a converted one; None when
    it has an array or may hold an inline image (binary data): the slower way then."""
    if _INLINE_IMAGE.search(content):
        return None
    out, at = [], 0
    for string in _STRING.finditer(content):
        out += [content[at:string.start()], string.group(0)]
        at = string.end()
    out.append(content[at:])
    if any(b"[" in part for part in out[::2]):
        return None
    out[::2] = [_WHOLE.sub(rb"\1", _FRACTION.sub(rb"\g<1>0.\2", part)) for part in out[::2]]
    return b"".join(out)


def marked_pages(overlay: bytes) -> list[tuple[bytes, str, bytes | None, int]] | None:
    """Each page of a chunk's overlay PDF as `TaggedPdf.add_marked_page` takes it: its content
    marked (on a tagged blank) and compressed as the writer compresses a stream, and its events
    (done in the worker that drew the overlay, so that the writing process only numbers them);
    then its resources dictionary written out (pages with the same one share what the writer
    parsed of it; None: the page has none of its own) and its object number in the overlay.
    None when a page's content is not one stream (the writing process then marks it, as ever)."""
    found = []
    with pikepdf.open(io.BytesIO(overlay)) as pdf:
        scratch = pikepdf.Stream(pdf, b"")
        for page in pdf.pages:
            contents = page.obj.get("/Contents")
            if contents is not None and not isinstance(contents, pikepdf.Stream):
                return None
            content = BASE_DRAWN + (contents.read_bytes() if contents is not None else b"")
            canonical = _canonical(content)
            scratch.write(canonical if canonical is not None else content)
            ops = pikepdf.parse_content_stream(scratch)
            marked, events = (_marked(_runs(ops, {_BASE: True}), True) if canonical is not None
                              else mark_content(ops, True))
            own = page.obj.get("/Resources")  # the page's own (not inherited): the writer parses one of each
            found.append((zlib.compress(marked, 6), events, own.unparse() if own is not None else None,
                          page.obj.objgen[0]))
    return found

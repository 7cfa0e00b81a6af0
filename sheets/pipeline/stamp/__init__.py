"""Filled sheets stamped onto cached blanks: lay a sheet out once, then only draw its values.

A stamped sheet is a list of parts, each a pair (blank, filled) of sheets made from
the same template: the blank is the sheet with no values, the filled one carries one
character's (or one mission's) values. The blank is laid out by WeasyPrint once and
cached, with the boxes of its `data-field` elements (the `write()`/`box()` macros put
every per-character value or mark in one): `layout`. For each part, the filled sheet's
HTML is rendered with Jinja only (cheap) and its values read (`fields`); they are drawn
with reportlab (`fonts`, `overlay`), at the boxes of the blank's same-named fields, on a
transparent page laid over the blank; `write` runs the job and streams the file.

Generic by construction, with no per-field code:
  - a field's kind comes from its markup: class `box` (a check box: marked or
    premarked is painted), `data-mark="underline"` / `"shade"` (text that is chosen by
    a mark), `data-rows` (a <section>: rows of plain and bold words whose number and
    heights are the part's own, set in the look of the blank's sample rows:
    sheets.pipeline.stamp.rows), anything else is text written in the field's own font,
    size and colour;
  - the filled HTML with every field (and the footer string) blanked must equal the
    blank's HTML blanked the same way. Where it does not (a template varies outside its
    fields, or a field cannot be painted over), that part is laid out in full instead:
    slower, never wrong.
The page footers (the footer string and "page N of M") are stamped the same way, at
the blank's margin boxes, so that the page count can run over the whole document.
A value (or footer) is stamped only when it can be drawn exactly: every glyph in the
stamp font, nothing to reorder or shape, the whole text in its box at no less than the
smallest type. Otherwise that part is laid out in full, where the layout engine's font
fallback, bidi and line breaking print it whole: nothing is clipped, dropped or refused.

The package itself imports nothing: a worker that lays out blanks imports `layout` (and
`glyphs`), not the stamper's reportlab. Callers import `sheets.pipeline.stamp.write`.
"""

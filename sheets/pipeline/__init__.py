"""Stage two: Sheets turned into files. Nothing here rolls a die or reads content.

`sheet` (the Sheet: template, context, file name), `rendering` (Jinja, page sizes,
WeasyPrint), `cache` (keys from HTML and fonts), `workers` (the layout process pool),
`build` (sheets to files, through the cache and the pool), `layout_jobs` (what a worker
runs), `stamp` (filled sheets drawn onto cached blanks; the PDF itself is written by
`sheets.pdf`), `preview` (PNG pages), `write` (the one writer: a command's sheets to a
file, a folder or one merged file, as its options say).

May import: `sheets.base`, `sheets.pdf`, `sheets.library`.
"""

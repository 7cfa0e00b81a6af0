"""Printable kinds: each a folder with its print side (`__init__.py`: `KIND`; `builder.py`).

A kind's content model is `sheets/library/kinds/<kind>.py` (the library loads it); its
`builder.py` turns the content into `Sheet`s for the pipeline, and its `KIND` (a `Kind`)
says its templates, printing advice, kit rank and `sheets list` line. `print_plugin` is a
game plug-in's print side (its kinds, kit sheets, packets, reference pages; `KitOptions`). `calibration` is the
printer's calibration sheet, a kind with no content file.

Builders may import: `sheets.base`, `sheets.library`, `sheets.pipeline`.
"""

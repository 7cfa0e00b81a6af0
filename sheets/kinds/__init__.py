"""Printable kinds: each a folder with its content model and its builder.

A kind's `model.py` is what its content file says (loaded by `sheets.library`, so it
belongs to the library layer and imports only `sheets.base` and `sheets.library`); its
`builder.py` turns the model into `Sheet`s for the pipeline. `calibration` is the
printer's calibration sheet, a kind with no content file.

Builders may import: `sheets.base`, `sheets.library`, `sheets.pipeline`.
"""

"""Tokens: counters and markers cut from a sheet (`model.py` the content, `builder.py` the sheet)."""

"""Trackers: strength and clock trackers for NPC units (`model.py` the content, `builder.py` the sheet)."""

"""Reference sheets: a game's reference.yaml (`sheets.library.blocks.ReferenceDoc`) plus what its plug-in adds (`builder.py`)."""

"""Gauges: true-scale templates and rulers with a check bar (`model.py` the content, `builder.py` the sheet)."""

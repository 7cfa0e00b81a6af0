"""warsheets: print-and-play sheets for tabletop war games, from YAML content."""

__version__ = "0.1.0"

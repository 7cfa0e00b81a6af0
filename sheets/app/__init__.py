"""The application: what the commands do, as plain functions the CLI and the desk both call.

`api` makes each printable on its own (reference, cards, trackers, tokens, gauges,
calibration) and validates; `schemas` writes the JSON Schemas of every file kind;
`scaffold` is `sheets new game` (its files in `starter/`); `watch` rebuilds on save; `pack`
zips a game folder to share (`sheets pack`).

May import: every layer below: `sheets.base`, `sheets.library`, `sheets.pipeline`,
`sheets.kinds`, `sheets.kit`.
"""

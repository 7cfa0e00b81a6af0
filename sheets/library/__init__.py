"""The content library: YAML read with its lines, validated into models, linted.

`content` holds `Library` and `Game` (a game's folder loaded and checked), `yaml_source`
reads YAML keeping every value's line, `yaml_merge` writes new values into a user's
YAML keeping what the user wrote (comments, key order), `validation` turns pydantic's errors into located
problems, `lint` finds what validation cannot (unused keys, unreachable rows), `tables`
and `blocks` are the shared content shapes, `expressions` the safe templated text,
`access` how commands reach the library and their dice.

`kinds/` holds each printable kind's content side (its model and `ContentKind`), `files` the
file loader, `game` the loaded game, `plugins` a game plug-in's content hooks, `assets` a game
folder's own templates, fonts, images and icons.

May import: `sheets.base` (never `sheets.kinds`, not even for the type checker).
"""

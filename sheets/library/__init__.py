"""The content library: YAML read with its lines, validated into models, linted.

`content` holds `Library` and `Game` (a game's folder loaded and checked), `yaml_source`
reads YAML keeping every value's line, `validation` turns pydantic's errors into located
problems, `lint` finds what validation cannot (unused keys, unreachable rows), `tables`
and `blocks` are the shared content shapes, `expressions` the safe templated text,
`access` how commands reach the library and their dice.

May import: `sheets.base`, and each printable kind's model (`sheets.kinds.<kind>.model`,
which belongs to this layer although it lives in its kind's folder).
"""

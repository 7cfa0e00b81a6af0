"""JSON Schemas for every YAML kind the tool reads, generated from the models that validate them.

The generic content kinds (game.yaml, reference.yaml, cards/*.yaml, trackers.yaml,
tokens.yaml, gauges.yaml, _print/*.yaml) are listed here; each game plug-in adds its own
(`GamePlugin.file_kinds`: its content files and the user's files it reads, such as a
character or a campaign, each a `ContentKind` as the generic ones are). `sheets schema --out DIR` writes one `<kind>.schema.json` each; an
editor with a yaml-language-server (VS Code's YAML extension) reads the
`# yaml-language-server: $schema=…` line at the top of a file and completes and checks it.

A schema says what pydantic can say in JSON Schema: keys, types, required keys, enums,
patterns and bounds. Rules across fields and files (a card's size among the layouts, a
rank the playbook allows, dice coverage) are `sheets validate`'s.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel

from sheets.base import paths
from sheets.base.output import ensure_dir, write_atomic
from sheets.library.kinds.cards import Palette, PrintGeometry, Shops
from sheets.library.kinds.theme import BaseTheme
from sheets.kit.assemble import Printing
from sheets.library import kinds as content_kinds
from sheets.library import plugins as game_plugins
from sheets.library.content import SHARED_DIR, GameInfo, Library
from sheets.library.plugins import GamePlugin
from sheets.library.yaml_source import load_yaml

DRAFT = "https://json-schema.org/draft/2020-12/schema"
MODELINE = "# yaml-language-server: $schema="
SUFFIX = ".schema.json"


@dataclass(frozen=True)
class SchemaFile:
    name: str                 # the schema's file name without .schema.json: "cards", "<plugin>.character"
    model: type[BaseModel]
    pattern: str | None       # bundled files of this kind (glob below the content folder); None: user files only
    about: str


CORE = [
    SchemaFile("game", GameInfo, "*/game.yaml", "a game folder's game.yaml"),
    # every printable kind's content file, as the library declares it
    *(SchemaFile(k.name, k.model, f"*/{k.files}", k.about) for k in content_kinds.every()),
    SchemaFile("layouts", PrintGeometry, f"{SHARED_DIR}/layouts.yaml", "papers, card sizes and layouts"),
    SchemaFile("printing", Printing, f"{SHARED_DIR}/printing.yaml", "how each part of the kit is printed"),
    SchemaFile("shops", Shops, f"{SHARED_DIR}/shops.yaml", "print shops' card presets, each number with its source"),
    SchemaFile("palette", Palette, f"{SHARED_DIR}/palette.yaml", "the card colours, each in RGB and CMYK"),
    SchemaFile("design", BaseTheme, f"{SHARED_DIR}/design.yaml", "the base theme: type scale, headings, spacing, colours"),
]


def plugins() -> dict[str, GamePlugin]:
    """Every game plug-in in sheets/games/, by its name (found by where they live: the core names none)."""
    return game_plugins.every()


def plugin_kinds(name: str, plugin: GamePlugin) -> list[SchemaFile]:
    """A plug-in's kinds, named `<plugin>.<kind>`; their patterns are below the game's folder."""
    return [SchemaFile(f"{name}.{kind.name}", kind.model, kind.files, kind.about) for kind in plugin.file_kinds()]


def kinds() -> list[SchemaFile]:
    out = list(CORE)
    for name, plugin in sorted(plugins().items()):
        out += plugin_kinds(name, plugin)
    return out


def schema(kind: SchemaFile) -> dict:
    body = _conditionals(kind.model.model_json_schema(mode="validation"))
    return {"$schema": DRAFT, "$id": f"{kind.name}{SUFFIX}", "description": f"warsheets: {kind.about}", **body}


def _conditionals(node):
    """A discriminated union (`kind: boxes | grid | clocks`) as JSON Schema can check it: the tag one of
    the kinds, then the kind's keys (if/then), so an editor says what `validate` says where it says it
    (OpenAPI's `discriminator`, which pydantic writes, is not JSON Schema: an editor tries every kind)."""
    if isinstance(node, list):
        return [_conditionals(item) for item in node]
    if not isinstance(node, dict):
        return node
    node = {key: _conditionals(value) for key, value in node.items()}
    tag = node.get("discriminator")
    if isinstance(tag, dict) and "oneOf" in node and isinstance(tag.get("mapping"), dict):
        key, mapping = tag["propertyName"], tag["mapping"]
        rest = {k: v for k, v in node.items() if k not in ("discriminator", "oneOf")}
        return {**rest, "type": "object", "required": [key], "properties": {key: {"enum": sorted(mapping)}},
                "allOf": [{"if": {"properties": {key: {"const": value}}, "required": [key]}, "then": {"$ref": ref}}
                          for value, ref in sorted(mapping.items())]}
    return node


def schema_text(kind: SchemaFile) -> str:
    return json.dumps(schema(kind), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def write_schemas(out_dir: Path) -> list[Path]:
    """`sheets schema --out DIR`: one file per kind, written atomically; the paths in kind order."""
    out_dir = ensure_dir(Path(out_dir))
    return [write_atomic(out_dir / f"{kind.name}{SUFFIX}", schema_text(kind).encode("utf-8")) for kind in kinds()]


def bundled_files(root: Path | None = None) -> list[tuple[Path, SchemaFile]]:
    """Every file of a content folder that a kind describes, with its kind."""
    root = Path(root) if root else paths.content_dir()
    found: list[tuple[Path, SchemaFile]] = []
    for kind in CORE:
        found += [(path, kind) for path in sorted(root.glob(kind.pattern))
                  if not path.relative_to(root).parts[0].startswith(".")]
    every_plugin = plugins()
    for game_id in Library(root).game_ids():
        info = GameInfo.model_validate(load_yaml(root / game_id / "game.yaml").data)
        if info.plugin and info.plugin in every_plugin:
            for kind in plugin_kinds(info.plugin, every_plugin[info.plugin]):
                if kind.pattern:
                    found += [(path, kind) for path in sorted((root / game_id).glob(kind.pattern))]
    return found


def modeline(path: Path, kind: SchemaFile, schema_dir: Path) -> str:
    """The first line that points an editor at the kind's schema, relative to the file."""
    target = Path(os.path.relpath(schema_dir / f"{kind.name}{SUFFIX}", path.parent))
    return f"{MODELINE}{target.as_posix()}"


# -- the field reference (docs/fields.md), generated like the schemas ------------------------

def _type(spec: dict) -> str:
    """A short type for a property: 'integer 1-50', 'list of string', 'Card', 'string or null'."""
    if "$ref" in spec:
        return spec["$ref"].rsplit("/", 1)[-1]
    if "anyOf" in spec or "oneOf" in spec:
        return " or ".join(_type(s) for s in spec.get("anyOf", spec.get("oneOf", [])))
    if "const" in spec:
        return f"`{spec['const']}`"
    if "enum" in spec:
        return " \\| ".join(f"`{v}`" for v in spec["enum"])
    kind = spec.get("type", "any")
    if kind == "array":
        least, most = spec.get("minItems"), spec.get("maxItems")
        count = (f"{least} to {most} items" if least and most is not None else f"≤ {most} items" if most is not None
                 else f"≥ {least} item{'s' if least != 1 else ''}" if least else "")
        return f"list of {_type(spec.get('items', {}))}" + (f" ({count})" if count else "")
    if kind == "object":
        extra = spec.get("additionalProperties")
        return f"mapping of {_type(extra)}" if isinstance(extra, dict) else "mapping"
    bounds = [f"≥ {spec['minimum']}" if "minimum" in spec else "", f"≤ {spec['maximum']}" if "maximum" in spec else "",
              f"≤ {spec['maxLength']} characters" if "maxLength" in spec else "",
              f"pattern `{spec['pattern']}`".replace("|", "\\|") if "pattern" in spec else ""]
    bounds = [b for b in bounds if b]
    return f"{kind} ({', '.join(bounds)})" if bounds else kind


def _table(spec: dict) -> list[str]:
    required = set(spec.get("required", []))
    rows = ["| key | type | required / default |", "|---|---|---|"]
    for key, prop in spec.get("properties", {}).items():
        need = "required" if key in required else f"default `{json.dumps(prop.get('default'), ensure_ascii=False)}`" \
            if "default" in prop else "optional"
        rows.append(f"| `{key}` | {_type(prop)} | {need} |")
    return rows


def fields_markdown() -> str:
    """Every key of every kind, with its type, bounds and default: docs/fields.md."""
    out = ["# Every field of every file", "",
           "Generated from the models that check the files (`make docs` writes it; a test keeps it",
           "true). The guide is [authoring.md](authoring.md); the same facts, for an editor, are the",
           "JSON Schemas in `schemas/`. Unknown keys are errors everywhere.", ""]
    for kind in kinds():
        body = schema(kind)
        where = f"`{kind.pattern}`" if kind.pattern else "a file of your own"
        out += [f"## {kind.name}", "", f"{kind.about[0].upper()}{kind.about[1:]} ({where}).", ""]
        out += _table(body)
        for name, sub in sorted(body.get("$defs", {}).items()):
            if sub.get("properties"):
                out += ["", f"**{name}**" + (f": {sub['description'].splitlines()[0]}" if sub.get("description") else ""),
                        ""] + _table(sub)
        out.append("")
    return "\n".join(out)

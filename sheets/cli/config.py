"""The user's defaults (`sheets.base.config`: sheets.toml) made the defaults of a run's commands.

Only the standard library, Typer and `sheets.base.config` here: this runs before every command,
`--help` included.
"""
from __future__ import annotations

from pathlib import Path

import typer

from sheets.base.config import FILE_NAME, KEYS, PARAMS, Setting, config_files, in_force, read, user_config_file

__all__ = ["FILE_NAME", "KEYS", "Setting", "apply", "config_files", "from_config", "in_force", "output_root", "read",
           "user_config_file"]


def _defaults_for(command, values: dict[str, str]) -> dict:
    """Click's default_map for a command tree: each parameter the config sets, by name."""
    if hasattr(command, "commands"):  # a group: one map per subcommand
        return {name: _defaults_for(sub, values) for name, sub in command.commands.items()}
    return {param.name: values[param.name] for param in command.params if param.name in values}


def apply(ctx: typer.Context) -> None:
    """Make the config's values the defaults of this run's commands (the command line still wins)."""
    settings = {key: s for key, s in in_force().items() if s.source != "built-in default"}
    values = {PARAMS[key]: s.value for key, s in settings.items() if key in PARAMS}
    name = ctx.invoked_subcommand  # the one command built (the root builds a command when it runs)
    root = ctx.command
    command = root.get_command(ctx, name) if values and name and isinstance(root, typer.core.TyperGroup) else None
    if name and command is not None:
        ctx.default_map = {name: _defaults_for(command, values)}


def output_root() -> Path | None:
    """The output root sheets.toml names (`output`), for a run's PrintOptions; None: ./output/."""
    setting = in_force()["output"]
    return Path(setting.value) if setting.source != "built-in default" else None


def from_config(ctx: typer.Context, param: str) -> bool:
    """Did this parameter's value come from sheets.toml (not from the command line)?"""
    source = ctx.get_parameter_source(param)
    return source is not None and source.name == "DEFAULT_MAP"

"""The package's shape (ARCHITECTURE.md): imports at the top, a docstring in every package.

The layers and the absence of import cycles are import-linter's contracts (pyproject.toml,
`make lint`); a function's size is ruff's C901.
"""
import ast
from pathlib import Path

from conftest import REPO
import pytest

pytestmark = pytest.mark.unit  # `make check`'s fast tier

SHEETS = REPO / "sheets"


def _modules() -> dict[str, Path]:
    found = {}
    for path in SHEETS.rglob("*.py"):
        parts = path.relative_to(SHEETS.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


def _imports(name: str, path: Path, modules: dict[str, Path]) -> list[tuple[str, bool, int]]:
    """(imported module of the package, inside a function?, line) for every import in a module."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    # an import under `if TYPE_CHECKING:` counts: it names a layer as surely as one that runs
    top = {id(inner) for node in tree.body
           for inner in ([node] + (node.body if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
                                   else []))}
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([node.module] if node.module else []))
            targets = [base] + [f"{base}.{a.name}" for a in node.names]
        else:
            continue
        for target in targets:
            if target in modules and target != name:
                out.append((target, id(node) not in top, node.lineno))
    return out


def test_package_imports_sit_at_module_top_except_at_the_cli_boundary():
    """An import of the package inside a function hides a dependency: only the faces of the
    tool (the CLI, whose `--help` must not load the pipeline), the kit's up-to-date check and
    the game plug-ins (loaded with content) may, each with its reason."""
    modules = _modules()
    boundary = {"sheets.kit.request", "sheets.__main__"}  # the kit's up-to-date answer, the entry point; + the CLI and each game's cli.py and plugin.py
    offenders = []
    for name, path in modules.items():
        # a game's plug-in is loaded with its content (validate, --json); its sheet builders
        # (Jinja) are imported when a sheet is made
        is_boundary = (name in boundary or name == "sheets.cli" or name.startswith("sheets.cli.")
                       or name.endswith((".cli", ".plugin")))
        lines = path.read_text(encoding="utf-8").splitlines()
        for target, lazy, line in _imports(name, path, modules):
            if not lazy:
                continue
            above = lines[line - 2].strip() if line >= 2 else ""
            if not is_boundary:
                offenders.append(f"{name}:{line} imports {target} inside a function")
            elif not (above.startswith("#") or lines[line - 1].partition("PLC0415")[2].strip(" -")):
                offenders.append(f"{name}:{line} lazy import of {target} without a reason")
    assert offenders == []


def test_the_package_holds_at_most_twelve_entries_each_package_saying_what_it_holds():
    entries = sorted(p.name for p in SHEETS.iterdir() if p.name != "__pycache__" and not p.name.startswith("."))
    assert len(entries) <= 12, entries
    undocumented = [str(p.relative_to(SHEETS.parent)) for p in SHEETS.rglob("__init__.py")
                    if not ast.get_docstring(ast.parse(p.read_text(encoding="utf-8")))]
    assert undocumented == []
    # no namespace package: every folder of modules is a package with its __init__.py
    folders = {p.parent for p in SHEETS.rglob("*.py")}
    assert sorted(str(f.relative_to(SHEETS.parent)) for f in folders if not (f / "__init__.py").is_file()) == []

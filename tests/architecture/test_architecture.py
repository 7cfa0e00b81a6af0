"""The package's shape (ARCHITECTURE.md): no import cycle, small modules, imports at the top."""
import ast
from pathlib import Path

from conftest import REPO

SHEETS = REPO / "sheets"
MAX_LINES = 400


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


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    return {name: {t for t, _, _ in _imports(name, path, modules)} for name, path in modules.items()}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_import_cycle_counting_imports_inside_functions():
    assert _cycles(_graph()) == []


def test_a_detected_cycle_is_reported():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_module_over_400_lines():
    sizes = {str(p.relative_to(SHEETS.parent)): len(p.read_text(encoding="utf-8").splitlines())
             for p in _modules().values()}
    assert {name: n for name, n in sizes.items() if n > MAX_LINES} == {}


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


# -- layers ----------------------------------------------------------------------------------
# The package's layers, lowest first (ARCHITECTURE.md draws them). A module may import its own
# layer and the layers below it, never one above: the test counts imports inside functions
# too, and an import of `a.b.c` imports the packages `a` and `a.b` (their __init__ runs).
# A module's layer is its package's (`sheets.<layer>` and everything below it): a new module or
# package needs no entry. The faces also hold each game's own commands and pages, found by name.
LAYER_ORDER = ("base", "pdf", "library", "pipeline", "kinds", "kit", "app", "games", "faces")
FACES = ("sheets.__main__", "sheets.cli", "sheets.web",  # the CLI, the desk
         "sheets.games.*.cli", "sheets.games.*.web", "sheets.games.*.web_*", "sheets.games.*.webform")


def _layers() -> list[tuple[str, tuple[str, ...]]]:
    """(layer, patterns of its modules), lowest first, derived from the packages under sheets/."""
    packages = sorted(p.parent.name for p in SHEETS.glob("*/__init__.py"))
    unknown = set(packages) - set(LAYER_ORDER) - {"cli", "web"}
    assert not unknown, f"sheets/{sorted(unknown)} is no layer: name its place in LAYER_ORDER (and ARCHITECTURE.md)"
    out = []
    for layer in LAYER_ORDER:
        patterns = ("sheets",) if layer == "base" else ()
        if layer == "faces":
            patterns += tuple(p for face in FACES for p in (face, face + ".*"))
        else:
            patterns += (f"sheets.{layer}", f"sheets.{layer}.*")
        out.append((layer, patterns))
    return out


LAYERS = _layers()


def _layer_of(name: str, layers=LAYERS) -> int:
    from fnmatch import fnmatchcase
    best: tuple[int, int] | None = None  # (specificity, layer)
    for level, (_, patterns) in enumerate(layers):
        for pattern in patterns:
            if fnmatchcase(name, pattern) or name == pattern:
                specificity = len(pattern.replace("*", ""))
                if best is None or specificity > best[0]:
                    best = (specificity, level)
    assert best is not None, f"{name} is in no layer: add it to LAYERS (and to ARCHITECTURE.md)"
    return best[1]


def _upward_imports(graph: dict[str, set[str]], layers=LAYERS) -> list[str]:
    found = []
    for name in sorted(graph):
        mine = _layer_of(name, layers)
        for target in sorted(graph[name]):
            parts = target.split(".")
            for k in range(1, len(parts) + 1):  # the packages an import runs, and the module
                imported = ".".join(parts[:k])
                if imported not in graph or name.startswith(imported + ".") or imported == name:
                    continue
                theirs = _layer_of(imported, layers)
                if theirs > mine:
                    found.append(f"{name} ({layers[mine][0]}) imports {imported} ({layers[theirs][0]})")
    return sorted(set(found))


def test_every_module_is_in_a_layer():
    for name in _graph():
        _layer_of(name)


def test_imports_point_down_the_layers():
    assert _upward_imports(_graph()) == []


def test_an_import_from_a_higher_layer_is_reported():
    graph = {"sheets": set(), "sheets.base": set(), "sheets.base.errors": {"sheets.cli"},
             "sheets.cli": {"sheets.base.errors"}, "sheets.kinds": set(), "sheets.kinds.cards": set(),
             "sheets.library.kinds.cards": {"sheets.kinds.cards.builder"}, "sheets.kinds.cards.builder": set()}
    assert _upward_imports(graph) == [
        "sheets.base.errors (base) imports sheets.cli (faces)",
        "sheets.library.kinds.cards (library) imports sheets.kinds (kinds)",
        "sheets.library.kinds.cards (library) imports sheets.kinds.cards (kinds)",
        "sheets.library.kinds.cards (library) imports sheets.kinds.cards.builder (kinds)",
    ]


def test_the_package_holds_at_most_twelve_entries_each_package_saying_what_it_holds():
    entries = sorted(p.name for p in SHEETS.iterdir() if p.name != "__pycache__" and not p.name.startswith("."))
    assert len(entries) <= 12, entries
    undocumented = [str(p.relative_to(SHEETS.parent)) for p in SHEETS.rglob("__init__.py")
                    if not ast.get_docstring(ast.parse(p.read_text(encoding="utf-8")))]
    assert undocumented == []
    # no namespace package: every folder of modules is a package with its __init__.py
    folders = {p.parent for p in SHEETS.rglob("*.py")}
    assert sorted(str(f.relative_to(SHEETS.parent)) for f in folders if not (f / "__init__.py").is_file()) == []


def test_an_import_for_the_type_checker_only_counts(tmp_path):
    """`if TYPE_CHECKING:` imports nothing at run time, but names a layer all the same: it counts."""
    module = tmp_path / "plugins.py"
    module.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from sheets.kinds.kind import Kind\n")
    modules = {"sheets.library.plugins": module, "sheets.kinds.kind": module}
    found = _imports("sheets.library.plugins", module, modules)
    assert found == [("sheets.kinds.kind", False, 3)]
    graph = {"sheets": set(), "sheets.library": set(), "sheets.kinds": set(), "sheets.kinds.kind": set(),
             "sheets.library.plugins": {t for t, _, _ in found}}
    assert _upward_imports(graph) == ["sheets.library.plugins (library) imports sheets.kinds (kinds)",
                                      "sheets.library.plugins (library) imports sheets.kinds.kind (kinds)"]

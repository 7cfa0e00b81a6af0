"""A generic kind is named by its id only in its own places: its folder (`sheets/kinds/<kind>/`), its
content declaration (`sheets/library/kinds/<kind>.py`) and the registry. Everything else reads it
from the registry, so adding or renaming a kind touches no other module."""
import ast

from conftest import REPO

from sheets.kinds import registry

SHEETS = REPO / "sheets"


def _allowed(rel: str, ids: set[str]) -> bool:
    """A kind's folder, its content declaration (where a kind may name another: the reference cuts cards) and the registry."""
    return (any(rel.startswith(f"sheets/kinds/{kind}/") or rel == f"sheets/library/kinds/{kind}.py" for kind in ids)
            or rel == "sheets/kinds/registry.py")


def _named(tree: ast.AST, ids: set[str]) -> list[tuple[int, str]]:
    """(line, id) for every string equal to a kind's id and every attribute named like one (`game.gauges`)."""
    imports = {id(n) for node in ast.walk(tree) if isinstance(node, (ast.Import, ast.ImportFrom))
               for n in ast.walk(node)}
    found = []
    for node in ast.walk(tree):
        if id(node) in imports:
            continue
        if isinstance(node, ast.Constant) and node.value in ids:
            found.append((node.lineno, node.value))
        elif isinstance(node, ast.Attribute) and node.attr in ids:
            found.append((node.lineno, node.attr))
    return found


def test_no_module_names_a_generic_kind_outside_its_own_places():
    ids = {kind.name for kind in registry.GENERIC}
    offenders = []
    for path in sorted(SHEETS.rglob("*.py")):
        rel = path.relative_to(REPO).as_posix()
        for line, kind in _named(ast.parse(path.read_text(encoding="utf-8")), ids):
            if not _allowed(rel, ids):
                offenders.append(f"{rel}:{line} names the kind {kind!r}")
    assert offenders == []


def test_a_kind_named_by_a_string_or_an_attribute_is_found():
    tree = ast.parse("from sheets.kinds import gauges\nx = game.gauges\ny = {'tokens': 1}\nz = 'tokens and more'\n")
    assert _named(tree, {"gauges", "tokens"}) == [(2, "gauges"), (3, "tokens")]

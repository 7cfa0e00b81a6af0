"""No function under sheets/ is over 80 lines (def to its last line): one that long does
several things, and is split into functions named for each (issue 36)."""
from __future__ import annotations

import ast
from pathlib import Path

SHEETS = Path(__file__).resolve().parents[2] / "sheets"
MAX_FUNCTION_LINES = 80


def _long_functions(root: Path, limit: int) -> list[str]:
    found = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                lines = node.end_lineno - node.lineno + 1
                if lines > limit:
                    found.append(f"{path.relative_to(root.parent)}:{node.lineno} {node.name} ({lines} lines)")
    return found


def test_no_function_is_over_80_lines():
    assert _long_functions(SHEETS, MAX_FUNCTION_LINES) == []


def test_a_long_function_is_reported(tmp_path):
    package = tmp_path / "sheets"
    package.mkdir()
    body = "".join(f"    x{i} = {i}\n" for i in range(80))
    (package / "long.py").write_text(f"def short():\n    return 1\n\n\ndef long():\n{body}", encoding="utf-8")
    assert _long_functions(package, MAX_FUNCTION_LINES) == ["sheets/long.py:5 long (81 lines)"]

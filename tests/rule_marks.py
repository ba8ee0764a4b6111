"""Find the rule IDs that tests name with ``@pytest.mark.rules(...)`` (read from source)."""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def rule_marks(folder: Path = TESTS) -> dict[str, set[str]]:
    """rule ID -> the test functions (``file::name``) that name it."""
    found: dict[str, set[str]] = defaultdict(set)
    for path in sorted(folder.glob("test_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.FunctionDef | ast.ClassDef):
                continue
            for deco in node.decorator_list:
                if (isinstance(deco, ast.Call) and isinstance(deco.func, ast.Attribute)
                        and deco.func.attr == "rules"):
                    for arg in deco.args:
                        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                            found[arg.value].add(f"{path.name}::{node.name}")
    return found

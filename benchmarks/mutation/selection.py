"""Per-mutant test selection by coverage (as mutmut 3 does it).

The session's test command runs once under coverage.py, each test in its own dynamic
context, over the mutated modules only; the result is a map line -> node IDs of the tests
that execute it, stored in the scratch folder under a key that hashes the command and the
code and tests it runs (:func:`fingerprint`). A mutant then runs only the tests that execute
one of the lines of the statement it changes, in the command's order, with the command's own
options (``-x`` included). Soundness:

- a line run outside the tests' own phases (import, collection, between tests, or the setup
  or teardown of a test that uses a fixture shared beyond it) is ``outside``: its mutants run
  the whole command;
- before each test of the coverage run every memo table of the measured packages is emptied
  (``functools`` caches, dicts with ``__missing__``), so a test is mapped to the lines it
  computes itself rather than reads from a cache that an earlier test filled;
- a mutant whose lines no test executes is a survivor without running anything.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

#: Bumped when the map's format or meaning changes (old maps are then measured again).
VERSION = 1
#: The folders whose files the map's key hashes (besides the command and this module).
HASHED = ("heatcore", "tests", "spec")
#: How a mutant's output says it ran selected tests, or no test at all.
MARK, NOT_RUN = "[coverage selection:", "no test executes"
_CACHE_TYPE = type(functools.cache(lambda: None))
#: Context prefixes: a test's own phases, and the setup/teardown of a test with a fixture
#: shared beyond it (counted as outside any test).
OWN, SHARED = "T|", "S|"


def fingerprint(root: Path, args: list[str]) -> str:
    """Hash of the test arguments and of every file under :data:`HASHED` (and this module)."""
    digest = hashlib.sha256(json.dumps([VERSION, args]).encode())
    files = [p for d in HASHED for p in sorted((root / d).rglob("*"))
             if p.is_file() and "__pycache__" not in p.parts]
    for path in [*files, Path(__file__)]:
        digest.update(str(path.relative_to(root) if path.is_relative_to(root)
                          else path.name).encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def is_test_arg(arg: str) -> bool:
    """Whether a pytest argument names tests (a ``.py`` file, a node ID or a folder)."""
    return not arg.startswith("-") and (arg.split("::")[0].endswith(".py") or Path(arg).is_dir())


def _holds(arg: str, nodeid: str) -> bool:
    """Whether the test argument ``arg`` collects the test ``nodeid``."""
    arg = arg.rstrip("/")
    return nodeid == arg or nodeid.startswith((arg + "::", arg + "[", arg + "/"))


def narrowed(args: list[str], tests: list[str]) -> list[str]:
    """``args`` without the test arguments that collect none of ``tests``."""
    return [a for a in args if not is_test_arg(a) or any(_holds(a, t) for t in tests)]


def _clear_memos(prefixes: tuple[str, ...]) -> None:
    """Empty the ``functools`` caches and ``__missing__`` dicts (also in lists and tuples) held
    by the modules named with ``prefixes`` and by their classes."""
    for name, module in list(sys.modules.items()):
        if not name.startswith(prefixes) or module is None:
            continue
        values = list(vars(module).values())
        values += [v for c in list(values) if isinstance(c, type) for v in vars(c).values()]
        values += [v for s in list(values) if isinstance(s, (list, tuple)) for v in s]
        for value in values:
            if isinstance(value, _CACHE_TYPE):
                value.cache_clear()
            elif isinstance(value, dict) and hasattr(type(value), "__missing__"):
                value.clear()


def _shared_fixtures(item: Any) -> bool:
    """Whether a pytest item uses a fixture of a scope wider than the function (or its
    fixtures cannot be read)."""
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return True
    return any(defs and defs[-1].scope != "function" for defs in info.name2fixturedefs.values())


class _Contexts:
    """pytest plugin: each test's phases in their coverage context, memo tables emptied
    before each test."""

    def __init__(self, cov: Any, prefixes: tuple[str, ...]) -> None:
        self.cov, self.prefixes, self.order = cov, prefixes, list[str]()

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_setup(self, item: Any) -> None:
        self.order.append(item.nodeid)
        _clear_memos(self.prefixes)
        self.shared = _shared_fixtures(item)
        self.cov.switch_context((SHARED if self.shared else OWN) + item.nodeid)

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_call(self, item: Any) -> None:
        self.cov.switch_context(OWN + item.nodeid)

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_teardown(self, item: Any) -> None:
        self.cov.switch_context((SHARED if self.shared else OWN) + item.nodeid)

    def pytest_runtest_logfinish(self) -> None:
        self.cov.switch_context("")


def measure(root: Path, args: list[str], sources: list[str], key: str) -> dict[str, Any]:
    """Run pytest with ``args`` in this process under coverage of ``sources`` (paths relative
    to ``root``, not imported yet) and return the map (``ok`` false if the tests failed)."""
    import coverage

    cov = coverage.Coverage(data_file=None, include=[str(root / s) for s in sources],
                            branch=False)
    prefixes = tuple(sorted({s.split("/")[0] + "." for s in sources} |
                            {s.split("/")[0] for s in sources}))
    plugin = _Contexts(cov, prefixes)
    cov.start()
    try:
        code = pytest.main(args, plugins=[plugin])
    finally:
        cov.stop()
    data = cov.get_data()
    index = {t: i for i, t in enumerate(plugin.order)}
    lines: dict[str, dict[str, list[int]]] = {}
    outside: dict[str, list[int]] = {}
    for source in sources:
        by_line = data.contexts_by_lineno(str(root / source)) or {}
        mine: dict[str, list[int]] = {}
        away: list[int] = []
        for line, contexts in sorted(by_line.items()):
            tests = sorted({index[c[2:]] for c in contexts
                            if c.startswith(OWN) and c[2:] in index})
            if any(not c.startswith(OWN) or c[2:] not in index for c in contexts):
                away.append(line)
            if tests:
                mine[str(line)] = tests
        lines[source], outside[source] = mine, away
    return {"version": VERSION, "key": key, "ok": int(code) == 0, "tests": plugin.order,
            "lines": lines, "outside": outside}


def _child_statements(node: ast.AST) -> Iterator[ast.stmt]:
    """The statements directly inside ``node`` (in its bodies, handlers and cases)."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.stmt):
            yield child
        else:
            yield from _child_statements(child)


def _first(node: ast.stmt) -> int:
    return int(min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))]))


def statement_lines(tree: ast.Module, start: int, end: int) -> set[int]:
    """The lines of the innermost statement holding lines ``start``-``end``, without the lines
    of the statements nested in it (for a compound statement: its header, decorators and
    clause lines)."""
    def span(node: ast.stmt) -> int:
        return (node.end_lineno or node.lineno) - _first(node)

    best: ast.stmt | None = None
    for node in ast.walk(tree):
        if isinstance(node, ast.stmt) and _first(node) <= start \
                and end <= (node.end_lineno or node.lineno) \
                and (best is None or span(node) < span(best)):
            best = node
    if best is None:
        return set(range(start, end + 1))
    own = set(range(_first(best), (best.end_lineno or best.lineno) + 1))
    for child in _child_statements(best):
        own -= set(range(_first(child), (child.end_lineno or child.lineno) + 1))
    return own | set(range(start, end + 1))


def select(cmap: dict[str, Any], source: str, lines: set[int]) -> list[str] | None:
    """Node IDs (in the command's order) of the tests that execute any of ``lines`` of
    ``source``; None if one of them runs outside the tests (the whole command must run)."""
    if set(cmap["outside"].get(source, [])) & lines:
        return None
    by_line = cmap["lines"].get(source, {})
    chosen = sorted({i for line in lines for i in by_line.get(str(line), [])})
    return [cmap["tests"][i] for i in chosen]


class Only:
    """pytest plugin: keep only the tests named (in their collected order); ``missing``: the
    named tests that were not collected (the map is then out of date)."""

    def __init__(self, tests: list[str]) -> None:
        self.keep, self.missing = set(tests), set[str]()

    @pytest.hookimpl(trylast=True)
    def pytest_collection_modifyitems(self, config: Any, items: list[Any]) -> None:
        kept = [item for item in items if item.nodeid in self.keep]
        dropped = [item for item in items if item.nodeid not in self.keep]
        self.missing = self.keep - {item.nodeid for item in kept}
        if dropped:
            config.hook.pytest_deselected(items=dropped)
        items[:] = kept

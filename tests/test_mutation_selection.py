"""The mutation sessions' test selection by coverage (benchmarks/mutation/selection.py): the
map line -> tests, the lines a mutant's statement spans, and the fall-backs (a line run
outside the tests runs the whole command; a line no test runs selects nothing)."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
import textwrap
from pathlib import Path

from benchmarks.mutation.selection import narrowed, select, statement_lines

ROOT = Path(__file__).resolve().parent.parent

MODULE = '''\
from functools import cache

LIMIT = 3 + 1


def used_by_a(x: int) -> int:
    return x + 1


def used_by_b(x: int) -> int:
    if x > LIMIT:
        return x - 1
    return x


def unused(x: int) -> int:
    return x * 2


@cache
def memo(x: int) -> int:
    return x * 10


def for_fixture() -> int:
    return 7


class Interned(dict[int, int]):
    def __missing__(self, key: int) -> int:
        value = self[key] = key + 100
        return value


TABLE = Interned()
'''

TESTS = '''\
import pytest

from pkg.mod import TABLE, for_fixture, memo, used_by_a, used_by_b


@pytest.fixture(scope="module")
def shared() -> int:
    return for_fixture()


def test_a() -> None:
    assert used_by_a(1) == 2


def test_b() -> None:
    assert used_by_b(9) == 8


def test_memo_first() -> None:
    assert memo(2) == 20


def test_memo_again() -> None:
    assert memo(2) == 20


def test_shared(shared: int) -> None:
    assert shared == 7


def test_table_first() -> None:
    assert TABLE[1] == 101


def test_table_again() -> None:
    assert TABLE[1] == 101


def test_broken() -> None:
    assert False, "left out of the measured run; fails unless the selection drops it"
'''


def _measure(tmp_path: Path) -> dict[str, object]:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "mod.py").write_text(MODULE)
    (tmp_path / "test_mod.py").write_text(TESTS)
    script = textwrap.dedent(f"""
        import json, sys
        from pathlib import Path
        sys.path[:0] = [{str(tmp_path)!r}, {str(ROOT)!r}]
        import pytest
        from benchmarks.mutation.selection import Only, measure
        args = ["-q", "-p", "no:cacheprovider", "-p", "no:randomly", "test_mod.py"]
        found = measure(Path({str(tmp_path)!r}), args + ["-k", "not test_broken"],
                        ["pkg/mod.py"], "k")
        only = Only(["test_mod.py::test_b", "test_mod.py::test_gone"])
        found["only"] = [pytest.main(args, plugins=[only]), sorted(only.missing)]
        print("MAP" + json.dumps(found))
    """)
    out = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True,
                         text=True, check=True).stdout
    return dict(json.loads(out.split("MAP", 1)[1]))


def test_the_map_names_the_tests_of_each_line_and_the_lines_run_outside_tests(
        tmp_path: Path) -> None:
    cmap = _measure(tmp_path)
    assert cmap["ok"] and cmap["key"] == "k"
    assert cmap["tests"] == [f"test_mod.py::{t}" for t in (
        "test_a", "test_b", "test_memo_first", "test_memo_again", "test_shared",
        "test_table_first", "test_table_again")]
    # import time (constant, def lines, decorator) and a module fixture's setup: outside
    outside = set(cmap["outside"]["pkg/mod.py"])  # type: ignore[index]
    assert {3, 6, 10, 16, 20, 21, 25} <= outside and 26 in outside
    assert {7, 11, 12, 22} .isdisjoint(outside)
    mod = "pkg/mod.py"
    assert select(cmap, mod, {7}) == ["test_mod.py::test_a"]
    assert select(cmap, mod, {11, 12}) == ["test_mod.py::test_b"]
    assert select(cmap, mod, {13}) == []  # the branch no test takes
    assert select(cmap, mod, {17}) == []  # a function no test calls
    # the cache is emptied before each test: both memo tests compute line 22 themselves
    assert select(cmap, mod, {22}) == ["test_mod.py::test_memo_first",
                                       "test_mod.py::test_memo_again"]
    # so is a dict filled by __missing__
    assert select(cmap, mod, {31, 32}) == ["test_mod.py::test_table_first",
                                           "test_mod.py::test_table_again"]
    assert select(cmap, mod, {3}) is None  # a module constant: the whole command
    assert select(cmap, mod, {26}) is None  # run only by a module fixture's setup
    # the selecting plugin runs test_b only (test_broken is dropped: exit 0) and names the
    # named test that was not collected
    assert cmap["only"] == [0, ["test_mod.py::test_gone"]]


def test_a_mutant_is_mapped_to_its_whole_statement_without_nested_statements() -> None:
    tree = ast.parse(textwrap.dedent('''\
        @decorate(1)
        def f(x=2):
            y = g(x,
                  3)
            if (x >
                    4):
                return 5
            return y
        '''))
    assert statement_lines(tree, 4, 4) == {3, 4}
    assert statement_lines(tree, 5, 5) == {5, 6}
    assert statement_lines(tree, 7, 7) == {7}
    assert statement_lines(tree, 1, 1) == {1, 2}  # a decorator: with the def line
    assert statement_lines(tree, 2, 2) == {1, 2}  # a default argument


def test_selection_keeps_the_command_order_options_and_only_the_needed_files() -> None:
    cmap = {"tests": ["t/a.py::x", "t/b.py::y[1]", "t/b.py::z", "t/c.py::w"],
            "lines": {"m.py": {"5": [2, 0], "6": [1]}}, "outside": {"m.py": [9]}}
    assert select(cmap, "m.py", {5, 6}) == ["t/a.py::x", "t/b.py::y[1]", "t/b.py::z"]
    assert select(cmap, "m.py", {6, 9}) is None
    assert select(cmap, "other.py", {5}) == []
    args = ["-x", "-q", "-p", "no:randomly", "t/a.py", "t/b.py", "t/c.py::w"]
    assert narrowed(args, ["t/b.py::y[1]"]) == ["-x", "-q", "-p", "no:randomly", "t/b.py"]
    assert narrowed(args, ["t/c.py::w", "t/a.py::x"]) == [
        "-x", "-q", "-p", "no:randomly", "t/a.py", "t/c.py::w"]

"""The mutation runner's guard for compiled modules (benchmarks/mutation/forked.py): a mutant
of a module that mypyc compiles must run as its mutated source, never as the extension
built from the unmutated code."""

from __future__ import annotations

import sys
from types import ModuleType

import pytest

from benchmarks.mutation.forked import PURE_ENV, compiled_modules
from heatcore.heat.fast import compiled


def test_the_children_ask_heatcore_fast_for_its_pure_build() -> None:
    assert PURE_ENV == (compiled.ENV, "pure")


def test_a_mutated_module_loaded_from_an_extension_is_named(
        monkeypatch: pytest.MonkeyPatch) -> None:
    source, extension = ModuleType("mut_a"), ModuleType("mut_b")
    source.__file__ = "/scratch/heatcore/heat/fast/race.py"
    extension.__file__ = "/scratch/heatcore/heat/fast/race.cpython-311-x86_64-linux-gnu.so"
    monkeypatch.setitem(sys.modules, "mut_a", source)
    monkeypatch.setitem(sys.modules, "mut_b", extension)
    assert compiled_modules({"mut_a", "mut_b", "mut_never_imported"}) == ["mut_b"]
    assert compiled_modules({"mut_a"}) == []


def test_retest_on_head_knows_the_same_mutation_in_moved_code() -> None:
    """``retest --on-head`` tests a survivor in today's code only where the mutation changes
    the same line from the same text to the same text as the session's stored diff."""
    import difflib

    from benchmarks.mutation.report import _changed, _sides

    code = [f"line {i}\n" for i in range(1, 21)]
    mutated = [*code[:9], "line 10 mutated\n", *code[10:]]
    diff = "".join(difflib.unified_diff(code, mutated))
    stored = _changed(*_sides(diff))
    assert stored == [(10, "line 10", "line 10 mutated")]
    assert _changed("".join(code), "".join(mutated)) == stored
    # a line added above moves the mutation to line 11: not the session's mutant
    moved = ["new\n", *code]
    assert _changed("".join(moved), "".join([*moved[:10], "line 10 mutated\n", *moved[11:]])) \
        != stored
    # the same line changed another way
    assert _changed("".join(code), "".join([*code[:9], "line 10 other\n", *code[10:]])) \
        != stored

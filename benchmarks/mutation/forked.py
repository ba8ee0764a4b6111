"""Execute a session's pending mutants faster than ``cosmic-ray exec``: one process imports
pytest and every heatcore module that does not import a mutated module, then forks a child
per mutant (one at a time: one worker). The child writes the mutation into the scratch copy
(cosmic-ray's own mutation code), drops the mutated modules and whatever imported them from
``sys.modules`` and runs the session's pytest command in itself; the parent restores the file
and stores the outcome in the session's database as ``cosmic-ray exec`` would. The mutated
modules' bytecode is deleted before each child, so a mutant never runs a stale ``.pyc``.

A module compiled by mypyc (the fast engine's, ``heatcore.heat.fast.compiled``) must run as its
mutated source, never as the extension built from the unmutated one: the scratch copy holds
no extension (``git ls-files`` leaves ignored files out), ``heatcore.heat.fast`` falls back to the
source when it differs from the build's digest, and on top of both the children run with
``HEATCORE_FAST=pure``; a child that still finds a mutated module loaded from anything but
its ``.py`` file stops the session (:func:`compiled_modules`)."""

from __future__ import annotations

import ast
import contextlib
import importlib
import importlib.metadata
import json
import os
import shlex
import sys
import tempfile
import time
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the scratch copy's root
from benchmarks.mutation import selection

#: The child's exit code when a selected test was not collected (the map is stale).
STALE = 97
#: The child's exit code when a mutated module ran from a compiled extension.
COMPILED = 98
#: Makes ``heatcore.heat.fast`` load its pure Python modules (``heatcore.heat.fast.compiled.ENV``).
PURE_ENV = ("HEATCORE_FAST", "pure")


def compiled_modules(mutated: set[str]) -> list[str]:
    """The mutated modules imported in this process from something else than their ``.py``
    source (a compiled extension would run the unmutated code)."""
    return sorted(name for name in mutated if name in sys.modules
                  and not str(getattr(sys.modules[name], "__file__", "")).endswith(".py"))


def _imports(path: Path, package: str) -> set[str]:
    """The heatcore modules a source file imports (any depth in the file)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            base = node.module if node.level == 0 else package
            found.add(base)
            found |= {f"{base}.{alias.name}" for alias in node.names}
    return {name for name in found if name.startswith("heatcore")}


def _preload(root: Path, mutated: set[str], used: list[str]) -> None:
    """Import the modules the tests ``used`` (in their order) except every heatcore module
    that can reach a mutated module (read from the import statements), so that no module
    is ever imported twice."""

    graph: dict[str, set[str]] = {}
    for path in (root / "heatcore").rglob("*.py"):
        name = _module_name(str(path.relative_to(root)))
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        graph[name.removesuffix(".__init__")] = _imports(path, package)
    tainted = {m for m in graph if any(m == x or m.startswith(x + ".") for x in mutated)}
    tainted |= {m for m in graph if any(p and m.startswith(p) for p in
                                        {x.rpartition(".")[0] + "." for x in mutated})}
    grew = True
    while grew:
        grew = False
        for name, needs in graph.items():
            if name not in tainted and any(
                    n in tainted or any(n.startswith(t + ".") for t in tainted) for n in needs):
                tainted.add(name)
                grew = True
    for name in used:
        if name in tainted or name.startswith("test_") or name.endswith("__main__") \
                or name in ("scenario", "conftest", "rule_marks") or name in sys.modules:
            continue
        with contextlib.suppress(Exception):  # if it cannot be imported so: to the child
            importlib.import_module(name)
    assert not tainted & set(sys.modules), tainted & set(sys.modules)


def _forget(names: set[str]) -> None:
    """Drop modules from ``sys.modules`` and from their packages' attributes."""
    for name in names:
        del sys.modules[name]
        parent, _, child = name.rpartition(".")
        if parent in sys.modules and getattr(sys.modules[parent], child, None) is not None:
            delattr(sys.modules[parent], child)


def _in_child(out: IO[str], mutated: set[str], body: Callable[[], int]) -> int:
    """Fork; the child sends its stdout and stderr to ``out``, drops the mutated modules (and
    the fast engine, the tests and their helpers) from ``sys.modules``, runs ``body`` and
    exits with its code (3 if it raised). Returns the child's process ID to the parent."""
    pid = os.fork()
    if pid != 0:
        return pid
    os.dup2(out.fileno(), 1)
    os.dup2(out.fileno(), 2)
    code = 3
    try:
        _forget({name for name in sys.modules
                 if name in mutated or name.startswith("heatcore.heat.fast")
                 or name.startswith("test_") or name in ("scenario", "conftest")})
        code = body()
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


def _module_name(path: str) -> str:
    return path.removesuffix(".py").replace("/", ".")


def execute(where: Path, config_path: Path, db_path: Path, only: list[str]) -> int:
    """Run every pending mutant of the session at ``db_path`` (scratch copy ``where``), or
    only those of the modules or jobs in ``only`` (paths as in the session, job IDs) if any
    are given (and ``--all-tests``: the whole test command for every mutant)."""
    all_tests = "--all-tests" in only
    only = [o for o in only if o != "--all-tests"]
    config = tomllib.loads(config_path.read_text(encoding="utf-8"))["cosmic-ray"]
    command = shlex.split(config["test-command"])
    assert command[:3] == ["python3", "-m", "pytest"], command
    args, timeout = command[3:], float(config["timeout"])
    os.chdir(where)
    sys.path.insert(0, str(where))
    os.environ[PURE_ENV[0]] = PURE_ENV[1]  # the children inherit it
    mutated = {_module_name(p) for p in config["module-path"]}
    sources = [where / p for p in config["module-path"]]
    # the children keep the bytecode of the modules they compile (also with
    # PYTHONDONTWRITEBYTECODE): the next child loads the unchanged modules and the
    # assertion-rewritten tests instead of compiling them again; the mutated modules' own
    # bytecode is deleted before every child and at the end (cosmic-ray apply and retest
    # never meet one)
    sys.dont_write_bytecode = False
    try:
        return _execute(where, config, db_path, only, all_tests, args, timeout, mutated,
                        sources)
    finally:
        _drop_bytecode(sources)


def _drop_bytecode(sources: list[Path]) -> None:
    """Delete the bytecode of the mutated modules."""
    for source in sources:
        for pyc in source.parent.glob(f"__pycache__/{source.stem}.*.pyc"):
            pyc.unlink()


def _execute(where: Path, config: dict[str, Any], db_path: Path, only: list[str],
             all_tests: bool, args: list[str], timeout: float, mutated: set[str],
             sources: list[Path]) -> int:
    """:func:`execute` once the scratch copy is the working directory."""
    from cosmic_ray.mutating import apply_mutation
    from cosmic_ray.work_db import WorkDB, use_db
    from cosmic_ray.work_item import TestOutcome, WorkerOutcome, WorkResult

    probe = _one(where / config["module-path"][0], None, args, timeout, apply_mutation,
                 mutated, sources, dump=True)
    if probe[0] != "survived":
        print(f"the tests fail without a mutation:\n{probe[1]}")
        return 1
    _preload(where, mutated, probe[1].split("\n"))
    base = _one(where / config["module-path"][0], None, args, timeout, apply_mutation,
                mutated, sources)
    if base[0] != "survived":
        print(f"the tests fail without a mutation:\n{base[1]}")
        return 1
    print("baseline: the tests pass without a mutation", flush=True)
    cmap = None if all_tests else _coverage_map(where, args, config["module-path"], timeout,
                                                mutated)
    trees: dict[str, ast.Module] = {}
    with use_db(str(db_path), WorkDB.Mode.open) as db:
        pending = [item for item in db.pending_work_items
                   if not only or str(item.mutations[0].module_path) in only
                   or item.job_id in only]
        for count, item in enumerate(pending, start=1):
            mutation = item.mutations[0]
            module = where / mutation.module_path
            started, cpu = time.monotonic(), _children_cpu()
            tests = _tests_for(cmap, mutation, module, trees)
            if tests == []:  # no test executes the mutated statement: nothing can kill it
                lines = sorted(selection.statement_lines(
                    trees[str(module)], mutation.start_pos[0], mutation.end_pos[0]))
                result: tuple[str | None, str, str] = (
                    "survived", f"{selection.NOT_RUN} {mutation.module_path} line(s) "
                    f"{', '.join(map(str, lines))} (coverage map {cmap and cmap['key']}): "
                    "survived without running a test", "")
            else:
                original = module.read_bytes()
                try:
                    result = _one(module, mutation, args, timeout, apply_mutation, mutated,
                                  sources, tests=tests)
                    if result[0] == "stale map":  # a selected test was not collected
                        module.write_bytes(original)
                        tests = None
                        result = _one(module, mutation, args, timeout, apply_mutation,
                                      mutated, sources)
                finally:
                    module.write_bytes(original)
            outcome, output, diff = result
            ran = "all tests" if tests is None else f"{len(tests)} selected tests"
            if tests:
                output += f"\n{selection.MARK} ran the {len(tests)} of " \
                          f"{len(cmap['tests']) if cmap else '?'} tests that execute the line]"
            db.set_result(item.job_id, WorkResult(
                output=output, diff=diff,
                test_outcome=TestOutcome(outcome) if outcome else None,
                worker_outcome=WorkerOutcome.NORMAL if outcome else WorkerOutcome.NO_TEST))
            print(f"{count}/{len(pending)} {mutation.module_path}:{mutation.start_pos[0]} "
                  f"{mutation.operator_name} #{mutation.occurrence}: {outcome} "
                  f"({ran}, {time.monotonic() - started:.1f} s, "
                  f"{_children_cpu() - cpu:.2f} CPU-s)", flush=True)
    return 0


def _children_cpu() -> float:
    """CPU seconds (user + system) of the children this process waited for so far."""
    times = os.times()
    return times.children_user + times.children_system


def _tests_for(cmap: dict[str, Any] | None, mutation: Any, module: Path,
               trees: dict[str, ast.Module]) -> list[str] | None:
    """The node IDs of the tests that execute the mutated statement (None: the whole
    command, without a map or for a statement run outside the tests)."""
    if str(module) not in trees:
        trees[str(module)] = ast.parse(module.read_text(encoding="utf-8"))
    if cmap is None:
        return None
    lines = selection.statement_lines(trees[str(module)], mutation.start_pos[0],
                                      mutation.end_pos[0])
    return selection.select(cmap, str(mutation.module_path), lines)


def _coverage_map(where: Path, args: list[str], modules: list[str], timeout: float,
                  mutated: set[str]) -> dict[str, Any] | None:
    """The session's map line -> tests (``coverage-map.json`` in the scratch copy), measured
    again in a forked child when its key (code, tests, command) changed; None if the
    measured run failed (then every mutant runs the whole command)."""
    path = where / "coverage-map.json"
    key = selection.fingerprint(where, args)
    if path.exists():
        known = json.loads(path.read_text(encoding="utf-8"))
        if known.get("key") == key and known.get("ok"):
            print(f"coverage map {key}: up to date", flush=True)
            return dict(known)
    print(f"coverage map {key}: running the tests once under coverage (log in "
          f"{where / 'coverage-map.log'})", flush=True)
    _drop_bytecode([where / source for source in modules])
    def measure() -> int:
        found = selection.measure(where, args, modules, key)
        # imported here, in the child: heatcore/__init__ imports the engine, which the
        # parent must not hold (see _preload); the tests have imported it by now
        from heatcore.framework.files import write_atomic

        write_atomic(path, json.dumps(found) + "\n")
        return 0 if found["ok"] else 1

    with open(where / "coverage-map.log", "w") as log:
        _, status = os.waitpid(_in_child(log, mutated, measure), 0)
    if os.waitstatus_to_exitcode(status) != 0:
        print("the coverage run failed: every mutant runs the whole test command", flush=True)
        return None
    found = json.loads(path.read_text(encoding="utf-8"))
    print(f"coverage map {key}: {len(found['tests'])} tests", flush=True)
    return dict(found)


def _one(module: Path, mutation: Any, args: list[str], timeout: float, apply_mutation: Any,
         mutated: set[str], sources: list[Path], dump: bool = False,
         tests: list[str] | None = None) -> tuple[str | None, str, str]:
    """(outcome, pytest output, diff) of one mutant, tested in a forked child; ``dump``:
    the output is the names of the modules the tests imported instead; ``tests``: run only
    these node IDs (outcome ``stale map`` if one of them is not collected). The bytecode of the
    mutated modules is deleted first (a ``.pyc`` of another mutant of the same size and
    modification second would otherwise be taken for it); other modules keep theirs."""
    _drop_bytecode(sources)
    import difflib

    if mutation is None:  # the baseline: no mutation
        original = changed = module.read_text()
    else:
        import cosmic_ray.plugins

        operator = cosmic_ray.plugins.get_operator(mutation.operator_name)(
            **(getattr(mutation, "operator_args", None) or {}))
        original, changed = apply_mutation(module, operator, mutation.occurrence)
    if changed is None:
        return None, "no mutation at that occurrence", ""
    diff = "".join(difflib.unified_diff(original.splitlines(True), changed.splitlines(True)))
    with tempfile.TemporaryFile("w+") as out:
        def run_tests() -> int:  # in the child: fresh mutated modules, then the tests
            import pytest

            if tests is None:
                code = int(pytest.main(args))
            else:
                only = selection.Only(tests)
                code = int(pytest.main(selection.narrowed(args, tests), plugins=[only]))
                if only.missing:
                    code = STALE
            if compiled_modules(mutated):
                print(f"mutated modules ran compiled: {compiled_modules(mutated)}")
                code = COMPILED
            if dump:
                sys.stdout.flush()
                out.truncate(0)
                out.seek(0)
                out.write("\n".join(sys.modules))
                out.flush()
            return code

        pid = _in_child(out, mutated, run_tests)
        deadline = time.monotonic() + timeout
        status = None
        while time.monotonic() < deadline:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                break
            time.sleep(0.05)
        else:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
            out.seek(0)
            return "killed", out.read()[-3000:] + "\ntimeout", diff
        out.seek(0)
        text = out.read() if dump else out.read()[-3000:]
    code = os.waitstatus_to_exitcode(status) if status is not None else 1
    if code == STALE:
        return "stale map", text, diff
    if code == COMPILED:
        raise SystemExit(f"stopped: a mutated module ran compiled, not its source\n{text}")
    return ("survived" if code == 0 else "killed"), text, diff


if __name__ == "__main__":
    raise SystemExit(execute(Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3]),
                             sys.argv[4:]))

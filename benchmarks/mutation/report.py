"""Run cosmic-ray sessions and report their mutation score (see the package docstring)."""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time
import tomllib
from collections import Counter
from pathlib import Path
from typing import Any

from benchmarks.mutation import selection
from heatcore.framework.files import write_atomic

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
SESSIONS = ("reference", "fast")
SCRATCH = Path(os.environ.get("HEATCORE_MUTATION_SCRATCH", "/tmp/heatcore-mutation"))
RESULTS = HERE / "results.json"
PAGE = ROOT / "docs" / "guides" / "mutation.rst"
#: The test that runs each hand-written rule test on the fast engine, and the suffix its
#: kills are named with.
RERUN = "test_fast_rules.py::test_the_fast_engine_passes_the_rule_test"
ON_FAST = " (on the fast engine)"
_FAILED = re.compile(r"^FAILED (\S+?)(?: - |$)", re.MULTILINE)
#: The traceback line of a failed assertion (``>`` and the source).
_FAILED_LINE = re.compile(r"^>\s+(.*)$", re.MULTILINE)
#: Assertions of rule tests that compare the fast engine with the reference engine's own
#: outcome (tests/test_module_rulings.py): a kill there is a comparison, not a rule check.
COMPARISONS = re.compile(r"assert (fast\.to_state\(\) == after|fast_legal\(state\) == legal"
                         r"|fast_final == final)")


def scratch(name: str) -> Path:
    """The scratch copy of the repository a session mutates."""
    return SCRATCH / name


def run(name: str, only: list[str] | None = None, all_tests: bool = False) -> int:
    """Copy the repository, make the session if new, and execute the pending mutants (of
    the modules in ``only`` if given), each against the tests that execute its line
    (``all_tests``: against the whole test command)."""
    where = scratch(name)
    config = f"benchmarks/mutation/{name}.toml"
    db = where / f"{name}.sqlite"
    if not db.exists():
        shutil.rmtree(where, ignore_errors=True)
        where.mkdir(parents=True)
        _copy_repository(where)
        for step in (["cosmic-ray", "init", config, db.name],
                     ["cr-filter-operators", db.name, config]):
            print(" ".join(step), flush=True)
            subprocess.run(step, cwd=where, check=True)
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                                capture_output=True, text=True, check=True).stdout.strip()
        _write_info(where, {"commit": commit, "seconds": 0.0})
    # one worker: forked.py runs the pending mutants one by one (cosmic-ray exec would
    # start a new interpreter per mutant; the outcomes it stores are the same)
    for script in ("forked.py", "selection.py"):
        shutil.copy2(HERE / script, where / "benchmarks" / "mutation" / script)
    proc = subprocess.Popen([sys.executable, str(where / "benchmarks/mutation/forked.py"),
                             str(where), str(where / config), str(db), *(only or []),
                             *(["--all-tests"] if all_tests else [])], cwd=where)
    last = time.monotonic()
    while proc.poll() is None:
        time.sleep(5)
        now = time.monotonic()
        info = session_info(where)
        _write_info(where, {**info, "seconds": float(info.get("seconds", 0.0)) + now - last})
        last = now
    return proc.returncode or 0


def session_info(where: Path) -> dict[str, Any]:
    """The commit a session mutates and the wall-clock seconds its runs took so far."""
    path = where / "session.json"
    return dict(json.loads(path.read_text())) if path.exists() else {}


def _write_info(where: Path, info: dict[str, Any]) -> None:
    write_atomic(where / "session.json", json.dumps(info) + "\n")


def _jobs(db: Path) -> list[tuple[dict[str, Any], dict[str, Any] | None]]:
    out = subprocess.run(["cosmic-ray", "dump", str(db)], capture_output=True, text=True,
                         check=True).stdout
    return [tuple(json.loads(line)) for line in out.splitlines() if line.strip()]  # type: ignore[misc]


def retest(name: str, on_head: bool = False) -> int:
    """Run every survivor again against the repository's current tests and test command
    (the session may have been made before tests were added): each mutation is applied
    to the scratch copy with ``cosmic-ray apply``, tested, and undone. The outcomes go to
    ``retest.json`` in the scratch folder, which :func:`report` prefers.

    ``on_head``: for a session whose code is too old for today's tests, apply each survivor
    to a fresh copy of today's repository (``NAME-head`` beside the session) instead, and
    test it only where the mutation changes the same lines from the same text to the same
    text as in the session (its stored diff): the same mutant, at its position in today's
    code; the others are left as they were, and named."""
    where = scratch(name)
    config = tomllib.loads((HERE / f"{name}.toml").read_text(encoding="utf-8"))["cosmic-ray"]
    target = where.with_name(f"{name}-head") if on_head else where
    if on_head:
        shutil.rmtree(target, ignore_errors=True)
        _copy_repository(target)
    else:
        # today's tests and the checker they use; the mutated modules stay as the session
        # made them (a mutant is a position in that code)
        shutil.copytree(ROOT / "tests", where / "tests", dirs_exist_ok=True)
        shutil.copytree(ROOT / "heatcore" / "oracle", where / "heatcore" / "oracle",
                        dirs_exist_ok=True)
        for rel in ("heatcore/heat/race_checker.py", "spec/cards.toml"):
            shutil.copy2(ROOT / rel, where / rel)
    command = config["test-command"].split()
    base = subprocess.run(command, cwd=target, text=True, capture_output=True)
    if base.returncode != 0:
        print(f"{name}: today's tests fail on the session's code:\n{base.stdout[-2000:]}")
        return 1
    path = where / "retest.json"
    done: dict[str, Any] = json.loads(path.read_text()) if path.exists() else {}
    explained = tomllib.loads((HERE / "equivalent.toml").read_text(encoding="utf-8"))
    survivors = [(item["mutations"][0], res.get("diff") or "")
                 for item, res in _jobs(where / f"{name}.sqlite")
                 if res and res.get("test_outcome") == "survived"
                 and _key(item["mutations"][0]) not in explained]
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                          capture_output=True, text=True, check=True).stdout.strip()
    for count, (mutation, diff) in enumerate(survivors, start=1):
        key = _key(mutation)
        if done.get(key, {}).get("test_outcome") == "killed":
            continue
        module = target / mutation["module_path"]
        original = module.read_bytes()
        try:
            subprocess.run(["cosmic-ray", "apply", mutation["module_path"],
                            mutation["operator_name"], str(mutation["occurrence"])],
                           cwd=target, check=True, capture_output=True)
            if on_head and _changed(original.decode(), module.read_text()) != _changed(
                    *_sides(diff)):
                print(f"{name}: {key}: not the same mutation in today's code: left as it was",
                      flush=True)
                continue
            test = subprocess.run(command, cwd=target, text=True,
                                  capture_output=True, timeout=float(config["timeout"]) * 5)
            outcome = "survived" if test.returncode == 0 else "killed"
            done[key] = {"test_outcome": outcome, "output": test.stdout[-3000:]}
            if on_head:
                done[key]["code"] = f"applied to {head} (the same lines changed the same way)"
        finally:
            module.write_bytes(original)
        write_atomic(path, json.dumps(done, indent=1) + "\n")
        print(f"{name}: retested {count}/{len(survivors)}: {key} {done[key]['test_outcome']}",
              flush=True)
    return 0


def _copy_repository(where: Path) -> None:
    """Copy the repository's tracked and untracked (not ignored) files to ``where``."""
    files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT,
                           capture_output=True, text=True, check=True).stdout.split()
    for rel in files:
        target = where / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        if (ROOT / rel).is_file():
            shutil.copy2(ROOT / rel, target)


def _sides(diff: str) -> tuple[str, str]:
    """The text before and after a unified diff's hunks (the lines it shows of each side),
    with the line numbers of its hunk headers kept as marker lines."""
    old, new = [], []
    for line in diff.splitlines(keepends=True)[2:]:
        if line.startswith("@@"):
            numbers = re.findall(r"[-+](\d+)", line)
            old.append(f"@@{numbers[0]}\n")
            new.append(f"@@{numbers[1] if len(numbers) > 1 else numbers[0]}\n")
        elif line.startswith("-"):
            old.append(line[1:])
        elif line.startswith("+"):
            new.append(line[1:])
        else:
            old.append(line[1:])
            new.append(line[1:])
    return "".join(old), "".join(new)


def _changed(before: str, after: str) -> list[tuple[int, str, str]]:
    """The lines that differ between two texts: (line number, old text, new text), the
    numbers counted from the texts' ``@@N`` marker lines if any (see :func:`_sides`)."""
    import difflib

    def numbered(text: str) -> list[tuple[int, str]]:
        out, number = [], 1
        for line in text.splitlines():
            if line.startswith("@@") and line[2:].isdigit():
                number = int(line[2:])
                continue
            out.append((number, line))
            number += 1
        return out

    a, b = numbered(before), numbered(after)
    found = []
    matcher = difflib.SequenceMatcher(a=[t for _, t in a], b=[t for _, t in b], autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag != "equal":
            found.append((a[i1][0] if i1 < len(a) else -1,
                          "\n".join(t for _, t in a[i1:i2]), "\n".join(t for _, t in b[j1:j2])))
    return found


def _rule_tests() -> set[str]:
    """``file.py::name`` of every test tagged with rule IDs."""
    sys.path.insert(0, str(ROOT / "tests"))
    from rule_marks import rule_marks

    return {test for tests in rule_marks().values() for test in tests}


def killer(test: str, rule_tests: set[str]) -> str:
    """The name a killing test is reported by: ``file.py::name`` without its parameters,
    or, for a rule test run again on the fast engine (tests/test_fast_rules.py, whose
    parameter is the rule test's own name), that rule test's name and ``ON_FAST``."""
    base, _, param = test.partition("[")
    param = param.removesuffix("]")
    if base == RERUN and param in rule_tests:
        return param + ON_FAST
    return base


def _key(mutation: dict[str, Any]) -> str:
    line, col = mutation["start_pos"]
    return (f"{mutation['module_path']}:{line}:{col} {mutation['operator_name']}"
            f" #{mutation['occurrence']}")


def summarize(name: str, db: Path, equivalent: dict[str, str], rule_tests: set[str],
              ) -> dict[str, Any]:
    """The session's figures, killers and survivors."""
    counts: Counter[str] = Counter()
    killers: Counter[str] = Counter()
    survivors, explained, pending, by_other = [], [], 0, []
    selected = not_run = 0
    again_path = db.parent / "retest.json"
    again = json.loads(again_path.read_text()) if again_path.exists() else {}
    for item, res in _jobs(db):
        mutation = item["mutations"][0]
        key = _key(mutation)
        if res is not None and res.get("test_outcome") == "survived" and key in again:
            res = again[key]
        if res is None:
            pending += 1
            continue
        outcome = res.get("test_outcome") or res.get("worker_outcome")
        if res.get("worker_outcome") == "skipped":
            counts["filtered"] += 1
            continue
        output = res.get("output") or ""
        selected += selection.MARK in output or output.startswith(selection.NOT_RUN)
        not_run += output.startswith(selection.NOT_RUN)
        where = f"{mutation['module_path']}:{mutation['start_pos'][0]} " \
                f"({mutation.get('definition_name') or '-'})"
        if outcome == "killed":
            failed = _FAILED.findall(res.get("output") or "")
            test = failed[0] if failed else "(no test named: crash or timeout)"
            short = killer(test.removeprefix("tests/"), rule_tests)
            lines = _FAILED_LINE.findall(res.get("output") or "")
            if lines and COMPARISONS.search(lines[-1]):
                counts["killed by a comparison with the reference engine"] += 1
                by_other.append({"mutant": key, "where": where, "test": test,
                                 "assertion": lines[-1].strip()})
            elif short in rule_tests or short.endswith(ON_FAST):
                counts["killed by a rule test"] += 1
                killers[short] += 1
            else:
                counts["killed by another test"] += 1
                by_other.append({"mutant": key, "where": where, "test": test})
        elif outcome == "survived":
            if key in equivalent:
                counts["equivalent"] += 1  # or explained: see equivalent.toml
                explained.append({"mutant": key, "where": where, "reason": equivalent[key]})
            else:
                counts["survived"] += 1
                survivors.append({"mutant": key, "where": where})
        else:
            counts[str(outcome)] += 1
    run_count = sum(counts.values()) - counts["filtered"]
    scored = run_count - counts["equivalent"]
    score = counts["killed by a rule test"] / scored if scored else 0.0
    strict = counts["killed by a rule test"] / run_count if run_count else 0.0
    info = session_info(db.parent)
    return {"session": name, "commit": info.get("commit", "?"),
            "minutes": round(float(info.get("seconds", 0.0)) / 60),
            "counts": dict(counts), "pending": pending, "selected": selected,
            "not_run": not_run,
            "score": round(score, 4), "strict_score": round(strict, 4),
            "killers": dict(killers.most_common()),
            "survivors": survivors, "equivalent": explained, "killed_by_other": by_other}


def report(sessions: list[str]) -> int:
    """Write results.json and the docs page from the sessions found in the scratch folder."""
    equivalent = {k: str(v) for k, v in tomllib.loads(
        (HERE / "equivalent.toml").read_text(encoding="utf-8")).items()}
    rule_tests = _rule_tests()
    earlier = {s["session"]: s for s in json.loads(RESULTS.read_text())["sessions"]} \
        if RESULTS.exists() else {}
    results = []
    for name in sessions:
        db = scratch(name) / f"{name}.sqlite"
        if not db.exists():
            print(f"{name}: no session at {db}: the published results are kept, marked stale")
            if name in earlier:
                results.append(_stale(name, earlier[name]))
            continue
        summary = summarize(name, db, equivalent, rule_tests)
        if not set(summary["counts"]) - {"filtered"} and name in earlier:
            print(f"{name}: the session has run no mutant yet: the published results are kept,"
                  " marked stale")
            results.append(_stale(name, earlier[name]))
            continue
        results.append({**summary, "changed_since": _changed_since(name, summary["commit"])})
        counts = summary["counts"]
        print(f"{name}: score {summary['score']:.1%} killed by rule tests (strict"
              f" {summary['strict_score']:.1%}); {counts};"
              f" {summary['pending']} pending")
        for survivor in summary["survivors"]:
            print(f"  survived: {survivor['mutant']} in {survivor['where']}")
    write_atomic(RESULTS, json.dumps({"sessions": results}, indent=1) + "\n")
    write_atomic(PAGE, render(results))
    print(f"wrote {RESULTS.relative_to(ROOT)} and {PAGE.relative_to(ROOT)}")
    return 0


def _stale(name: str, published: dict[str, Any]) -> dict[str, Any]:
    """Published results kept without a new run, with the session's modules changed since."""
    return {**published, "stale": True,
            "changed_since": _changed_since(name, published.get("commit", "HEAD"))}


def _changed_since(name: str, commit: str) -> list[str]:
    """The session's mutated modules whose code differs between ``commit`` and HEAD."""
    modules = tomllib.loads((HERE / f"{name}.toml").read_text(encoding="utf-8"))[
        "cosmic-ray"]["module-path"]
    return [m for m in modules if subprocess.run(
        ["git", "diff", "--quiet", commit, "HEAD", "--", m], cwd=ROOT).returncode != 0]


def render(results: list[dict[str, Any]]) -> str:
    """The docs page: score, survivors and equivalent mutants of each session."""
    lines = ["Mutation score", "==============", "",
             "Generated by ``python3 -m benchmarks.mutation report`` from the cosmic-ray "
             "sessions of ``benchmarks/mutation`` (do not edit). A mutant is one small change to "
             "a rules module (an operator, a number, a comparison, a condition negated). The "
             "score counts the mutants that a test tagged with rule IDs killed (``pytest -x``: "
             "the first test to fail is named), out of every mutant run less those explained as "
             "equivalent (they change no behaviour; a reason that starts *not a rule* marks "
             "code that implements none, such as the fast engine's seeded driver). Golden files "
             "and whole fast-versus-reference comparisons are not in the test commands; the "
             "fast engine's session runs the hand-written rule tests on the fast engine "
             "(``tests/test_fast_rules.py``: a kill is named by the rule test, *on the fast "
             "engine*), the independent race checker's fast-engine tests and the module "
             "rulings' scenarios (``tests/test_module_rulings.py``), some of whose assertions "
             "compare the fast engine's state or legal actions with the reference engine's: a "
             "kill by one of those assertions is counted as *killed by a comparison with the "
             "reference engine*, not by a rule test. A session mutates "
             "the code of the commit it was made from (named below); its survivors were run "
             "again with the tests of the commit that wrote this page (``retest``; ``retest "
             "--on-head`` applies each to a copy of that commit's code where the mutation "
             "changes the same lines the same way, for a session whose code today's tests no "
             "longer run on; or their results cleared and the session run again), except in a "
             "session marked stale. Timeouts and crashes count as killed by no named test. A "
             "mutant *run with coverage selection* (counted per session) ran only the tests that "
             "execute the statement it changes (measured once under coverage.py; a statement run "
             "at import or in a shared fixture runs every test), in the command's order: the "
             "first of them to fail is the test the whole command would name, since the others "
             "run exactly as without the mutant; one whose statement no test executes survived "
             "without running. The other mutants ran the whole test command. Run: ``python3 -m "
             "benchmarks.mutation run NAME`` (opt-in, not part of the test suite), then "
             "``report``.", ""]
    for s in results:
        title = f"Session ``{s['session']}``"
        lines += [title, "-" * len(title), "",
                  f"Score: **{s['score']:.1%}** of the mutants run were killed by rule tests, "
                  f"explained survivors left out; **{s['strict_score']:.1%}** counting them "
                  "as survivors.", "",
                  f"Mutated code: commit ``{s.get('commit', '?')}``"
                  + (f"; the runs took {s['minutes']} minutes of wall-clock time (one worker, "
                     "``nice -n 19``, shared machine)." if "minutes" in s else "."), ""]
        if s.get("stale"):
            changed = ", ".join(f"``{m}``" for m in s.get("changed_since", [])) or "none"
            lines += ["**Stale:** these results were not made again for this page. Modules "
                      f"changed since that commit: {changed}; their line numbers and "
                      "survivors may be out of date until the session is run again.", ""]
        elif s.get("changed_since"):
            changed = ", ".join(f"``{m}``" for m in s["changed_since"])
            lines += [f"Modules changed since that commit: {changed}; their mutants are "
                      "positions in the session's code, not in today's.", ""]
        for k, v in sorted(s["counts"].items()):
            lines.append(f"- {k}: {v}")
        if s.get("selected"):
            lines.append(f"- run with coverage selection: {s['selected']} (of them, no test "
                         f"executes the statement of {s.get('not_run', 0)}: survived)")
        if s["pending"]:
            lines.append(f"- not run yet (the session did not finish): {s['pending']}")
        lines += ["", "Tests that killed the most mutants:", ""]
        for test, n in list(s["killers"].items())[:10]:
            lines.append(f"- ``{test}``: {n}")
        lines += ["", f"Survivors ({len(s['survivors'])}):", ""]
        lines += [f"- ``{v['mutant']}`` in {v['where']}" for v in s["survivors"]] or ["- none"]
        lines += ["", f"Equivalent mutants ({len(s['equivalent'])}):", ""]
        lines += [f"- ``{v['mutant']}`` in {v['where']}: {v['reason']}"
                  for v in s["equivalent"]] or ["- none"]
        lines.append("")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    """``run NAME`` or ``report``."""
    parser = argparse.ArgumentParser(prog="python3 -m benchmarks.mutation")
    sub = parser.add_subparsers(dest="command", required=True)
    run_p = sub.add_parser("run", help="execute a cosmic-ray session")
    run_p.add_argument("session", choices=SESSIONS)
    run_p.add_argument("--only", nargs="*", default=[],
                       help="only the mutants of these modules (paths as in NAME.toml)")
    run_p.add_argument("--all-tests", action="store_true",
                       help="run the whole test command for every mutant (no selection by "
                            "coverage)")
    again = sub.add_parser("retest", help="test the survivors again with today's tests")
    again.add_argument("session", choices=SESSIONS)
    again.add_argument("--on-head", action="store_true",
                       help="apply each survivor to a copy of today's code (where the same "
                            "lines change the same way), for a session too old for today's "
                            "tests")
    sub.add_parser("report", help="write results.json and the docs page")
    args = parser.parse_args(argv)
    if args.command == "run":
        return run(args.session, args.only, args.all_tests)
    if args.command == "retest":
        return retest(args.session, args.on_head)
    return report(list(SESSIONS))

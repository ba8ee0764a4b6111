"""Fixture suites (``conform.case/1`` cases in ``conform.suite/1`` files), any ruleset's:
reading them, running a case on an in-process binding, and checking a whole corpus."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from heatcore.framework.cliutil import CommandError
from heatcore.framework.conformance import SUITE_FORMAT
from heatcore.framework.conformance.binding import JSON, CaseBinding, Rejected
from heatcore.framework.conformance.schema import SchemaError, check

_SHOULD = re.compile(r"\bshould\b", re.IGNORECASE)


def dumps(document: JSON) -> str:
    """The corpus's canonical text: sorted keys, one case per line block, newline at end."""
    return json.dumps(document, sort_keys=True, indent=1, ensure_ascii=False) + "\n"


def read_suite(path: Path) -> JSON:
    """A suite file's data; CommandError saying why if it is not JSON or not a suite."""
    try:
        suite = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise CommandError(f"cannot read {path}: {error.strerror or error}") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise CommandError(f"{path} is not JSON ({error})") from None
    if not isinstance(suite, dict) or suite.get("format") != SUITE_FORMAT \
            or not isinstance(suite.get("cases"), list):
        raise CommandError(f"{path} is not a fixture suite (format {SUITE_FORMAT})")
    return suite


def load_cases(folder: Path) -> list[JSON]:
    """Every case of every ``*.json`` suite file in ``folder`` (files sorted by name);
    CommandError if ``folder`` is missing or a file there is not a suite."""
    if not folder.is_dir():
        raise CommandError(f"{folder} is not a folder")
    cases: list[JSON] = []
    for path in sorted(folder.glob("*.json")):
        suite = read_suite(path)
        for case in suite["cases"]:
            case = dict(case)
            case["_file"] = path.name
            cases.append(case)
    return cases


def run_case(binding: CaseBinding, case: JSON) -> str | None:
    """Run a case on an in-process binding; None if it passes, else why not."""
    try:
        state = binding.load(case["state"])
    except Rejected as rejected:
        return f"start state refused: {rejected.message}"
    expect = case["expect"]
    if "legal" in expect:
        got = binding.legal(state)
        if set(got) != set(expect["legal"]):
            return f"legal actions differ: {sorted(set(got) ^ set(expect['legal']))[:5]}"
        return None
    if "rejection" in expect:
        try:
            binding.apply(state, expect["rejection"]["action"])
        except Rejected as rejected:
            if rejected.kind != expect["rejection"]["kind"]:
                return f"rejected as {rejected.kind}, expected {expect['rejection']['kind']}"
            return None
        return "action accepted, expected a rejection"
    for index, step in enumerate(expect["steps"]):
        try:
            state, events = binding.apply(state, step["action"])
        except Rejected as rejected:
            return f"step {index}: {step['action']!r} refused: {rejected.message}"
        if state != step["state"]:
            return f"step {index}: state differs"
        if events != step["events"]:
            return f"step {index}: events differ"
    return None


#: Rulings no case can hold: input refused whole (a file that is not JSON, a rulings
#: configuration naming an unknown ruling) is never a case's valid start state.
NOT_IN_CASES = frozenset({"ruling.unreadable-input"})


def check_corpus(folder: Path, binding: CaseBinding, state_schema: str, per_rule: int = 3,
                 uncovered: frozenset[str] = frozenset(),
                 case_problems: Callable[[JSON], list[str]] = lambda case: []) -> list[str]:
    """Every problem of the corpus (empty when it is sound): its states are checked against
    schema ``state_schema``, each case by ``case_problems`` too, and every rule but those
    ``uncovered`` (and :data:`NOT_IN_CASES`) needs ``per_rule`` cases."""
    problems: list[str] = []
    known = set(binding.rule_ids())
    ids: Counter[str] = Counter()
    descriptions: Counter[str] = Counter()
    coverage: Counter[str] = Counter()
    files = sorted(folder.glob("*.json"))
    if not files:
        return [f"no fixture files in {folder}"]
    for path in files:
        try:
            suite = json.loads(path.read_text(encoding="utf-8"))
            check("suite", suite)
        except (json.JSONDecodeError, SchemaError) as error:
            problems.append(f"{path.name}: {error}")
            continue
        for case in suite["cases"]:
            cid = case["id"]
            ids[cid] += 1
            descriptions[case["description"]] += 1
            if _SHOULD.search(case["description"]):
                problems.append(f"{cid}: description says 'should'")
            for rule in case["rules"] + case["rulings"]:
                if rule not in known:
                    problems.append(f"{cid}: unknown rule ID {rule!r}")
                coverage[rule] += 1
            for rule in case["rulings"]:
                if not rule.startswith("ruling."):
                    problems.append(f"{cid}: {rule!r} listed as a ruling")
            problems += case_problems(case)
            for name, state in _states(case):
                try:
                    check(state_schema, state)
                    binding.load(state)
                except (SchemaError, Rejected) as error:
                    problems.append(f"{cid}: {name} is not a valid state: {error}")
            why = run_case(binding, case)
            if why is not None:
                problems.append(f"{cid}: fails on {binding.name}: {why}")
    problems += [f"duplicate case id {i!r}" for i, n in ids.items() if n > 1]
    problems += [f"duplicate description {d!r}" for d, n in descriptions.items() if n > 1]
    for rule in sorted(known - uncovered - NOT_IN_CASES):
        if coverage[rule] < per_rule:
            problems.append(f"{rule}: {coverage[rule]} case(s), fewer than {per_rule}")
    return problems


def _states(case: JSON) -> list[tuple[str, JSON]]:
    out = [("state", case["state"])]
    for index, step in enumerate(case["expect"].get("steps", [])):
        out.append((f"steps[{index}].state", step["state"]))
    return out

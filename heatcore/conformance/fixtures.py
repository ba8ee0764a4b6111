"""``heatcore fixtures generate|check``: the fixture corpus under ``spec/fixtures``."""

from __future__ import annotations

import json
import re
import sys
from collections import Counter, defaultdict
from collections.abc import Callable
from pathlib import Path

from heatcore.cliutil import CommandError, Parser
from heatcore.conformance import SUITE_FORMAT
from heatcore.conformance.binding import JSON, CaseBinding, Rejected
from heatcore.conformance.schema import SchemaError, check
from heatcore.errors import RulesError
from heatcore.files import write_atomic
from heatcore.registry import spec_dir
from heatcore.terminal import progress

RULESET = "heat"
INTERPRETING = "spec/schemas/INTERPRETING.md (conform.case/1)"
_SHOULD = re.compile(r"\bshould\b", re.IGNORECASE)


def fixtures_dir() -> Path:
    """``spec/fixtures``."""
    return spec_dir() / "fixtures"


def dumps(document: JSON) -> str:
    """The corpus's canonical text: sorted keys, one case per line block, newline at end."""
    return json.dumps(document, sort_keys=True, indent=1, ensure_ascii=False) + "\n"


def render(stage: Callable[[str], None] = lambda name: None) -> dict[str, str]:
    """File name -> text of the whole corpus (``stage``: see ``all_cases``)."""
    from heatcore.conformance.heat_cases import all_cases, group_of
    from heatcore.conformance.heat_tags import with_implied_rulings

    groups: dict[str, list[JSON]] = defaultdict(list)
    for case in all_cases(stage):
        groups[group_of(case)].append(with_implied_rulings(case))
    out = {}
    for name in sorted(groups):
        cases = sorted(groups[name], key=lambda c: str(c["id"]))
        out[f"{name}.json"] = dumps({"format": SUITE_FORMAT, "ruleset": RULESET,
                                     "interpreting": INTERPRETING, "cases": cases})
    return out


def generate(folder: Path, stage: Callable[[str], None] = lambda name: None) -> list[Path]:
    """Write the corpus; remove stale files of earlier runs."""
    files = render(stage)
    written = []
    for name, text in files.items():
        path = folder / name
        write_atomic(path, text)
        written.append(path)
    for stale in folder.glob("*.json"):
        if stale.name not in files:
            stale.unlink()
    return written


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


def check_corpus(folder: Path, binding: CaseBinding, per_rule: int = 3,
                 state_schema: str = "heat-state") -> list[str]:
    """Every problem of the corpus (empty when it is sound); its states are checked
    against schema ``state_schema``."""
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
            problems += _missing_rulings(case)
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
    from heatcore.championship.data import BETWEEN_RACES

    # the race protocol does not carry those
    for rule in sorted(known - BETWEEN_RACES - NOT_IN_CASES):
        if coverage[rule] < per_rule:
            problems.append(f"{rule}: {coverage[rule]} case(s), fewer than {per_rule}")
    return problems


def _missing_rulings(case: JSON) -> list[str]:
    """A case whose states make it depend on a ruling it does not name (an empty Stress
    supply, a finished car): that ruling is missing from its tags."""
    from heatcore.conformance.heat_tags import implied_rulings

    try:
        implied = implied_rulings(case)
    except (KeyError, TypeError, RulesError):
        return []  # a broken state is reported by the state checks
    return [f"{case['id']}: its states depend on {r}, not in its rulings" for r in implied
            if r not in case["rulings"]]


def _states(case: JSON) -> list[tuple[str, JSON]]:
    out = [("state", case["state"])]
    for index, step in enumerate(case["expect"].get("steps", [])):
        out.append((f"steps[{index}].state", step["state"]))
    return out


def main(argv: list[str]) -> int:
    """Entry point of ``heatcore fixtures``."""
    parser = Parser("heatcore fixtures", description="Generate or check the fixture corpus.")
    parser.add_argument("action", choices=("generate", "check"),
                        help="generate: rewrite the corpus; check: validate it and run it")
    parser.add_argument("--dir", type=Path, default=None,
                        help="corpus folder (default: spec/fixtures)")
    args = parser.parse_args(argv)
    folder = args.dir or fixtures_dir()
    from heatcore.conformance.heat import HeatBinding

    if args.action == "check":
        cases = load_cases(folder)  # a folder of other JSON ends here, in one line
        if not cases:
            raise CommandError(f"no fixture cases in {folder}")
    if args.action == "generate":
        from heatcore.cliutil import writable_dir
        from heatcore.conformance.heat_cases import CASE_STAGES

        writable_dir(folder)  # before the minutes of generating, not after

        with progress(len(CASE_STAGES), "fixtures") as tick:
            def stage(name: str) -> None:
                if name != CASE_STAGES[0]:
                    tick()
                tick.stage(name)
            written = generate(folder, stage)
        from heatcore.conformance.draft_fixtures import generate as generate_draft

        written += generate_draft(folder / "draft")  # the Garage's draft, before any race
        total = sum(len(json.loads(p.read_text())["cases"]) for p in written)
        print(f"wrote {total} cases in {len(written)} files to {folder}")
        return 0
    problems = check_corpus(folder, HeatBinding())
    if (folder / "draft").is_dir():
        from heatcore.conformance.draft_fixtures import DraftBinding

        problems += check_corpus(folder / "draft", DraftBinding(), state_schema="heat-draft")
        cases += load_cases(folder / "draft")
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        print(f"fixtures check: {len(problems)} problem(s) in {len(cases)} cases")
        return 1
    print(f"fixtures check: {len(cases)} cases, all valid and passing")
    return 0

"""``heatcore fixtures generate|check``: Heat's fixture corpus under ``spec/fixtures``."""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

from heatcore.framework.cliutil import CommandError, Parser
from heatcore.framework.conformance import SUITE_FORMAT
from heatcore.framework.conformance import fixtures as suites
from heatcore.framework.conformance.binding import JSON, CaseBinding
from heatcore.framework.conformance.fixtures import dumps, load_cases
from heatcore.framework.errors import RulesError
from heatcore.framework.files import write_atomic
from heatcore.framework.registry import spec_dir
from heatcore.framework.terminal import progress
from heatcore.heat.modules.championship.data import BETWEEN_RACES

RULESET = "heat"
INTERPRETING = "spec/schemas/INTERPRETING.md (conform.case/1)"
def fixtures_dir() -> Path:
    """``spec/fixtures``."""
    return spec_dir() / "fixtures"


def render(stage: Callable[[str], None] = lambda name: None) -> dict[str, str]:
    """File name -> text of the whole corpus (``stage``: see ``all_cases``)."""
    from heatcore.heat.conformance.cases import all_cases, group_of
    from heatcore.heat.conformance.tags import with_implied_rulings

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


def check_corpus(folder: Path, binding: CaseBinding, per_rule: int = 3,
                 state_schema: str = "heat-state") -> list[str]:
    """Every problem of a Heat corpus (empty when it is sound): the generic checks, each
    case's rulings against what its states imply, and ``per_rule`` cases for every rule
    the race protocol carries (not the Championship's between-race rules)."""
    return suites.check_corpus(folder, binding, state_schema, per_rule,
                               uncovered=BETWEEN_RACES, case_problems=_missing_rulings)


def _missing_rulings(case: JSON) -> list[str]:
    """A case whose states make it depend on a ruling it does not name (an empty Stress
    supply, a finished car): that ruling is missing from its tags."""
    from heatcore.heat.conformance.tags import implied_rulings

    try:
        implied = implied_rulings(case)
    except (KeyError, TypeError, RulesError):
        return []  # a broken state is reported by the state checks
    return [f"{case['id']}: its states depend on {r}, not in its rulings" for r in implied
            if r not in case["rulings"]]


def main(argv: list[str]) -> int:
    """Entry point of ``heatcore fixtures``."""
    parser = Parser("heatcore fixtures", description="Generate or check the fixture corpus.")
    parser.add_argument("action", choices=("generate", "check"),
                        help="generate: rewrite the corpus; check: validate it and run it")
    parser.add_argument("--dir", type=Path, default=None,
                        help="corpus folder (default: spec/fixtures)")
    args = parser.parse_args(argv)
    folder = args.dir or fixtures_dir()
    from heatcore.heat.conformance.binding import HeatBinding

    if args.action == "check":
        cases = load_cases(folder)  # a folder of other JSON ends here, in one line
        if not cases:
            raise CommandError(f"no fixture cases in {folder}")
    if args.action == "generate":
        from heatcore.heat.conformance.cases import CASE_STAGES

        with progress(len(CASE_STAGES), "fixtures") as tick:
            def stage(name: str) -> None:
                if name != CASE_STAGES[0]:
                    tick()
                tick.stage(name)
            written = generate(folder, stage)
        from heatcore.heat.conformance.draft_fixtures import generate as generate_draft

        written += generate_draft(folder / "draft")  # the Garage's draft, before any race
        total = sum(len(json.loads(p.read_text())["cases"]) for p in written)
        print(f"wrote {total} cases in {len(written)} files to {folder}")
        return 0
    problems = check_corpus(folder, HeatBinding())
    if (folder / "draft").is_dir():
        from heatcore.heat.conformance.draft_fixtures import DraftBinding

        problems += check_corpus(folder / "draft", DraftBinding(), state_schema="heat-draft")
        cases += load_cases(folder / "draft")
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        print(f"fixtures check: {len(problems)} problem(s) in {len(cases)} cases")
        return 1
    print(f"fixtures check: {len(cases)} cases, all valid and passing")
    return 0

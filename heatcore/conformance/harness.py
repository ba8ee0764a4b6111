"""``heatcore conform --impl "CMD ARGS"``: check another engine against the reference.

Runs the fixture corpus and N seeded random races in lock-step (legal actions, next state and
events at every step), shrinks each divergent race to a minimal repro, and writes a JSON and a
Markdown report with a per-rule summary.
"""

from __future__ import annotations

import json
import shlex
import shutil
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path

from heatcore.cliutil import Parser, nonnegative, positive, seed, writable_dir
from heatcore.conformance import PROTOCOL
from heatcore.conformance.binding import JSON, Binding, RandomRace, track_of
from heatcore.conformance.bindings import BINDINGS, default_fixtures, load_binding, ruleset_of
from heatcore.conformance.fixtures import load_cases
from heatcore.conformance.protocol import EngineFailure, EngineProcess
from heatcore.conformance.shrink import shortest_suffix
from heatcore.files import write_atomic

#: Consecutive engine failures after which the rest of the run is skipped.
GIVE_UP_AFTER = 3
#: Engine failures in a whole run after which the rest of the run is skipped.
MAX_FAILURES = 6
RACE_SEED_BASE = 10_000
#: Seconds an engine may take to start and answer ``start`` (interpreters can be slow).
START_TIMEOUT = 30.0


@dataclass
class Failure:
    """One disagreement, with everything needed to reproduce it."""

    where: str
    rules: list[str]
    reason: str
    state: JSON
    actions: list[str]
    check: str  # "legal", "apply" or "reject" (what the last request checks)
    expected: JSON
    actual: JSON

    def to_json(self) -> JSON:
        return {"where": self.where, "rules": self.rules, "reason": self.reason,
                "differences": json_diff(self.expected, self.actual),
                "repro": {"state": self.state, "actions": self.actions, "check": self.check,
                          "expected": self.expected, "actual": self.actual}}


@dataclass
class Outcome:
    """Results of a whole run."""

    implementation: JSON = field(default_factory=dict)
    case_results: dict[str, str] = field(default_factory=dict)  # id -> pass|fail|skip
    case_rules: dict[str, list[str]] = field(default_factory=dict)
    races_passed: int = 0
    races_failed: int = 0
    races_skipped: int = 0
    steps: int = 0
    failures: list[Failure] = field(default_factory=list)
    engine_failures: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def rule_summary(self, all_rules: list[str]) -> dict[str, dict[str, int]]:
        table = {r: {"pass": 0, "fail": 0, "skip": 0} for r in all_rules}
        for cid, result in self.case_results.items():
            for rule in self.case_rules[cid]:
                table.setdefault(rule, {"pass": 0, "fail": 0, "skip": 0})[result] += 1
        for failure in self.failures:
            if failure.where.startswith("race"):
                for rule in failure.rules[:1]:
                    table.setdefault(rule, {"pass": 0, "fail": 0, "skip": 0})["fail"] += 1
        return table

    def failed_rules(self) -> list[str]:
        out: list[str] = []
        for failure in self.failures:
            out.extend(r for r in failure.rules if r not in out)
        return out

    def add_races(self, part: Outcome) -> None:
        """Add the race results of ``part`` (counts, steps, failures) after this one's."""
        self.races_passed += part.races_passed
        self.races_failed += part.races_failed
        self.races_skipped += part.races_skipped
        self.steps += part.steps
        self.failures.extend(part.failures)
        self.engine_failures.extend(part.engine_failures)

    @property
    def ok(self) -> bool:
        return not self.failures and not self.engine_failures and self.races_skipped == 0 \
            and "fail" not in self.case_results.values()


class Session:
    """An engine subprocess with a completed ``start`` handshake; restarted after failures."""

    def __init__(self, argv: list[str], timeout: float, ruleset: str) -> None:
        self.argv, self.timeout, self.ruleset = argv, timeout, ruleset
        self.engine: EngineProcess | None = None
        self.hello: JSON = {}
        self.strikes = 0
        self.total_failures = 0

    def get(self) -> EngineProcess:
        if self.engine is not None and self.engine.dead is None:
            return self.engine
        if self.engine is not None:
            self.engine.close()
        self.engine = EngineProcess(self.argv, timeout=max(self.timeout, START_TIMEOUT))
        reply = self.engine.request({"op": "start", "protocol": PROTOCOL,
                                     "ruleset": self.ruleset})
        self.engine.timeout = self.timeout
        if not reply.get("ok"):
            raise EngineFailure("bad-message", f"start refused: {reply.get('error')}")
        if reply.get("protocol") != PROTOCOL:
            raise EngineFailure("bad-message", f"engine speaks {reply.get('protocol')}")
        self.hello = reply
        return self.engine

    def failed(self, error: EngineFailure, counts: bool = True) -> str:
        if counts:
            self.strikes += 1
            self.total_failures += 1
        tail = self.engine.stderr_tail(500).strip() if self.engine else ""
        if self.engine is not None:
            self.engine.close()
        self.engine = None
        shown = f" (stderr: {tail[-300:]})" if tail else ""
        return f"engine {error.kind}: {error.detail}{shown}"

    @property
    def unusable(self) -> bool:
        return self.strikes >= GIVE_UP_AFTER or self.total_failures >= MAX_FAILURES

    def close(self) -> None:
        if self.engine is not None:
            self.engine.close()
            self.engine = None


def json_diff(expected: JSON, actual: JSON, path: str = "$", limit: int = 12) -> list[str]:
    """Where two JSON values differ, as ``path: expected X, got Y`` lines (at most ``limit``)."""
    out: list[str] = []

    def walk(a: JSON, b: JSON, where: str) -> None:
        if len(out) >= limit or a == b:
            return
        if isinstance(a, dict) and isinstance(b, dict):
            for key in sorted(set(a) | set(b), key=str):
                if key not in b:
                    out.append(f"{where}.{key}: missing (expected {_short(a[key])})")
                elif key not in a:
                    out.append(f"{where}.{key}: unexpected {_short(b[key])}")
                else:
                    walk(a[key], b[key], f"{where}.{key}")
            return
        if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
            for index, (x, y) in enumerate(zip(a, b, strict=True)):
                walk(x, y, f"{where}[{index}]")
            return
        out.append(f"{where}: expected {_short(a)}, got {_short(b)}")

    walk(expected, actual, path)
    return out


def _short(value: JSON) -> str:
    text = json.dumps(value, separators=(",", ":"))
    return text if len(text) <= 160 else text[:157] + "..."


def _reply_view(reply: JSON, check: str) -> JSON:
    if not reply.get("ok"):
        return {"error": reply.get("error")}
    if check == "legal":
        return {"actions": sorted(reply.get("actions", []))}
    return {"state": reply.get("state"), "events": reply.get("events")}


def _differs(check: str, expected: JSON, actual: JSON) -> str | None:
    """Why ``actual`` disagrees with ``expected`` (None if it agrees)."""
    if check == "reject":
        if "error" not in actual:
            return "the engine accepted an action the rules refuse"
        if actual["error"].get("kind") != expected["error"]["kind"]:
            got, want = actual["error"].get("kind"), expected["error"]["kind"]
            return f"rejected as {got!r}, expected {want!r}"
        return None
    if "error" in actual:
        err = actual["error"] or {}
        return f"the engine refused it ({err.get('kind')}: {str(err.get('message'))[:200]})"
    if check == "legal":
        want, got = set(expected["actions"]), set(actual["actions"])
        if want != got:
            extra, missing = sorted(got - want), sorted(want - got)
            return f"legal actions differ: extra {extra[:4]}, missing {missing[:4]}"
        return None
    if actual["events"] != expected["events"]:
        return "events differ"
    if actual["state"] != expected["state"]:
        return "next state differs"
    return None


class Runner:
    """Runs the corpus and the races against one engine."""

    def __init__(self, binding: Binding, session: Session, outcome: Outcome) -> None:
        self.binding, self.session, self.outcome = binding, session, outcome

    def supported(self, state: JSON, rulings: list[str]) -> str | None:
        hello = self.session.hello
        missing = [r for r in rulings if r not in hello.get("rulings", [])]
        if missing:
            return f"ruling(s) not supported: {', '.join(missing)}"
        track = track_of(state)
        if track is not None and track not in hello.get("tracks", []):
            return f"track {track!r} not supported"
        return None

    def exchange(self, engine: EngineProcess, check: str, action: str | None) -> JSON:
        if check == "legal":
            return _reply_view(engine.request({"op": "legal"}), check)
        return _reply_view(engine.request({"op": "apply", "action": action}), check)

    def run_case(self, case: JSON) -> None:
        cid = case["id"]
        self.outcome.case_rules[cid] = list(case["rules"]) + list(case["rulings"])
        if self.session.unusable:
            self.outcome.case_results[cid] = "skip"
            return
        try:
            engine = self.session.get()
        except EngineFailure as error:
            self.outcome.engine_failures.append(f"{cid}: {self.session.failed(error)}")
            self.outcome.case_results[cid] = "skip"
            return
        why = self.supported(case["state"], case["rulings"])
        if why is not None:
            self.outcome.case_results[cid] = "skip"
            return
        expect = case["expect"]
        done: list[str] = []
        try:
            loaded = engine.request({"op": "load", "state": case["state"]})
            if not loaded.get("ok"):
                self._fail(cid, case, [], "load", {"ok": True}, {"error": loaded.get("error")},
                           "the engine refused the start state")
                return
            plan: list[tuple[str, str | None, JSON]]
            if "legal" in expect:
                plan = [("legal", None, {"actions": sorted(expect["legal"])})]
            elif "rejection" in expect:
                rej = expect["rejection"]
                plan = [("reject", rej["action"], {"error": {"kind": rej["kind"],
                                                              "rule": rej.get("rule")}})]
            else:
                plan = [("apply", s["action"], {"state": s["state"], "events": s["events"]})
                        for s in expect["steps"]]
            for check, action, want in plan:
                got = self.exchange(engine, check, action)
                why = _differs(check, want, got)
                if why is not None:
                    self._fail(cid, case, done + ([action] if action else []), check, want,
                               got, why)
                    return
                if action:
                    done.append(action)
        except EngineFailure as error:
            reason = self.session.failed(error)
            self.outcome.engine_failures.append(f"{cid}: {reason}")
            self._fail(cid, case, done, "apply", {}, {"failure": error.kind}, reason)
            return
        self.session.strikes = 0
        self.outcome.case_results[cid] = "pass"

    def _fail(self, cid: str, case: JSON, actions: list[str], check: str, want: JSON,
              got: JSON, why: str) -> None:
        self.outcome.case_results[cid] = "fail"
        self.outcome.failures.append(Failure(
            f"case {cid}", list(case["rules"]) + list(case["rulings"]), why, case["state"],
            actions, check, want, got))

    def run_race(self, race: RandomRace, window: int = 64) -> None:
        """Lock-step over the race: at each step the legal actions, then the action's next
        state and events. Requests are pipelined (up to ``window`` ahead of the replies)."""
        if self.session.unusable:
            self.outcome.races_skipped += 1
            return
        plan: list[tuple[int, str, str | None, JSON]] = []
        for index, step in enumerate(race.steps):
            if step.legal:
                plan.append((index, "legal", None, {"actions": sorted(step.legal)}))
            plan.append((index, "apply", step.action, {"state": step.after, "events": step.events}))
        try:
            engine = self.session.get()
            loaded = engine.request({"op": "load", "state": race.start})
            if not loaded.get("ok"):
                raise EngineFailure("bad-message", f"start state refused: {loaded.get('error')}")
            sent = 0
            for got_index, (index, check, _action, want) in enumerate(plan):
                while sent < len(plan) and sent - got_index < window:
                    _, c, a, _ = plan[sent]
                    engine.send({"op": "legal"} if c == "legal" else {"op": "apply", "action": a})
                    sent += 1
                got = _reply_view(engine.receive(check), check)
                why = _differs(check, want, got)
                if why is not None:
                    self.outcome.steps += index
                    self.session.failed(EngineFailure("diverged", "requests pending"), False)
                    self._race_divergence(race, index, check, want, got, why)
                    return
        except EngineFailure as error:
            self.outcome.races_failed += 1
            reason = self.session.failed(error)
            self.outcome.engine_failures.append(f"race {race.seed}: {reason}")
            return
        self.outcome.steps += len(race.steps)
        self.session.strikes = 0
        self.outcome.races_passed += 1

    def _race_divergence(self, race: RandomRace, index: int, check: str, want: JSON,
                         got: JSON, why: str) -> None:
        self.outcome.races_failed += 1
        step = race.steps[index]

        def reproduces(start: int) -> bool:
            try:
                engine = self.session.get()
                state = race.steps[start].before
                if not engine.request({"op": "load", "state": state}).get("ok"):
                    return False
                for k in range(start, index):
                    engine.request({"op": "apply", "action": race.steps[k].action})
                return _differs(check, want, self.exchange(
                    engine, check, step.action if check == "apply" else None)) is not None
            except EngineFailure as error:
                self.session.failed(error)
                return False

        start = shortest_suffix(index, reproduces)
        first = index if start is None else start
        actions = [s.action for s in race.steps[first:index]]
        if check == "apply":
            actions.append(step.action)
        rules = self.binding.attribute(step.before, step.action if check == "apply" else None,
                                       want, got)
        note = "" if start is not None else " (did not reproduce from a loaded state)"
        self.outcome.failures.append(Failure(
            f"race {race.seed} ({race.label}), step {index}", rules, why + note,
            race.steps[first].before, actions, check, want, got))


def run(binding: Binding, argv: list[str], races: int, fixtures: Path | None,
        timeout: float = 10.0, seed_base: int = RACE_SEED_BASE,
        progress: Callable[[str], None] | None = None, workers: int = 1) -> Outcome:
    """Run the whole check of the engine started by ``argv``.

    The corpus runs first, in this process. With ``workers`` > 1 the races then run in up to
    ``workers`` pool processes, each on a contiguous run of seeds with its own engine
    subprocess, and their results are merged in seed order; the give-up limits
    (``GIVE_UP_AFTER``, ``MAX_FAILURES``) then count per worker, apart from the corpus."""
    if workers < 1:
        raise ValueError(f"workers must be at least 1, got {workers}")
    outcome = Outcome()
    began = time.perf_counter()
    session = Session(argv, timeout, ruleset_of(binding))
    try:
        try:
            session.get()
            outcome.implementation = session.hello.get("implementation", {})
        except EngineFailure as error:
            outcome.engine_failures.append(f"start: {session.failed(error)}")
        runner = Runner(binding, session, outcome)
        if fixtures is not None:
            for case in load_cases(fixtures):
                runner.run_case(case)
            if progress:
                progress(f"corpus: {len(outcome.case_results)} cases")
        if workers == 1:
            for i in range(races):
                runner.run_race(binding.random_race(seed_base + i))
    finally:
        session.close()
    if workers > 1 and races > 0:
        chunks = _seed_chunks(seed_base, races, workers)
        for part in _race_parts(binding, argv, timeout, chunks):
            outcome.add_races(part)
    outcome.seconds = time.perf_counter() - began
    return outcome


def _seed_chunks(seed_base: int, races: int, workers: int) -> list[range]:
    """The seeds ``seed_base .. seed_base+races-1`` (``races`` >= 1) cut into
    ``min(workers, races)`` contiguous runs of near-equal length, in order."""
    count = min(workers, races)
    bounds = [seed_base + races * k // count for k in range(count + 1)]
    return [range(first, last) for first, last in pairwise(bounds)]


def _race_parts(binding: Binding, argv: list[str], timeout: float,
                chunks: list[range]) -> list[Outcome]:
    """The outcomes of the races of each chunk, one pool process per chunk, in chunk order."""
    with ProcessPoolExecutor(max_workers=len(chunks)) as pool:
        futures = [pool.submit(_race_chunk, binding, argv, timeout, chunk) for chunk in chunks]
        return [future.result() for future in futures]


def _race_chunk(binding: Binding, argv: list[str], timeout: float, seeds: range) -> Outcome:
    """Run the races of ``seeds`` through a new engine subprocess (a pool job)."""
    outcome = Outcome()
    session = Session(argv, timeout, ruleset_of(binding))
    try:
        runner = Runner(binding, session, outcome)
        for seed in seeds:
            runner.run_race(binding.random_race(seed))
    finally:
        session.close()
    return outcome


# ---------------------------------------------------------------- reports

def report_json(outcome: Outcome, binding: Binding, impl: str) -> JSON:
    results = list(outcome.case_results.values())
    return {
        "protocol": PROTOCOL, "impl": impl, "implementation": outcome.implementation,
        "reference": {"name": binding.name, "version": binding.version},
        "ok": outcome.ok, "seconds": round(outcome.seconds, 2),
        "cases": {k: results.count(k) for k in ("pass", "fail", "skip")},
        "races": {"pass": outcome.races_passed, "fail": outcome.races_failed,
                  "skip": outcome.races_skipped, "steps": outcome.steps},
        "rules": outcome.rule_summary(binding.rule_ids()),
        "failed_rules": outcome.failed_rules(),
        "engine_failures": outcome.engine_failures,
        "failures": [f.to_json() for f in outcome.failures],
    }


def repro_lines(failure: Failure) -> list[JSON]:
    """The protocol requests that reproduce a failure."""
    lines: list[JSON] = [{"op": "start", "protocol": PROTOCOL, "ruleset": "heat"},
                         {"op": "load", "state": failure.state}]
    for action in failure.actions:
        lines.append({"op": "apply", "action": action})
    if failure.check == "legal":
        lines.append({"op": "legal"})
    lines.append({"op": "stop"})
    return lines


def report_markdown(report: JSON, outcome: Outcome, impl: str) -> str:
    out = [f"# Conformance report: `{impl}`", "",
           f"Protocol {PROTOCOL}; implementation {json.dumps(report['implementation'])}; "
           f"reference {report['reference']['name']} {report['reference']['version']}.", "",
           f"**Result: {'PASS' if report['ok'] else 'FAIL'}** in {report['seconds']} s. "
           f"Cases: {report['cases']['pass']} pass, {report['cases']['fail']} fail, "
           f"{report['cases']['skip']} skipped. Races: {report['races']['pass']} pass, "
           f"{report['races']['fail']} fail, {report['races']['skip']} skipped "
           f"({report['races']['steps']} steps).", ""]
    if report["failed_rules"]:
        out += ["Rules with failures: " + ", ".join(f"`{r}`" for r in report["failed_rules"]), ""]
    out += ["## Per rule", "", "| rule | pass | fail | skipped |", "|---|---|---|---|"]
    for rule, row in report["rules"].items():
        out.append(f"| `{rule}` | {row['pass']} | {row['fail']} | {row['skip']} |")
    if outcome.engine_failures:
        out += ["", "## Engine failures", ""] + [f"- {e}" for e in outcome.engine_failures[:50]]
    out += ["", "## Failures", ""]
    if not outcome.failures:
        out.append("None.")
    for number, failure in enumerate(outcome.failures[:100], 1):
        transcript = "\n".join(json.dumps(m, separators=(",", ":")) for m in repro_lines(failure))
        out += [f"### {number}. {failure.where}", "",
                f"Rules: {', '.join(f'`{r}`' for r in failure.rules)}. {failure.reason}.", "",
                f"Actions from the loaded state: `{' ; '.join(failure.actions) or '(none)'}`; "
                f"then `{failure.check}`.", "",
                "Differences (expected vs got):", "", "```",
                *json_diff(failure.expected, failure.actual), "```", "",
                "Expected:", "", "```json", json.dumps(failure.expected)[:3000], "```", "",
                "Got:", "", "```json", json.dumps(failure.actual)[:3000], "```", "",
                "Repro (pipe these lines into your engine):", "",
                "```sh", f"cat > repro-{number}.jsonl <<'EOF'", transcript, "EOF",
                f"{impl} < repro-{number}.jsonl", "```", ""]
    return "\n".join(out) + "\n"


def main(argv: list[str]) -> int:
    """Entry point of ``heatcore conform``."""
    parser = Parser("heatcore conform", description="Check another engine against heatcore.")
    parser.add_argument("--impl", required=True, help='the engine\'s command, e.g. "mybin --x"')
    parser.add_argument("--races", type=nonnegative, default=200, help="seeded random races")
    parser.add_argument("--report", type=Path, default=None,
                        help="write report.json and report.md into this folder (checked "
                             "before the run)")
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds per message")
    parser.add_argument("--fixtures", type=Path, default=None,
                        help="corpus folder (default: spec/fixtures)")
    parser.add_argument("--no-fixtures", action="store_true", help="run the races only")
    parser.add_argument("--seed", type=seed, default=RACE_SEED_BASE, help="first race seed")
    parser.add_argument("--ruleset", default="heat", choices=sorted(BINDINGS),
                        help="the ruleset to check")
    parser.add_argument("--workers", type=positive, default=1,
                        help="processes for the races, each with its own engine; the "
                             "give-up limits count per worker")
    args = parser.parse_args(argv)
    try:
        command = shlex.split(args.impl)
    except ValueError as error:
        print(f"heatcore conform: cannot read --impl: {error}", file=sys.stderr)
        return 2
    if not command:
        print("heatcore conform: --impl is empty", file=sys.stderr)
        return 2
    if command[0] == "heatcore" and shutil.which("heatcore") is None:
        command = [sys.executable, "-m", "heatcore.cli", *command[1:]]
    if args.report is not None:
        writable_dir(args.report)
    binding = load_binding(args.ruleset)
    fixtures = None if args.no_fixtures else (args.fixtures or default_fixtures(args.ruleset))
    outcome = run(binding, command, args.races, fixtures, args.timeout, args.seed,
                  workers=args.workers)
    report = report_json(outcome, binding, args.impl)
    summary = report_markdown(report, outcome, args.impl)
    if args.report is not None:
        write_atomic(args.report / "report.json", json.dumps(report, indent=1) + "\n")
        write_atomic(args.report / "report.md", summary)
    failing = {r: row for r, row in report["rules"].items() if row["fail"]}
    print(f"conform: {'PASS' if report['ok'] else 'FAIL'} ({args.impl}) in {report['seconds']} s")
    print(f"  cases: {report['cases']}; races: {report['races']}")
    print(f"  workers: {args.workers}")
    for rule, row in failing.items():
        print(f"  FAIL {rule}: {row['fail']} failing, {row['pass']} passing")
    for line in outcome.engine_failures[:5]:
        print(f"  engine: {line}")
    if args.report is not None:
        print(f"  report: {args.report / 'report.md'}")
    return 0 if report["ok"] else 1



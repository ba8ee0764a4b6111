"""``heatcore conform --impl "CMD ARGS"``: check another engine against the reference.

Runs the fixture corpus and N seeded random races in lock-step (legal actions, next state and
events at every step, as far as the engine declares it wants them compared). A divergence is
recorded, shrunk to a minimal repro when its cause is new, and the race goes on from the
reference's state (resync), so one run finds every divergence of every race. Reports group
divergences by cause (see :mod:`heatcore.framework.conformance.reports`).
"""

from __future__ import annotations

import shlex
import shutil
import sys
import time
from argparse import Namespace
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from itertools import pairwise
from pathlib import Path

from heatcore.framework.cliutil import CommandError, Parser, nonnegative, positive, seed
from heatcore.framework.cluster import BackendError
from heatcore.framework.conformance import CORE_PROTOCOL, PROTOCOL
from heatcore.framework.conformance.binding import JSON, Binding, RandomRace, Rejected, modules_of
from heatcore.framework.conformance.bindings import (
    BINDINGS,
    default_fixtures,
    load_binding,
    ruleset_of,
    with_ruling_options,
)
from heatcore.framework.conformance.capabilities import Capabilities
from heatcore.framework.conformance.causes import Divergence
from heatcore.framework.conformance.fixtures import load_cases
from heatcore.framework.conformance.protocol import EngineFailure, EngineProcess
from heatcore.framework.conformance.shrink import shortest_suffix
from heatcore.framework.errors import RulesError
from heatcore.framework.registry import DEFAULT_GAME

#: Engine restarts in a run (per worker) after which the rest of the run is skipped.
MAX_RESTARTS = 25
#: Engine failures in one race after which the rest of that race is skipped.
RACE_FAILURES = 2
RACE_SEED_BASE = 10_000
#: Seconds an engine may take to start and answer ``start`` (interpreters can be slow).
START_TIMEOUT = 30.0
#: Requests sent ahead of the replies in a race (fewer right after a divergence).
WINDOW = 64

Progress = Callable[[str, int, int, int], None]  # (phase, done, total, divergences)


class CannotStart(Exception):
    """The engine does not start or does not complete the ``start`` handshake."""


@dataclass
class Outcome:
    """Results of a whole run."""

    implementation: JSON = field(default_factory=dict)
    capabilities: Capabilities = field(default_factory=Capabilities)
    protocol: str = PROTOCOL
    case_results: dict[str, str] = field(default_factory=dict)  # id -> pass|fail|skip
    case_rules: dict[str, list[str]] = field(default_factory=dict)
    races_passed: int = 0
    races_failed: int = 0
    races_skipped: int = 0
    steps: int = 0
    setups: Counter[str] = field(default_factory=Counter)  # pass|fail|skip
    divergences: list[Divergence] = field(default_factory=list)
    skips: Counter[str] = field(default_factory=Counter)  # reason -> count
    engine_failures: list[str] = field(default_factory=list)
    restarts: int = 0
    seconds: float = 0.0
    #: The ruling alternatives the random races were played under (the engine's declaration).
    race_rulings: dict[str, str] = field(default_factory=dict)

    def add_races(self, part: Outcome) -> None:
        """Add the race results of ``part`` after this one's."""
        self.races_passed += part.races_passed
        self.races_failed += part.races_failed
        self.races_skipped += part.races_skipped
        self.steps += part.steps
        self.setups.update(part.setups)
        self.divergences.extend(part.divergences)
        self.skips.update(part.skips)
        self.engine_failures.extend(part.engine_failures)
        self.restarts += part.restarts

    @property
    def ok(self) -> bool:
        return not self.divergences and not self.engine_failures and self.races_skipped == 0 \
            and "fail" not in self.case_results.values() and not self.setups["fail"]


class Session:
    """An engine subprocess with a completed ``start`` handshake; restarted after failures."""

    def __init__(self, argv: list[str], timeout: float, ruleset: str,
                 memory_mb: int | None = None, rulings: JSON = None) -> None:
        self.argv, self.timeout, self.ruleset = argv, timeout, ruleset
        self.memory_mb = memory_mb
        #: The ruling alternatives the session plays, sent with ``start`` when given.
        self.rulings = rulings
        self.engine: EngineProcess | None = None
        self.hello: JSON = {}
        self.caps = Capabilities(ruleset=ruleset)
        #: The protocol version agreed at ``start`` (PROTOCOL, or CORE_PROTOCOL for an
        #: engine that refuses it).
        self.protocol = PROTOCOL
        self.started = 0
        self.gave_up: str | None = None

    def get(self) -> EngineProcess:
        """The running engine, started (again) if needed."""
        if self.engine is not None and self.engine.dead is None:
            return self.engine
        if self.gave_up is not None:
            raise EngineFailure("given-up", self.gave_up)
        if self.engine is not None:
            self.engine.close()
        if self.started > MAX_RESTARTS:
            self.gave_up = f"{MAX_RESTARTS} restarts"
            raise EngineFailure("given-up", self.gave_up)
        self.started += 1
        self.engine = EngineProcess(self.argv, timeout=max(self.timeout, START_TIMEOUT),
                                    memory_mb=self.memory_mb)
        version = PROTOCOL
        reply = self._hello(version)
        if not reply.get("ok") and unsupported(reply) is not None:
            version = CORE_PROTOCOL  # an engine of the earlier version: the core race only
            reply = self._hello(version)
        self.engine.timeout = self.timeout
        if not reply.get("ok"):
            raise EngineFailure("refused-start", f"start refused: {reply.get('error')}")
        if reply.get("protocol") == CORE_PROTOCOL:  # answered in the earlier version
            version = CORE_PROTOCOL
        if reply.get("protocol") != version:
            raise EngineFailure("refused-start", f"engine speaks {reply.get('protocol')}")
        self.hello = reply
        self.protocol = version
        caps = Capabilities.from_hello(reply, self.ruleset)
        self.caps = replace(caps, modules=()) if version == CORE_PROTOCOL else caps
        return self.engine

    def _hello(self, version: str) -> JSON:
        """The engine's reply to ``start`` in protocol ``version``."""
        assert self.engine is not None
        hello: JSON = {"op": "start", "protocol": version, "ruleset": self.ruleset}
        if self.rulings:
            hello["rulings"] = self.rulings
        return self.engine.request(hello)

    def failed(self, error: EngineFailure) -> str:
        """Close the engine after ``error``; a one-paragraph account of it."""
        excerpt = self.engine.stderr_excerpt() if self.engine else ""
        if self.engine is not None:
            self.engine.close()
        self.engine = None
        shown = "\n  stderr:\n    " + excerpt.replace("\n", "\n    ") if excerpt else ""
        return f"engine {error.kind}: {error.detail}{shown}"

    def drop(self) -> None:
        """Forget the engine without counting a failure (its replies are out of step)."""
        if self.engine is not None:
            self.engine.close()
        self.engine = None
        self.started -= 1

    def close(self) -> None:
        if self.engine is not None:
            self.engine.close()
            self.engine = None


def _reply_view(reply: JSON, check: str, compare: frozenset[str]) -> JSON:
    """The compared part of a reply."""
    if not reply.get("ok"):
        return {"error": reply.get("error")}
    if check == "legal":
        return {"actions": sorted(reply.get("actions", []))}
    if check == "setup":
        return {"state": reply.get("state")}
    view: JSON = {}
    if "state" in compare:
        view["state"] = reply.get("state")
    if "events" in compare:
        view["events"] = reply.get("events")
    return view


def _want_view(want: JSON, check: str, compare: frozenset[str]) -> JSON:
    if check != "apply":
        return want
    return {k: v for k, v in want.items() if k in compare}


def unsupported(reply: JSON) -> str | None:
    """The engine's reason when it declined a request (``unsupported``), else None."""
    err = reply.get("error") if isinstance(reply, dict) else None
    if isinstance(err, dict) and err.get("kind") == "unsupported":
        return str(err.get("message") or "unsupported")[:200]
    return None


def _differs(check: str, expected: JSON, actual: JSON, rule_ids: bool = False,
             normal: Callable[[JSON], JSON] | None = None) -> str | None:
    """Why ``actual`` disagrees with ``expected`` (None if it agrees). ``normal`` puts a
    state in the binding's normal form before they are compared (what a state may leave
    out, such as the rulings it plays by default)."""
    if check == "reject":
        if "error" not in actual:
            return "the engine accepted an action the rules refuse"
        if actual["error"].get("kind") != expected["error"]["kind"]:
            got, want = actual["error"].get("kind"), expected["error"]["kind"]
            return f"rejected as {got!r}, expected {want!r}"
        want_rule, got_rule = expected["error"].get("rule"), actual["error"].get("rule")
        if rule_ids and want_rule and got_rule != want_rule:
            return f"rejected under rule {got_rule!r}, expected {want_rule!r}"
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
    if "events" in expected and actual.get("events") != expected["events"]:
        return "events differ"
    if "state" in expected:
        want, got = expected["state"], actual.get("state")
        if normal is not None:
            want, got = normal(want), normal(got)
        if got != want:
            return "the state differs" if check == "setup" else "next state differs"
    return None


class Runner:
    """Runs the corpus and the races against one engine."""

    def __init__(self, binding: Binding, session: Session, outcome: Outcome) -> None:
        self.binding, self.session, self.outcome = binding, session, outcome
        #: The binding's normal form of a state, if it has one (``normal_state``).
        self.normal: Callable[[JSON], JSON] | None = getattr(binding, "normal_state", None)
        self.seen: set[tuple[str, str]] = set()  # causes already shrunk
        self._at = 0  # the plan position being checked in a race

    @property
    def caps(self) -> Capabilities:
        return self.session.caps

    def _failure(self, where: str, error: EngineFailure) -> None:
        self.outcome.engine_failures.append(f"{where}: {self.session.failed(error)}")
        self.outcome.restarts += 1

    def divergence(self, where: str, source: str, check: str, state: JSON,
                   action: str | None, actions: list[str], want: JSON, got: JSON, why: str,
                   tags: list[str] | None = None, race: str = "",
                   step: int | None = None) -> Divergence:
        """Record a divergence, charged to its cause (a case's own rules first)."""
        found = self.binding.attribute(check, state, action, want, got, self.caps.rule_ids)
        rules = list(found.rules)
        if tags and rules == ["round.sequence"]:
            rules = list(tags)  # nothing more specific was found: the case's own rules
        div = Divergence(where, source, rules, found.what, why, state, actions, check, want,
                         got, step=step, race=race)
        self.outcome.divergences.append(div)
        return div

    # ------------------------------------------------------------ the corpus

    def run_case(self, case: JSON) -> None:
        cid = case["id"]
        tags = list(case["rules"]) + list(case["rulings"])
        self.outcome.case_rules[cid] = tags
        why = self.caps.unsupported(case["state"], case["rulings"],
                                    getattr(self.binding, "modules_of", modules_of))
        if why is not None:
            self._skip(cid, why)
            return
        try:
            engine = self.session.get()
        except EngineFailure as error:
            self._failure(cid, error)
            self._skip(cid, f"engine failed: {error.kind}")
            return
        expect = case["expect"]
        compare = self.caps.compare
        done: list[str] = []
        try:
            loaded = engine.request({"op": "load", "state": case["state"]})
            if not loaded.get("ok"):
                reason = unsupported(loaded)
                if reason is not None:
                    self._skip(cid, f"load: {reason}")
                    return
                self.outcome.case_results[cid] = "fail"
                self.divergence(f"case {cid}", "case", "load", case["state"], None, [],
                                {"ok": True}, {"error": loaded.get("error")},
                                "the engine refused the start state", tags)
                return
            plan: list[tuple[str, str | None, JSON, JSON]] = []
            if "legal" in expect:
                if "legal" not in compare:
                    self._skip(cid, "legal actions not compared (declared)")
                    return
                plan = [("legal", None, {"actions": sorted(expect["legal"])}, case["state"])]
            elif "rejection" in expect:
                rej = expect["rejection"]
                plan = [("reject", rej["action"], {"error": {"kind": rej["kind"],
                                                              "rule": rej.get("rule")}},
                         case["state"])]
            else:
                before = case["state"]
                for s in expect["steps"]:
                    plan.append(("apply", s["action"], _want_view(
                        {"state": s["state"], "events": s["events"]}, "apply", compare), before))
                    before = s["state"]
            for check, action, want, before in plan:
                request = {"op": "legal"} if check == "legal" else \
                    {"op": "apply", "action": action}
                reply = engine.request(request)
                reason = unsupported(reply)
                if reason is not None:
                    self._skip(cid, f"{check}: {reason}")
                    return
                got = _reply_view(reply, "apply" if check == "reject" else check, compare)
                why = _differs(check, want, got, self.caps.rule_ids, self.normal)
                if why is not None:
                    self.outcome.case_results[cid] = "fail"
                    self.divergence(f"case {cid}", "case", check, before, action,
                                    done + ([action] if action else []), want, got, why, tags)
                    return
                if action:
                    done.append(action)
        except EngineFailure as error:
            self._failure(f"case {cid}", error)
            self.outcome.case_results[cid] = "fail"
            return
        self.outcome.case_results[cid] = "pass"

    def _skip(self, cid: str, reason: str) -> None:
        self.outcome.case_results[cid] = "skip"
        self.outcome.skips[reason] += 1

    # ------------------------------------------------------------ races

    def check_setup(self, race: RandomRace) -> None:
        """Ask the engine to build the race's start state from its setup; compare it."""
        if race.setup is None or "state" not in self.caps.compare:
            return
        engine = self.session.get()
        reply = engine.request({"op": "setup", "setup": race.setup})
        reason = unsupported(reply)
        if reason is not None:
            self.outcome.setups["skip"] += 1
            self.outcome.skips[f"setup: {reason}"] += 1
            return
        got, want = _reply_view(reply, "setup", self.caps.compare), {"state": race.start}
        why = _differs("setup", want, got, normal=self.normal)
        if why is None:
            self.outcome.setups["pass"] += 1
            return
        self.outcome.setups["fail"] += 1
        self.divergence(f"race {race.seed} ({race.label}), setup", "race", "setup",
                        race.setup, None, [], want, got, why, race=str(race.seed))

    def run_race(self, race: RandomRace) -> None:
        """Lock-step over the race, resyncing after each divergence."""
        if self.session.gave_up is not None:
            self.outcome.races_skipped += 1
            self.outcome.skips[f"race: engine given up ({self.session.gave_up})"] += 1
            return
        compare = self.caps.compare
        plan: list[tuple[int, str, str | None, JSON]] = []
        for index, step in enumerate(race.steps):
            if step.legal and "legal" in compare:
                plan.append((index, "legal", None, {"actions": sorted(step.legal)}))
            plan.append((index, "apply", step.action, _want_view(
                {"state": step.after, "events": step.events}, "apply", compare)))
        before = len(self.outcome.divergences)
        failures = 0
        position = 0  # index into plan of the next reply to check
        load: JSON = race.start
        try:
            self.check_setup(race)
        except EngineFailure as error:
            self._failure(f"race {race.seed} setup", error)
            failures += 1
        while position < len(plan) and failures < RACE_FAILURES:
            try:
                position = self._lockstep(race, plan, position, load)
            except EngineFailure as error:
                failures += 1
                position = min(self._at, len(plan) - 1)
                self._failure(f"race {race.seed}, step {plan[position][0]}", error)
                position = _next_step(plan, position)
            if position < len(plan):
                load = race.steps[plan[position][0]].before
        self.outcome.steps += len(race.steps)
        if failures >= RACE_FAILURES:
            self.outcome.races_failed += 1
            self.outcome.skips["race: rest of a race after repeated engine failures"] += 1
        elif len(self.outcome.divergences) > before or failures:
            self.outcome.races_failed += 1
        else:
            self.outcome.races_passed += 1

    def _lockstep(self, race: RandomRace, plan: list[tuple[int, str, str | None, JSON]],
                  position: int, state: JSON) -> int:
        """Load ``state`` and check ``plan`` from ``position``, pipelined; returns the plan
        position to go on from (after a divergence: the next step, to be resynced) or
        ``len(plan)`` when the race is done."""
        self._at = position
        engine = self.session.get()
        loaded = engine.request({"op": "load", "state": state})
        if not loaded.get("ok"):
            index = plan[position][0]
            reason = unsupported(loaded)
            if reason is not None:  # declined: try again from the next step
                self.outcome.skips[f"load: {reason}"] += 1
                return _next_step(plan, position)
            else:
                self.divergence(f"race {race.seed} ({race.label}), step {index}", "race",
                                "load", state, None, [], {"ok": True},
                                {"error": loaded.get("error")},
                                "the engine refused a state of the race", race=str(race.seed),
                                step=index)
            return len(plan)
        sent = position
        window = WINDOW if position == 0 else 4
        compare = self.caps.compare
        for at in range(position, len(plan)):
            while sent < len(plan) and sent - at < window:
                _, c, a, _ = plan[sent]
                engine.send({"op": "legal"} if c == "legal" else {"op": "apply", "action": a})
                sent += 1
            index, check, action, want = plan[at]
            self._at = at
            reply = engine.receive(check)
            window = min(WINDOW, window * 2)
            reason = unsupported(reply)
            why = None if reason else _differs(check, want, _reply_view(reply, check, compare),
                                               normal=self.normal)
            if reason is None and why is None:
                continue
            for pending in range(at + 1, sent):  # the replies already asked for
                engine.receive(plan[pending][1])
            if reason is not None:
                self.outcome.skips[f"{check}: {reason}"] += 1
            else:
                self._race_divergence(race, index, check, want,
                                      _reply_view(reply, check, compare), str(why))
            return _next_step(plan, at)
        return len(plan)

    def _race_divergence(self, race: RandomRace, index: int, check: str, want: JSON,
                         got: JSON, why: str) -> None:
        step = race.steps[index]
        action = step.action if check == "apply" else None
        where = f"race {race.seed} ({race.label}), step {index}"
        div = self.divergence(where, "race", check, step.before, action,
                              [action] if action else [], want, got, why,
                              race=str(race.seed), step=index)
        if div.cause in self.seen:
            div.shrunk = False
            return
        self.seen.add(div.cause)
        compare = self.caps.compare

        def reproduces(start: int) -> bool:
            try:
                engine = self.session.get()
                if not engine.request({"op": "load", "state": race.steps[start].before}
                                      ).get("ok"):
                    return False
                for k in range(start, index):
                    engine.request({"op": "apply", "action": race.steps[k].action})
                request = {"op": "legal"} if check == "legal" else \
                    {"op": "apply", "action": step.action}
                return _differs(check, want, _reply_view(engine.request(request), check,
                                                         compare), normal=self.normal) is not None
            except EngineFailure as error:
                self._failure(f"{where} (shrinking)", error)
                return False

        start = shortest_suffix(index, reproduces)
        first = index if start is None else start
        div.state = race.steps[first].before
        div.actions = [s.action for s in race.steps[first:index]] + ([action] if action else [])
        if start is None:
            div.reason += " (did not reproduce from a loaded state)"
            div.shrunk = False


def _next_step(plan: list[tuple[int, str, str | None, JSON]], position: int) -> int:
    """The plan position of the first check of the step after ``plan[position]``'s."""
    index = plan[position][0]
    while position < len(plan) and plan[position][0] == index:
        position += 1
    return position


def start_engine(session: Session) -> None:
    """Start the engine once; raise CannotStart with a one-line reason if it cannot."""
    try:
        session.get()
    except EngineFailure as error:
        excerpt = session.engine.stderr_excerpt(0, 1) if session.engine else ""
        session.close()
        last = f" (stderr: {excerpt.strip()[:200]})" if excerpt.strip() else ""
        raise CannotStart(f"{error.detail}{last}") from None


def run(binding: Binding, argv: list[str], races: int, fixtures: Path | None,
        timeout: float = 10.0, seed_base: int = RACE_SEED_BASE,
        progress: Progress | None = None, workers: int = 1,
        memory_mb: int | None = None, scheduler: str | None = None) -> Outcome:
    """Run the whole check of the engine started by ``argv``; raise CannotStart when the
    engine cannot even start.

    The corpus runs first, in this process. With ``workers`` > 1 the races then run in up to
    ``workers`` pool processes (or, with ``scheduler``, Dask workers: see
    :mod:`heatcore.framework.cluster`), each on a contiguous run of seeds with its own engine
    subprocess, and their results are merged in seed order."""
    if workers < 1:
        raise ValueError(f"workers must be at least 1, got {workers}")
    outcome = Outcome()
    began = time.perf_counter()
    asked = _chosen_rulings(binding)
    session = Session(argv, timeout, ruleset_of(binding), memory_mb, asked)
    start_engine(session)
    outcome.implementation = session.hello.get("implementation", {})
    outcome.capabilities = session.caps
    outcome.protocol = session.protocol
    try:
        refused = _declared_otherwise(asked, session.caps)
        if refused is not None:
            raise CannotStart(refused)
        racing, unplayable = race_binding(binding, session.caps)
        use_modules = getattr(racing, "use_modules", None)
        if use_modules is not None:  # the random races play the modules the engine declares
            use_modules(session.caps.modules)
        outcome.race_rulings = session.caps.alternatives() if unplayable is None else {}
        runner = Runner(binding, session, outcome)
        if fixtures is not None:
            cases = load_cases(fixtures)
            for number, case in enumerate(cases, 1):
                runner.run_case(case)
                if progress and (number % 25 == 0 or number == len(cases)):
                    progress("cases", number, len(cases), len(outcome.divergences))
        if unplayable is not None and races > 0:
            outcome.races_skipped += races
            outcome.skips[f"races: {unplayable}"] += races
            races = 0
        runner.binding = racing
        if workers == 1 and scheduler is None:
            for i in range(races):
                runner.run_race(racing.random_race(seed_base + i))
                if progress:
                    progress("races", i + 1, races, len(outcome.divergences))
    finally:
        session.close()
    if (workers > 1 or scheduler is not None) and races > 0:
        chunks = _seed_chunks(seed_base, races, workers)
        done = 0
        for part in _race_parts(racing, argv, timeout, chunks, memory_mb, asked, scheduler,
                                workers):
            outcome.add_races(part)
            done += part.races_passed + part.races_failed + part.races_skipped
            if progress:
                progress("races", done, races, len(outcome.divergences))
    outcome.seconds = time.perf_counter() - began
    return outcome


def race_binding(binding: Binding, caps: Capabilities) -> tuple[Binding, str | None]:
    """The reference playing the random races under the rulings the engine declares (its
    ``start`` reply), and None; or ``binding`` and why it cannot play them (those races are
    then skipped with that reason)."""
    other = caps.alternatives()
    if not other:
        return binding, None
    shown = ", ".join(f"{r}={o}" for r, o in other.items())
    under = getattr(binding, "under_rulings", None)
    if under is None:
        return binding, f"the reference cannot play races under {shown}"
    try:
        racing: Binding = under(other)
    except Rejected as why:
        return binding, f"the reference cannot play races under {shown}: {why.message}"
    return racing, None


def _declared_otherwise(asked: JSON, caps: Capabilities) -> str | None:
    """Why the engine's declaration contradicts the alternatives ``--ruling`` asked it to
    play in ``start`` (None: it declares each of them)."""
    other = {r: a for r, a in (asked or {}).items() if caps.rulings.get(r) != a}
    if not other:
        return None
    shown = ", ".join(f"{r}={a} (declared: {caps.rulings.get(r, 'nothing')})"
                      for r, a in other.items())
    return f"asked to play {shown}, the engine's start reply declares otherwise"


def _chosen_rulings(binding: Binding) -> JSON:
    """The ruling alternatives the binding's random races play (sent with ``start``), or
    None when it plays the defaults or has no such notion."""
    chosen = getattr(binding, "chosen_rulings", None)
    return chosen() if chosen is not None else None


def _seed_chunks(seed_base: int, races: int, workers: int) -> list[range]:
    """The seeds ``seed_base .. seed_base+races-1`` (``races`` >= 1) cut into
    ``min(workers, races)`` contiguous runs of near-equal length, in order."""
    count = min(workers, races)
    bounds = [seed_base + races * k // count for k in range(count + 1)]
    return [range(first, last) for first, last in pairwise(bounds)]


def _race_parts(binding: Binding, argv: list[str], timeout: float,
                chunks: list[range], memory_mb: int | None, asked: JSON,
                scheduler: str | None = None, workers: int = 1) -> list[Outcome]:
    """The outcomes of the races of each chunk, one pool process per chunk (or one Dask
    task per chunk), in chunk order."""
    if scheduler is not None:
        from heatcore.framework.cluster import Backend

        jobs = [(binding, argv, timeout, chunk, memory_mb, asked) for chunk in chunks]
        return Backend(workers, scheduler).map(_race_chunk_job, jobs)
    with ProcessPoolExecutor(max_workers=len(chunks)) as pool:
        futures = [pool.submit(_race_chunk, binding, argv, timeout, chunk, memory_mb, asked)
                   for chunk in chunks]
        return [future.result() for future in futures]


def _race_chunk_job(job: tuple[Binding, list[str], float, range, int | None, JSON],
                    ) -> Outcome:
    """:func:`_race_chunk` of one packed job (a Dask task)."""
    return _race_chunk(*job)


def _race_chunk(binding: Binding, argv: list[str], timeout: float, seeds: range,
                memory_mb: int | None, asked: JSON) -> Outcome:
    """Run the races of ``seeds`` through a new engine subprocess (a pool job); ``asked``:
    the alternatives the ``start`` request carries (``--ruling``)."""
    outcome = Outcome()
    session = Session(argv, timeout, ruleset_of(binding), memory_mb, asked)
    try:
        runner = Runner(binding, session, outcome)
        for seed in seeds:
            runner.run_race(binding.random_race(seed))
    finally:
        session.close()
    return outcome


def _report_folder(folder: Path) -> str | None:
    """Why reports cannot be written into ``folder`` (None: they can)."""
    probe = folder
    while not probe.exists():
        probe = probe.parent
    if not probe.is_dir():
        return f"{probe} is not a folder"
    import os

    if not os.access(probe, os.W_OK | os.X_OK):
        return f"{probe} is not writable"
    for name in ("report.json", "report.md"):
        if (folder / name).is_dir():
            return f"{folder / name} is a folder"
    return None


def _terminal_progress(phase: str, done: int, total: int, divergences: int) -> None:
    sys.stderr.write(f"\r  {phase}: {done}/{total}, {divergences} divergence(s)   ")
    if done == total:
        sys.stderr.write("\n")
    sys.stderr.flush()


def perft_main(binding: Binding, command: list[str], args: Namespace) -> int:
    """``conform --perft``: the engine's counts of the reference entries, divided on a
    mismatch; exit 0 when every entry agrees, 1 when one differs, 2 on bad input."""
    from heatcore.framework.conformance.perft import check_entry, result_lines

    perft_entries = getattr(binding, "perft_entries", None)
    if perft_entries is None:
        print(f"heatcore conform: no perft counts for ruleset {args.ruleset!r}",
              file=sys.stderr)
        return 2
    try:
        entries = perft_entries()
    except CommandError as error:
        print(f"heatcore conform: {error}", file=sys.stderr)
        return 2
    if args.perft_only:
        wanted = {w.strip() for w in args.perft_only.split(",") if w.strip()}
        entries = [e for e in entries if f"{e['track']}:{e['players']}" in wanted]
        if not entries:
            print(f"heatcore conform: --perft-only {args.perft_only!r} names no entry "
                  "(entries are TRACK:CARS, e.g. usa:2)", file=sys.stderr)
            return 2
    too_deep = [e for e in entries if len(e["counts"]) <= args.perft_depth]
    if too_deep:
        print(f"heatcore conform: --perft-depth {args.perft_depth} is deeper than the "
              f"reference counts of {too_deep[0]['track']}:{too_deep[0]['players']}",
              file=sys.stderr)
        return 2
    session = Session(command, args.timeout, ruleset_of(binding), args.memory_mb)
    try:
        start_engine(session)
    except CannotStart as error:
        print(f"heatcore conform: the engine did not start: {error}", file=sys.stderr)
        return 2
    results = []
    try:
        for entry in entries:
            results.append(check_entry(binding, binding, session.get(),  # type: ignore[arg-type]
                                       entry, args.perft_depth))
    finally:
        session.close()
    for line in result_lines(results):
        print(line)
    return 0 if all(r.ok for r in results) else 1


def main(argv: list[str]) -> int:
    """Entry point of ``heatcore conform``."""
    from heatcore.framework.conformance.reports import report_json, report_markdown, summary_lines
    from heatcore.framework.files import write_atomic

    parser = Parser("heatcore conform", description="Check another engine against heatcore.")
    parser.add_argument("--impl", required=True, help='the engine\'s command, e.g. "mybin --x"')
    parser.add_argument("--races", type=nonnegative, default=200, help="seeded random races")
    parser.add_argument("--report", type=Path, default=None,
                        help="write report.json and report.md into this folder (checked "
                             "before the run)")
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds per message")
    parser.add_argument("--fixtures", type=Path, default=None,
                        help="corpus folder (default: the ruleset's spec/.../fixtures)")
    parser.add_argument("--no-fixtures", action="store_true", help="run the races only")
    parser.add_argument("--seed", type=seed, default=RACE_SEED_BASE, help="first race seed")
    parser.add_argument("--ruleset", default=DEFAULT_GAME, choices=sorted(BINDINGS),
                        help="the ruleset to check")
    parser.add_argument("--workers", type=positive, default=1,
                        help="processes for the races, each with its own engine (1); with "
                             "--scheduler local, the workers of a Dask LocalCluster")
    parser.add_argument("--scheduler", default=None, metavar="ADDRESS",
                        help="run the races on the Dask cluster at ADDRESS (tcp://host:8786; "
                             "its workers need heatcore and the engine; --workers W cuts the "
                             "races into W parts), or 'local'")
    parser.add_argument("--memory-mb", type=positive, default=None,
                        help="cap the engine's address space (MiB); none by default")
    parser.add_argument("--progress", choices=("auto", "on", "off"), default="auto",
                        help="progress on stderr (auto: when stderr is a terminal)")
    parser.add_argument("--ruling", action="append", default=[], metavar="ID=ALTERNATIVE",
                        help="play the random races under this alternative of a switchable "
                             "ruling (spec/rulings.toml); repeat for several")
    parser.add_argument("--perft", action="store_true",
                        help="check the engine's perft counts (spec/perft.md) instead of the "
                             "corpus and races; a mismatch is divided down to its first "
                             "differing action sequence")
    parser.add_argument("--perft-depth", type=positive, default=None, metavar="D",
                        help="with --perft: the depth to count (default: 2)")
    parser.add_argument("--perft-only", default=None, metavar="TRACK:CARS[,...]",
                        help="with --perft: only these reference entries (e.g. usa:2)")
    args = parser.parse_args(argv)
    for option, given in (("--perft-depth", args.perft_depth is not None),
                          ("--perft-only", args.perft_only is not None)):
        if given and not args.perft:
            print(f"heatcore conform: {option} applies to perft counts: add --perft",
                  file=sys.stderr)
            return 2
    if args.perft_depth is None:
        args.perft_depth = 2
    binding = load_binding(args.ruleset)
    if args.ruling:  # --ruling: the random races play these alternatives
        try:
            binding = with_ruling_options(binding, args.ruling)
        except RulesError as error:
            print(f"heatcore conform: --ruling: {error.detail}", file=sys.stderr)  # no rule ID
            return 2
        except ValueError as error:
            print(f"heatcore conform: --ruling: {error}", file=sys.stderr)
            return 2
    try:
        command = shlex.split(args.impl)
    except ValueError as error:
        print(f"heatcore conform: cannot read --impl: {error}", file=sys.stderr)
        return 2
    if not command:
        print("heatcore conform: --impl is empty", file=sys.stderr)
        return 2
    if args.report is not None:
        problem = _report_folder(args.report)
        if problem is not None:
            print(f"heatcore conform: cannot write --report: {problem}", file=sys.stderr)
            return 2
    if command[0] == "heatcore" and shutil.which("heatcore") is None:
        command = [sys.executable, "-m", "heatcore", *command[1:]]
    if args.perft:
        if _chosen_rulings(binding):
            print("heatcore conform: --perft counts are for the default rulings; drop "
                  "--ruling", file=sys.stderr)
            return 2
        return perft_main(binding, command, args)
    fixtures = None if args.no_fixtures else (args.fixtures or default_fixtures(args.ruleset))
    if fixtures is not None and fixtures.is_dir() and not any(fixtures.glob("*.json")):
        print(f"heatcore conform: no fixture files (*.json) in {fixtures} (--no-fixtures "
              "runs the races only)", file=sys.stderr)
        return 2
    show = args.progress == "on" or (args.progress == "auto" and sys.stderr.isatty())
    try:
        outcome = run(binding, command, args.races, fixtures, args.timeout, args.seed,
                      progress=_terminal_progress if show else None, workers=args.workers,
                      memory_mb=args.memory_mb, scheduler=args.scheduler)
    except CannotStart as error:
        print(f"heatcore conform: the engine did not start: {error}", file=sys.stderr)
        return 2
    except BackendError as error:
        print(f"heatcore conform: {error}", file=sys.stderr)
        return 2
    report = report_json(outcome, binding, args.impl)
    if args.report is not None:
        import json

        args.report.mkdir(parents=True, exist_ok=True)
        write_atomic(args.report / "report.json", json.dumps(report, indent=1) + "\n")
        write_atomic(args.report / "report.md", report_markdown(report, args.impl))
    for line in summary_lines(report, args.impl, args.workers):
        print(line)
    if args.report is not None:
        print(f"  report: {args.report / 'report.md'}")
    return 0 if report["ok"] else 1

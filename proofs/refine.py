"""Refinement: the engine's completed turns, checked against the Z3 model of a turn.

For each turn recorded from a real race (``proofs.turns``) the encoded turn is pinned to
the engine's state before the turn, its choices and its chance outcomes (the cards each
flip turned over, the cards drawn, every shuffle), and three questions are asked:

(a) admits: every constraint of the model holds and the model's outcome (position, spot,
    gear, engine, hand, deck, discard, Stress taken, Heat paid for shift, boost and
    corners, speed, spin, adrenaline, cluttered, each reshuffle) is the engine's;
(b) unique: the model leaves nothing open once those inputs are pinned (every symbol of
    the encoding is pinned, so the outcome is a function of them; ``confirm_unique`` also
    asks the solver for a second outcome);
(c) legal choices: at each decision (plan, each react choice, slipstream, discard) the
    choices the model allows are exactly the engine's ``legal_actions``. The model's
    allowed choices are those its constraints on that decision accept, given everything
    decided before; that each has a completion is the ``totality`` proof.

The model is compiled and pinned by ``proofs.pinning`` and evaluated on concrete values
by ``proofs.z3eval`` (exact, and a hundred times faster than asking the solver). A
disagreement names the turn, the field or decision, and the rule IDs. The model never
reads the engine's rules: only the refinement modules (``turns``, ``pinning``, this one)
and the miner's replay import the engine, to drive races and read their records.
"""

from __future__ import annotations

import itertools
import sys
import time
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

import z3

from heatcore.framework.errors import RulesError
from heatcore.heat.actions import (
    Action,
    AdrenalineCooldown,
    AdrenalineMove,
    Boost,
    Cooldown,
    DeclineSlipstream,
    Discard,
    EndReact,
    Plan,
    Slipstream,
)
from heatcore.heat.cards import canonical
from heatcore.heat.engine import check_action
from heatcore.heat.rulings import DEFAULT_RULINGS, Rulings
from heatcore.heat.state import RaceState
from proofs.pinning import (
    REACT_AFTER_BOOST,
    Chance,
    Flip,
    Model,
    Step,
    card_counts,
    model,
    model_outputs,
    pin_draws,
    pins,
    react_tuple,
    read_chance,
)
from proofs.symbols import HEAT, KINDS
from proofs.track_graph import TrackFacts
from proofs.turns import TRACKS, TurnRecord, features, sample_races
from proofs.z3eval import Value

#: Rules that carry each compared field (for naming a disagreement).
FIELD_RULES: dict[str, tuple[str, ...]] = {
    "position": ("move.exact", "place.racing-line-first", "place.blocked", "corner.spin"),
    "racing_line": ("place.racing-line-first", "place.blocked"),
    "gear": ("gear.range", "corner.spin", "play.cluttered"),
    "engine": ("corner.pay-heat", "react.cooldown", "react.boost",
               "gear.shift.two-costs-heat"),
    "hand": ("replenish.draw", "discard.optional", "corner.spin", "react.cooldown"),
    "deck": ("reveal.stress-flip", "deck.reshuffle", "replenish.draw"),
    "discard": ("reveal.stress-flip", "deck.reshuffle", "replenish.cleanup"),
    "corner_heat": ("corner.check", "corner.pay-heat"),
    "shift_heat": ("gear.shift.two-costs-heat",),
    "boost_heat": ("react.boost",),
    "spun": ("corner.spin",),
    "stress_taken": ("corner.spin", "ruling.stress-supply"),
    "reveal_speed": ("reveal.speed", "reveal.stress-flip"),
    "speed": ("speed.turn-total",),
    "adrenaline": ("adrenaline.who", "adrenaline.count-fixed"),
    "cluttered": ("play.cluttered-only-when-forced",),
    "finished": ("finish.line",),
    "flip_found": ("reveal.stress-flip", "ruling.flip-no-basic"),
    "flip_reshuffled": ("deck.reshuffle",),
    "replenish_reshuffled": ("deck.reshuffle", "replenish.draw"),
    "supply": ("corner.spin", "ruling.stress-supply"),
}
DECISION_RULES: dict[str, tuple[str, ...]] = {
    "plan": ("gear.range", "gear.shift.free", "gear.shift.two-costs-heat",
             "gear.shift.no-three", "play.card-count", "play.playable-cards",
             "play.heat-not-playable", "play.cluttered", "play.cluttered-only-when-forced",
             "ruling.cluttered-gear"),
    "react": ("react.any-order", "react.cooldown", "react.boost", "adrenaline.effects",
              "adrenaline.who"),
    "slipstream": ("slipstream.eligible", "slipstream.not-past-finish"),
    "discard": ("discard.optional",),
}


@dataclass(frozen=True)
class Disagreement:
    """Where the model and the engine part: the turn, what differs, the rules involved."""

    turn: str
    what: str
    rules: tuple[str, ...]
    detail: str

    def __str__(self) -> str:
        return f"{self.turn}: {self.what} [{', '.join(self.rules)}]: {self.detail}"


def _engine_outcome(rec: TurnRecord, chance: Chance, facts: TrackFacts,
                    stress_flips: int) -> dict[str, Value]:
    post = rec.post
    assert post is not None
    out: dict[str, Value] = {
        "position": post.position, "racing_line": post.racing_line, "gear": post.gear,
        "engine": post.engine, "corner_heat": chance.corner_heat,
        "shift_heat": chance.shift_heat, "boost_heat": chance.boost_heat,
        "spun": chance.spun, "stress_taken": chance.stress_taken,
        "adrenaline": chance.adrenaline, "cluttered": chance.cluttered,
        "finished": post.position > facts.finish,
        "replenish_reshuffled": chance.replenish_reshuffled,
        "supply": rec.supply - chance.stress_taken,
    }
    if chance.reveal_speed is not None:
        out["reveal_speed"] = chance.reveal_speed
    if chance.speed is not None:
        out["speed"] = chance.speed
    for zone, cards in (("hand", post.hand), ("deck", post.deck), ("discard", post.discard)):
        for k, n in card_counts(cards).items():
            out[f"{zone}.{k}"] = n
    flips: dict[int, Flip | None] = dict(enumerate(chance.stress_flips[:stress_flips]))
    flips[stress_flips] = chance.boost_flip
    for i, f in flips.items():
        if f is not None:
            out[f"flip{i}.found"] = f.found is not None
            out[f"flip{i}.reshuffled"] = f.reshuffled
    return out


def check_outcome(m: Model, rec: TurnRecord, chance: Chance,
                  env: dict[str, Value]) -> list[Disagreement]:
    """(a): the model, pinned, accepts the turn and yields the engine's outcome."""
    values = m.full.run(env)
    out = []
    failed = sorted({r for r, v in zip(m.rules, values, strict=False) if v is False})
    if failed:
        out.append(Disagreement(rec.label, "admits", tuple(failed),
                                "the model has no transition for the engine's turn"))
    engine = _engine_outcome(rec, chance, m.facts, len(m.turn.flips) - 1)
    diffs: dict[str, tuple[dict[str, Value], dict[str, Value]]] = {}
    for key, want in engine.items():
        got = values[m.outputs[key]]
        if got != want:
            group = key.split(".")[0]
            group = "flip_found" if key.endswith(".found") else group
            group = "flip_reshuffled" if key.endswith(".reshuffled") and "flip" in key else group
            mine, theirs = diffs.setdefault(group, ({}, {}))
            mine[key], theirs[key] = got, want
    for group, (mine, theirs) in diffs.items():
        out.append(Disagreement(rec.label, group, FIELD_RULES.get(group, ("round.sequence",)),
                                f"model {mine}, engine {theirs}"))
    return out


def _refusal_rule(state: RaceState, action: Action) -> str:
    """The rule the engine names when it refuses ``action`` ("" if it accepts it)."""
    try:
        check_action(state, action)
    except RulesError as error:
        return error.rule
    return ""


def _allowed(step: Step, env: dict[str, Value]) -> tuple[bool, tuple[str, ...]]:
    values = step.compiled.run(env)
    failed = tuple(sorted({r for r, v in zip(step.rules, values, strict=True) if v is False}))
    return not failed, failed


def _sub_multisets(cards: tuple[str, ...], size: int | None = None) -> list[tuple[str, ...]]:
    sizes = range(len(cards) + 1) if size is None else [size]
    return list(dict.fromkeys(c for n in sizes for c in itertools.combinations(cards, n)))


def _compare(rec: TurnRecord, kind: str, engine: set[Action], model_ok: dict[Action, tuple[
        bool, tuple[str, ...]]], state: RaceState | None) -> list[Disagreement]:
    out = []
    for action, (ok, failed) in model_ok.items():
        if ok and action not in engine:
            rules = (_refusal_rule(state, action),) if state is not None else ()
            out.append(Disagreement(rec.label, f"{kind} choices",
                                    tuple(r for r in rules if r) or DECISION_RULES[kind],
                                    f"the model allows '{action}', the engine does not"))
        elif not ok and action in engine:
            out.append(Disagreement(rec.label, f"{kind} choices", failed or
                                    DECISION_RULES[kind],
                                    f"the engine allows '{action}', the model does not"))
    return out


def check_choices(m: Model, rec: TurnRecord, env: dict[str, Value]) -> list[Disagreement]:
    """(c): at each decision the model's allowed choices are the engine's legal actions."""
    n, c = m.sym, rec.car
    out: list[Disagreement] = []
    work = dict(env)
    # steps 1-2: the plan
    plan = rec.decisions[0]
    ok: dict[Action, tuple[bool, tuple[str, ...]]] = {}
    for gear in range(1, 5):
        for cards in _sub_multisets(rec.pre.hand, gear):
            counts = card_counts(cards)
            work[n["gear"]] = gear
            for k in KINDS:
                work[n[f"played.{k}"]] = counts[k]
            ok[Plan(c, gear, canonical(cards))] = _allowed(m.steps["plan"], work)
    out += _compare(rec, "plan", set(plan.legal), ok, plan.state)
    work = dict(env)
    # step 5: each react decision, and the implicit last one if the engine passed it
    points = [d for d in rec.decisions if d.kind == "react"]
    history: list[Action] = []
    hand_heat = rec.pre.hand.count(HEAT)
    sequence: list[tuple[tuple[Action, ...], Action, RaceState | None]] = [
        (d.legal, d.chosen, d.state) for d in points]
    if not points or not isinstance(points[-1].chosen, EndReact):
        sequence.append(((EndReact(c),), EndReact(c), None))
    for legal, chosen, state in sequence:
        kinds = {type(a) for a in history}
        candidates: list[Action] = [EndReact(c)]
        if Cooldown not in kinds:
            candidates += [Cooldown(c, n) for n in range(1, hand_heat + 1)]
        candidates += [cls(c) for cls in (AdrenalineCooldown, AdrenalineMove, Boost)
                       if cls not in kinds]
        ok = {}
        step = m.steps[REACT_AFTER_BOOST if Boost in kinds else "react"]
        for action in candidates:
            tup = react_tuple(history + ([] if isinstance(action, EndReact) else [action]))
            work.update({n[key]: v for key, v in tup.items()})
            ok[action] = _allowed(step, work)
        out += _compare(rec, "react", set(legal), ok, state)
        history.append(chosen)
    work = dict(env)
    # step 6: slipstream
    slip = [d for d in rec.decisions if d.kind == "slipstream"]
    work[n["slip"]] = True
    offered: set[Action] = ({Slipstream(c), DeclineSlipstream(c)} if slip
                            else {DeclineSlipstream(c)})
    ok = {Slipstream(c): _allowed(m.steps["slipstream"], work)}
    out += _compare(rec, "slipstream", offered, ok, slip[0].state if slip else None)
    work = dict(env)
    # step 8: discard
    disc = [d for d in rec.decisions if d.kind == "discard"]
    hand = disc[0].state.cars[c].hand if disc else ()
    allowed: set[Action] = set(disc[0].legal) if disc else {Discard(c, ())}
    ok = {}
    for cards in _sub_multisets(hand):
        counts = card_counts(cards)
        for k in KINDS:
            work[n[f"discard.{k}"]] = counts[k]
        ok[Discard(c, canonical(cards))] = _allowed(m.steps["discard"], work)
    if not disc:  # the engine passed step 8: nothing but "discard nothing" is possible
        for k in KINDS:
            work[n[f"discard.{k}"]] = 0
        ok[Discard(c, ())] = _allowed(m.steps["discard"], work)
        out += _no_discard_in_model(m, rec, env)
    out += _compare(rec, "discard", allowed, ok, disc[0].state if disc else None)
    return out


def _no_discard_in_model(m: Model, rec: TurnRecord, env: dict[str, Value]) -> list[
        Disagreement]:
    """When the engine skipped step 8, no card of the model's hand may be discardable."""
    out = []
    for k in KINDS:
        work = dict(env)
        for j in KINDS:
            work[m.sym[f"discard.{j}"]] = 1 if j == k else 0
        if _allowed(m.steps["discard"], work)[0]:
            out.append(Disagreement(rec.label, "discard choices", DECISION_RULES["discard"],
                                    f"the model allows discarding a {k}; the engine "
                                    "offered no discard"))
    return out


def check_turn(rec: TurnRecord, bugs: frozenset[str] = frozenset()) -> list[Disagreement]:
    """Every disagreement between the model and the engine on one recorded turn."""
    m = model(rec.track, rec.laps, bugs, rec.rulings)
    chance = read_chance(rec)
    env = pins(m, rec, chance)
    missing = sorted(m.full.needs - env.keys())
    if missing:
        return [Disagreement(rec.label, "unique", ("round.sequence",),
                             f"the model leaves {', '.join(missing)} open: the engine's "
                             "choices and chance outcomes do not fix its outcome")]
    pin_draws(m, env, rec, chance)
    return check_outcome(m, rec, chance, env) + check_choices(m, rec, env)


@dataclass
class Report:
    """The result of a refinement run."""

    turns: int = 0
    decisions: int = 0
    disagreements: list[Disagreement] = field(default_factory=list)
    coverage: Counter[str] = field(default_factory=Counter)
    configs: set[tuple[str, int, int]] = field(default_factory=set)
    seconds: float = 0.0
    races: Counter[str] = field(default_factory=Counter)  # races, states, unfinished

    def merge(self, other: Report) -> None:
        """Add another report's counts."""
        self.turns += other.turns
        self.decisions += other.decisions
        self.disagreements += other.disagreements
        self.coverage.update(other.coverage)
        self.configs |= other.configs
        self.seconds += other.seconds
        self.races.update(other.races)


def refine(turns: int, seeds: Iterable[int] = itertools.count(),
           bugs: frozenset[str] = frozenset(), stop_at: int | None = None,
           rulings: Rulings = DEFAULT_RULINGS) -> Report:
    """Check ``turns`` completed turns sampled from the races ``seeds``
    (``turns.sample_races``), played and modelled under ``rulings``; stop early after
    ``stop_at`` disagreements."""
    start = time.perf_counter()
    report = Report()
    for rec in sample_races(turns, seeds, stats=report.races, rulings=rulings):
        report.turns += 1
        report.decisions += len(rec.decisions)
        report.coverage.update(features(rec))
        report.configs.add((rec.track, rec.starters, rec.laps))
        report.disagreements += check_turn(rec, bugs)
        if stop_at is not None and len(report.disagreements) >= stop_at:
            break
    report.seconds = time.perf_counter() - start
    return report


#: Rule IDs whose encoding the refinement check ties to the engine.
REFINED_RULES: tuple[str, ...] = ("round.sequence", "speed.turn-total", "deck.reshuffle",
                                  "slipstream.eligible", "react.boost", "react.cooldown",
                                  "corner.spin", "play.cluttered")


def part_seeds(part: int, parts: int) -> Iterator[int]:
    """The race seeds of one of ``parts`` workers: split by track, so each worker compiles
    the models of its own tracks only; every car and lap count still comes round."""
    tracks = len(TRACKS)
    return (s for s in itertools.count() if (s % tracks) * parts // tracks == part)


def refine_part(turns: int, part: int, parts: int,
                bugs: frozenset[str] = frozenset()) -> Report:
    """One worker's share of a refinement run."""
    return refine(turns, part_seeds(part, parts), bugs)


def describe(report: Report) -> list[str]:
    """The report as lines: totals, coverage, and each disagreement."""
    tracks = sorted({c[0] for c in report.configs})
    cars = sorted({c[1] for c in report.configs})
    laps = sorted({c[2] for c in report.configs})
    lines = [f"refinement: {report.turns} turns, {report.decisions} decisions, "
             f"{len(report.disagreements)} disagreements",
             f"  tracks {', '.join(tracks)}; cars {', '.join(map(str, cars))}; "
             f"laps {', '.join(map(str, laps))}",
             "  turns showing: " + ", ".join(f"{k} {n}" for k, n in
                                              sorted(report.coverage.items())),
             f"  engine states: {report.races['states']} in {report.races['races']} races, "
             f"{report.races['unfinished']} races unfinished (no state without a legal "
             "action)"]
    lines += [f"  DISAGREES {d}" for d in report.disagreements[:50]]
    return lines


def refine_job(job: tuple[int, int, int]) -> Report:
    """:func:`refine_part` of one packed job (a Dask task)."""
    return refine_part(*job)


def refine_reports(turns: int, jobs: int, scheduler: str) -> Report:
    """The refinement of ``turns`` turns cut into the same parts as on a process pool,
    run on a Dask cluster (:mod:`heatcore.framework.cluster`) and merged in part order."""
    from heatcore.framework.cluster import Backend

    parts = max(1, min(jobs, len(TRACKS)))
    shares = [turns // parts + (1 if i < turns % parts else 0) for i in range(parts)]
    total = Report()
    for report in Backend(jobs, scheduler).map(
            refine_job, [(n, i, parts) for i, n in enumerate(shares)]):
        total.merge(report)
    return total


def refine_main(turns: int, jobs: int, scheduler: str | None = None) -> int:
    """``heatcore prove --refine N``: check N turns on ``jobs`` workers (a process pool, or
    a Dask cluster at ``scheduler``); print the report."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    parts = max(1, min(jobs, len(TRACKS)))
    shares = [turns // parts + (1 if i < turns % parts else 0) for i in range(parts)]
    total = Report()
    context = multiprocessing.get_context("fork")
    start = time.perf_counter()
    if scheduler is not None:
        total = refine_reports(turns, jobs, scheduler)
        print("\n".join(describe(total)))
        print(f"{time.perf_counter() - start:.1f}s wall")
        return 1 if total.disagreements or total.turns < turns or total.races["unfinished"] \
            else 0
    with ProcessPoolExecutor(max_workers=parts, mp_context=context) as pool:
        futures = [pool.submit(refine_part, n, i, parts) for i, n in enumerate(shares)]
        for i, fut in enumerate(futures):
            total.merge(fut.result())
            print(f"  ... worker {i + 1}/{parts} done ({total.turns} turns checked)",
                  file=sys.stderr, flush=True)
    print("\n".join(describe(total)))
    print(f"{time.perf_counter() - start:.1f}s wall")
    return 1 if total.disagreements or total.turns < turns or total.races["unfinished"] else 0


def confirm_unique(rec: TurnRecord, bugs: frozenset[str] = frozenset()) -> z3.CheckSatResult:
    """(b) by the solver: with the turn's inputs pinned, ask Z3 for any outcome other than
    the one the evaluation found. ``unsat`` confirms it is the only one."""
    m = model(rec.track, rec.laps, bugs, rec.rulings)
    chance = read_chance(rec)
    env = pins(m, rec, chance)
    pin_draws(m, env, rec, chance)
    values = m.full.run(env)
    t = m.turn
    solver = z3.Solver()
    solver.add(*t.formula())
    for name, value in env.items():
        sym = z3.Bool(name) if isinstance(value, bool) else z3.Int(name)
        solver.add(sym == value)
    outs = model_outputs(t)
    solver.add(z3.Or([term != values[m.outputs[key]] for key, term in outs.items()]))
    return solver.check()

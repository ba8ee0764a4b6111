"""Refinement: the engine's completed turns, checked against the Z3 model of a turn.

For each turn recorded from a real race (``proofs.turns``) the encoded turn is pinned to
the engine's state before the turn, its choices and its chance outcomes (the cards each
flip turned over, the cards drawn, every shuffle), and three questions are asked:

(a) admits: every constraint of the model holds and the model's outcome (position, spot,
    gear, engine, hand, deck, discard, Stress taken, Heat paid for shift, boost and
    corners, speed, spin, adrenaline, cluttered, each reshuffle) is the engine's;
(b) unique: the model leaves nothing open once those inputs are pinned (every symbol of
    the encoding is pinned, so the outcome is a function of them; ``--z3`` also asks the
    solver for a second outcome);
(c) legal choices: at each decision (plan, each react choice, slipstream, discard) the
    choices the model allows are exactly the engine's ``legal_actions``. The model's
    allowed choices are those its constraints on that decision accept, given everything
    decided before; that each has a completion is the ``totality`` proof.

The model is evaluated on concrete values by ``proofs.z3eval`` (exact, and a hundred
times faster than asking the solver). A disagreement names the turn, the field or
decision, and the rule IDs. The model never reads the engine's rules: only this module
and ``proofs.turns`` import the engine, to drive races and read their records.
"""

from __future__ import annotations

import itertools
import sys
import time
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import cache

import z3

from heatcore.actions import (
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
from heatcore.cards import canonical
from heatcore.engine import check_action
from heatcore.errors import RulesError
from heatcore.state import RaceState
from proofs.encoding import Turn, encode_turn
from proofs.stages import DECISIONS, staged, symbol_name
from proofs.symbols import BOX_STRESS, HEAT, KINDS, MAX_CARS, STRESS
from proofs.track_graph import TrackFacts, build_graph, derive_facts, load_track_data
from proofs.turns import TRACKS, TurnRecord, features, sample_races
from proofs.z3eval import Compiled, Dag, Value

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


@cache
def lap_facts(track: str, laps: int) -> TrackFacts:
    """The encoding's track facts for a race of ``laps`` laps (any of 1-3)."""
    data = dict(load_track_data(track))
    data["laps"] = laps
    return derive_facts(build_graph(data), 30)


@dataclass
class Step:
    """The model's constraints on one decision: those that read its variables and
    nothing decided after it."""

    compiled: Compiled
    rules: tuple[str, ...]


@dataclass
class Model:
    """The encoded turn of one track, lap count and set of bugs, compiled for evaluation."""

    turn: Turn
    facts: TrackFacts
    full: Compiled  # every constraint, then the outputs
    rules: tuple[str, ...]  # rule of each constraint
    outputs: dict[str, int]  # output name -> index in full's values
    steps: dict[str, Step]
    symbols: frozenset[str]
    sym: dict[str, str]  # what a symbol stands for -> its name (see ``symbol_names``)


def symbol_names(t: Turn) -> dict[str, str]:
    """The name of every input symbol of the turn, by what it stands for."""
    pre = t.stages["pre"]
    named: dict[str, z3.ExprRef] = {
        "pos": t.pre.spot.pos, "racing": t.pre.spot.racing, "gear0": t.pre.gear,
        "engine0": pre.engine, "supply0": pre.supply, "other_stress": t.other_stress,
        "starters": t.starters, "racing_cars": t.racing, "index": t.index, "gear": t.gear,
        "cool_gear": t.cool_gear, "adr_cool": t.adr_cool, "adr_move": t.adr_move,
        "adr_first": t.adr_first, "boost": t.boost, "slip": t.slip}
    for zone in ("hand", "deck", "discard", "play"):
        for k in KINDS:
            named[f"pre.{zone}.{k}"] = getattr(pre, zone)[k]
    for i, o in enumerate(t.others):
        named[f"other{i}.present"] = o.present
        named[f"other{i}.pos"], named[f"other{i}.racing"] = o.spot.pos, o.spot.racing
    for k in KINDS:
        named[f"played.{k}"], named[f"discard.{k}"] = t.played[k], t.discarded[k]
        named[f"draw1.{k}"], named[f"draw2.{k}"] = t.drawn.first[k], t.drawn.second[k]
    for i, f in enumerate(t.flips):
        named[f"flip{i}.pick"] = f.pick
        for k, v in f.skips.items():
            named[f"flip{i}.skip.{k}"] = v
    return {key: symbol_name(e) for key, e in named.items()}


def _outputs(t: Turn) -> dict[str, z3.ExprRef]:
    post = t.post.zones
    out: dict[str, z3.ExprRef] = {
        "position": t.post.spot.pos, "racing_line": t.post.spot.racing,
        "gear": t.post.gear, "engine": post.engine, "corner_heat": t.corners.paid,
        "shift_heat": t.shift_cost, "boost_heat": t.boost_cost, "spun": t.corners.spun,
        "stress_taken": t.corners.stress_taken, "reveal_speed": t.reveal_speed,
        "speed": t.speed, "adrenaline": t.adrenaline, "cluttered": t.cluttered,
        "finished": t.finished, "replenish_reshuffled": t.drawn.reshuffled,
        "supply": post.supply,
    }
    for k in KINDS:
        out[f"hand.{k}"] = post.hand[k]
        out[f"deck.{k}"] = post.deck[k]
        out[f"discard.{k}"] = post.discard[k]
        out[f"before_draw.deck.{k}"] = t.stages["discarded"].deck[k]
    for i, f in enumerate(t.flips):
        out[f"flip{i}.found"] = f.found
        out[f"flip{i}.reshuffled"] = f.reshuffled
    return out


@cache
def model(track: str, laps: int, bugs: frozenset[str] = frozenset()) -> Model:
    """The compiled model of a turn on ``track`` with ``laps`` laps and ``bugs`` on."""
    facts = lap_facts(track, laps)
    t = encode_turn(facts, bugs, prefix=f"refine.{track}.{laps}")
    outputs = _outputs(t)
    cons = t.enc.constraints
    terms = [e for _, e in cons] + list(outputs.values())
    dag = Dag(terms)
    full = dag.compile(terms)
    groups = staged(t, dag)
    steps = {}
    for g in DECISIONS:
        rules = tuple(r for r, _ in groups.constraints[g])
        steps[g] = Step(dag.compile([e for _, e in groups.constraints[g]]), rules)
    known = frozenset().union(*groups.names.values())
    return Model(t, facts, full, tuple(r for r, _ in cons),
                 {n: i + len(cons) for i, n in enumerate(outputs)}, steps, known,
                 symbol_names(t))


# ---- pinning the model to an engine turn ---------------------------------------------

def _counts(cards: Iterable[str]) -> dict[str, int]:
    c = Counter(cards)
    return {k: c.get(k, 0) for k in KINDS}


@dataclass
class Flip:
    """One flip as the engine did it."""

    found: str | None = None
    reshuffled: bool = False
    skips: list[str] = field(default_factory=list)  # cards turned over after the last shuffle


@dataclass
class Chance:
    """The engine's chance outcomes and payments in one turn, read from its events."""

    stress_flips: list[Flip]
    boost_flip: Flip | None
    replenish_reshuffled: bool
    corner_heat: int
    boost_heat: int
    shift_heat: int
    spun: bool
    stress_taken: int
    reveal_speed: int | None
    speed: int | None
    adrenaline: bool
    cluttered: bool
    cooled: int  # Heat cooled (every cooldown, adrenaline's included)


def read_chance(rec: TurnRecord) -> Chance:
    """The chance outcomes and payments of a recorded turn."""
    flips: list[Flip] = []
    boost: Flip | None = None
    current: Flip | None = None
    pending = 0
    resh = False
    heat = boost_heat = stress = cooled = 0
    spun = cluttered = adrenaline = False
    reveal_speed: int | None = None
    speed: int | None = None
    for ev in rec.events:
        k = ev.kind
        if k == "turn-started":
            adrenaline = bool(ev.get("adrenaline"))
        elif k == "revealed":
            pending = list(ev.get("cards")).count(STRESS)
        elif k == "cluttered":
            cluttered, pending = True, 0
        elif k == "speed":
            reveal_speed = int(ev.get("speed"))
        elif k == "paid-heat" and ev.get("cause") == "boost":
            boost_heat += int(ev.get("amount"))
            pending = 1
            boost = current = Flip()
        elif k in ("deck-empty", "shuffled"):
            if pending > 0:
                if current is None:
                    current = Flip()
                    flips.append(current)
                current.reshuffled = True
                if k == "shuffled":
                    current.skips.clear()
            else:
                resh = True
        elif k in ("flipped", "flip-found-nothing"):
            if current is None:
                current = Flip()
                flips.append(current)
            if k == "flipped" and not ev.get("kept"):
                current.skips.append(str(ev.get("card")))
            else:
                current.found = str(ev.get("card")) if k == "flipped" else None
                current, pending = None, pending - 1
        elif k == "cooled":
            cooled += int(ev.get("amount"))
        elif k in ("corner", "spun-out"):
            heat += int(ev.get("heat"))
            speed = int(ev.get("speed"))
            if k == "spun-out":
                spun, stress = True, int(ev.get("stress"))
    shift = sum(int(e.get("amount")) for e in rec.plan_events
                if e.kind == "paid-heat" and e.get("cause") == "shift")
    return Chance(flips, boost, resh, heat, boost_heat, shift, spun, stress, reveal_speed,
                  speed, adrenaline, cluttered, cooled)


def _chosen(rec: TurnRecord, kind: str) -> list[Action]:
    return [d.chosen for d in rec.decisions if d.kind == kind]


def react_tuple(actions: list[Action]) -> dict[str, Value]:
    """The model's react choices for a sequence of engine react actions."""
    cool = sum(a.amount for a in actions if isinstance(a, Cooldown))
    kinds = [type(a) for a in actions]
    first = (AdrenalineMove in kinds and Boost in kinds
             and kinds.index(AdrenalineMove) < kinds.index(Boost))
    return {"cool_gear": cool, "adr_cool": AdrenalineCooldown in kinds,
            "adr_move": AdrenalineMove in kinds, "adr_first": first, "boost": Boost in kinds}


def _pin_flip(env: dict[str, Value], m: Model, i: int, flip: Flip | None) -> None:
    f = m.turn.flips[i]
    env[m.sym[f"flip{i}.pick"]] = (f.accept.index(flip.found)
                                   if flip and flip.found in f.accept else 0)
    skips = Counter(flip.skips if flip else [])
    for k in f.skips:
        env[m.sym[f"flip{i}.skip.{k}"]] = skips.get(k, 0)


def pins(m: Model, rec: TurnRecord, chance: Chance) -> dict[str, Value]:
    """The model's inputs for a recorded turn (draws still at zero: see ``pin_draws``)."""
    n, car = m.sym, rec.pre
    env: dict[str, Value] = {}
    env[n["pos"]], env[n["racing"]] = rec.start
    env[n["gear0"]], env[n["engine0"]], env[n["supply0"]] = car.gear, car.engine, rec.supply
    mine = sum(c.count(STRESS) for c in (car.hand, car.deck, car.discard))
    env[n["other_stress"]] = BOX_STRESS - rec.supply - mine
    env[n["starters"]], env[n["racing_cars"]] = rec.starters, rec.racing
    env[n["index"]] = rec.index
    for zone, cards in (("hand", car.hand), ("deck", car.deck), ("discard", car.discard),
                        ("play", car.play_area)):
        for k, c in _counts(cards).items():
            env[n[f"pre.{zone}.{k}"]] = c
    if len(rec.others) > MAX_CARS - 1:
        raise ValueError("more cars than the encoding holds")
    for i in range(MAX_CARS - 1):
        here = i < len(rec.others)
        pos, racing = rec.others[i] if here else (0, False)
        env[n[f"other{i}.present"]] = here
        env[n[f"other{i}.pos"]], env[n[f"other{i}.racing"]] = pos, racing
    plan = _chosen(rec, "plan")[0]
    assert isinstance(plan, Plan)
    env[n["gear"]] = plan.gear
    for k, c in _counts(plan.cards).items():
        env[n[f"played.{k}"]] = c
    last = len(m.turn.flips) - 1
    for i in range(last):
        _pin_flip(env, m, i, chance.stress_flips[i] if i < len(chance.stress_flips) else None)
    _pin_flip(env, m, last, chance.boost_flip)
    env.update({n[key]: v for key, v in react_tuple(_chosen(rec, "react")).items()})
    env[n["slip"]] = any(isinstance(a, Slipstream) for a in _chosen(rec, "slipstream"))
    discards = [a for a in _chosen(rec, "discard") if isinstance(a, Discard)]
    for k, c in _counts(discards[0].cards if discards else ()).items():
        env[n[f"discard.{k}"]] = c
    for k in KINDS:
        env[n[f"draw1.{k}"]] = env[n[f"draw2.{k}"]] = 0
    return env


def pin_draws(m: Model, env: dict[str, Value], rec: TurnRecord, chance: Chance) -> None:
    """Pin the cards drawn in step 9 (from the hands before and after the turn): all of
    the deck first when the model reshuffles, then the rest from the new deck."""
    post = rec.post
    assert post is not None
    plan = _chosen(rec, "plan")[0]
    assert isinstance(plan, Plan)
    discards = [a for a in _chosen(rec, "discard") if isinstance(a, Discard)]
    drawn = Counter(post.hand)
    drawn.subtract(rec.pre.hand)
    drawn.update(plan.cards)
    drawn.update(discards[0].cards if discards else ())
    drawn.update([HEAT] * chance.cooled)
    drawn.subtract([STRESS] * chance.stress_taken)
    values = m.full.run(env)
    deck = {k: int(values[m.outputs[f"before_draw.deck.{k}"]]) for k in KINDS}
    resh = bool(values[m.outputs["replenish_reshuffled"]])
    for k in KINDS:
        first = deck[k] if resh else drawn[k]
        env[m.sym[f"draw1.{k}"]] = first
        env[m.sym[f"draw2.{k}"]] = drawn[k] - first


# ---- the three questions -----------------------------------------------------------

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
        for k, n in _counts(cards).items():
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
            counts = _counts(cards)
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
        for action in candidates:
            tup = react_tuple(history + ([] if isinstance(action, EndReact) else [action]))
            work.update({n[key]: v for key, v in tup.items()})
            ok[action] = _allowed(m.steps["react"], work)
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
        counts = _counts(cards)
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
    m = model(rec.track, rec.laps, bugs)
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
           bugs: frozenset[str] = frozenset(), stop_at: int | None = None) -> Report:
    """Check ``turns`` completed turns sampled from the races ``seeds``
    (``turns.sample_races``); stop early after ``stop_at`` disagreements."""
    start = time.perf_counter()
    report = Report()
    for rec in sample_races(turns, seeds, stats=report.races):
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


def refine_main(turns: int, jobs: int) -> int:
    """``heatcore prove --refine N``: check N turns on ``jobs`` workers; print the report."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    parts = max(1, min(jobs, len(TRACKS)))
    shares = [turns // parts + (1 if i < turns % parts else 0) for i in range(parts)]
    total = Report()
    context = multiprocessing.get_context("fork")
    start = time.perf_counter()
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
    m = model(rec.track, rec.laps, bugs)
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
    outs = _outputs(t)
    solver.add(z3.Or([term != values[m.outputs[key]] for key, term in outs.items()]))
    return solver.check()

"""The Z3 turn compiled for evaluation, and pinned to a recorded engine turn.

``model(track, laps, bugs)`` encodes a turn, compiles its constraints and outputs
(``proofs.z3eval``) and its constraints per decision (``proofs.stages``). ``pins`` and
``pin_draws`` set every input symbol from a ``TurnRecord``: the state before the turn,
the choices, and the chance outcomes read from the events (``read_chance``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache

import z3

from heatcore.heat.actions import (
    Action,
    AdrenalineCooldown,
    AdrenalineMove,
    Boost,
    Cooldown,
    Discard,
    Plan,
    Slipstream,
)
from heatcore.heat.rulings import DEFAULT_RULINGS, Rulings
from proofs.encoding import Turn, encode_turn
from proofs.stages import DECISIONS, staged, symbol_name
from proofs.symbols import BOX_STRESS, HEAT, KINDS, MAX_CARS, STRESS
from proofs.track_graph import TrackFacts, track_facts
from proofs.turns import TurnRecord
from proofs.z3eval import Compiled, Dag, Value

#: The model's step for a react choice made once the boost's flip is known.
REACT_AFTER_BOOST = "react-after-boost"


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


def model_outputs(t: Turn) -> dict[str, z3.ExprRef]:
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
def model(track: str, laps: int, bugs: frozenset[str] = frozenset(),
          rulings: Rulings = DEFAULT_RULINGS) -> Model:
    """The compiled model of a turn on ``track`` with ``laps`` laps and ``bugs`` on, under
    the race's ``rulings``."""
    facts = track_facts(f"{track}@{laps}")
    t = encode_turn(facts, bugs, prefix=f"refine.{track}.{laps}", rulings=rulings)
    outputs = model_outputs(t)
    cons = t.enc.constraints
    terms = [e for _, e in cons] + list(outputs.values())
    dag = Dag(terms)
    full = dag.compile(terms)
    groups = staged(t, dag)
    steps = {}
    for g in DECISIONS:
        rules = tuple(r for r, _ in groups.constraints[g])
        steps[g] = Step(dag.compile([e for _, e in groups.constraints[g]]), rules)
    # a react choice made after a boost: its flip is known by then, so the constraints
    # that read the boost's flip (an adrenaline +1 taken after it) bear on the choice too
    after = groups.constraints["react"] + groups.constraints["boost"]
    steps[REACT_AFTER_BOOST] = Step(dag.compile([e for _, e in after]),
                                    tuple(r for r, _ in after))
    known = frozenset().union(*groups.names.values())
    return Model(t, facts, full, tuple(r for r, _ in cons),
                 {n: i + len(cons) for i, n in enumerate(outputs)}, steps, known,
                 symbol_names(t))


# ---- pinning the model to an engine turn ---------------------------------------------

def card_counts(cards: Iterable[str]) -> dict[str, int]:
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
                if e.kind == "paid-heat" and e.get("cause") == "shift" and e.car == rec.car)
    return Chance(flips, boost, resh, heat, boost_heat, shift, spun, stress, reveal_speed,
                  speed, adrenaline, cluttered, cooled)


def chosen_actions(rec: TurnRecord, kind: str) -> list[Action]:
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
        for k, c in card_counts(cards).items():
            env[n[f"pre.{zone}.{k}"]] = c
    if len(rec.others) > MAX_CARS - 1:
        raise ValueError("more cars than the encoding holds")
    for i in range(MAX_CARS - 1):
        here = i < len(rec.others)
        pos, racing = rec.others[i] if here else (0, False)
        env[n[f"other{i}.present"]] = here
        env[n[f"other{i}.pos"]], env[n[f"other{i}.racing"]] = pos, racing
    plan = chosen_actions(rec, "plan")[0]
    assert isinstance(plan, Plan)
    env[n["gear"]] = plan.gear
    for k, c in card_counts(plan.cards).items():
        env[n[f"played.{k}"]] = c
    last = len(m.turn.flips) - 1
    for i in range(last):
        _pin_flip(env, m, i, chance.stress_flips[i] if i < len(chance.stress_flips) else None)
    _pin_flip(env, m, last, chance.boost_flip)
    env.update({n[key]: v for key, v in react_tuple(chosen_actions(rec, "react")).items()})
    env[n["slip"]] = any(isinstance(a, Slipstream) for a in chosen_actions(rec, "slipstream"))
    discards = [a for a in chosen_actions(rec, "discard") if isinstance(a, Discard)]
    for k, c in card_counts(discards[0].cards if discards else ()).items():
        env[n[f"discard.{k}"]] = c
    for k in KINDS:
        env[n[f"draw1.{k}"]] = env[n[f"draw2.{k}"]] = 0
    return env


def pin_draws(m: Model, env: dict[str, Value], rec: TurnRecord, chance: Chance) -> None:
    """Pin the cards drawn in step 9 (from the hands before and after the turn): all of
    the deck first when the model reshuffles, then the rest from the new deck."""
    post = rec.post
    assert post is not None
    plan = chosen_actions(rec, "plan")[0]
    assert isinstance(plan, Plan)
    discards = [a for a in chosen_actions(rec, "discard") if isinstance(a, Discard)]
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

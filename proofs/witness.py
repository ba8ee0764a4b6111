"""Witnesses as engine states: build the start state of a mined scene, replay the turn in
the engine (``heatcore``), and cross-check the engine's outcome with the encoding's.

The acting car is P1. If it leads, the state is the start of the round (phase plan) and
its plan is replayed; otherwise it moves last: the car before it is mid-turn (react) and
ends its turn doing nothing more. Other cars get plain decks; cars already ranked stand
just past the line. The round is the earliest the positions and the Stress held allow
(``proofs.reachable``), so every witness passes the round-consistency checks. The acting
car's deck (and every reshuffle) is ordered so the flips and draws find exactly the
cards of the model.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from heatcore.framework.errors import RulesError
from heatcore.framework.events import Event, event_to_dict
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
    Shuffle,
    Slipstream,
)
from heatcore.heat.cards import canonical
from heatcore.heat.engine import apply, legal_actions
from heatcore.heat.notation import state_from_dict, state_to_dict
from heatcore.heat.rounds import adrenaline_count
from heatcore.heat.state import Phase, RaceState, Stage
from heatcore.heat.validity import status
from proofs.miner import Outcome, Scene, situation
from proofs.reachable import earliest_round
from proofs.symbols import BASIC, BOX_STRESS, HAND_SIZE, HEAT, KINDS, STRESS
from proofs.track_graph import track_facts

ME = 0
#: Which rules an outcome field carries, for naming a disagreement.
FIELD_RULES: dict[str, tuple[str, ...]] = {
    "position": ("move.exact", "place.racing-line-first", "place.blocked", "corner.spin"),
    "racing_line": ("place.racing-line-first", "place.blocked"),
    "gear": ("gear.range", "corner.spin", "play.cluttered"),
    "engine": ("corner.pay-heat", "react.cooldown", "react.boost", "gear.shift.two-costs-heat"),
    "hand": ("replenish.draw", "discard.optional", "corner.spin", "react.cooldown"),
    "deck": ("reveal.stress-flip", "deck.reshuffle", "replenish.draw"),
    "discard": ("reveal.stress-flip", "deck.reshuffle", "replenish.cleanup"),
    "corner_heat": ("corner.check", "corner.pay-heat"),
    "spun": ("corner.spin",),
    "stress_taken": ("corner.spin", "ruling.stress-supply"),
    "speed": ("speed.turn-total",),
    "ranking": ("finish.ranking",),
}


def _cards(counts: dict[str, int]) -> list[str]:
    return list(canonical([k for k in KINDS for _ in range(counts.get(k, 0))]))


def deck_orders(scene: Scene) -> list[list[str]]:
    """The acting car's deck order, then the order of each reshuffle in turn, such that the
    engine's flips and draws take exactly the cards the model says."""
    z = scene.zones["planned"]
    deck, discard = Counter(z["deck"]), Counter(z["discard"])
    orders: list[list[str]] = []
    taken: list[str] = []

    def take(cards: list[str]) -> None:
        taken.extend(cards)
        deck.subtract(cards)

    def reshuffle() -> None:
        rest = _cards({k: n for k, n in deck.items() if n > 0})
        taken.extend(rest)
        discard.update(rest)
        orders.append(list(taken))
        taken.clear()
        deck.clear()
        deck.update(discard)
        discard.clear()

    play: list[str] = _cards(scene.played)
    if not scene.expected.cluttered:
        for i, f in enumerate(scene.flips):
            if i == len(scene.flips) - 1 and scene.boost:
                discard.update([HEAT])  # the boost's Heat is paid before its flip
            if not f.active or not f.found:
                continue
            if f.reshuffled:
                reshuffle()
            skips = _cards(f.skips)
            take(skips)
            discard.update(skips)
            take([f.card])
            play.append(f.card)
        discard.update([HEAT] * scene.expected.corner_heat)
        discard.update(_cards(scene.discarded))
    discard.update(play)
    # (a finished car draws too: ruling.finished-car-discard-draw; the model draws nothing
    # for it under the alternative "skip")
    take(_cards(scene.drawn.first))
    if scene.drawn.reshuffled:
        reshuffle()
        take(_cards(scene.drawn.second))
    rest = _cards({k: n for k, n in deck.items() if n > 0})
    orders.append(taken + rest)
    return orders


def _filler(stress: int, heat: int, position: int, racing: bool, index: int) -> dict[str, Any]:
    """A plain car: a hand of basic cards, the rest in the deck, the engine full."""
    deck = [c for c in BASIC for _ in range(3)] + ["U0", "U5", HEAT] + [STRESS] * stress
    hand = deck[:HAND_SIZE]
    return {"id": f"P{index + 1}", "position": position, "racing_line": racing, "gear": 1,
            "engine": heat, "hand": list(canonical(hand)), "deck": deck[HAND_SIZE:],
            "discard": [], "played": [], "flipped": []}


def start_state(scene: Scene) -> tuple[RaceState, list[list[str]]]:
    """The engine state a scene starts from, and the acting car's deck orders."""
    facts = track_facts(scene.track)
    orders = deck_orders(scene)
    stage = "pre" if scene.first else "planned"
    z = scene.zones[stage]
    me: dict[str, Any] = {"id": "P1", "position": scene.pos, "racing_line": scene.racing,
                          "gear": scene.gear0 if scene.first else scene.gear,
                          "engine": scene.engine[stage], "hand": _cards(z["hand"]),
                          "deck": orders[0], "discard": _cards(z["discard"]),
                          "played": [] if scene.first else _cards(scene.played),
                          "flipped": []}
    others = sorted(scene.others, key=lambda o: (-o[0], not o[1]))
    ranked = scene.starters - 1 - len(others)
    extra = scene.other_stress - facts.stress * (scene.starters - 1)
    cars = [me]
    for i, (pos, racing) in enumerate(others):
        cars.append(_filler(facts.stress + (extra if i == 0 else 0), facts.heat, pos, racing,
                            i + 1))
    for j in range(ranked):  # finished in an earlier round, just past the line
        stress = facts.stress + (extra if not others and j == 0 else 0)
        cars.append(_filler(stress, facts.heat, facts.finish + 1 + j, True, len(cars)))
    mine = sum(me[zone].count(STRESS) for zone in ("hand", "deck", "discard", "played"))
    positions = [int(c["position"]) for c in cars]
    racing_cars = [f"P{i + 2}" for i in range(len(others))]
    data: dict[str, Any] = {
        "format": "heatcore.state/1", "track": scene.track, "laps": facts.laps,
        "modules": [], "shuffle": None, "supply": scene.supply,
        "round": earliest_round(positions, [mine - facts.stress, extra], ranked, facts.finish),
        "ranking": [f"P{len(others) + 2 + j}" for j in range(ranked)], "cars": cars}
    if scene.first:
        data.update(phase="plan", order=["P1", *racing_cars], cursor=0, turn=None)
    else:
        order = [*racing_cars, "P1"]
        before = len(order) - 2
        last = order[before]
        pos = int(cars[before + 1]["position"])
        data.update(phase="turn", order=order, cursor=before, turn={
            "car": last, "stage": "react", "start_position": pos, "speed": 0, "to_move": 0,
            "flips_left": 0, "boosted": False, "cooldown_used": False,
            "adrenaline": before >= len(order) - adrenaline_count(scene.starters),
            "adrenaline_move_used": False, "adrenaline_cooldown_used": False})
    assert sum(c["hand"].count(STRESS) + c["deck"].count(STRESS) + c["discard"].count(STRESS)
               + c["played"].count(STRESS) for c in cars) + scene.supply == BOX_STRESS
    return state_from_dict(data), orders


@dataclass
class Replay:
    """The engine's run of a scene: each step, the outcome, and any disagreement."""

    start: RaceState
    steps: list[tuple[str, RaceState, tuple[Event, ...]]] = field(default_factory=list)
    outcome: Outcome | None = None
    problems: list[str] = field(default_factory=list)


def _react_queue(scene: Scene) -> list[Action]:
    queue: list[Action] = []
    if scene.cool_gear:
        queue.append(Cooldown(ME, scene.cool_gear))
    if scene.adr_cool:
        queue.append(AdrenalineCooldown(ME))
    moves: list[Action] = [AdrenalineMove(ME)] if scene.adr_move else []
    boost: list[Action] = [Boost(ME)] if scene.boost else []
    queue += moves + boost if scene.adr_first else boost + moves
    return queue


def _choose(state: RaceState, scene: Scene, queue: list[Action],
            orders: list[list[str]]) -> Action:
    """The next action of the replay."""
    if state.shuffle is not None:
        car = state.cars[state.shuffle]
        if state.shuffle == ME:
            if not orders:
                raise RulesError("deck.reshuffle", "the engine reshuffles where the model "
                                 "does not")
            return Shuffle(ME, tuple(orders.pop(0)))
        return Shuffle(state.shuffle, canonical(car.deck + car.discard))
    if state.phase is Phase.PLAN:
        actor = state.order[state.cursor]
        if actor == ME:
            plans = legal_actions(state)
            heat = {HEAT in getattr(p, "cards", ()) for p in plans}
            if heat != {scene.expected.cluttered}:
                raise RulesError("play.cluttered-only-when-forced",
                                 f"the engine's legal plans {'do' if True in heat else 'do not'}"
                                 f" play Heat; the model says cluttered="
                                 f"{scene.expected.cluttered}")
            return Plan(ME, scene.gear, tuple(_cards(scene.played)))
        return legal_actions(state)[0]
    turn = state.turn
    assert turn is not None
    mine = turn.car == ME
    if turn.stage is Stage.REACT:
        return queue.pop(0) if mine and queue else EndReact(turn.car)
    if turn.stage is Stage.SLIPSTREAM:
        return Slipstream(ME) if mine and scene.slip else DeclineSlipstream(turn.car)
    if turn.stage is Stage.DISCARD:
        return Discard(turn.car, tuple(_cards(scene.discarded)) if mine else ())
    raise RulesError("round.sequence", f"unexpected stage {turn.stage}")


def replay(scene: Scene) -> Replay:
    """Play the scene's turn in the engine, up to the end of P1's turn."""
    start, orders = start_state(scene)
    run = Replay(start)
    problems = status(start)
    if problems:
        run.problems.append(f"start state invalid: {problems}")
        return run
    queue = _react_queue(scene)
    shuffles = orders[1:]
    state, began, events_of_mine = start, False, []
    for _ in range(200):
        try:
            action = _choose(state, scene, queue, shuffles)
            state, events = apply(state, action)
        except RulesError as error:
            run.problems.append(f"engine refused the model's play ({error.rule}): {error}")
            return run
        run.steps.append((str(action), state, events))
        for ev in events:
            if ev.kind == "turn-started" and ev.car == ME:
                began = True
            elif began and ev.kind in ("turn-started", "round-started"):
                began = False
                events_of_mine.append(ev)
                break
            if began or ev.kind == "ranked":
                events_of_mine.append(ev)
        if began and state.phase is Phase.OVER:
            began = False
        if events_of_mine and not began and (state.turn is None or state.turn.car != ME):
            break
    else:
        run.problems.append("the turn did not end")
        return run
    leftover = queue + ([Slipstream(ME)] if scene.slip and not any(
        a == "P1 slipstream" for a, _, _ in run.steps) else [])
    if leftover:
        run.problems.append(f"the engine never offered {', '.join(map(str, leftover))}"
                            " (slipstream.eligible, react.any-order)")
    if shuffles:
        run.problems.append("the model reshuffles where the engine does not (deck.reshuffle)")
    run.outcome = outcome(state, events_of_mine)
    return run


def outcome(state: RaceState, events: list[Event]) -> Outcome:
    """P1's outcome in the engine after its turn."""
    car = state.cars[ME]
    heat = sum(int(e.get("heat") or 0) for e in events if e.kind in ("corner", "spun-out"))
    spins = [e for e in events if e.kind == "spun-out"]
    speeds = [int(e.get("speed")) for e in events if e.kind in ("corner", "spun-out")]
    return Outcome(
        position=car.position, racing_line=car.racing_line, gear=car.gear, engine=car.engine,
        hand=dict(Counter(car.hand)), deck=dict(Counter(car.deck)),
        discard=dict(Counter(car.discard)), corner_heat=heat, spun=bool(spins),
        stress_taken=int(spins[0].get("stress")) if spins else 0,
        speed=speeds[-1] if speeds else None,
        ranking=[e.car for e in events if e.kind == "ranked" and e.car is not None])


def cross_check(scene: Scene, run: Replay) -> list[str]:
    """Disagreements between the engine's outcome and the encoding's, naming rule IDs."""
    out = list(run.problems)
    if out:
        return [f"{p} [situation rules: {', '.join(situation(scene.situation).rules)}]"
                for p in out]
    got, want = run.outcome, scene.expected
    assert got is not None
    for key in ("position", "racing_line", "gear", "engine", "corner_heat", "spun",
                "stress_taken", "speed", "hand", "deck", "discard"):
        mine, theirs = getattr(want, key), getattr(got, key)
        if isinstance(mine, dict):
            mine = {k: n for k, n in mine.items() if n}
        if key == "speed" and theirs is None:
            continue
        if mine != theirs:
            out.append(f"{key}: encoding {mine}, engine {theirs} "
                       f"({', '.join(FIELD_RULES[key])})")
    finish = track_facts(scene.track).finish
    if not scene.first:  # the car moved last: the round ended and its finishers are ranked
        others = sorted(scene.others, key=lambda o: (-o[0], not o[1]))
        done = [(2 * p + r, i + 1) for i, (p, r) in enumerate(others) if p > finish]
        if want.finished:
            done.append((2 * want.position + want.racing_line, ME))
        ranking = [car for _, car in sorted(done, reverse=True)]
        if ranking != got.ranking:
            out.append(f"ranking: encoding {ranking}, engine {got.ranking} (finish.ranking)")
    return out


def case(scene: Scene, run: Replay, number: int) -> dict[str, Any]:
    """The witness as a conformance case (conform.case/1)."""
    sit = situation(scene.situation)
    rules = [r for r in sit.rules if not r.startswith("ruling.")]
    rulings = [r for r in sit.rules if r.startswith("ruling.")]
    return {
        "id": f"miner.{sit.id}.{scene.track}.{number}",
        "description": (f"{sit.description}: P1 at {scene.pos} in gear {scene.gear} plays "
                        f"{' '.join(_cards(scene.played))} on {scene.track} (Z3 witness)"),
        "rules": rules or ["round.sequence"], "rulings": rulings,
        "source": f"crafted: proofs.miner {sit.id} {scene.track} #{number}",
        "state": state_to_dict(run.start),
        "expect": {"steps": [{"action": a, "state": state_to_dict(s),
                              "events": [event_to_dict(e) for e in ev]}
                             for a, s, ev in run.steps]},
    }


def export(name: str, cases: list[dict[str, Any]], out: Path) -> Path:
    """Write the witnesses of one situation as a suite file ``out/<name>.json``."""
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"{name}.json"
    suite = {"format": "conform.suite/1", "ruleset": "heat",
             "interpreting": "spec/schemas/INTERPRETING.md (conform.case/1)", "cases": cases}
    path.write_text(json.dumps(suite, sort_keys=True, indent=1) + "\n", encoding="utf-8")
    return path

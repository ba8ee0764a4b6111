"""Cases that pin down one rule each where the general cut of seeded races is too blunt: a
two-gear downshift, a hand saved from clutter by a downshift (by the paid one only, too), a
slipstream beside a car, two adrenaline cars after a car of a big field finished, a car
stopping exactly on the last space, a speed-0 car on the outside spot, and the seed's second
turn (cooling in 2nd gear).
Every case is a step of a seeded race, so every state is reachable from a setup."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from heatcore.framework.conformance.binding import JSON, RandomRace, Step

Predicate = Callable[[Step], bool]
#: Seeds scanned (the corpus races first).
SEEDS = range(0, 160)
PER_CASE = 2


def _car(state: JSON, name: str) -> JSON:
    return state["cars"][int(name[1:]) - 1]


def _plan(step: Step) -> tuple[JSON, int, list[str]] | None:
    """(car, new gear, cards) of a plan step."""
    words = step.action.split()
    if len(words) < 4 or words[1] != "gear":
        return None
    return _car(step.before, words[0]), int(words[2]), words[4:]


def _others(state: JSON, name: str) -> set[tuple[int, bool]]:
    ranked = set(state["ranking"])
    return {(c["position"], c["racing_line"]) for c in state["cars"]
            if c["id"] != name and c["id"] not in ranked}


def _downshift(step: Step) -> bool:
    plan = _plan(step)
    return plan is not None and bool(plan[1] == plan[0]["gear"] - 2)


def _plays_upgrade(step: Step) -> bool:
    plan = _plan(step)
    return plan is not None and ("U0" in plan[2] or "U5" in plan[2])


def _saved_by_downshift(step: Step) -> bool:
    plan = _plan(step)
    if plan is None or "H" in plan[2]:
        return False
    playable = [c for c in plan[0]["hand"] if c != "H"]
    return len(playable) < int(plan[0]["gear"])


def _saved_by_paid_downshift(step: Step) -> bool:
    plan = _plan(step)
    if plan is None or "H" in plan[2]:
        return False
    car = plan[0]
    playable = [c for c in car["hand"] if c != "H"]
    free = [g for g in (car["gear"] - 1, car["gear"], car["gear"] + 1) if 1 <= g <= 4]
    return len(playable) < min(free) and int(car["engine"]) >= 1


def _beside_only(step: Step) -> bool:
    turn = step.after.get("turn") or {}
    if turn.get("stage") != "slipstream":
        return False
    me = _car(step.after, turn["car"])
    taken = _others(step.after, turn["car"])
    p = me["position"]
    return (p, not me["racing_line"]) in taken and not (
        (p + 1, True) in taken or (p + 1, False) in taken)


def _two_adrenaline_after_a_finish(step: Step) -> bool:
    state = step.before
    if len(state["cars"]) < 5 or not state["ranking"] or len(state["order"]) < 3:
        return False
    return any(e["kind"] == "turn-started" and e["adrenaline"] and e["car"] == state["order"][-2]
               for e in step.events)


def _second_turn_cooling(step: Step) -> bool:
    words = step.action.split()
    turn = step.before.get("turn") or {}
    return (step.before["round"] == 2 and words[1:2] == ["cooldown"]
            and _car(step.before, turn.get("car", words[0]))["gear"] == 2)


def _speed_zero_outside(step: Step) -> bool:
    for e in step.events:
        if e["kind"] == "speed" and e["speed"] == 0:
            me = _car(step.before, e["car"])
            if not me["racing_line"] and (me["position"], True) not in _others(
                    step.before, e["car"]):
                return True
    return False


def _stops_on_last_space(finish: Callable[[JSON], int]) -> Predicate:
    def pred(step: Step) -> bool:
        return any(e["kind"] == "moved" and e["position"] == finish(step.before)
                   for e in step.events)
    return pred


def table(lap_length: dict[str, int]) -> list[tuple[str, str, str, Predicate, bool]]:
    """(rule, case name, description, which steps show it, also a legal-actions case)."""
    def finish(state: JSON) -> int:
        return int(lap_length[state["track"]] * state["laps"])

    return [
        ("gear.shift.two-costs-heat", "downshift", "a two-gear downshift pays one Heat",
         _downshift, True),
        ("play.playable-cards", "upgrade", "the 0 and 5 starting upgrades are played",
         _plays_upgrade, True),
        ("play.cluttered-only-when-forced", "saved",
         "a hand with fewer playable cards than its gear shifts down instead of cluttering",
         _saved_by_downshift, True),
        ("ruling.cluttered-gear", "paid-downshift",
         "a hand that only the paid two-gear downshift saves plays normally",
         _saved_by_paid_downshift, True),
        ("slipstream.eligible", "beside", "a car beside another car may slipstream",
         _beside_only, False),
        ("adrenaline.count-fixed", "after-finish",
         "two cars still get adrenaline after a car of a 5-6 car race finished",
         _two_adrenaline_after_a_finish, False),
        ("ruling.adrenaline-order", "after-finish",
         "the last two cars still racing get adrenaline once a car has left the track",
         _two_adrenaline_after_a_finish, False),
        ("example.second-turn", "cooling", "a second-round turn in 2nd gear cools one Heat",
         _second_turn_cooling, True),
        ("ruling.zero-move", "outside", "a car of speed 0 stays on the outside spot",
         _speed_zero_outside, False),
        ("finish.line", "last-space", "a car stopping on the last space has not finished",
         _stops_on_last_space(finish), False),
    ]


def sharpened_cases(builder: Any, lap_length: dict[str, int],
                    race: Callable[[int], RandomRace]) -> None:
    """Add up to :data:`PER_CASE` cases for each entry of :func:`table` (``builder`` is a
    ``heat_cases.Builder``; ``race(seed)`` plays a corpus race)."""
    entries = table(lap_length)
    hits: dict[int, int] = dict.fromkeys(range(len(entries)), 0)
    for seed in SEEDS:
        if all(n >= PER_CASE for n in hits.values()):
            return
        played = race(seed)
        for k, step in enumerate(played.steps):
            for i, (rule, name, text, pred, legal) in enumerate(entries):
                if hits[i] >= PER_CASE:
                    continue
                try:
                    ok = pred(step)
                except (KeyError, TypeError, ValueError, IndexError):
                    ok = False
                if not ok:
                    continue
                hits[i] += 1
                cid = f"{rule}.{name}.race{seed}-step{k}"
                where = f"race {seed} ({played.label}), step {k}"
                builder.add(rule, cid, f"{text}: {step.action} ({where})", step.before,
                            {"steps": [{"action": step.action, "state": step.after,
                                        "events": step.events}]}, f"race:{seed}:{k}")
                if legal:
                    builder.add(rule, f"{cid}.legal",
                                f"{text}: the legal actions before {step.action} ({where})",
                                step.before, {"legal": step.legal}, f"race:{seed}:{k}")

"""Heat's steered fixture cases: steps cut from seeded races driven by the steering policies
of :mod:`heatcore.heat.conformance.steering` (the drivers :mod:`heatcore.heat.strategies` uses to
reach
rare situations), chosen for those rare situations: spins in high gear or with the Stress
supply empty, several corners in one move, cluttered hands, reshuffles during a flip,
blocked spaces, slipstreams into a corner, several cars finishing in one round...

Deterministic: the races are fixed by their seeds, and the first hits (one per race and
situation) are kept. Case ids start with ``steered.``; sources read
``steered:POLICY:SEED:STEP``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from heatcore.framework.conformance.binding import JSON, RandomRace, Step
from heatcore.heat.conformance.binding import HeatBinding, record_race
from heatcore.heat.conformance.cases import _blocked, _car, _ev, _turn, _verb
from heatcore.heat.conformance.steering import aggressive_policy, clutter_policy, mixed_policy
from heatcore.heat.driver import Policy
from heatcore.heat.setup import random_setup

#: Seeds of the steered races (their chance outcomes come from ``SALT + seed``). The scan
#: stops once every situation has its cases (race 33 today).
STEERED_SEEDS = range(0, 60)
SALT = 50_000
#: Cases kept per situation (at most one per race).
PER_SITUATION = 3
POLICIES: tuple[tuple[str, Policy], ...] = (
    ("aggressive", aggressive_policy), ("clutter", clutter_policy), ("mixed", mixed_policy()))


def steered_race(binding: HeatBinding, seed: int) -> tuple[str, RandomRace]:
    """Steered race ``seed``: policy, track and car count cycled, two laps every 4th race."""
    name, policy = POLICIES[seed % len(POLICIES)]
    tracks = binding.tracks()
    rng = random.Random(SALT + seed)
    setup = random_setup(tracks[seed % len(tracks)], 2 + seed % 5, rng,
                         laps=2 if seed % 4 == 3 else 1)
    return name, record_race(seed, setup, policy, name, rng)


@dataclass(frozen=True)
class Hit:
    """A situation seen in a race: the steps of the case and what they show."""

    first: int  # index of the case's first step
    count: int  # number of steps
    text: str


@dataclass(frozen=True)
class Situation:
    """A rare situation: its rules and rulings, and where a race shows it."""

    id: str
    rules: tuple[str, ...]
    rulings: tuple[str, ...]
    find: Callable[[RandomRace, int], Hit | None]
    legal: bool = False  # also a case checking the legal actions before the first step


def _gear(state: JSON, car: str) -> int:
    return int(_car(state, car)["gear"])


def _spin_high_gear(race: RandomRace, k: int) -> Hit | None:
    s = race.steps[k]
    for e in _ev(s, "spun-out"):
        if e["stress"] == 2:
            return Hit(k, 1, f"{e['car']} in gear {_gear(s.before, e['car'])} spins at corner "
                             f"{e['corner']} (speed {e['speed']}, limit {e['limit']}) and takes "
                             f"2 Stress")
    return None


def _spin_short_supply(race: RandomRace, k: int) -> Hit | None:
    s = race.steps[k]
    for e in _ev(s, "spun-out"):
        wanted = 1 if _gear(s.before, e["car"]) <= 2 else 2
        if e["stress"] < wanted:
            return Hit(k, 1, f"{e['car']} in gear {_gear(s.before, e['car'])} spins with "
                             f"{s.before['supply']} Stress left in the supply and takes "
                             f"{e['stress']}")
    return None


def _two_corners(race: RandomRace, k: int) -> Hit | None:
    s = race.steps[k]
    checks = [e for e in s.events if e["kind"] in ("corner", "spun-out")]
    for car in sorted({e["car"] for e in checks}):
        mine = [e for e in checks if e["car"] == car]
        if len(mine) >= 2:
            lines = ", ".join(f"{e['corner']} (limit {e['limit']})" for e in mine)
            return Hit(k, 1, f"{car} at speed {mine[0]['speed']} is checked at corners {lines} "
                             f"in one move")
    return None


def _cluttered(race: RandomRace, k: int) -> Hit | None:
    s = race.steps[k]
    for e in _ev(s, "cluttered"):
        cards: list[str] = next(
            (r["cards"] for r in _ev(s, "revealed") if r["car"] == e["car"]), [])
        return Hit(k, 1, f"{e['car']} reveals a cluttered hand ({' '.join(cards)}), does not "
                         f"move and ends in gear {e['gear']}")
    return None


def _cluttered_plan(race: RandomRace, k: int) -> Hit | None:
    s = race.steps[k]
    if _verb(s) != "gear" or "H" not in s.action.split()[4:]:
        return None
    car = s.action.split()[0]
    hand = " ".join(_car(s.before, car)["hand"])
    return Hit(k, 1, f"{car} in gear {_gear(s.before, car)} holding {hand} can only make a "
                     f"cluttered play: {s.action}")


def _reshuffle(race: RandomRace, k: int, stages: tuple[str, ...]) -> Hit | None:
    s = race.steps[k]
    if k + 1 >= len(race.steps) or not _ev(s, "deck-empty"):
        return None
    nxt = race.steps[k + 1]
    if _verb(nxt) != "shuffle" or _turn(nxt).get("stage") not in stages:
        return None
    car = nxt.action.split()[0]
    me = _car(nxt.before, car)
    if _turn(nxt)["stage"] == "replenish":
        return Hit(k, 2, f"{car}'s deck runs out while drawing; the shuffle takes its "
                         f"{len(me['discard'])}-card discard pile, this turn's played cards "
                         f"included")
    return Hit(k, 2, f"{car}'s deck runs out during a flip; the shuffle takes its "
                     f"{len(me['discard'])}-card discard pile and leaves the "
                     f"{len(me['played'])} card(s) in its play area out")


def _flip_reshuffle(race: RandomRace, k: int) -> Hit | None:
    return _reshuffle(race, k, ("reveal", "boost"))


def _replenish_reshuffle(race: RandomRace, k: int) -> Hit | None:
    return _reshuffle(race, k, ("replenish",))


def _blocked_cards(race: RandomRace, k: int) -> Hit | None:
    s = race.steps[k]
    if not _ev(s, "moved") or _verb(s) == "adrenaline" or not _blocked(s):
        return None
    for e in _ev(s, "moved"):
        if e["by"] == "cards":
            return Hit(k, 1, f"{e['car']} with {e['spaces']} space(s) to move finds its final "
                             f"space full and stops at {e['position']}")
    return None


def _blocked_adrenaline(race: RandomRace, k: int) -> Hit | None:
    s = race.steps[k]
    if _verb(s) != "adrenaline" or s.action.split()[2] != "move" or not _blocked(s):
        return None
    car = s.action.split()[0]
    return Hit(k, 1, f"{car} takes its adrenaline move though the space ahead is full and stays "
                     f"at {_car(s.after, car)['position']}")


def _slipstream_corner(race: RandomRace, k: int) -> Hit | None:
    s = race.steps[k]
    if _verb(s) != "slipstream":
        return None
    car = s.action.split()[0]
    for e in s.events:
        if e["kind"] in ("corner", "spun-out") and e["car"] == car:
            return Hit(k, 1, f"{car}'s slipstream crosses corner {e['corner']} (limit "
                             f"{e['limit']}), checked at its speed of {e['speed']}")
    return None


def _second_adrenaline(race: RandomRace, k: int) -> Hit | None:
    s = race.steps[k]
    for e in _ev(s, "turn-started"):
        order = s.before["order"]
        if e["adrenaline"] and len(s.before["cars"]) >= 5 and e["car"] == order[-2]:
            return Hit(k, 1, f"{e['car']}, second to last of a round of {len(order)} cars "
                             f"({len(s.before['cars'])} in the race), gets adrenaline")
    return None


def _finish_order(race: RandomRace, k: int, later_wins: bool) -> Hit | None:
    s = race.steps[k]
    ranked = [e["car"] for e in _ev(s, "ranked")]
    if len(ranked) < 2:
        return None
    crossed: list[str] = []  # the round's crossings, in the order the cars moved
    for j in range(k, -1, -1):
        step = race.steps[j]
        kinds = [e["kind"] for e in step.events]
        crossed = [e["car"] for e in _ev(step, "crossed-finish") if e["car"] in ranked] + crossed
        if j < k and "round-started" in kinds:
            break
    crossed = list(dict.fromkeys(crossed))
    if (crossed != ranked) != later_wins or len(crossed) != len(ranked):
        return None
    return Hit(k, 1, f"{', '.join(crossed)} cross the finish line in that order in one round "
                     f"and are ranked {', '.join(ranked)}")


SITUATIONS: tuple[Situation, ...] = (
    Situation("spin-high-gear", ("corner.spin", "corner.check"), (), _spin_high_gear),
    Situation("spin-short-supply", ("corner.spin", "setup.stress-supply"),
              ("ruling.stress-supply",), _spin_short_supply),
    Situation("two-corners", ("corner.check", "corner.pay-heat"), (), _two_corners),
    Situation("cluttered", ("play.cluttered",), ("ruling.cluttered-gear",), _cluttered),
    Situation("cluttered-plan", ("play.cluttered-only-when-forced", "play.cluttered"),
              ("ruling.cluttered-gear",), _cluttered_plan, legal=True),
    Situation("flip-reshuffle", ("deck.reshuffle", "reveal.stress-flip",
                                 "replenish.discard-before-draw"), (), _flip_reshuffle),
    Situation("replenish-reshuffle", ("deck.reshuffle", "replenish.draw",
                                      "replenish.discard-before-draw"),
              ("ruling.replenish-empty",), _replenish_reshuffle),
    Situation("blocked", ("place.blocked", "place.racing-line-first"), (), _blocked_cards),
    Situation("blocked-adrenaline", ("adrenaline.effects", "place.blocked"),
              ("ruling.blocked-extra-move",), _blocked_adrenaline),
    Situation("slipstream-into-corner",
              ("slipstream.move", "slipstream.speed-unchanged", "corner.check"), (),
              _slipstream_corner),
    Situation("second-adrenaline", ("adrenaline.count-fixed", "adrenaline.who"),
              ("ruling.adrenaline-order",), _second_adrenaline),
    Situation("finish-same-round", ("finish.ranking", "finish.line", "finish.removed"), (),
              lambda race, k: _finish_order(race, k, False)),
    Situation("later-mover-wins", ("finish.ranking", "finish.removed",
                                   "order.fixed-at-round-start"), (),
              lambda race, k: _finish_order(race, k, True)),
)


def _hits(race: RandomRace, sit: Situation) -> Iterator[Hit]:
    for k in range(len(race.steps)):
        try:
            hit = sit.find(race, k)
        except (KeyError, TypeError, ValueError, IndexError):
            hit = None
        if hit is not None:
            yield hit


def steered_cases(binding: HeatBinding | None = None) -> list[JSON]:
    """Every steered case, in a fixed order."""
    binding = binding or HeatBinding()
    found: dict[str, list[tuple[str, RandomRace, Hit]]] = {s.id: [] for s in SITUATIONS}
    for seed in STEERED_SEEDS:
        if all(len(hits) >= PER_SITUATION for hits in found.values()):
            break
        name, race = steered_race(binding, seed)
        for sit in SITUATIONS:
            if len(found[sit.id]) < PER_SITUATION:
                hit = next(_hits(race, sit), None)
                if hit is not None:
                    found[sit.id].append((name, race, hit))
    cases: list[JSON] = []
    for sit in SITUATIONS:
        for name, race, hit in found[sit.id]:
            steps: list[Step] = race.steps[hit.first:hit.first + hit.count]
            where = f"{name} race {race.seed}: {race.label.rsplit(', ', 1)[0]}, step {hit.first}"
            cid = f"steered.{sit.id}.{name}-race{race.seed}-step{hit.first}"
            common = {"rules": list(sit.rules), "rulings": list(sit.rulings),
                      "source": f"steered:{name}:{race.seed}:{hit.first}",
                      "state": steps[0].before}
            cases.append({"id": cid, "description": f"{hit.text} ({where})", **common,
                          "expect": {"steps": [{"action": s.action, "state": s.after,
                                                "events": s.events} for s in steps]}})
            if sit.legal:
                cases.append({"id": f"{cid}.legal",
                              "description": f"the legal actions when {hit.text} ({where})",
                              **common, "expect": {"legal": steps[0].legal}})
    return cases

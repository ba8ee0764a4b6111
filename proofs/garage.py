"""Z3 proofs of the Garage module's symbol arithmetic, each with negative controls.

The card amounts are read from ``spec/modules/garage.json`` and the corner limits from
``spec/tracks/*.json`` (through :func:`proofs.track_graph.load_track_data`), not from the
engine; the rules are encoded from the words of ``spec/rules/22-garage.toml`` and the
garage rulings. Three proofs, each run per base track and under each control:

- ``garage-accelerate`` (upgrade.accelerate, upgrade.speed-increase,
  ruling.garage-accelerate-count): for every play a car can make (gear 1-4, Stress cards and
  up to three owned upgrade types, at most two copies of a type, with their printed +
  and Accelerate amounts), a used Accelerate adds exactly N per speed increase counted when
  it is used (Stress played, + on the upgrades in play, the boost if already used), all or
  none, and the whole gain reaches the corner check. Controls: ``accelerate-partial`` (any
  part of the gain), ``accelerate-skips-corner`` (the gain moves the car but is not speed),
  ``accelerate-counts-unpaid`` (an unpaid card's replacement flip counts as a +).
- ``garage-adjust`` (upgrade.adjust, ruling.garage-adjust): at every corner of the track,
  with every road token (-1/0/+1) and every Adjust total the cards in play can show, the
  adjusted limit is never below 0, a higher Adjust never costs more Heat, and Adjust
  changes the Heat by at most its size. Controls: ``adjust-unclamped``, ``adjust-inverted``.
- ``garage-unpayable-heat`` (upgrade.heat, upgrade.heat-unpayable,
  ruling.garage-unpaid-heat): for up to three cards with Heat symbols (the printed amounts),
  resolved in React in any order the player picks, with any cooldowns before each, and
  every engine 0-7 and 0-7 Heat in hand, every Heat card is kept (engine + hand + paid =
  before), the engine never goes below 0, a symbol is paid whole exactly when the engine
  holds it at the moment it is resolved, and each card it cannot pay is discarded and
  flipped for once. Controls: ``settle-at-reveal`` (payment decided before any cooldown,
  the old ruling), ``unpaid-kept`` (an unpaid card is kept without a flip),
  ``pay-what-is-there`` (the engine pays what it holds of a card's symbol).

``refines_*`` evaluate each encoding on concrete values against the engine's functions
(:mod:`heatcore.heat.modules.garage.symbols`), tying the proofs to the engine.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

import z3

from heatcore.framework.registry import spec_dir
from proofs.track_graph import BASE_TRACKS, load_track_data

ACCELERATE_CONTROLS = ("accelerate-partial", "accelerate-skips-corner",
                       "accelerate-counts-unpaid")
ADJUST_CONTROLS = ("adjust-unclamped", "adjust-inverted")
HEAT_CONTROLS = ("settle-at-reveal", "unpaid-kept", "pay-what-is-there")
MAX_ENGINE = 7  # 6 on every base track, one more from a Fog weather token
MAX_CARDS = 4  # gear 4


@cache
def _cards() -> tuple[dict[str, Any], ...]:
    data = json.loads((spec_dir() / "modules" / "garage.json").read_text(encoding="utf-8"))
    return tuple(c for c in data["cards"] if c["token"] != "H")


def _amount(card: dict[str, Any], symbol: str) -> int:
    return sum(int(s["amount"]) for s in card["symbols"] if s["symbol"] == symbol)


def _kinds(symbol: str) -> list[int]:
    """The distinct printed amounts of ``symbol`` over the upgrade types (0 included)."""
    return sorted({_amount(c, symbol) for c in _cards()} | {0})


# ---------------------------------------------------------------- Accelerate


def prove_accelerate(track_id: str, control: str | None = None) -> z3.CheckSatResult:
    """UNSAT: no play breaks the Accelerate claims (SAT under a control)."""
    limits = [int(c["limit"]) for c in load_track_data(track_id)["corners"]]
    gear, stress, boosted, unpaid, n, speed, before_boost = z3.Ints(
        "gear stress boosted unpaid n speed before_boost")
    pluses = z3.Ints("plus0 plus1 plus2 plus3")  # + on each played upgrade slot (0: none)
    used = z3.Bool("used")
    limit = z3.Int("limit")
    plus_values = _kinds("boost")
    domain = [gear >= 1, gear <= MAX_CARDS, stress >= 0, unpaid >= 0,
              stress + unpaid <= gear, boosted >= 0, boosted <= 1,
              z3.Or([n == a for a in _kinds("accelerate") if a > 0]),
              speed >= 0, speed <= 40, z3.Or([limit == v for v in limits]),
              z3.Or(before_boost == 0, before_boost == boosted)]
    for k, p in enumerate(pluses):
        domain.append(z3.Or([p == v for v in plus_values]))
        domain.append(z3.Implies(k >= gear - stress, p == 0))  # slots beyond the cards
    plus = z3.Sum(pluses)
    # encoding of the rule: increases counted at the moment of use (the boost only if it
    # came first); the replacement flip of an unpaid card is not a +
    counted = stress + plus + before_boost
    if control == "accelerate-counts-unpaid":
        counted = counted + unpaid
    gain_var = z3.Int("gain")
    gain_rule = gain_var == z3.If(used, n * counted, 0)
    if control == "accelerate-partial":
        gain_rule = z3.And(gain_var >= 0, gain_var <= z3.If(used, n * counted, 0))
    corner_speed = speed + (0 if control == "accelerate-skips-corner" else gain_var)
    # claims, from the rule text
    spec_counted = stress + plus + before_boost
    def heat(v: z3.ArithRef) -> z3.ArithRef:
        return z3.If(v - limit > 0, v - limit, 0)

    claims = z3.And(
        z3.Or(gain_var == 0, gain_var == n * spec_counted),  # all or none, N per increase
        z3.Implies(used, gain_var == n * spec_counted),
        corner_speed == speed + gain_var,  # the gain is speed for the corner check
        heat(speed) <= heat(corner_speed), heat(corner_speed) <= heat(speed) + gain_var)
    solver = z3.Solver()
    solver.add(*domain, gain_rule, z3.Not(claims))
    return solver.check()


def refines_accelerate(engine_gain: Callable[[int, int], int],
                       engine_increases: Callable[[tuple[str, ...], bool], int]) -> list[str]:
    """Disagreements of the engine's Accelerate and speed-increase count with the
    encoding, over every printed Accelerate amount and every play of up to 4 cards drawn
    from Stress and the upgrade types with a + (empty when they agree)."""
    out = []
    plus_cards = [f"G{c['type']}" for c in _cards() if _amount(c, "boost")] + ["S", "1"]
    amounts = {f"G{c['type']}": _amount(c, "boost") for c in _cards()}
    for size in range(1, MAX_CARDS + 1):
        for played in itertools.combinations_with_replacement(plus_cards, size):
            for boosted in (False, True):
                expected = played.count("S") + sum(amounts.get(c, 0) for c in played) + boosted
                got = engine_increases(tuple(played), boosted)
                if got != expected:
                    out.append(f"increases {played} boosted={boosted}: engine {got}, "
                               f"model {expected}")
                for n in _kinds("accelerate"):
                    if engine_gain(n, got) != n * expected:
                        out.append(f"accelerate {n} x {expected}: engine {engine_gain(n, got)}")
    return out


# ---------------------------------------------------------------- Adjust


@cache
def _adjust_totals() -> list[int]:
    """Every Adjust total the cards in play can show (up to 4 cards, 2 copies of a type,
    3 owned upgrade types, plus direct plays of owned cards: at most 2 copies each)."""
    amounts = [_amount(c, "adjust") for c in _cards()]
    totals = {0}
    for owned in itertools.combinations(range(len(amounts)), 3):
        for copies in itertools.product(range(3), repeat=3):
            if sum(copies) <= MAX_CARDS + 1:
                totals.add(sum(amounts[o] * k for o, k in zip(owned, copies, strict=True)))
    return sorted(totals)


def _adjusted(limit: z3.ArithRef, adjust: z3.ArithRef, control: str | None) -> z3.ArithRef:
    raw = limit - adjust if control == "adjust-inverted" else limit + adjust
    return raw if control == "adjust-unclamped" else z3.If(raw < 0, 0, raw)


def prove_adjust(track_id: str, control: str | None = None) -> z3.CheckSatResult:
    """UNSAT: the adjusted limit is never below 0, more Adjust never costs more Heat, and
    Adjust moves the Heat by at most its size (SAT under a control)."""
    limits = [int(c["limit"]) for c in load_track_data(track_id)["corners"]]
    limit, road, a, b, speed = z3.Ints("limit road a b speed")
    totals = _adjust_totals()
    domain = [z3.Or([limit == v for v in limits]), road >= -1, road <= 1, speed >= 0,
              speed <= 40, z3.Or([a == t for t in totals]), z3.Or([b == t for t in totals])]

    def heat(adjust: z3.ArithRef) -> z3.ArithRef:
        excess = speed - _adjusted(limit + road, adjust, control)
        return z3.If(excess > 0, excess, 0)

    base = z3.If(speed - (limit + road) > 0, speed - (limit + road), 0)
    claims = z3.And(_adjusted(limit + road, a, control) >= 0,
                    z3.Implies(a >= b, heat(a) <= heat(b)),
                    base - heat(a) <= z3.If(a >= 0, a, -a),
                    heat(a) - base <= z3.If(a >= 0, a, -a))
    solver = z3.Solver()
    solver.add(*domain, z3.Not(claims))
    return solver.check()


def refines_adjust(engine_limit: Callable[[int, int], int]) -> list[str]:
    """Disagreements of the engine's adjusted limit with the encoding (every printed
    limit 0-10 with road tokens, every Adjust total)."""
    out = []
    limit, adjust = z3.Ints("limit adjust")
    term = _adjusted(limit, adjust, None)
    for lim in range(-1, 12):
        for total in _adjust_totals():
            model = z3.simplify(z3.substitute(term, (limit, z3.IntVal(lim)),
                                              (adjust, z3.IntVal(total)))).as_long()
            if model != engine_limit(lim, total):
                out.append(f"limit {lim} adjust {total}: model {model}, "
                           f"engine {engine_limit(lim, total)}")
    return out


# ---------------------------------------------------------------- unpayable Heat


def _costs() -> list[int]:
    return sorted({_amount(c, "heat") for c in _cards() if _amount(c, "heat")})


def prove_unpayable_heat(track_id: str, control: str | None = None) -> z3.CheckSatResult:
    """UNSAT: resolving up to three cards' Heat symbols in React, in any order the player
    picks and with any cooldowns taken before each, keeps every Heat card, never empties
    the engine below 0, pays a symbol whole exactly when the engine holds it at that moment,
    and discards and flips once for every card it cannot pay (SAT under a control). The
    track only sets the engine's size."""
    heat = load_track_data(track_id)["heat"]
    engine0, hand0 = z3.Int("engine"), z3.Int("hand_heat")
    count = 3  # a player owns three upgrades; at most three played cards show Heat
    cost = z3.Ints("c0 c1 c2")  # the slots in the order the player resolves them
    cool = z3.Ints("cool0 cool1 cool2")  # Heat cooled (any source) just before each slot
    present = z3.Bools("p0 p1 p2")
    domain = [engine0 >= 0, engine0 <= max(MAX_ENGINE, int(heat) + 1), hand0 >= 0,
              hand0 <= 7, *[c >= 0 for c in cool], z3.Sum(cool) <= hand0]
    for c in cost:
        domain.append(z3.Or([c == v for v in _costs()]))
    engine, at_reveal = engine0, engine0  # at_reveal: the engine as the reveal saw it
    paid, charged, claims = [], [], []
    for k in range(count):
        engine = engine + cool[k]
        take = z3.And(present[k], engine >= cost[k])
        if control == "settle-at-reveal":  # decided before any cooldown, as the old ruling
            take = z3.And(present[k], at_reveal >= cost[k])
        if control == "pay-what-is-there":
            take = z3.And(present[k], engine > 0)
        amount = z3.If(take, z3.If(engine >= cost[k], cost[k], engine), 0)
        claims += [engine - amount >= 0,
                   z3.Implies(present[k], take == (engine >= cost[k])),
                   z3.Implies(take, amount == cost[k])]
        paid.append(take)
        charged.append(amount)
        at_reveal = at_reveal - z3.If(take, cost[k], 0)
        engine = engine - amount
    unpaid = [z3.And(present[k], z3.Not(paid[k])) for k in range(count)]
    flips = z3.Sum([z3.If(u, 1, 0) for u in unpaid])
    discarded = z3.Sum([z3.If(u, 1, 0) for u in unpaid])
    if control == "unpaid-kept":
        flips = discarded = z3.IntVal(0)
    hand = hand0 - z3.Sum(cool)
    claims += [engine + hand + z3.Sum(charged) == engine0 + hand0,
               flips == z3.Sum([z3.If(u, 1, 0) for u in unpaid]),
               discarded == flips]
    solver = z3.Solver()
    solver.add(*domain, z3.Not(z3.And(*claims)))
    return solver.check()


def refines_unpayable(pay: Callable[[int, int], int | None]) -> list[str]:
    """Disagreements of the engine's payment of one Heat symbol with the encoding's rule
    (paid whole when the engine holds it, else nothing) over every printed Heat amount and
    engine 0-7; ``pay(engine, cost)`` returns the engine after, or None when unpaid."""
    out = []
    for cost in _costs():
        for engine in range(MAX_ENGINE + 1):
            want = engine - cost if engine >= cost else None
            got = pay(engine, cost)
            if got != want:
                out.append(f"Heat {cost} with engine {engine}: engine {got}, model {want}")
    return out


PROOFS = {
    "garage-accelerate": (prove_accelerate, ACCELERATE_CONTROLS),
    "garage-adjust": (prove_adjust, ADJUST_CONTROLS),
    "garage-unpayable-heat": (prove_unpayable_heat, HEAT_CONTROLS),
}


def run(track_ids: tuple[str, ...] = BASE_TRACKS) -> dict[tuple[str, str, str | None], str]:
    """(proof, track, control) -> "unsat" / "sat": proofs must be unsat, controls sat."""
    out: dict[tuple[str, str, str | None], str] = {}
    for name, (prove, controls) in PROOFS.items():
        for track in track_ids:
            out[(name, track, None)] = str(prove(track))
            for control in controls:
                out[(name, track, control)] = str(prove(track, control))
    return out


@dataclass(frozen=True)
class Claim:
    """A Garage proof as the rulebook site and ``heatcore prove --list`` show it."""

    id: str
    claim: str
    rules: tuple[str, ...]
    controls: tuple[str, ...]


CATALOGUE = (
    Claim("garage-accelerate", "For every play (gear 1-4, Stress and owned upgrades with their "
          "printed + and Accelerate amounts), a used Accelerate adds exactly N per speed "
          "increase counted when it is used, all or none, and the whole gain is speed for the "
          "corner check (the corner's Heat grows by at most the gain).",
          ("upgrade.accelerate", "upgrade.speed-increase", "ruling.garage-accelerate-count"),
          ACCELERATE_CONTROLS),
    Claim("garage-adjust", "At every corner of each base track, with every road token and every "
          "Adjust total the cards in play can show, the adjusted limit is never below 0, a "
          "higher Adjust never costs more Heat, and Adjust changes the Heat by at most its size.",
          ("upgrade.adjust", "ruling.garage-adjust"), ADJUST_CONTROLS),
    Claim("garage-unpayable-heat", "For up to three cards with Heat symbols resolved in React "
          "in any order, with any cooldowns before each, and every engine 0-7: every Heat card "
          "is kept, a symbol is paid whole exactly when the engine holds it at that moment, and "
          "each card it cannot pay is discarded and flipped for once.",
          ("upgrade.heat", "upgrade.heat-unpayable", "ruling.garage-unpaid-heat"),
          HEAT_CONTROLS),
)

"""Edge-case miner for the modules: Z3 finds distinct witnesses over the track data, each is
played in the engine, checked against what the encoding predicts, and kept as a case.

The queries use the module encoding of :mod:`proofs.modules` (corner lines and sectors read
from ``spec/tracks``, not from the engine). Situations:

- ``leave-no-cooldown``: a car that lands on the last space of a Cloud weather sector is
  refused cooldown there, and may cool down after its adrenaline move takes it into the
  next sector in the same turn (road.where-the-car-is, weather.no-cooldown; the online
  adaptation's bugs 102781 and 103496 judged the sector at the turn's start).
- ``overheat-spin``: a car crossing an Overheat corner too fast with an engine that holds
  exactly the excess: it could pay the printed excess, but the Overheat's extra Heat makes
  it spin (road.overheat, corner.spin).
- ``slipstream-plus-three``: a slipstream of 2 + 3 (a sector's Storm/Sun +2 and a
  Slipstream boost +1 together). No witness exists: a sector holds one road token, so no
  sector gives both (UNSAT on every base track); the control lets a sector hold two tokens
  and finds one (SAT). The situation is a proof, not a source of cases.
- The Garage's upgrade edge cases (``adjust-corner``, ``refresh-empty-deck``,
  ``salvage-reshuffle``) are mined by :mod:`proofs.garage_miner`.
- The Legend stop before a second corner line is mined by
  :func:`proofs.modules.mine_legend_stops`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import z3

from proofs import garage_miner
from proofs.module_witness import ModuleWitness
from proofs.modules import Lines, lines, sector_model
from proofs.track_graph import BASE_TRACKS, load_track_data

#: Corner-token fillers for corners whose road token must not act on a sector (the box
#: holds two of each).
CORNER_TOKENS = ("limit-plus", "limit-plus", "overheat", "overheat", "limit-minus",
                 "limit-minus")
BACKGROUND = ("U0", "U5", "1", "1", "2", "2", "3")  # a car with this hand plays U0, stays


def _first_lap(tl: Lines) -> list[tuple[int, int, int]]:
    """(line position, printed limit, corner index) of the first lap's corner lines."""
    return [(at, limit, corner) for at, limit, corner in zip(tl.at, tl.limit, tl.corner,
                                                             strict=True)
            if 1 <= at <= tl.spaces]


def _road(corners: int, weather_sector: int | None = None,
          token_at: dict[int, str] | None = None) -> tuple[str, ...]:
    """Road tokens: ``weather`` on one sector, the given tokens, fillers elsewhere."""
    fillers = list(CORNER_TOKENS)
    given = dict(token_at or {})
    if weather_sector is not None:
        given[weather_sector] = "weather"
    for token in given.values():
        if token in fillers:
            fillers.remove(token)
    return tuple(given[k] if k in given else fillers.pop(0) for k in range(corners))


def mine_leave_no_cooldown(track: str, count: int = 4) -> list[ModuleWitness]:
    """Distinct (start, card value) from which a gear-1 card lands a car on the last space of
    a sector, which Z3 shows is in the sector of the start while the next space is not."""
    tl = lines(track)
    start, value = z3.Ints("start value")
    corners = len(_first_lap(tl))
    # the smallest witnesses first (lexicographic), so the result does not depend on the
    # solver's state: fixtures regenerate byte for byte in any process
    solver = z3.Optimize()
    solver.minimize(start)
    solver.minimize(value)
    solver.add(start >= 1, start <= tl.spaces - 5, value >= 1, value <= 4,
               sector_model(tl, start) == sector_model(tl, start + value),
               sector_model(tl, start + value) != sector_model(tl, start + value + 1))
    out: list[ModuleWitness] = []
    while len(out) < count and solver.check() == z3.sat:
        model = solver.model()
        a, v = model[start].as_long(), model[value].as_long()
        sector = z3.simplify(z3.substitute(sector_model(tl, start), (start, z3.IntVal(a))))
        road = _road(corners, weather_sector=sector.as_long())
        out.append(ModuleWitness("leave-no-cooldown", track, a, (str(v),), road, -1,
                                 {"cooldown_at_landing": False, "cooldown_after_move": True,
                                  "landing": a + v}))
        solver.add(z3.Or(start != a, value != v))
    return sorted(out, key=lambda w: (w.start, w.cards))


def mine_overheat_spin(track: str, count: int = 4) -> list[ModuleWitness]:
    """Distinct (start, two cards) whose gear-2 move crosses exactly one corner line, too
    fast for its limit; an engine holding exactly the excess spins there once the corner
    holds an Overheat token."""
    tl = lines(track)
    first = _first_lap(tl)
    start, c1, c2 = z3.Ints("start c1 c2")
    speed = c1 + c2
    solver = z3.Optimize()  # the smallest witnesses first, as in mine_leave_no_cooldown
    for term in (start, c1, c2):
        solver.minimize(term)
    options = []
    for at, limit, _ in first:
        crossed = z3.Sum([z3.If(z3.And(start <= other, other < start + speed), 1, 0)
                          for other in tl.at])
        options.append(z3.And(start <= at, at < start + speed, crossed == 1, speed > limit))
    heat = int(load_track_data(track)["heat"])
    solver.add(start >= 1, start + 8 <= tl.spaces, c1 >= 1, c1 <= 4, c2 >= c1, c2 <= 4,
               z3.Or(options))
    for at, limit, _ in first:  # the engine must be able to hold the excess
        solver.add(z3.Implies(z3.And(start <= at, at < start + speed), speed - limit <= heat))
    out: list[ModuleWitness] = []
    corners = len(first)
    while len(out) < count and solver.check() == z3.sat:
        model = solver.model()
        a, v1, v2 = (model[x].as_long() for x in (start, c1, c2))
        at, limit, corner = next(line for line in first if a <= line[0] < a + v1 + v2)
        excess = v1 + v2 - limit
        road = _road(corners, token_at={corner: "overheat"})
        out.append(ModuleWitness("overheat-spin", track, a, (str(v1), str(v2)), road,
                                 excess, {"corner": corner + 1, "limit": limit,
                                          "excess": excess, "spins": True,
                                          "heat_paid": excess}))
        solver.add(z3.Or(start != a, c1 != v1, c2 != v2))
    return sorted(out, key=lambda w: (w.start, w.cards))


def prove_no_slipstream_plus_three(track: str, control: str | None = None) -> z3.CheckSatResult:
    """UNSAT: no sector gives a slipstream bonus of 3 (its one road token gives +2 through
    a Storm or Sun Weather token, or +1 as a Slipstream boost, never both). Control
    ``stacked-tokens``: a sector holding two road tokens gives +3 (SAT)."""
    tl = lines(track)
    corners = len(_first_lap(tl))
    weather = z3.Int("weather")  # 2 Storm, 5 Sun: the +2 weather tokens (ids as proofs.modules)
    token = [z3.Int(f"token{k}") for k in range(corners)]  # 0 Weather, 5 Slipstream boost
    extra = [z3.Int(f"extra{k}") for k in range(corners)]  # a second token (control only)
    solver = z3.Solver()
    solver.add(weather >= 0, weather <= 5,
               *[z3.And(t >= 0, t <= 5) for t in token],
               *[z3.And(e >= 0, e <= 5) for e in extra])

    def bonus(tok: z3.ArithRef) -> z3.ArithRef:
        return z3.If(z3.And(tok == 0, z3.Or(weather == 2, weather == 5)), 2,
                     z3.If(tok == 5, 1, 0))

    totals = [bonus(token[k]) + (bonus(extra[k]) if control == "stacked-tokens" else 0)
              for k in range(corners)]
    position = z3.Int("position")
    solver.add(position >= 1, position <= tl.spaces)
    solver.add(z3.Or([z3.And(sector_model(tl, position) == k, totals[k] == 3)
                      for k in range(corners)]))
    return solver.check()


MINERS: dict[str, tuple[str, tuple[str, ...], Callable[[str, int], list[ModuleWitness]]]] = {
    "leave-no-cooldown": ("a car leaves a Cloud sector by its adrenaline move and may cool "
                          "down again", ("road.where-the-car-is", "weather.no-cooldown",
                                         "adrenaline.effects"), mine_leave_no_cooldown),
    "overheat-spin": ("an Overheat corner's extra Heat makes a car spin that could pay the "
                      "printed excess", ("road.overheat", "corner.spin", "corner.pay-heat"),
                      mine_overheat_spin),
    **garage_miner.MINERS,
}
#: Situations proved impossible instead of mined (name -> (proof, its control)).
IMPOSSIBLE = {"slipstream-plus-three": (prove_no_slipstream_plus_three, "stacked-tokens")}


def mine(name: str, per_track: int = 2,
         tracks: tuple[str, ...] = BASE_TRACKS) -> list[ModuleWitness]:
    """Up to ``per_track`` witnesses of situation ``name`` on each track."""
    miner = MINERS[name][2]
    return [w for track in tracks for w in miner(track, per_track)]


# ---------------------------------------------------------------- witnesses as cases

JSON = Any
Add = Callable[..., None]  # (rule, id, description, state, expect, source, also=())


def _play_others(binding: Any, data: JSON, car: str) -> JSON:
    """Answer every choice of the cars other than ``car`` with its quietest option (end
    react, no slipstream, discard nothing) until ``car`` must choose."""
    while True:
        legal = binding.legal(data)
        if not legal or legal[0].startswith(car + " "):
            return data
        quiet = next((a for a in legal if a.endswith(("end react", "no slipstream",
                                                       "discard nothing"))), legal[0])
        data, _ = binding.apply(data, quiet)


def leave_no_cooldown_cases(witness: ModuleWitness, number: int, add: Add) -> list[str]:
    """Two cases from a witness (a refused cooldown on the Cloud sector's last space, the
    cooldown open after the adrenaline move); the disagreements with the prediction."""
    from heatcore.heat.conformance.binding import HeatBinding
    from heatcore.heat.conformance.module_cases import crafted_state
    from heatcore.heat.notation import state_to_dict

    binding = HeatBinding()
    value = witness.cards[0]
    hand = (value, "H", "H", "U0", *(c for c in ("1", "2", "3", "4") if c != value))
    state = crafted_state(witness.track, [(witness.start + 20, BACKGROUND),
                                          (witness.start, hand)], [], ("weather",),
                          weather="cloud", road=witness.road)
    data = state_to_dict(state)
    data, _ = binding.apply(data, "P1 gear 1 play U0")
    data, _ = binding.apply(data, f"P2 gear 1 play {value}")
    data = _play_others(binding, data, "P2")
    problems = []
    at = data["cars"][1]["position"]
    if at != witness.predicted["landing"]:
        problems.append(f"P2 landed on {at}, the encoding says {witness.predicted['landing']}")
    before = binding.legal(data)
    if any(a.startswith("P2 cooldown") for a in before):
        problems.append(f"weather.no-cooldown: cooldown offered on {at}, in the Cloud sector")
    if "P2 adrenaline move" not in before:
        problems.append("adrenaline.effects: P2 (last) has no adrenaline move")
        return problems
    after, _ = binding.apply(data, "P2 adrenaline move")
    if not any(a.startswith("P2 cooldown") for a in binding.legal(after)):
        problems.append("road.where-the-car-is: no cooldown after leaving the Cloud sector")
    if problems:
        return problems
    where = f"{witness.track} space {at} (from {witness.start}, card {value})"
    add("weather.no-cooldown", f"miner.leave-no-cooldown.{witness.track}.{number}.refused",
        f"Mined by Z3: P2 lands on {where}, the last space of a Cloud sector: its cooldown is "
        "refused", data, {"rejection": {"action": "P2 cooldown 1", "kind": "illegal-action",
                                        "rule": "weather.no-cooldown"}},
        f"mined:leave-no-cooldown:{witness.track}:{number}")
    add("road.where-the-car-is", f"miner.leave-no-cooldown.{witness.track}.{number}.left",
        f"Mined by Z3: from {where}, the adrenaline move leaves the Cloud sector and the "
        "cooldown opens in the same turn", after, {"legal": binding.legal(after)},
        f"mined:leave-no-cooldown:{witness.track}:{number}",
        also=("road.placement", "weather.sector-only"))
    return []


def overheat_spin_cases(witness: ModuleWitness, number: int, add: Add) -> list[str]:
    """A case from a witness (the Overheat corner makes the car spin); the disagreements."""
    from heatcore.framework.values import replace
    from heatcore.heat.conformance.binding import HeatBinding
    from heatcore.heat.conformance.module_cases import crafted_state
    from heatcore.heat.notation import state_to_dict
    from heatcore.heat.validity import validate

    binding = HeatBinding()
    hand = (*witness.cards, "U0", "U5", "1", "2", "3")
    state = crafted_state(witness.track, [(witness.start, hand),
                                          (max(1, witness.start - 12), BACKGROUND)],
                          [], ("weather",), weather="storm", road=witness.road)
    car = state.cars[0]
    spare = car.engine - witness.engine
    state = validate(state.with_car(0, replace(car, engine=witness.engine,
                                               discard=car.discard + ("H",) * spare)))
    start = state_to_dict(state)
    steps = []
    data = start
    for action in (f"P1 gear 2 play {' '.join(witness.cards)}", "P2 gear 1 play U0"):
        after, events = binding.apply(data, action)
        steps.append({"action": action, "state": after, "events": events})
        data = after
    while binding.legal(data) and binding.legal(data)[0].startswith("P1 ") and not any(
            e["kind"] == "spun-out" for s in steps for e in s["events"]):
        legal = binding.legal(data)
        action = next((a for a in legal if a.endswith(("end react", "no slipstream"))),
                      legal[0])
        after, events = binding.apply(data, action)
        steps.append({"action": action, "state": after, "events": events})
        data = after
    spins = [e for s in steps for e in s["events"] if e["kind"] == "spun-out"]
    predicted = witness.predicted
    problems = []
    if not spins:
        problems.append(f"road.overheat: no spin at corner {predicted['corner']}")
    elif (spins[0]["corner"], spins[0]["heat"]) != (predicted["corner"], predicted["heat_paid"]):
        problems.append(f"corner.spin: spun at corner {spins[0]['corner']} paying "
                        f"{spins[0]['heat']}, the encoding says corner {predicted['corner']} "
                        f"paying {predicted['heat_paid']}")
    if problems:
        return problems
    add("road.overheat", f"miner.overheat-spin.{witness.track}.{number}",
        f"Mined by Z3: P1 from {witness.start} in gear 2 plays {' '.join(witness.cards)} "
        f"across the Overheat corner {predicted['corner']} (limit {predicted['limit']}) with "
        f"{witness.engine} Heat in its engine, the printed excess: the Overheat's extra Heat "
        "makes it spin", start, {"steps": steps},
        f"mined:overheat-spin:{witness.track}:{number}")
    return []


CASES: dict[str, Callable[[ModuleWitness, int, Add], list[str]]] = {
    "leave-no-cooldown": leave_no_cooldown_cases,
    "overheat-spin": overheat_spin_cases,
    **garage_miner.CASES,
}


def mined_cases(add: Add, per_track: int = 2) -> list[str]:
    """Every witness of every mined situation as cases (through ``add``); the problems of
    witnesses the engine plays otherwise than the encoding predicts (none expected)."""
    problems = []
    for name in MINERS:
        for number, witness in enumerate(mine(name, per_track), start=1):
            problems += [f"{name} {witness.track} #{number}: {p}"
                         for p in CASES[name](witness, number, add)]
    return problems

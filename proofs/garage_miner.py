"""Edge-case miner for the Garage's upgrades: Z3 finds the smallest witnesses over the card
data (``spec/modules/garage.json``, read by :mod:`proofs.garage`) and the corner lines
(``spec/tracks``, read by :mod:`proofs.modules`), not from the engine; each is played in
the engine, checked against what the encoding predicts, and kept as a case.

- ``adjust-corner``: the cheapest way to take a corner above its printed limit with an
  Adjust card (upgrade.adjust): gear 2, an Adjust card and a basic card, crossing one corner
  line faster than its limit but within the adjusted limit; the cost (the card's Heat plus
  the corner's excess) as small as possible, then the lowest start and values.
- ``refresh-empty-deck``: a Refresh with an empty deck (upgrade.refresh, deck.reshuffle):
  the refreshed card is the deck's only card at the clean-up, so the replenish draws it
  back, then reshuffles the discard pile for the rest of the hand.
- ``salvage-reshuffle``: a Salvage that reshuffles twice (upgrade.salvage, deck.reshuffle):
  the salvaged cards and a short deck are shuffled together, then the replenish needs more
  cards than that deck holds and reshuffles the discard pile as well.

Every move crosses no corner line it cannot take (the refresh and salvage witnesses cross
none), so the witness is about the piles alone.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import z3

from proofs.garage import _amount, _cards
from proofs.module_witness import ModuleWitness
from proofs.modules import lines

#: The other car's upgrades (basic, no symbol that acts in React: G8 and G9 choose a speed).
OTHER_UPGRADES = ("G8", "G9", "G10")
BASIC_VALUES = (1, 2, 3, 4)
REFRESH_CARD = "G34"  # speed 4, Refresh
SALVAGE_CARD = "G22"  # speed 2, Salvage 2


def _fill(cards: tuple[str, ...], size: int) -> tuple[str, ...]:
    """``cards`` and basic cards (the lowest first, three of each value in all) up to
    ``size``."""
    left = Counter({str(v): 3 for v in BASIC_VALUES})
    left.subtract(cards)
    extra = [c for c in sorted(left.elements())][:size - len(cards)]
    return (*cards, *extra)


def _card(token: str) -> dict[str, Any]:
    return next(c for c in _cards() if c["token"] == token)


def _adjust_cards() -> list[tuple[str, int, int, int]]:
    """(token, speed, adjust, Heat) of every single-speed Adjust card without a + (a + would
    make the speed a chance outcome)."""
    out = []
    for c in _cards():
        adjust = _amount(c, "adjust")
        if adjust > 0 and len(c["speed"]) == 1 and not _amount(c, "boost"):
            out.append((c["token"], int(c["speed"][0]), adjust, _amount(c, "heat")))
    return out


def _first_lap_lines(track: str) -> list[tuple[int, int]]:
    tl = lines(track)
    return [(at, limit) for at, limit in zip(tl.at, tl.limit, strict=True)
            if 1 <= at <= tl.spaces]


def _crossed(track: str, start: z3.ArithRef, end: z3.ArithRef) -> z3.ArithRef:
    return z3.Sum([z3.If(z3.And(start <= at, at < end), 1, 0)
                   for at, _ in _first_lap_lines(track)])


def mine_adjust_corner(track: str, count: int = 4) -> list[ModuleWitness]:
    """Distinct (start, Adjust card, basic value): gear 2 crossing one corner line faster
    than its printed limit, at the smallest cost (card Heat + excess over the adjusted
    limit), then the lowest start and values."""
    table = _adjust_cards()
    first = _first_lap_lines(track)
    spaces = lines(track).spaces
    start, pick, value = z3.Ints("start pick value")

    def column(k: int) -> z3.ArithRef:
        out: z3.ArithRef = z3.IntVal(table[-1][k])
        for index in range(len(table) - 2, -1, -1):
            out = z3.If(pick == index, table[index][k], out)
        return out

    speed, adjust, heat = column(1) + value, column(2), column(3)
    excess = z3.Int("excess")
    solver = z3.Optimize()
    cost = z3.Int("cost")
    solver.add(start >= 1, start + 12 <= spaces, pick >= 0, pick < len(table),
               value >= 1, value <= 4, _crossed(track, start, start + speed) == 1)
    options = []
    for at, limit in first:
        here = z3.And(start <= at, at < start + speed)
        options.append(z3.And(here, speed > limit,
                              excess == z3.If(speed - limit - adjust > 0,
                                              speed - limit - adjust, 0)))
    solver.add(z3.Or(options), cost == heat + excess)
    for term in (cost, start, pick, value):  # lexicographic: the cheapest, then the smallest
        solver.minimize(term)
    out: list[ModuleWitness] = []
    while len(out) < count and solver.check() == z3.sat:
        model = solver.model()
        a, k, v = (model[x].as_long() for x in (start, pick, value))
        token, card_speed, plus, card_heat = table[k]
        at, limit = next(line for line in first if a <= line[0] < a + card_speed + v)
        corner = [line[0] for line in first].index(at) + 1
        paid = max(0, card_speed + v - limit - plus)
        out.append(ModuleWitness("adjust-corner", track, a, (token, str(v)), (), -1,
                                 {"corner": corner, "printed": limit, "limit": limit + plus,
                                  "speed": card_speed + v, "corner_heat": paid,
                                  "card_heat": card_heat}))
        solver.add(z3.Or(start != a, pick != k, value != v))
    return sorted(out, key=lambda w: (w.start, w.cards))


def _pile_witnesses(track: str, count: int, situation: str, card: str,
                    least_deck: int) -> list[ModuleWitness]:
    """Distinct (start, gear, basic values) for ``card`` played with basic cards in a gear of
    2-4 crossing no corner line, where the replenish must draw more cards than the deck
    holds after the symbol (``least_deck``: the deck's size then, before the draw)."""
    spaces = lines(track).spaces
    start, gear = z3.Ints("start gear")
    values = [z3.Int(f"v{k}") for k in range(3)]
    speed = int(_card(card)["speed"][0]) + z3.Sum(
        [z3.If(gear > k + 1, values[k], 0) for k in range(3)])
    solver = z3.Optimize()
    solver.add(start >= 16, start + 20 <= spaces, gear >= 2, gear <= 4,  # P2 15 behind
               *[z3.And(v >= 1, v <= 4) for v in values],
               *[z3.Implies(gear <= k + 1, values[k] == 1) for k in range(3)],
               *[values[k] <= values[k + 1] for k in range(2)],
               _crossed(track, start, start + speed) == 0,
               gear > least_deck)  # the replenish draws `gear` cards: more than the deck
    for term in (gear, start, *values):
        solver.minimize(term)
    out: list[ModuleWitness] = []
    while len(out) < count and solver.check() == z3.sat:
        model = solver.model()
        a, g = model[start].as_long(), model[gear].as_long()
        basics = tuple(str(model[v].as_long()) for v in values[:g - 1])
        out.append(ModuleWitness(situation, track, a, (card, *basics), (), -1,
                                 {"gear": g, "deck_before_draw": least_deck,
                                  "after_reshuffle": g - least_deck}))
        solver.add(z3.Or(start != a, gear != g,
                         *[v != int(b) for v, b in zip(values, basics, strict=False)]))
    return sorted(out, key=lambda w: (w.start, w.cards))


def mine_refresh_empty_deck(track: str, count: int = 4) -> list[ModuleWitness]:
    """Refresh with an empty deck: the refreshed card is the deck's only card at the
    clean-up (deck 0 + 1 refreshed), so any gear of 2 or more reshuffles after drawing it."""
    return _pile_witnesses(track, count, "refresh-empty-deck", REFRESH_CARD, 0 + 1)


def mine_salvage_reshuffle(track: str, count: int = 4) -> list[ModuleWitness]:
    """Salvage of one card with no other card in the deck: the shuffled deck holds 0 + 1
    cards, so any gear of 2 or more reshuffles the discard pile at the replenish."""
    return _pile_witnesses(track, count, "salvage-reshuffle", SALVAGE_CARD, 0 + 1)


MINERS: dict[str, tuple[str, tuple[str, ...], Callable[[str, int], list[ModuleWitness]]]] = {
    "adjust-corner": ("the cheapest way to take a corner above its printed limit with an "
                      "Adjust card", ("upgrade.adjust", "ruling.garage-adjust", "corner.check"),
                      mine_adjust_corner),
    "refresh-empty-deck": ("a Refresh with an empty deck: the card is drawn back, then the "
                           "discard pile reshuffled", ("upgrade.refresh", "deck.reshuffle",
                                                       "replenish.draw"),
                           mine_refresh_empty_deck),
    "salvage-reshuffle": ("a Salvage whose shuffled deck is too short for the replenish: "
                          "two shuffles in one turn", ("upgrade.salvage", "deck.reshuffle",
                                                       "replenish.draw"),
                          mine_salvage_reshuffle),
}


# ---------------------------------------------------------------- witnesses as cases

JSON = Any
Add = Callable[..., None]  # (rule, id, description, state, expect, source, also=())


def garage_scene(track: str, start: int, hand: tuple[str, ...], deck: tuple[str, ...],
                 upgrades: tuple[str, ...]) -> JSON:
    """A valid state (as JSON) with the Garage: P1 at ``start`` (leader, racing line) owning
    ``upgrades``, holding ``hand``, its deck exactly ``deck`` (top first) and every other
    card of its own in the discard pile; P2 fifteen spaces behind, as dealt."""
    from heatcore.framework.values import replace
    from heatcore.heat.modules.garage.data import garage_deck
    from heatcore.heat.modules.weather import starting_cards
    from heatcore.heat.notation import state_to_dict
    from heatcore.heat.rounds import standing
    from heatcore.heat.setup import RaceSetup, start_race
    from heatcore.heat.track import load_track
    from heatcore.heat.validity import validate

    core = tuple(starting_cards(load_track(track), None).deck)
    decks = (tuple(sorted(garage_deck(core, upgrades))),
             tuple(sorted(garage_deck(core, OTHER_UPGRADES))))
    setup = RaceSetup(track, 2, 1, (0, 1), decks, ("garage",),
                      upgrades=(upgrades, OTHER_UPGRADES))
    state, _ = start_race(setup)
    car = state.cars[0]
    rest = Counter(car.hand + car.deck + car.discard)
    rest.subtract(Counter(hand) + Counter(deck))
    assert all(n >= 0 for n in rest.values()), f"{hand} {deck}: not P1's cards"
    discard = tuple(sorted(rest.elements()))
    p1 = replace(car, position=start, racing_line=True, hand=tuple(sorted(hand)), deck=deck,
                 discard=discard)
    p2 = replace(state.cars[1], position=max(1, start - 15), racing_line=True)
    state = replace(state, cars=(p1, p2), round=1 + -(-start // 20))
    state = replace(state, order=standing(state, state.on_track()), cursor=0)
    return state_to_dict(validate(state))


def _play_turn(binding: Any, data: JSON, plan: str, wanted: Callable[[str], bool],
               ) -> tuple[JSON, list[JSON]]:
    """P1 plays ``plan``, P2 its first plan; then P1's turn to its end: the actions
    ``wanted`` picks first, else the quietest; chance outcomes by the perft rule (seed 0)."""
    steps: list[JSON] = []

    def step(action: str) -> None:
        nonlocal data
        after, events = binding.apply(data, action)
        steps.append({"action": action, "state": after, "events": events})
        data = after

    step(plan)
    step(binding.legal(data)[0])
    for _ in range(40):
        chance = binding.perft_chance(data, 0)
        if chance is not None:
            if not chance.startswith("P1 "):
                break
            step(chance)
            continue
        legal = binding.legal(data)
        if not legal or not legal[0].startswith("P1 "):
            break
        choice = next((a for a in legal if wanted(a)), None) or next(
            (a for a in legal if a.endswith(("end react", "no slipstream",
                                              "discard nothing"))), legal[0])
        step(choice)
    return data, steps


def adjust_corner_cases(witness: ModuleWitness, number: int, add: Add) -> list[str]:
    """A case from a witness (the corner taken above its printed limit at the adjusted
    limit); the disagreements with the prediction."""
    from heatcore.heat.conformance.binding import HeatBinding

    binding = HeatBinding()
    token, value = witness.cards
    p = witness.predicted
    hand = _fill((token, value), 7)
    deck = _fill(hand, 13)[7:]  # the rest of the basic cards, for the Scrap
    start = garage_scene(witness.track, witness.start, hand, deck, (token, "G1", "G4"))
    cards = " ".join(sorted((token, value)))
    _, steps = _play_turn(binding, start, f"P1 gear 2 play {cards}",
                          lambda a: a.startswith(f"P1 {token} "))
    corners = [e for s in steps for e in s["events"]
               if e["kind"] in ("corner", "spun-out") and e["car"] == "P1"]
    problems = []
    if not corners:
        problems.append(f"upgrade.adjust: no corner checked (corner {p['corner']} expected)")
    elif (corners[0]["kind"], corners[0]["corner"], corners[0]["limit"],
          corners[0]["heat"]) != ("corner", p["corner"], p["limit"], p["corner_heat"]):
        problems.append(f"upgrade.adjust: {corners[0]['kind']} at corner "
                        f"{corners[0]['corner']} limit {corners[0]['limit']} paying "
                        f"{corners[0].get('heat')}, the encoding says corner {p['corner']} "
                        f"limit {p['limit']} paying {p['corner_heat']}")
    if problems:
        return problems
    add("upgrade.adjust", f"miner.adjust-corner.{witness.track}.{number}",
        f"Mined by Z3: on {witness.track}, P1 from {witness.start} in gear 2 plays {cards} at "
        f"{p['speed']} across "
        f"corner {p['corner']} (printed limit {p['printed']}): {token}'s Adjust raises the "
        f"limit to {p['limit']}, so the corner costs {p['corner_heat']} Heat (the card's own "
        f"Heat: {p['card_heat']}), the cheapest such turn", start, {"steps": steps},
        f"mined:adjust-corner:{witness.track}:{number}",
        also=("ruling.garage-adjust", "corner.check"))
    return []


def _pile_cases(witness: ModuleWitness, number: int, add: Add, symbol: str,
                deck: tuple[str, ...], discard_pick: str) -> list[str]:
    """A case from a refresh or salvage witness; the disagreements with the prediction:
    after the symbol the replenish draws what the deck holds, then reshuffles the discard
    pile and draws the rest, ending with 7 cards."""
    from heatcore.heat.conformance.binding import HeatBinding

    binding = HeatBinding()
    token, *basics = witness.cards
    p = witness.predicted
    hand = _fill(tuple(witness.cards), 7)
    upgrades = (token, "G1", "G4")
    start = garage_scene(witness.track, witness.start, hand, deck, upgrades)
    cards = " ".join(sorted(witness.cards, key=lambda c: (c.startswith("G"), c)))
    plan = f"P1 gear {p['gear']} play {' '.join(sorted(witness.cards))}"
    final, steps = _play_turn(binding, start, plan,
                              lambda a: a.startswith(f"P1 {token} {symbol}") and (
                                  symbol != "salvage" or a.endswith(f" {discard_pick}")))
    events = [e for s in steps for e in s["events"] if e["car"] == "P1"]
    drew = [e["count"] for e in events if e["kind"] == "drew"]
    problems = []
    used = [e for e in events if e["kind"] in ("refresh-chosen", "salvaged")]
    if not used:
        problems.append(f"upgrade.{symbol}: the symbol was not used")
    if drew[-2:] != [p["deck_before_draw"], p["after_reshuffle"]] or not any(
            e["kind"] == "deck-empty" for e in events):
        problems.append(f"deck.reshuffle: drew {drew}, the encoding says "
                        f"{p['deck_before_draw']} then {p['after_reshuffle']} after a reshuffle")
    hand_after = final["cars"][0]["hand"]
    if len(hand_after) != 7:
        problems.append(f"replenish.draw: {len(hand_after)} cards in hand")
    back = token if symbol == "refresh" else discard_pick
    if back not in hand_after:
        problems.append(f"upgrade.{symbol}: {back} is not back in hand")
    if problems:
        return problems
    what = ("Refresh with an empty deck: the refreshed card is the deck's only card, drawn "
            "back first" if symbol == "refresh" else
            f"Salvage of {discard_pick} with an empty deck: the deck shuffled is that one card")
    add(f"upgrade.{symbol}", f"miner.{witness.situation}.{witness.track}.{number}",
        f"Mined by Z3: on {witness.track}, P1 from {witness.start} in gear {p['gear']} plays "
        f"{cards}; {what}, then the replenish reshuffles the discard pile for the rest of "
        f"the hand ({p['after_reshuffle']} more)", start, {"steps": steps},
        f"mined:{witness.situation}:{witness.track}:{number}",
        also=("deck.reshuffle", "replenish.draw"))
    return []


def refresh_empty_deck_cases(witness: ModuleWitness, number: int, add: Add) -> list[str]:
    """A case from a refresh witness: the deck is empty when the turn starts."""
    return _pile_cases(witness, number, add, "refresh", (), "")


def salvage_reshuffle_cases(witness: ModuleWitness, number: int, add: Add) -> list[str]:
    """A case from a salvage witness: the deck is empty, one 4 is salvaged."""
    return _pile_cases(witness, number, add, "salvage", (), "4")


CASES: dict[str, Callable[[ModuleWitness, int, Add], list[str]]] = {
    "adjust-corner": adjust_corner_cases,
    "refresh-empty-deck": refresh_empty_deck_cases,
    "salvage-reshuffle": salvage_reshuffle_cases,
}

"""Fixture cases of the modules: steps cut from seeded races that play them, chosen by what
the step shows (a rule of the module at work), each rule at least ``PER_RULE`` times."""

from __future__ import annotations

import random
from collections.abc import Callable

from heatcore.framework.conformance.binding import JSON, RandomRace, Step
from heatcore.framework.values import replace
from heatcore.heat.cards import HEAT, canonical
from heatcore.heat.conformance.binding import HeatBinding, record_race
from heatcore.heat.driver import greedy_policy, random_policy
from heatcore.heat.modules.weather import (
    GARAGE,
    LEGENDS,
    WEATHER,
    corner_token,
    sector_effect,
    slipstream_bonus,
    starting_cards,
)
from heatcore.heat.notation import state_from_dict, state_to_dict
from heatcore.heat.placement import occupied
from heatcore.heat.rounds import next_planner, standing
from heatcore.heat.setup import random_setup, start_race
from heatcore.heat.state import Car, RaceState
from heatcore.heat.track import load_track, track_ids
from heatcore.heat.validity import validate

PER_RULE = 3
#: Seeds of the module races the cases are cut from.
MODULE_SEEDS = range(1000, 1080)

Test = Callable[[Step, RaceState], bool]


def module_race(seed: int, modules: tuple[str, ...]) -> RandomRace:
    """Module race ``seed``: track, car count and policy drawn from the seed, one lap; with
    Legends, 1-3 players and Legends up to 2-6 cars (aggressive on every other race)."""
    tracks = track_ids()
    rng = random.Random(seed)
    players = 2 + (seed // len(tracks)) % 5
    legends = 0
    if LEGENDS in modules:
        players = 1 + seed % 3
        legends = 1 + (seed // 3) % (6 - players)
    setup = random_setup(tracks[seed % len(tracks)], players, rng, laps=1 if seed % 3 else 2,
                         modules=modules, legends=legends, aggressive=bool(seed % 2))
    policy = greedy_policy if seed % 2 else random_policy
    return record_race(seed, setup, policy, policy.__name__, rng)


def _actor_effect(step: Step, state: RaceState) -> str | None:
    turn = state.turn
    if turn is None:
        return None
    return sector_effect(state, state.cars[turn.car].position)


def _stage(state: RaceState) -> str:
    return state.turn.stage.value if state.turn is not None else ""


def _corner_events(step: Step, state: RaceState, token: str, paid: bool) -> bool:
    for ev in step.events:
        shown = ev["kind"] in ("corner", "spun-out") and corner_token(state, ev["corner"]) == token
        if shown and (not paid or ev["heat"] > 0):
            return True
    return False


def _beside_or_behind(state: RaceState, car: int) -> bool:
    me = state.cars[car]
    taken = occupied(state, car)
    return ((me.position, not me.racing_line) in taken or (me.position + 1, True) in taken
            or (me.position + 1, False) in taken)


def _fog_denied(step: Step, state: RaceState) -> bool:
    turn = state.turn
    return (step.action.endswith("end react") and turn is not None
            and _actor_effect(step, state) == "no-slipstream"
            and _beside_or_behind(state, turn.car)
            and state.cars[turn.car].position + 2 <= state.finish_position)


def _cloud_react(step: Step, state: RaceState) -> bool:
    turn = state.turn
    return (_stage(state) == "react" and turn is not None
            and _actor_effect(step, state) == "no-cooldown"
            and "H" in state.cars[turn.car].hand and state.cars[turn.car].gear <= 2)


def _left_sector_in_react(step: Step, state: RaceState) -> bool:
    """A react move (adrenaline or boost) took the car into another sector."""
    turn = state.turn
    if _stage(state) != "react" or turn is None:
        return False
    after = state_from_dict(step.after)
    if after.turn is None or after.turn.car != turn.car:
        return False
    track = state.track
    return (track.sector_of(state.cars[turn.car].position)
            != track.sector_of(after.cars[turn.car].position))


#: Rule ID -> (description, test of a step, whether the legal actions before it are the case).
WEATHER_TESTS: dict[str, tuple[str, Test, bool]] = {
    "weather.module": ("A race with the weather module: the first plan of round 1",
                       lambda s, v: v.round == 1 and v.cursor == 0 and _stage(v) == "", True),
    "weather.draw": ("The weather token drawn at setup is in the state from the start",
                     lambda s, v: v.round == 1 and v.cursor == 1 and _stage(v) == "", False),
    "weather.setup-change": ("The weather's setup change shows in engine, deck and discard "
                             "at the first reveal",
                             lambda s, v: v.round == 1 and any(
                                 e["kind"] == "revealed" for e in s.events), False),
    "road.draw": ("A corner with its road token drawn at setup",
                  lambda s, v: any(e["kind"] in ("corner", "spun-out") for e in s.events), False),
    "road.placement": ("A sector token acts in the sector after its corner",
                       lambda s, v: _actor_effect(s, v) is not None and _stage(v) == "react",
                       True),
    "road.where-the-car-is": ("A react move takes the car into another sector; the next "
                              "choices follow the new sector", _left_sector_in_react, False),
    "weather.sector-only": ("The weather's sector effect where the road token is Weather",
                            lambda s, v: _stage(v) in ("react", "slipstream") and v.conditions
                            is not None and v.turn is not None and v.conditions.road[
                                v.track.sector_of(v.cars[v.turn.car].position)] == WEATHER,
                            True),
    "weather.no-cooldown": ("Cloud: no cooldown in a Cloud sector, Heat in hand and gear 1-2",
                            _cloud_react, True),
    "weather.no-slipstream": ("Fog: no slipstream from a Fog sector beside or behind a car",
                              _fog_denied, False),
    "weather.slipstream-boost": ("Storm or Sun: a slipstream of 4 spaces",
                                 lambda s, v: s.action.endswith("slipstream +2"), False),
    "weather.cooling-bonus": ("Snow or Rain: the sector's cooling bonus is used",
                              lambda s, v: s.action.endswith("sector cooldown"), False),
    "road.limit": ("A corner with a Speed limit -1 or +1 token",
                   lambda s, v: _corner_events(s, v, "limit-plus", False)
                   or _corner_events(s, v, "limit-minus", False), False),
    "road.overheat": ("An Overheat corner costs one Heat more",
                      lambda s, v: _corner_events(s, v, "overheat", True), False),
    "road.free-boost": ("Heat control: a boost that costs no Heat",
                        lambda s, v: any(e["kind"] == "free-boost" for e in s.events), False),
    "road.slipstream-boost": ("Slipstream boost: a slipstream of 3 spaces",
                              lambda s, v: s.action.endswith("slipstream +1"), False),
    "ruling.cooling-bonus-own-cooldown": (
        "The cooling bonus used after the gear's cooldown",
        lambda s, v: s.action.endswith("sector cooldown") and v.turn is not None
        and v.turn.cooldown_used, False),
    "ruling.slipstream-bonus-all-or-nothing": (
        "A slipstream with a bonus offers 2 or 2+N spaces, nothing between",
        lambda s, v: _stage(v) == "slipstream" and v.turn is not None
        and slipstream_bonus(v, v.turn.car) > 0, True),
    "ruling.free-boost-empty-engine": (
        "A free boost with an empty engine",
        lambda s, v: s.action.endswith(" boost") and v.turn is not None
        and v.cars[v.turn.car].engine == 0, False),
}


def _legend_event(rule: str) -> Test:
    return lambda s, v: any(e["kind"] == "legend" and e["rule"] == rule for e in s.events)


def _legend_at_adrenaline_place(step: Step, state: RaceState) -> bool:
    """A Legend is last in the turn order, and a player's car starts its turn."""
    return (bool(state.order) and state.is_legend(state.order[-1])
            and any(e["kind"] == "turn-started" and not state.is_legend(int(e["car"][1:]) - 1)
                    for e in step.events))


def _aggressive_extra(step: Step, state: RaceState) -> bool:
    """An aggressive Legend crossed two corner lines in one move."""
    if state.legends is None or not state.legends.aggressive:
        return False
    for e in step.events:
        if e["kind"] == "moved" and e["by"] == "legend":
            start = e["position"] - e["spaces"]
            if len(state.track.corner_lines(start, e["position"], state.laps)) >= 2:
                return True
    return False


#: The Legends module's rules, as :data:`WEATHER_TESTS`.
LEGEND_TESTS: dict[str, tuple[str, Test, bool]] = {
    "legend.setup": ("A race with Legend cars: the first plan (Legends do not plan)",
                     lambda s, v: v.round == 1 and _stage(v) == "", True),
    "legend.deck": ("The Legend deck is reshuffled when empty",
                    lambda s, v: " legend shuffle " in s.action, False),
    "legend.card": ("The round's Legend card is revealed at the first Legend's turn",
                    lambda s, v: any(e["kind"] == "legend-card" for e in s.events), False),
    "legend.past-line": ("A Legend past the Legend line moves corner speed plus diamond",
                         _legend_event("legend.past-line"), False),
    "legend.before-line": ("A Legend before the Legend line moves its helmet number or stops "
                           "its diamond before the corner", _legend_event("legend.before-line"),
                           False),
    "legend.one-corner": ("A Legend stops before a second corner line",
                          _legend_event("legend.one-corner"), False),
    "legend.final-lap": ("A Legend on its final lap heads for the finish",
                         _legend_event("legend.final-lap"), False),
    "legend.no-heat": ("A Legend's turn: no Heat, no corner check, no slipstream",
                       lambda s, v: any(e["kind"] == "legend" for e in s.events)
                       and any(e["kind"] == "moved" and e["by"] == "legend"
                               for e in s.events), False),
    "legend.turn-order": ("A Legend last in the turn order takes the adrenaline place",
                          _legend_at_adrenaline_place, False),
    "legend.finish": ("A Legend is ranked when it finishes",
                      lambda s, v: any(e["kind"] == "ranked" and v.is_legend(int(e["car"][1:]) - 1)
                                       for e in s.events), False),
    "legend.aggressive": ("An aggressive Legend crosses two corner lines", _aggressive_extra,
                          False),
    "ruling.legend-blocked-spot": (
        "A Legend whose space is full takes the first free spot behind it",
        lambda s, v: any(e["kind"] == "moved" and e["by"] == "legend"
                         and e["position"] < e["spaces"] + _start(v, e) for e in s.events),
        False),
    "ruling.legend-adrenaline-count": (
        "Legends count toward the 5 cars that give two adrenaline places",
        lambda s, v: len(v.cars) >= 5 and sum(not c.legend for c in v.cars) < 5
        and any(e["kind"] == "turn-started" and e["adrenaline"] for e in s.events), False),
    "ruling.legend-aggressive-stop": (
        "An aggressive Legend may cross one more corner line before it must stop",
        lambda s, v: _aggressive_extra(s, v) or (
            v.legends is not None and v.legends.aggressive
            and _legend_event("legend.one-corner")(s, v)), False),
}


def _start(state: RaceState, ev: JSON) -> int:
    return state.cars[int(ev["car"][1:]) - 1].position


def weather_cases(add: Callable[[str, str, str, JSON, JSON, str], None]) -> None:
    """Cut the weather module's cases from seeded weather races (``add`` is
    ``Builder.add``)."""
    module_cases(add, (WEATHER,), WEATHER_TESTS, "wrace")


def legend_cases(add: Callable[[str, str, str, JSON, JSON, str], None]) -> None:
    """Cut the Legends module's cases from seeded races with Legends (and weather)."""
    module_cases(add, (WEATHER, LEGENDS), LEGEND_TESTS, "lrace")


def module_cases(add: Callable[[str, str, str, JSON, JSON, str], None],
                 modules: tuple[str, ...], tests: dict[str, tuple[str, Test, bool]],
                 tag: str, races: Callable[[int], RandomRace] | None = None,
                 seeds: range = MODULE_SEEDS,
                 skip: Callable[[str, int], bool] = lambda rule, seed: False) -> None:
    """Cut ``PER_RULE`` cases per rule of ``tests`` from seeded races with ``modules``
    (``races(seed)``, by default :func:`module_race`), leaving out a rule's cases from the
    races ``skip(rule, seed)`` names."""
    found: dict[str, int] = dict.fromkeys(tests, 0)
    for seed in seeds:
        if all(n >= PER_RULE for n in found.values()):
            break
        race = races(seed) if races is not None else module_race(seed, modules)
        for k, step in enumerate(race.steps):
            wanted = [r for r, n in found.items() if n < PER_RULE]
            if not wanted:
                break
            value = state_from_dict(step.before)
            for rule in wanted:
                text, test, legal = tests[rule]
                if skip(rule, seed) or not test(step, value):
                    continue
                found[rule] += 1
                where = f"{'+'.join(modules)} race {seed} ({race.label}), step {k}"
                cid = f"{rule}.{tag}{seed}-step{k}"
                if legal:
                    add(rule, cid, f"{text}: the legal actions ({where})", step.before,
                        {"legal": step.legal}, f"{tag}:{seed}:{k}")
                else:
                    add(rule, cid, f"{text}: {step.action} ({where})", step.before,
                        {"steps": [{"action": step.action, "state": step.after,
                                    "events": step.events}]}, f"{tag}:{seed}:{k}")


# ---------------------------------------------------------------- regression cases

def _with_hand(car: Car, hand: tuple[str, ...]) -> Car:
    """``car`` holding exactly ``hand``: cards swap between hand and deck, Heat missing from
    them comes from the engine (every count kept)."""
    pool = list(car.hand + car.deck)
    engine = car.engine
    for card in hand:
        if card in pool:
            pool.remove(card)
        else:
            assert card == HEAT and engine > 0
            engine -= 1
    return replace(car, hand=canonical(hand), deck=tuple(pool), engine=engine)


def crafted_state(track: str, players: list[tuple[int, tuple[str, ...]]],
             legends: list[int], modules: tuple[str, ...],
             weather: str | None = None, road: tuple[str, ...] = (),
             card: int | None = None) -> RaceState:
    """A round-1 planning state on ``track``: players' cars at the given positions (on the
    racing line) with the given hands, Legends behind them in colour order."""
    setup = random_setup(track, len(players), random.Random(0), modules=modules,
                         legends=len(legends))
    if weather is not None:
        setup = replace(setup, weather=weather, road=road, decks=tuple(
            tuple(starting_cards(load_track(track), weather).deck) for _ in players))
    state, _ = start_race(setup)
    cars = list(state.cars)
    for index, (position, hand) in enumerate(players):
        cars[index] = replace(_with_hand(cars[index], hand), position=position,
                              racing_line=True)
    for offset, position in enumerate(legends):
        cars[len(players) + offset] = replace(cars[len(players) + offset], position=position,
                                              racing_line=True)
    # a round late enough for every car to have got there (proofs.reachable: at most 23
    # spaces a turn)
    furthest = max(0, *(car.position for car in cars))
    state = replace(state, cars=tuple(cars), order=(), round=1 + -(-furthest // 20))
    state = replace(state, order=standing(state, state.on_track()), cursor=0)
    if state.legends is not None:
        deck = tuple(c for c in state.legends.deck if c != card)
        state = replace(state, legends=replace(state.legends, card=card, deck=deck),
                        cursor=next_planner(state, 0))
    return validate(state)


def regression_cases(binding: HeatBinding,
                     add: Callable[[str, str, str, JSON, JSON, str], None]) -> None:
    """Cases for the online adaptation's reported module bugs (research heat.md §4.2-4.3):
    a Legend clearing two corners (BGA 107185), cooldown still refused after leaving a
    no-cooldown sector (BGA 102781, 103496)."""
    # Great Britain: corners after 37 (limit 5) and 43 (limit 4); Legend line of 37 after 30.
    # Card 6 gives the black Legend diamond 3: 5 + 3 from 36 would reach 44, past both lines.
    state = crafted_state("great-britain", [(60, ("1", "1", "1", "2", "2", "2", "3"))], [36],
                     ("legends",), card=6)
    steps = []
    data = state_to_dict(state)
    for action in ("P1 gear 1 play 1", "P1 end react", "P1 discard nothing"):
        after, events = binding.apply(data, action)
        steps.append({"action": action, "state": after, "events": events})
        data = after
    add("legend.one-corner", "regression.bga-107185.legend-two-corners",
        "BGA bug 107185 (a Legend clearing two corners): the black Legend at 36 stops on 43, "
        "before the second corner line", state_to_dict(state), {"steps": steps},
        "research:heat.md:4.3:107185")
    # USA, Cloud in sector 13-33: P1 (last, with adrenaline) reaches 33, then moves to 34.
    cloud = ("weather", "limit-plus", "overheat", "overheat")
    state = crafted_state("usa", [(45, ("U0", "U5", "S", "S", "1", "2", "3")),
                             (29, ("4", "H", "H", "1", "1", "2", "2"))], [], ("weather",),
                     weather="cloud", road=cloud)
    data = state_to_dict(state)
    for action in ("P1 gear 1 play U0", "P2 gear 1 play 4"):
        data, _ = binding.apply(data, action)
    while binding.legal(data)[0].startswith("P1"):
        data, _ = binding.apply(data, binding.legal(data)[-1] if "discard" not in
                                binding.legal(data)[0] else binding.legal(data)[0])
    add("weather.no-cooldown", "regression.bga-103496.cloud-refuses-cooldown",
        "BGA bugs 102781/103496: in the Cloud sector (space 33) the gear's cooldown is refused",
        data, {"rejection": {"action": "P2 cooldown 1", "kind": "illegal-action",
                             "rule": "weather.no-cooldown"}}, "research:heat.md:4.2:103496")
    after, _ = binding.apply(data, "P2 adrenaline move")
    add("road.where-the-car-is", "regression.bga-103496.cooldown-after-leaving-cloud",
        "BGA bugs 102781/103496: after the adrenaline move to space 34, outside the Cloud "
        "sector, cooldown is open again", after, {"legal": binding.legal(after)},
        "research:heat.md:4.2:103496")


def mined_legend_cases(binding: HeatBinding,
                       add: Callable[[str, str, str, JSON, JSON, str], None]) -> None:
    """Z3-mined Legend positions where corner speed + diamond would cross two corner lines
    (``proofs.modules.mine_legend_stops``), each played as the black Legend with a card
    that gives it that diamond, a player's car five spaces behind."""
    from heatcore.heat.modules.legends import legend_cards
    from proofs.modules import mine_legend_stops

    for track in track_ids():
        for number, (position, diamond) in enumerate(mine_legend_stops(track)[:4], start=1):
            card = min(c for c, entry in legend_cards().items()
                       if entry["black"][0] == diamond)
            state = crafted_state(track, [(position - 5, ("1", "1", "1", "2", "2", "2", "3"))],
                                  [position], ("legends",), card=card)
            data = state_to_dict(state)
            after, events = binding.apply(data, "P1 gear 1 play 1")
            add("legend.one-corner", f"mined.legend-second-corner.{track}.{number}",
                f"Mined by Z3: the black Legend at {position} with diamond {diamond} stops "
                f"before the second corner line ({track})", data,
                {"steps": [{"action": "P1 gear 1 play 1", "state": after, "events": events}]},
                f"mined:legend-second-corner:{track}:{number}")


# ---------------------------------------------------------------- the Garage

#: Seeds of the garage races the cases are cut from (draft on odd seeds, else quick start).
GARAGE_SEEDS = range(2000, 2120)
#: The first type number of the advanced deck (only a draft deals it).
ADVANCED_FROM = 18


def garage_race(seed: int) -> RandomRace:
    """Garage race ``seed``: track, car count and policy drawn from the seed, one lap."""
    tracks = track_ids()
    rng = random.Random(seed)
    players = 2 + (seed // len(tracks)) % 5
    setup = random_setup(tracks[seed % len(tracks)], players, rng, laps=1,
                         modules=(GARAGE,), draft=bool(seed % 2))
    policy = greedy_policy if seed % 3 == 0 else random_policy
    return record_race(seed, setup, policy, policy.__name__, rng)


def _acts(word: str) -> Test:
    """The step's action uses an upgrade symbol (``P1 G12 cooldown 2``)."""
    return lambda s, v: len(s.action.split()) >= 3 and s.action.split()[1].startswith(
        "G") and s.action.split()[2] == word


def _event(kind: str) -> Test:
    return lambda s, v: any(e["kind"] == kind for e in s.events)


def _first_plan(draft: bool | None) -> Test:
    """The first plan of a garage race (a draft race, a quick-start race, or either)."""
    def test(step: Step, state: RaceState) -> bool:
        if state.round != 1 or state.cursor != 0 or _stage(state) != "":
            return False
        owned = [c for cards in (state.garage.owned if state.garage else ()) for c in cards]
        advanced = any(c != "H" and int(c[1:]) >= ADVANCED_FROM for c in owned)
        # an advanced card shows a draft; the quick start is recognised by its seed
        return draft is None or advanced == draft or (draft is False and not advanced)
    return test


def _played(symbol: str) -> Test:
    """The acting car has an upgrade with ``symbol`` in its play area (state before)."""
    from heatcore.heat.modules.garage.symbols import amount

    def test(step: Step, state: RaceState) -> bool:
        turn = state.turn
        return turn is not None and any(amount(c, symbol)
                                        for c in state.cars[turn.car].played)
    return test


def _short_scrap(step: Step, state: RaceState) -> bool:
    from heatcore.heat.modules.garage.symbols import amount

    if not _acts("scrap")(step, state) or state.turn is None:
        return False
    return len(state.cars[state.turn.car].deck) < amount(step.action.split()[1], "scrap")


def _react_symbols(step: Step, state: RaceState) -> bool:
    return _stage(state) == "react" and sum(" G" in a for a in step.legal) >= 2


def _mandatory_open(step: Step, state: RaceState) -> bool:
    return (_stage(state) == "react" and any(a.endswith(" scrap") for a in step.legal)
            and not any(a.endswith("end react") for a in step.legal))


def _heat_upgrade_owned(step: Step, state: RaceState) -> bool:
    return _first_plan(None)(step, state) and state.garage is not None and any(
        "H" in owned for owned in state.garage.owned)


def _card_slipstream(step: Step, state: RaceState) -> bool:
    return " slipstream +" in step.action


#: The Garage module's rules, as :data:`WEATHER_TESTS`.
GARAGE_TESTS: dict[str, tuple[str, Test, bool]] = {
    "garage.module": ("A garage race: the first plan, upgrades in hand and deck",
                      _first_plan(None), True),
    "garage.decks": ("An upgrade card is played in step 2",
                     lambda s, v: " play " in s.action and " G" in s.action, False),
    "garage.symbols-any-order": ("Several upgrade symbols are open at once in React",
                                 _react_symbols, True),
    "garage.mandatory": ("A Scrap is pending: React cannot end before it", _mandatory_open,
                         True),
    "garage.choose-speed": ("A choose-speed card's value is chosen at reveal",
                            lambda s, v: " speeds " in s.action, False),
    "upgrade.heat": ("A card's Heat symbol is resolved in React and paid from the engine",
                     lambda s, v: any(e["kind"] == "paid-heat" and e["cause"] == "upgrade"
                                      for e in s.events), False),
    "upgrade.heat-unpayable": ("A card whose Heat cannot be paid is discarded and flipped for",
                               _event("upgrade-unpaid"), False),
    "upgrade.scrap": ("Scrap moves the deck's top cards to the discard pile", _acts("scrap"),
                      False),
    "upgrade.adjust": ("A corner checked with Adjust cards in play",
                       lambda s, v: _played("adjust")(s, v) and any(
                           e["kind"] in ("corner", "spun-out") for e in s.events), False),
    "upgrade.boost": ("The + of a played upgrade flips for a basic card",
                      lambda s, v: _played("boost")(s, v) and _event("flipped")(s, v)
                      and _stage(v) in ("reveal", "choose", ""), False),
    "upgrade.cooldown": ("An upgrade's Cooldown", _acts("cooldown"), False),
    "upgrade.slipstream": ("A slipstream with an upgrade's extra spaces", _card_slipstream,
                           False),
    "upgrade.reduce": ("Reduce stress discards Stress from the hand", _acts("reduce"), False),
    "upgrade.refresh": ("Refresh is chosen for a card in play", _acts("refresh"), False),
    "upgrade.salvage": ("Salvage takes cards from the discard pile into the deck",
                        _acts("salvage"), False),
    "upgrade.direct": ("A Direct play card is played from the hand in React",
                       _acts("direct"), False),
    "upgrade.accelerate": ("Accelerate adds speed per speed increase", _acts("accelerate"),
                           False),
    "upgrade.speed-increase": ("Accelerate is open: the turn has speed increases",
                               lambda s, v: _stage(v) == "react" and any(
                                   a.endswith(" accelerate") for a in s.legal), True),
    "draft.market": ("A race after a draft: the first plan", _first_plan(True), True),
    "draft.order": ("A race after a draft (three picks each): the first plan",
                    _first_plan(True), True),
    "draft.quick-start": ("A quick-start race: the first plan", _first_plan(False), True),
    "ruling.garage-heat-card": ("A car owns a Heat upgrade: the first plan",
                                _heat_upgrade_owned, True),
    "ruling.garage-unpaid-heat": ("An unpaid card is discarded in React, the car keeping "
                                  "its spaces", _event("upgrade-unpaid"), False),
    "ruling.garage-plus-at-reveal": ("A + symbol flipped for at reveal",
                                     lambda s, v: _played("boost")(s, v)
                                     and _event("flipped")(s, v), False),
    "ruling.garage-scrap-empty": ("Scrap from a deck shorter than the symbol", _short_scrap,
                                  False),
    "ruling.garage-salvage-few": ("Salvage: the choices of up to N cards of the pile",
                                  lambda s, v: _stage(v) == "react" and any(
                                      " salvage " in a for a in s.legal), True),
    "ruling.garage-accelerate-count": ("Accelerate counts the increases so far",
                                       _acts("accelerate"), False),
    "ruling.garage-adjust": ("Adjust applied at a corner, never below 0",
                             lambda s, v: _played("adjust")(s, v) and any(
                                 e["kind"] in ("corner", "spun-out") for e in s.events),
                             False),
    "ruling.garage-refresh-order": ("A refreshed card goes on top of the deck",
                                    _acts("refresh"), False),
    "ruling.garage-draft-pool": ("A race drafted from the basic and advanced decks",
                                 _first_plan(True), True),
}


def garage_cases(add: Callable[[str, str, str, JSON, JSON, str], None]) -> None:
    """Cut the Garage module's cases from seeded garage races, ``PER_RULE`` per rule (a
    draft race, odd seed, gives no quick-start case)."""
    module_cases(add, (GARAGE,), GARAGE_TESTS, "grace", garage_race, GARAGE_SEEDS,
                 lambda rule, seed: rule == "draft.quick-start" and seed % 2 == 1)


def mined_module_cases(add: Callable[[str, str, str, JSON, JSON, str], None]) -> None:
    """Z3-mined module edge cases (``proofs.module_miner``): a car leaving a Cloud sector by
    its adrenaline move, an Overheat corner's extra Heat causing a spin; each witness is
    played in the engine and must do what the encoding predicts."""
    from proofs.module_miner import mined_cases

    problems = mined_cases(add)
    if problems:
        raise AssertionError("mined module witnesses disagree with the engine: "
                             + "; ".join(problems))


def crafted_rule_cases(binding: HeatBinding,
                       add: Callable[[str, str, str, JSON, JSON, str], None]) -> None:
    """Crafted cases for behaviour that seeded races show too seldom: a new round takes a new
    Legend card (the last one is not kept); a Sun sector offers the slipstream with the whole
    bonus only (ruling.slipstream-bonus-all-or-nothing)."""
    quiet = ("end react", "no slipstream", "discard nothing")

    def step(data: JSON, action: str, steps: list[JSON]) -> JSON:
        after, events = binding.apply(data, action)
        steps.append({"action": action, "state": after, "events": events})
        return after

    # USA: the player at 40 plays 1; the black Legend at 20 moves with card 1, then round 2
    state = crafted_state("usa", [(40, ("1", "1", "1", "2", "2", "2", "3"))], [20],
                          ("legends",), card=1)
    start = data = state_to_dict(state)
    steps: list[JSON] = []
    data = step(data, "P1 gear 1 play 1", steps)
    while data["round"] == start["round"]:
        legal = binding.legal(data)
        data = step(data, next((a for a in legal if a.endswith(quiet)), legal[0]), steps)
    add("legend.deck", "crafted.legend-card-per-round",
        "A new round turns no Legend card until its first Legend turn: the card of the last "
        "round is not kept", start, {"steps": steps}, "crafted:legend-card-per-round")
    # USA, Sun in sector 34-49: P2 moves 1 from 36 to 37, behind P1 at 38
    sun = ("limit-plus", "weather", "overheat", "overheat")
    state = crafted_state("usa", [(38, ("U0", "U5", "1", "1", "2", "2", "3")),
                                  (36, ("1", "1", "1", "2", "2", "2", "3"))], [],
                          ("weather",), weather="sun", road=sun)
    data = state_to_dict(state)
    for action in ("P1 gear 1 play U0", "P2 gear 1 play 1"):
        data, _ = binding.apply(data, action)
    while not any(a.startswith("P2 slipstream") for a in binding.legal(data)):
        legal = binding.legal(data)
        data, _ = binding.apply(data, next((a for a in legal if a.endswith(quiet)), legal[0]))
    add("ruling.slipstream-bonus-all-or-nothing", "crafted.sun-slipstream-whole-bonus",
        "In a Sun sector the slipstream is offered with 2 or 4 spaces, never 3", data,
        {"legal": binding.legal(data)}, "crafted:sun-slipstream-whole-bonus")

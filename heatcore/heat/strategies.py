"""Hypothesis strategies for whole races (with the steering policies and race checker).

Import this module to test heatcore, or your own implementation of the rules, with
`Hypothesis <https://hypothesis.readthedocs.io>`_::

    from hypothesis import given
    from heatcore.heat import strategies as hs

    @given(hs.race_states())
    def test_every_reachable_state_is_valid(state):
        assert not heatcore.heat.validity.status(state)

Strategies
    :func:`tracks`, :func:`player_counts`, :func:`race_setups` (grid and shuffled decks drawn
    by Hypothesis), :func:`race_states` (legal states reached by play from a setup),
    :func:`next_actions` (a legal action or chance outcome of a state), :func:`shuffles`
    (Hypothesis picks the permutation), :func:`arbitrary_actions` (any well-typed action,
    mostly illegal), :func:`illegal_actions` (actions the state does not allow),
    :func:`corrupted_states` (state JSON that parses but breaks an invariant) and
    :func:`malformed_state_json` (text that is not a readable state).

Policies
    Seeded drivers for :func:`heatcore.heat.driver.play` that steer races towards rare
    situations: :func:`~heatcore.heat.conformance.steering.aggressive_policy` (high gears, boosts,
    slipstream, no cooldown: spins), :func:`~heatcore.heat.conformance.steering.clutter_policy`
    (pays Heat, never cools down, discards every card it may: cluttered hands) and
    :func:`~heatcore.heat.conformance.steering.mixed_policy`, defined in
    :mod:`heatcore.heat.conformance.steering` (no Hypothesis needed) and re-exported here.

Checker
    :class:`~heatcore.heat.race_checker.RaceChecker` checks every step of a race against the
    invariants of the rules, each failure naming its rule IDs; it lives in
    :mod:`heatcore.heat.race_checker` (no Hypothesis needed) and is re-exported here.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from hypothesis import strategies as st

from heatcore.heat.actions import (
    Action,
    AdrenalineCooldown,
    AdrenalineMove,
    Boost,
    Cooldown,
    DeclineSlipstream,
    Discard,
    EndReact,
    LegendShuffle,
    Plan,
    SectorCooldown,
    Shuffle,
    Slipstream,
)
from heatcore.heat.cards import ALL_CARDS, HEAT, STRESS, canonical
from heatcore.heat.conformance.steering import Policy as Policy
from heatcore.heat.conformance.steering import aggressive_policy as aggressive_policy
from heatcore.heat.conformance.steering import clutter_policy as clutter_policy
from heatcore.heat.conformance.steering import mixed_policy as mixed_policy
from heatcore.heat.engine import apply, legal_actions
from heatcore.heat.notation import state_to_dict, state_to_json
from heatcore.heat.race_checker import (
    BATCH_PLAYERS as BATCH_PLAYERS,
)
from heatcore.heat.race_checker import (
    SITUATIONS as SITUATIONS,
)
from heatcore.heat.race_checker import (
    RaceBatch as RaceBatch,
)
from heatcore.heat.race_checker import (
    RaceChecker as RaceChecker,
)
from heatcore.heat.race_checker import (
    RuleViolation as RuleViolation,
)
from heatcore.heat.race_checker import (
    check_race as check_race,
)
from heatcore.heat.race_checker import (
    corner_line_positions as corner_line_positions,
)
from heatcore.heat.race_checker import (
    is_legal as is_legal,
)
from heatcore.heat.race_checker import (
    replay_checked as replay_checked,
)
from heatcore.heat.race_checker import (
    round_bound as round_bound,
)
from heatcore.heat.race_checker import (
    roundtrip as roundtrip,
)
from heatcore.heat.race_checker import (
    seeded_batch as seeded_batch,
)
from heatcore.heat.setup import MAX_PLAYERS, MIN_PLAYERS, RaceSetup, start_race
from heatcore.heat.state import RaceState
from heatcore.heat.track import load_track, track_ids
from heatcore.heat.validity import Problem

# ---------------------------------------------------------------------------- strategies


def tracks() -> st.SearchStrategy[str]:
    """The id of any base track (``france``, ``great-britain``, ``italia``, ``usa``)."""
    return st.sampled_from(track_ids())


def player_counts(min_players: int = MIN_PLAYERS,
                  max_players: int = MAX_PLAYERS) -> st.SearchStrategy[int]:
    """A number of cars for a core race (2-6 by default)."""
    return st.integers(min_players, max_players)


@st.composite
def race_setups(draw: st.DrawFn, track: st.SearchStrategy[str] | None = None,
                players: st.SearchStrategy[int] | None = None,
                laps: st.SearchStrategy[int] | None = None) -> RaceSetup:
    """A race setup: Hypothesis picks the track, the number of cars, the laps (the track's
    own by default), the grid order and each car's starting-deck shuffle."""
    track_id = draw(track if track is not None else tracks())
    count = draw(players if players is not None else player_counts())
    loaded = load_track(track_id)
    lap_count = draw(laps) if laps is not None else loaded.laps
    grid = tuple(draw(st.permutations(range(count))))
    from heatcore.heat.cards import starting_deck

    deck = starting_deck(loaded.stress)
    decks = tuple(tuple(draw(st.permutations(deck))) for _ in range(count))
    return RaceSetup(track_id, count, lap_count, grid, decks)


@st.composite
def module_setups(draw: st.DrawFn, modules: st.SearchStrategy[tuple[str, ...]] | None = None,
                  laps: st.SearchStrategy[int] | None = None) -> RaceSetup:
    """A race setup playing modules (any non-empty set by default), every chance outcome
    chosen by Hypothesis: the weather token, the road token of each corner (drawn from the
    bag of 12), the Legend deck's order, Legends filling up to 2-6 cars, the option."""
    from heatcore.heat.modules.legends import full_deck
    from heatcore.heat.modules.weather import GARAGE, LEGENDS, WEATHER, road_bag, weather_tokens

    chosen = draw(modules if modules is not None else st.sampled_from(
        [(WEATHER,), (LEGENDS,), (WEATHER, LEGENDS)]))
    base = draw(race_setups(laps=laps))
    track = load_track(base.track)
    setup = replace(base, modules=chosen)
    if WEATHER in chosen:
        from heatcore.heat.modules.weather import starting_cards

        weather = draw(st.sampled_from(sorted(weather_tokens())))
        road = tuple(draw(st.permutations(road_bag()))[:len(track.corners)])
        deck = starting_cards(track, weather).deck
        decks = tuple(tuple(draw(st.permutations(deck))) for _ in range(setup.players))
        setup = replace(setup, weather=weather, road=road, decks=decks)
    if LEGENDS in chosen:
        players = draw(st.integers(1, min(3, setup.players)))
        legends = draw(st.integers(max(1, 2 - players), MAX_PLAYERS - players))
        setup = replace(setup, players=players, decks=setup.decks[:players], legends=legends,
                        grid=tuple(draw(st.permutations(range(players + legends)))),
                        legend_deck=tuple(draw(st.permutations(full_deck()))),
                        aggressive=draw(st.booleans()))
    if GARAGE in chosen:  # the upgrades dealt from the whole box, decks shuffled with them
        from heatcore.heat.modules.garage.data import box, garage_deck
        from heatcore.heat.modules.garage.draft import ALL_DECKS, by_type
        from heatcore.heat.modules.weather import starting_cards

        dealt = draw(st.permutations(box(ALL_DECKS)))
        upgrades = tuple(by_type(dealt[3 * i:3 * i + 3]) for i in range(setup.players))
        core = starting_cards(track, setup.weather if WEATHER in chosen else None).deck
        decks = tuple(tuple(draw(st.permutations(garage_deck(core, ups)))) for ups in upgrades)
        setup = replace(setup, upgrades=upgrades, decks=decks)
    return setup


def shuffles(state: RaceState) -> st.SearchStrategy[Shuffle | LegendShuffle]:
    """The awaited chance outcome: Hypothesis picks the permutation of deck + discard (or of
    the 10 Legend cards when a Legend awaits the Legend deck)."""
    car = state.shuffle
    assert car is not None, "no shuffle is awaited"
    if state.is_legend(car):
        from heatcore.heat.modules.legends import full_deck

        return st.permutations(full_deck()).map(lambda order: LegendShuffle(car, tuple(order)))
    from heatcore.heat.cleanup import shuffled_cards

    cards = canonical(shuffled_cards(state, car))
    return st.permutations(cards).map(lambda order: Shuffle(car, tuple(order)))


def next_actions(state: RaceState) -> st.SearchStrategy[Action]:
    """A legal next input of a race that is not over: a legal action, or at a chance point a
    shuffle. Shrinks towards the first action in canonical order."""
    if state.is_chance():
        return shuffles(state).map(lambda s: s)
    legal = legal_actions(state)
    assert legal, "the race is over"
    return st.sampled_from(legal)


@st.composite
def race_states(draw: st.DrawFn, setups: st.SearchStrategy[RaceSetup] | None = None,
                max_steps: int = 300) -> RaceState:
    """A legal state reached by play: a setup (short races by default), then up to
    ``max_steps`` legal actions and chance outcomes, all chosen by Hypothesis."""
    setup = draw(setups if setups is not None else race_setups(laps=st.just(1)))
    state, _ = start_race(setup)
    steps = draw(st.integers(0, max_steps))
    for _ in range(steps):
        if state.is_over():
            break
        state, _ = apply(state, draw(next_actions(state)))
    return state


_CARD_TUPLES = st.lists(st.sampled_from(ALL_CARDS), max_size=8).map(tuple)


def arbitrary_actions(players: int = MAX_PLAYERS) -> st.SearchStrategy[Action]:
    """Any well-typed action for cars ``0..players-1`` (and one beyond), legal or not: gears
    from -1 to 6, any cards in any order, any cooldown amount."""
    car = st.integers(0, players)
    return st.one_of(
        st.builds(Plan, car, st.integers(-1, 6), _CARD_TUPLES),
        st.builds(Cooldown, car, st.integers(-1, 5)),
        st.builds(AdrenalineMove, car), st.builds(AdrenalineCooldown, car),
        st.builds(Boost, car), st.builds(EndReact, car), st.builds(Slipstream, car),
        st.builds(DeclineSlipstream, car), st.builds(Discard, car, _CARD_TUPLES),
        st.builds(Shuffle, car, st.lists(st.sampled_from(ALL_CARDS), max_size=20).map(tuple)),
        st.builds(SectorCooldown, car), st.builds(Slipstream, car, st.integers(-1, 3)),
        st.builds(LegendShuffle, car, st.lists(st.integers(0, 11), max_size=11).map(tuple)),
    )


def illegal_actions(state: RaceState) -> st.SearchStrategy[Action]:
    """Actions that ``state`` does not allow (the engine must reject each with
    ``IllegalAction``). Mixes arbitrary actions with near misses of legal ones."""
    legal = legal_actions(state)
    near: list[st.SearchStrategy[Action]] = [arbitrary_actions(len(state.cars))]
    if legal:
        near.append(st.sampled_from(legal).flatmap(_near_misses))
    return st.one_of(near).filter(lambda a: not is_legal(state, a))


def _near_misses(action: Action) -> st.SearchStrategy[Action]:
    """Small corruptions of a legal action: another car, a gear off by one to three, a card
    swapped or dropped, reversed card order."""
    out: list[st.SearchStrategy[Action]] = [
        st.integers(0, MAX_PLAYERS).map(lambda c: replace(action, car=c))]
    if isinstance(action, Plan):
        out.append(st.integers(-3, 3).map(lambda d: replace(action, gear=action.gear + d)))
        out.append(st.just(replace(action, cards=tuple(reversed(action.cards)))))
        out.append(st.just(replace(action, cards=action.cards[1:])))
        out.append(st.sampled_from(ALL_CARDS).map(
            lambda c: replace(action, cards=canonical((*action.cards[1:], c)))))
    if isinstance(action, Cooldown):
        out.append(st.integers(-1, 5).map(lambda n: replace(action, amount=n)))
    if isinstance(action, Discard):
        out.append(st.sampled_from(ALL_CARDS).map(
            lambda c: replace(action, cards=canonical((*action.cards, c)))))
    return st.one_of(out)


#: Corruptions of a valid state that still parse; ``validity.validate`` must reject each.
#: name -> the Problem flags any one of which it must raise.
CORRUPTIONS: dict[str, Problem] = {
    "drop-hand-card": Problem.CARD_COUNT | Problem.HEAT_COUNT | Problem.STRESS_COUNT
    | Problem.PLAY_AREA,
    "extra-basic-card": Problem.CARD_COUNT,
    "extra-heat": Problem.HEAT_COUNT,
    "extra-stress": Problem.STRESS_COUNT,
    "engine-minus-one": Problem.HEAT_COUNT,
    "supply-plus-one": Problem.STRESS_COUNT,
    "two-cars-one-spot": Problem.SPOT_OCCUPANCY,
    "two-cars-one-spot-a-lap-apart": Problem.SPOT_OCCUPANCY,
    "gear-5": Problem.GEAR_RANGE,
    "gear-0": Problem.GEAR_RANGE,
    "unknown-cursor": Problem.TURN_ORDER | Problem.PHASE,
}


@st.composite
def corrupted_states(draw: st.DrawFn, states: st.SearchStrategy[RaceState] | None = None,
                     ) -> tuple[str, str, RaceState]:
    """``(corruption name, state JSON, the valid state it came from)``: JSON that
    ``notation.state_from_json`` reads but that breaks an invariant (see
    :data:`CORRUPTIONS`), so ``validity.validate`` must raise ``InvalidState``."""
    state = draw(states if states is not None else race_states(max_steps=120))
    data = state_to_dict(state)
    racing = state.on_track()
    names = [n for n in CORRUPTIONS
             if not n.startswith("two-cars-one-spot") or len(racing) >= 2]
    name = draw(st.sampled_from(names))
    cars: list[dict[str, Any]] = data["cars"]
    index = draw(st.sampled_from(racing or tuple(range(len(cars)))))
    car = cars[index]
    if name == "drop-hand-card":
        zone = draw(st.sampled_from([z for z in ("hand", "deck", "discard")
                                     if car[z]] or ["hand"]))
        if not car[zone]:
            car["hand"] = [*car["hand"], "1"]
        else:
            del car[zone][draw(st.integers(0, len(car[zone]) - 1))]
    elif name == "extra-basic-card":
        car["deck"] = [*car["deck"], draw(st.sampled_from(["1", "2", "3", "4", "U0", "U5"]))]
    elif name == "extra-heat":
        car["discard"] = canonical([*car["discard"], HEAT])
    elif name == "extra-stress":
        car["deck"] = [STRESS, *car["deck"]]
    elif name == "engine-minus-one":
        car["engine"] -= 1
    elif name == "supply-plus-one":
        data["supply"] += 1
    elif name.startswith("two-cars-one-spot"):
        other = draw(st.sampled_from([i for i in racing if i != index]))
        laps_apart = draw(st.sampled_from([-1, 1])) if name.endswith("lap-apart") else 0
        car["position"] = cars[other]["position"] + laps_apart * state.track.spaces_per_lap
        car["racing_line"] = cars[other]["racing_line"]
    elif name == "gear-5":
        car["gear"] = 5
    elif name == "gear-0":
        car["gear"] = 0
    else:
        data["cursor"] = len(state.order) + draw(st.integers(1, 5))
    return name, json.dumps(data), state


_HUGE = st.sampled_from([10**7, -(10**9), 2**63, 10**100])


@st.composite
def malformed_state_json(draw: st.DrawFn,
                         states: st.SearchStrategy[RaceState] | None = None) -> str:
    """Text that is not a readable state (``notation.state_from_json`` must raise
    ``MalformedInput``): truncated JSON, wrong types, huge numbers, unknown cards, missing
    or misspelt fields, unknown track or phase."""
    state = draw(states if states is not None else race_states(max_steps=60))
    text = state_to_json(state)
    kind = draw(st.sampled_from(["truncate", "wrong-type", "huge", "card", "missing",
                                 "track", "phase", "not-object", "car-id"]))
    if kind == "truncate":
        return text[:draw(st.integers(0, len(text) - 1))]
    data = state_to_dict(state)
    car: dict[str, Any] = data["cars"][draw(st.integers(0, len(data["cars"]) - 1))]
    if kind == "wrong-type":
        key = draw(st.sampled_from(["position", "gear", "engine", "racing_line", "hand"]))
        car[key] = draw(st.sampled_from(["3", None, 1.5, [], {}]).filter(
            lambda v: not (key == "hand" and v == [])))
    elif kind == "huge":
        key = draw(st.sampled_from(["position", "gear", "engine"]))
        car[key] = draw(_HUGE)
    elif kind == "card":
        car["hand"] = [*car["hand"], draw(st.sampled_from(["5", "X", "h", "", "U9"]))]
    elif kind == "missing":
        del data[draw(st.sampled_from(sorted(data)))]
    elif kind == "track":
        data["track"] = draw(st.sampled_from(["monaco", "", "FRANCE"]))
    elif kind == "phase":
        data["phase"] = draw(st.sampled_from(["PLAN", "setup", ""]))
    elif kind == "not-object":
        return json.dumps(draw(st.sampled_from([[], 3, "state", None])))
    else:
        car["id"] = "P99"
    return json.dumps(data)


# ---------------------------------------------------------------------------- policies

# The steering policies (aggressive_policy, clutter_policy, mixed_policy) are defined in
# heatcore.heat.conformance.steering, which needs no Hypothesis (the fixture generator uses
# them), and re-exported above.

"""Setting up a race: decks, engine, gear, stress supply, grid and starting hands.

The chance outcomes of setup (grid order, each deck's shuffle) are part of ``RaceSetup``,
so a race replays exactly from its setup and its actions.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from heatcore.framework.errors import MalformedInput
from heatcore.framework.events import Event, event
from heatcore.framework.registry import implements
from heatcore.heat.cards import BOX_STRESS, HAND_SIZE, Card, canonical
from heatcore.heat.modules.garage.data import (
    garage_deck,
    in_deck,
    is_sponsor,
    sponsor_cards,
    sponsor_tokens,
)
from heatcore.heat.modules.garage.draft import (
    ALL_DECKS,
    BASIC_DECK,
    check_upgrades,
    quick_start,
    run_draft,
    start_draft,
)
from heatcore.heat.modules.legends import check_deck_order, colours, full_deck, legend_car
from heatcore.heat.modules.weather import (
    GARAGE,
    LEGENDS,
    MODULES,
    WEATHER,
    check_conditions,
    road_bag,
    starting_cards,
    weather_tokens,
)
from heatcore.heat.rounds import start_round
from heatcore.heat.rulings import DEFAULT_RULINGS, Rulings
from heatcore.heat.state import (
    NO_CHANGES,
    Car,
    Changes,
    Conditions,
    Garage,
    LegendDeck,
    Phase,
    RaceState,
)
from heatcore.heat.track import Track, load_track

MIN_PLAYERS = 2
MAX_PLAYERS = 6
#: The board of the first race.
FIRST_TRACK = "usa"


@implements("setup.first-track")
def first_track() -> str:
    """The track a race uses when none is chosen: USA, the board of the first race."""
    return FIRST_TRACK


@dataclass(frozen=True, slots=True)
class RaceSetup:
    """How a race starts: track, laps, the grid (cars pole first) and each shuffled deck;
    the modules played and their chance outcomes (weather module: the weather token and
    the road token drawn for each corner, in corner order; Legends module: how many Legend
    cars follow the players' cars, the Legend deck's order and the aggressive option; Garage
    module: each player's three upgrades by market name, as drafted or dealt); the rulings
    it is played under (the defaults unless chosen); and a Championship event's changes to
    the core numbers (Heat, Stress, hand size; none in a single race)."""

    track: str
    players: int
    laps: int
    grid: tuple[int, ...]
    decks: tuple[tuple[Card, ...], ...]
    modules: tuple[str, ...] = ()
    weather: str | None = None
    road: tuple[str, ...] = ()
    legends: int = 0
    legend_deck: tuple[int, ...] = ()
    aggressive: bool = False
    upgrades: tuple[tuple[str, ...], ...] = ()
    #: Championship: each player's Sponsorship cards drawn before the race, put into the
    #: hand before it is filled (sponsor.in-hand); ``()`` for none. Kept ones are in the deck.
    sponsors: tuple[tuple[str, ...], ...] = ()

    @property
    def cars(self) -> int:
        """Every car of the race: the players' cars, then the Legends."""
        return self.players + self.legends
    rulings: Rulings = DEFAULT_RULINGS
    changes: Changes = NO_CHANGES

    @property
    def conditions(self) -> Conditions | None:
        """The weather module's tokens, or None when the race does not play it."""
        if WEATHER not in self.modules or self.weather is None:
            return None
        return Conditions(self.weather, self.road)


@implements("weather.module")
def check_modules(setup: RaceSetup, track: Track) -> None:
    """Raise MalformedInput unless every module is known, listed once in canonical order,
    and the chance outcomes of exactly the modules played are given."""
    unknown = [m for m in setup.modules if m not in MODULES]
    if unknown:
        raise MalformedInput("weather.module",
                             f"unknown module {unknown[0]!r} (known: {', '.join(MODULES)})")
    if tuple(m for m in MODULES if m in setup.modules) != setup.modules:
        raise MalformedInput("weather.module",
                             f"modules must be listed once each in the order {', '.join(MODULES)}")
    conditions = setup.conditions
    if conditions is not None:
        check_conditions(conditions, track)
    elif setup.weather is not None or setup.road:
        raise MalformedInput("weather.module", "weather tokens given but module 'weather' is off")
    elif WEATHER in setup.modules:
        raise MalformedInput("weather.draw", "module 'weather' needs a weather token")
    if LEGENDS in setup.modules:
        if not 1 <= setup.legends <= len(colours()):
            raise MalformedInput("legend.setup", f"the Legends module adds 1-{len(colours())} "
                                 f"Legends, not {setup.legends}")
        check_deck_order(setup.legend_deck)
    elif setup.legends or setup.legend_deck or setup.aggressive:
        raise MalformedInput("weather.module", "Legends given but module 'legends' is off")
    if GARAGE in setup.modules:
        check_upgrades(setup.upgrades, setup.players)
    elif setup.upgrades:
        raise MalformedInput("garage.module", "upgrades given but module 'garage' is off")


@implements("event.setup-changes")
def check_changes(changes: Changes, track: Track) -> None:
    """MalformedInput unless an event's changes leave a race that can be played: a hand of
    at least 1 card, no negative Heat or Stress count."""
    if changes.hand < 1:
        raise MalformedInput("event.setup-changes", f"a hand holds at least 1 card, not "
                             f"{changes.hand}")
    if track.heat + changes.heat < 0 or track.stress + changes.stress < 0:
        raise MalformedInput("event.setup-changes", f"{track.id} with Heat "
                             f"{changes.heat:+d} and Stress {changes.stress:+d} leaves a "
                             "negative count")


def check_setup(setup: RaceSetup, track: Track) -> None:
    """Raise MalformedInput naming the rule if the setup cannot start a race."""
    if not MIN_PLAYERS <= setup.cars <= MAX_PLAYERS or setup.players < 1:
        raise MalformedInput("setup.players", f"a race takes 2-6 cars (Legends included) and at "
                             f"least one player, not {setup.players} + {setup.legends}")
    if setup.cars > len(track.grid):
        raise MalformedInput("setup.grid", f"track {track.id} has {len(track.grid)} grid spots")
    if setup.laps < 1:
        raise MalformedInput("setup.track-laps", f"a race has at least 1 lap, not {setup.laps}")
    if sorted(setup.grid) != list(range(setup.cars)):
        raise MalformedInput("setup.grid", "the grid must list every car exactly once")
    if len(setup.decks) != setup.players:
        raise MalformedInput("setup.deck", "one shuffled deck per car is needed")
    check_modules(setup, track)
    check_changes(setup.changes, track)
    core = starting_cards(track, setup.weather if setup.conditions else None,
                          setup.changes).deck
    check_sponsors(setup)
    sponsors = sponsor_tokens()
    core_cards = sorted(core)  # multisets compared as sorted lists (faster than Counters)
    for index, deck in enumerate(setup.decks):
        expected = sorted(garage_deck(core, setup.upgrades[index])) if setup.upgrades \
            else core_cards
        if sorted(c for c in deck if c not in sponsors) != expected:
            raise MalformedInput("setup.deck", f"deck of P{index + 1} is not the starting deck")


@implements("sponsor.in-hand", "sponsor.deck")
def check_sponsors(setup: RaceSetup) -> None:
    """MalformedInput unless the Sponsorship cards of the setup (start cards and cards kept
    in the decks) come with the Garage module, fit the box, and the start cards fit the hand."""
    tokens = sponsor_tokens()
    held = [*(c for h in setup.sponsors for c in h),
            *(c for d in setup.decks for c in d if c in tokens)]
    if not held and not setup.sponsors:
        return
    if GARAGE not in setup.modules:
        raise MalformedInput("sponsor.in-hand", "Sponsorship cards need module 'garage'")
    if setup.sponsors and len(setup.sponsors) != setup.players:
        raise MalformedInput("sponsor.in-hand", "setup.sponsors must list each player's cards")
    if not all(is_sponsor(c) for h in setup.sponsors for c in h):
        raise MalformedInput("sponsor.in-hand", "setup.sponsors lists Sponsorship cards only")
    box = Counter({t: s.copies for t, s in sponsor_cards().items()})
    if Counter(held) - box:
        raise MalformedInput("sponsor.deck", "more Sponsorship cards than the box holds")
    if any(len(h) > setup.changes.hand for h in setup.sponsors):
        raise MalformedInput("sponsor.in-hand", "more start Sponsorship cards than the hand holds")


@implements("setup.players", "setup.track-laps", "ruling.lap-count", "setup.deck",
            "setup.engine", "setup.gear", "setup.stress-supply", "setup.grid", "setup.hand",
            "ruling.stress-supply")
def start_race(setup: RaceSetup) -> tuple[RaceState, tuple[Event, ...]]:
    """The state at the start of round 1 (cars on the grid, 7 cards in hand, gear 1)."""
    track = load_track(setup.track)
    check_setup(setup, track)
    conditions = setup.conditions
    cards = starting_cards(track, conditions.weather if conditions else None, setup.changes)
    hand = HAND_SIZE if setup.changes.is_core() else setup.changes.hand
    spots = track.grid_positions()
    cars: list[Car | None] = [None] * setup.cars
    for slot, index in enumerate(setup.grid):
        position, racing = spots[slot]
        if index >= setup.players:
            cars[index] = legend_car(colours()[index - setup.players], position, racing)
            continue
        deck = setup.decks[index]
        first = setup.sponsors[index] if setup.sponsors else ()  # sponsor.in-hand
        fill = hand - len(first)
        cars[index] = Car(position=position, racing_line=racing, gear=1, engine=cards.engine,
                          hand=canonical((*first, *deck[:fill])), deck=tuple(deck[fill:]),
                          discard=cards.discard)
    supply = BOX_STRESS - setup.players * cards.stress
    events = [event("race-started", None, track=track.id, laps=setup.laps,
                    grid=tuple(f"P{i + 1}" for i in setup.grid))]
    if conditions is not None:
        events.append(event("conditions", None, weather=conditions.weather,
                            road=conditions.road))
    state = RaceState(track=track, laps=setup.laps, cars=tuple(c for c in cars if c),
                      supply=supply, round=0, phase=Phase.PLAN, order=(), cursor=0,
                      modules=setup.modules, conditions=conditions,
                      legends=LegendDeck(setup.legend_deck, None, setup.aggressive)
                      if LEGENDS in setup.modules else None, rulings=setup.rulings,
                      garage=Garage(tuple(canonical(tuple(in_deck(u) for u in ups))
                                          for ups in setup.upgrades) + ((),) * setup.legends,
                                    sponsors=_held_sponsors(setup))
                      if GARAGE in setup.modules else None, changes=setup.changes)
    state = start_round(state, events)
    return state, tuple(events)


def _held_sponsors(setup: RaceSetup) -> tuple[tuple[str, ...], ...]:
    """Each car's Sponsorship cards at the start: its start cards and those in its deck;
    ``()`` when no car holds any (sponsor.in-hand)."""
    held = tuple(canonical((*(setup.sponsors[i] if setup.sponsors else ()),
                            *(c for c in setup.decks[i] if is_sponsor(c))))
                 for i in range(setup.players)) + ((),) * setup.legends
    return held if any(held) else ()


def random_setup(track_id: str, players: int, rng: random.Random,
                 laps: int | None = None, modules: tuple[str, ...] = (), legends: int = 0,
                 aggressive: bool = False, rulings: Rulings = DEFAULT_RULINGS,
                 draft: bool = False, basic_only: bool = False) -> RaceSetup:
    """A setup with grid order, decks and the modules' chance outcomes drawn from ``rng``
    (with no module, exactly the draws of the core race), played under ``rulings``. With
    the Legends module, ``legends`` Legends (at least 1) follow the ``players`` players'
    cars. With the Garage module, the upgrades come from a quick start, or with ``draft``
    from a draft with random picks (from the basic deck alone with ``basic_only``)."""
    track = load_track(track_id)
    weather: str | None = None
    road: tuple[str, ...] = ()
    if WEATHER in modules:
        weather = rng.choice(sorted(weather_tokens()))
        bag = list(road_bag())
        rng.shuffle(bag)
        road = tuple(bag[:len(track.corners)])
    legend_deck: tuple[int, ...] = ()
    if LEGENDS in modules:
        legends = max(1, legends)
        order = list(full_deck())
        rng.shuffle(order)
        legend_deck = tuple(order)
    else:
        legends = 0
    grid = list(range(players + legends))
    rng.shuffle(grid)
    upgrades: tuple[tuple[str, ...], ...] = ()
    if GARAGE in modules and draft:
        drafted, _ = run_draft(start_draft(tuple(grid), players,
                                           BASIC_DECK if basic_only else ALL_DECKS), rng)
        upgrades = drafted.picks
    elif GARAGE in modules:
        upgrades = quick_start(players, rng)
    decks = []
    for index in range(players):
        deck = list(starting_cards(track, weather).deck)
        if upgrades:
            deck = list(garage_deck(tuple(deck), upgrades[index]))
        rng.shuffle(deck)
        decks.append(tuple(deck))
    return RaceSetup(track_id, players, laps if laps is not None else track.laps, tuple(grid),
                     tuple(decks), modules, weather, road, legends, legend_deck,
                     aggressive and LEGENDS in modules, rulings=rulings, upgrades=upgrades)

"""Playing a championship: the races of a season in order, each set up from the standings,
the kept upgrades and its event card, its Sponsorship cards given as they are earned, and
its points added to the standings. Every chance outcome (first grid, upgrades, each race's
decks and the Sponsorship deck's shuffles) is drawn by one seeded generator and kept in the
result, so the championship replays exactly from its log
(``heatcore.heat.modules.championship.log``)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace

from heatcore.framework.errors import MalformedInput
from heatcore.framework.events import Event
from heatcore.framework.registry import implements
from heatcore.heat.actions import Action, GainSponsor
from heatcore.heat.driver import MAX_ACTIONS, Policy, Race, greedy_policy, random_shuffle
from heatcore.heat.engine import apply, legal_actions
from heatcore.heat.modules.championship.changes import apply_changes, changes_of
from heatcore.heat.modules.championship.data import EventCard, Season, SeasonRace, season
from heatcore.heat.modules.championship.garage import (
    GarageRound,
    apply_round,
    full_pool,
    play_round,
)
from heatcore.heat.modules.championship.sponsors import (
    Gain,
    Sponsors,
    after_race,
    give,
    new_sponsors,
    race_start,
    reorder,
    shuffle_order,
    start_cards,
)
from heatcore.heat.modules.championship.standings import (
    next_grid,
    race_points,
    result_order,
    standings,
)
from heatcore.heat.modules.championship.watch import RaceWatch
from heatcore.heat.modules.garage.data import garage_deck
from heatcore.heat.modules.weather import GARAGE, WEATHER, road_bag, starting_cards, weather_tokens
from heatcore.heat.setup import MAX_PLAYERS, MIN_PLAYERS, RaceSetup, start_race
from heatcore.heat.state import Conditions, RaceState
from heatcore.heat.track import load_track


@dataclass(frozen=True)
class RaceResult:
    """One race of a championship: its place in the season, the sponsor deck's order drawn
    before it, the race itself, every Sponsorship card given (before and during it), the
    eliminated cars, the places, the points, and the totals and standings after it."""

    number: int
    season_race: SeasonRace
    garage: GarageRound
    pool: tuple[str, ...]
    sponsor_order: tuple[str, ...]
    race: Race
    gains: tuple[Gain, ...]
    eliminated: tuple[int, ...]
    order: tuple[int, ...]
    points: tuple[int, ...]
    totals: tuple[int, ...]
    standings: tuple[int, ...]
    sponsors: Sponsors

    @property
    def event(self) -> EventCard:
        """The race's event card."""
        return self.season_race.event


@dataclass(frozen=True)
class Championship:
    """A championship played to its end (or as far as it went)."""

    year: int
    players: int
    races: tuple[RaceResult, ...]
    weather: bool = False

    @property
    def upgrades(self) -> tuple[tuple[str, ...], ...]:
        """Each player's upgrades after the last race's Garage round."""
        return self.races[-1].race.setup.upgrades if self.races else ((),) * self.players

    @property
    def totals(self) -> tuple[int, ...]:
        """Each player's championship score."""
        return self.races[-1].totals if self.races else (0,) * self.players

    @property
    def standings(self) -> tuple[int, ...]:
        """The players in standings order, leader first."""
        return self.races[-1].standings if self.races else tuple(range(self.players))


def check_players(players: int) -> None:
    """MalformedInput unless a championship can seat ``players``."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise MalformedInput("setup.players", f"a championship takes {MIN_PLAYERS}-"
                             f"{MAX_PLAYERS} players, not {players}")


@implements("championship.carry-over", "garage.module")
def expected_deck(race: SeasonRace, upgrades: tuple[str, ...],
                  weather: str | None = None) -> tuple[str, ...]:
    """A player's cards for ``race`` (under the weather token ``weather``, if any): the
    starting deck (with the event's Stress change) plus their kept upgrades."""
    return tuple(sorted(garage_deck(starting_cards(load_track(race.track), weather,
                                                   changes_of(race.event)).deck, upgrades)))


def race_setup(race: SeasonRace, players: int, grid: tuple[int, ...],
               upgrades: tuple[tuple[str, ...], ...], decks: tuple[tuple[str, ...], ...],
               conditions: Conditions | None = None) -> RaceSetup:
    """The race's setup: the Garage module with the kept upgrades, the weather module when
    ``conditions`` are drawn, and the event's changes."""
    track = load_track(race.track)
    if conditions is None:
        base = RaceSetup(race.track, players, track.laps, grid, decks, (GARAGE,),
                         upgrades=upgrades)
    else:
        base = RaceSetup(race.track, players, track.laps, grid, decks, (WEATHER, GARAGE),
                         conditions.weather, conditions.road, upgrades=upgrades)
    return apply_changes(base, race.event)


@implements("weather.draw")
def draw_conditions(race: SeasonRace, rng: random.Random) -> Conditions:
    """The weather token and the road tokens of ``race``'s corners, drawn by ``rng``."""
    bag = list(road_bag())
    weather = rng.choice(sorted(weather_tokens()))
    rng.shuffle(bag)
    return Conditions(weather, tuple(bag[:len(load_track(race.track).corners)]))


#: Chooses the next action of a race: the state, and the Sponsorship card due now (a
#: ``GainSponsor`` the championship gives, or None).
Chooser = Callable[[RaceState, Action | None], Action]


@implements("sponsor.given-at-once", "sponsor.in-hand", "ruling.sponsor-gained-timing")
def _race(setup: RaceSetup, choose: Chooser, watch: RaceWatch,
          give_due: Callable[[], list[Action]]) -> Race:
    """One race played by ``choose``, the Sponsorship cards the watch's claims earn put into
    the race as they are earned (``give_due`` draws them: GainSponsor actions)."""
    state, start_events = start_race(setup)
    actions: list[Action] = []
    events: list[tuple[Event, ...]] = []
    due: list[Action] = []

    def do(action: Action) -> None:
        nonlocal state
        after, evs = apply(state, action)
        watch.step(len(actions), state, after, evs)
        actions.append(action)
        events.append(evs)
        state = after
        if not isinstance(action, GainSponsor):
            due.extend(give_due())

    while len(actions) < MAX_ACTIONS:
        if due:
            do(choose(state, due.pop(0)))
            continue
        if state.is_over():
            watch.finish(len(actions) - 1)
            due.extend(give_due())
            if not due:
                break
            continue
        do(choose(state, None))
    if not state.is_over():  # stopped at MAX_ACTIONS: close the turn in progress
        watch.finish(len(actions) - 1)
    return Race(setup, tuple(actions), tuple(events), start_events, state)


def _run(number: int, race: SeasonRace, garage: tuple[GarageRound, tuple[str, ...]],
         setup: RaceSetup, order: tuple[str, ...], sponsors: Sponsors, totals: tuple[int, ...],
         choose: Chooser) -> RaceResult:
    """One race of the championship, played or replayed by ``choose``: the start cards
    into the hands, the cards earned into the race at once, the used ones back to the deck
    after it."""
    sponsors = reorder(sponsors, order)
    sponsors, gains = race_start(sponsors, setup.grid, race.event.sponsors)
    setup = replace(setup, sponsors=start_cards(gains, setup.players))
    watch = RaceWatch(start_race(setup)[0], race.event)
    earned: list[Gain] = []
    taken = 0  # the watch's claims already given

    def give_due() -> list[Action]:
        nonlocal sponsors, taken
        out: list[Action] = []
        for claim in watch.claims[taken:]:
            sponsors, gain = give(sponsors, claim.car, claim.reason, claim.step, claim.corner)
            earned.append(gain)
            if gain.card is not None:
                out.append(GainSponsor(claim.car, gain.card))
        taken = len(watch.claims)
        return out

    played = _race(setup, choose, watch, give_due)
    final = played.final
    held = final.garage.sponsors if final.garage is not None else ()
    spent = final.garage.spent if final.garage is not None else ()
    sponsors = after_race(sponsors, tuple(held[:setup.players]), spent)
    eliminated = played.final.out  # event.sponsor-withdraws: the race took them off
    places = result_order(played.final.ranking, eliminated)
    points = race_points(places, eliminated, race.event, setup.players)
    new_totals = tuple(t + p for t, p in zip(totals, points, strict=True))
    return RaceResult(number, race, garage[0], garage[1], order, played, (*gains, *earned),
                      eliminated, places, points, new_totals, standings(new_totals, places),
                      sponsors)


@implements("sponsor.carry-over", "ruling.sponsor-carry-over")
def _shuffled_decks(race: SeasonRace, upgrades: tuple[tuple[str, ...], ...],
                    conditions: Conditions | None, rng: random.Random,
                    kept: tuple[tuple[str, ...], ...]) -> tuple[tuple[str, ...], ...]:
    """Each player's deck: the race's cards, its upgrades and its kept Sponsorship cards
    (sponsor.carry-over, ruling.sponsor-carry-over), shuffled by ``rng``."""
    decks = []
    for ups, mine in zip(upgrades, kept, strict=True):
        deck = [*expected_deck(race, ups, conditions.weather if conditions else None), *mine]
        rng.shuffle(deck)
        decks.append(tuple(deck))
    return tuple(decks)


@implements("championship.season", "championship.grid", "championship.carry-over")
def play_championship(year: int, players: int, seed: int, policy: Policy = greedy_policy,
                      weather: bool = False,
                      progress: Callable[[RaceResult], None] | None = None) -> Championship:
    """Play the season of ``year`` with ``players`` players from ``seed``: ``policy``
    chooses every race action; the first grid, each Garage round (market, and random picks
    and swap), every deck and every sponsor shuffle, and with ``weather`` each race's
    weather and road tokens, come from the seed."""
    check_players(players)
    plan = season(year)
    rng = random.Random(seed)
    first = list(range(players))
    rng.shuffle(first)
    grid = tuple(first)
    pool = full_pool()
    upgrades: tuple[tuple[str, ...], ...] = ((),) * players
    sponsors = new_sponsors(players)
    totals = (0,) * players
    results: list[RaceResult] = []
    for number, race in enumerate(plan.races, start=1):
        rnd = play_round(pool, upgrades, grid, rng)
        pool, upgrades = apply_round(pool, upgrades, grid, rnd)
        order = shuffle_order(sponsors, rng)
        conditions = draw_conditions(race, rng) if weather else None
        setup = race_setup(race, players, grid, upgrades,
                           _shuffled_decks(race, upgrades, conditions, rng, sponsors.held),
                           conditions)

        def choose(state: RaceState, due: Action | None) -> Action:
            if due is not None:
                return due
            if state.is_chance():
                return random_shuffle(state, rng)
            return policy(state, legal_actions(state), rng)

        result = _run(number, race, (rnd, pool), setup, order, sponsors, totals, choose)
        results.append(result)
        if progress is not None:
            progress(result)
        sponsors, totals = result.sponsors, result.totals
        grid = next_grid(result.standings)
    return Championship(year, players, tuple(results), weather)


def replay_race(number: int, race: SeasonRace, setup: RaceSetup, actions: list[Action],
                order: tuple[str, ...], sponsors: Sponsors, totals: tuple[int, ...],
                expected_grid: tuple[int, ...] | None,
                garage: tuple[GarageRound, tuple[str, ...], tuple[tuple[str, ...], ...]],
                weather: bool = False) -> RaceResult:
    """Replay one recorded race after checking its setup is the one the championship makes
    (track, laps, grid from the standings, kept upgrades, decks of the right cards, the
    weather module exactly when the championship plays it)."""
    rnd, pool, upgrades = garage
    conditions = setup.conditions if weather else None
    if weather and conditions is None:
        raise MalformedInput("championship.season", f"race {number}: the championship plays "
                             "the weather module, the logged setup does not")
    want = race_setup(race, setup.players, setup.grid, upgrades, setup.decks, conditions)
    problems = [name for name, ok in (
        ("track", setup.track == want.track), ("laps", setup.laps == want.laps),
        ("changes", setup.changes == want.changes),
        ("modules", setup.modules == want.modules), ("upgrades", setup.upgrades == upgrades),
        ("grid", expected_grid is None or setup.grid == expected_grid),
        ("decks", all(Counter(d) == Counter(expected_deck(
            race, u, conditions.weather if conditions else None)) + Counter(kept)
                      for d, u, kept in zip(setup.decks, upgrades, sponsors.held,
                                            strict=True)))) if not ok]
    if problems:
        raise MalformedInput("championship.season", f"race {number}: the logged setup's "
                             f"{', '.join(problems)} differ from what the championship makes")

    logged = iter(actions)

    def choose(state: RaceState, due: Action | None) -> Action:
        action = next(logged, None)
        if action is None or (due is not None and action != due) or (
                due is None and isinstance(action, GainSponsor)):
            raise MalformedInput("sponsor.given-at-once", f"the log has "
                                 f"{action or 'no more actions'} where the championship "
                                 f"gives {due or 'no Sponsorship card'}")
        return action

    result = _run(number, race, (rnd, pool), want, order, sponsors, totals, choose)
    if len(result.race.actions) != len(actions) or setup.sponsors != result.race.setup.sponsors:
        raise MalformedInput("sponsor.race-start", "the logged race's start Sponsorship "
                             "cards or its length differ from the championship's")
    return result


def season_of(year: int) -> Season:
    """The season of ``year`` (re-exported for the log reader)."""
    return season(year)

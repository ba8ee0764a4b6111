"""What many races tell you: win rates by grid spot and by policy, race length, spin-outs,
Heat paid, cluttered hands and how often the rare situations happen.

Each race is played from its seed exactly as :func:`heatcore.heat.driver.random_race` plays it
(on either engine) and watched from outside: the counts come from the actions chosen and
from the cars' positions, engines and the ranking after each step, not from the engine's
events (the fast engine records none); only spin-outs are the engine's own tally (the
reference engine's ``spun-out`` events, the fast engine's ``spins``), as a spin need not
move a car back. ``tests/test_outcomes.py`` checks the fast engine's counts against the
reference engine's events.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Protocol

from heatcore.framework.batching import map_races
from heatcore.heat.actions import (
    Action,
    AdrenalineCooldown,
    AdrenalineMove,
    Boost,
    Cooldown,
    Plan,
    SectorCooldown,
    Shuffle,
    Slipstream,
)
from heatcore.heat.cards import HEAT
from heatcore.heat.conformance.steering import aggressive_policy, clutter_policy
from heatcore.heat.driver import MAX_ACTIONS, Policy, greedy_policy, random_policy, random_shuffle
from heatcore.heat.engine import apply, legal_actions
from heatcore.heat.fast import CollectorPaused, FastRace
from heatcore.heat.fast.driver import fast_random_policy, on_reference_state
from heatcore.heat.fast.driver import random_shuffle as fast_shuffle
from heatcore.heat.rulings import DEFAULT_RULINGS, Rulings
from heatcore.heat.setup import RaceSetup, random_setup, start_race
from heatcore.heat.state import RaceState
from heatcore.heat.summary import laps_text

#: The drivers ``heatcore race --policy`` offers (each sees the reference state).
POLICIES: dict[str, Policy] = {"greedy": greedy_policy, "random": random_policy,
                               "aggressive": aggressive_policy, "clutter": clutter_policy}

#: The rare situations counted, with what each means.
SITUATIONS = {
    "spin-out": "a car spun out",
    "cluttered-hand": "a car had to play a Heat card (cluttered hand)",
    "reshuffle": "a deck ran out and was reshuffled",
    "several-finish-one-round": "two or more cars were ranked at the end of one round",
    "later-mover-wins": "the winner was not the first car across the line",
}


@dataclass(frozen=True)
class ModuleChoice:
    """The modules a batch plays (``race --modules --legends --aggressive``): none by
    default, the core race."""

    modules: tuple[str, ...] = ()
    legends: int = 0
    aggressive: bool = False

    def text(self) -> str:
        """The modules for people (empty for the core race)."""
        if not self.modules:
            return ""
        parts = list(self.modules)
        if "legends" in self.modules:
            parts[-1] += f" ({max(1, self.legends)} Legend"
            parts[-1] += "s" if max(1, self.legends) > 1 else ""
            parts[-1] += ", aggressive)" if self.aggressive else ")"
        return "modules: " + ", ".join(parts)


CORE = ModuleChoice()
#: The seat name of a Legend car in a batch's policies (Legends choose nothing).
LEGEND_SEAT = "legend"


@dataclass(frozen=True)
class RaceOutcome:
    """One race as seen from outside: its seed, length, grid, ranking, the policy of each
    car, and counts of what happened."""

    seed: int
    actions: int
    rounds: int
    grid: tuple[int, ...]  # cars from pole back
    ranking: tuple[int, ...]
    policies: tuple[str, ...]  # each car's policy
    spins: int
    heat_paid: int
    cluttered: int
    boosts: int
    slipstreams: int
    adrenaline_moves: int
    reshuffles: int
    most_ranked_in_a_round: int
    first_across: int | None
    sector_cooldowns: int = 0  # weather module: cooling bonuses taken
    slipstream_bonuses: int = 0  # weather module: slipstreams that took the sector's bonus

    def situations(self) -> set[str]:
        """The rare situations this race reached."""
        seen = set()
        if self.spins:
            seen.add("spin-out")
        if self.cluttered:
            seen.add("cluttered-hand")
        if self.reshuffles:
            seen.add("reshuffle")
        if self.most_ranked_in_a_round >= 2:
            seen.add("several-finish-one-round")
        if self.ranking and self.first_across is not None \
                and self.first_across != self.ranking[0]:
            seen.add("later-mover-wins")
        return seen


class _Game(Protocol):
    """One engine's race, as the watcher needs it."""

    def over(self) -> bool: ...
    def next_action(self, choose: Callable[[Any, tuple[Action, ...]], Action],
                    rng: random.Random) -> Action: ...
    def apply(self, action: Action) -> None: ...
    def cars(self) -> list[tuple[int, int]]: ...  # (position, engine) of each car
    def round(self) -> int: ...
    def ranking(self) -> tuple[int, ...]: ...
    def spins(self) -> int: ...


class _FastGame:
    def __init__(self, setup: RaceSetup) -> None:
        self.race = FastRace.start(setup)

    def over(self) -> bool:
        return self.race.is_over()

    def next_action(self, choose: Callable[[Any, tuple[Action, ...]], Action],
                    rng: random.Random) -> Action:
        if self.race.shuffle is not None:
            return fast_shuffle(self.race, rng)
        return choose(self.race, self.race.legal_actions())

    def apply(self, action: Action) -> None:
        self.race.apply(action)

    def cars(self) -> list[tuple[int, int]]:
        return [(car.position, car.engine) for car in self.race.cars]

    def round(self) -> int:
        return self.race.round

    def ranking(self) -> tuple[int, ...]:
        return self.race.ranking

    def spins(self) -> int:
        return self.race.spins


class _ReferenceGame:
    def __init__(self, setup: RaceSetup) -> None:
        self.state: RaceState = start_race(setup)[0]
        self.spun = 0

    def over(self) -> bool:
        return self.state.is_over()

    def next_action(self, choose: Callable[[Any, tuple[Action, ...]], Action],
                    rng: random.Random) -> Action:
        if self.state.is_chance():
            return random_shuffle(self.state, rng)
        return choose(self.state, legal_actions(self.state))

    def apply(self, action: Action) -> None:
        self.state, events = apply(self.state, action)
        self.spun += sum(ev.kind == "spun-out" for ev in events)

    def cars(self) -> list[tuple[int, int]]:
        return [(car.position, car.engine) for car in self.state.cars]

    def round(self) -> int:
        return self.state.round

    def ranking(self) -> tuple[int, ...]:
        return self.state.ranking

    def spins(self) -> int:
        return self.spun


def seat_policies(names: Sequence[str], players: int) -> tuple[str, ...]:
    """Each car's policy: the names in turn, car 1 the first (``greedy,random``: P1 greedy,
    P2 random, P3 greedy, ...)."""
    return tuple(names[i % len(names)] for i in range(players))


def _driver(name: str, engine: str) -> Callable[[Any, tuple[Action, ...], random.Random],
                                                 Action]:
    """The policy ``name`` for ``engine`` (on the fast engine it sees the reference state,
    except the random policy, which needs no state)."""
    if engine != "fast":
        return POLICIES[name]
    if name == "random":
        return fast_random_policy
    return on_reference_state(POLICIES[name])


def observe_race(track: str, players: int, seed: int, laps: int | None,
                 policies: Sequence[str], engine: str = "fast",
                 rulings: Rulings = DEFAULT_RULINGS,
                 modules: ModuleChoice = CORE) -> RaceOutcome:
    """Play one seeded race (as ``random_race`` would, policies seated by
    :func:`seat_policies`, under ``rulings``, playing ``modules``) and count what happened.
    Legend cars sit after the players' cars under the seat name ``legend``."""
    rng = random.Random(seed)
    setup = random_setup(track, players, rng, laps, modules.modules, modules.legends,
                         modules.aggressive, rulings)
    game: _Game = _FastGame(setup) if engine == "fast" else _ReferenceGame(setup)
    seats = seat_policies(policies, players) + (LEGEND_SEAT,) * setup.legends
    drivers = {name: _driver(name, engine) for name in set(seats) if name != LEGEND_SEAT}

    def choose(view: Any, legal: tuple[Action, ...]) -> Action:
        action: Action = drivers[seats[legal[0].car]](view, legal, rng)
        return action

    finish = start_race(setup)[0].finish_position
    before = game.cars()
    start_engines = [engine_ for _, engine_ in before]
    cooled = cluttered = boosts = slipstreams = moves = reshuffles = 0
    sector_cooldowns = bonuses = 0
    ranked_in_round: dict[int, int] = {}
    first_across: int | None = None
    count = 0
    while not game.over() and count < MAX_ACTIONS:
        action = game.next_action(choose, rng)
        round_before, ranked_before = game.round(), len(game.ranking())
        game.apply(action)
        count += 1
        if isinstance(action, Cooldown):
            cooled += action.amount
        elif isinstance(action, AdrenalineCooldown):
            cooled += 1
        elif isinstance(action, SectorCooldown):
            cooled += 1
            sector_cooldowns += 1
        elif isinstance(action, Plan) and HEAT in action.cards:
            cluttered += 1
        elif isinstance(action, Boost):
            boosts += 1
        elif isinstance(action, Slipstream):
            slipstreams += 1
            bonuses += action.extra > 0
        elif isinstance(action, AdrenalineMove):
            moves += 1
        elif isinstance(action, Shuffle):
            reshuffles += 1
        after = game.cars()
        for car, ((was, _), (now, _)) in enumerate(zip(before, after, strict=True)):
            if first_across is None and was <= finish < now:
                first_across = car
        newly = len(game.ranking()) - ranked_before
        if newly:
            ranked_in_round[round_before] = ranked_in_round.get(round_before, 0) + newly
        before = after
    heat_paid = sum(start_engines) + cooled - sum(engine_ for _, engine_ in before)
    grid = setup.grid
    return RaceOutcome(seed, count, game.round(), grid, game.ranking(), seats, game.spins(),
                       heat_paid, cluttered, boosts, slipstreams, moves, reshuffles,
                       max(ranked_in_round.values(), default=0), first_across,
                       sector_cooldowns, bonuses)


Job = tuple[str, int, int, int | None, tuple[str, ...], str, Rulings, ModuleChoice]


def _job(job: Job) -> RaceOutcome:
    return observe_race(*job)


@dataclass
class Outcomes:
    """The outcomes of a batch of races, with the wall time the batch took."""

    track: str
    players: int
    laps: int | None
    policies: tuple[str, ...]
    engine: str
    workers: int
    seconds: float = 0.0
    races: list[RaceOutcome] = field(default_factory=list)
    modules: ModuleChoice = CORE

    @property
    def actions(self) -> int:
        """Actions in all races."""
        return sum(r.actions for r in self.races)

    def wins_by_grid_spot(self) -> list[float]:
        """For each grid spot from pole back (Legends' spots included), the share of races
        won from it."""
        wins = [0] * (len(self.races[0].grid) if self.races else self.players)
        for race in self.races:
            if race.ranking:
                wins[race.grid.index(race.ranking[0])] += 1
        return [w / len(self.races) for w in wins]

    def wins_by_policy(self) -> dict[str, tuple[float, float]]:
        """For each policy: its share of the wins and its share of the cars."""
        wins: dict[str, int] = {}
        seats: dict[str, int] = {}
        for race in self.races:
            for name in race.policies:
                seats[name] = seats.get(name, 0) + 1
            if race.ranking:
                name = race.policies[race.ranking[0]]
                wins[name] = wins.get(name, 0) + 1
        cars = sum(seats.values())
        return {name: (wins.get(name, 0) / len(self.races), seats[name] / cars)
                for name in sorted(seats)}

    def spread(self, values: list[int]) -> dict[str, float]:
        """Mean, standard deviation, least and most of ``values``."""
        return {"mean": statistics.fmean(values),
                "sd": statistics.pstdev(values) if len(values) > 1 else 0.0,
                "min": min(values), "max": max(values)}

    def situation_rates(self) -> dict[str, float]:
        """For each rare situation, the share of races in which it happened."""
        return {name: sum(name in r.situations() for r in self.races) / len(self.races)
                for name in SITUATIONS}

    def per_race_keys(self) -> tuple[str, ...]:
        """The per-race counts summarised (the weather module's only when it is played)."""
        keys: tuple[str, ...] = ("rounds", "actions", "spins", "heat_paid", "cluttered", "boosts",
                "slipstreams", "adrenaline_moves", "reshuffles")
        if "weather" in self.modules.modules:
            keys += ("sector_cooldowns", "slipstream_bonuses")
        return keys

    def summary(self) -> dict[str, Any]:
        """Everything above as JSON data (``race --count N --json FILE`` writes it)."""
        per_race = {key: self.spread([getattr(r, key) for r in self.races])
                    for key in self.per_race_keys()}
        modules = {}
        if self.modules.modules:
            modules = {"modules": list(self.modules.modules),
                       "legends": self.races[0].policies.count(LEGEND_SEAT) if self.races
                       else self.modules.legends, "aggressive": self.modules.aggressive}
        return {
            "format": "heatcore.outcomes/1", **modules,
            "track": self.track, "players": self.players, "laps": self.laps,
            "policies": list(self.policies), "engine": self.engine, "workers": self.workers,
            "races": len(self.races), "seconds": round(self.seconds, 3),
            "wins_by_grid_spot": self.wins_by_grid_spot(),
            "wins_by_policy": {k: {"wins": w, "cars": c}
                               for k, (w, c) in self.wins_by_policy().items()},
            "per_race": per_race,
            "situations": self.situation_rates(),
            "results": [asdict(r) for r in self.races],
        }


def observe_races(track: str, players: int, seeds: list[int], laps: int | None,
                  policies: Sequence[str], engine: str = "fast", workers: int = 1,
                  progress: Callable[[int], None] | None = None,
                  rulings: Rulings = DEFAULT_RULINGS, modules: ModuleChoice = CORE,
                  scheduler: str | None = None) -> Outcomes:
    """:func:`observe_race` for each seed (under ``rulings``, playing ``modules``), on
    ``workers`` processes (one: in this process) or, with ``scheduler``, on a Dask cluster
    (:mod:`heatcore.framework.cluster`: ``local`` starts one of ``workers`` workers) in batches of
    races; ``progress`` is called with the number of races just finished. The results are
    in seed order wherever they ran."""
    jobs: list[Job] = [(track, players, seed, laps, tuple(policies), engine, rulings, modules)
                       for seed in seeds]
    out = Outcomes(track, players, laps, tuple(policies), engine, workers, modules=modules)
    start = time.perf_counter()
    # fast races make no reference cycles: the collector rests for the whole batch
    with CollectorPaused(engine == "fast"):
        out.races = map_races(_job, jobs, workers, scheduler, tick=progress)
    out.seconds = time.perf_counter() - start
    return out


def _pct(share: float) -> str:
    return f"{100 * share:.1f}%"


def outcome_lines(out: Outcomes) -> list[str]:
    """The outcomes for people."""
    seeds = [r.seed for r in out.races]
    laps = "the track's laps" if out.laps is None else laps_text(out.laps)
    lines = [f"{len(out.races)} races on {out.track}, {out.players} cars, {laps}, seeds "
             f"{min(seeds)}..{max(seeds)}",
             f"policies by seat: {', '.join(seat_policies(out.policies, out.players))}"]
    if out.modules.modules:
        lines.append(out.modules.text())
    spots = out.wins_by_grid_spot()
    lines.append("wins by grid spot (pole first): "
                 + "  ".join(f"{i + 1}: {_pct(s)}" for i, s in enumerate(spots)))
    if len(set(out.policies)) > 1 or out.modules.legends or "legends" in out.modules.modules:
        lines.append("wins by policy     wins    cars")
        for name, (w, c) in out.wins_by_policy().items():
            lines.append(f"  {name:<14} {_pct(w):>6}  {_pct(c):>6}")
    summary = out.summary()["per_race"]
    names = {"rounds": "rounds", "actions": "actions", "spins": "spin-outs",
             "heat_paid": "Heat paid", "cluttered": "cluttered hands", "boosts": "boosts",
             "slipstreams": "slipstreams", "adrenaline_moves": "adrenaline moves",
             "reshuffles": "reshuffles", "sector_cooldowns": "cooling bonuses",
             "slipstream_bonuses": "slipstream +N"}
    lines.append("per race            mean      sd   min   max")
    for key in out.per_race_keys():
        label = names[key]
        s = summary[key]
        lines.append(f"  {label:<16} {s['mean']:7.2f} {s['sd']:7.2f} {s['min']:5d} "
                     f"{s['max']:5d}")
    lines.append("races in which it happened:")
    for name, share in out.situation_rates().items():
        lines.append(f"  {_pct(share):>6}  {SITUATIONS[name]}")
    return lines


def seated_policy(names: Sequence[str], players: int) -> Policy:
    """One reference-engine policy that lets each car choose by its seat's policy."""
    seats = seat_policies(names, players)

    def choose(state: RaceState, legal: tuple[Action, ...], rng: random.Random) -> Action:
        return POLICIES[seats[legal[0].car]](state, legal, rng)
    return choose


def policy_names(text: str) -> tuple[str, ...]:
    """``greedy,random`` as names; ValueError naming an unknown one."""
    names = tuple(part.strip() for part in text.split(","))
    unknown = [n for n in names if n not in POLICIES]
    if unknown or not names:
        raise ValueError(f"unknown policy {', '.join(map(repr, unknown))} (policies: "
                         f"{', '.join(POLICIES)}; several, comma-separated, take turns by seat)")
    return names

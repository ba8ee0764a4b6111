"""Record the completed turns of real engine races for the refinement check.

A ``TurnRecord`` holds what the Z3 turn is pinned to: the car before its plan (steps 1-2
happen before any car moves), the spots of the other cars and the Stress supply when its
turn (steps 3-9) starts, the round's order, every decision the engine offered (its
``legal_actions``) with the action taken, the turn's events (flipped cards, shuffles,
payments) and the car after its turn. ``sample_races`` plays seeded races of mixed
drivers chosen to reach spins, reshuffles, cluttered hands, boosts, slipstreams and lapped
cars; ``features`` says which of those a turn shows.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from heatcore.framework.events import Event
from heatcore.heat.actions import (
    Action,
    AdrenalineCooldown,
    AdrenalineMove,
    Boost,
    Cooldown,
    DeclineSlipstream,
    Discard,
    EndReact,
    Plan,
    Slipstream,
)
from heatcore.heat.cards import HEAT, VALUE
from heatcore.heat.driver import Policy, greedy_policy, play, random_policy
from heatcore.heat.engine import legal_actions
from heatcore.heat.rulings import DEFAULT_RULINGS, Rulings
from heatcore.heat.setup import random_setup
from heatcore.heat.state import Car, Phase, RaceState, Stage

TRACKS: tuple[str, ...] = ("usa", "italia", "france", "great-britain")
_STAGE_KIND = {Stage.REACT: "react", Stage.SLIPSTREAM: "slipstream", Stage.DISCARD: "discard"}


@dataclass(frozen=True)
class Decision:
    """One decision the engine asked of the acting car: its legal actions, the one taken,
    and the state it was asked in."""

    kind: str  # plan, react, slipstream, discard
    legal: tuple[Action, ...]
    chosen: Action
    state: RaceState


@dataclass
class TurnRecord:
    """One car's completed turn in a real race."""

    race: str
    round: int
    car: int
    track: str
    laps: int
    spaces_per_lap: int
    pre: Car  # before its plan
    plan_events: tuple[Event, ...]
    start: tuple[int, bool]
    others: tuple[tuple[int, bool], ...]
    supply: int
    starters: int
    racing: int
    index: int
    decisions: list[Decision] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    post: Car | None = None
    rulings: Rulings = DEFAULT_RULINGS  # the alternatives the race plays

    @property
    def label(self) -> str:
        """Where the turn is: race, round and car."""
        return f"{self.race} round {self.round} P{self.car + 1}"


class Recorder:
    """Follows a race step by step (``on_step``) and collects its completed turns."""

    def __init__(self, race: str, laps: int) -> None:
        self.race, self.laps = race, laps
        self.turns: list[TurnRecord] = []
        self._plans: dict[int, tuple[Car, Decision, tuple[Event, ...]]] = {}
        self._open: TurnRecord | None = None

    def on_step(self, state: RaceState, action: Action, after: RaceState,
                events: tuple[Event, ...]) -> None:
        """Record one applied action and the events it caused."""
        if isinstance(action, Plan):
            planning = []
            for ev in events:
                if ev.kind == "turn-started":
                    break
                planning.append(ev)
            self._plans[action.car] = (state.cars[action.car],
                                       Decision("plan", legal_actions(state), action, state),
                                       ())
            # the shifts of every plan are made (and two-gear shifts paid) after the last
            # plan (ruling.simultaneous-planning): give each car its own plan events
            for car, (pre, decision, _) in list(self._plans.items()):
                own = tuple(ev for ev in planning if ev.car == car)
                if own or car == action.car:
                    old = self._plans[car][2]
                    self._plans[car] = (pre, decision, old + own)
        elif state.phase is Phase.TURN and state.shuffle is None and state.turn is not None:
            kind = _STAGE_KIND.get(state.turn.stage)
            if kind is not None and self._open is not None:
                self._open.decisions.append(Decision(kind, legal_actions(state), action, state))
        spots = {i: state.cars[i].spot for i in state.on_track()}
        supply = state.supply
        ending: TurnRecord | None = None
        for ev in events:
            if ev.kind in ("turn-started", "round-started", "race-over") and self._open:
                ending, self._open = self._open, None
            if ev.kind == "turn-started" and ev.car is not None:
                self._open = self._start(state, ev.car, spots, supply)
            if self._open is not None and ev.car == self._open.car:
                self._open.events.append(ev)
            if ev.kind in ("moved", "spun-out") and ev.car is not None:
                spots[ev.car] = (int(ev.get("position")), bool(ev.get("racing_line")))
            if ev.kind == "spun-out":
                supply -= int(ev.get("stress"))
            if ev.kind == "ranked" and ev.car is not None:
                spots.pop(ev.car, None)
            if ending is not None:
                ending.post = after.cars[ending.car]
                self.turns.append(ending)
                ending = None
        if self._open is not None and (after.phase is not Phase.TURN or after.turn is None
                                       or after.turn.car != self._open.car) \
                and after.shuffle != self._open.car:
            self._open.post = after.cars[self._open.car]
            self.turns.append(self._open)
            self._open = None

    def _start(self, state: RaceState, car: int, spots: dict[int, tuple[int, bool]],
               supply: int) -> TurnRecord:
        pre, plan, plan_events = self._plans.pop(car)
        others = tuple(sorted((s for i, s in spots.items() if i != car),
                              key=lambda s: (-s[0], not s[1])))
        rec = TurnRecord(race=self.race, round=state.round, car=car, track=state.track.id,
                         laps=self.laps, spaces_per_lap=state.track.spaces_per_lap, pre=pre,
                         plan_events=plan_events, start=spots[car], others=others,
                         supply=supply, starters=len(state.cars), racing=len(state.order),
                         index=state.order.index(car), rulings=state.rulings)
        rec.decisions.append(plan)
        return rec


# ---- drivers ---------------------------------------------------------------------------

def _plan_speed(action: Action) -> int:
    return sum(VALUE[c] for c in action.cards) if isinstance(action, Plan) else 0


def bold_policy(state: RaceState, legal: tuple[Action, ...], rng: random.Random) -> Action:
    """Takes boosts, slipstreams and adrenaline moves and fast plans: spins often."""
    for kind in (Boost, Slipstream, AdrenalineMove):
        hits = [a for a in legal if isinstance(a, kind)]
        if hits and rng.random() < 0.8:
            return hits[0]
    if isinstance(legal[0], Plan) and rng.random() < 0.7:
        return max(legal, key=lambda a: (_plan_speed(a), rng.random()))
    return legal[rng.randrange(len(legal))]


def hoarder_policy(state: RaceState, legal: tuple[Action, ...], rng: random.Random) -> Action:
    """Drives boldly (Heat goes out on boosts and shifts) but never cools down and never
    discards: Heat piles up in hand, so hands get cluttered."""
    keep = tuple(a for a in legal if not isinstance(a, Cooldown | AdrenalineCooldown)
                 and not (isinstance(a, Discard) and a.cards))
    return bold_policy(state, keep or legal, rng)


def crawler_policy(state: RaceState, legal: tuple[Action, ...], rng: random.Random) -> Action:
    """Plays the slowest plan, never boosts or slipstreams: gets lapped."""
    if isinstance(legal[0], Plan):
        return min(legal, key=lambda a: (_plan_speed(a), rng.random()))
    for kind in (EndReact, DeclineSlipstream):
        hits = [a for a in legal if isinstance(a, kind)]
        if hits:
            return hits[0]
    return legal[rng.randrange(len(legal))]


PERSONAS: dict[str, Policy] = {"random": random_policy, "greedy": greedy_policy,
                               "bold": bold_policy, "hoarder": hoarder_policy,
                               "crawler": crawler_policy}


def mixed(personas: tuple[str, ...]) -> Policy:
    """A policy that drives car i with ``personas[i]``."""
    def policy(state: RaceState, legal: tuple[Action, ...], rng: random.Random) -> Action:
        return PERSONAS[personas[legal[0].car]](state, legal, rng)
    return policy


def race_config(seed: int) -> tuple[str, int, int, tuple[str, ...]]:
    """Track, cars (2-6), laps (1-3) and each car's driver for race ``seed``: each track,
    car count and lap count comes round within 5 races, all 60 combinations within 60;
    every other race holds a crawler to be lapped."""
    rng = random.Random(seed * 7919 + 1)
    track = TRACKS[seed % len(TRACKS)]
    cars = 2 + seed % 5
    laps = 1 + seed % 3
    names = ["random", "greedy", "bold", "hoarder"]
    personas = [names[rng.randrange(len(names))] for _ in range(cars)]
    if seed % 2 == 0:
        personas[rng.randrange(cars)] = "crawler"
    return track, cars, laps, tuple(personas)


def race_turns(seed: int, stats: Counter[str] | None = None,
               rulings: Rulings = DEFAULT_RULINGS) -> list[TurnRecord]:
    """Every completed turn of race ``seed`` (played under ``rulings``). ``stats`` counts
    the race, its states and whether it was left unfinished (a state with no legal action
    would stop the driver: every state of a race that ends passed the no-deadlock check)."""
    track, cars, laps, personas = race_config(seed)
    rng = random.Random(seed)
    label = f"race {seed} ({track}, {cars} cars, {laps} laps, {'/'.join(personas)})"
    if rulings.changed:
        label += " under " + ", ".join(f"{r}={o}" for r, o in rulings.changed)
    rec = Recorder(label, laps)
    race = play(random_setup(track, cars, rng, laps, rulings=rulings), mixed(personas), rng,
                rec.on_step)
    if stats is not None:
        stats["races"] += 1
        stats["states"] += len(race.actions) + 1
        stats["unfinished"] += not race.final.is_over()
    return [t for t in rec.turns if t.post is not None]


#: Situations rare in random play: every turn showing one is checked.
RARE = frozenset({"cluttered", "slipstream", "lapped-near", "spin", "reshuffle"})


def sample_races(turns: int, seeds: Iterable[int] = itertools.count(),
                 plain: float = 0.3, stats: Counter[str] | None = None,
                 rulings: Rulings = DEFAULT_RULINGS) -> Iterator[TurnRecord]:
    """``turns`` completed turns of the races ``seeds`` (played under ``rulings``): every
    turn showing a rare situation (``RARE``), and a seeded share ``plain`` of the others."""
    count = 0
    for seed in seeds:
        pick = random.Random(seed + 104729)
        for t in race_turns(seed, stats, rulings):
            if count >= turns:
                return
            if features(t) & RARE or pick.random() < plain:
                count += 1
                yield t
        if count >= turns:
            return


def features(t: TurnRecord) -> set[str]:
    """The situations a turn shows (for the sample's coverage table)."""
    out: set[str] = set()
    kinds = [e.kind for e in t.events]
    if "spun-out" in kinds:
        out.add("spin")
    if "cluttered" in kinds:
        out.add("cluttered")
    if "shuffled" in kinds:
        out.add("reshuffle")
    for d in t.decisions:
        if isinstance(d.chosen, Boost):
            out.add("boost")
        if isinstance(d.chosen, Slipstream):
            out.add("slipstream")
        if isinstance(d.chosen, AdrenalineMove):
            out.add("adrenaline")
        if isinstance(d.chosen, Cooldown):
            out.add("cooldown")
        if d.kind == "plan" and HEAT in getattr(d.chosen, "cards", ()):
            out.add("cluttered")
    lap = t.spaces_per_lap
    for pos, _ in t.others:
        if abs(pos - t.start[0]) >= lap - 2:
            out.add("lapped")
            if min((pos - t.start[0]) % lap, (t.start[0] - pos) % lap) <= 2:
                out.add("lapped-near")
    return out

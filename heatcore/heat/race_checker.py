"""The race checker: every step of an engine checked against an independent model.

:class:`RaceChecker` runs :class:`heatcore.heat.oracle.model.RaceModel` beside an engine. At every
step it checks, each failure naming its rule IDs:

- the engine's *set* of legal actions against the model's own enumeration
  (:mod:`heatcore.heat.oracle.choices`), and that the engine awaits a shuffle exactly when the
  model does;
- the state after the step, field by field (spots, gears, engines, hands, decks, discard
  piles, play areas, supply, order, ranking, the turn's speed), against the model's;
- the step's events against the events the model derives itself (when the engine reports
  events; the fast engine does not);
- the validity checks of :mod:`heatcore.heat.validity` and a bound on the rounds.

What it is independent of: the engine's rule modules and tables (``heatcore.heat.cards``,
``heatcore.heat.track``, ``heatcore.heat.planning`` ...; the model recomputes every speed from the
printed card values in ``spec/cards.toml``, the cards it flips itself, the boost and the
adrenaline), the engine's events and its turn bookkeeping (never read, only compared), and the
engine's notion of the board (the model places cars on physical spaces, so a car a lap behind
blocks and gives slipstream, as seed 000 says). It shares with the engine the state and action
types, the state it starts from and the order of the shuffles it is given. It counts the rare
situations it sees (:data:`SITUATIONS`). :func:`check_race` and :func:`seeded_batch` drive it
with seeded policies; :mod:`heatcore.heat.strategies` with Hypothesis.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

from heatcore.framework.events import Event
from heatcore.heat.actions import (
    Action,
    AdrenalineCooldown,
    AdrenalineMove,
    Boost,
    ChooseSpeed,
    Cooldown,
    DeclineSlipstream,
    Discard,
    EndReact,
    LegendShuffle,
    Plan,
    SectorCooldown,
    Shuffle,
    Slipstream,
    UseSymbol,
)
from heatcore.heat.conformance.steering import Policy as Policy
from heatcore.heat.conformance.steering import aggressive_policy as aggressive_policy
from heatcore.heat.conformance.steering import clutter_policy as clutter_policy
from heatcore.heat.conformance.steering import mixed_policy as mixed_policy
from heatcore.heat.engine import apply, legal_actions
from heatcore.heat.notation import state_from_json, state_to_json
from heatcore.heat.oracle.board import Board
from heatcore.heat.oracle.choices import HAND_SIZE
from heatcore.heat.oracle.model import Chance, ModelError, Over, RaceModel
from heatcore.heat.oracle.modules import Weather
from heatcore.heat.oracle.printed import printed_track
from heatcore.heat.setup import RaceSetup, start_race
from heatcore.heat.state import Phase, RaceState
from heatcore.heat.track import Track, track_ids
from heatcore.heat.validity import RULE_OF, Problem, status


def is_legal(state: RaceState, action: Action) -> bool:
    """Whether ``action`` is a legal next input (a listed action, or the awaited shuffle)."""
    if state.is_chance():
        car = state.shuffle
        assert car is not None
        if state.is_legend(car):
            return (isinstance(action, LegendShuffle) and action.car == car
                    and sorted(action.order) == list(range(1, 11)))
        pool = state.cars[car].deck + state.cars[car].discard
        if state.garage is not None and state.garage.salvage:  # upgrade.salvage: deck alone
            pool = state.cars[car].deck
        return (isinstance(action, Shuffle) and action.car == car and
                Counter(action.order) == Counter(pool))
    return action in legal_actions(state)


#: The rare situations :class:`RaceChecker` counts.
SITUATIONS = (
    "spin-out",
    "two-corners-one-move",
    "spin-at-second-corner-after-paying",
    "cluttered-hand",
    "adrenaline-two-cars",
    "slipstream-across-corner",
    "blocked-final-space",
    "reshuffle-during-stress-flip",
    "two-finish-one-round",
    "later-mover-wins",
)

#: Rules named when a field differs and the model did not touch it in the step.
FIELD_RULES: dict[str, tuple[str, ...]] = {
    "position": ("move.exact", "place.racing-line-first", "place.blocked"),
    "racing_line": ("place.racing-line-first", "place.blocked"),
    "gear": ("gear.shift.free", "gear.range"),
    "engine": ("react.cooldown", "react.boost", "corner.pay-heat",
               "gear.shift.two-costs-heat"),
    "hand": ("replenish.draw", "react.cooldown", "discard.optional"),
    "deck": ("deck.reshuffle", "replenish.draw", "reveal.stress-flip"),
    "discard": ("replenish.cleanup", "discard.optional", "deck.reshuffle"),
    "played": ("play.card-count", "replenish.cleanup"),
    "sponsors": ("sponsor.in-hand", "sponsor.one-time", "sponsor.given-at-once"),
    "spent": ("sponsor.one-time",),
    "flipped": ("reveal.stress-flip", "react.boost", "replenish.cleanup"),
    "supply": ("setup.stress-supply", "ruling.stress-supply", "corner.spin"),
    "round": ("round.sequence",),
    "phase": ("round.sequence", "finish.removed"),
    "order": ("order.fixed-at-round-start", "finish.removed"),
    "cursor": ("round.sequence", "order.fixed-at-round-start"),
    "ranking": ("finish.ranking", "finish.removed"),
    "out": ("event.sponsor-withdraws", "ruling.eliminated-turn"),
    "shuffle": ("deck.reshuffle",),
}

#: Rules named for an engine event the model did not expect.
EVENT_RULES: dict[str, tuple[str, ...]] = {
    "moved": ("move.exact", "place.blocked"), "crossed-finish": ("finish.line",),
    "corner": ("corner.check", "corner.pay-heat"), "spun-out": ("corner.spin",),
    "paid-heat": ("gear.shift.two-costs-heat", "react.boost"), "cooled": ("react.cooldown",),
    "adrenaline": ("adrenaline.effects",), "speed": ("speed.turn-total",),
    "flipped": ("reveal.stress-flip",), "drew": ("replenish.draw",),
    "ranked": ("finish.ranking",), "cluttered": ("play.cluttered",),
    "eliminated": ("event.sponsor-withdraws", "ruling.eliminated-turn"),
}


class RuleViolation(AssertionError):
    """An engine step that breaks the rules; the message starts with the rule IDs."""

    def __init__(self, rules: Iterable[str], detail: str) -> None:
        names = tuple(sorted(set(rules))) or ("round.sequence",)
        super().__init__(f"[{', '.join(names)}] {detail}")
        self.rules = names


def _require(ok: bool, rules: Iterable[str], detail: str) -> None:
    if not ok:
        raise RuleViolation(rules, detail)


def corner_line_positions(track: Track, start: int, end: int,
                          laps: int) -> list[tuple[int, int, int]]:
    """(position, limit, number) of each corner line crossed moving ``start`` -> ``end``,
    in crossing order, from the printed board (lines past the final finish never count)."""
    return Board(printed_track(track.id), laps).lines_crossed(start, end)


def round_bound(track: Track, laps: int) -> int:
    """The bound on rounds the checker enforces: 3 rounds per space of the race plus 10.

    Checked, not proved: a car that plays neither the 0 card, nor a cluttered hand, nor ends
    fully blocked moves at least one space a round, and the races observed take less than
    one round per space."""
    return 3 * track.spaces_per_lap * laps + 10


class Stepper(Protocol):
    """What the checker needs of an engine: its legal actions in a state."""

    def __call__(self, state: RaceState) -> tuple[Action, ...]: ...


def _rules_of_action(model: RaceModel, action: Action) -> set[str]:
    """The rules that decide whether ``action`` is legal now."""
    car = model.cars[action.car]
    if isinstance(action, Plan):
        step = abs(action.gear - car.gear)
        if "H" in action.cards:
            return {"play.cluttered", "play.cluttered-only-when-forced", "ruling.cluttered-gear"}
        if not 1 <= action.gear <= 4:
            return {"gear.range"}
        if step >= 3:
            return {"gear.shift.no-three"}
        if step == 2:
            return {"gear.shift.two-costs-heat"}
        return {"play.card-count", "play.playable-cards", "play.cluttered-only-when-forced"}
    if isinstance(action, Cooldown):
        return {"react.cooldown"}
    if isinstance(action, AdrenalineCooldown | AdrenalineMove):
        turn = model.turn
        return {"adrenaline.effects"} if turn is not None and turn.adrenaline else {
            "adrenaline.who", "adrenaline.count-fixed"}
    if isinstance(action, Boost):
        return {"react.boost"}
    if isinstance(action, EndReact):
        return {"react.any-order"}
    if isinstance(action, Slipstream | DeclineSlipstream):
        near = car.position + 2 > model.board.finish
        return {"slipstream.not-past-finish"} if near else {"slipstream.eligible"}
    if isinstance(action, Discard):
        return {"discard.optional"}
    if isinstance(action, SectorCooldown):
        return {"weather.cooling-bonus"}
    if isinstance(action, LegendShuffle):
        return {"legend.deck"}
    if isinstance(action, ChooseSpeed):
        return {"garage.choose-speed"}
    if isinstance(action, UseSymbol):
        return {f"upgrade.{action.symbol}", "garage.symbols-any-order"}
    return {"deck.reshuffle"}


def compare_choices(model: RaceModel, state: RaceState,
                    legal: Callable[[RaceState], tuple[Action, ...]] = legal_actions) -> None:
    """The engine's next input (its legal actions, or a shuffle) against the model's."""
    pending = model.pending
    if isinstance(pending, Over):
        _require(state.is_over(), pending.rules, "the race is over but the engine goes on")
        return
    if isinstance(pending, Chance):
        _require(state.shuffle == pending.car, pending.rules,
                 f"a shuffle of P{pending.car + 1} is due; the engine awaits {state.shuffle}")
        return
    _require(state.shuffle is None, ("deck.reshuffle",),
             f"the engine awaits a shuffle of P{(state.shuffle or 0) + 1}; none is due")
    engine = legal(state)
    _require(len(set(engine)) == len(engine), ("round.sequence",), "duplicate legal actions")
    if set(engine) == pending.actions:
        return
    missing = sorted(map(str, pending.actions - set(engine)))
    extra = sorted(map(str, set(engine) - pending.actions))
    rules: set[str] = set()
    for action in pending.actions.symmetric_difference(engine):
        rules |= _rules_of_action(model, action)
    raise RuleViolation(rules, f"legal actions differ: the engine lacks {missing[:6]}"
                        f" and offers {extra[:6]} (of {len(pending.actions)} legal)")


def compare_state(model: RaceModel, state: RaceState) -> None:
    """The engine's state against the model's, field by field."""
    def differ(car: int | None, name: str, engine: Any, expected: Any) -> None:
        if engine != expected:
            rules = model.why.get((car, name)) or FIELD_RULES.get(name, ())
            who = f"P{car + 1} " if car is not None else ""
            raise RuleViolation(rules, f"{who}{name}: the engine has {engine!r},"
                                f" the rules give {expected!r}")

    turn = model.turn
    if turn is not None and state.turn is not None and state.turn.car == turn.car:
        differ(turn.car, "speed", state.turn.speed, turn.speed)
        differ(turn.car, "adrenaline", state.turn.adrenaline, turn.adrenaline)
    for i, car in enumerate(state.cars):
        for name, expected in model.car_cards(i).items():
            differ(i, name, getattr(car, name), expected)
    differ(None, "supply", state.supply, model.supply)
    differ(None, "ranking", state.ranking, tuple(model.ranking))
    differ(None, "out", state.out, tuple(model.out))
    differ(None, "phase", state.phase.value, model.phase)
    differ(None, "round", state.round, model.round)
    differ(None, "order", state.order, tuple(model.order))
    differ(None, "cursor", state.cursor, model.cursor)
    differ(None, "shuffle", state.shuffle, model.shuffle)
    if state.legends is not None:
        differ(None, "legend_deck", state.legends.deck, tuple(model.legend_deck))
        differ(None, "legend_card", state.legends.card, model.legend_card)
    if state.garage is not None:  # sponsor.in-hand, sponsor.one-time
        differ(None, "sponsors", tuple(Counter(h) for h in state.garage.sponsors)
               or tuple(Counter() for _ in state.cars), tuple(model.held))
        differ(None, "spent", Counter(state.garage.spent), model.spent)
    if state.garage is not None and turn is not None:  # garage.symbols-any-order
        differ(turn.car, "used", state.garage.used, tuple(sorted(turn.used.elements())))


def compare_events(model: RaceModel, events: tuple[Event, ...]) -> None:
    """The engine's events of a step against the model's, in order."""
    expected = model.events
    for k in range(max(len(events), len(expected))):
        got = events[k] if k < len(events) else None
        want = expected[k] if k < len(expected) else None
        if got == want:
            continue
        ref = want if want is not None else got
        assert ref is not None
        rules = model.why.get((ref.car, f"event:{ref.kind}")) or EVENT_RULES.get(
            ref.kind, ("round.sequence",))
        raise RuleViolation(rules, f"event {k}: the engine reports {got},"
                            f" the rules give {want}")


@dataclass
class RaceChecker:
    """Checks each step of one race against the independent model.

    Call :meth:`start` with the state and events of ``start_race`` (or :meth:`resume` with
    any state at a decision), then :meth:`step` after each applied action. A broken rule
    raises :class:`RuleViolation` naming the rule IDs. ``legal`` is the engine's
    legal-action function (the reference engine's by default)."""

    legal: Callable[[RaceState], tuple[Action, ...]] = legal_actions
    model: RaceModel | None = None
    state: RaceState | None = None
    steps: int = 0
    situations: Counter[str] = field(default_factory=Counter)

    def start(self, state: RaceState, events: tuple[Event, ...] = ()) -> None:
        """The race's first state (round 1 planning)."""
        head = 0  # Legends at the head of the order do not plan (legend.turn-order)
        while head < len(state.order) and state.is_legend(state.order[head]):
            head += 1
        _require(state.round == 1 and state.phase is Phase.PLAN and state.cursor == head,
                 ("round.sequence", "legend.turn-order"),
                 "a race starts in the planning of round 1, at the first player's car")
        board = printed_track(state.track.id)
        heat = board.heat
        if state.conditions is not None:  # weather.setup-change, read from the printed token
            change = Weather(state.conditions.weather, state.conditions.road).setup()
            heat += change["heat_in_engine"] - change["heat_to_deck"] - change["heat_to_discard"]
        # event.setup-changes: a Championship event's numbers, read from the state's own field
        heat += state.changes.heat
        hand = HAND_SIZE if state.changes.hand == HAND_SIZE else state.changes.hand
        for car in state.cars:
            _require(car.gear == 1, ("setup.gear",), "every car starts in gear 1")
            if car.legend is not None:
                continue
            _require(len(car.hand) == hand, ("setup.hand", "event.setup-changes"),
                     f"every hand starts with {hand}")
            _require(car.engine == heat, ("setup.engine", "weather.setup-change"),
                     f"every engine starts with {heat} Heat")
        self.resume(state)
        model = self.model
        assert model is not None
        order = tuple(model.standing(list(range(len(state.cars)))))
        _require(state.order == order, ("order.fixed-at-round-start",),
                 f"round 1 order {state.order}, the standing gives {order}")

    def resume(self, state: RaceState) -> None:
        """Start checking from any valid state that awaits a decision (not a flip)."""
        self._valid(state)
        self.model = RaceModel(state)
        self.state = state
        compare_choices(self.model, state, self.legal)

    def step(self, before: RaceState, action: Action, after: RaceState,
             events: tuple[Event, ...] | None) -> list[str]:
        """Check one applied action (``events`` None: the engine reports none); returns the
        rare situations it reached."""
        model = self.model
        assert model is not None, "call start() first"
        try:
            model.send(action)
        except ModelError as error:
            rules = set(error.rules)
            if not isinstance(action, Shuffle):
                rules |= _rules_of_action(model, action)
            raise RuleViolation(rules,
                                f"the engine applied {action}: {error}") from None
        if events is not None:
            compare_events(model, events)
        compare_state(model, after)
        compare_choices(model, after, self.legal)
        self._valid(after)
        self.steps += 1
        self.state = after
        self.situations.update(model.found)
        return list(model.found)

    def finish(self) -> None:
        """Call when the race is over: every car ranked or eliminated, once."""
        state = self.state
        assert state is not None
        _require(state.is_over() and sorted((*state.ranking, *state.out))
                 == list(range(len(state.cars))),
                 ("finish.ranking", "finish.removed", "event.sponsor-withdraws"),
                 "the race ended with every car ranked or eliminated")

    def _valid(self, state: RaceState) -> None:
        problems = status(state)
        if problems:
            names = [f"{p.name}" for p in Problem if p and p in problems]
            rules = tuple(sorted({RULE_OF[p] for p in Problem if p and p in problems}))
            raise RuleViolation(rules, f"validity.status reports {names}")
        bound = round_bound(state.track, state.laps)
        _require(state.round <= bound, ("finish.line",),
                 f"round {state.round} exceeds the bound {bound}")


def check_race(setup: RaceSetup, policy: Policy, rng: random.Random,
               checker: RaceChecker | None = None, max_actions: int = 20_000,
               ) -> tuple[RaceChecker, RaceState, list[Action]]:
    """Play ``setup`` on the reference engine with ``policy`` (shuffles from ``rng``),
    checking every step."""
    from heatcore.heat.driver import random_shuffle

    checker = checker if checker is not None else RaceChecker()
    state, events = start_race(setup)
    checker.start(state, events)
    actions: list[Action] = []
    while not state.is_over() and len(actions) < max_actions:
        action = (random_shuffle(state, rng) if state.is_chance()
                  else policy(state, legal_actions(state), rng))
        after, evs = apply(state, action)
        checker.step(state, action, after, evs)
        actions.append(action)
        state = after
    checker.finish()
    return checker, state, actions


def check_fast_race(setup: RaceSetup, policy: Policy, rng: random.Random,
                    max_actions: int = 20_000) -> tuple[RaceChecker, RaceState]:
    """Play ``setup`` on the fast engine (:mod:`heatcore.heat.fast`), checking every step's
    state and legal actions (the fast engine reports no events)."""
    from heatcore.heat.driver import random_shuffle
    from heatcore.heat.fast import FastRace

    state, _ = start_race(setup)
    race = FastRace(state)
    checker = RaceChecker(legal=lambda s: FastRace(s).legal_actions())
    checker.start(state)
    for _ in range(max_actions):
        if race.is_over():
            break
        action = (random_shuffle(state, rng) if race.is_chance()
                  else policy(state, race.legal_actions(), rng))
        race.apply(action)
        after = race.to_state()
        checker.step(state, action, after, None)
        state = after
    checker.finish()
    return checker, state


def replay_checked(setup: RaceSetup, actions: list[Action]) -> RaceChecker:
    """Replay an action log through the checker (for printing minimal repros)."""
    checker = RaceChecker()
    state, events = start_race(setup)
    checker.start(state, events)
    for action in actions:
        after, evs = apply(state, action)
        checker.step(state, action, after, evs)
        state = after
    return checker


def roundtrip(state: RaceState) -> RaceState:
    """The state read back from its canonical JSON."""
    return state_from_json(state_to_json(state))


@dataclass
class RaceBatch:
    """What :func:`seeded_batch` checked: complete races, steps, rare situations seen."""

    races: int = 0
    steps: int = 0
    max_rounds: int = 0
    situations: Counter[str] = field(default_factory=Counter)


#: Cars per race in a seeded batch, cycled (mostly small fields keep the batch fast).
BATCH_PLAYERS = (2, 3, 2, 4, 3, 2, 5, 6)


def seeded_batch(count: int, seed: int = 0, modules: tuple[str, ...] = ()) -> RaceBatch:
    """Play ``count`` one-lap races from seeds ``seed..seed+count-1`` (tracks, player counts
    and policies cycled: uniform random, aggressive, clutter, mixed, greedy), checking every
    step with :class:`RaceChecker`. With ``modules``, the races play them (with Legends,
    one to three players and Legends up to the cycled car count, aggressive every other
    race; with the Garage, a draft every other race, else the quick start)."""
    from heatcore.heat.driver import greedy_policy, random_policy
    from heatcore.heat.setup import random_setup

    policies: list[Policy] = [random_policy, aggressive_policy, clutter_policy,
                              mixed_policy(), greedy_policy]
    ids = track_ids()
    batch = RaceBatch()
    for k in range(seed, seed + count):
        rng = random.Random(k)
        cars = BATCH_PLAYERS[k % len(BATCH_PLAYERS)]
        players, legends = cars, 0
        if "legends" in modules:
            players = min(cars - 1, 1 + k % 3)
            legends = cars - players
        setup = random_setup(ids[k % len(ids)], players, rng, laps=1, modules=modules,
                             legends=legends, aggressive=bool(k % 2), draft=bool(k % 2))
        checker, final, _ = check_race(setup, policies[k % len(policies)], rng)
        batch.races += 1
        batch.steps += checker.steps
        batch.max_rounds = max(batch.max_rounds, final.round)
        batch.situations.update(checker.situations)
    return batch

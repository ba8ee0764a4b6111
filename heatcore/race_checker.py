"""A transition checker for whole races: every step checked against the rules' invariants.

:class:`RaceChecker` checks each step of a race (before state, action, after state, events),
each failure naming its rule IDs, and counts the rare situations it sees
(:data:`SITUATIONS`). It needs no Hypothesis: :mod:`heatcore.strategies` drives it with
Hypothesis; :func:`check_race` and :func:`seeded_batch` drive it with seeded policies.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

from heatcore.actions import (
    Action,
    AdrenalineCooldown,
    AdrenalineMove,
    Boost,
    Cooldown,
    DeclineSlipstream,
    Discard,
    EndReact,
    Plan,
    Shuffle,
    Slipstream,
)
from heatcore.cards import HAND_SIZE, HEAT, STRESS, VALUE, Card, canonical, remove
from heatcore.conformance.steering import Policy as Policy
from heatcore.conformance.steering import aggressive_policy as aggressive_policy
from heatcore.conformance.steering import clutter_policy as clutter_policy
from heatcore.conformance.steering import mixed_policy as mixed_policy
from heatcore.engine import apply, legal_actions
from heatcore.events import Event
from heatcore.notation import state_from_json, state_to_json
from heatcore.setup import RaceSetup, start_race
from heatcore.state import Phase, RaceState, Stage
from heatcore.track import Track, track_ids
from heatcore.validity import RULE_OF, Problem, status


def is_legal(state: RaceState, action: Action) -> bool:
    """Whether ``action`` is a legal next input (a listed action, or the awaited shuffle)."""
    if state.is_chance():
        car = state.shuffle
        assert car is not None
        return (isinstance(action, Shuffle) and action.car == car and
                Counter(action.order) == Counter(state.cars[car].deck + state.cars[car].discard))
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


class RuleViolation(AssertionError):
    """An invariant broken by a step; the message starts with the rule IDs."""

    def __init__(self, rules: tuple[str, ...], detail: str) -> None:
        super().__init__(f"[{', '.join(rules)}] {detail}")
        self.rules = rules


def _require(ok: bool, rules: tuple[str, ...], detail: str) -> None:
    if not ok:
        raise RuleViolation(rules, detail)


def corner_line_positions(track: Track, start: int, end: int,
                          laps: int) -> list[tuple[int, int, int]]:
    """(position, limit, number) of each corner line crossed moving ``start`` -> ``end``,
    in crossing order, derived independently of the engine: the line after space ``P`` on
    lap ``j`` lies between ``P + L*j`` and the next position; lines past the final finish
    line never count."""
    out = []
    for lap in range(-1, laps):
        for number, corner in enumerate(track.corners, start=1):
            line = corner.after_space + track.spaces_per_lap * lap
            if start <= line < end and line <= track.spaces_per_lap * laps:
                out.append((line, corner.limit, number))
    return sorted(out)


def round_bound(track: Track, laps: int) -> int:
    """The bound on rounds the checker enforces: 3 rounds per space of the race plus 10.

    Derivation (a sketch, the bound is checked, not proved): a car that plays neither the
    0 card, nor a cluttered hand, nor ends fully blocked moves at least one space a round;
    the 0 card comes back at most once per deck cycle (>= 7 rounds in gear 1), a cluttered
    hand needs 7 Heat in hand, and spins send a car back at most to the corner line it had
    already passed. So in any sensible race a car gains one space in well under 3 rounds on
    average; the bound is far above every race observed (< 1 round per space)."""
    return 3 * track.spaces_per_lap * laps + 10


@dataclass
class _TurnLog:
    car: int
    start: int
    speed: int = 0
    speed_known: bool = False
    corners: list[tuple[int, int, int]] = field(default_factory=list)  # (number, limit, heat)
    spun: tuple[int, int, int] | None = None  # (number, limit, heat)
    check_position: int | None = None
    cluttered: bool = False


@dataclass
class RaceChecker:
    """Checks each step of one race and counts rare situations.

    Call :meth:`start` with the state and events of ``start_race``, then :meth:`step`
    after each ``apply``. A broken invariant raises :class:`RuleViolation` naming the rule
    IDs. ``steps`` counts checked steps and ``situations`` the rare situations seen."""

    state: RaceState | None = None
    order: tuple[int, ...] = ()
    turns: list[int] = field(default_factory=list)
    planned: list[int] = field(default_factory=list)
    log: _TurnLog | None = None
    round_finishers: int = 0
    adrenaline_round: int = 0
    steps: int = 0
    situations: Counter[str] = field(default_factory=Counter)
    found: list[str] = field(default_factory=list)
    crossings: Counter[int] = field(default_factory=Counter)
    gone: set[int] = field(default_factory=set)

    # ------------------------------------------------------------------ entry points

    def start(self, state: RaceState, events: tuple[Event, ...]) -> None:
        """The race's first state (round 1 planning)."""
        self._valid(state)
        _require(state.round == 1 and state.phase is Phase.PLAN, ("round.sequence",),
                 "a race starts in the planning of round 1")
        for car in state.cars:
            _require(car.gear == 1 and len(car.hand) == HAND_SIZE
                     and car.engine == state.track.heat, ("setup.gear", "setup.hand",
                                                          "setup.engine"),
                     "every car starts in gear 1 with 7 cards and the track's engine Heat")
        self.state = state
        self._new_round(state, state.order, {i: c.spot for i, c in enumerate(state.cars)})

    def step(self, before: RaceState, action: Action, after: RaceState,
             events: tuple[Event, ...]) -> list[str]:
        """Check one applied action; returns the rare situations it reached."""
        self.found = []
        self.crossings = Counter()
        _require(is_legal(before, action), ("round.sequence",),
                 f"{action} was applied although not legal")
        self._valid(after)
        self._transition(before, action, after, events)
        self.steps += 1
        self.state = after
        for name in self.found:
            self.situations[name] += 1
        return list(self.found)

    def finish(self) -> None:
        """Call when the race is over: every car ranked once."""
        state = self.state
        assert state is not None
        _require(state.is_over() and sorted(state.ranking) == list(range(len(state.cars))),
                 ("finish.ranking", "finish.removed"), "the race ended with every car ranked")

    # ------------------------------------------------------------------ checks

    def _valid(self, state: RaceState) -> None:
        problems = status(state)
        if problems:
            names = [f"{p.name}" for p in Problem if p and p in problems]
            rules = tuple(sorted({RULE_OF[p] for p in Problem if p and p in problems}))
            raise RuleViolation(rules, f"validity.status reports {names}")
        _require(state.round <= round_bound(state.track, state.laps), ("race", "finish.line"),
                 f"round {state.round} exceeds the bound {round_bound(state.track, state.laps)}")

    def _new_round(self, state: RaceState, order: tuple[int, ...],
                   spots: dict[int, tuple[int, bool]]) -> None:
        expected = tuple(sorted(order, key=lambda i: (-spots[i][0], not spots[i][1])))
        _require(order == expected, ("order.fixed-at-round-start",),
                 f"round order {order} is not leader first, racing line first {expected}")
        self.order, self.turns, self.planned = order, [], []
        self.round_finishers = 0
        self.adrenaline_round = 0

    def _close_turn(self, after: RaceState, spots: dict[int, tuple[int, bool]]) -> None:
        log = self.log
        if log is None:
            return
        self.log = None
        track, laps = after.track, after.laps
        end = log.check_position if log.check_position is not None else spots[log.car][0]
        lines = corner_line_positions(track, log.start, end, laps)
        seen = [(n, lim) for n, lim, _ in log.corners]
        expected = [(n, lim) for _, lim, n in lines]
        rules = ("corner.check", "corner.spin", "corner.after-finish-ignored")
        if log.spun is not None:
            seen.append(log.spun[:2])
            _require(seen == expected[:len(seen)], rules,
                     f"P{log.car + 1} checked corners {seen}, crossing {expected}")
        else:
            _require(log.cluttered or seen == expected, rules,
                     f"P{log.car + 1} checked corners {seen} but crossed {expected}"
                     f" moving {log.start}->{end}")
        if len(seen) >= 2:
            self.found.append("two-corners-one-move")
            if log.spun is not None and any(h > 0 for _, _, h in log.corners):
                self.found.append("spin-at-second-corner-after-paying")

    def _transition(self, before: RaceState, action: Action, after: RaceState,
                    events: tuple[Event, ...]) -> None:
        track = after.track
        finish = before.finish_position
        n = len(before.cars)
        ranked = set(before.ranking)
        spots = {i: before.cars[i].spot for i in range(n)}
        self.gone = set(ranked)
        gear = {i: before.cars[i].gear for i in range(n)}
        engine = {i: before.cars[i].engine for i in range(n)}
        supply = before.supply
        sources = {i: before.cars[i].deck for i in range(n)}
        taken_from_deck = dict.fromkeys(range(n), 0)
        hand_out: dict[int, list[Card]] = {i: [] for i in range(n)}
        hand_in: dict[int, list[Card]] = {i: [] for i in range(n)}
        stress_gained = dict.fromkeys(range(n), 0)
        gear_forced = set()
        ranking = list(before.ranking)
        turn_stage = before.turn.stage if before.turn is not None else None
        if isinstance(action, Shuffle):
            sources[action.car] = action.order
            if turn_stage is Stage.REVEAL:
                self.found.append("reshuffle-during-stress-flip")
        if isinstance(action, Plan):
            _require(before.phase is Phase.PLAN and not self.turns
                     and action.car == self.order[len(self.planned)],
                     ("order.fixed-at-round-start", "ruling.simultaneous-planning"),
                     f"P{action.car + 1} plans out of turn")
            self.planned.append(action.car)
            step = abs(action.gear - before.cars[action.car].gear)
            _require(1 <= action.gear <= 4 and step <= 2, ("gear.range", "gear.shift.no-three"),
                     f"shift {before.cars[action.car].gear}->{action.gear}")
            paid = [e.get("amount") for e in events
                    if e.kind == "paid-heat" and e.car == action.car and e.get("cause") == "shift"]
            _require(paid == ([1] if step == 2 else []),
                     ("gear.shift.two-costs-heat", "gear.shift.free"),
                     f"shift by {step} paid {paid} Heat")
            gear[action.car] = action.gear
            hand_out[action.car] += action.cards
        other = (Cooldown, AdrenalineCooldown, AdrenalineMove, Boost, EndReact, Slipstream,
                 DeclineSlipstream, Discard)
        if isinstance(action, other):
            _require(before.turn is not None and action.car == before.turn.car,
                     ("order.fixed-at-round-start",), "only the acting car decides")
        if isinstance(action, Discard):
            hand_out[action.car] += action.cards
        for ev in events:
            c = ev.car
            k = ev.kind
            if k == "round-started":
                self._close_turn(after, spots)
                _require(self.turns == list(self.order), ("order.fixed-at-round-start",
                                                          "round.sequence"),
                         f"round turns {self.turns} differ from its order {self.order}")
                order = tuple(int(name[1:]) - 1 for name in ev.get("order"))
                _require(sorted(order) == sorted(set(spots) - set(ranking)), ("finish.removed",),
                         "the new round's order is not the cars still on the track")
                self._new_round(after, order, {i: spots[i] for i in order})
                continue
            if k == "race-over":
                self._close_turn(after, spots)
                _require(self.turns == list(self.order), ("order.fixed-at-round-start",),
                         "last round: not every car took its turn")
                continue
            if c is None:
                continue
            if k == "turn-started":
                self._close_turn(after, spots)
                _require(len(self.planned) == len(self.order)
                         and len(self.turns) < len(self.order)
                         and self.order[len(self.turns)] == c,
                         ("order.fixed-at-round-start", "round.sequence"),
                         f"P{c + 1} starts a turn out of order {self.order} after {self.turns}")
                self.turns.append(c)
                expected_adr = self.order.index(c) >= len(self.order) - (2 if n >= 5 else 1)
                _require(bool(ev.get("adrenaline")) == expected_adr,
                         ("adrenaline.who", "adrenaline.count-fixed"),
                         f"P{c + 1} adrenaline={ev.get('adrenaline')}")
                if ev.get("adrenaline"):
                    self.adrenaline_round += 1
                    if self.adrenaline_round == 2:
                        self.found.append("adrenaline-two-cars")
                self.log = _TurnLog(c, spots[c][0])
                continue
            log = self.log
            if k in ("deck-empty",):
                _require(taken_from_deck[c] == len(sources[c]), ("deck.reshuffle",),
                         f"P{c + 1} asked for a shuffle with cards left in the deck")
            elif k in ("flipped", "drew"):
                count = 1 if k == "flipped" else int(ev.get("count"))
                got = sources[c][taken_from_deck[c]:taken_from_deck[c] + count]
                _require(len(got) == count, ("deck.reshuffle", "replenish.draw"),
                         f"P{c + 1} took {count} cards from a deck of {len(got)}")
                if k == "flipped":
                    _require(got == (ev.get("card"),) and bool(ev.get("kept")) ==
                             (ev.get("card") in ("1", "2", "3", "4")),
                             ("reveal.stress-flip", "react.boost"),
                             f"P{c + 1} flipped {ev.get('card')} but the deck top is {got}")
                    if ev.get("kept") and log is not None and log.speed_known:
                        log.speed += VALUE[ev.get("card")]
                else:
                    hand_in[c] += got
                taken_from_deck[c] += count
            elif k == "revealed":
                cards = tuple(ev.get("cards"))
                _require(cards == before.cars[c].played or isinstance(action, Plan),
                         ("reveal.speed",), "revealed cards differ from those played")
                _require((HEAT in cards) == any(e.kind == "cluttered" and e.car == c
                                                for e in events),
                         ("play.cluttered", "play.heat-not-playable"),
                         f"P{c + 1} revealed {cards}: Heat is played only by a cluttered hand")
            elif k == "crossed-finish":
                self.crossings[c] -= 1
            elif k == "cluttered":
                gear[c] = 1
                gear_forced.add(c)
                if log is not None:
                    log.cluttered = True
                self.found.append("cluttered-hand")
            elif k == "speed" and log is not None:
                log.speed, log.speed_known = int(ev.get("speed")), True
            elif k == "adrenaline" and log is not None:
                _require(int(ev.get("speed")) == log.speed + 1, ("adrenaline.effects",),
                         "adrenaline adds exactly 1 to the speed")
                log.speed += 1
            elif k == "cooled":
                amount = int(ev.get("amount"))
                engine[c] += amount
                hand_out[c] += [HEAT] * amount
            elif k == "paid-heat":
                _require(int(ev.get("amount")) == 1 and engine[c] >= 1,
                         ("gear.shift.two-costs-heat", "react.boost"),
                         "a shift or boost pays exactly one engine Heat")
                engine[c] -= 1
            elif k == "moved":
                self._check_move(c, ev, spots, finish, track, after.laps)
            elif k == "corner" and log is not None:
                if log.check_position is None:
                    log.check_position = spots[c][0]
                excess = max(0, log.speed - int(ev.get("limit")))
                _require(int(ev.get("speed")) == log.speed and int(ev.get("heat")) == excess
                         and excess <= engine[c], ("corner.pay-heat", "speed.turn-total"),
                         f"P{c + 1} at speed {log.speed} paid {ev.get('heat')} at limit "
                         f"{ev.get('limit')} with engine {engine[c]}")
                engine[c] -= excess
                log.corners.append((int(ev.get("corner")), int(ev.get("limit")), excess))
            elif k == "spun-out" and log is not None:
                self._check_spin(c, ev, log, spots, engine, gear, supply, track, after.laps)
                engine[c] = 0
                supply -= int(ev.get("stress"))
                stress_gained[c] += int(ev.get("stress"))
                hand_in[c] += [STRESS] * int(ev.get("stress"))
                gear[c] = 1
                gear_forced.add(c)
                self.found.append("spin-out")
            elif k == "ranked":
                ranking.append(c)
                self.gone.add(c)
                _require(int(ev.get("place")) == len(ranking) and spots[c][0] > finish,
                         ("finish.ranking",), f"P{c + 1} ranked {ev.get('place')} wrongly")
                self.round_finishers += 1
                if self.round_finishers == 2:
                    self.found.append("two-finish-one-round")
                if len(ranking) == 1 and self.order.index(c) > 0 and any(
                        spots[o][0] > finish for o in self.order[:self.order.index(c)]):
                    self.found.append("later-mover-wins")
        _require(not +self.crossings and not -self.crossings, ("finish.line",),
                 f"crossed-finish events do not match the moves over the line {self.crossings}")
        self._close_ranking(before, after, spots, ranking, finish)
        self._check_cars(before, action, after, gear, gear_forced, engine, supply, sources,
                         taken_from_deck, hand_out, hand_in, stress_gained)

    def _check_move(self, c: int, ev: Event, spots: dict[int, tuple[int, bool]], finish: int,
                    track: Track, laps: int) -> None:
        old = spots[c][0]
        spaces = int(ev.get("spaces"))
        new = (int(ev.get("position")), bool(ev.get("racing_line")))
        taken = {s for i, s in spots.items() if i != c and i not in self.gone}
        self._check_landing(c, new, old + spaces, old, taken,
                            ("move.exact", "place.racing-line-first", "place.blocked"))
        _require(spaces > 0, ("ruling.zero-move",), "a move of 0 spaces is not an event")
        if new[0] < old + spaces:
            self.found.append("blocked-final-space")
        if old <= finish < new[0]:
            self.crossings[c] += 1
        if ev.get("by") == "slipstream" and corner_line_positions(track, old, new[0], laps):
            self.found.append("slipstream-across-corner")
        spots[c] = new

    @staticmethod
    def _check_landing(c: int, new: tuple[int, bool], target: int, floor: int,
                       taken: set[tuple[int, bool]], rules: tuple[str, ...]) -> None:
        _require(floor <= new[0] <= target, rules,
                 f"P{c + 1} landed on {new[0]}, outside {floor}..{target}")
        _require(new not in taken, ("place.racing-line-first",),
                 f"P{c + 1} landed on the occupied spot {new}")
        _require(new[1] or (new[0], True) in taken, ("place.racing-line-first",),
                 f"P{c + 1} took the outside spot though the racing line of {new[0]} was free")
        for position in range(new[0] + 1, target + 1):
            _require((position, True) in taken and (position, False) in taken,
                     ("place.blocked",),
                     f"P{c + 1} stopped at {new[0]} though space {position} had a free spot")

    def _check_spin(self, c: int, ev: Event, log: _TurnLog, spots: dict[int, tuple[int, bool]],
                    engine: dict[int, int], gear: dict[int, int], supply: int, track: Track,
                    laps: int) -> None:
        if log.check_position is None:
            log.check_position = spots[c][0]
        limit = int(ev.get("limit"))
        excess = log.speed - limit
        rules = ("corner.spin", "corner.pay-heat")
        _require(excess > engine[c] and int(ev.get("heat")) == engine[c]
                 and int(ev.get("speed")) == log.speed, rules,
                 f"P{c + 1} spun at speed {log.speed}, limit {limit}, engine {engine[c]},"
                 f" paying {ev.get('heat')}")
        expected_stress = min(1 if gear[c] <= 2 else 2, supply)
        _require(int(ev.get("stress")) == expected_stress, ("corner.spin", "ruling.stress-supply"),
                 f"P{c + 1} spun in gear {gear[c]} and took {ev.get('stress')} Stress")
        lines = [p for p, _, number in corner_line_positions(track, log.start, spots[c][0], laps)
                 if number == int(ev.get("corner"))]
        _require(bool(lines), rules, f"P{c + 1} spun at a corner it did not cross")
        line = lines[0]
        new = (int(ev.get("position")), bool(ev.get("racing_line")))
        taken = {s for i, s in spots.items() if i != c and i not in self.gone}
        self._check_landing(c, new, line, -10**6, taken, ("corner.spin", "place.blocked"))
        log.spun = (int(ev.get("corner")), limit, int(ev.get("heat")))
        spots[c] = new

    def _close_ranking(self, before: RaceState, after: RaceState,
                       spots: dict[int, tuple[int, bool]], ranking: list[int],
                       finish: int) -> None:
        rules = ("finish.ranking", "finish.removed")
        _require(tuple(ranking) == after.ranking and after.ranking[:len(before.ranking)]
                 == before.ranking, rules, f"ranking {before.ranking} -> {after.ranking}")
        new = ranking[len(before.ranking):]
        # cars ranked in one round: furthest first, racing line first
        expected = sorted(new, key=lambda i: (-spots[i][0], not spots[i][1]))
        _require(new == expected, rules, f"finishers ranked {new}, expected {expected}")
        for car in range(len(after.cars)):
            if car in after.ranking:
                continue
            _require(after.cars[car].spot == spots[car], ("move.exact",),
                     f"P{car + 1} is at {after.cars[car].spot}, events put it at {spots[car]}")
        if after.phase is Phase.PLAN and after.cursor == 0 and not self.planned:
            for car in after.order:
                _require(after.cars[car].position <= finish, ("finish.removed",),
                         f"P{car + 1} finished but still races")

    def _check_cars(self, before: RaceState, action: Action, after: RaceState,
                    gear: dict[int, int], gear_forced: set[int], engine: dict[int, int],
                    supply: int, sources: dict[int, tuple[Card, ...]],
                    taken: dict[int, int], hand_out: dict[int, list[Card]],
                    hand_in: dict[int, list[Card]], stress_gained: dict[int, int]) -> None:
        _require(after.supply == supply, ("setup.stress-supply", "corner.spin"),
                 f"supply {before.supply} -> {after.supply}, spins explain {supply}")
        for i, (old, new) in enumerate(zip(before.cars, after.cars, strict=True)):
            if (old is new and gear[i] == old.gear and engine[i] == old.engine
                    and not hand_in[i] and not hand_out[i] and not taken[i]
                    and sources[i] is old.deck):
                continue
            who = f"P{i + 1}"
            _require(new.gear == gear[i], ("gear.shift.free", "corner.spin", "play.cluttered"),
                     f"{who} gear {old.gear} -> {new.gear}, expected {gear[i]}")
            if not (isinstance(action, Plan) and action.car == i) and i not in gear_forced:
                _require(new.gear == old.gear, ("gear.shift.free",),
                         f"{who} changed gear outside planning")
            _require(new.engine == engine[i],
                     ("setup.engine", "react.cooldown", "corner.pay-heat", "react.boost"),
                     f"{who} engine {old.engine} -> {new.engine}, events explain {engine[i]}")
            _require(new.deck == sources[i][taken[i]:],
                     ("deck.reshuffle", "replenish.draw", "reveal.stress-flip"),
                     f"{who} deck is not what remains after the cards taken from its top")
            hand = remove(old.hand, hand_out[i])
            _require(hand is not None and new.hand == canonical((*hand, *hand_in[i])),
                     ("react.cooldown", "replenish.draw", "discard.optional", "corner.spin"),
                     f"{who} hand {old.hand} -> {new.hand}: out {hand_out[i]}, in {hand_in[i]}")
            every_old = Counter(old.hand + old.deck + old.discard + old.played + old.flipped)
            every_new = Counter(new.hand + new.deck + new.discard + new.played + new.flipped)
            every_old[STRESS] += stress_gained[i]
            every_old[HEAT] += old.engine - new.engine
            _require(every_new == +every_old, ("setup.deck", "setup.engine", "corner.spin"),
                     f"{who} cards changed beyond what the events explain")
        # hands hold 7 after replenish (unless deck and discard are both empty)
        if after.phase is not Phase.OVER:
            done = self.turns[:-1] if after.phase is Phase.TURN else []
            if after.phase is Phase.PLAN:
                done = list(after.order[after.cursor:])
            for car in done:
                c = after.cars[car]
                if after.has_finished(car):
                    continue
                _require(len(c.hand) >= HAND_SIZE or (not c.deck and not c.discard),
                         ("replenish.draw", "ruling.replenish-empty"),
                         f"P{car + 1} holds {len(c.hand)} cards after replenishing")


def check_race(setup: RaceSetup, policy: Policy, rng: random.Random,
               checker: RaceChecker | None = None, max_actions: int = 20_000,
               ) -> tuple[RaceChecker, RaceState, list[Action]]:
    """Play ``setup`` with ``policy`` (shuffles from ``rng``), checking every step."""
    from heatcore.driver import random_shuffle

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


def seeded_batch(count: int, seed: int = 0) -> RaceBatch:
    """Play ``count`` one-lap races from seeds ``seed..seed+count-1`` (tracks, player counts
    and policies cycled: uniform random, aggressive, clutter, mixed, greedy), checking every
    step with :class:`RaceChecker`."""
    from heatcore.driver import greedy_policy, random_policy
    from heatcore.setup import random_setup

    policies: list[Policy] = [random_policy, aggressive_policy, clutter_policy,
                              mixed_policy(), greedy_policy]
    ids = track_ids()
    batch = RaceBatch()
    for k in range(seed, seed + count):
        rng = random.Random(k)
        setup = random_setup(ids[k % len(ids)], BATCH_PLAYERS[k % len(BATCH_PLAYERS)], rng,
                             laps=1)
        checker, final, _ = check_race(setup, policies[k % len(policies)], rng)
        batch.races += 1
        batch.steps += checker.steps
        batch.max_rounds = max(batch.max_rounds, final.round)
        batch.situations.update(checker.situations)
    return batch

"""The independent race model: the rules of a round as one coroutine.

:class:`RaceModel` copies a race state and then plays the race by itself, step by step: the
speed from the printed card values and the cards it flips itself, placement on the physical
board, corners, adrenaline, replenish and the end of the round. It yields at every decision
(:class:`Decision`, with the set of legal actions from :mod:`heatcore.heat.oracle.choices`) and at
every chance point (:class:`Chance`), and records the events a step causes and the rule IDs
behind every change it makes. It never calls the engine.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Generator
from dataclasses import dataclass
from typing import Any

from heatcore.framework.events import Event, event
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
    GainSponsor,
    LegendShuffle,
    Plan,
    SectorCooldown,
    Shuffle,
    Slipstream,
    UseSymbol,
)
from heatcore.heat.oracle import garage as og
from heatcore.heat.oracle.board import Board, Spot
from heatcore.heat.oracle.choices import (
    HEAT,
    STRESS,
    MCar,
    TurnMemory,
    canon,
    discard_choices,
    plan_choices,
    react_choices,
    sub_multisets,
)
from heatcore.heat.oracle.modules import Weather, legend_card, legend_move, slipstream_extra
from heatcore.heat.oracle.printed import printed_cards, printed_track
from heatcore.heat.rulings import (
    BLOCKED_EXTRA_MOVE,
    BLOCKED_OWN_SPACE,
    CLUTTERED_GEAR,
    COOLING_BONUS_COOLDOWN,
    FINISHED_DISCARD_DRAW,
    FREE_BOOST_ENGINE,
    GARAGE_ADJUST,
    GARAGE_SALVAGE,
    LEGEND_ADRENALINE_COUNT,
    LEGEND_BLOCKED_SPOT,
    SETBACK_CORNER,
    SLIPSTREAM_BONUS_PART,
    SPIN_DISCARD,
    STRESS_SUPPLY,
    ZERO_MOVE,
)
from heatcore.heat.state import RaceState


@dataclass(frozen=True)
class Decision:
    """A decision of ``car``: the legal actions and the rules that make them legal."""

    car: int
    actions: frozenset[Action]
    rules: tuple[str, ...]


@dataclass(frozen=True)
class Chance:
    """A shuffle of ``car``'s discard pile (with what is left of its deck) is awaited."""

    car: int
    rules: tuple[str, ...] = ("deck.reshuffle",)


@dataclass(frozen=True)
class Over:
    """The race is over."""

    rules: tuple[str, ...] = ("finish.removed",)


Pending = Decision | Chance | Over
Run = Generator[Pending, Action, None]


class ModelError(Exception):
    """The model was given an action it cannot take (the engine accepted an illegal one)."""

    def __init__(self, rules: tuple[str, ...], detail: str) -> None:
        super().__init__(detail)
        self.rules = rules


class RaceModel:
    """The race as the model plays it. ``pending`` is what it awaits; ``events`` and ``why``
    hold the events of the last step and, per (car, field), the rules that changed it."""

    def __init__(self, state: RaceState) -> None:
        unknown = [m for m in state.modules if m not in ("weather", "legends", "garage")]
        if unknown:
            raise ValueError(f"the model does not know the modules {', '.join(unknown)}")
        self.board = Board(printed_track(state.track.id), state.laps)
        self.cars = [MCar(c.position, c.racing_line, c.gear, c.engine, Counter(c.hand),
                          list(c.deck), Counter(c.discard), tuple(c.played), list(c.flipped))
                     for c in state.cars]
        self.starting = len(state.cars)
        self.rulings = state.rulings  # the race's ruling alternatives (heatcore.heat.rulings)
        self.supply = state.supply
        self.hand_size = state.changes.hand  # event.setup-changes (7 in the core race)
        self.spin_eliminates = state.changes.eliminate  # event.sponsor-withdraws
        self.out = list(state.out)
        self.round = state.round
        self.phase = state.phase.value
        self.order = list(state.order)
        self.cursor = state.cursor
        self.ranking = list(state.ranking)
        self.shuffle: int | None = None
        self.turn: TurnMemory | None = None
        self.events: list[Event] = []
        self.why: defaultdict[tuple[int | None, str], set[str]] = defaultdict(set)
        self.found: list[str] = []
        # modules: the weather's tokens; the Legends' colours, deck, card and option
        self.weather = (None if state.conditions is None else
                        Weather(state.conditions.weather, state.conditions.road))
        self.legend = [c.legend for c in state.cars]
        self.legend_deck = list(state.legends.deck) if state.legends is not None else []
        self.legend_card = state.legends.card if state.legends is not None else None
        self.aggressive = state.legends is not None and state.legends.aggressive
        self.garage = state.garage is not None
        self.salvage = False  # a Salvage's shuffle (of the deck alone) is awaited
        # Championship: the Sponsorship cards each car holds and those used (sponsor.*)
        held = state.garage.sponsors if state.garage is not None else ()
        self.held = [Counter(held[i] if held else ()) for i in range(len(state.cars))]
        self.spent = Counter(state.garage.spent if state.garage is not None else ())
        self._run = self._race(state)
        self.pending: Pending = next(self._run)

    # ------------------------------------------------------------------ driving

    def send(self, action: Action) -> Pending:
        """Take ``action`` (checked against ``pending``) and run to the next yield."""
        self.events, self.found = [], []
        self.why.clear()
        pending = self.pending
        if isinstance(action, GainSponsor):
            return self._gain(action)
        if isinstance(pending, Over):
            raise ModelError(pending.rules, f"{action}: the race is over")
        if isinstance(pending, Chance) and self.legend[pending.car] is not None:
            if not (isinstance(action, LegendShuffle) and action.car == pending.car
                    and sorted(action.order) == list(range(1, 11))):
                raise ModelError(pending.rules, f"{action} is not the Legend deck's shuffle")
        elif isinstance(pending, Chance):
            car = self.cars[pending.car]
            pool = Counter(car.deck) if self.salvage else Counter(car.deck) + car.discard
            if not (isinstance(action, Shuffle) and action.car == pending.car and
                    Counter(action.order) == pool):
                raise ModelError(pending.rules, f"{action} is not the awaited shuffle")
        elif action not in pending.actions:
            raise ModelError(pending.rules, f"{action} is not legal")
        self.pending = self._run.send(action)
        return self.pending

    def _gain(self, action: GainSponsor) -> Pending:
        """sponsor.given-at-once, sponsor.in-hand: the card into the car's hand at once, the
        choices awaited from that car (its plan or its discard) read again with it."""
        i = action.car
        if not self.garage or not og.is_sponsor(action.card) or self.legend[i] is not None \
                or i in self.out:
            raise ModelError(("sponsor.in-hand",), f"{action}: no Sponsorship card here")
        self.cars[i].hand[action.card] += 1
        self.held[i][action.card] += 1
        self._note(i, "hand sponsors", "sponsor.in-hand", "sponsor.given-at-once")
        self._emit("sponsor-gained", i, "sponsor.given-at-once", card=action.card)
        pending = self.pending
        if isinstance(pending, Decision) and pending.car == i:
            if pending.rules == ("discard.optional",):
                self.pending = Decision(i, frozenset(discard_choices(i, self.cars[i])),
                                        pending.rules)
            elif "play.card-count" in pending.rules:
                free_only = self.rulings.chose(CLUTTERED_GEAR, "free-shifts-only")
                self.pending = Decision(i, frozenset(plan_choices(i, self.cars[i], free_only)),
                                        pending.rules)
        return self.pending

    def _note(self, car: int | None, fields: str, *rules: str) -> None:
        for name in fields.split():
            self.why[(car, name)].update(rules)

    def _emit(self, kind: str, car: int | None, *rules: str, **details: Any) -> None:
        self.events.append(event(kind, car, **details))
        self._note(car, f"event:{kind}", *rules)

    # ------------------------------------------------------------------ the round

    def _race(self, state: RaceState) -> Run:
        turn = state.turn
        if self.phase == "turn" and turn is not None:
            memory = TurnMemory(turn.car, turn.start_position, turn.adrenaline, turn.speed,
                                turn.stage.value, turn.cooldown_used, turn.adrenaline_move_used,
                                turn.adrenaline_cooldown_used, turn.boosted,
                                turn.sector_cooldown_used, turn.reach,
                                Counter(state.garage.used) if state.garage else Counter())
            if memory.stage not in ("react", "slipstream", "discard") or state.shuffle is not None:
                raise ValueError("the model starts at a decision (plan, react, slipstream or "
                                 "discard), not inside a flip, a draw or a shuffle")
            yield from self._turns(memory)
        while self.phase != "over":
            while self.cursor < len(self.order):
                car = self.order[self.cursor]
                if self.legend[car] is not None:  # legend.turn-order: Legends do not plan
                    self.cursor += 1
                    continue
                free_only = self.rulings.chose(CLUTTERED_GEAR, "free-shifts-only")
                action = yield Decision(car, frozenset(plan_choices(car, self.cars[car],
                                                                    free_only)),
                                        ("gear.shift.free", "gear.shift.two-costs-heat",
                                         "play.card-count", "play.cluttered"))
                assert isinstance(action, Plan)
                self._plan(action)
                self.cursor += 1
            self._shift_gears()
            self.phase, self.cursor = "turn", 0
            yield from self._turns(None)
        while True:
            yield Over()

    def _turns(self, resume: TurnMemory | None) -> Run:
        while self.cursor < len(self.order):
            yield from self._turn(self.order[self.cursor], resume)
            resume = None
            self.turn = None
            self.cursor += 1
        self._end_round()

    def _plan(self, plan: Plan) -> None:
        """info.plan-simultaneous: a plan puts its cards face down and changes nothing else
        until every plan is in (the gear is the number of cards)."""
        car = self.cars[plan.car]
        car.hand -= Counter(plan.cards)
        car.played = plan.cards
        self._note(plan.car, "hand played", "play.card-count", "play.playable-cards")
        self._emit("played", plan.car, "play.card-count", cards=plan.cards)

    def _shift_gears(self) -> None:
        """info.gears-shown: every normal gear decision takes effect, then the two-gear
        shifts are declared and each pays one Heat, in turn order."""
        planners = [i for i in self.order if self.legend[i] is None]  # Legends do not plan
        two = [i for i in planners if abs(len(self.cars[i].played) - self.cars[i].gear) == 2]
        for i in planners:
            car = self.cars[i]
            if i not in two and len(car.played) != car.gear:
                car.gear = len(car.played)
                self._note(i, "gear", "gear.shift.free")
                self._emit("shifted", i, "gear.shift.free", gear=car.gear)
        for i in two:
            car = self.cars[i]
            car.engine -= 1
            car.discard[HEAT] += 1
            car.gear = len(car.played)
            self._note(i, "engine discard gear", "gear.shift.two-costs-heat")
            self._emit("paid-heat", i, "gear.shift.two-costs-heat", amount=1, cause="shift")
            self._emit("shifted", i, "gear.shift.two-costs-heat", gear=car.gear)

    def standing(self, cars: list[int]) -> list[int]:
        """order.fixed-at-round-start: furthest ahead first, racing line first."""
        return sorted(cars, key=lambda i: (-self.cars[i].position, not self.cars[i].racing_line))

    def finished(self, i: int) -> bool:
        """finish.line: past the final finish line."""
        return self.cars[i].position > self.board.finish

    def _end_round(self) -> None:
        rules = ("finish.ranking", "finish.removed")
        finishers = self.standing([i for i in self.order
                                   if self.finished(i) and i not in self.out])
        for i in finishers:
            self.ranking.append(i)
            self._emit("ranked", i, *rules, place=len(self.ranking))
        self._note(None, "ranking", *rules)
        if len(finishers) >= 2:
            self.found.append("two-finish-one-round")
        if finishers and len(self.ranking) == len(finishers):
            winner = finishers[0]
            if any(self.finished(o) for o in self.order[:self.order.index(winner)]):
                self.found.append("later-mover-wins")
        if len(self.ranking) + len(self.out) == len(self.cars):  # event.sponsor-withdraws
            self._emit("race-over", None, *rules,
                       ranking=tuple(f"P{i + 1}" for i in self.ranking))
            self.phase, self.order, self.cursor = "over", [], 0
            self._note(None, "phase order", *rules)
            return
        self.round += 1
        self.order = self.standing([i for i in range(len(self.cars))
                                    if i not in self.ranking and i not in self.out])
        self.phase, self.cursor = "plan", 0
        self.legend_card = None  # legend.deck: a new card at the round's first Legend
        while self.cursor < len(self.order) and self.legend[self.order[self.cursor]]:
            self.cursor += 1
        self._note(None, "round phase order", "round.sequence", "order.fixed-at-round-start",
                   "finish.removed")
        self._emit("round-started", None, "round.sequence", "order.fixed-at-round-start",
                   round=self.round, order=tuple(f"P{i + 1}" for i in self.order))

    # ------------------------------------------------------------------ one car's turn

    def _adrenaline(self, i: int) -> bool:
        """adrenaline.who, adrenaline.count-fixed: the last (or last two, if the race
        started with 5 or more cars) of the round's order."""
        starting = self.starting
        if self.rulings.chose(LEGEND_ADRENALINE_COUNT, "players-only"):
            starting = sum(colour is None for colour in self.legend)
        count = 2 if starting >= 5 else 1  # ruling.legend-adrenaline-count
        if self.legend[i] is not None:  # legend.turn-order: a place, but no adrenaline
            return False
        return self.order.index(i) >= len(self.order) - count

    def _turn(self, i: int, resume: TurnMemory | None) -> Run:
        car = self.cars[i]
        if resume is None:
            turn = TurnMemory(i, car.position, self._adrenaline(i),
                              # ruling.setback-corner "checked": reach starts where the car is
                              reach=car.position if self.rulings.chose(SETBACK_CORNER, "checked")
                              else 0)
            self.turn = turn
            self._emit("turn-started", i, "adrenaline.who", "adrenaline.count-fixed",
                       adrenaline=turn.adrenaline)
            if turn.adrenaline and any(self._adrenaline(o) for o in self.order[:self.cursor]):
                self.found.append("adrenaline-two-cars")
            if self.legend[i] is not None:
                yield from self._legend_turn(i)
                return
            cluttered = yield from self._reveal(turn)
            if cluttered:
                yield from self._replenish(turn)
                return
            turn.stage = "react"
        else:
            turn = resume
            self.turn = turn
        if turn.stage == "react":
            yield from self._react(turn)
            turn.stage = "slipstream"
        if turn.stage == "slipstream":
            if self._can_slipstream(i):
                turn.stage = "slipstream"
                extra = slipstream_extra(self._effect(i))
                offered: set[Action] = {Slipstream(i), DeclineSlipstream(i)}
                if self.garage:  # upgrade.slipstream
                    room = self.board.finish - car.position - 2
                    offered |= {Slipstream(i, e) for e in og.slipstream_sums(
                        extra, car.played, room)}
                elif extra:
                    offered.add(Slipstream(i, extra))
                if extra and self.rulings.chose(SLIPSTREAM_BONUS_PART, "any-part"):
                    offered |= {Slipstream(i, n) for n in range(1, extra)}
                action = yield Decision(i, frozenset(offered),
                                        ("slipstream.eligible", "slipstream.not-past-finish"))
                if isinstance(action, Slipstream):
                    spaces = 2 + action.extra
                    crossed = self.board.lines_crossed(car.position, car.position + spaces)
                    self._move(i, spaces, "slipstream", "slipstream.move")
                    if crossed:
                        self.found.append("slipstream-across-corner")
            spun = self._corners(turn)
            turn.stage = "discard"
        else:
            spun = False
        skip = ((self.rulings.chose(FINISHED_DISCARD_DRAW, "skip") and self.finished(i))
                or (self.rulings.chose(SPIN_DISCARD, "straight-to-replenish") and spun))
        if not skip:  # ruling.finished-car-discard-draw, ruling.spin-discard
            choices = discard_choices(i, car)
            if len(choices) > 1:
                action = yield Decision(i, frozenset(choices), ("discard.optional",))
                assert isinstance(action, Discard)
                if action.cards:
                    car.hand -= Counter(action.cards)
                    car.discard += Counter(action.cards)
                    self._note(i, "hand discard", "discard.optional")
                    self._emit("discarded", i, "discard.optional", cards=action.cards)
        yield from self._replenish(turn)

    def _reveal(self, turn: TurnMemory) -> Generator[Pending, Action, bool]:
        i = turn.car
        car = self.cars[i]
        self._emit("revealed", i, "reveal.speed", cards=car.played)
        if HEAT in car.played:  # play.cluttered: no move, gear 1, all to the discard pile
            self._emit("cluttered", i, "play.cluttered", gear=1)
            car.gear = 1
            car.discard += Counter(car.played)
            car.played = ()
            self._note(i, "gear discard played", "play.cluttered")
            self.found.append("cluttered-hand")
            return True
        cards = printed_cards()
        if self.garage:
            flips = yield from self._reveal_upgrades(turn)
        else:
            speed = sum(cards[c].value or 0 for c in car.played if c != STRESS)
            turn.speed = speed
            flips = car.played.count(STRESS)
        self._note(i, "speed", "reveal.speed", "speed.turn-total")
        for _ in range(flips):
            found = yield from self._flip(turn, "reveal.stress-flip")
            turn.speed += found
        self._emit("speed", i, "reveal.speed", "speed.turn-total", speed=turn.speed)
        self._move(i, turn.speed, "cards", "move.exact")
        return False

    def _reveal_upgrades(self, turn: TurnMemory) -> Generator[Pending, Action, int]:
        """Garage: the speeds of choose-speed cards (a decision), the speed and the number
        of flips (Stress, + symbols). The cards' Heat waits for React (upgrade.heat)."""
        i = turn.car
        car = self.cars[i]
        chosen: tuple[int, ...] = ()
        if og.speed_options(i, car.played) != {ChooseSpeed(i, ())}:
            turn.stage = "choose"
            action = yield Decision(i, frozenset(og.speed_options(i, car.played)),
                                    ("garage.choose-speed",))
            assert isinstance(action, ChooseSpeed)
            chosen = action.speeds
            turn.stage = "reveal"
        picks = iter(chosen)
        core = printed_cards()
        values = [(c, next(picks) if og.is_upgrade(c) and len(og.speeds(c)) > 1
                   else og.speeds(c)[0] if og.is_upgrade(c) else core[c].value or 0)
                  for c in car.played]
        car.played = tuple(c for c, _ in values)
        turn.speed = sum(v for _, v in values)
        if any(og.is_sponsor(c) for c in car.played):  # sponsor.play: its printed speed
            self._note(i, "speed event:speed", "sponsor.play")
        return car.played.count(STRESS) + sum(og.printed(c, "boost") for c in car.played)

    def _use_symbol(self, turn: TurnMemory, action: UseSymbol) -> Run:
        """Garage: one symbol of an upgrade card (upgrade.* rules), or a Direct play."""
        i, card, symbol = turn.car, action.card, action.symbol
        car = self.cars[i]
        turn.used[f"{card} {symbol}"] += 1
        rule = f"upgrade.{symbol}"
        if symbol == "direct":
            car.hand[card] -= 1
            self._emit("played-direct", i, rule, card=card)
            gain, flips = og.speeds(card)[0], og.printed(card, "boost")
            car.played = canon(Counter(car.played) + Counter([card]))
            self._note(i, "hand played", rule)
            turn.speed += gain
            self._move(i, gain, "direct", rule)
            found = 0
            for _ in range(flips):
                turn.stage = "boost"
                found += yield from self._flip(turn, "upgrade.boost")
            turn.stage = "react"
            turn.speed += found
            self._move(i, found, "boost", "upgrade.boost")
        elif symbol == "heat":
            yield from self._heat_symbol(turn, card)
        elif symbol == "cooldown":
            car.hand[HEAT] -= action.amount
            car.engine += action.amount
            self._note(i, "hand engine", rule)
            self._emit("cooled", i, rule, amount=action.amount)
        elif symbol == "reduce":
            car.hand[STRESS] -= action.amount
            car.discard[STRESS] += action.amount
            self._note(i, "hand discard", rule)
            self._emit("reduced-stress", i, rule, amount=action.amount)
        elif symbol == "scrap":
            n = og.printed(card, "scrap")
            moved, car.deck = car.deck[:n], car.deck[n:]
            car.discard += Counter(moved)
            self._note(i, "deck discard", rule, "ruling.garage-scrap-empty")
            self._emit("scrapped", i, rule, cards=tuple(moved))
        elif symbol == "salvage":
            car.discard -= Counter(action.cards)
            car.deck += list(action.cards)
            self._note(i, "deck discard", rule)
            self._emit("salvaged", i, rule, cards=action.cards)
            self.shuffle, self.salvage = i, True
            shuffle = yield Chance(i, (rule,))
            assert isinstance(shuffle, Shuffle)
            self.shuffle, self.salvage = None, False
            self._emit("shuffled", i, rule, cards=len(shuffle.order))
            car.deck = list(shuffle.order)
        elif symbol == "accelerate":
            gain = og.printed(card, "accelerate") * og.increases(car.played, turn.boosted)
            turn.speed += gain
            self._note(i, "speed", rule, "upgrade.speed-increase")
            self._emit("accelerated", i, rule, speed=turn.speed)
            self._move(i, gain, "accelerate", rule)
        else:
            assert symbol == "refresh"
            self._emit("refresh-chosen", i, rule, card=card)

    def _heat_symbol(self, turn: TurnMemory, card: str) -> Run:
        """upgrade.heat / upgrade.heat-unpayable (seed 003 5.反應): the engine pays the whole
        symbol now, or the card is discarded and one flip for a basic card adds its speed
        and spaces, as for a + (ruling.garage-unpaid-heat: no move back)."""
        i = turn.car
        car = self.cars[i]
        cost = og.printed(card, "heat")
        if car.engine >= cost:
            car.engine -= cost
            car.discard[HEAT] += cost
            self._note(i, "engine discard", "upgrade.heat")
            self._emit("paid-heat", i, "upgrade.heat", amount=cost, cause="upgrade", card=card)
            return
        played = Counter(car.played)
        played[card] -= 1
        car.played = canon(played)
        car.discard[card] += 1
        for use in list(turn.used):  # the discarded copy takes its used symbols along
            if use.split()[0] == card:
                turn.used[use] = min(turn.used[use], played[card])
        turn.used = +turn.used
        self._note(i, "played discard", "upgrade.heat-unpayable")
        self._emit("upgrade-unpaid", i, "upgrade.heat-unpayable", card=card)
        turn.stage = "boost"
        found = yield from self._flip(turn, "upgrade.heat-unpayable")
        turn.stage = "react"
        turn.speed += found
        self._move(i, found, "boost", "upgrade.heat-unpayable")

    def _flip(self, turn: TurnMemory, rule: str) -> Generator[Pending, Action, int]:
        """Flip until a basic card: its printed value (0 if none is left anywhere)."""
        i = turn.car
        car = self.cars[i]
        printed = printed_cards()

        def basic(card: str) -> bool:  # an upgrade card is never a basic card
            return card in printed and printed[card].basic

        if not any(basic(c) for c in car.deck) and not any(
                basic(c) and n > 0 for c, n in car.discard.items()):
            self._emit("flip-found-nothing", i, "ruling.flip-no-basic")
            return 0
        while True:
            if not car.deck:
                yield from self._reshuffle(i)
                if turn.stage == "reveal":
                    self.found.append("reshuffle-during-stress-flip")
                continue
            top = car.deck.pop(0)
            self._note(i, "deck", rule)
            if basic(top):
                car.flipped.append(top)
                self._note(i, "flipped speed", rule, "speed.turn-total")
                self._emit("flipped", i, rule, card=top, kept=True)
                return printed[top].value or 0
            car.discard[top] += 1
            self._note(i, "discard", rule)
            self._emit("flipped", i, rule, card=top, kept=False)

    def _reshuffle(self, i: int) -> Run:
        car = self.cars[i]
        self._emit("deck-empty", i, "deck.reshuffle", discard=sum(car.discard.values()))
        self.shuffle = i
        action = yield Chance(i)
        assert isinstance(action, Shuffle)
        self.shuffle = None
        self._emit("shuffled", i, "deck.reshuffle", cards=len(action.order))
        car.deck, car.discard = list(action.order), Counter()
        self._note(i, "deck discard", "deck.reshuffle")

    def _react(self, turn: TurnMemory) -> Run:
        i = turn.car
        car = self.cars[i]
        while True:
            choices = react_choices(
                car, turn, self._effect(i), self._extra_move_open(i, 1),
                self.rulings.chose(COOLING_BONUS_COOLDOWN, "gear-plus-one"),
                self.rulings.chose(FREE_BOOST_ENGINE, "needs-heat"))
            if self.garage:
                pool = car.discard  # ruling.garage-salvage-few: which cards Salvage takes
                if self.rulings.chose(GARAGE_SALVAGE, "cards-only"):
                    pool = Counter({c: k for c, k in car.discard.items()
                                    if c not in (og.HEAT, og.STRESS)})
                choices |= og.react_options(i, car.hand, pool, car.played, turn.used,
                                            turn.boosted, self._effect(i) != "no-cooldown",
                                            sub_multisets)
                if og.mandatory_left(car.played, turn.used):
                    choices.discard(EndReact(i))
            if choices == {EndReact(i)}:
                return
            action = yield Decision(i, frozenset(choices),
                                    ("react.any-order", "react.cooldown", "react.boost",
                                     "adrenaline.effects"))
            if isinstance(action, EndReact):
                return
            if isinstance(action, UseSymbol):
                yield from self._use_symbol(turn, action)
            elif isinstance(action, SectorCooldown):
                car.hand[HEAT] -= 1
                car.engine += 1
                turn.sector_cooldown_used = True
                self._note(i, "hand engine", "weather.cooling-bonus")
                self._emit("cooled", i, "weather.cooling-bonus", amount=1)
            elif isinstance(action, Cooldown | AdrenalineCooldown):
                amount = action.amount if isinstance(action, Cooldown) else 1
                rule = "react.cooldown" if isinstance(action, Cooldown) else "adrenaline.effects"
                car.hand[HEAT] -= amount
                car.engine += amount
                self._note(i, "hand engine", rule, "react.cooldown")
                self._emit("cooled", i, rule, amount=amount)
                if isinstance(action, Cooldown):
                    turn.cooldown_used = True
                else:
                    turn.adrenaline_cooldown_used = True
            elif isinstance(action, AdrenalineMove):
                turn.adrenaline_move_used = True
                turn.speed += 1
                self._note(i, "speed", "adrenaline.effects", "speed.turn-total")
                self._emit("adrenaline", i, "adrenaline.effects", speed=turn.speed)
                self._move(i, 1, "adrenaline", "adrenaline.effects")
            else:
                assert isinstance(action, Boost)
                turn.boosted = True
                if self._effect(i) == "free-boost":  # road.free-boost: nothing to pay
                    self._emit("free-boost", i, "road.free-boost")
                else:
                    car.engine -= 1
                    car.discard[HEAT] += 1
                    self._note(i, "engine discard", "react.boost")
                    self._emit("paid-heat", i, "react.boost", amount=1, cause="boost")
                turn.stage = "boost"
                found = yield from self._flip(turn, "react.boost")
                turn.stage = "react"
                turn.speed += found
                self._move(i, found, "boost", "react.boost")

    def _taken(self, i: int) -> set[Spot]:
        """The physical spots of every other car on the track."""
        return {self.board.spot(c.position, c.racing_line) for j, c in enumerate(self.cars)
                if j != i and j not in self.ranking and j not in self.out}

    def _can_slipstream(self, i: int) -> bool:
        """slipstream.eligible (beside a car, or a car in the next space) and
        slipstream.not-past-finish (never across or after the final finish line)."""
        car = self.cars[i]
        if car.position + 2 > self.board.finish:
            return False
        if self._effect(i) == "no-slipstream":  # weather.no-slipstream
            return False
        taken = self._taken(i)
        ahead = self.board.space(car.position + 1)
        return (self.board.spot(car.position, not car.racing_line) in taken
                or (ahead, True) in taken or (ahead, False) in taken) and self._extra_move_open(
                    i, 2)

    def _extra_move_open(self, i: int, spaces: int) -> bool:
        """ruling.blocked-extra-move: under "must-gain" an optional move must change spot."""
        if not self.rulings.chose(BLOCKED_EXTRA_MOVE, "must-gain"):
            return True
        car = self.cars[i]
        return self._landing(i, spaces) != (car.position, car.racing_line)

    def _landing(self, i: int, spaces: int) -> tuple[int, bool] | None:
        """Where a move of ``spaces`` puts car ``i`` (None: it does not move)."""
        car = self.cars[i]
        if spaces < 0 or (spaces == 0 and not self.rulings.chose(ZERO_MOVE, "place")):
            return None  # ruling.zero-move
        position, racing = self.board.place(car.position + spaces, self._taken(i))
        if spaces > 0 and position == car.position and self.rulings.chose(BLOCKED_OWN_SPACE,
                                                                            "stay"):
            return car.position, car.racing_line  # ruling.blocked-own-space
        return position, racing

    def _move(self, i: int, spaces: int, why: str, rule: str) -> None:
        """Move forward; placement applies where the car stops (a move of 0 is none)."""
        landing = self._landing(i, spaces)
        if landing is None:
            return
        car = self.cars[i]
        target = car.position + spaces
        if self.turn is not None and spaces > 0 and self.rulings.chose(SETBACK_CORNER,
                                                                        "checked"):
            self.turn.reach = max(self.turn.reach, target)  # ruling.setback-corner
        position, racing = landing
        if position < target:
            self.found.append("blocked-final-space")
        rules = (rule, "place.racing-line-first", "place.blocked")
        self._note(i, "position racing_line", *rules)
        self._emit("moved", i, *rules, by=why, spaces=spaces, position=position,
                   racing_line=racing)
        if car.position <= self.board.finish < position:
            self._emit("crossed-finish", i, "finish.line")
        car.position, car.racing_line = position, racing

    def _corners(self, turn: TurnMemory) -> bool:
        """Step 7; True if the car spun."""
        i = turn.car
        car = self.cars[i]
        end = car.position
        if self.rulings.chose(SETBACK_CORNER, "checked"):  # ruling.setback-corner
            end = max(end, turn.reach)
        lines = self.board.lines_crossed(turn.start, end)
        paid_before = False
        for checked, (line, limit, number) in enumerate(lines, start=1):
            excess = turn.speed - limit
            if self.weather is not None:  # road.limit, road.overheat
                limit, excess = self.weather.corner(number, limit, turn.speed)
            if self.garage:  # upgrade.adjust: the cards in play; ruling.garage-adjust
                limit += sum(og.printed(c, "adjust") for c in car.played)
                if not self.rulings.chose(GARAGE_ADJUST, "unclamped"):
                    limit = max(0, limit)
                excess = turn.speed - limit
                if excess > 0 and self.weather is not None and (
                        self.weather.road[number - 1] == "overheat"):
                    excess += 1
            if excess <= 0:
                self._emit("corner", i, "corner.check", corner=number, limit=limit,
                           speed=turn.speed, heat=0)
                continue
            if car.engine >= excess:
                car.engine -= excess
                car.discard[HEAT] += excess
                paid_before = True
                self._note(i, "engine discard", "corner.pay-heat")
                self._emit("corner", i, "corner.pay-heat", corner=number, limit=limit,
                           speed=turn.speed, heat=excess)
                continue
            paid = car.engine
            position, racing = self.board.place(line, self._taken(i))
            stress = 1 if car.gear <= 2 else 2
            if not self.rulings.chose(STRESS_SUPPLY, "unlimited"):  # ruling.stress-supply
                stress = min(stress, self.supply)
            self._emit("spun-out", i, "corner.spin", corner=number, limit=limit,
                       speed=turn.speed, heat=paid, stress=stress, position=position,
                       racing_line=racing)
            car.engine = 0
            car.discard[HEAT] += paid
            car.position, car.racing_line, car.gear = position, racing, 1
            car.hand[STRESS] += stress
            self.supply -= stress
            self._note(i, "engine discard position racing_line gear hand", "corner.spin")
            self._note(None, "supply", "corner.spin", "ruling.stress-supply")
            self.found.append("spin-out")
            if self.spin_eliminates and i not in self.out:  # event.sponsor-withdraws
                self.out.append(i)
                self._note(None, "out", "event.sponsor-withdraws", "ruling.eliminated-turn")
                self._emit("eliminated", i, "event.sponsor-withdraws", "ruling.eliminated-turn")
            if checked >= 2:
                self.found.append("two-corners-one-move")
                if paid_before:
                    self.found.append("spin-at-second-corner-after-paying")
            return True
        if len(lines) >= 2:
            self.found.append("two-corners-one-move")
        return False

    def _effect(self, i: int) -> str | None:
        """road.where-the-car-is: the sector effect where car ``i`` stands now."""
        if self.weather is None:
            return None
        return self.weather.sector_effect(self.board, self.cars[i].position)

    def _legend_turn(self, i: int) -> Run:
        """A Legend's turn: the round's card (a reshuffle first if the deck is empty), then
        its move; no cards, Heat, corner check or slipstream (legend.no-heat)."""
        if self.legend_card is None:
            if not self.legend_deck:
                self._emit("legend-deck-empty", i, "legend.deck")
                self.shuffle = i
                action = yield Chance(i, ("legend.deck",))
                assert isinstance(action, LegendShuffle)
                self.shuffle = None
                self._emit("legend-deck-shuffled", None, "legend.deck", cards=len(action.order))
                self.legend_deck = list(action.order)
            self.legend_card = self.legend_deck.pop(0)
            self._emit("legend-card", None, "legend.deck", card=self.legend_card)
        colour = self.legend[i]
        assert colour is not None
        diamond, helmet = legend_card(self.legend_card, colour)
        spaces, rule = legend_move(self.board, self.cars[i].position, diamond, helmet,
                                   self.aggressive, self.weather)
        assert self.turn is not None
        target = self.cars[i].position + spaces
        if (spaces > 0 and self.rulings.chose(LEGEND_BLOCKED_SPOT, "stay")
                and {self.board.spot(target, True), self.board.spot(target, False)}
                <= self._taken(i)):  # ruling.legend-blocked-spot "stay": the Legend stays
            self._emit("legend", i, "ruling.legend-blocked-spot", diamond=diamond,
                       helmet=helmet, spaces=0, rule="ruling.legend-blocked-spot")
            return
        self.turn.speed = spaces
        self._emit("legend", i, rule, diamond=diamond, helmet=helmet, spaces=spaces, rule=rule)
        self._move(i, spaces, "legend", rule)

    def _replenish(self, turn: TurnMemory) -> Run:
        i = turn.car
        car = self.cars[i]
        turn.stage = "replenish"
        refreshed = canon(Counter(u.split()[0] for u in turn.used.elements()
                                  if u.endswith(" refresh")))
        if refreshed:  # upgrade.refresh: on top of the deck, card order
            car.played = canon(Counter(car.played) - Counter(refreshed))
            car.deck = [*refreshed, *car.deck]
            self._note(i, "deck played", "upgrade.refresh")
        turn.used = Counter()
        if car.played or car.flipped:  # replenish.cleanup
            used = Counter(c for c in car.played if og.is_sponsor(c))
            if used:  # sponsor.one-time: out of the car's cards, not to its discard pile
                self.held[i] -= used
                self.spent += used
                car.played = tuple(c for c in car.played if not og.is_sponsor(c))
                self._note(i, "sponsors spent discard", "sponsor.one-time")
                self._emit("sponsor-used", i, "sponsor.one-time", cards=canon(used))
            car.discard += Counter(car.played) + Counter(car.flipped)
            car.played, car.flipped = (), []
            self._note(i, "discard played flipped", "replenish.cleanup")
        if self.finished(i) and self.rulings.chose(FINISHED_DISCARD_DRAW, "skip"):
            return  # ruling.finished-car-discard-draw: under "skip" it draws nothing
        while (need := self.hand_size - sum(car.hand.values())) > 0:
            take, car.deck = car.deck[:need], car.deck[need:]
            if take:
                car.hand += Counter(take)
                self._note(i, "hand deck", "replenish.draw")
                self._emit("drew", i, "replenish.draw", count=len(take))
            if sum(car.hand.values()) >= self.hand_size or not +car.discard:
                return  # ruling.replenish-empty: nothing left to draw
            yield from self._reshuffle(i)

    def car_cards(self, i: int) -> dict[str, Any]:
        """The model's view of car ``i`` in the engine's terms (hand and discard canonical)."""
        car = self.cars[i]
        return {"position": car.position, "racing_line": car.racing_line, "gear": car.gear,
                "engine": car.engine, "hand": canon(car.hand), "deck": tuple(car.deck),
                "discard": canon(car.discard), "played": car.played,
                "flipped": tuple(car.flipped)}

"""Planted single-rule bugs: for every rule ID, an engine with that one rule broken.

Each :class:`Planted` breaks one rule in-process with ``pytest.MonkeyPatch`` (cheap: no
subprocess) and names the hand-written test, tagged with the rule, that must catch it
(``tests/test_planted_bugs.py`` also runs the fixtures tagged with the rule against it).
Several remove behaviour (a choice never offered, a step skipped), as a careful reviewer
would plant them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

from heatcore.framework.errors import IllegalAction, MalformedInput
from heatcore.framework.events import event
from heatcore.framework.values import replace
from heatcore.heat import (
    cards,
    cleanup,
    engine,
    hooks,
    notation,
    observe,
    placement,
    planning,
    react,
    reveal,
    rounds,
    rulings,
    setup,
    slipstream,
    track,
)
from heatcore.heat.actions import AdrenalineMove, Cooldown, Plan
from heatcore.heat.cards import HEAT, STRESS, canonical
from heatcore.heat.modules import legends, weather
from heatcore.heat.state import RaceState

Patch = Callable[[pytest.MonkeyPatch], None]


@dataclass(frozen=True)
class Planted:
    """One rule broken: what the bug does, how to plant it, and the tagged test that
    catches it (``module::function`` and the arguments to call it with)."""

    rule: str
    what: str
    plant: Patch
    killer: str
    args: dict[str, Any] = field(default_factory=dict)


def _wrap(module: Any, name: str, make: Callable[[Any], Any]) -> Patch:
    """A patch replacing ``module.name`` with ``make(original)``."""
    def plant(mp: pytest.MonkeyPatch) -> None:
        mp.setattr(module, name, make(getattr(module, name)))
    return plant


def _both(*patches: Patch) -> Patch:
    def plant(mp: pytest.MonkeyPatch) -> None:
        for patch in patches:
            patch(mp)
    return plant


def _set(module: Any, name: str, value: Any) -> Patch:
    def plant(mp: pytest.MonkeyPatch) -> None:
        mp.setattr(module, name, value)
    return plant


def _item(mapping: dict[Any, Any], key: Any, value: Any) -> Patch:
    def plant(mp: pytest.MonkeyPatch) -> None:
        mp.setitem(mapping, key, value)
    return plant


# ------------------------------------------------------------------ the bugs


def _skip_sequence_checks(orig: Any) -> Any:
    def check_action(state: Any, action: Any) -> None:
        try:
            orig(state, action)
        except IllegalAction as error:
            if error.rule != "round.sequence":
                raise
    return check_action




def _free_gears_no_down(car: Any) -> tuple[int, ...]:
    return tuple(g for g in (car.gear, car.gear + 1) if 1 <= g <= 4)




def _apply_plan_downshift_free(orig: Any) -> Any:
    def apply_plan(state: Any, plan: Any, events: Any) -> Any:
        car = state.cars[plan.car]
        if plan.gear == car.gear - 2:
            lower = replace(car, gear=plan.gear + 1)
            state = state.with_car(plan.car, lower)
        return orig(state, plan, events)
    return apply_plan


def _reachable_three(car: Any) -> tuple[int, ...]:
    extra = {g for g in (car.gear - 3, car.gear + 3) if 1 <= g <= 4} if car.engine >= 1 else set()
    return tuple(sorted(set(planning.reachable_gears(car)) | extra))


def _legal_plans_gear5(orig: Any) -> Any:
    def legal_plans(state: Any, index: int) -> Any:
        plans = orig(state, index)
        car = state.cars[index]
        if car.gear == 4 and len(planning.playable_in_hand(car)) >= 5:
            plans.append(Plan(index, 5, canonical(planning.playable_in_hand(car)[:5])))
        if car.gear == 1:
            plans.append(Plan(index, 0, ()))
        return plans
    return legal_plans




def _check_plan_lenient_count(orig: Any) -> Any:
    def check_plan(state: Any, plan: Any) -> None:
        try:
            orig(state, plan)
        except IllegalAction as error:
            if error.rule != "play.card-count":
                raise
    return check_plan




def _react_cooldown_twice(orig: Any) -> Any:
    def react_choices(state: Any, turn: Any) -> Any:
        out = orig(state, turn)
        if turn.cooldown_used:
            car = state.cars[turn.car]
            n = min(react.COOLDOWN[car.gear], car.hand.count(HEAT))
            out = [Cooldown(turn.car, k) for k in range(1, n + 1)] + out
        return out
    return react_choices


def _check_react_lenient(orig: Any) -> Any:
    def check_react(state: Any, turn: Any, action: Any) -> None:
        try:
            orig(state, turn, action)
        except IllegalAction as error:
            if error.rule != "react.any-order":
                raise
    return check_react


def _boost_not_added(orig: Any) -> Any:
    def flip_once(state: Any, turn: Any, events: Any) -> Any:
        after = orig(state, turn, events)
        if turn.stage.value == "boost" and after.turn is not None and \
                after.turn.speed != turn.speed:
            after = replace(after, turn=replace(after.turn, speed=turn.speed))
        return after
    return flip_once


def _adrenaline_no_speed(orig: Any) -> Any:
    def apply_react(state: Any, turn: Any, action: Any, events: Any) -> Any:
        after = orig(state, turn, action, events)
        if isinstance(action, AdrenalineMove) and after.turn is not None:
            after = replace(after, turn=replace(after.turn, speed=turn.speed))
        return after
    return apply_react


def _adrenaline_count_on_track(state: Any, car: int) -> bool:
    count = rounds.adrenaline_count(len(state.order) + 0 * len(state.cars))
    return state.order.index(car) >= len(state.order) - count


def _adrenaline_to_first(state: Any, car: int) -> bool:
    return state.order.index(car) < rounds.adrenaline_count(len(state.cars))




def _no_slip_beside(state: Any, car: int) -> bool:
    me = state.cars[car]
    if me.position + slipstream.SLIPSTREAM_SPACES > state.finish_position:
        return False
    taken = placement.occupied(state, car)
    return (me.position + 1, True) in taken or (me.position + 1, False) in taken


def _slip_past_finish(state: Any, car: int) -> bool:
    me = state.cars[car]
    taken = placement.occupied(state, car)
    return ((me.position, not me.racing_line) in taken or (me.position + 1, True) in taken
            or (me.position + 1, False) in taken)


def _slip_earlier_lap_forbidden(orig: Any) -> Any:
    def can_slipstream(state: Any, car: int) -> bool:
        me = state.cars[car]
        lap = state.track.spaces_per_lap
        if (me.position - 1) // lap != (me.position + 1) // lap:
            return False
        return bool(orig(state, car))
    return can_slipstream


def _slip_moves(spaces: int) -> Patch:
    return _set(slipstream, "SLIPSTREAM_SPACES", spaces)


def _slip_adds_speed(orig: Any) -> Any:
    def apply_slipstream(state: Any, turn: Any, take: bool, events: Any) -> Any:
        after = orig(state, turn, take, events)
        if take and after.turn is not None:
            after = replace(after, turn=replace(after.turn, speed=after.turn.speed + 2))
        return after
    return apply_slipstream


def _place_outside_first(position: int, taken: set[Any]) -> Any:
    while True:
        if (position, False) not in taken:
            return (position, False)
        if (position, True) not in taken:
            return (position, True)
        position -= 1


def _place_ahead_when_full(position: int, taken: set[Any]) -> Any:
    while True:
        if (position, True) not in taken:
            return (position, True)
        if (position, False) not in taken:
            return (position, False)
        position += 1


def _occupied_over_the_race(state: Any, moving: int) -> set[Any]:
    """Cars a lap apart never meet: occupancy compares positions counted over the race."""
    return {car.spot for i, car in enumerate(state.cars) if i != moving and i not in state.ranking}


def _move_one_short(orig: Any) -> Any:
    def move_car(state: Any, car: int, spaces: int, why: str, events: Any, **changes: Any) -> Any:
        return orig(state, car, spaces - 1 if why == "cards" else spaces, why, events, **changes)
    return move_car


def _move_zero_places(orig: Any) -> Any:
    def move_car(state: Any, car: int, spaces: int, why: str, events: Any, **changes: Any) -> Any:
        if spaces <= 0:
            current = state.cars[car]
            spot = placement.free_spot_from(current.position, placement.occupied(state, car))
            state = state.with_car(car, replace(current, position=spot[0], racing_line=spot[1]))
        return orig(state, car, spaces, why, events, **changes)
    return move_car


def _speed_lowered_when_blocked(orig: Any) -> Any:
    def finish_flips(state: Any, turn: Any, events: Any) -> Any:
        start = state.cars[turn.car].position
        after = orig(state, turn, events)
        moved = after.cars[turn.car].position - start
        if after.turn is not None and 0 < moved < turn.to_move:
            after = replace(after, turn=replace(after.turn, speed=after.turn.speed - (
                turn.to_move - moved)))
        return after
    return finish_flips


def _flip_keeps_first(orig: Any) -> Any:
    def is_basic(card: str) -> bool:
        return card in cards.BASIC_SET or card in ("U0", "U5")
    return is_basic


def _flip_no_basic_gives_one(orig: Any) -> Any:
    def flip_once(state: Any, turn: Any, events: Any) -> Any:
        after = orig(state, turn, events)
        if events and events[-1].kind == "flip-found-nothing" and after.turn is not None:
            after = replace(after, turn=replace(after.turn, speed=after.turn.speed + 1,
                                                to_move=after.turn.to_move + 1))
        return after
    return flip_once


def _one_corner(orig: Any) -> Any:
    def corner_lines(self: Any, start: int, end: int, laps: int) -> Any:
        return orig(self, start, end, laps)[:1]
    return corner_lines


def _corners_after_finish(orig: Any) -> Any:
    def corner_lines(self: Any, start: int, end: int, laps: int) -> Any:
        return orig(self, start, end, laps + 1)
    return corner_lines


def _pay_one_less(orig: Any) -> Any:
    def check_corners(state: Any, turn: Any, events: Any) -> Any:
        return orig(state, replace(turn, speed=turn.speed - 1), events)
    return check_corners


def _spin_keeps_gear(orig: Any) -> Any:
    def check_corners(state: Any, turn: Any, events: Any) -> Any:
        gear = state.cars[turn.car].gear
        after = orig(state, turn, events)
        if any(e.kind == "spun-out" for e in events):
            after = after.with_car(turn.car, replace(after.cars[turn.car], gear=gear))
        return after
    return check_corners




def _supply_unlimited(orig: Any) -> Any:
    def check_corners(state: Any, turn: Any, events: Any) -> Any:
        return orig(replace(state, supply=100), turn, events)
    return check_corners


def _stress_dropped_over_seven(orig: Any) -> Any:
    def check_corners(state: Any, turn: Any, events: Any) -> Any:
        after = orig(state, turn, events)
        car = after.cars[turn.car]
        while len(car.hand) > cards.HAND_SIZE and STRESS in car.hand:
            hand = list(car.hand)
            hand.remove(STRESS)
            car = replace(car, hand=tuple(hand))
        return after.with_car(turn.car, car)
    return check_corners


def _discard_stress_too(state: Any, car: int) -> tuple[str, ...]:
    return tuple(c for c in state.cars[car].hand if c != HEAT)


def _cleanup_keeps_flipped(orig: Any) -> Any:
    def enter_replenish(state: Any, turn: Any, events: Any) -> Any:
        car = state.cars[turn.car]
        kept = car.flipped
        after = orig(state, turn, events)
        if kept:
            now = after.cars[turn.car]
            discard = list(now.discard)
            for c in kept:
                discard.remove(c)
            after = after.with_car(turn.car, replace(now, discard=tuple(discard), flipped=kept))
        return after
    return enter_replenish


def _draw_to_six(mp: pytest.MonkeyPatch) -> None:
    mp.setattr(cleanup, "HAND_SIZE", 6)




def _reshuffle_includes_play(orig: Any) -> Any:
    def flip_once(state: Any, turn: Any, events: Any) -> Any:
        after = orig(state, turn, events)
        if after.shuffle == turn.car:
            car = after.cars[turn.car]
            car = replace(car, discard=canonical(car.discard + car.played + car.flipped),
                          played=(), flipped=())
            after = after.with_car(turn.car, car)
        return after
    return flip_once


def _replenish_empty_crash(orig: Any) -> Any:
    def draw(state: Any, turn: Any, events: Any) -> Any:
        car = state.cars[turn.car]
        if not car.deck and not car.discard and len(car.hand) < cards.HAND_SIZE \
                and not state.has_finished(turn.car):
            events.append(event("deck-empty", turn.car, discard=0))
            return replace(state, shuffle=turn.car), False
        return orig(state, turn, events)
    return draw



def _finish_one_later(orig: Any) -> Any:
    def finish_position(self: Any, laps: int) -> int:
        return int(orig(self, laps)) + 1
    return finish_position


def _rank_by_turn_order(state: Any, cars: Any) -> tuple[int, ...]:
    return tuple(cars)


def _end_round_keeps_finishers(orig: Any) -> Any:
    def end_round(state: Any, events: Any) -> Any:
        after = orig(state, events)
        if after.phase.value == "plan" and after.ranking:
            keep = tuple(i for i in state.order if i in after.ranking
                         and i not in after.order)
            after = replace(after, order=after.order + keep)
        return after
    return end_round


def _round_limit(orig: Any) -> Any:
    """A race that ends after round 60, finished or not."""
    def end_round(state: Any, events: Any) -> Any:
        after = orig(state, events)
        if after.phase.value == "plan" and after.round > 60:
            return replace(after, phase=type(after.phase)("over"), order=(), cursor=0)
        return after
    return end_round



def _cluttered_by_current_gear(car: Any) -> bool:
    return len(planning.playable_in_hand(car)) < car.gear


def _cluttered_moves(orig: Any) -> Any:
    def reveal_(state: Any, turn: Any, events: Any) -> Any:
        car = state.cars[turn.car]
        if HEAT in car.played:
            played = tuple(c for c in car.played if c != HEAT)
            state = state.with_car(turn.car, replace(car, played=played, discard=canonical(
                car.discard + (HEAT,) * (len(car.played) - len(played)))))
        return orig(state, turn, events)
    return reveal_


def _heat_playable(orig: Any) -> Any:
    def check_plan(state: Any, plan: Any) -> None:
        try:
            orig(state, plan)
        except IllegalAction as error:
            if error.rule != "play.heat-not-playable":
                raise
    return check_plan


def _u0_unplayable(mp: pytest.MonkeyPatch) -> None:
    mp.setattr(planning, "PLAYABLE", frozenset(("1", "2", "3", "4", "U5", "S")))



def _blocked_move_forbidden(orig: Any) -> Any:
    def react_choices(state: Any, turn: Any) -> Any:
        out = orig(state, turn)
        me = state.cars[turn.car]
        taken = placement.occupied(state, turn.car)
        if (me.position + 1, True) in taken and (me.position + 1, False) in taken:
            out = [a for a in out if not isinstance(a, AdrenalineMove)]
        return out
    return react_choices


def _u0_refused(orig: Any) -> Any:
    def check_plan(state: Any, plan: Any) -> None:
        if "U0" in plan.cards:
            raise IllegalAction("play.playable-cards", "U0 is not playable")
        orig(state, plan)
    return check_plan


def _boost_free(orig: Any) -> Any:
    def apply_react(state: Any, turn: Any, action: Any, events: Any) -> Any:
        after = orig(state, turn, action, events)
        if type(action).__name__ == "Boost":
            car = after.cars[turn.car]
            discard = list(car.discard)
            discard.remove(HEAT)
            after = after.with_car(turn.car, replace(car, engine=car.engine + 1,
                                                     discard=tuple(discard)))
        return after
    return apply_react


def _no_reshuffle_at_draw(orig: Any) -> Any:
    def draw(state: Any, turn: Any, events: Any) -> Any:
        after, done = orig(state, turn, events)
        if after.shuffle is not None:
            events.pop()
            return replace(after, shuffle=None), True
        return after, done
    return draw


def _ranked_cars_count(state: Any, car: int) -> bool:
    return state.order.index(car) >= len(state.cars) - rounds.adrenaline_count(len(state.cars))


def _cooldown(gear: int, value: int) -> Patch:
    return _item(react.COOLDOWN, gear, value)


def _under(ruling: str, choice: str, state_arg: int = 0) -> Callable[[Any], Any]:
    """A wrapper that runs the function as if the race played ``choice`` of ``ruling``
    (the state is argument ``state_arg``); a returned state keeps the race's own rulings."""
    from heatcore.heat.rulings import make_rulings
    from heatcore.heat.state import RaceState

    def make(orig: Any) -> Any:
        def run(*args: Any) -> Any:
            state = args[state_arg]
            changed = replace(state, rulings=make_rulings({ruling: choice}))
            out = orig(*args[:state_arg], changed, *args[state_arg + 1:])
            if isinstance(out, RaceState):
                return replace(out, rulings=state.rulings)
            if isinstance(out, tuple) and out and isinstance(out[0], RaceState):
                return (replace(out[0], rulings=state.rulings), *out[1:])
            return out
        return run
    return make


def _plan_shows_gear(pay: bool) -> Callable[[Any], Any]:
    """apply_plan changing the car's gear at once (and paying a two-gear shift if ``pay``),
    so that the end of planning finds nothing left to shift."""
    def make(orig: Any) -> Any:
        def apply_plan(state: Any, plan: Any, events: Any) -> Any:
            after = orig(state, plan, events)
            car = after.cars[plan.car]
            two = abs(plan.gear - car.gear) == 2
            car = replace(car, gear=plan.gear)
            if pay and two:
                car = replace(car, engine=car.engine - 1,
                              discard=canonical((*car.discard, HEAT)))
            return after.with_car(plan.car, car)
        return apply_plan
    return make


def _shift_gears_in_turn_order(state: Any, events: Any) -> Any:
    for index in state.order:
        car = state.cars[index]
        gear = len(car.played)
        if abs(gear - car.gear) == 2:
            events.append(event("paid-heat", index, amount=1, cause="shift"))
            car = replace(car, engine=car.engine - 1, discard=canonical((*car.discard, HEAT)))
        if gear != car.gear:
            events.append(event("shifted", index, gear=gear))
        state = state.with_car(index, replace(car, gear=gear))
    return state


def _first_finish_ends_race(orig: Any) -> Any:
    def end_round(state: Any, events: Any) -> Any:
        after = orig(state, events)
        if after.ranking and not after.is_over():
            return replace(after, phase=after.phase.__class__("over"), order=(), cursor=0)
        return after
    return end_round


def _cluttered_adrenaline_passed(orig: Any) -> Any:
    def has_adrenaline(state: Any, car: int) -> bool:
        last = state.order[-1]
        if HEAT in state.cars[last].played and len(state.order) >= 2 \
                and car == state.order[-2]:
            return True
        return bool(orig(state, car))
    return has_adrenaline


def _board_laps_only(orig: Any) -> Any:
    def check_setup(setup_: Any, track_: Any) -> None:
        if setup_.laps not in (1, track_.laps):
            raise MalformedInput("ruling.lap-count", "only the board's laps or 1")
        orig(setup_, track_)
    return check_setup



def _deck_size_only(car: Any) -> None:
    car["deck"] = len(car["deck"])


def _line_at_stop_checked(orig: Any) -> Any:
    def corner_lines(self: Any, start: int, end: int, laps: int) -> Any:
        return orig(self, start, end + 1, laps)
    return corner_lines


# ------------------------------------------------------------------ the registry

P = Planted
PLANTED: tuple[Planted, ...] = (
    P("round.sequence", "actions of another step are accepted",
      _wrap(engine, "check_action", _skip_sequence_checks),
      "test_rules_edges::test_an_action_of_another_step_is_refused_by_round_sequence"),
    P("info.hidden", "a player sees every hand and deck",
      _both(_set(observe, "_pile_sizes", lambda car: None),
            _set(observe, "_other_cards", lambda state, index, car: None)),
      "test_rules_setup::test_observation_hides_other_hands_and_every_deck"),
    P("setup.track-laps", "the race always runs the board's laps",
      _wrap(setup, "load_track", lambda orig: lambda t: replace(orig(t), laps=1)),
      "test_rules_setup::test_laps_come_from_the_track_and_can_be_overridden"),
    P("setup.spaces-and-spots", "the racing line of USA's first corner is read from lane 2",
      _wrap(track.Track, "racing_lane", lambda orig: lambda self, space: 2),
      "test_rules_setup::test_usa_data_matches_the_board"),
    P("setup.deck", "the deck loses its starting-upgrade Heat",
      _set(weather, "starting_deck", lambda stress: canonical(
          [c for c in cards.starting_deck(stress) if c != HEAT])),
      "test_rules_setup::test_each_car_starts_with_18_cards_six_heat_gear_1_and_seven_in_hand",
      {"players": 2}),
    P("setup.engine", "the engine starts with 5 Heat",
      _wrap(setup, "load_track", lambda orig: lambda t: replace(orig(t), heat=5)),
      "test_rules_setup::test_each_car_starts_with_18_cards_six_heat_gear_1_and_seven_in_hand",
      {"players": 2}),
    P("setup.gear", "cars start in 2nd gear",
      _wrap(setup, "Car", lambda orig: lambda **kw: orig(**{**kw, "gear": 2})),
      "test_rules_setup::test_each_car_starts_with_18_cards_six_heat_gear_1_and_seven_in_hand",
      {"players": 2}),
    P("setup.stress-supply", "the supply holds every Stress of the box",
      _set(setup, "BOX_STRESS", 40),
      "test_rules_setup::test_stress_supply_holds_the_box_less_the_decks", {"players": 2}),
    P("setup.grid", "the grid order is reversed",
      _wrap(track.Track, "grid_positions", lambda orig: lambda self: tuple(
          reversed(orig(self)))),
      "test_rules_setup::test_grid_order_places_cars_pole_first_and_is_round_one_order"),
    P("setup.hand", "hands start with 6 cards", _set(setup, "HAND_SIZE", 6),
      "test_rules_setup::test_each_car_starts_with_18_cards_six_heat_gear_1_and_seven_in_hand",
      {"players": 2}),
    P("gear.range", "gears 0 and 5 are offered", _wrap(engine, "legal_plans", _legal_plans_gear5),
      "test_rules_planning::test_three_step_shift_and_gear_five_are_illegal"),
    P("gear.shift.free", "no free downshift", _set(planning, "free_gears", _free_gears_no_down),
      "test_rules_planning::test_free_shifts_are_stay_up_or_down_one_within_one_to_four"),
    P("gear.shift.two-costs-heat", "a two-gear downshift is free",
      _wrap(engine, "apply_plan", _apply_plan_downshift_free),
      "test_rules_edges::test_a_two_gear_downshift_pays_one_heat", {"gear": 3, "down": 1}),
    P("gear.shift.no-three", "a three-gear shift is offered",
      _set(planning, "reachable_gears", _reachable_three),
      "test_rules_planning::test_three_step_shift_and_gear_five_are_illegal"),
    P("play.card-count", "a plan of one card too few is accepted",
      _wrap(engine, "check_plan", _check_plan_lenient_count),
      "test_rules_planning::test_exactly_as_many_cards_as_the_gear"),
    P("play.playable-cards", "the 0 upgrade cannot be played",
      _both(_u0_unplayable, _wrap(engine, "check_plan", _u0_refused)),
      "test_rules_planning::test_stress_and_starting_upgrades_are_playable_and_count_zero_and_five"),
    P("play.heat-not-playable", "Heat may be played beside a legal play",
      _wrap(engine, "check_plan", _heat_playable),
      "test_rules_planning::test_heat_cannot_be_played_while_a_legal_play_exists"),
    P("play.cluttered", "a cluttered play moves its playable cards",
      _both(_wrap(reveal, "reveal", _cluttered_moves), _wrap(engine, "reveal", _cluttered_moves)),
      "test_rules_planning::test_cluttered_hand_plays_all_playable_cards_plus_heat_and_does_not_move"),
    P("play.cluttered-only-when-forced", "clutter is judged at the current gear only",
      _set(planning, "is_cluttered", _cluttered_by_current_gear),
      "test_rules_planning::test_not_cluttered_when_a_two_step_downshift_allows_a_play"),
    P("order.fixed-at-round-start", "the car furthest behind goes first",
      _wrap(rounds, "standing", lambda orig: lambda state, cars: tuple(reversed(
          orig(state, cars)))),
      "test_rules_setup::test_grid_order_places_cars_pole_first_and_is_round_one_order"),
    P("reveal.speed", "the 5 upgrade counts 4", _item(cards.VALUE, "U5", 4),
      "test_race_checker::test_each_card_moves_the_car_its_printed_value", {"card": "U5"}),
    P("reveal.stress-flip", "a Stress flip keeps the 0 and 5 upgrades",
      _both(_wrap(reveal, "is_basic", _flip_keeps_first)),
      "test_rules_turn::test_stress_flip_skips_heat_stress_and_the_zero_and_five_upgrades"),
    P("move.exact", "the cards move one space short",
      _both(_wrap(reveal, "move_car", _move_one_short)),
      "test_rules_turn::test_car_moves_exactly_its_speed_past_other_cars_onto_the_racing_line"),
    P("place.racing-line-first", "a car stops on the outside spot first",
      _set(placement, "free_spot_from", _place_outside_first),
      "test_rules_turn::test_car_moves_exactly_its_speed_past_other_cars_onto_the_racing_line"),
    P("setup.board-space", "cars a lap apart never meet (occupancy over the race)",
      _set(placement, "occupied", _occupied_over_the_race),
      "test_lapped_cars::test_two_lapped_cars_fill_the_space_and_the_car_stops_behind_them"),
    P("place.blocked", "a car blocked by a full space moves ahead of it",
      _set(placement, "free_spot_from", _place_ahead_when_full),
      "test_rules_edges::test_two_full_spaces_send_the_car_back_to_the_first_free_spot"),
    P("place.speed-unchanged", "being blocked lowers the speed",
      _both(_wrap(engine, "finish_flips", _speed_lowered_when_blocked)),
      "test_rules_edges::test_a_blocked_car_checks_corners_with_its_full_speed"),
    P("adrenaline.who", "adrenaline goes to the first car", _set(engine, "has_adrenaline",
                                                                 _adrenaline_to_first),
      "test_rules_turn::test_last_car_of_the_round_gets_adrenaline_and_its_plus_one_counts_for_speed"),
    P("adrenaline.count-fixed", "the adrenaline count follows the cars still on the track",
      _set(engine, "has_adrenaline", _adrenaline_count_on_track),
      "test_rules_edges::test_two_cars_get_adrenaline_after_a_car_of_a_big_field_is_ranked",
      {"players": 5}),
    P("adrenaline.effects", "the adrenaline +1 moves but adds no speed",
      _wrap(engine, "apply_react", _adrenaline_no_speed),
      "test_rules_edges::test_adrenaline_gives_one_space_one_speed_and_one_cooldown_this_round_only"),
    P("react.any-order", "the gear's cooldown may be used twice",
      _both(_wrap(engine, "react_choices", _react_cooldown_twice),
            _wrap(engine, "check_react", _check_react_lenient)),
      "test_rules_edges::test_the_gears_cooldown_is_used_once"),
    P("react.cooldown", "1st gear cools 2", _cooldown(1, 2),
      "test_rules_turn::test_cooldown_by_gear_moves_heat_from_hand_to_engine",
      {"gear": 1, "cooldown": 3}),
    P("react.boost", "a boost pays no Heat", _wrap(engine, "apply_react", _boost_free),
      "test_rules_turn::test_boost_pays_one_heat_flips_and_adds_to_speed_once_per_turn"),
    P("speed.turn-total", "the boost's card moves the car but is not added to the speed",
      _wrap(engine, "flip_once", _boost_not_added),
      "test_rules_edges::test_corners_compare_the_cards_stress_boost_and_adrenaline_total"),
    P("slipstream.eligible", "no slipstream beside a car",
      _set(engine, "can_slipstream", _no_slip_beside),
      "test_race_checker::test_slipstream_is_offered_beside_a_car"),
    P("slipstream.move", "a slipstream moves 3 spaces", _slip_moves(3),
      "test_rules_turn::test_slipstream_behind_a_car_adds_two_spaces_but_not_speed"),
    P("slipstream.speed-unchanged", "a slipstream adds 2 to the speed",
      _wrap(engine, "apply_slipstream", _slip_adds_speed),
      "test_rules_edges::test_a_slipstream_across_a_corner_is_checked_with_the_turns_speed"),
    P("slipstream.not-past-finish", "slipstream across the final line",
      _set(engine, "can_slipstream", _slip_past_finish),
      "test_rules_edges::test_slipstream_up_to_the_last_space_but_not_across_the_line"),
    P("corner.check", "only the first corner line of a move is checked",
      _wrap(track.Track, "corner_lines", _one_corner),
      "test_rules_turn::test_two_corners_pay_in_order_and_spin_at_the_second_keeps_the_first_payment"),
    P("corner.pay-heat", "a corner costs one Heat less than the excess",
      _wrap(engine, "check_corners", _pay_one_less),
      "test_rules_turn::test_seed_example_speed_8_over_a_limit_of_6_costs_2_heat"),
    P("corner.spin", "a spin keeps the gear", _wrap(engine, "check_corners", _spin_keeps_gear),
      "test_rules_turn::test_seed_example_spin_with_one_heat_in_second_gear"),
    P("corner.after-finish-ignored", "corner lines after the final line count",
      _wrap(track.Track, "corner_lines", _corners_after_finish),
      "test_rules_edges::test_a_corner_line_past_the_final_line_is_not_checked"),
    P("discard.optional", "Stress cards may be discarded",
      _both(_set(cleanup, "discardable", _discard_stress_too),
            _set(engine, "discardable", _discard_stress_too)),
      "test_rules_turn::test_discard_any_cards_but_heat_and_stress"),
    P("replenish.cleanup", "the basic cards found by flips stay in the play area",
      _both(_wrap(engine, "enter_replenish", _cleanup_keeps_flipped),
            _wrap(cleanup, "enter_replenish", _cleanup_keeps_flipped)),
      "test_rules_turn::test_played_and_flipped_cards_go_to_discard_and_the_hand_is_refilled_to_7"),
    P("replenish.draw", "the hand is refilled to 6", _draw_to_six,
      "test_rules_turn::test_played_and_flipped_cards_go_to_discard_and_the_hand_is_refilled_to_7"),
    P("deck.reshuffle", "drawing stops when the deck runs out instead of reshuffling",
      _wrap(engine, "draw_to_hand_size", _no_reshuffle_at_draw),
      "test_rules_turn::test_reshuffle_at_replenish_includes_the_cards_just_played"),
    P("finish.line", "the finish line lies one space further",
      _wrap(track.Track, "finish_position", _finish_one_later),
      "test_rules_edges::test_stopping_exactly_on_the_last_space_does_not_finish"),
    P("finish.ranking", "finishers are ranked in turn order",
      _set(rounds, "standing", _rank_by_turn_order),
      "test_rules_turn::test_later_mover_that_ends_further_ahead_wins"),
    P("finish.removed", "finished cars stay in the turn order",
      _wrap(engine, "end_round", _end_round_keeps_finishers),
      "test_rules_edges::test_a_finished_car_leaves_the_track_at_the_end_of_its_round"),
    P("example.opening-turn", "a free shift costs one Heat",
      _wrap(engine, "apply_plan", lambda orig: lambda state, plan, events: orig(
          state.with_car(plan.car, replace(state.cars[plan.car], engine=state.cars[
              plan.car].engine - (plan.gear != state.cars[plan.car].gear))), plan, events)),
      "test_rules_turn::test_seed_example_opening_turn_3_and_2_in_second_gear"),
    P("example.second-turn", "2nd gear cools nothing", _cooldown(2, 0),
      "test_rules_turn::test_seed_example_second_turn_1_and_2_cooling_the_starting_heat"),
    P("ruling.flip-no-basic", "a flip with no basic card left adds 1",
      _wrap(engine, "flip_once", _flip_no_basic_gives_one),
      "test_rulings::test_a_flip_with_no_basic_card_left_finds_nothing_and_moves_no_card"),
    P("ruling.stress-supply", "the supply never runs out",
      _wrap(engine, "check_corners", _supply_unlimited),
      "test_rulings::test_a_spin_takes_only_what_the_stress_supply_still_holds"),
    P("ruling.no-round-limit", "the race ends after round 60",
      _wrap(engine, "end_round", _round_limit),
      "test_liveness::test_a_lasso_keeps_a_car_from_finishing_for_ever"),
    P("ruling.replenish-empty", "an empty deck and discard pile ask for a shuffle",
      _both(_wrap(engine, "draw_to_hand_size", _replenish_empty_crash),
            _wrap(cleanup, "draw_to_hand_size", _replenish_empty_crash)),
      "test_rulings::test_draw_stops_short_when_nothing_is_left_and_never_over_seven"),
    P("ruling.cluttered-gear", "a cluttered hand may only stay or shift one gear",
      _set(planning, "cluttered_gears", lambda car, free_only=False: planning.free_gears(car)),
      "test_rulings::test_a_cluttered_hand_may_take_the_paid_two_gear_shift"),
    P("slipstream.earlier-lap", "no slipstream across the line on an earlier lap",
      _wrap(engine, "can_slipstream", _slip_earlier_lap_forbidden),
      "test_rules_turn::test_slipstream_never_crosses_the_final_finish_line"),
    P("ruling.unreadable-input", "a state's unknown or fixed rulings are dropped unread",
      _set(notation, "make_rulings", lambda chosen: rulings.make_rulings(
          {k: v for k, v in chosen.items() if k in rulings.switches()})),
      "test_rulings_config::test_an_unknown_ruling_or_choice_is_a_clear_error"),
    P("ruling.zero-move", "a move of 0 applies placement",
      _both(_wrap(reveal, "move_car", _move_zero_places)),
      "test_rulings::test_a_move_of_zero_leaves_the_car_on_its_spot"),
    P("ruling.blocked-extra-move", "a fully blocked adrenaline move is not offered",
      _both(_wrap(engine, "react_choices", _under("ruling.blocked-extra-move", "must-gain")),
            _wrap(engine, "check_react", _under("ruling.blocked-extra-move", "must-gain"))),
      "test_rulings::test_blocked_adrenaline_move_is_legal_and_still_adds_one_speed"),
    P("ruling.finished-car-turn", "a finished car cannot react",
      _wrap(engine, "react_choices", lambda orig: lambda state, turn: (
          [a for a in orig(state, turn) if type(a).__name__ == "EndReact"]
          if state.has_finished(turn.car) else orig(state, turn))),
      "test_rulings::test_a_finished_car_reacts_keeps_its_spot_and_does_not_slipstream"),
    P("ruling.finished-car-discard-draw", "a finished car neither discards nor draws",
      _both(_wrap(engine, "draw_to_hand_size", _under("ruling.finished-car-discard-draw",
                                                      "skip")),
            _wrap(engine, "_after_slipstream", _under("ruling.finished-car-discard-draw",
                                                      "skip"))),
      "test_rulings::test_a_finished_car_discards_and_draws_as_usual"),
    P("ruling.simultaneous-planning", "a plan's shift and its Heat are made when it is taken",
      _wrap(engine, "apply_plan", _plan_shows_gear(pay=True)),
      "test_rules_info::test_a_later_planner_sees_nothing_of_an_earlier_plan"),
    P("info.plan-simultaneous", "a plan's new gear is on the table before the others plan",
      _wrap(engine, "apply_plan", _plan_shows_gear(pay=False)),
      "test_rules_info::test_a_later_planner_sees_nothing_of_an_earlier_plan"),
    P("info.gears-shown", "two-gear shifts are paid among the normal shifts, in turn order",
      _set(engine, "shift_gears", _shift_gears_in_turn_order),
      "test_rules_info::test_gears_then_two_gear_shifts_are_shown_when_every_plan_is_in"),
    P("info.cards-revealed", "a car's cards stay hidden at its own reveal",
      _set(observe, "_revealed", lambda state, car: False),
      "test_rules_info::test_cards_are_seen_from_the_cars_own_reveal_only"),
    P("info.discard-top", "a discard pile is shown card by card",
      _set(observe, "_pile_sizes", _deck_size_only),
      "test_rules_info::test_a_discard_pile_is_shown_as_its_size_to_everyone"),
    P("ruling.discard-pile-order", "a discard pile is shown card by card",
      _set(observe, "_pile_sizes", _deck_size_only),
      "test_rules_info::test_a_discard_pile_is_shown_as_its_size_to_everyone"),
    P("race.goal", "the race ends when the first car finishes",
      _wrap(engine, "end_round", _first_finish_ends_race),
      "test_rules_setup::test_a_race_ends_when_every_car_has_driven_its_laps_and_is_ranked"),
    P("setup.players", "seven cars may race",
      _set(setup, "MAX_PLAYERS", 7),
      "test_rules_setup::test_only_two_to_six_cars_race", {"players": 7}),
    P("setup.first-track", "the first race is on Italia",
      _set(setup, "FIRST_TRACK", "italia"),
      "test_rules_setup::test_the_first_race_is_on_usa"),
    P("ruling.lap-count", "only the board's laps or 1 may be raced",
      _wrap(setup, "check_setup", _board_laps_only),
      "test_rulings::test_races_of_other_lengths_than_the_board_play_to_the_end",
      {"laps": 3}),
    P("ruling.blocked-own-space", "a blocked move back to its own space keeps its spot",
      _wrap(placement, "landing", _under("ruling.blocked-own-space", "stay")),
      "test_rulings::test_a_blocked_move_may_end_on_the_racing_line_of_the_cars_own_space"),
    P("ruling.setback-corner", "the corner line just past the car's stop is checked",
      _wrap(track.Track, "corner_lines", _line_at_stop_checked),
      "test_rulings::test_a_car_set_back_before_a_corner_line_does_not_check_it"),
    P("ruling.spin-discard", "a car that spun may not discard",
      _wrap(engine, "_after_slipstream", _under("ruling.spin-discard",
                                                "straight-to-replenish")),
      "test_rulings::test_a_car_that_spun_may_still_discard"),
    P("ruling.hand-over-limit", "Stress over 7 cards is dropped",
      _wrap(engine, "check_corners", _stress_dropped_over_seven),
      "test_rules_edges::test_stress_from_a_spin_may_take_the_hand_over_seven"),
    P("replenish.discard-before-draw", "a flip's reshuffle takes the play area too",
      _wrap(engine, "flip_once", _reshuffle_includes_play),
      "test_rules_turn::test_stress_flip_reshuffles_the_discard_but_never_the_cards_in_play"),
    P("adrenaline.who", "ranked cars still take the last places of the order",
      _set(engine, "has_adrenaline", _ranked_cars_count),
      "test_rules_edges::test_two_cars_get_adrenaline_after_a_car_of_a_big_field_is_ranked",
      {"players": 6}),
    P("ruling.adrenaline-order", "a cluttered last car's adrenaline goes to the car before it",
      _wrap(engine, "has_adrenaline", _cluttered_adrenaline_passed),
      "test_rulings::test_a_cluttered_last_car_does_not_use_adrenaline"),
)


# ------------------------------------------------------------ every ruling alternative

def _alternative_ignored(ruling: str, choice: str) -> Patch:
    """An engine that plays the default where the race chose ``choice`` of ``ruling``:
    the alternative's behaviour removed, in both engines (``Rulings.chose`` says no)."""
    from heatcore.heat.rulings import Rulings

    def plant(mp: pytest.MonkeyPatch) -> None:
        chose = Rulings.chose

        def ignoring(self: Rulings, ruling_id: str, alternative: str) -> bool:
            if (ruling_id, alternative) == (ruling, choice):
                return False
            return chose(self, ruling_id, alternative)
        mp.setattr(Rulings, "chose", ignoring)
    return plant


#: For each alternative a race setup can switch on (heatcore.heat.rulings.KNOWN_ALTERNATIVES),
#: the test of that alternative which must catch an engine playing the default instead.
ALTERNATIVE_KILLERS: dict[tuple[str, str], str] = {
    ("ruling.stress-supply", "unlimited"):
        "test_rulings::test_under_an_unlimited_supply_a_spin_takes_its_full_count",
    ("ruling.cluttered-gear", "free-shifts-only"):
        "test_rulings::test_under_free_shifts_only_a_cluttered_hand_stays_or_shifts_one",
    ("ruling.zero-move", "place"):
        "test_rulings::test_under_place_a_move_of_zero_takes_the_free_racing_line_spot",
    ("ruling.blocked-extra-move", "must-gain"):
        "test_rulings::test_under_must_gain_a_move_that_gains_nothing_is_not_offered",
    ("ruling.blocked-own-space", "stay"):
        "test_rulings::test_under_stay_a_blocked_move_back_to_its_own_space_keeps_its_spot",
    ("ruling.spin-discard", "straight-to-replenish"):
        "test_rulings::test_under_straight_to_replenish_a_car_that_spun_does_not_discard",
    ("ruling.finished-car-discard-draw", "skip"):
        "test_rulings::test_under_skip_a_finished_car_neither_discards_nor_draws",
    ("ruling.setback-corner", "checked"):
        "test_rulings::test_under_checked_a_setback_before_a_corner_line_still_checks_it",
    ("ruling.cooling-bonus-own-cooldown", "gear-plus-one"):
        "test_module_rulings::test_gear_plus_one_adds_the_bonus_to_the_gears_cooldown",
    ("ruling.slipstream-bonus-all-or-nothing", "any-part"):
        "test_module_rulings::test_any_part_offers_every_part_of_the_slipstream_bonus",
    ("ruling.free-boost-empty-engine", "needs-heat"):
        "test_module_rulings::test_needs_heat_refuses_the_free_boost_to_an_empty_engine",
    ("ruling.legend-blocked-spot", "stay"):
        "test_module_rulings::test_stay_keeps_a_legend_whose_space_is_full_where_it_is",
    ("ruling.legend-adrenaline-count", "players-only"):
        "test_module_rulings::test_players_only_counts_the_players_cars_for_two_adrenaline_places",
    ("ruling.garage-adjust", "unclamped"):
        "test_garage_rulings::test_under_unclamped_an_adjusted_limit_below_zero_stands",
    ("ruling.garage-salvage-few", "cards-only"):
        "test_garage_rulings::test_under_cards_only_salvage_takes_no_heat_and_no_stress",
}

ALTERNATIVES_IGNORED: tuple[Planted, ...] = tuple(
    P(ruling, f"plays the default where the race chose {ruling}={choice}",
      _alternative_ignored(ruling, choice), killer)
    for (ruling, choice), killer in sorted(ALTERNATIVE_KILLERS.items()))


# ------------------------------------------------------------------ the modules' bugs

def _modules_unchecked(setup_: Any, track_: Any) -> None:
    """check_modules accepting any module list."""


def _any_weather_token(orig: Any) -> Any:
    def check(conditions: Any, track_: Any) -> None:
        if conditions.weather in weather.weather_tokens():
            orig(conditions, track_)
    return check


def _road_counts_unchecked(orig: Any) -> Any:
    def check(conditions: Any, track_: Any) -> None:
        if len(conditions.road) == len(track_.corners):
            return  # any tokens, any number of each
        orig(conditions, track_)
    return check


def _sector_one_late(orig: Any) -> Any:
    def sector_of(self: Any, position: int) -> int:
        return int(orig(self, position - 1))
    return sector_of


def _effect_at_turn_start(state: Any, car: int) -> Any:
    turn = state.turn
    position = turn.start_position if turn is not None and turn.car == car \
        else state.cars[car].position
    return weather.sector_effect(state, position)


def _weather_everywhere(orig: Any) -> Any:
    def effect(state: Any, position: int) -> Any:
        found = orig(state, position)
        if found is None and state.conditions is not None:
            return weather.weather_tokens()[state.conditions.weather].sector
        return found
    return effect


def _legend_shifted(helmet: int) -> Callable[[Any], Any]:
    def make(orig: Any) -> Any:
        def cards_() -> Any:
            return {card: {colour: (d, h + helmet) for colour, (d, h) in entry.items()}
                    for card, entry in orig().items()}
        return cards_
    return make


def _legend_rule_off(rule: str, delta: int) -> Callable[[Any], Any]:
    """legend_spaces moving ``delta`` spaces more whenever ``rule`` decides the move."""
    def make(orig: Any) -> Any:
        def spaces(state: Any, car: int, diamond: int, helmet: int) -> Any:
            moved, why = orig(state, car, diamond, helmet)
            if why == rule and moved + delta >= 0:
                return moved + delta, why
            return moved, why
        return spaces
    return make


def _legend_checked_at_corners(orig: Any) -> Any:
    """A Legend's turn going on to the slipstream and corner steps, as a car's."""
    from heatcore.heat.state import Stage

    def turn_(state: Any, turn: Any, events: Any) -> Any:
        after = orig(state, turn, events)
        if after.turn is not None and after.turn.stage is Stage.REPLENISH:
            return replace(after, turn=replace(after.turn, stage=Stage.SLIPSTREAM))
        return after
    return turn_


def _legend_adrenaline(state: Any, car: int) -> bool:
    count = rounds.adrenaline_count(len(state.cars))
    return state.order.index(car) >= len(state.order) - count


def _legend_never_finishes(orig: Any) -> Any:
    def finished(self: Any, car: int) -> bool:
        return self.cars[car].legend is None and bool(orig(self, car))
    return finished


def _aggressive_ignored(orig: Any) -> Any:
    def spaces(state: Any, car: int, diamond: int, helmet: int) -> Any:
        calm = replace(state, legends=replace(state.legends, aggressive=False))
        return orig(calm, car, diamond, helmet)
    return spaces


def _aggressive_stops_at_second(orig: Any) -> Any:
    """BGA's reading: a Legend that would cross too many lines stops before the second."""
    def spaces(state: Any, car: int, diamond: int, helmet: int) -> Any:
        moved, why = orig(state, car, diamond, helmet)
        if why == "legend.one-corner" and state.legends.aggressive:
            return _aggressive_ignored(orig)(state, car, diamond, helmet)
        return moved, why
    return spaces


def _legend_with_engine(orig: Any) -> Any:
    def car_(colour: str, position: int, racing: bool) -> Any:
        return replace(orig(colour, position, racing), gear=2)
    return car_


MODULE_PLANTED: tuple[Planted, ...] = (
    P("weather.module", "any module list is accepted",
      _set(setup, "check_modules", _modules_unchecked),
      "test_module_weather::test_unknown_or_misordered_modules_are_refused_with_the_rule"),
    P("weather.draw", "an unknown weather token is accepted",
      _wrap(setup, "check_conditions", _any_weather_token),
      "test_module_weather::test_one_of_the_six_tokens_is_drawn_and_recorded_in_the_setup"),
    P("weather.setup-change", "the weather token changes no starting card",
      _wrap(setup, "starting_cards", lambda orig: lambda track_, token: orig(track_, None)),
      "test_module_weather::test_each_weather_changes_every_players_starting_cards",
      {"weather": "sun", "engine": 3, "deck_heat": 1, "discard": 3, "stress": 3}),
    P("road.draw", "any road tokens, any number of each, are accepted",
      _wrap(setup, "check_conditions", _road_counts_unchecked),
      "test_module_weather::test_one_road_token_per_corner_from_the_box_of_twelve"),
    P("road.placement", "a sector starts one space after its corner's",
      _wrap(track.Track, "sector_of", _sector_one_late),
      "test_module_weather::test_a_sector_runs_from_its_corner_line_to_the_next_one"),
    P("road.where-the-car-is", "sector effects are judged where the turn started",
      _set(weather, "_effect", _effect_at_turn_start),
      "test_module_weather::test_leaving_a_cloud_sector_during_react_allows_cooldown_again"),
    P("weather.sector-only", "the weather acts in every sector without a sector token",
      _wrap(weather, "sector_effect", _weather_everywhere),
      "test_module_weather::test_the_weather_acts_only_where_its_token_lies"),
    P("weather.no-cooldown", "the Cloud allows cooldown",
      _set(hooks.cooldown_allowed, "call", lambda state, car: True),
      "test_module_weather::test_no_cooldown_at_all_in_a_cloud_sector"),
    P("weather.no-slipstream", "the Fog allows slipstream",
      _set(hooks.slipstream_allowed, "call", lambda state, car: True),
      "test_module_weather::test_no_slipstream_from_a_fog_sector_but_into_one"),
    P("weather.slipstream-boost", "Storm and Sun give no slipstream bonus",
      _item(weather.SLIPSTREAM_BONUS, "slipstream-plus-2", 0),
      "test_module_weather::test_sun_sector_offers_slipstream_two_or_four"),
    P("weather.cooling-bonus", "Snow and Rain give no cooling bonus",
      _set(hooks.cooling_bonus, "call", lambda state, car: False),
      "test_module_weather::test_rain_sector_gives_one_more_cooldown_in_any_gear"),
    P("road.limit", "speed-limit tokens are ignored",
      _set(hooks.corner_limit, "call", lambda state, number, printed: printed),
      "test_module_weather::test_speed_limit_tokens_move_the_limit_by_one"),
    P("road.overheat", "an Overheat corner costs no extra Heat",
      _set(hooks.corner_heat, "call", lambda state, number, excess: max(0, excess)),
      "test_module_weather::test_overheat_costs_one_more_heat_only_when_over_the_limit"),
    P("road.free-boost", "a boost in a Heat control sector pays Heat",
      _both(_set(hooks.free_boost, "call", lambda state, car: False),
            _set(weather, "free_boost", lambda state, car: False)),
      "test_module_weather::test_heat_control_boosts_for_free_even_with_an_empty_engine"),
    P("road.slipstream-boost", "the Slipstream boost token gives no extra space",
      _item(weather.SLIPSTREAM_BONUS, "slipstream-plus-1", 0),
      "test_module_weather::test_slipstream_boost_token_offers_three_spaces_without_speed"),
    P("legend.setup", "a Legend starts in 2nd gear",
      _wrap(setup, "legend_car", _legend_with_engine),
      "test_module_legends::test_legends_are_cars_without_cards_on_the_grid"),
    P("legend.deck", "the round's Legend card stays up in the next round",
      _set(hooks.new_round, "call", lambda deck: deck),
      "test_module_legends::test_the_round_card_is_the_top_card_and_an_empty_deck_is_reshuffled"),
    P("legend.card", "a Legend reads its helmet number one too high",
      _wrap(legends, "legend_cards", _legend_shifted(1)),
      "test_module_legends::test_before_the_line_the_helmet_number_or_diamond_spaces_before_the_corner"),
    P("legend.past-line", "past the Legend line a Legend moves one space too far",
      _wrap(legends, "legend_spaces", _legend_rule_off("legend.past-line", 1)),
      "test_module_legends::test_past_the_legend_line_a_legend_moves_corner_speed_plus_diamond"),
    P("legend.one-corner", "a Legend stopped before a second line goes one space on",
      _wrap(legends, "legend_spaces", _legend_rule_off("legend.one-corner", 1)),
      "test_module_legends::test_a_legend_stops_before_a_second_corner_line"),
    P("legend.before-line", "before the Legend line a Legend stops one space short",
      _wrap(legends, "legend_spaces", _legend_rule_off("legend.before-line", -1)),
      "test_module_legends::test_before_the_line_the_helmet_number_or_diamond_spaces_before_the_corner"),
    P("legend.final-lap", "on the final lap a Legend moves one space short",
      _wrap(legends, "legend_spaces", _legend_rule_off("legend.final-lap", -1)),
      "test_module_legends::test_on_the_final_lap_a_legend_heads_for_the_finish_and_is_ranked"),
    P("legend.no-heat", "a Legend goes on to slipstream and the corner check",
      _wrap(hooks.legend_turn, "call", _legend_checked_at_corners),
      "test_module_legends::test_a_legend_stops_before_a_second_corner_line"),
    P("legend.turn-order", "a Legend in an adrenaline place takes the adrenaline",
      _set(engine, "has_adrenaline", _legend_adrenaline),
      "test_module_legends::test_legends_skip_planning_and_take_adrenaline_places_without_adrenaline"),
    P("legend.finish", "a Legend past the final line is never ranked",
      _wrap(RaceState, "has_finished", _legend_never_finishes),
      "test_module_legends::test_on_the_final_lap_a_legend_heads_for_the_finish_and_is_ranked"),
    P("legend.aggressive", "the aggressive option is ignored",
      _wrap(legends, "legend_spaces", _aggressive_ignored),
      "test_module_legends::test_an_aggressive_legend_on_a_chevron_crosses_one_line_more"),
    P("ruling.cooling-bonus-own-cooldown", "the cooling bonus adds 1 to the gear's cooldown",
      _both(_wrap(engine, "react_choices", _under("ruling.cooling-bonus-own-cooldown",
                                                  "gear-plus-one")),
            _wrap(engine, "check_react", _under("ruling.cooling-bonus-own-cooldown",
                                                "gear-plus-one"))),
      "test_module_weather::test_the_cooling_bonus_comes_on_top_of_the_gears_cooldown"),
    P("ruling.slipstream-bonus-all-or-nothing", "a part of the slipstream bonus is offered",
      _wrap(engine, "slipstream_choices", _under("ruling.slipstream-bonus-all-or-nothing",
                                                 "any-part")),
      "test_module_weather::test_sun_sector_offers_slipstream_two_or_four"),
    P("ruling.free-boost-empty-engine", "the free boost needs a Heat in the engine",
      _both(_wrap(engine, "react_choices", _under("ruling.free-boost-empty-engine",
                                                  "needs-heat")),
            _wrap(engine, "check_react", _under("ruling.free-boost-empty-engine",
                                                "needs-heat"))),
      "test_module_weather::test_heat_control_boosts_for_free_even_with_an_empty_engine"),
    P("ruling.legend-blocked-spot", "a Legend whose space is full stays where it is",
      _wrap(hooks.legend_turn, "call", _under("ruling.legend-blocked-spot", "stay")),
      "test_module_legends::test_a_blocked_legend_takes_the_first_free_spot_behind"),
    P("ruling.legend-adrenaline-count", "only the players' cars count for two adrenaline places",
      _wrap(engine, "has_adrenaline", _under("ruling.legend-adrenaline-count", "players-only")),
      "test_module_rulings::test_players_only_counts_the_players_cars_for_two_adrenaline_places"),
    P("ruling.legend-aggressive-stop", "an aggressive Legend stops before the second line",
      _wrap(legends, "legend_spaces", _aggressive_stops_at_second),
      "test_module_legends::test_an_aggressive_legend_stops_before_the_third_line"),
)

#: Every planted bug: the core race's, then the modules'.
PLANTED = PLANTED + MODULE_PLANTED

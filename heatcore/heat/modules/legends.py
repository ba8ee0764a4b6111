"""Legends module: the Legend cards as data, and a Legend's turn (reveal the round's card if
needed, then move by it). Legends have no cards: they never pay, spin, cool or slipstream."""

from __future__ import annotations

import json
from collections.abc import Iterable
from functools import cache

from heatcore.framework.errors import IllegalAction, MalformedInput
from heatcore.framework.events import Event, event
from heatcore.framework.registry import implements, spec_dir
from heatcore.framework.values import replace
from heatcore.heat import hooks
from heatcore.heat.modules.weather import corner_limit
from heatcore.heat.placement import move_car, occupied
from heatcore.heat.rulings import LEGEND_BLOCKED_SPOT
from heatcore.heat.state import Car, LegendDeck, RaceState, Stage, Turn
from heatcore.heat.track import unrolled_lines


@cache
def _data() -> dict[str, object]:
    data: dict[str, object] = json.loads((spec_dir() / "modules" / "legends.json").read_text(
        encoding="utf-8"))
    return data


@cache
def colours() -> tuple[str, ...]:
    """The Legend colours, in the order Legends take them."""
    raw = _data()["colours"]
    assert isinstance(raw, list)
    return tuple(str(c) for c in raw)


@cache
@implements("legend.card")
def legend_cards() -> dict[int, dict[str, tuple[int, int]]]:
    """Card ID -> colour -> (diamond value, helmet number)."""
    raw = _data()["cards"]
    assert isinstance(raw, list)
    out: dict[int, dict[str, tuple[int, int]]] = {}
    for card in raw:
        out[int(card["id"])] = {colour: (diamond, int(helmet))
                                for diamond, column in enumerate(card["columns"])
                                for colour, helmet in column.items()}
    return out


def full_deck() -> tuple[int, ...]:
    """The 10 Legend card IDs, sorted (what a reshuffle orders)."""
    return tuple(sorted(legend_cards()))


@implements("legend.setup")
def legend_car(colour: str, position: int, racing_line: bool) -> Car:
    """A Legend's car: no cards, an empty engine, gear 1."""
    return Car(position=position, racing_line=racing_line, gear=1, engine=0, hand=(), deck=(),
               discard=(), legend=colour)


def check_deck_order(order: Iterable[int], rule: str = "legend.deck") -> tuple[int, ...]:
    """The order as a tuple; MalformedInput unless it orders the 10 Legend cards once each."""
    out = tuple(order)
    if tuple(sorted(out)) != full_deck():
        raise MalformedInput(rule, "a Legend deck orders the 10 Legend cards 1-10 once each")
    return out


def check_legend_shuffle(state: RaceState, car: int, order: tuple[int, ...]) -> None:
    """Raise IllegalAction unless a Legend deck shuffle is awaited (for ``car``) and
    ``order`` is an order of the 10 cards."""
    if state.shuffle != car or not state.is_legend(car):
        raise IllegalAction("legend.deck", "no shuffle of the Legend deck is awaited")
    if tuple(sorted(order)) != full_deck():
        raise IllegalAction("legend.deck", "a Legend deck shuffle orders the 10 cards once each")


@implements("legend.deck")
def apply_legend_shuffle(state: RaceState, order: tuple[int, ...],
                         events: list[Event]) -> RaceState:
    """The 10 Legend cards become the Legend deck in ``order``."""
    assert state.legends is not None
    events.append(event("legend-deck-shuffled", None, cards=len(order)))
    return replace(state, legends=replace(state.legends, deck=order), shuffle=None)


@implements("legend.deck")
def reveal_legend_card(state: RaceState, turn: Turn, events: list[Event]) -> RaceState:
    """Reveal the round's Legend card if none is up yet; ask for a shuffle of the Legend
    deck first when it is empty."""
    legends = state.legends
    assert legends is not None
    if legends.card is not None:
        return state
    if not legends.deck:
        events.append(event("legend-deck-empty", turn.car))
        return replace(state, shuffle=turn.car)
    card = legends.deck[0]
    events.append(event("legend-card", None, card=card))
    return replace(state, legends=replace(legends, deck=legends.deck[1:], card=card))


@implements("legend.past-line", "legend.before-line", "legend.final-lap", "legend.one-corner",
            "legend.aggressive", "ruling.legend-aggressive-stop", "road.limit")
def legend_spaces(state: RaceState, car: int, diamond: int, helmet: int) -> tuple[int, str]:
    """How far the Legend moves this round, and which rule decided it."""
    track = state.track
    position = state.cars[car].position
    lines = unrolled_lines(track, state.laps)
    ahead = [line for line in lines if line[0] >= position]
    if not ahead:
        return helmet, "legend.final-lap"
    line, printed, number = ahead[0]
    corner = track.corners[number - 1]
    legend_line = line - (corner.after_space - corner.legend_line)
    if position <= legend_line:
        if position + helmet <= line:
            return helmet, "legend.before-line"
        return max(0, line - diamond - position), "legend.before-line"
    spaces = corner_limit(state, number, printed) + diamond
    allowed = 1
    assert state.legends is not None
    if state.legends.aggressive and line + 1 - position <= corner.aggressive:
        allowed = 2
    crossed = track.corner_lines(position, position + spaces, state.laps)
    if len(crossed) > allowed:
        return crossed[allowed].position - position, "legend.one-corner"
    return spaces, "legend.past-line"


@implements("ruling.legend-blocked-spot", "place.blocked")
def legend_stays(state: RaceState, car: int, spaces: int) -> bool:
    """Under the alternative "stay" of ruling.legend-blocked-spot: whether the Legend's move
    of ``spaces`` ends on a space with both spots taken, so it stays where it is."""
    if spaces <= 0 or not state.rulings.chose(LEGEND_BLOCKED_SPOT, "stay"):
        return False
    target = state.cars[car].position + spaces
    taken = occupied(state, car)
    return (target, True) in taken and (target, False) in taken


@implements("legend.no-heat", "legend.turn-order", "ruling.legend-blocked-spot",
            "legend.finish")
def legend_turn(state: RaceState, turn: Turn, events: list[Event]) -> RaceState:
    """A Legend's whole turn: the round's card, then its move with the usual placement;
    nothing else (no Heat, no corner check, no cards). Ends at replenish, which a Legend
    passes with nothing to draw."""
    state = reveal_legend_card(state, turn, events)
    if state.shuffle is not None:
        return state
    assert state.legends is not None and state.legends.card is not None
    me = state.cars[turn.car]
    assert me.legend is not None
    diamond, helmet = legend_cards()[state.legends.card][me.legend]
    spaces, rule = legend_spaces(state, turn.car, diamond, helmet)
    if legend_stays(state, turn.car, spaces):
        spaces, rule = 0, LEGEND_BLOCKED_SPOT
        events.append(event("legend", turn.car, diamond=diamond, helmet=helmet, spaces=0,
                            rule=rule))
        return replace(state, turn=replace(turn, stage=Stage.REPLENISH))
    events.append(event("legend", turn.car, diamond=diamond, helmet=helmet, spaces=spaces,
                        rule=rule))
    return move_car(state, turn.car, spaces, "legend", events,
                    turn=replace(turn, stage=Stage.REPLENISH, speed=spaces))


def new_round(legends: LegendDeck | None) -> LegendDeck | None:
    """The Legend deck at a round's start: no card revealed yet."""
    return None if legends is None else replace(legends, card=None)


# hook points filled (heatcore.heat.hooks)
hooks.legend_turn.fill("legends", legend_turn)
hooks.check_legend_shuffle.fill("legends", check_legend_shuffle)
hooks.apply_legend_shuffle.fill("legends", apply_legend_shuffle)
hooks.new_round.fill("legends", new_round)

"""Legal-action tables of the fast engine, built once per situation and then looked up.

Plans and discards depend on the hand (a multiset of 7 cards of 8 kinds, so a few
thousand hands at most), the gear and whether the engine can pay a two-gear shift; each
table is an ordered set (a dict with None values) of the choices (``(gear, cards)`` of a
plan, the cards of a discard) in the reference engine's canonical order. A car's actions
are the table's keys as interned action values, kept with the hand (:class:`HandTables`:
one dictionary lookup by hand, then a list slot by car, gear and the shift's payment).
React and slipstream choices depend on a few flags only: a slot by their number.
"""

from __future__ import annotations

from functools import cache
from itertools import combinations
from typing import Final

from heatcore.framework.registry import implements
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
from heatcore.heat.cards import DISCARDABLE, HEAT, PLAYABLE, Card, canonical
from heatcore.heat.planning import HIGHEST_GEAR, LOWEST_GEAR
from heatcore.heat.setup import MAX_PLAYERS

Hand = tuple[Card, ...]
#: The most hands whose action tables are kept (then they are all dropped and rebuilt as
#: needed): room for every hand a long run of core races meets (about 6,000 after 3,000
#: races on every track with 2, 4 and 6 cars); Garage and sponsor cards make many more.
HAND_TABLE_SIZE = 1 << 15
_GEARS: Final = HIGHEST_GEAR - LOWEST_GEAR + 1
#: Plan choice slots per hand: by gear, shift payment and ruling.cluttered-gear.
_CHOICE_SLOTS: Final = _GEARS * 4
#: React slots per car: by the cooldowns open (fewer than this: at most a hand's Heat),
#: then three flags.
_REACT_COOLDOWNS: Final = 64


@cache
@implements("gear.range", "gear.shift.free", "gear.shift.two-costs-heat",
            "gear.shift.no-three", "play.card-count", "play.playable-cards",
            "play.heat-not-playable", "play.cluttered", "play.cluttered-only-when-forced",
            "ruling.cluttered-gear")
def plans(gear: int, can_pay_shift: bool, hand: Hand,
          cluttered_free_only: bool = False) -> dict[tuple[int, Hand], None]:
    """Steps 1-2 for any car in ``gear`` holding ``hand`` (canonical); ``can_pay_shift``: the
    engine holds a Heat for a two-gear shift; ``cluttered_free_only``: ruling.cluttered-gear's
    alternative free-shifts-only. Every plan as (gear, cards), ordered by gear then cards.
    Shared: do not modify."""
    free = [g for g in (gear - 1, gear, gear + 1) if LOWEST_GEAR <= g <= HIGHEST_GEAR]
    paid = [g for g in (gear - 2, gear + 2)
            if can_pay_shift and LOWEST_GEAR <= g <= HIGHEST_GEAR]
    reachable = sorted(free + paid)
    playable = tuple(c for c in hand if c in PLAYABLE)
    out: dict[tuple[int, Hand], None] = {}
    if len(playable) < reachable[0]:  # cluttered: every playable card, Heat for the rest
        for g in free if cluttered_free_only else reachable:
            heat_needed = g - len(playable)
            if heat_needed >= 0 and hand.count(HEAT) >= heat_needed:
                out[(g, canonical(playable + (HEAT,) * heat_needed))] = None
        return out
    for g in reachable:
        out |= _plays(playable, g)
    return out


@cache
def _plays(playable: Hand, gear: int) -> dict[tuple[int, Hand], None]:
    """Every distinct play of ``gear`` of the ``playable`` cards, as (gear, cards)."""
    return dict.fromkeys((gear, cards) for cards in combinations(playable, gear))


class PlanChoice:
    """One plan (gear, cards) and each car's Plan action of it, made when first asked for
    (so equal plans of a car are one object)."""

    __slots__ = ("by_car", "cards", "gear")

    def __init__(self, gear: int, cards: Hand) -> None:
        self.gear = gear
        self.cards = cards
        self.by_car: list[Plan | None] = [None] * MAX_PLAYERS

    def plan(self, car: int) -> Plan:
        """The Plan action of ``car`` (0 to MAX_PLAYERS - 1)."""
        plan = self.by_car[car]
        if plan is None:
            plan = self.by_car[car] = Plan(car, self.gear, self.cards)
        return plan


class DiscardChoice:
    """One discard (cards) and each car's Discard action of it, made when first asked for."""

    __slots__ = ("by_car", "cards")

    def __init__(self, cards: Hand) -> None:
        self.cards = cards
        self.by_car: list[Discard | None] = [None] * MAX_PLAYERS

    def discard(self, car: int) -> Discard:
        """The Discard action of ``car`` (0 to MAX_PLAYERS - 1)."""
        discard = self.by_car[car]
        if discard is None:
            discard = self.by_car[car] = Discard(car, self.cards)
        return discard


#: Every plan and discard met, once each (emptied with the hands' tables).
_PLAN_CHOICES: Final[dict[tuple[int, Hand], PlanChoice]] = {}
_DISCARD_CHOICES: Final[dict[Hand, DiscardChoice]] = {}


def _plan_choice(choice: tuple[int, Hand]) -> PlanChoice:
    interned = _PLAN_CHOICES.get(choice)
    if interned is None:
        interned = _PLAN_CHOICES[choice] = PlanChoice(choice[0], choice[1])
    return interned


def _discard_choice(cards: Hand) -> DiscardChoice:
    interned = _DISCARD_CHOICES.get(cards)
    if interned is None:
        interned = _DISCARD_CHOICES[cards] = DiscardChoice(cards)
    return interned


class HandTables:
    """The action tables of one hand (canonical), filled as first asked for: its plans by
    (gear, shift payment, cluttered ruling) and its discards, then each car's actions of
    them (Plan actions by car and the same three, Discard actions by car)."""

    __slots__ = ("discard_actions", "discard_choices", "hand", "plan_actions", "plan_choices",
                 "with_card")

    def __init__(self, hand: Hand) -> None:
        self.hand = hand
        #: This hand with one card more, by the card (filled by ``with_cards``).
        self.with_card: dict[Card, HandTables] = {}
        self.plan_choices: list[tuple[PlanChoice, ...] | None] = [None] * _CHOICE_SLOTS
        self.plan_actions: list[tuple[Plan, ...] | None] = [None] * (MAX_PLAYERS
                                                                     * _CHOICE_SLOTS)
        self.discard_choices: tuple[DiscardChoice, ...] | None = None
        self.discard_actions: list[tuple[Discard, ...] | None] = [None] * MAX_PLAYERS


#: The tables of each hand met (at most HAND_TABLE_SIZE hands, then emptied).
_HANDS: Final[dict[Hand, HandTables]] = {}


def hand_tables(hand: Hand) -> HandTables:
    """The tables of ``hand`` (canonical), made when first asked for."""
    tables = _HANDS.get(hand)
    if tables is None:
        if len(_HANDS) >= HAND_TABLE_SIZE:
            _HANDS.clear()
            _PLAN_CHOICES.clear()
            _DISCARD_CHOICES.clear()
        tables = _HANDS[hand] = HandTables(hand)
    return tables


def with_cards(hand: Hand, cards: Hand | list[Card]) -> Hand:
    """``hand`` (canonical) with ``cards`` added, in canonical order: each hand one card
    bigger is found once (a sort) and then looked up."""
    tables = hand_tables(hand)
    for card in cards:
        bigger = tables.with_card.get(card)
        if bigger is None:
            bigger = tables.with_card[card] = hand_tables(canonical((*tables.hand, card)))
        tables = bigger
    return tables.hand


def hand_count() -> int:
    """The number of hands whose tables are kept now."""
    return len(_HANDS)


def plan_actions(car: int, gear: int, can_pay_shift: bool, hand: Hand,
                 cluttered_free_only: bool = False) -> tuple[Plan, ...]:
    """``plans`` as the car's Plan actions (interned: equal plans are the same object), for
    a car and gear of a valid state (heatcore.heat.validity: cars 0-5, gears 1-4)."""
    tables = hand_tables(hand)
    local = ((gear - LOWEST_GEAR) * 2 + (1 if can_pay_shift else 0)) * 2 \
        + (1 if cluttered_free_only else 0)
    slot = car * _CHOICE_SLOTS + local
    actions = tables.plan_actions[slot]
    if actions is None:
        choices = tables.plan_choices[local]
        if choices is None:
            choices = tables.plan_choices[local] = tuple([
                _plan_choice(choice)
                for choice in plans(gear, can_pay_shift, hand, cluttered_free_only)])
        actions = tables.plan_actions[slot] = tuple([choice.plan(car) for choice in choices])
    return actions


@cache
@implements("discard.optional")
def discards(hand: Hand) -> dict[Hand, None]:
    """Step 8: every distinct set of discardable hand cards, smallest first (none
    included). Shared: do not modify."""
    cards = tuple(c for c in hand if c in DISCARDABLE)
    out: dict[Hand, None] = {}
    for size in range(len(cards) + 1):
        out.update(dict.fromkeys(combinations(cards, size)))
    return out


def discard_actions(car: int, hand: Hand) -> tuple[Discard, ...]:
    """``discards`` as the car's Discard actions (interned), for a car of a valid state."""
    tables = hand_tables(hand)
    actions = tables.discard_actions[car]
    if actions is None:
        choices = tables.discard_choices
        if choices is None:
            choices = tables.discard_choices = tuple([_discard_choice(cards)
                                                      for cards in discards(hand)])
        actions = tables.discard_actions[car] = tuple([choice.discard(car)
                                                       for choice in choices])
    return actions


#: React tables by slot (see ``react_actions``).
_REACTS: Final[dict[int, tuple[Action, ...]]] = {}


def react_actions(car: int, cooldowns: int, adrenaline_cooldown: bool, adrenaline_move: bool,
                  boost: bool) -> tuple[Action, ...]:
    """Step 5 with ``cooldowns`` Heat the gear's cooldown may still take from the hand and
    the other options still open; ``end react`` last (a shared table)."""
    slot = (((car * _REACT_COOLDOWNS + cooldowns) * 2 + (1 if adrenaline_cooldown else 0)) * 2
            + (1 if adrenaline_move else 0)) * 2 + (1 if boost else 0)
    actions = _REACTS.get(slot)
    if actions is None:
        actions = _REACTS[slot] = _react_table(car, cooldowns, adrenaline_cooldown,
                                               adrenaline_move, boost)
    return actions


@implements("react.any-order", "react.cooldown", "react.boost", "adrenaline.effects")
def _react_table(car: int, cooldowns: int, adrenaline_cooldown: bool, adrenaline_move: bool,
                 boost: bool) -> tuple[Action, ...]:
    """The react choices, cooldowns first, ``end react`` last."""
    out: list[Action] = [Cooldown(car, n) for n in range(1, cooldowns + 1)]
    if adrenaline_cooldown:
        out.append(AdrenalineCooldown(car))
    if adrenaline_move:
        out.append(AdrenalineMove(car))
    if boost:
        out.append(Boost(car))
    out.append(EndReact(car))
    return tuple(out)


@cache
@implements("slipstream.eligible")
def slipstream_actions(car: int) -> tuple[Action, ...]:
    """Step 6 for a car that may slipstream: take it, or not."""
    return (Slipstream(car), DeclineSlipstream(car))

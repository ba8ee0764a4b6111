"""Legal-action tables of the fast engine, built once per situation and then looked up.

Plans and discards depend on the hand (a multiset of 7 cards of 8 kinds, so a few
thousand hands at most), the gear and whether the engine can pay a two-gear shift; each
table is an ordered set (a dict with None values) of the choices (``(gear, cards)`` of a
plan, the cards of a discard) in the reference engine's canonical order. A car's actions
are the table's keys as interned action values. React and slipstream choices depend on a
few flags only.
"""

from __future__ import annotations

from functools import cache, lru_cache
from itertools import combinations
from typing import Final

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
    Slipstream,
)
from heatcore.cards import DISCARDABLE, HEAT, PLAYABLE, Card, canonical
from heatcore.planning import HIGHEST_GEAR, LOWEST_GEAR
from heatcore.registry import implements
from heatcore.setup import MAX_PLAYERS

Hand = tuple[Card, ...]
#: The bound of each per-car action table (the shared tables are bounded by the hands):
#: room for every (car, gear, hand) a long run of 6-player races meets (about 46,000 after
#: 3,000 races; a smaller bound evicts and rebuilds tables all the time).
PER_CAR_TABLE_SIZE = 1 << 17


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


#: Each car's Plan actions by (gear, cards), and Discard actions by cards: made once each.
_PLANS: Final[list[dict[tuple[int, Hand], Plan]]] = [{} for _ in range(MAX_PLAYERS)]
_DISCARDS: Final[list[dict[Hand, Discard]]] = [{} for _ in range(MAX_PLAYERS)]


def _plan(car: int, choice: tuple[int, Hand]) -> Plan:
    """The car's Plan action of ``choice`` (gear, cards), the same object every time."""
    table = _PLANS[car]
    plan = table.get(choice)
    if plan is None:
        plan = table[choice] = Plan(car, choice[0], choice[1])
    return plan


def _discard(car: int, cards: Hand) -> Discard:
    """The car's Discard action of ``cards``, the same object every time."""
    table = _DISCARDS[car]
    discard = table.get(cards)
    if discard is None:
        discard = table[cards] = Discard(car, cards)
    return discard


@lru_cache(maxsize=PER_CAR_TABLE_SIZE)
def plan_actions(car: int, gear: int, can_pay_shift: bool, hand: Hand,
                 cluttered_free_only: bool = False) -> tuple[Plan, ...]:
    """``plans`` as the car's Plan actions (interned: equal plans are the same object)."""
    return tuple([_plan(car, choice)
                  for choice in plans(gear, can_pay_shift, hand, cluttered_free_only)])


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


@lru_cache(maxsize=PER_CAR_TABLE_SIZE)
def discard_actions(car: int, hand: Hand) -> tuple[Discard, ...]:
    """``discards`` as the car's Discard actions (interned)."""
    return tuple([_discard(car, cards) for cards in discards(hand)])


@cache
@implements("react.any-order", "react.cooldown", "react.boost", "adrenaline.effects")
def react_actions(car: int, cooldowns: int, adrenaline_cooldown: bool, adrenaline_move: bool,
                  boost: bool) -> tuple[Action, ...]:
    """Step 5 with ``cooldowns`` Heat the gear's cooldown may still take from the hand and
    the other options still open; ``end react`` last."""
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

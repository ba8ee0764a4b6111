"""The symbol vocabulary: what each symbol does to a car, defined once.

Every upgrade card is a speed and a list of (symbol, amount) pairs read from
``spec/modules/garage.json``; its effect is the composition of these functions. None of them
knows a card: they act on the car's piles (engine, hand, deck, discard pile) and on the
turn's numbers, and each moves cards from one pile to another so that every card stays
accounted for.
"""

from __future__ import annotations

from heatcore.framework.errors import IllegalAction
from heatcore.framework.registry import implements
from heatcore.framework.values import replace
from heatcore.heat.cards import HEAT, STRESS, Card, canonical, remove
from heatcore.heat.modules.garage.data import Upgrade, card_types
from heatcore.heat.state import Car


def upgrade_of(card: Card) -> Upgrade | None:
    """The upgrade (or Sponsorship) type of a card token (None for a core card)."""
    return card_types().get(card)


def amount(card: Card, symbol: str) -> int:
    """The amount of ``symbol`` printed on ``card`` (0 for a core card or a missing symbol)."""
    up = card_types().get(card)
    return up.amount(symbol) if up is not None else 0


def total(cards: tuple[Card, ...], symbol: str) -> int:
    """The amounts of ``symbol`` on ``cards``, added up."""
    return sum(amount(c, symbol) for c in cards)


def has(card: Card, symbol: str) -> bool:
    """Whether ``card`` shows ``symbol``."""
    up = card_types().get(card)
    return up is not None and any(s == symbol for s, _ in up.symbols)


def chooses_speed(card: Card) -> bool:
    """Whether the card is printed with several speeds (chosen at reveal)."""
    up = card_types().get(card)
    return up is not None and len(up.speeds) > 1


@implements("upgrade.heat")
def pay_heat(car: Car, cost: int) -> Car | None:
    """Heat N: the car with N Heat moved from engine to discard pile; None if it cannot."""
    if car.engine < cost:
        return None
    return replace(car, engine=car.engine - cost, discard=canonical(car.discard + (HEAT,) * cost))


@implements("upgrade.heat-unpayable", "ruling.garage-unpaid-heat")
def discard_unpaid(car: Car, card: Card) -> Car:
    """An unpayable Heat symbol: one copy of ``card`` leaves the play area for the discard
    pile (the flip that replaces it is the caller's)."""
    played = remove(car.played, (card,))
    assert played is not None, "the unpaid card is in the play area"
    return replace(car, played=played, discard=canonical((*car.discard, card)))


@implements("upgrade.cooldown")
def cooldown(car: Car, n: int) -> Car:
    """Cooldown: ``n`` Heat cards from hand to engine."""
    hand = remove(car.hand, (HEAT,) * n)
    if hand is None:
        raise IllegalAction("upgrade.cooldown", f"cooldown {n} needs {n} Heat cards in hand")
    return replace(car, hand=hand, engine=car.engine + n)


@implements("upgrade.reduce")
def reduce_stress(car: Car, n: int) -> Car:
    """Reduce stress: ``n`` Stress cards from hand to discard pile."""
    hand = remove(car.hand, (STRESS,) * n)
    if hand is None:
        raise IllegalAction("upgrade.reduce", f"reduce stress {n} needs {n} Stress in hand")
    return replace(car, hand=hand, discard=canonical(car.discard + (STRESS,) * n))


@implements("upgrade.scrap", "ruling.garage-scrap-empty")
def scrap(car: Car, n: int) -> tuple[Car, tuple[Card, ...]]:
    """Scrap N: the top N cards of the deck (fewer if it holds fewer) to the discard pile."""
    moved = car.deck[:n]
    return replace(car, deck=car.deck[len(moved):],
                   discard=canonical(car.discard + moved)), moved


@implements("upgrade.salvage", "ruling.garage-salvage-few")
def salvageable(discard: tuple[Card, ...], cards_only: bool = False) -> tuple[Card, ...]:
    """The discard pile's cards a Salvage may take: all of them (the default of
    ruling.garage-salvage-few), or only basic and upgrade cards (its alternative
    cards-only: no Heat, no Stress)."""
    if not cards_only:
        return discard
    return tuple(c for c in discard if c not in (HEAT, STRESS))


@implements("upgrade.salvage", "ruling.garage-salvage-few")
def salvage(car: Car, cards: tuple[Card, ...]) -> Car:
    """Salvage: ``cards`` from the discard pile onto the deck (the shuffle that follows is a
    chance outcome the engine awaits)."""
    discard = remove(car.discard, cards)
    if discard is None:
        raise IllegalAction("upgrade.salvage", "salvaged cards must be in the discard pile")
    return replace(car, discard=discard, deck=car.deck + cards)


@implements("upgrade.speed-increase")
def speed_increases(played: tuple[Card, ...], boosted: bool) -> int:
    """The speed increases of the turn so far: Stress cards played, + symbols on the
    upgrade cards in the play area, and the gear's boost if used."""
    return played.count(STRESS) + total(played, "boost") + (1 if boosted else 0)


@implements("upgrade.accelerate", "ruling.garage-accelerate-count")
def accelerate(n: int, increases: int) -> int:
    """Accelerate N: the speed (and spaces) it adds, all or none: N per increase."""
    return n * increases


@implements("upgrade.adjust", "ruling.garage-adjust")
def adjusted_limit(limit: int, adjust: int, clamped: bool = True) -> int:
    """A corner's speed limit after the turn's Adjust symbols: never below 0 (the default
    of ruling.garage-adjust), or as it comes when not ``clamped`` (its alternative)."""
    return max(0, limit + adjust) if clamped else limit + adjust


@implements("upgrade.refresh", "ruling.garage-refresh-order")
def refresh(car: Car, cards: tuple[Card, ...]) -> Car:
    """Refresh: ``cards`` leave the play area for the top of the deck (card order, the
    first on top) instead of the discard pile."""
    played = remove(car.played, cards)
    assert played is not None, "refreshed cards are in the play area"
    return replace(car, played=played, deck=canonical(cards) + car.deck)

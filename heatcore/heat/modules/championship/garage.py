"""The Garage between championship races: before each race one market round (players + 3
cards drawn from the upgrade deck, a chance outcome), picked from the last car on the grid
to the pole; then the last car may swap one of its upgrades for a leftover card; the
leftovers go back into the upgrade deck. Every upgrade card stays accounted for: the deck
plus the players' upgrades are always the box."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from heatcore.framework.errors import MalformedInput
from heatcore.framework.registry import implements
from heatcore.heat.modules.garage.data import box, draft_rules
from heatcore.heat.modules.garage.draft import ALL_DECKS, by_type
from heatcore.heat.state import car_name


@dataclass(frozen=True, slots=True)
class GarageRound:
    """One round before a race: the market (sorted by type), each pick as (car, card) in
    picking order, and the last car's swap as (its card, the leftover), or None."""

    market: tuple[str, ...]
    picks: tuple[tuple[int, str], ...]
    swap: tuple[str, str] | None

    def __str__(self) -> str:
        picks = ", ".join(f"{car_name(c)} {card}" for c, card in self.picks)
        swap = f"; swap {self.swap[0]} for {self.swap[1]}" if self.swap else "; no swap"
        return f"market {' '.join(self.market)}: {picks}{swap}"


def full_pool() -> tuple[str, ...]:
    """The upgrade deck at the start of a championship: both decks (ruling.garage-draft-pool)."""
    return box(ALL_DECKS)


@implements("championship.garage-round", "ruling.garage-draft-pool")
def play_round(pool: tuple[str, ...], upgrades: tuple[tuple[str, ...], ...],
               grid: tuple[int, ...], rng: random.Random) -> GarageRound:
    """A round with its market drawn by ``rng`` and random picks and swap (a seeded
    driver's choices)."""
    size = min(len(pool), len(grid) + int(draft_rules()["market_extra"]))
    cards = list(pool)
    rng.shuffle(cards)
    market = list(by_type(cards[:size]))
    picks = []
    for car in reversed(grid):
        card = rng.choice(market)
        market.remove(card)
        picks.append((car, card))
    last = grid[-1]
    owned = sorted({*upgrades[last], *(c for car, c in picks if car == last)})
    options: list[tuple[str, str] | None] = [None]
    options += [(own, left) for own in owned for left in dict.fromkeys(market) if own != left]
    return GarageRound(by_type(cards[:size]), tuple(picks), rng.choice(options))


@implements("championship.garage-round", "championship.carry-over")
def apply_round(pool: tuple[str, ...], upgrades: tuple[tuple[str, ...], ...],
                grid: tuple[int, ...], rnd: GarageRound
                ) -> tuple[tuple[str, ...], tuple[tuple[str, ...], ...]]:
    """(upgrade deck, each player's upgrades) after the round; MalformedInput naming the
    rule when the round is not one the rules allow."""
    size = min(len(pool), len(grid) + int(draft_rules()["market_extra"]))
    if len(rnd.market) != size or Counter(rnd.market) - Counter(pool) \
            or rnd.market != by_type(rnd.market):
        raise MalformedInput("championship.garage-round", f"the market is {size} cards of the "
                             "upgrade deck, sorted by type")
    if tuple(c for c, _ in rnd.picks) != tuple(reversed(grid)):
        raise MalformedInput("championship.garage-round", "the cars pick from the last on "
                             "the grid to the pole, one card each")
    left = Counter(rnd.market)
    owned = [list(u) for u in upgrades]
    for car, card in rnd.picks:
        if left[card] <= 0:
            raise MalformedInput("championship.garage-round", f"{car_name(car)} picks {card}, "
                                 "which the market does not hold")
        left[card] -= 1
        owned[car].append(card)
    if rnd.swap is not None:
        mine, other = rnd.swap
        last = grid[-1]
        if mine not in owned[last] or left[other] <= 0:
            raise MalformedInput("championship.garage-round", f"{car_name(last)} swaps "
                                 f"{mine} for {other}: it must own the one and the other must "
                                 "be left in the market")
        owned[last].remove(mine)
        owned[last].append(other)
        left[other] -= 1
        left[mine] += 1
    deck = Counter(pool) - Counter(rnd.market) + left
    return by_type(list(deck.elements())), tuple(by_type(u) for u in owned)

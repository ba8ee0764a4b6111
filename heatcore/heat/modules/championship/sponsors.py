"""The Sponsorship cards: the deck (its order a chance outcome, shuffled before each race)
and the cards each player holds. Every card stays accounted for: deck + held = the box."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, replace

from heatcore.framework.errors import MalformedInput
from heatcore.framework.registry import implements
from heatcore.heat.modules.championship.data import sponsor_box
from heatcore.heat.state import car_name


@dataclass(frozen=True, slots=True)
class Gain:
    """A Sponsorship card given to ``car`` (``card`` None: the deck was empty) for
    ``reason``, after race step ``step`` (-1: before the race's first action)."""

    car: int
    card: str | None
    reason: str
    step: int
    corner: int = 0

    def __str__(self) -> str:
        what = self.card or "nothing (deck empty)"
        where = f" at corner {self.corner}" if self.corner else ""
        return f"{car_name(self.car)} gains {what} ({self.reason}{where})"


@dataclass(frozen=True, slots=True)
class Sponsors:
    """The Sponsorship deck (top first) and each player's held cards (sorted)."""

    deck: tuple[str, ...]
    held: tuple[tuple[str, ...], ...]

    def draw(self, car: int) -> tuple[Sponsors, str | None]:
        """The top card given to ``car`` (None and no change when the deck is empty)."""
        if not self.deck:
            return self, None
        held = list(self.held)
        held[car] = tuple(sorted((*held[car], self.deck[0])))
        return Sponsors(self.deck[1:], tuple(held)), self.deck[0]


def new_sponsors(players: int) -> Sponsors:
    """Every card in the deck (sorted, to be shuffled), no player holding any."""
    return Sponsors(sponsor_box(), tuple(() for _ in range(players)))


@implements("sponsor.deck")
def shuffle_order(sponsors: Sponsors, rng: random.Random) -> tuple[str, ...]:
    """A new order of the deck drawn by ``rng`` from its sorted cards (the chance outcome
    of the shuffle before a race)."""
    order = sorted(sponsors.deck)
    rng.shuffle(order)
    return tuple(order)


@implements("sponsor.deck")
def reorder(sponsors: Sponsors, order: tuple[str, ...]) -> Sponsors:
    """The deck put in ``order``; MalformedInput unless it holds exactly the deck's cards."""
    if Counter(order) != Counter(sponsors.deck):
        raise MalformedInput("sponsor.deck", "a sponsor shuffle must order exactly the "
                             f"{len(sponsors.deck)} cards left in the Sponsorship deck")
    return replace(sponsors, deck=tuple(order))


@implements("sponsor.race-start", "event.title-sponsor")
def race_start(sponsors: Sponsors, grid: tuple[int, ...], count: int
               ) -> tuple[Sponsors, tuple[Gain, ...]]:
    """Each player draws ``count`` cards, in grid order from pole, before the race."""
    gains = []
    for car in grid:
        for _ in range(count):
            sponsors, card = sponsors.draw(car)
            gains.append(Gain(car, card, "race-start", -1))
    return sponsors, tuple(gains)


@implements("sponsor.given-at-once", "ruling.sponsor-deck-empty")
def give(sponsors: Sponsors, car: int, reason: str, step: int, corner: int = 0
         ) -> tuple[Sponsors, Gain]:
    """One card earned during a race, given at once from the top of the deck (nothing when
    the deck is empty)."""
    sponsors, card = sponsors.draw(car)
    return sponsors, Gain(car, card, reason, step, corner)


@implements("sponsor.race-start", "sponsor.in-hand")
def start_cards(gains: tuple[Gain, ...], players: int) -> tuple[tuple[str, ...], ...]:
    """Each player's cards drawn before the race (put in the hand first); ``()`` for none."""
    cards = tuple(tuple(g.card for g in gains if g.car == p and g.card is not None)
                  for p in range(players))
    return cards if any(cards) else ()


@implements("sponsor.one-time", "sponsor.carry-over", "ruling.sponsor-used-return")
def after_race(sponsors: Sponsors, held: tuple[tuple[str, ...], ...],
               spent: tuple[str, ...]) -> Sponsors:
    """After a race: each player keeps the cards it still holds; the used ones go back into
    the deck (shuffled with it before the next race)."""
    players = len(sponsors.held)
    kept = tuple(tuple(sorted(held[p])) if held else () for p in range(players))
    return Sponsors(tuple(sorted((*sponsors.deck, *spent))), kept)


def accounted(sponsors: Sponsors) -> bool:
    """Whether deck and held cards together are exactly the box (sponsor.deck)."""
    return Counter(sponsors.deck) + Counter(c for h in sponsors.held for c in h) \
        == Counter(sponsor_box())

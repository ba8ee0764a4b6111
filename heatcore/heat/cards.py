"""The cards of the core race and the starting deck."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from heatcore.framework.registry import implements
from heatcore.heat.modules.garage.data import card_upgrades, sponsor_cards

Card = str
"""A card token: ``"1"``-``"4"`` basic cards, ``"U0"``/``"U5"`` starting upgrades,
``"G1"``-``"G47"`` the Garage module's upgrade cards, ``"S80"``-``"S84"`` the
Championship's Sponsorship cards, ``"H"`` Heat, ``"S"`` Stress."""

BASIC: tuple[Card, ...] = ("1", "2", "3", "4")
UPGRADE_0: Card = "U0"
UPGRADE_5: Card = "U5"
HEAT: Card = "H"
STRESS: Card = "S"
#: The Garage module's upgrade cards (``garage.decks``), in type order.
UPGRADES: tuple[Card, ...] = tuple(card_upgrades())
#: The Championship's Sponsorship cards (``sponsor.play``), in type order.
SPONSORS: tuple[Card, ...] = tuple(sponsor_cards())
#: The cards of the core race.
ALL_CARDS: tuple[Card, ...] = (*BASIC, UPGRADE_0, UPGRADE_5, STRESS, HEAT)
#: Every card token, in canonical order (the core cards with the upgrades after U5).
KNOWN_CARDS: tuple[Card, ...] = (*BASIC, UPGRADE_0, UPGRADE_5, *UPGRADES, *SPONSORS, STRESS,
                                  HEAT)

#: The speed each card adds when revealed (a Stress adds what its flip finds; an upgrade
#: with several speeds is worth the one chosen at reveal, ``garage.choose-speed``: here its
#: first).
VALUE: dict[Card, int] = {"1": 1, "2": 2, "3": 3, "4": 4, "U0": 0, "U5": 5, "S": 0, "H": 0,
                          **{t: u.speeds[0]
                             for t, u in (card_upgrades() | sponsor_cards()).items()}}
#: Cards that may be played in step 2 (``play.playable-cards``).
PLAYABLE: frozenset[Card] = frozenset((*BASIC, UPGRADE_0, UPGRADE_5, *UPGRADES, *SPONSORS,
                                       STRESS))
#: Cards that may be discarded in step 8 (``discard.optional``).
#: (``sponsor.discard``: a Sponsorship card too, ruling.sponsor-discarded).
DISCARDABLE: frozenset[Card] = frozenset((*BASIC, UPGRADE_0, UPGRADE_5, *UPGRADES, *SPONSORS))
#: Stress cards in the box; the supply is what the decks do not take (``ruling.stress-supply``).
BOX_STRESS = 37
HAND_SIZE = 7
BASIC_SET: frozenset[Card] = frozenset(BASIC)

_RANK = {card: i for i, card in enumerate(KNOWN_CARDS)}


def canonical(cards: Iterable[Card]) -> tuple[Card, ...]:
    """The cards as a multiset in canonical order (1-4, U0, U5, G1-G47, S80-S84, S, H)."""
    return tuple(sorted(cards, key=_RANK.__getitem__))


def is_basic(card: Card) -> bool:
    """A basic card (speed 1-4) is what a stress or boost flip looks for."""
    return card in BASIC_SET


def remove(cards: tuple[Card, ...], taken: Iterable[Card]) -> tuple[Card, ...] | None:
    """``cards`` less the multiset ``taken``; None if ``taken`` is not contained in it."""
    left = list(cards)
    for card in taken:
        try:
            left.remove(card)
        except ValueError:
            return None
    return tuple(left)


@implements("setup.deck")
def starting_deck(stress: int) -> tuple[Card, ...]:
    """The 18-card starting deck (with 3 Stress): 3 each of 1-4, U0, U5, one Heat, Stress."""
    return canonical([*(c for c in BASIC for _ in range(3)), UPGRADE_0, UPGRADE_5, HEAT,
                      *([STRESS] * stress)])


def fixed_cards() -> Counter[Card]:
    """The non-Heat, non-Stress cards a player owns for the whole race."""
    return Counter(c for c in starting_deck(0) if c != HEAT)

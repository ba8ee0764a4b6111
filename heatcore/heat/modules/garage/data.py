"""The upgrade cards and symbols, read from ``spec/modules/garage.json``.

This module imports nothing of the engine, so the card table of :mod:`heatcore.heat.cards` can
list the upgrade tokens.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from typing import Any

from heatcore.framework.registry import implements, spec_dir

GARAGE = "garage"
#: The token of a Heat card (a drafted Heat upgrade becomes one: ruling.garage-heat-card).
HEAT_TOKEN = "H"


@dataclass(frozen=True)
class Symbol:
    """One symbol of the vocabulary: whether it is mandatory, when it acts (reveal, react,
    slipstream, corner), how its amount reads, and the rule that defines it."""

    id: str
    name: str
    mandatory: bool
    when: str
    amount: str
    rule: str
    text: str


@dataclass(frozen=True)
class Upgrade:
    """One upgrade card type: its number, token (``G7``; ``H`` for the Heat types), deck,
    family, speeds (several: chosen at reveal) and symbols with their amounts."""

    type: int
    token: str
    deck: str
    family: str
    copies: int
    speeds: tuple[int, ...]
    symbols: tuple[tuple[str, int], ...]
    heat_card: bool

    def amount(self, symbol: str) -> int:
        """The amount printed beside ``symbol`` (0 when the card does not have it)."""
        return sum(n for s, n in self.symbols if s == symbol)

    @property
    def market(self) -> str:
        """The card's name in the market and the box: ``G`` and its type number."""
        return f"G{self.type}"


@cache
def _data() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((spec_dir() / "modules" / "garage.json").read_text(
        encoding="utf-8"))
    return data


@cache
def symbols() -> dict[str, Symbol]:
    """The symbol vocabulary by ID, in the order of the data file."""
    return {s["id"]: Symbol(s["id"], s["name"], s["mandatory"], s["when"], s["amount"],
                            s["rule"], s["text"]) for s in _data()["symbols"]}


@cache
@implements("garage.decks")
def upgrades() -> dict[str, Upgrade]:
    """Every upgrade type by its market name (``G1`` ... ``G48``), in type order."""
    out = {}
    for c in _data()["cards"]:
        up = Upgrade(c["type"], c["token"], c["deck"], c["family"], c["copies"],
                     tuple(c["speed"]), tuple((s["symbol"], s["amount"]) for s in c["symbols"]),
                     bool(c.get("heat_card", False)))
        out[up.market] = up
    return out


@cache
def card_upgrades() -> dict[str, Upgrade]:
    """The upgrade types that are cards of their own in a deck (the Heat types are not), by
    token."""
    return {u.token: u for u in upgrades().values() if not u.heat_card}


#: The deck name of the Sponsorship cards among the card types (sponsor.play).
SPONSOR_DECK = "sponsor"


@cache
@implements("sponsor.play")
def sponsor_cards() -> dict[str, Upgrade]:
    """The Sponsorship card types of ``spec/modules/championship.json`` as cards of the
    symbol vocabulary (deck ``sponsor``), by token (``S80`` ... ``S84``)."""
    data = json.loads((spec_dir() / "modules" / "championship.json").read_text(
        encoding="utf-8"))
    return {c["token"]: Upgrade(c["type"], c["token"], SPONSOR_DECK, SPONSOR_DECK, c["copies"],
                                tuple(c["speed"]),
                                tuple((s["symbol"], s["amount"]) for s in c["symbols"]), False)
            for c in data["sponsors"]["cards"]}


@cache
def sponsor_tokens() -> frozenset[str]:
    """The Sponsorship cards' tokens (``S80`` ... ``S84``)."""
    return frozenset(sponsor_cards())


def is_sponsor(card: str) -> bool:
    """Whether ``card`` is a Sponsorship card (sponsor.in-hand)."""
    return card in sponsor_tokens()


@cache
def card_types() -> dict[str, Upgrade]:
    """Every card that carries symbols, by token: the upgrade cards, then the Sponsorship
    cards (sponsor.play: the same vocabulary)."""
    return {**card_upgrades(), **sponsor_cards()}


def upgrade_tokens() -> tuple[str, ...]:
    """The tokens of the upgrade cards that can be in a deck, in type order."""
    return tuple(card_upgrades())


@cache
def draft_rules() -> dict[str, Any]:
    """The draft's numbers: market size beyond the players, round order, quick-start count."""
    rules: dict[str, Any] = _data()["draft"]
    return rules


@implements("garage.decks")
def box(decks: tuple[str, ...]) -> tuple[str, ...]:
    """Every upgrade card of the named decks (``basic``, ``advanced``) by market name, sorted
    by type (two copies each)."""
    return tuple(u.market for u in upgrades().values() if u.deck in decks
                 for _ in range(u.copies))


def in_deck(market: str) -> str:
    """The card a market card becomes in a player's deck (``G17`` -> ``H``)."""
    return upgrades()[market].token


#: The starting upgrades the module takes out of every deck (``garage.module``).
STARTING_UPGRADES = ("U0", "U5", HEAT_TOKEN)


def garage_deck(core_deck: tuple[str, ...], upgrades: tuple[str, ...]) -> tuple[str, ...]:
    """A deck's cards with the module: the core deck less the three starting upgrades, plus
    the player's upgrades as deck cards (unsorted: callers sort or shuffle)."""
    left = list(core_deck)
    for card in STARTING_UPGRADES:
        left.remove(card)
    return (*left, *(in_deck(u) for u in upgrades))

"""Actions: every choice a player makes, and every chance outcome, as a value.

Each action has a canonical string (``str(action)``), e.g. ``P1 gear 3 play 1 3 S``.
``notation.parse_action`` reads it back.
"""

from __future__ import annotations

from dataclasses import dataclass

from heatcore.framework.values import quick_init
from heatcore.heat.cards import Card
from heatcore.heat.state import car_name


@dataclass(frozen=True, slots=True)
class Plan:
    """Steps 1-2: shift to ``gear`` and play ``cards`` (canonical order)."""

    car: int
    gear: int
    cards: tuple[Card, ...]

    def __str__(self) -> str:
        return f"{car_name(self.car)} gear {self.gear} play {' '.join(self.cards)}"


@dataclass(frozen=True, slots=True)
class Cooldown:
    """React: use the gear's cooldown to move ``amount`` Heat cards from hand to engine."""

    car: int
    amount: int

    def __str__(self) -> str:
        return f"{car_name(self.car)} cooldown {self.amount}"


@dataclass(frozen=True, slots=True)
class AdrenalineMove:
    """React: adrenaline's +1 speed, moving one space."""

    car: int

    def __str__(self) -> str:
        return f"{car_name(self.car)} adrenaline move"


@dataclass(frozen=True, slots=True)
class AdrenalineCooldown:
    """React: adrenaline's one cooldown."""

    car: int

    def __str__(self) -> str:
        return f"{car_name(self.car)} adrenaline cooldown"


@dataclass(frozen=True, slots=True)
class SectorCooldown:
    """React (weather module): the cooling bonus of a Snow or Rain sector, one cooldown."""

    car: int

    def __str__(self) -> str:
        return f"{car_name(self.car)} sector cooldown"


@dataclass(frozen=True, slots=True)
class Boost:
    """React: pay one engine Heat and flip for a basic card."""

    car: int

    def __str__(self) -> str:
        return f"{car_name(self.car)} boost"


@dataclass(frozen=True, slots=True)
class EndReact:
    """React: use nothing more."""

    car: int

    def __str__(self) -> str:
        return f"{car_name(self.car)} end react"


@dataclass(frozen=True, slots=True)
class Slipstream:
    """Slipstream: take the two extra spaces (and ``extra`` more where a weather or road
    token gives a slipstream bonus)."""

    car: int
    extra: int = 0

    def __str__(self) -> str:
        more = f" +{self.extra}" if self.extra else ""
        return f"{car_name(self.car)} slipstream{more}"


@dataclass(frozen=True, slots=True)
class DeclineSlipstream:
    """Slipstream: do not take it."""

    car: int

    def __str__(self) -> str:
        return f"{car_name(self.car)} no slipstream"


@dataclass(frozen=True, slots=True)
class Discard:
    """Discard: put these hand cards (canonical order, maybe none) on the discard pile."""

    car: int
    cards: tuple[Card, ...]

    def __str__(self) -> str:
        shown = " ".join(self.cards) if self.cards else "nothing"
        return f"{car_name(self.car)} discard {shown}"


@dataclass(frozen=True, slots=True)
class Shuffle:
    """Chance: the car's deck and discard pile become the deck ``order`` (top card first)."""

    car: int
    order: tuple[Card, ...]

    def __str__(self) -> str:
        return f"{car_name(self.car)} shuffle {' '.join(self.order)}".rstrip()


@dataclass(frozen=True, slots=True)
class LegendShuffle:
    """Chance (Legends module): the 10 Legend cards become the Legend deck ``order`` (top
    card first); ``car`` is the Legend whose turn awaits the card."""

    car: int
    order: tuple[int, ...]

    def __str__(self) -> str:
        return f"{car_name(self.car)} legend shuffle {' '.join(map(str, self.order))}"


@dataclass(frozen=True, slots=True)
class ChooseSpeed:
    """Reveal (Garage module): the speed of each revealed choose-speed card, in the
    canonical order of the cards played."""

    car: int
    speeds: tuple[int, ...]

    def __str__(self) -> str:
        return f"{car_name(self.car)} speeds {' '.join(map(str, self.speeds))}"


@dataclass(frozen=True, slots=True)
class UseSymbol:
    """React (Garage module): use one ``symbol`` of the upgrade ``card`` (for Direct play,
    play the card from the hand). ``amount`` is the number chosen for an up-to symbol
    (cooldown, reduce stress); ``cards`` the cards a Salvage takes from the discard pile
    (canonical order)."""

    car: int
    card: Card
    symbol: str
    amount: int = 0
    cards: tuple[Card, ...] = ()

    def __str__(self) -> str:
        more = f" {self.amount}" if self.amount else ""
        taken = f" {' '.join(self.cards)}" if self.cards else ""
        return f"{car_name(self.car)} {self.card} {self.symbol}{more}{taken}"


@dataclass(frozen=True, slots=True)
class GainSponsor:
    """Championship (sponsor.given-at-once): the Sponsorship card ``card``, earned by
    ``car``, put into its hand. Not a player's choice: an input of the championship, which
    gives the card between the race's steps, so it is never among the legal actions."""

    car: int
    card: Card

    def __str__(self) -> str:
        return f"{car_name(self.car)} sponsor {self.card}"


Action = (
    Plan | Cooldown | AdrenalineMove | AdrenalineCooldown | SectorCooldown | Boost | EndReact
    | Slipstream | DeclineSlipstream | Discard | Shuffle | LegendShuffle | ChooseSpeed
    | UseSymbol | GainSponsor
)

#: The classes of the actions (a value of another class is not an action).
ACTION_CLASSES: frozenset[type] = frozenset(Action.__args__)
for _action_class in ACTION_CLASSES:  # built many times a step: legal_actions lists them
    quick_init(_action_class)


def require_action(value: object) -> None:
    """MalformedInput unless ``value`` is an action (a string must be read first)."""
    if value.__class__ in ACTION_CLASSES:  # a set lookup: this runs on every step
        return
    from heatcore.framework.errors import MalformedInput

    hint = (f"read it first: heatcore.parse_action({value!r})" if isinstance(value, str)
            else "build one, or read its string with heatcore.parse_action")
    raise MalformedInput("round.sequence",
                         f"an action must be an Action, not {type(value).__name__}; {hint}")

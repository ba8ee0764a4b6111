"""Dealing the upgrades: the draft (three rounds of picks from a market of players + 3
cards, the market a chance outcome) and the quick start (three random basic upgrades each).

The draft is its own small machine, played once the grid is known and before the decks are
shuffled: ``draft_actions(draft)`` lists the picks (empty while the market's draw is
awaited) and ``apply_draft(draft, action)`` returns the next draft value or raises a typed
error and leaves the draft as it was. Every upgrade card stays accounted for: the cards not
yet drawn, the market, the picks and the cards returned to the box always make the box.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from heatcore.framework.errors import IllegalAction, MalformedInput
from heatcore.framework.registry import implements
from heatcore.heat.modules.garage.data import box, draft_rules
from heatcore.heat.state import car_name

BASIC_DECK = ("basic",)
ALL_DECKS = ("basic", "advanced")


def by_type(cards: list[str] | tuple[str, ...]) -> tuple[str, ...]:
    """Upgrade market names sorted by type number (``G2`` before ``G10``)."""
    return tuple(sorted(cards, key=lambda c: int(c[1:])))


@dataclass(frozen=True, slots=True)
class Market:
    """Chance: the cards drawn face up for this round's market (sorted by type)."""

    cards: tuple[str, ...]

    def __str__(self) -> str:
        return f"market {' '.join(self.cards)}"


@dataclass(frozen=True, slots=True)
class Pick:
    """A player takes one card of the market."""

    car: int
    card: str

    def __str__(self) -> str:
        return f"{car_name(self.car)} picks {self.card}"


DraftAction = Market | Pick


@dataclass(frozen=True, slots=True)
class Draft:
    """The draft at one moment. ``grid`` lists the players' cars pole first; ``pool`` the
    upgrade cards not drawn yet; ``market`` this round's cards (None while the draw is
    awaited); ``picks`` each player's cards; ``returned`` the leftovers back in the box."""

    grid: tuple[int, ...]
    pool: tuple[str, ...]
    round: int = 0
    market: tuple[str, ...] | None = None
    picks: tuple[tuple[str, ...], ...] = ()
    returned: tuple[str, ...] = ()
    cursor: int = 0

    def is_over(self) -> bool:
        """Whether every round has been picked."""
        return self.round >= len(draft_rules()["rounds"])

    def is_chance(self) -> bool:
        """Whether the market's draw is awaited."""
        return not self.is_over() and self.market is None


@implements("ruling.garage-draft-pool")
def start_draft(grid: tuple[int, ...], players: int, decks: tuple[str, ...] = ALL_DECKS) -> Draft:
    """A draft before its first market: the players' cars in grid order (Legends skipped)
    and the upgrade box of ``decks``."""
    return Draft(tuple(i for i in grid if i < players), box(decks),
                 picks=tuple(() for _ in range(players)))


@implements("draft.order")
def pick_order(draft: Draft) -> tuple[int, ...]:
    """This round's order: from the back of the grid in rounds 1 and 3, from pole in 2."""
    side = draft_rules()["rounds"][draft.round]
    return tuple(reversed(draft.grid)) if side == "last" else draft.grid


@implements("draft.market")
def market_size(draft: Draft) -> int:
    """Players plus 3 (fewer if the pool runs short)."""
    return min(len(draft.pool), len(draft.grid) + int(draft_rules()["market_extra"]))


def draft_actions(draft: Draft) -> tuple[Pick, ...]:
    """The picks open now (one per distinct market card, by type); empty at the market's
    draw or when the draft is over."""
    if draft.is_over() or draft.market is None:
        return ()
    car = pick_order(draft)[draft.cursor]
    return tuple(Pick(car, c) for c in dict.fromkeys(draft.market))


@implements("draft.market", "draft.order")
def apply_draft(draft: Draft, action: DraftAction) -> Draft:
    """The draft after ``action``; IllegalAction if it is not the awaited draw or pick."""
    if draft.is_over():
        raise IllegalAction("draft.market", "the draft is over")
    if isinstance(action, Market):
        if draft.market is not None:
            raise IllegalAction("draft.order", "a pick is awaited, not a market draw")
        if len(action.cards) != market_size(draft) or Counter(action.cards) - Counter(
                draft.pool) or action.cards != by_type(action.cards):
            raise IllegalAction("draft.market", f"the market is {market_size(draft)} cards of "
                                "the undrawn upgrades, sorted by type")
        left = Counter(draft.pool) - Counter(action.cards)
        return Draft(draft.grid, by_type(list(left.elements())), draft.round, action.cards,
                     draft.picks, draft.returned, 0)
    if draft.market is None:
        raise IllegalAction("draft.market", "the market's draw is awaited")
    if action not in draft_actions(draft):
        raise IllegalAction("draft.order", f"{action} is not open: "
                            f"{car_name(pick_order(draft)[draft.cursor])} picks from the market")
    market = list(draft.market)
    market.remove(action.card)
    picks = list(draft.picks)
    picks[action.car] = by_type((*picks[action.car], action.card))
    if draft.cursor + 1 < len(draft.grid):
        return Draft(draft.grid, draft.pool, draft.round, tuple(market), tuple(picks),
                     draft.returned, draft.cursor + 1)
    return Draft(draft.grid, draft.pool, draft.round + 1, None, tuple(picks),
                 by_type((*draft.returned, *market)), 0)


def draw_market(draft: Draft, rng: random.Random) -> Market:
    """A market drawn at random from the undrawn upgrades."""
    pool = list(draft.pool)
    rng.shuffle(pool)
    return Market(by_type(pool[:market_size(draft)]))


def run_draft(draft: Draft, rng: random.Random,
              choose: Callable[[Draft, tuple[Pick, ...]], Pick] | None = None
              ) -> tuple[Draft, tuple[DraftAction, ...]]:
    """Play the draft to its end: markets from ``rng``, picks by ``choose`` (default: at
    random). Returns the final draft and its log of actions."""
    log: list[DraftAction] = []
    while not draft.is_over():
        action: DraftAction
        if draft.is_chance():
            action = draw_market(draft, rng)
        else:
            options = draft_actions(draft)
            action = choose(draft, options) if choose else rng.choice(options)
        draft = apply_draft(draft, action)
        log.append(action)
    return draft, tuple(log)


@implements("draft.quick-start", "ruling.garage-draft-pool")
def quick_start(players: int, rng: random.Random) -> tuple[tuple[str, ...], ...]:
    """Three random basic upgrades for each player (the chance outcome of a quick start)."""
    pool = list(box(BASIC_DECK))
    rng.shuffle(pool)
    count = int(draft_rules()["quick_start"])
    return tuple(by_type(pool[i * count:(i + 1) * count]) for i in range(players))


def check_upgrades(upgrades: tuple[tuple[str, ...], ...], players: int) -> None:
    """MalformedInput unless every player has the same number of upgrades, at least one (3
    in a single race; one per race so far in a championship: championship.garage-round),
    and all come from the box."""
    count = int(draft_rules()["quick_start"])
    if len(upgrades) != players or len({len(u) for u in upgrades}) != 1 or not upgrades[0]:
        raise MalformedInput("garage.module", f"the Garage module gives each of the {players} "
                             f"players {count} upgrades (in a championship, one per race)")
    known = Counter(box(ALL_DECKS))
    taken = Counter(c for u in upgrades for c in u)
    if taken - known:
        extra = sorted(taken - known)[0]
        raise MalformedInput("garage.decks", f"upgrade {extra!r} is not in the box that often "
                             "(two copies of each type G1-G48)")

"""The independent generator of legal choices: plans, react, slipstream and discards.

Written from the rule text in ``spec/rules`` with the printed card data; it calls nothing of
the engine (only the action types, the vocabulary both sides share).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache

from heatcore.heat.actions import (
    Action,
    AdrenalineCooldown,
    AdrenalineMove,
    Boost,
    Cooldown,
    Discard,
    EndReact,
    Plan,
    SectorCooldown,
)
from heatcore.heat.oracle.garage import tokens as upgrade_tokens
from heatcore.heat.oracle.printed import printed_cards

HEAT = "H"
STRESS = "S"
HAND_SIZE = 7  # setup.hand, replenish.draw
#: Cooldown printed on the mat for each gear (react.cooldown).
COOLDOWN = {1: 3, 2: 1, 3: 0, 4: 0}
GEARS = range(1, 5)  # gear.range


@cache
def card_order() -> tuple[str, ...]:
    """Every card token in the printed order, the upgrade cards (by type) before Stress."""
    core = tuple(printed_cards())
    cut = core.index(STRESS)
    return (*core[:cut], *upgrade_tokens(), *core[cut:])


def canon(cards: Counter[str]) -> tuple[str, ...]:
    """A multiset as a tuple in the printed card order."""
    return tuple(card for card in card_order() for _ in range(cards[card]))


@dataclass
class MCar:
    """One car in the model: spot, gear, engine and the cards (hand and discard as
    multisets, deck ordered top first, play area as played and found)."""

    position: int
    racing_line: bool
    gear: int
    engine: int
    hand: Counter[str]
    deck: list[str]
    discard: Counter[str]
    played: tuple[str, ...]
    flipped: list[str]


@dataclass
class TurnMemory:
    """What the model remembers of the acting car's turn."""

    car: int
    start: int
    adrenaline: bool
    speed: int = 0
    stage: str = "reveal"
    cooldown_used: bool = False
    adrenaline_move_used: bool = False
    adrenaline_cooldown_used: bool = False
    boosted: bool = False
    sector_cooldown_used: bool = False
    reach: int = 0  # ruling.setback-corner "checked": the farthest space a move aimed at
    used: Counter[str] = field(default_factory=Counter)  # garage: "CARD SYMBOL" uses


def sub_multisets(cards: Counter[str], size: int) -> Iterator[tuple[str, ...]]:
    """Every distinct sub-multiset of ``cards`` with ``size`` cards, in printed order."""
    kinds = [(card, cards[card]) for card in card_order() if cards[card] > 0]

    def walk(i: int, left: int) -> Iterator[tuple[str, ...]]:
        if left == 0:
            yield ()
            return
        if i == len(kinds):
            return
        card, have = kinds[i]
        for take in range(min(have, left), -1, -1):
            for rest in walk(i + 1, left - take):
                yield (card,) * take + rest

    yield from walk(0, size)


def free_gears(car: MCar) -> set[int]:
    """gear.shift.free: stay, one up or one down."""
    return {g for g in (car.gear - 1, car.gear, car.gear + 1) if g in GEARS}


def paid_gears(car: MCar) -> set[int]:
    """gear.shift.two-costs-heat: two up or down, only with a Heat in the engine."""
    return {g for g in (car.gear - 2, car.gear + 2) if g in GEARS} if car.engine >= 1 else set()


def playable(car: MCar) -> Counter[str]:
    """play.playable-cards, play.heat-not-playable: every card in hand but Heat."""
    return Counter({card: n for card, n in car.hand.items() if card != HEAT and n > 0})


def is_cluttered(car: MCar) -> bool:
    """ruling.cluttered-gear: too few playable cards for every reachable gear."""
    return sum(playable(car).values()) < min(free_gears(car) | paid_gears(car))


def plan_choices(index: int, car: MCar, free_only: bool = False) -> set[Action]:
    """Steps 1-2: every legal (gear, cards). ``free_only``: ruling.cluttered-gear's
    alternative free-shifts-only."""
    cards = playable(car)
    if is_cluttered(car):  # play.cluttered: all playable cards plus Heat
        out: set[Action] = set()
        # ruling.cluttered-gear: any reachable gear (only the free ones under free-shifts-only)
        for gear in free_gears(car) if free_only else free_gears(car) | paid_gears(car):
            need = gear - sum(cards.values())
            if car.hand[HEAT] >= need:
                out.add(Plan(index, gear, canon(cards + Counter({HEAT: need}))))
        return out
    return {Plan(index, gear, chosen) for gear in free_gears(car) | paid_gears(car)
            for chosen in sub_multisets(cards, gear)}


def react_choices(car: MCar, turn: TurnMemory, effect: str | None = None,
                  move_open: bool = True, gear_plus_one: bool = False,
                  needs_heat: bool = False) -> set[Action]:
    """Step 5 (with step 4's adrenaline): each once, in any order, end react always open.
    ``effect``: the sector effect where the car stands now (weather module): no cooldown at
    all, one more cooldown, or a boost that needs no Heat. ``move_open``: whether the
    adrenaline +1 may be taken (ruling.blocked-extra-move). ``gear_plus_one``: the cooling
    bonus adds 1 to the gear's cooldown instead of being a cooldown of its own
    (ruling.cooling-bonus-own-cooldown); ``needs_heat``: the free boost still needs a Heat
    in the engine (ruling.free-boost-empty-engine)."""
    i = turn.car
    out: set[Action] = {EndReact(i)}
    heat = 0 if effect == "no-cooldown" else car.hand[HEAT]
    bonus = effect == "cooling-bonus"
    if bonus and not gear_plus_one and not turn.sector_cooldown_used and heat > 0:
        out.add(SectorCooldown(i))
    if not turn.cooldown_used:
        gear = COOLDOWN[car.gear] + (1 if bonus and gear_plus_one else 0)
        out |= {Cooldown(i, n) for n in range(1, min(gear, heat) + 1)}
    if turn.adrenaline and not turn.adrenaline_cooldown_used and heat > 0:
        out.add(AdrenalineCooldown(i))
    if turn.adrenaline and not turn.adrenaline_move_used and move_open:
        out.add(AdrenalineMove(i))
    if not turn.boosted and (car.engine >= 1 or (effect == "free-boost" and not needs_heat)):
        out.add(Boost(i))
    return out


def discard_choices(index: int, car: MCar) -> set[Action]:
    """Step 8: any number of hand cards but Heat and Stress (discard.optional)."""
    cards = Counter({c: n for c, n in car.hand.items() if c not in (HEAT, STRESS) and n > 0})
    return {Discard(index, chosen) for size in range(sum(cards.values()) + 1)
            for chosen in sub_multisets(cards, size)}

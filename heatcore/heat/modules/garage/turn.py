"""Garage module: the steps of a turn that upgrade cards change.

Reveal (choose-speed cards, Heat, + flips), React (every symbol of the cards in the play
area, and Direct play from the hand), Slipstream (+N), the corner check (Adjust) and the
clean-up (Refresh). Each function is called by the core step only when the race plays the
module (``state.garage`` is set); the symbols' meaning lives in
:mod:`heatcore.heat.modules.garage.symbols`.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations, product

from heatcore.framework.errors import IllegalAction
from heatcore.framework.events import Event, event
from heatcore.framework.registry import implements
from heatcore.framework.values import replace
from heatcore.heat import hooks
from heatcore.heat.actions import ChooseSpeed, UseSymbol
from heatcore.heat.cards import HEAT, STRESS, VALUE, Card, canonical, fixed_cards, remove
from heatcore.heat.modules.garage import symbols as sy
from heatcore.heat.modules.garage.data import STARTING_UPGRADES, is_sponsor
from heatcore.heat.modules.garage.data import symbols as vocabulary
from heatcore.heat.modules.weather import cooldown_allowed, heat_per_car, slipstream_bonus
from heatcore.heat.placement import move_car
from heatcore.heat.rulings import GARAGE_ADJUST, GARAGE_SALVAGE, SLIPSTREAM_BONUS_PART
from heatcore.heat.state import Car, Garage, RaceState, Stage, Turn

#: The symbols a player uses as a React action on a card in the play area.
REACT_SYMBOLS = ("heat", "cooldown", "reduce", "scrap", "salvage", "refresh", "accelerate")


def _garage(state: RaceState) -> Garage:
    assert state.garage is not None, "the race plays the Garage module"
    return state.garage


# ---------------------------------------------------------------- step 3: reveal


def choosers(car: Car) -> tuple[Card, ...]:
    """The played cards with several speeds, in play order (canonical)."""
    return tuple(c for c in car.played if sy.chooses_speed(c))


@implements("garage.choose-speed")
def speed_choices(state: RaceState, turn: Turn) -> list[ChooseSpeed]:
    """Every choice of speeds for the revealed choose-speed cards (lowest first)."""
    cards = choosers(state.cars[turn.car])
    options = [up.speeds for c in cards if (up := sy.upgrade_of(c)) is not None]
    return [ChooseSpeed(turn.car, tuple(p)) for p in product(*options)]


def check_choose(state: RaceState, turn: Turn, action: ChooseSpeed) -> None:
    """Raise IllegalAction unless the speeds are printed on the revealed cards, in order."""
    if action not in speed_choices(state, turn):
        shown = " ".join(choosers(state.cars[turn.car]))
        raise IllegalAction("garage.choose-speed",
                            f"speeds {' '.join(map(str, action.speeds)) or '(none)'} are not "
                            f"printed on the revealed cards {shown}, in that order")


def reveal_upgrades(state: RaceState, turn: Turn, events: list[Event]) -> RaceState:
    """The garage's part of the reveal: await the speeds of choose-speed cards, else
    settle the revealed cards."""
    state = replace(state, garage=replace(_garage(state), used=()))
    if choosers(state.cars[turn.car]):
        return replace(state, turn=replace(turn, stage=Stage.CHOOSE))
    return settle_reveal(state, turn, (), events)


@implements("reveal.speed", "garage.choose-speed", "upgrade.boost",
            "ruling.garage-plus-at-reveal")
def settle_reveal(state: RaceState, turn: Turn, speeds: tuple[int, ...],
                  events: list[Event]) -> RaceState:
    """Add the revealed cards' speeds (choose-speed cards at their chosen value) and ask one
    flip per Stress card and per + symbol. The move follows the flips, as in the core
    reveal. Heat symbols wait for React (upgrade.heat)."""
    car = state.cars[turn.car]
    chosen = iter(speeds)
    speed = sum(next(chosen) if sy.chooses_speed(c) else VALUE[c] for c in car.played)
    flips = car.played.count(STRESS) + sy.total(car.played, "boost")
    return replace(state, turn=replace(
        turn, stage=Stage.REVEAL, speed=speed, to_move=speed, flips_left=flips))


# ---------------------------------------------------------------- step 5: react


def _uses(state: RaceState, car: Car, card: Card, symbol: str) -> bool:
    """Whether a copy of ``card`` in the play area still has ``symbol`` unused."""
    used = _garage(state).used.count(f"{card} {symbol}")
    return used < car.played.count(card)


@implements("garage.symbols-any-order", "upgrade.heat", "upgrade.cooldown", "upgrade.reduce",
            "upgrade.scrap", "upgrade.salvage", "upgrade.refresh", "upgrade.accelerate",
            "upgrade.direct")
def symbol_choices(state: RaceState, turn: Turn) -> list[UseSymbol]:
    """The upgrade symbols open now, in canonical order: by card in the play area, each
    symbol in printed order, amounts from 1; then Direct play of each card in hand."""
    car = state.cars[turn.car]
    out: list[UseSymbol] = []
    for card in dict.fromkeys(c for c in car.played if sy.upgrade_of(c) is not None):
        up = sy.upgrade_of(card)
        assert up is not None
        for symbol, n in up.symbols:
            if symbol not in REACT_SYMBOLS or not _uses(state, car, card, symbol):
                continue
            out += _options(state, turn, car, card, symbol, n)
    out += [UseSymbol(turn.car, c, "direct")
            for c in dict.fromkeys(c for c in car.hand if sy.has(c, "direct"))]
    return out


def _options(state: RaceState, turn: Turn, car: Car, card: Card, symbol: str,
             n: int) -> list[UseSymbol]:
    """The ways to use one symbol of one card now."""
    who = turn.car
    if symbol == "cooldown":
        heat = car.hand.count(HEAT) if cooldown_allowed(state, who) else 0
        return [UseSymbol(who, card, symbol, k) for k in range(1, min(n, heat) + 1)]
    if symbol == "reduce":
        stress = car.hand.count(STRESS)
        return [UseSymbol(who, card, symbol, k) for k in range(1, min(n, stress) + 1)]
    if symbol == "salvage":
        pool = sy.salvageable(car.discard, state.rulings.chose(GARAGE_SALVAGE, "cards-only"))
        return [UseSymbol(who, card, symbol, 0, taken)
                for size in range(1, min(n, len(pool)) + 1)
                for taken in dict.fromkeys(combinations(pool, size))]
    if symbol == "accelerate":
        return ([UseSymbol(who, card, symbol)]
                if sy.speed_increases(car.played, turn.boosted) else [])
    return [UseSymbol(who, card, symbol)]  # heat, scrap, refresh


@implements("garage.mandatory")
def mandatory_pending(state: RaceState, turn: Turn) -> bool:
    """Whether a mandatory React symbol (Heat, Scrap) of a card in the play area is unused."""
    car = state.cars[turn.car]
    return any(vocabulary()[s].mandatory and s in REACT_SYMBOLS and _uses(state, car, c, s)
               for c in set(car.played) if (up := sy.upgrade_of(c)) is not None
               for s, _ in up.symbols)


def check_symbol(state: RaceState, turn: Turn, action: UseSymbol) -> None:
    """Raise IllegalAction (naming the symbol's rule) unless the use is open now."""
    if action in symbol_choices(state, turn):
        return
    known = vocabulary().get(action.symbol)
    rule = known.rule if known is not None else "garage.symbols-any-order"
    raise IllegalAction(rule, f"{action} is not open now (each symbol of each card in play "
                        "is used once; amounts within what is printed and in hand)")


@implements("garage.symbols-any-order")
def apply_symbol(state: RaceState, turn: Turn, action: UseSymbol,
                 events: list[Event]) -> RaceState:
    """Use one symbol (already checked) and record it as used this turn."""
    garage = _garage(state)
    state = replace(state, garage=replace(
        garage, used=tuple(sorted((*garage.used, f"{action.card} {action.symbol}")))))
    car = state.cars[turn.car]
    who, card, symbol = turn.car, action.card, action.symbol
    if symbol == "direct":
        return direct_play(state, turn, card, events)
    if symbol == "heat":
        return resolve_heat(state, turn, card, events)
    if symbol == "cooldown":
        events.append(event("cooled", who, amount=action.amount))
        return state.with_car(who, sy.cooldown(car, action.amount))
    if symbol == "reduce":
        events.append(event("reduced-stress", who, amount=action.amount))
        return state.with_car(who, sy.reduce_stress(car, action.amount))
    if symbol == "scrap":
        car, moved = sy.scrap(car, sy.amount(card, "scrap"))
        events.append(event("scrapped", who, cards=moved))
        return state.with_car(who, car)
    if symbol == "salvage":
        events.append(event("salvaged", who, cards=action.cards))
        state = state.with_car(who, sy.salvage(car, action.cards))
        return replace(state, shuffle=who, garage=replace(state.garage, salvage=True))
    if symbol == "accelerate":
        gain = sy.accelerate(sy.amount(card, "accelerate"),
                             sy.speed_increases(car.played, turn.boosted))
        events.append(event("accelerated", who, speed=turn.speed + gain))
        return move_car(state, who, gain, "accelerate", events,
                        turn=replace(turn, speed=turn.speed + gain))
    events.append(event("refresh-chosen", who, card=card))  # refresh
    return state


@implements("upgrade.heat", "upgrade.heat-unpayable", "ruling.garage-unpaid-heat")
def resolve_heat(state: RaceState, turn: Turn, card: Card, events: list[Event]) -> RaceState:
    """One card's Heat symbol, resolved when its player chooses in React: paid from the
    engine if it holds the whole amount; else the card leaves the play area for the discard
    pile and its player flips once for a basic card, as for a + (the car keeps the spaces
    it has moved). A discarded copy takes its used symbols with it."""
    who, car = turn.car, state.cars[turn.car]
    cost = sy.amount(card, "heat")
    paid = sy.pay_heat(car, cost)
    if paid is not None:
        events.append(event("paid-heat", who, amount=cost, cause="upgrade", card=card))
        return state.with_car(who, paid)
    events.append(event("upgrade-unpaid", who, card=card))
    car = sy.discard_unpaid(car, card)
    garage = _garage(state)
    left = car.played.count(card)
    uses = Counter(garage.used)
    kept = Counter({u: min(n, left) if u.split()[0] == card else n for u, n in uses.items()})
    state = replace(state, garage=replace(garage, used=tuple(sorted(kept.elements()))))
    return state.with_car(who, car, turn=replace(turn, stage=Stage.BOOST, flips_left=1,
                                                 to_move=0))


@implements("upgrade.direct")
def direct_play(state: RaceState, turn: Turn, card: Card, events: list[Event]) -> RaceState:
    """Play ``card`` from the hand now: add its speed and move, then flip for its +
    symbols; its other symbols (Heat among them) join this React step."""
    car = state.cars[turn.car]
    hand = remove(car.hand, (card,))
    assert hand is not None
    events.append(event("played-direct", turn.car, card=card))
    car = replace(car, hand=hand, played=canonical((*car.played, card)))
    gain, flips = VALUE[card], sy.amount(card, "boost")
    state = state.with_car(turn.car, car)
    state = move_car(state, turn.car, gain, "direct", events,
                     turn=replace(turn, speed=turn.speed + gain))
    if flips:
        after = state.turn
        assert after is not None
        state = replace(state, turn=replace(after, stage=Stage.BOOST, flips_left=flips,
                                            to_move=0))
    return state


# ---------------------------------------------------------------- steps 6, 7 and 8


@implements("upgrade.slipstream")
def slipstream_extras(state: RaceState, car: int, bonus: int) -> tuple[int, ...]:
    """The extra slipstream spaces on offer: every sum of the sector's ``bonus`` and the
    Slipstream +N of the cards in the play area (each optional), within the final finish
    line."""
    me = state.cars[car]
    sums = {0}
    for extra in (bonus, *(sy.amount(c, "slipstream") for c in me.played)):
        if extra:
            sums |= {s + extra for s in sums}
    room = state.finish_position - me.position - 2
    return tuple(s for s in sorted(sums) if s == 0 or s <= room)



@implements("upgrade.slipstream", "ruling.slipstream-bonus-all-or-nothing")
def garage_extras(state: RaceState, car: int) -> tuple[int, ...]:
    """The extra slipstream spaces on offer with the Garage: the sums of the sector's bonus
    and the cards' Slipstream +N (0 included), and under
    ruling.slipstream-bonus-all-or-nothing's "any-part" each part of the sector's bonus too."""
    bonus = slipstream_bonus(state, car)
    extras = set(slipstream_extras(state, car, bonus))
    if state.rulings.chose(SLIPSTREAM_BONUS_PART, "any-part"):
        extras |= set(range(1, bonus))
    return tuple(sorted(extras))

def adjust(state: RaceState, car: int) -> int:
    """The turn's Adjust: the symbols of the upgrade cards in the play area, added up."""
    return sy.total(state.cars[car].played, "adjust")



@implements("upgrade.adjust", "ruling.garage-adjust")
def adjust_limit(state: RaceState, car: int, limit: int) -> int:
    """A corner's speed limit after the turn's Adjust symbols (clamped at 0 unless the race
    plays ruling.garage-adjust's "unclamped")."""
    return sy.adjusted_limit(limit, adjust(state, car),
                             not state.rulings.chose(GARAGE_ADJUST, "unclamped"))

@implements("upgrade.refresh")
def clear_refreshed(state: RaceState, car: int) -> RaceState:
    """Clean-up: the refreshed cards go on top of the deck; the turn's symbols reset."""
    garage = _garage(state)
    chosen = tuple(u.split()[0] for u in garage.used if u.endswith(" refresh"))
    state = replace(state, garage=replace(garage, used=()))
    if not chosen:
        return state
    return state.with_car(car, sy.refresh(state.cars[car], chosen))


# ---------------------------------------------------------------- cards owned


@implements("garage.module", "ruling.garage-heat-card", "sponsor.in-hand")
def garage_cards(state: RaceState, car: int) -> tuple[Counter[Card], int]:
    """What ``car`` owns for the race with the module: its non-Heat, non-Stress cards
    (the 12 basic cards, its upgrades and the Sponsorship cards it holds now) and its Heat
    cards (the core count less the starting Heat card, plus its Heat upgrades)."""
    owned = Counter(_garage(state).owned[car])
    fixed = fixed_cards() - Counter(STARTING_UPGRADES) + owned + Counter(
        _garage(state).held(car))
    del fixed[HEAT]
    return fixed, heat_per_car(state) - 1 + owned[HEAT]


# ---------------------------------------------------------------- hook points filled

hooks.reveal_upgrades.fill("garage", reveal_upgrades)
hooks.speed_choices.fill("garage", speed_choices)
hooks.check_choose.fill("garage", check_choose)
hooks.settle_reveal.fill("garage", settle_reveal)
hooks.symbol_choices.fill("garage", symbol_choices)
hooks.mandatory_pending.fill("garage", mandatory_pending)
hooks.check_symbol.fill("garage", check_symbol)
hooks.apply_symbol.fill("garage", apply_symbol)
hooks.card_slipstream_extras.fill("garage", garage_extras)
hooks.adjust_limit.fill("garage", adjust_limit)
hooks.clear_refreshed.fill("garage", clear_refreshed)
hooks.is_sponsor.fill("garage", is_sponsor)

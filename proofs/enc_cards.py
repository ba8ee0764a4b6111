"""Encoded rules that move cards: gear shift cost, play, flips, cooldown, Heat payment,
discard and replenish. Each function names the rule IDs it carries out."""

from __future__ import annotations

from dataclasses import dataclass, field

import z3

from heatcore.heat.rulings import CLUTTERED_GEAR, STRESS_SUPPLY
from proofs.symbols import (
    BASIC,
    DISCARDABLE,
    HAND_SIZE,
    HEAT,
    KINDS,
    PLAYABLE,
    STRESS,
    U0,
    U5,
    VALUE,
    Enc,
    Zones,
    shifted,
    size,
    zmax,
    zmin,
)

Zone = dict[str, z3.ArithRef]


def is_cluttered(enc: Enc, z: Zones, gear0: z3.ArithRef) -> z3.BoolRef:
    """play.cluttered-only-when-forced: cluttered iff no reachable gear (one step free, two
    steps if the engine can pay) allows a play of only non-Heat cards."""
    lowest = z3.If(z.engine >= 1, zmax(gear0 - 2, 1), zmax(gear0 - 1, 1))
    forced = size(z.hand, PLAYABLE) < lowest
    if enc.bug("cluttered-when-not-forced"):
        chosen = enc.new_bool("cluttered.choice")
        return z3.Or(forced, chosen)
    return forced


def shift_gear(enc: Enc, z: Zones, gear0: z3.ArithRef,
               cluttered: z3.BoolRef) -> tuple[Zones, z3.ArithRef, z3.ArithRef]:
    """gear.range, gear.shift.free, gear.shift.two-costs-heat, gear.shift.no-three,
    ruling.cluttered-gear: pick the round's gear (a cluttered car too, unless the race plays
    the alternative free-shifts-only); a two-step shift pays one engine Heat to the discard
    pile. Returns the zones, the gear and the Heat paid."""
    gear = enc.new_int("gear", lo=1, hi=4, rule="gear.range")
    step = z3.If(gear >= gear0, gear - gear0, gear0 - gear)
    enc.rule("gear.shift.no-three", step <= (3 if enc.bug("shift-three-allowed") else 2))
    if enc.rulings.chose(CLUTTERED_GEAR, "free-shifts-only"):
        enc.rule("ruling.cluttered-gear", z3.Implies(cluttered, step <= 1))
    two = step == 2
    enc.rule("gear.shift.two-costs-heat", z3.Implies(two, z.engine >= 1))
    cost = z3.IntVal(0) if enc.bug("shift-two-free") else z3.If(two, 1, 0)
    gained = z3.IntVal(0) if enc.bug("shift-two-heat-vanishes") else cost
    discard = dict(z.discard)
    discard[HEAT] = discard[HEAT] + gained
    return z.with_(engine=z.engine - cost, discard=discard), gear, cost


def play_cards(enc: Enc, z: Zones, gear: z3.ArithRef,
               cluttered: z3.BoolRef) -> tuple[Zones, Zone]:
    """play.card-count, play.playable-cards, play.heat-not-playable, play.cluttered: play
    exactly ``gear`` cards from hand; Heat only in a cluttered play, which plays every
    non-Heat card plus Heat to make up the number. Returns the zones and the cards played."""
    played: Zone = {}
    for k in KINDS:
        played[k] = enc.new_int(f"play.{k}", lo=0)
        enc.rule("play.playable-cards", played[k] <= z.hand[k])
    enc.rule("play.card-count", size(played) == gear)
    heat_ok = enc.bug("heat-playable")
    enc.rule("play.heat-not-playable",
             z3.Implies(z3.Not(cluttered), played[HEAT] == 0) if not heat_ok else True)
    enc.rule("play.cluttered",
             z3.Implies(cluttered, z3.And([played[k] == z.hand[k] for k in PLAYABLE])))
    hand = shifted(z.hand, played, -1)
    return z.with_(hand=hand, play=shifted(z.play, played)), played


def card_speed(played: Zone) -> z3.ArithRef:
    """reveal.speed: the printed values of the cards played (a Stress adds its flip)."""
    return z3.Sum([VALUE[k] * played[k] for k in KINDS if VALUE[k]])


@dataclass(frozen=True)
class FlipRecord:
    """What one flip did: whether it ran, found a card, needed a reshuffle first, which
    accepted kind it found (index ``pick``) and how many cards of each other kind it
    turned over before it."""

    active: z3.BoolRef
    found: z3.BoolRef
    reshuffled: z3.BoolRef
    pick: z3.ArithRef
    accept: tuple[str, ...]
    skips: dict[str, z3.ArithRef]
    value: z3.ArithRef
    deck: dict[str, z3.ArithRef] = field(default_factory=dict)  # the deck it flips from


@dataclass(frozen=True)
class DrawRecord:
    """What step 9 drew: ``first`` from the deck, then (after a reshuffle) ``second``."""

    first: dict[str, z3.ArithRef]
    reshuffled: z3.BoolRef
    second: dict[str, z3.ArithRef]
    deck: dict[str, z3.ArithRef] = field(default_factory=dict)  # before the draw
    need: z3.ArithRef | int = 0  # cards to draw
    refill: dict[str, z3.ArithRef] = field(default_factory=dict)  # the deck after a reshuffle
    second_need: z3.ArithRef | int = 0  # cards to draw from it


def flip(enc: Enc, z: Zones, active: z3.BoolRef, tag: str) -> tuple[Zones, FlipRecord]:
    """reveal.stress-flip, deck.reshuffle, ruling.flip-no-basic: flip deck cards until a
    basic 1-4 turns up; the others go to the discard pile; an empty deck is refilled by
    shuffling the discard pile (never the play area). With no basic card in deck or
    discard pile the flip finds nothing, adds 0 and moves no card.
    The basic card found joins the play area. Returns the zones and what the flip did."""
    accept = (*BASIC, U0, U5) if enc.bug("flip-accepts-upgrades") else BASIC
    skip_kinds = [k for k in KINDS if k not in accept]
    found_any = z3.And(active, size(z.deck, accept) + size(z.discard, accept) > 0)
    if enc.bug("flip-no-reshuffle"):
        found_any = z3.And(active, size(z.deck, accept) > 0)
    resh = z3.And(found_any, size(z.deck, accept) == 0)
    keep_discard = enc.bug("reshuffle-keeps-discard")
    with_play = enc.bug("reshuffle-includes-play-area")
    deck1 = {k: z3.If(resh, z.deck[k] + z.discard[k] + (z.play[k] if with_play else 0),
                      z.deck[k]) for k in KINDS}
    discard1 = {k: z3.If(resh, z.discard[k] if keep_discard else 0, z.discard[k])
                for k in KINDS}
    play0 = {k: z3.If(resh, 0, z.play[k]) if with_play else z.play[k] for k in KINDS}
    pick = enc.new_int(f"{tag}.pick", lo=0, hi=len(accept) - 1)
    took = {k: z3.If(z3.And(found_any, pick == i), 1, 0) for i, k in enumerate(accept)}
    for k in accept:
        enc.rule("reveal.stress-flip", took[k] <= deck1[k])
    skips: Zone = {}
    for k in skip_kinds:
        s = enc.new_int(f"{tag}.skip.{k}", lo=0)
        enc.rule("reveal.stress-flip", s <= deck1[k])
        enc.rule("ruling.flip-no-basic", z3.Implies(z3.Not(found_any), s == 0))
        skips[k] = s
    stays = enc.bug("flip-leaves-card-in-deck")
    deck = {k: deck1[k] - skips.get(k, 0) - (0 if stays else took.get(k, 0)) for k in KINDS}
    discard = {k: discard1[k] + skips.get(k, 0) for k in KINDS}
    play = {k: play0[k] + took.get(k, 0) for k in KINDS}
    value = z3.Sum([VALUE[k] * took[k] for k in accept])
    record = FlipRecord(active, found_any, resh, pick, accept, skips, value, deck1)
    return z.with_(deck=deck, discard=discard, play=play), record


def cooldown(enc: Enc, z: Zones, amount: z3.ArithRef) -> Zones:
    """react.cooldown: move ``amount`` Heat cards from the hand to the engine."""
    enc.rule("react.cooldown", amount >= 0, amount <= z.hand[HEAT])
    hand = dict(z.hand)
    if not enc.bug("cooldown-copies-heat"):
        hand[HEAT] = hand[HEAT] - amount
    return z.with_(hand=hand, engine=z.engine + amount)


def cooldown_cap(enc: Enc, gear: z3.ArithRef) -> z3.ArithRef:
    """react.cooldown: the gear's cooldown: 3 in 1st, 1 in 2nd, 0 in 3rd and 4th."""
    second = 3 if enc.bug("cooldown-3-in-gear-2") else 1
    first = 2 if enc.bug("cooldown-2-in-gear-1") else 3
    return z3.If(gear == 1, first, z3.If(gear == 2, second, 0))


def pay_engine(enc: Enc, z: Zones, amount: z3.ArithRef, rule: str) -> Zones:
    """corner.pay-heat (and every "pay Heat"): move ``amount`` Heat from the engine to the
    discard pile; the engine must hold them."""
    enc.rule(rule, amount >= 0, amount <= z.engine)
    discard = dict(z.discard)
    discard[HEAT] = discard[HEAT] + amount
    return z.with_(engine=z.engine - amount, discard=discard)


def take_stress(enc: Enc, z: Zones, wanted: z3.ArithRef) -> tuple[Zones, z3.ArithRef]:
    """corner.spin, ruling.stress-supply: take ``wanted`` Stress from the supply into the
    hand, fewer if the supply runs out. Returns the zones and the number taken."""
    unlimited = enc.rulings.chose(STRESS_SUPPLY, "unlimited")  # the alternative's spins
    taken = wanted if enc.bug("spin-stress-ignores-supply") or unlimited else zmin(
        wanted, z.supply)
    hand = dict(z.hand)
    hand[STRESS] = hand[STRESS] + taken
    supply = z.supply if enc.bug("spin-stress-from-nowhere") else z.supply - taken
    return z.with_(hand=hand, supply=supply), taken


def discard_step(enc: Enc, z: Zones, active: z3.BoolRef) -> tuple[Zones, Zone]:
    """discard.optional: discard any hand cards but Heat and Stress."""
    allowed = set(DISCARDABLE)
    if enc.bug("discard-allows-stress"):
        allowed.add(STRESS)
    if enc.bug("discard-allows-heat"):
        allowed.add(HEAT)
    out: Zone = {}
    for k in KINDS:
        d = enc.new_int(f"discard.{k}", lo=0)
        enc.rule("discard.optional", d <= z.hand[k], z3.Implies(z3.Not(active), d == 0))
        if k not in allowed:
            enc.rule("discard.optional", d == 0)
        out[k] = d
    return z.with_(hand=shifted(z.hand, out, -1), discard=shifted(z.discard, out)), out


def replenish(enc: Enc, z: Zones, draw: z3.BoolRef) -> tuple[Zones, DrawRecord]:
    """replenish.cleanup, replenish.draw, deck.reshuffle, replenish.discard-before-draw,
    ruling.replenish-empty, ruling.hand-over-limit: the play area goes to the discard pile,
    then the hand is drawn up to 7; an empty deck is refilled by shuffling the discard pile;
    with both empty the drawing stops; a hand over 7 draws nothing; a car that does not
    draw (``draw`` false: ruling.finished-car-discard-draw's alternative skip) draws nothing.
    Returns the zones and what was drawn."""
    if enc.bug("played-cards-stay"):
        discard, play = dict(z.discard), dict(z.play)
    else:
        discard = {k: z.discard[k] + z.play[k] for k in KINDS}
        play = {k: z3.IntVal(0) for k in KINDS}
    limit = HAND_SIZE - 1 if enc.bug("draw-to-six") else HAND_SIZE
    need = z3.If(draw, zmax(limit - size(z.hand), 0), 0)
    in_deck = size(z.deck)
    resh = need > in_deck
    if enc.bug("replenish-no-reshuffle"):
        enc.rule("deck.reshuffle", z3.Not(resh))
    first: Zone = {}
    for k in KINDS:
        x = enc.new_int(f"draw1.{k}", lo=0)
        enc.rule("replenish.draw", x <= z.deck[k], z3.Implies(resh, x == z.deck[k]))
        first[k] = x
    short_ok = not enc.bug("draw-ignores-short-deck")
    enc.rule("replenish.draw", z3.Implies(z3.Not(resh), size(first) == need) if short_ok
             else size(first) == need)
    keep = enc.bug("reshuffle-keeps-discard")
    deck2 = {k: z3.If(resh, discard[k], z.deck[k] - first[k]) for k in KINDS}
    discard2 = {k: z3.If(resh, discard[k] if keep else 0, discard[k]) for k in KINDS}
    second_need = z3.If(resh, zmin(need - in_deck, size(deck2)), 0)
    second: Zone = {}
    for k in KINDS:
        y = enc.new_int(f"draw2.{k}", lo=0)
        enc.rule("deck.reshuffle", y <= deck2[k])
        second[k] = y
    enc.rule("ruling.replenish-empty", size(second) == second_need)
    hand = {k: z.hand[k] + first[k] + second[k] for k in KINDS}
    deck = {k: deck2[k] - second[k] for k in KINDS}
    record = DrawRecord(first, resh, second, dict(z.deck), need, deck2, second_need)
    return z.with_(hand=hand, deck=deck, discard=discard2, play=play), record

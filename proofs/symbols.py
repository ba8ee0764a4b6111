"""Building blocks of the encoding: card kinds, zone vectors, the encoding context, and
the catalogue of deliberate rule bugs (mutations) used by the negative controls."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace

import z3

from heatcore.heat.rulings import DEFAULT_RULINGS, Rulings

#: Card kinds, with the engine's tokens: basic 1-4, starting upgrades 0 and 5, Stress, Heat.
BASIC: tuple[str, ...] = ("1", "2", "3", "4")
U0, U5, STRESS, HEAT = "U0", "U5", "S", "H"
KINDS: tuple[str, ...] = (*BASIC, U0, U5, STRESS, HEAT)
NON_BASIC: tuple[str, ...] = (U0, U5, STRESS, HEAT)
PLAYABLE: tuple[str, ...] = (*BASIC, U0, U5, STRESS)  # rule play.playable-cards
DISCARDABLE: tuple[str, ...] = (*BASIC, U0, U5)  # rule discard.optional
VALUE: dict[str, int] = {"1": 1, "2": 2, "3": 3, "4": 4, U0: 0, U5: 5, STRESS: 0, HEAT: 0}
#: Cards each player owns for the whole race, besides Heat and Stress (rule setup.deck).
FIXED: dict[str, int] = {"1": 3, "2": 3, "3": 3, "4": 3, U0: 1, U5: 1}
HAND_SIZE = 7
BOX_STRESS = 37
MAX_CARS = 6

#: Deliberate bugs: name -> (rule ID it breaks, what the wrong rule does).
MUTATIONS: dict[str, tuple[str, str]] = {
    "setup-upgrade-heat-in-engine": ("setup.engine",
                                     "the starting-upgrade Heat goes to the engine as well"),
    "setup-hand-six": ("setup.hand", "starting hands hold 6 cards"),
    "shift-two-free": ("gear.shift.two-costs-heat", "a two-gear shift costs nothing"),
    "shift-two-heat-vanishes": ("gear.shift.two-costs-heat",
                                "the Heat paid for a two-gear shift leaves the game"),
    "shift-three-allowed": ("gear.shift.no-three", "a three-gear shift is allowed"),
    "heat-playable": ("play.heat-not-playable", "Heat may be played as a speed-0 card"),
    "cluttered-when-not-forced": ("play.cluttered-only-when-forced",
                                  "the cluttered play may be chosen at will"),
    "cluttered-keeps-gear": ("play.cluttered", "a cluttered car keeps its gear"),
    "cluttered-moves": ("play.cluttered", "a cluttered car moves its card speed"),
    "flip-accepts-upgrades": ("reveal.stress-flip", "a flip stops at the 0 and 5 upgrades"),
    "flip-no-reshuffle": ("deck.reshuffle",
                          "a flip that runs out of deck stops instead of reshuffling"),
    "flip-leaves-card-in-deck": ("reveal.stress-flip",
                                 "the basic card found stays in the deck as well"),
    "reshuffle-includes-play-area": ("deck.reshuffle",
                                     "a reshuffle during a flip takes the play area in too"),
    "placement-ignores-occupancy": ("place.blocked", "the car lands on the target spot"),
    "blocked-moves-ahead": ("place.blocked",
                            "a car whose space is full goes on to the next free spot ahead"),
    "placement-ignores-lapped-cars": ("setup.board-space",
                                      "a car may stop on the spot of a car a lap apart"),
    "slipstream-ignores-lapped-cars": ("setup.board-space",
                                       "a car a lap apart gives no slipstream"),
    "place-other-lane-first": ("place.racing-line-first", "the other spot is tried first"),
    "cooldown-3-in-gear-2": ("react.cooldown", "gear 2 cools down 3 Heat"),
    "cooldown-copies-heat": ("react.cooldown", "cooldown adds Heat to the engine but leaves "
                             "the Heat card in hand"),
    "boost-free": ("react.boost", "a boost costs no Heat"),
    "adrenaline-not-in-speed": ("adrenaline.effects",
                                "the adrenaline +1 moves the car but is not added to speed"),
    "slipstream-adds-speed": ("slipstream.speed-unchanged", "slipstream adds 2 to the speed"),
    "slipstream-past-finish": ("slipstream.not-past-finish",
                               "slipstream may cross the final finish line"),
    "slipstream-two-ahead": ("slipstream.eligible",
                             "a car two spaces ahead also gives slipstream"),
    "corner-once-per-turn": ("corner.check", "only the first corner line crossed is checked"),
    "corner-uses-distance": ("place.speed-unchanged",
                             "corners compare the spaces moved, not the speed"),
    "engine-debt": ("corner.spin", "a car that cannot pay goes into Heat debt, no spin"),
    "heat-paid-from-hand": ("corner.pay-heat",
                            "corner Heat is paid from the hand instead of the engine"),
    "corner-after-finish-counts": ("corner.after-finish-ignored",
                                   "corner lines after the final finish line are checked"),
    "spin-lands-past-line": ("corner.spin", "a spinning car is placed just after the line"),
    "spin-one-space-short": ("corner.spin",
                             "a spinning car is placed one space further back"),
    "spin-keeps-gear": ("corner.spin", "a spinning car keeps its gear"),
    "spin-stress-from-nowhere": ("corner.spin",
                                 "spin Stress is added to the hand but not taken from the supply"),
    "spin-stress-ignores-supply": ("ruling.stress-supply",
                                   "a spin takes its Stress even from an empty supply"),
    "discard-allows-stress": ("discard.optional", "Stress may be discarded from hand"),
    "discard-allows-heat": ("discard.optional", "Heat may be discarded from hand"),
    "played-cards-stay": ("replenish.cleanup", "played cards stay in the play area"),
    "draw-to-six": ("replenish.draw", "the hand is refilled to 6 cards"),
    "reshuffle-keeps-discard": ("deck.reshuffle",
                                "a reshuffle copies the discard pile into the deck"),
    "order-ignores-racing-line": ("order.fixed-at-round-start",
                                  "cars are ordered by space only"),
    "order-ascending": ("order.fixed-at-round-start", "the rearmost car goes first"),
    "order-resorted-each-turn": ("order.fixed-at-round-start",
                                 "the order is sorted again after every turn"),
    "adrenaline-by-remaining-cars": ("adrenaline.count-fixed",
                                     "the adrenaline count uses the cars still racing"),
    # bugs that remove behaviour: caught by refinement and by the totality proof
    "replenish-no-reshuffle": ("deck.reshuffle",
                               "the replenish may not reshuffle the discard pile"),
    "slipstream-no-beside": ("slipstream.eligible",
                             "a car beside gives no slipstream (only a car ahead does)"),
    "cooldown-2-in-gear-1": ("react.cooldown", "gear 1 cools down 2 Heat, not 3"),
    "boost-needs-two-heat": ("react.boost", "a boost needs 2 Heat in the engine"),
    "no-spin-in-gear-2": ("corner.spin", "a car in gear 2 never spins"),
    "draw-ignores-short-deck": ("replenish.draw",
                                "the draw takes every card it needs from the deck, even "
                                "when the deck holds fewer"),
}


@dataclass(frozen=True)
class Zones:
    """One player's cards: counts per kind in hand, deck, discard and play area, the Heat in
    the engine, and the shared Stress supply."""

    hand: dict[str, z3.ArithRef]
    deck: dict[str, z3.ArithRef]
    discard: dict[str, z3.ArithRef]
    play: dict[str, z3.ArithRef]
    engine: z3.ArithRef
    supply: z3.ArithRef

    def total(self, kind: str) -> z3.ArithRef:
        """Cards of ``kind`` the player owns in any zone (engine included for Heat)."""
        out = self.hand[kind] + self.deck[kind] + self.discard[kind] + self.play[kind]
        return out + self.engine if kind == HEAT else out

    def with_(self, **changes: object) -> Zones:
        """A copy with some fields replaced."""
        return replace(self, **changes)  # type: ignore[arg-type]


def size(zone: dict[str, z3.ArithRef], kinds: Iterable[str] = KINDS) -> z3.ArithRef:
    """Number of cards of the given kinds in a zone."""
    return z3.Sum([zone[k] for k in kinds])


def shifted(zone: dict[str, z3.ArithRef], delta: dict[str, z3.ArithRef],
            sign: int = 1) -> dict[str, z3.ArithRef]:
    """``zone`` plus (or minus) ``delta`` per kind."""
    return {k: zone[k] + sign * delta[k] if k in delta else zone[k] for k in zone}


@dataclass
class Enc:
    """The encoding context: fresh symbols, rule-tagged constraints, active mutations."""

    prefix: str
    bugs: frozenset[str] = frozenset()
    #: The race's rulings (heatcore.heat.rulings): the alternative each switchable ruling takes.
    rulings: Rulings = DEFAULT_RULINGS
    constraints: list[tuple[str, z3.BoolRef]] = field(default_factory=list)
    _count: int = 0

    def __post_init__(self) -> None:
        unknown = self.bugs - MUTATIONS.keys()
        if unknown:
            raise KeyError(f"unknown mutations: {sorted(unknown)}")

    def name(self, name: str) -> str:
        """A unique symbol name."""
        self._count += 1
        return f"{self.prefix}.{name}#{self._count}"

    def new_int(self, name: str, lo: int | None = None, hi: int | None = None,
            rule: str = "domain") -> z3.ArithRef:
        """A fresh integer symbol, optionally bounded."""
        v = z3.Int(self.name(name))
        if lo is not None:
            self.rule(rule, v >= lo)
        if hi is not None:
            self.rule(rule, v <= hi)
        return v

    def new_bool(self, name: str) -> z3.BoolRef:
        """A fresh boolean symbol."""
        return z3.Bool(self.name(name))

    def zone(self, name: str) -> dict[str, z3.ArithRef]:
        """A fresh zone of non-negative counts."""
        return {k: self.new_int(f"{name}.{k}", lo=0) for k in KINDS}

    def rule(self, rule_id: str, *exprs: z3.BoolRef | bool) -> None:
        """Add constraints carrying out rule ``rule_id``."""
        for e in exprs:
            self.constraints.append((rule_id, z3.BoolVal(e) if isinstance(e, bool) else e))

    def bug(self, name: str) -> bool:
        """Whether the deliberate bug ``name`` is switched on."""
        if name not in MUTATIONS:
            raise KeyError(name)
        return name in self.bugs

    def formula(self) -> list[z3.BoolRef]:
        """All constraints."""
        return [e for _, e in self.constraints]


def zmin(a: z3.ArithRef, b: z3.ArithRef | int) -> z3.ArithRef:
    """The smaller of two terms."""
    return z3.If(a <= b, a, b)


def zmax(a: z3.ArithRef, b: z3.ArithRef | int) -> z3.ArithRef:
    """The larger of two terms."""
    return z3.If(a >= b, a, b)

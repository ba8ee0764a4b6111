"""Rallyman GT actions: every choice and every chance outcome, each with a canonical string."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Lay:
    """Plan: lay ``die`` (``G1``..``G6`` or ``C``) on the space ``to``."""

    car: int
    die: str
    to: str

    def __str__(self) -> str:
        return f"P{self.car + 1} lay {self.die} {self.to}"


@dataclass(frozen=True, slots=True)
class Go:
    """End the plan and roll: ``one`` die at a time, or ``flat`` out."""

    car: int
    mode: str

    def __str__(self) -> str:
        return f"P{self.car + 1} go {self.mode}"


@dataclass(frozen=True, slots=True)
class Focus:
    """Spend focus to fix the next space's dice on safe faces."""

    car: int

    def __str__(self) -> str:
        return f"P{self.car + 1} focus"


@dataclass(frozen=True, slots=True)
class Roll:
    """Roll the next space's dice."""

    car: int

    def __str__(self) -> str:
        return f"P{self.car + 1} roll"


@dataclass(frozen=True, slots=True)
class Stop:
    """End the turn before rolling the next die."""

    car: int

    def __str__(self) -> str:
        return f"P{self.car + 1} stop"


@dataclass(frozen=True, slots=True)
class Dice:
    """Chance: the dice results, one group per space rolled (``!`` warning, ``-`` safe)."""

    car: int
    results: tuple[tuple[bool, ...], ...]

    def __str__(self) -> str:
        groups = "/".join("".join("!" if w else "-" for w in g) for g in self.results)
        return f"P{self.car + 1} dice {groups}"


@dataclass(frozen=True, slots=True)
class Keep:
    """After a loss of control: leave the rolled dice where they lie."""

    car: int

    def __str__(self) -> str:
        return f"P{self.car + 1} keep"


@dataclass(frozen=True, slots=True)
class Relay:
    """After a loss of control: re-lay one rolled die (with the brake/boost dice it needs,
    by result) on the space ``to``. Dice are written ``G3``/``G3!``, ``C``/``C!``, ``B``/``B!``,
    ``U``/``U!``."""

    car: int
    dice: tuple[str, ...]
    to: str

    def __str__(self) -> str:
        return f"P{self.car + 1} relay {' '.join(self.dice)} {self.to}"


@dataclass(frozen=True, slots=True)
class Side:
    """00 in the middle lane: leave the track on the lane-1 or the lane-3 edge."""

    car: int
    edge: int

    def __str__(self) -> str:
        return f"P{self.car + 1} off {self.edge}"


@dataclass(frozen=True, slots=True)
class Draw:
    """Chance: the damage token drawn from the bag."""

    car: int
    token: str

    def __str__(self) -> str:
        return f"P{self.car + 1} draw {self.token}"


@dataclass(frozen=True, slots=True)
class Pit:
    """At the end of the turn: stop in the pit ``lane`` (tyres, repair, both) or ``none``."""

    car: int
    lane: str

    def __str__(self) -> str:
        return f"P{self.car + 1} pit {self.lane}"


Action = Lay | Go | Focus | Roll | Stop | Dice | Keep | Relay | Side | Draw | Pit

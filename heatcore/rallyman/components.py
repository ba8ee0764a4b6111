"""Dice, dashboards, the loss-of-control table and the damage bag, from
``spec/rallyman/components.toml`` and the race's switches."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any

from heatcore.framework.registry import implements
from heatcore.rallyman.options import Options
from heatcore.rallyman.spec import spec_folder

DOUBLE_ZERO = -1  # the 00 gear marker
TOKENS = ("gear", "brake", "coast", "weather", "yellow", "green")
CLASSES = ("GT6", "GT5", "GT4")
TYRES = ("asphalt", "rain")
WEATHERS = ("dry", "wet")


@cache
def components() -> dict[str, Any]:
    """The raw component tables."""
    return tomllib.loads((spec_folder() / "components.toml").read_text(encoding="utf-8"))


def gear_name(gear: int) -> str:
    """``-1`` -> ``00``; else the number."""
    return "00" if gear == DOUBLE_ZERO else str(gear)


@implements("rgt.dice.warning-faces", "rgt.ruling.warning-faces")
def warning_faces(die: str, options: Options) -> int:
    """Warning faces (of 6) of a die: ``G1``..``G6``, ``C`` (coast), ``B`` (brake),
    ``U`` (boost)."""
    faces = components()["faces"]
    if die == "G3":
        return int(options.gear3_warnings)
    if die.startswith("G"):
        return int(faces["gear"][die[1:]])
    return int(faces[{"C": "coast", "B": "brake", "U": "boost"}[die]])


def warning_chance(die: str, options: Options) -> Fraction:
    """Probability that ``die`` shows a warning."""
    return Fraction(warning_faces(die, options), 6)


@dataclass(frozen=True, slots=True)
class Dashboard:
    """What a dashboard side allows in one turn."""

    gears: tuple[int, ...]
    coast: int
    brake: int
    boost: int
    limit: int


@implements("rgt.dice.dashboard", "rgt.ruling.dashboards", "rgt.damage.no-dice-left",
            "rgt.damage.gear", "rgt.damage.brake", "rgt.damage.coast",
            "rgt.ruling.gear-damage-die")
def dashboard(car_class: str, tyres: str, weather: str, tokens: tuple[str, ...],
              options: Options) -> Dashboard:
    """The dice a car may use this turn (damage tokens taken off) and its warning limit."""
    gear, coast, brake, boost = components()["dashboards"][car_class][tyres][weather]
    lost = tokens.count("gear")
    kept = max(0, gear - lost)
    gears = tuple(range(1, kept + 1)) if options.gear_damage_removes == "highest" \
        else tuple(range(gear - kept + 1, gear + 1))
    limit = int(components()["limits"]["warnings"])
    if not tyres_suit(tyres, weather):
        limit = min(limit, int(options.mismatch_limit))
    return Dashboard(gears, max(0, coast - tokens.count("coast")),
                     max(0, brake - tokens.count("brake")), boost, limit)


def tyres_suit(tyres: str, weather: str) -> bool:
    """Whether the tyres suit the weather (asphalt: dry, rain: wet)."""
    return bool(components()["limits"]["suited"][tyres] == weather)


@implements("rgt.loc.table", "rgt.ruling.loc-table")
def loss_of_control(gear: int, danger: str, options: Options) -> tuple[int, int]:
    """(gear marker after the loss of control, damage tokens to draw)."""
    marker = DOUBLE_ZERO if gear >= int(options.double_zero_from) else 0
    k = int(components()["loss_of_control"]["k"][danger])
    return marker, max(0, gear - k)


def full_bag() -> tuple[int, ...]:
    """Token counts of a full bag, in ``TOKENS`` order."""
    bag = components()["bag"]
    return tuple(int(bag[t]) for t in TOKENS)

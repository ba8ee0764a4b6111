"""The race's switches: each ruling of ``spec/rallyman/rulings.toml`` that carries a
``switch`` is a field here, with the ruling's decision as the default."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, fields
from functools import cache
from typing import Any

from heatcore.framework.errors import MalformedInput
from heatcore.rallyman.spec import spec_folder


@dataclass(frozen=True, slots=True)
class Options:
    """Switches of a Rallyman GT race (the defaults are heatcore's rulings)."""

    gear3_warnings: str = "2"
    mismatch_limit: str = "3"
    double_zero_from: str = "3"
    return_space: str = "loc-space"
    gear_damage_removes: str = "highest"
    first_die_jumps: str = "yes"

    def as_dict(self) -> dict[str, str]:
        """Only the switches that differ from the defaults."""
        base = Options()
        return {f.name: getattr(self, f.name) for f in fields(self)
                if getattr(self, f.name) != getattr(base, f.name)}


@cache
def switches() -> dict[str, tuple[str, tuple[str, ...], str]]:
    """switch name -> (default, allowed values, ruling ID), read from the rulings."""
    data = tomllib.loads((spec_folder() / "rulings.toml").read_text(encoding="utf-8"))
    out: dict[str, tuple[str, tuple[str, ...], str]] = {}
    for raw in data["ruling"]:
        switch = raw.get("switch")
        if switch is not None:
            out[switch["name"]] = (switch["default"], tuple(switch["values"]), raw["id"])
    return out


def options_from_dict(data: Any) -> Options:
    """Options from ``{switch: value}``; MalformedInput names an unknown switch or value."""
    if not isinstance(data, dict):
        raise MalformedInput("rgt.turn.sequence", "options must be an object")
    known = switches()
    for name, value in data.items():
        if name not in known:
            raise MalformedInput("rgt.turn.sequence",
                                 f"unknown switch {name!r} (switches: {', '.join(sorted(known))})")
        if value not in known[name][1]:
            raise MalformedInput(known[name][2], f"switch {name} takes one of "
                                 f"{', '.join(known[name][1])}, not {value!r}")
    return Options(**data)

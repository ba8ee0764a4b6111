"""Rulings as configuration: which alternative of each switchable ruling a race plays under.

A switchable ruling (``spec/rulings.toml``: a ``default`` and alternatives with IDs) is a
switch of the race's setup. :class:`Rulings` holds the choices that differ from the
defaults, so the defaults are the empty value and two equal configurations are equal
values. The IDs the engines test are named here once.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache

from heatcore.framework.errors import MalformedInput
from heatcore.framework.registry import implements, ruleset

STRESS_SUPPLY = "ruling.stress-supply"
CLUTTERED_GEAR = "ruling.cluttered-gear"
ZERO_MOVE = "ruling.zero-move"
BLOCKED_EXTRA_MOVE = "ruling.blocked-extra-move"
BLOCKED_OWN_SPACE = "ruling.blocked-own-space"
SPIN_DISCARD = "ruling.spin-discard"
FINISHED_DISCARD_DRAW = "ruling.finished-car-discard-draw"
SETBACK_CORNER = "ruling.setback-corner"
#: The ruling a refusal of input that is no race rests on (a file, a rulings configuration).
UNREADABLE = "ruling.unreadable-input"
# module rulings (weather, Legends, Garage): they change nothing in a race without the module
COOLING_BONUS_COOLDOWN = "ruling.cooling-bonus-own-cooldown"
SLIPSTREAM_BONUS_PART = "ruling.slipstream-bonus-all-or-nothing"
FREE_BOOST_ENGINE = "ruling.free-boost-empty-engine"
LEGEND_BLOCKED_SPOT = "ruling.legend-blocked-spot"
LEGEND_ADRENALINE_COUNT = "ruling.legend-adrenaline-count"
GARAGE_ADJUST = "ruling.garage-adjust"
GARAGE_SALVAGE = "ruling.garage-salvage-few"
#: The switchable rulings of the modules (they change nothing in a core race).
MODULE_RULINGS = frozenset({COOLING_BONUS_COOLDOWN, SLIPSTREAM_BONUS_PART, FREE_BOOST_ENGINE,
                            LEGEND_BLOCKED_SPOT, LEGEND_ADRENALINE_COUNT, GARAGE_ADJUST,
                            GARAGE_SALVAGE})

#: Every (ruling, alternative) the engines know how to play, besides the defaults.
KNOWN_ALTERNATIVES = frozenset({
    (STRESS_SUPPLY, "unlimited"),
    (CLUTTERED_GEAR, "free-shifts-only"),
    (ZERO_MOVE, "place"),
    (BLOCKED_EXTRA_MOVE, "must-gain"),
    (BLOCKED_OWN_SPACE, "stay"),
    (SPIN_DISCARD, "straight-to-replenish"),
    (FINISHED_DISCARD_DRAW, "skip"),
    (SETBACK_CORNER, "checked"),
    (COOLING_BONUS_COOLDOWN, "gear-plus-one"),
    (SLIPSTREAM_BONUS_PART, "any-part"),
    (FREE_BOOST_ENGINE, "needs-heat"),
    (LEGEND_BLOCKED_SPOT, "stay"),
    (LEGEND_ADRENALINE_COUNT, "players-only"),
    (GARAGE_ADJUST, "unclamped"),
    (GARAGE_SALVAGE, "cards-only"),
})


@cache
def switches() -> dict[str, tuple[str, ...]]:
    """Every switchable ruling -> its choices, the default first (from ``spec/``)."""
    return {e.id: e.choices for e in ruleset() if e.kind == "ruling" and e.choices}


@dataclass(frozen=True, slots=True)
class Rulings:
    """The chosen alternatives that differ from the defaults, as (ruling ID, choice) pairs
    sorted by ruling ID. ``Rulings()`` is the default configuration."""

    changed: tuple[tuple[str, str], ...] = ()

    def __getitem__(self, ruling_id: str) -> str:
        """The choice for ``ruling_id`` (its default unless changed)."""
        for key, choice in self.changed:
            if key == ruling_id:
                return choice
        return switches()[ruling_id][0]

    def chose(self, ruling_id: str, alternative: str) -> bool:
        """Whether this configuration plays ``alternative`` of ``ruling_id``."""
        return (ruling_id, alternative) in self.changed

    def as_dict(self) -> dict[str, str]:
        """Every switchable ruling -> its choice, sorted by ruling ID (the JSON form; a new
        dict each call)."""
        return dict(_as_dict(self))

    def shared_dict(self) -> dict[str, str]:
        """``as_dict``, the same dict object every call: read-only."""
        return _as_dict(self)

    def __repr__(self) -> str:
        return f"make_rulings({dict(self.changed)!r})"


DEFAULT_RULINGS = Rulings()


@implements(UNREADABLE)
def make_rulings(chosen: Mapping[str, str]) -> Rulings:
    """The configuration choosing ``chosen`` (ruling ID -> choice; rulings left out keep
    their default). Raises MalformedInput naming :data:`UNREADABLE` for an unknown or fixed
    ruling, the ruling itself for an unknown choice."""
    table = switches()
    changed = []
    for ruling_id, choice in chosen.items():
        if not isinstance(ruling_id, str) or ruling_id not in table:
            fixed = ruling_id in ruleset().entries if isinstance(ruling_id, str) else False
            what = "is not a switchable ruling" if fixed else "is not a ruling"
            raise MalformedInput(UNREADABLE, f"{ruling_id!r} {what} (switchable: "
                                 f"{', '.join(sorted(table))})")
        if not isinstance(choice, str) or choice not in table[ruling_id]:
            raise MalformedInput(ruling_id, f"{choice!r} is not a choice of {ruling_id} "
                                 f"({', '.join(table[ruling_id])})")
        if choice != table[ruling_id][0]:
            changed.append((ruling_id, choice))
    return Rulings(tuple(sorted(changed)))


def parse_ruling_option(text: str) -> tuple[str, str]:
    """``ID=ALTERNATIVE`` (the command line's ``--ruling``) -> (ruling ID, choice); the
    ``ruling.`` prefix may be left out."""
    ruling_id, sep, choice = text.partition("=")
    if not sep or not ruling_id or not choice:
        raise MalformedInput(UNREADABLE, f"{text!r} is not ID=ALTERNATIVE")
    if not ruling_id.startswith("ruling."):
        ruling_id = "ruling." + ruling_id
    make_rulings({ruling_id: choice})
    return ruling_id, choice


@cache
def _as_dict(rulings: Rulings) -> dict[str, str]:
    """``Rulings.as_dict``, made once per configuration (written out with every state).
    Shared: do not modify."""
    return {key: rulings[key] for key in sorted(switches())}

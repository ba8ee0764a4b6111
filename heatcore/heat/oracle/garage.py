"""The model's own reading of the Garage module: the upgrade cards and their symbols.

Written from the rule text (``spec/rules/22-garage.toml`` and the garage rulings) with the
printed data of ``spec/modules/garage.json``; nothing here comes from
:mod:`heatcore.heat.modules.garage`.
A symbol is looked up by its name in the card's printed list, so a card the data file
changes changes the model with it.
"""

from __future__ import annotations

import json
from collections import Counter
from functools import cache
from itertools import product
from typing import Any

from heatcore.framework.registry import spec_dir
from heatcore.heat.actions import Action, ChooseSpeed, UseSymbol

HEAT = "H"
STRESS = "S"
#: The symbols that are React choices on a card in the play area (the others act at
#: reveal, at the slipstream or at the corner check; Direct play acts from the hand).
REACT = ("heat", "cooldown", "reduce", "scrap", "salvage", "refresh", "accelerate")


@cache
def _cards() -> dict[str, dict[str, Any]]:
    """Printed upgrade cards by the token they have in a deck (Heat types left out), then
    the Championship's printed Sponsorship cards (sponsor.play: the same symbols)."""
    data = json.loads((spec_dir() / "modules" / "garage.json").read_text(encoding="utf-8"))
    cards = {f"G{c['type']}": c for c in data["cards"] if c["token"] != HEAT}
    champ = json.loads((spec_dir() / "modules" / "championship.json").read_text(
        encoding="utf-8"))
    return cards | {f"S{c['type']}": c for c in champ["sponsors"]["cards"]}


@cache
def sponsor_box() -> Counter[str]:
    """The printed Sponsorship cards, copies by token (sponsor.deck)."""
    champ = json.loads((spec_dir() / "modules" / "championship.json").read_text(
        encoding="utf-8"))
    return Counter({f"S{c['type']}": int(c["copies"]) for c in champ["sponsors"]["cards"]})


def is_sponsor(card: str) -> bool:
    """Whether ``card`` is a Sponsorship card: used once (sponsor.one-time)."""
    return card in sponsor_box()


@cache
def _mandatory() -> frozenset[str]:
    data = json.loads((spec_dir() / "modules" / "garage.json").read_text(encoding="utf-8"))
    return frozenset(s["id"] for s in data["symbols"] if s["mandatory"])


def is_upgrade(card: str) -> bool:
    """Whether ``card`` is an upgrade (or Sponsorship) card: printed speeds and symbols."""
    return card in _cards()


def tokens() -> tuple[str, ...]:
    """Upgrade tokens in printed (type) order."""
    return tuple(_cards())


def speeds(card: str) -> tuple[int, ...]:
    """The printed speeds of an upgrade (several: chosen at reveal)."""
    return tuple(_cards()[card]["speed"])


def printed(card: str, symbol: str) -> int:
    """The amount printed beside ``symbol`` on ``card`` (0 if absent or a core card)."""
    entry = _cards().get(card)
    if entry is None:
        return 0
    return sum(int(s["amount"]) for s in entry["symbols"] if s["symbol"] == symbol)


def symbol_list(card: str) -> list[tuple[str, int]]:
    """The card's symbols as printed, in order."""
    return [(s["symbol"], int(s["amount"])) for s in _cards()[card]["symbols"]]


def speed_options(i: int, played: tuple[str, ...]) -> set[Action]:
    """garage.choose-speed: one speed per choose-speed card, in play order."""
    options = [speeds(c) for c in played if is_upgrade(c) and len(speeds(c)) > 1]
    return {ChooseSpeed(i, tuple(p)) for p in product(*options)}


def increases(played: tuple[str, ...], boosted: bool) -> int:
    """upgrade.speed-increase: Stress played, + on upgrades in play, the gear's boost."""
    return (played.count(STRESS) + sum(printed(c, "boost") for c in played)
            + (1 if boosted else 0))


def react_options(i: int, hand: Counter[str], discard: Counter[str],
                  played: tuple[str, ...], used: Counter[str], boosted: bool,
                  cooling: bool, sub: Any) -> set[Action]:
    """The upgrade symbols a player may use now (upgrade.* rules): each symbol of each
    copy in the play area once; Direct play of a card in hand. ``sub`` enumerates
    sub-multisets (the model's own helper)."""
    out: set[Action] = set()
    for card in set(played):
        if not is_upgrade(card):
            continue
        for symbol, n in symbol_list(card):
            if symbol not in REACT or used[f"{card} {symbol}"] >= played.count(card):
                continue
            if symbol == "cooldown":
                heat = hand[HEAT] if cooling else 0
                out |= {UseSymbol(i, card, symbol, k) for k in range(1, min(n, heat) + 1)}
            elif symbol == "reduce":
                out |= {UseSymbol(i, card, symbol, k)
                        for k in range(1, min(n, hand[STRESS]) + 1)}
            elif symbol == "salvage":
                out |= {UseSymbol(i, card, symbol, 0, taken)
                        for size in range(1, min(n, sum(discard.values())) + 1)
                        for taken in sub(discard, size)}
            elif symbol == "accelerate":
                if increases(played, boosted):
                    out.add(UseSymbol(i, card, symbol))
            else:  # heat (upgrade.heat: resolved in React), scrap, refresh
                out.add(UseSymbol(i, card, symbol))
    out |= {UseSymbol(i, c, "direct") for c, k in hand.items()
            if k > 0 and printed(c, "direct")}
    return out


def mandatory_left(played: tuple[str, ...], used: Counter[str]) -> bool:
    """garage.mandatory: a mandatory React symbol of a card in play is still unused."""
    return any(s in REACT and s in _mandatory() and used[f"{c} {s}"] < played.count(c)
               for c in set(played) if is_upgrade(c) for s, _ in symbol_list(c))


def slipstream_sums(bonus: int, played: tuple[str, ...], room: int) -> set[int]:
    """upgrade.slipstream: the sector bonus and each card's +N, each optional, within the
    final finish line (``room`` spaces beyond the slipstream's 2)."""
    sums = {0}
    for extra in (bonus, *(printed(c, "slipstream") for c in played)):
        if extra:
            sums |= {s + extra for s in sums}
    return {s for s in sums if s == 0 or s <= room}

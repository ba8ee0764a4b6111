"""The upgrade cards of a race in plain words, for the legend printed with its play-by-play:
each card's family, speed and symbols, then what each of those symbols does, all read from
``spec/modules/garage.json``."""

from __future__ import annotations

import textwrap
from collections.abc import Iterable

from heatcore.garage.data import Upgrade, symbols, upgrades


def symbol_text(symbol: str, amount: int) -> str:
    """``Cooldown 3``, ``Boost x2``, ``Adjust -1 (!)``, ``Refresh``; (!) marks a mandatory
    symbol."""
    info = symbols()[symbol]
    if symbol == "boost":
        words = "Boost" if amount == 1 else f"Boost x{amount}"
    elif info.amount == "none":
        words = info.name
    elif symbol == "slipstream":
        words = f"Slipstream +{amount}"
    elif info.amount == "signed":
        words = f"{info.name} {amount:+d}"
    else:
        words = f"{info.name} {amount}"
    return words + (" (!)" if info.mandatory else "")


def card_text(up: Upgrade) -> str:
    """``G5 (Body): speed 5; Reduce stress 1``: one upgrade type in a line."""
    if up.heat_card:
        return f"{up.market} ({up.family}): a Heat card in the deck (shown as H)"
    speed = " or ".join(map(str, up.speeds)) + (" (chosen at reveal)" if len(up.speeds) > 1
                                                else "")
    signs = ", ".join(symbol_text(s, n) for s, n in up.symbols) or "no symbols"
    return f"{up.market} ({up.family}): speed {speed}; {signs}"


def upgrade_legend(markets: Iterable[str], width: int = 100) -> list[str]:
    """The lines that explain the upgrade types ``markets`` (``G5``...) and their symbols,
    wrapped to ``width``; none when there are no upgrades."""
    table = upgrades()
    ups = [table[m] for m in sorted(set(markets), key=lambda m: table[m].type)]
    if not ups:
        return []
    lines = ["Upgrades in this race (spec/modules/garage.json; (!) = mandatory):"]
    lines += ["  " + card_text(up) for up in ups]
    used = {s for up in ups for s, _ in up.symbols}
    for symbol in (s for s in symbols() if s in used):  # the data file's order
        info = symbols()[symbol]
        lines += textwrap.wrap(f"{info.name}: {info.text}", width, initial_indent="  ",
                               subsequent_indent="    ")
    return lines

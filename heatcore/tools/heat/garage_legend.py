"""The upgrade cards of a race in plain words, for the legend printed with its play-by-play:
each card's family, speed and symbols, then what each of those symbols does, all read from
``spec/modules/garage.json``."""

from __future__ import annotations

import textwrap
from collections.abc import Iterable

from heatcore.heat.modules.championship.data import sponsor_types
from heatcore.heat.modules.garage.data import Upgrade, sponsor_cards, symbols, upgrades


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


def card_text(up: Upgrade, label: str | None = None) -> str:
    """``G5 (Body): speed 5; Reduce stress 1``: one card type in a line, headed by
    ``label`` (default: the upgrade's market name and family)."""
    head = label or f"{up.market} ({up.family})"
    if up.heat_card:
        return f"{head}: a Heat card in the deck (shown as H)"
    speed = " or ".join(map(str, up.speeds)) + (" (chosen at reveal)" if len(up.speeds) > 1
                                                else "")
    signs = ", ".join(symbol_text(s, n) for s, n in up.symbols) or "no symbols"
    return f"{head}: speed {speed}; {signs}"


def _symbol_lines(cards: Iterable[Upgrade], width: int) -> list[str]:
    """What each symbol printed on ``cards`` does, in the data file's order, wrapped."""
    used = {s for up in cards for s, _ in up.symbols}
    lines: list[str] = []
    for symbol in (s for s in symbols() if s in used):
        info = symbols()[symbol]
        lines += textwrap.wrap(f"{info.name}: {info.text}", width, initial_indent="  ",
                               subsequent_indent="    ")
    return lines


def upgrade_legend(markets: Iterable[str], width: int = 100) -> list[str]:
    """The lines that explain the upgrade types ``markets`` (``G5``...) of a race and their
    symbols, wrapped to ``width``; none when there are no upgrades."""
    return card_legend(markets, width, "in this race")


def card_legend(tokens: Iterable[str], width: int = 100, where: str = "named above"
                ) -> list[str]:
    """The lines that explain the upgrade (``G5``) and Sponsorship (``S80``) cards
    ``tokens`` and their symbols, headed ``Upgrades {where}``, wrapped to ``width``; none
    when there are none."""
    names = set(tokens)
    table, sponsors = upgrades(), sponsor_cards()
    ups = [table[m] for m in sorted(names & table.keys(), key=lambda m: table[m].type)]
    spons = [sponsors[t] for t in sorted(names & sponsors.keys())]
    lines = []
    if ups:
        lines.append(f"Upgrades {where} (spec/modules/garage.json; (!) = mandatory):")
        lines += ["  " + card_text(up) for up in ups]
    if spons:
        lines.append(f"Sponsorship cards {where} (spec/modules/championship.json; each is "
                     "used once):")
        lines += ["  " + card_text(up, f"{up.token} {sponsor_types()[up.token].name}")
                  for up in spons]
    return lines + _symbol_lines([*ups, *spons], width)

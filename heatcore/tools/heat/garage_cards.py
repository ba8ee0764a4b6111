"""The Garage's card list as reStructuredText: one small table per upgrade type, read from
``spec/modules/garage.json`` (the rulebook appends it to the Garage chapter)."""

from __future__ import annotations

from heatcore.heat.modules.garage.data import Upgrade, symbols, upgrades


def _amount(symbol: str, n: int) -> str:
    """``Cooldown 3``, ``Adjust -1``, ``+ x2``, ``Refresh`` (no amount)."""
    name = symbols()[symbol].name
    if symbol == "boost":
        return "+" if n == 1 else f"+ x{n}"
    if symbols()[symbol].amount == "none":
        return name
    if symbol == "slipstream":
        return f"Slipstream +{n}"
    if symbol == "adjust":
        return f"Adjust {n:+d} (!)"
    mark = " (!)" if symbols()[symbol].mandatory else ""
    return f"{name} {n}{mark}"


def card_table(up: Upgrade, title: str | None = None) -> str:
    """One card as a two-column list table (titled ``title``, by default its market name
    and family)."""
    speed = " or ".join(map(str, up.speeds)) + (" (choose at reveal)" if len(up.speeds) > 1
                                                else "")
    rows = [("Deck", f"{up.deck}, {up.copies} copies"), ("Family", up.family)]
    if up.heat_card:
        rows.append(("Plays as", "a Heat card in the deck (ruling.garage-heat-card)"))
    else:
        rows += [("Speed", speed),
                 ("Symbols", ", ".join(_amount(s, n) for s, n in up.symbols) or "none")]
    out = [f".. list-table:: {title or f'{up.market} ({up.family})'}\n   :widths: 1 3\n\n"]
    for key, value in rows:
        out.append(f"   * - {key}\n     - {value}\n")
    return "".join(out) + "\n"


def cards_rst() -> str:
    """Every upgrade type, basic deck then advanced, each as a table."""
    out = ["The upgrade cards\n-----------------\n\n",
           "Every upgrade type as ``spec/modules/garage.json`` gives it (values from the online "
           "adaptation, not checked against the printed cards). (!) marks a mandatory symbol.\n\n"]
    for up in upgrades().values():
        out.append(card_table(up))
    return "".join(out)

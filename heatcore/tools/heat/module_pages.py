"""The Legends' and the weather's cards and tokens as reStructuredText tables, read through
:mod:`heatcore.heat.modules.legends` and :mod:`heatcore.heat.modules.weather` from ``spec/modules``
(the rulebook
appends them to the modules' chapters, as it does the Garage's cards)."""

from __future__ import annotations

from collections.abc import Sequence

from heatcore.heat.modules.legends import colours, legend_cards
from heatcore.heat.modules.weather import road_tokens, weather_tokens

#: What each sector effect of a weather token does (rules weather.*).
SECTOR_EFFECTS = {
    "no-cooldown": "no cooldown in its sectors (weather.no-cooldown)",
    "no-slipstream": "no slipstream from its sectors (weather.no-slipstream)",
    "slipstream-plus-2": ("a slipstream from its sectors may go 2 spaces further "
                          "(weather.slipstream-boost)"),
    "cooling-bonus": "one extra cooldown in its sectors, any gear (weather.cooling-bonus)",
}

#: What each road-condition token does where it lies (rules road.*).
ROAD_EFFECTS = {
    "weather": "the weather token's sector effect (weather.sector-only)",
    "overheat": "one Heat more for a car too fast at this corner (road.overheat)",
    "limit-minus": "the corner's speed limit 1 lower (road.limit)",
    "limit-plus": "the corner's speed limit 1 higher (road.limit)",
    "free-boost": "a boost in the sector costs no Heat (road.free-boost)",
    "slipstream-plus-1": ("a slipstream from the sector may go 1 space further "
                          "(road.slipstream-boost)"),
}


def _table(caption: str, header: tuple[str, ...], rows: Sequence[tuple[str, ...]]) -> str:
    out = [f".. list-table:: {caption}\n   :header-rows: 1\n\n"]
    for row in (header, *rows):
        out.append("".join(f"   {'*' if k == 0 else ' '} - {cell}\n"
                           for k, cell in enumerate(row)))
    return "".join(out) + "\n"


def legends_rst() -> str:
    """Every Legend card: for each colour its diamond (the column) and helmet number."""
    out = ["The Legend cards\n----------------\n\n",
           "Every Legend card as ``spec/modules/legends.json`` gives it (values from the "
           "online adaptation). Each cell is a colour's diamond value and helmet number "
           "(legend.card).\n\n"]
    for card, by_colour in legend_cards().items():
        rows = [(colour, str(by_colour[colour][0]), str(by_colour[colour][1]))
                for colour in colours() if colour in by_colour]
        out.append(_table(f"Legend card {card}", ("Colour", "Diamond", "Helmet"), rows))
    return "".join(out)


def weather_rst() -> str:
    """Every weather token (its setup change and sector effect) and road-condition token."""
    out = ["The weather and road tokens\n---------------------------\n\n",
           "Every token as ``spec/modules/weather.json`` gives it. Setup changes are counts "
           "of cards (weather.setup-change).\n\n"]
    rows = []
    for token in weather_tokens().values():
        setup = [f"Stress in deck {token.stress_in_deck:+d}" if token.stress_in_deck else "",
                 f"Heat in engine {token.heat_in_engine:+d}" if token.heat_in_engine else "",
                 f"{token.heat_to_deck} Heat to the deck" if token.heat_to_deck else "",
                 f"{token.heat_to_discard} Heat to the discard pile"
                 if token.heat_to_discard else ""]
        rows.append((token.name, ", ".join(s for s in setup if s) or "none",
                     SECTOR_EFFECTS.get(token.sector, token.sector)))
    out.append(_table("Weather tokens", ("Token", "Setup", "Sector effect"), rows))
    out.append(_table("Road-condition tokens", ("Token", "Placed", "Effect", "In the box"), [
        (road.name, "by its corner" if road.placement == "corner"
         else "in the sector after its corner", ROAD_EFFECTS.get(road.id, road.id),
         str(road.count))
        for road in road_tokens().values()]))
    return "".join(out)

"""The modules' chapters draw every card and token: each Garage upgrade type, each Legend
card (every colour with its diamond and helmet) and each weather and road token, read from
spec/modules here and looked for in the tables."""

from __future__ import annotations

import json
from pathlib import Path

from heatcore.tools.heat.garage_cards import cards_rst
from heatcore.tools.heat.module_pages import legends_rst, weather_rst

MODULES = Path(__file__).resolve().parent.parent / "spec" / "modules"


def _spec(name: str) -> dict[str, object]:
    data: dict[str, object] = json.loads((MODULES / f"{name}.json").read_text(encoding="utf-8"))
    return data


def test_the_garage_chapter_draws_every_upgrade_type() -> None:
    page = cards_rst()
    cards = _spec("garage")["cards"]
    assert isinstance(cards, list) and len(cards) == 48
    for card in cards:
        assert f".. list-table:: G{card['type']} ({card['family']})" in page


def test_the_legends_chapter_draws_every_legend_card_with_every_colour() -> None:
    page = legends_rst()
    cards = _spec("legends")["cards"]
    assert isinstance(cards, list) and len(cards) == 10
    for card in cards:
        table = page.split(f".. list-table:: Legend card {card['id']}\n")[1].split(
            ".. list-table::")[0]
        for diamond, column in enumerate(card["columns"]):
            for colour, helmet in column.items():
                assert f"* - {colour}\n     - {diamond}\n     - {helmet}\n" in table


def test_the_weather_chapter_draws_every_token() -> None:
    page = weather_rst()
    spec = _spec("weather")
    for token in [*spec["weather"], *spec["road"]]:  # type: ignore[misc]
        assert f"* - {token['name']}\n" in page
    assert page.count("* - ") == 1 + len(spec["weather"]) + 1 + len(spec["road"])  # type: ignore[arg-type]

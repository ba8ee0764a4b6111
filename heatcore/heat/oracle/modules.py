"""The model's own reading of the modules (weather and road conditions, Legends).

Written from the rule text (``spec/rules/20-weather.toml``, ``21-legends.toml``) with the
printed data in ``spec/modules/*.json`` and ``spec/tracks/*.json``; nothing here comes from
:mod:`heatcore.heat.modules.weather`, :mod:`heatcore.heat.modules.legends` or
:mod:`heatcore.heat.track`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from typing import Any

from heatcore.framework.registry import spec_dir
from heatcore.heat.oracle.board import Board


@cache
def _module(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((spec_dir() / "modules" / f"{name}.json").read_text(
        encoding="utf-8"))
    return data


@cache
def _track(track_id: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((spec_dir() / "tracks" / f"{track_id}.json").read_text(
        encoding="utf-8"))
    return data


@dataclass(frozen=True)
class Weather:
    """The race's weather token and road tokens, as the model reads them."""

    token: str
    road: tuple[str, ...]

    def setup(self) -> dict[str, int]:
        """The token's setup change (weather.setup-change)."""
        entry = next(w for w in _module("weather")["weather"] if w["id"] == self.token)
        return dict(entry["setup"])

    def sector_effect(self, board: Board, position: int) -> str | None:
        """road.placement, weather.sector-only: the effect of the sector holding the space of
        ``position`` (the last corner line behind it; before the first, the last corner's)."""
        space = board.space(position)
        corners = board.track.corners
        index = len(corners) - 1
        for k, (after, _) in enumerate(corners):
            if after < space:
                index = k
        token = self.road[index]
        if token == "weather":
            return str(next(w["sector"] for w in _module("weather")["weather"]
                            if w["id"] == self.token))
        placement = next(r["placement"] for r in _module("weather")["road"] if r["id"] == token)
        return token if placement == "sector" else None

    def corner(self, number: int, limit: int, speed: int) -> tuple[int, int]:
        """(limit, Heat to pay) at corner ``number`` for ``speed`` (road.limit,
        road.overheat)."""
        token = self.road[number - 1]
        limit += {"limit-plus": 1, "limit-minus": -1}.get(token, 0)
        excess = speed - limit
        if excess > 0 and token == "overheat":
            excess += 1
        return limit, max(0, excess)


def slipstream_extra(effect: str | None) -> int:
    """weather.slipstream-boost, road.slipstream-boost: optional extra slipstream spaces."""
    return {"slipstream-plus-2": 2, "slipstream-plus-1": 1}.get(effect or "", 0)


def legend_card(card: int, colour: str) -> tuple[int, int]:
    """legend.card: (diamond = column, helmet number) of ``colour`` on ``card``."""
    entry = next(c for c in _module("legends")["cards"] if c["id"] == card)
    for column, printed in enumerate(entry["columns"]):
        if colour in printed:
            return column, int(printed[colour])
    raise KeyError(f"colour {colour} not on Legend card {card}")


def legend_move(board: Board, position: int, diamond: int, helmet: int, aggressive: bool,
                weather: Weather | None) -> tuple[int, str]:
    """How far a Legend at ``position`` moves, and the rule that decides it."""
    data = _track(board.track.id)
    length = board.track.spaces_per_lap
    lines = []  # (line position, corner number, corner data) from the grid lap on
    for lap in range(-1, board.laps):
        for number, corner in enumerate(sorted(data["corners"],
                                               key=lambda c: c["after_space"]), start=1):
            lines.append((corner["after_space"] + length * lap, number, corner))
    lines.sort(key=lambda x: x[0])
    ahead = [x for x in lines if x[0] >= position]
    if not ahead:  # legend.final-lap: the finish line comes first
        return helmet, "legend.final-lap"
    line, number, corner = ahead[0]
    legend_line = line - (corner["after_space"] - corner["legend_line"])
    if position <= legend_line:  # legend.before-line
        if position + helmet <= line:
            return helmet, "legend.before-line"
        return line - diamond - position, "legend.before-line"
    limit = corner["limit"]
    if weather is not None:
        limit, _ = weather.corner(number, limit, 0)
    spaces = limit + diamond  # legend.past-line
    may = 2 if aggressive and line + 1 - position <= corner.get("aggressive_legends", 0) else 1
    crossed = [x[0] for x in ahead if x[0] < position + spaces]
    if len(crossed) > may:  # legend.one-corner (ruling.legend-aggressive-stop)
        return crossed[may] - position, "legend.one-corner"
    return spaces, "legend.past-line"

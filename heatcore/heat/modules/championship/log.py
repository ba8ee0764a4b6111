"""The championship log: the season, the upgrades, and for each race the Sponsorship deck's
order and the race log (setup with its chance outcomes, and every action), with the results
for checking. Replaying it plays every race again and checks each result."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from heatcore.framework.errors import MalformedInput, RulesError
from heatcore.framework.files import write_atomic
from heatcore.framework.registry import implements
from heatcore.heat.modules.championship.data import season
from heatcore.heat.modules.championship.garage import GarageRound, apply_round, full_pool
from heatcore.heat.modules.championship.season import Championship, RaceResult, replay_race
from heatcore.heat.modules.championship.sponsors import new_sponsors
from heatcore.heat.modules.championship.standings import next_grid
from heatcore.heat.notation import parse_action, parse_car, setup_from_dict
from heatcore.heat.racelog import race_to_dict
from heatcore.heat.state import car_name

LOG_FORMAT = "heatcore.championship/1"


def _race_dict(result: RaceResult) -> dict[str, Any]:
    rnd = result.garage
    return {"track": result.season_race.track, "event": result.event.id,
            "garage": {"market": list(rnd.market),
                       "picks": [[car_name(c), card] for c, card in rnd.picks],
                       "swap": list(rnd.swap) if rnd.swap else None},
            "sponsor_order": list(result.sponsor_order), "race": race_to_dict(result.race),
            "result": _race_result(result)}


def _race_result(result: RaceResult) -> dict[str, Any]:
    return {"places": [car_name(c) for c in result.order], "points": list(result.points),
            "eliminated": [car_name(c) for c in result.eliminated],
            "gains": [{"car": car_name(g.car), "card": g.card, "reason": g.reason,
                       "step": g.step, "corner": g.corner} for g in result.gains],
            "standings": [car_name(c) for c in result.standings]}


def championship_to_dict(champ: Championship) -> dict[str, Any]:
    """The championship as JSON data."""
    return {"format": LOG_FORMAT, "season": champ.year, "players": champ.players,
            "weather": champ.weather,
            "races": [_race_dict(r) for r in champ.races],
            "result": {"standings": [car_name(c) for c in champ.standings],
                       "totals": list(champ.totals)}}


def save_championship(champ: Championship, path: Path) -> None:
    """Write the championship log (whole or not at all)."""
    write_atomic(path, json.dumps(championship_to_dict(champ), indent=1) + "\n")


def is_championship_log(data: Any) -> bool:
    """Whether ``data`` is a championship log."""
    return isinstance(data, dict) and data.get("format") == LOG_FORMAT


def _field(data: dict[str, Any], key: str, kind: type, where: str) -> Any:
    value = data.get(key)
    if not isinstance(value, kind) or isinstance(value, bool):
        raise MalformedInput("championship.season", f"{where}: {key!r} must be "
                             f"{kind.__name__}")
    return value


def _garage_round(data: dict[str, Any], players: int, where: str) -> GarageRound:
    """A logged Garage round; MalformedInput naming the field when it cannot be read."""
    market, picks, swap = data.get("market"), data.get("picks"), data.get("swap")
    ok = (isinstance(market, list) and all(isinstance(c, str) for c in market)
          and isinstance(picks, list) and all(
              isinstance(p, list) and len(p) == 2 and all(isinstance(x, str) for x in p)
              for p in picks)
          and (swap is None or (isinstance(swap, list) and len(swap) == 2
                                and all(isinstance(x, str) for x in swap))))
    if not ok:
        raise MalformedInput("championship.garage-round", f"{where}: garage needs market "
                             "(cards), picks ([car, card] pairs) and swap (null or a pair)")
    assert isinstance(market, list) and isinstance(picks, list)
    return GarageRound(tuple(market), tuple((parse_car(c), card) for c, card in picks),
                       (swap[0], swap[1]) if swap else None)


@implements("championship.season")
def replay_championship(log: Any) -> Championship:
    """Replay a championship log race by race; MalformedInput (or the race's rules error)
    naming the race and what differs when it does not reproduce its recorded results."""
    if not is_championship_log(log):
        raise MalformedInput("championship.season", f"not a championship log (format "
                             f"{LOG_FORMAT!r} expected)")
    plan = season(_field(log, "season", int, "championship log"))
    players = _field(log, "players", int, "championship log")
    races = _field(log, "races", list, "championship log")
    weather = log.get("weather", False)
    if not isinstance(weather, bool):
        raise MalformedInput("championship.season", "championship log: 'weather' must be "
                             "true or false")
    if len(races) != len(plan.races):
        raise MalformedInput("championship.season", f"season {plan.year} has "
                             f"{len(plan.races)} races, the log {len(races)}")
    sponsors = new_sponsors(players)
    pool = full_pool()
    upgrades: tuple[tuple[str, ...], ...] = ((),) * players
    totals = (0,) * players
    grid: tuple[int, ...] | None = None
    results: list[RaceResult] = []
    for number, (race, entry) in enumerate(zip(plan.races, races, strict=True), start=1):
        where = f"race {number}"
        if not isinstance(entry, dict) or entry.get("track") != race.track \
                or entry.get("event") != race.event.id:
            raise MalformedInput("championship.season", f"{where}: season {plan.year} races "
                                 f"on {race.track} with event {race.event.id}")
        race_log = _field(entry, "race", dict, where)
        setup = setup_from_dict(race_log.get("setup"))
        texts = _field(race_log, "actions", list, where)
        try:
            rnd = _garage_round(_field(entry, "garage", dict, where), players, where)
            pool, upgrades = apply_round(pool, upgrades, grid or setup.grid, rnd)
            actions = [parse_action(t) for t in texts]
            result = replay_race(number, race, setup, actions,
                                 tuple(_field(entry, "sponsor_order", list, where)), sponsors,
                                 totals, grid, (rnd, pool, upgrades), weather)
        except RulesError as error:
            raise type(error)(error.rule, f"{where}: {error.detail}") from None
        if _race_result(result) != entry.get("result"):
            raise MalformedInput("championship.season", f"{where}: the replay's result "
                                 "differs from the logged one")
        results.append(result)
        sponsors, totals = result.sponsors, result.totals
        grid = next_grid(result.standings)
    champ = Championship(plan.year, players, tuple(results), weather)
    if championship_to_dict(champ)["result"] != log.get("result"):
        raise MalformedInput("championship.season", "the replay's standings differ from the "
                             "logged ones")
    return champ

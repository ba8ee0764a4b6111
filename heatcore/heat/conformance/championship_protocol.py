"""Protocol ``conform/3``: the Championship between races, as ``championship`` requests.

A ``conform/3`` session answers everything a ``conform/2`` one does, and the request
``{"op": "championship", "ask": ASK, ...}`` for each ASK of :data:`ASKS`: the season's races,
an event's setup changes, a Garage round (the draft), the press corners, the Sponsorship
cards a race earns, the points of a race, and the standings and grid after it. The harness
checks an engine that speaks ``conform/3`` and declares the ``championship`` module on the
asks of seeded championships played by heatcore (:func:`checks`); ``conform/1`` and
``conform/2`` sessions are served and checked as before (no ``championship`` request).

Cars are named ``P1``, ``P2``, ... (players in car order); upgrade and Sponsorship cards by
their tokens.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from heatcore.framework.conformance.binding import JSON, Rejected
from heatcore.framework.errors import RulesError
from heatcore.heat.modules.championship import changes as changes_module
from heatcore.heat.modules.championship import garage as garage_module
from heatcore.heat.modules.championship import press as press_module
from heatcore.heat.modules.championship import standings as standings_module
from heatcore.heat.modules.championship.data import events, season

#: The version that carries the Championship.
CHAMPIONSHIP_PROTOCOL = "conform/3"

#: Each ask and the rules it checks (the first is charged when the answer differs).
ASKS: dict[str, tuple[str, ...]] = {
    "season": ("championship.season",),
    "event": ("event.setup-changes",),
    "draft": ("championship.garage-round", "championship.carry-over"),
    "press": ("press.corners",),
    "sponsors": ("sponsor.given-at-once", "press.sponsor", "press.corners"),
    "points": ("championship.points", "event.sponsor-withdraws"),
    "standings": ("championship.standings", "championship.grid", "ruling.championship-ties"),
}


def _car(name: Any, players: int) -> int:
    if not isinstance(name, str) or not name[:1] == "P" or not name[1:].isdigit() \
            or not 1 <= int(name[1:]) <= players:
        raise Rejected("malformed", "championship.season", f"{name!r} is not a car P1..P{players}")
    return int(name[1:]) - 1


def _name(car: int) -> str:
    return f"P{car + 1}"


def _event(request: JSON) -> Any:
    number = request.get("event")
    if not isinstance(number, int) or number not in events():
        raise Rejected("malformed", "event.setup-changes", f"event {number!r} is not an event "
                       "card number")
    return events()[number]


def _ints(value: Any, where: str) -> tuple[int, ...]:
    if not isinstance(value, list) or not all(isinstance(v, int) and not isinstance(v, bool)
                                              for v in value):
        raise Rejected("malformed", "championship.points", f"{where} must be a list of integers")
    return tuple(value)


def _cars(value: Any, players: int, where: str) -> tuple[int, ...]:
    if not isinstance(value, list):
        raise Rejected("malformed", "championship.season", f"{where} must be a list of cars")
    return tuple(_car(v, players) for v in value)


def _strings(value: Any, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise Rejected("malformed", "championship.garage-round", f"{where} must be a list of "
                       "card tokens")
    return tuple(value)


def answer(request: JSON) -> JSON:
    """heatcore's answer to a ``championship`` request (without ``ok``), or Rejected."""
    ask = request.get("ask")
    try:
        if ask == "season":
            year = request.get("year")
            if not isinstance(year, int):
                raise Rejected("malformed", "championship.season", "year must be an integer")
            return {"races": [{"track": r.track, "event": r.event.id}
                              for r in season(year).races]}
        if ask == "event":
            return _event_answer(request)
        if ask == "draft":
            return _draft_answer(request)
        if ask == "press":
            from heatcore.heat.track import load_track

            corners = press_module.press_corners(load_track(str(request.get("track"))),
                                                 _event(request))
            return {"corners": sorted(corners)}
        if ask == "sponsors":
            return _sponsors_answer(request)
        if ask == "points":
            players = request.get("players")
            if not isinstance(players, int) or not 2 <= players <= 7:
                raise Rejected("malformed", "championship.points", "players must be 2 to 7")
            ranking = _cars(request.get("ranking"), players, "ranking")
            out = _cars(request.get("eliminated"), players, "eliminated")
            order = standings_module.result_order(ranking, out)
            points = standings_module.race_points(order, out, _event(request), players)
            return {"order": [_name(c) for c in order], "points": list(points)}
        if ask == "standings":
            totals = _ints(request.get("totals"), "totals")
            last = _cars(request.get("last_order"), len(totals), "last_order")
            order = standings_module.standings(totals, last)
            return {"standings": [_name(c) for c in order],
                    "grid": [_name(c) for c in standings_module.next_grid(order)]}
    except RulesError as error:
        raise Rejected(error.kind, error.rule, str(error)) from None
    raise Rejected("malformed", "championship.season",
                   f"ask must be one of {', '.join(ASKS)}, not {ask!r}")


def _event_answer(request: JSON) -> JSON:
    from heatcore.heat.track import load_track

    event = _event(request)
    track = load_track(str(request.get("track")))
    found = changes_module.changes_of(event)
    laps = track.laps + (event.change(changes_module.LAPS) or 0)
    return {"laps": laps, "heat": found.heat, "stress": found.stress, "hand": found.hand,
            "eliminate": found.eliminate, "sponsors": event.sponsors,
            "points_bonus": list(event.points_bonus)}


def _draft_answer(request: JSON) -> JSON:
    rnd = request.get("round")
    upgrades_in = request.get("upgrades")
    if not isinstance(rnd, dict) or not isinstance(upgrades_in, list):
        raise Rejected("malformed", "championship.garage-round", "a draft ask carries round "
                       "and upgrades")
    players = len(upgrades_in)
    upgrades = tuple(_strings(u, "upgrades[]") for u in upgrades_in)
    grid = _cars(request.get("grid"), players, "grid")
    picks_in = rnd.get("picks")
    if not isinstance(picks_in, list) or not all(isinstance(p, list) and len(p) == 2
                                                 for p in picks_in):
        raise Rejected("malformed", "championship.garage-round", "round.picks lists [car, card]")
    swap = rnd.get("swap")
    if swap is not None and (not isinstance(swap, list) or len(swap) != 2):
        raise Rejected("malformed", "championship.garage-round", "round.swap is [mine, other]")
    played = garage_module.GarageRound(
        _strings(rnd.get("market"), "round.market"),
        tuple((_car(c, players), str(card)) for c, card in picks_in),
        None if swap is None else (str(swap[0]), str(swap[1])))
    pool, after = garage_module.apply_round(_strings(request.get("pool"), "pool"), upgrades,
                                            grid, played)
    return {"pool": sorted(pool), "upgrades": [sorted(u) for u in after]}


def _sponsors_answer(request: JSON) -> JSON:
    from heatcore.heat.engine import apply
    from heatcore.heat.modules.championship.watch import RaceWatch
    from heatcore.heat.notation import parse_action, setup_from_dict
    from heatcore.heat.setup import start_race

    event = _event(request)
    actions = request.get("actions")
    if not isinstance(actions, list):
        raise Rejected("malformed", "sponsor.given-at-once", "actions must be a list")
    state, _ = start_race(setup_from_dict(request.get("setup")))
    watch = RaceWatch(state, event)
    for index, text in enumerate(actions):
        after, evs = apply(state, parse_action(text))
        watch.step(index, state, after, evs)
        state = after
    watch.finish(len(actions) - 1)
    return {"claims": [{"car": _name(c.car), "reason": c.reason, "step": c.step,
                        "corner": c.corner} for c in watch.claims]}


@dataclass(frozen=True)
class Check:
    """One ``championship`` request of a seeded championship and heatcore's answer."""

    where: str
    request: JSON
    expected: JSON

    @property
    def rules(self) -> tuple[str, ...]:
        return ASKS[str(self.request["ask"])]


#: The championships the harness checks: (year, players, seed).
CHAMPIONSHIPS = ((1961, 3, 1), (1962, 4, 2), (1963, 5, 3))


def checks(championships: tuple[tuple[int, int, int], ...] = CHAMPIONSHIPS) -> list[Check]:
    """The asks of each seeded championship played by heatcore: its season, then per race
    the event's changes, the press corners, the Garage round before it, the Sponsorship cards
    it earns, its points, and the standings and grid after it (played once per process)."""
    return list(_checks(championships))


@cache
def _checks(championships: tuple[tuple[int, int, int], ...]) -> tuple[Check, ...]:
    from heatcore.heat.modules.championship.garage import full_pool
    from heatcore.heat.modules.championship.season import play_championship
    from heatcore.heat.notation import setup_to_dict

    out: list[Check] = []

    def add(where: str, request: JSON) -> None:
        out.append(Check(where, {"op": "championship", **request}, answer(request)))

    for year, players, seed in championships:
        champ = play_championship(year, players, seed)
        label = f"championship {year} ({players} players, seed {seed})"
        add(f"{label}: season", {"ask": "season", "year": year})
        pool = full_pool()
        upgrades: tuple[tuple[str, ...], ...] = ((),) * players
        for result in champ.races:
            at = f"{label}, race {result.number}"
            race = result.race
            track, event = result.season_race.track, result.event.id
            add(f"{at}: event", {"ask": "event", "event": event, "track": track})
            add(f"{at}: press", {"ask": "press", "event": event, "track": track})
            rnd = result.garage
            add(f"{at}: draft", {
                "ask": "draft", "pool": sorted(pool), "upgrades": [sorted(u) for u in upgrades],
                "grid": [_name(c) for c in race.setup.grid],
                "round": {"market": list(rnd.market),
                          "picks": [[_name(c), card] for c, card in rnd.picks],
                          "swap": None if rnd.swap is None else list(rnd.swap)}})
            pool, upgrades = garage_module.apply_round(pool, upgrades, race.setup.grid, rnd)
            played = _until_over(race)
            add(f"{at}: sponsors", {"ask": "sponsors", "event": event,
                                    "setup": setup_to_dict(race.setup), "actions": played})
            add(f"{at}: points", {
                "ask": "points", "event": event, "players": players,
                "ranking": [_name(c) for c in race.final.ranking],
                "eliminated": [_name(c) for c in result.eliminated]})
            add(f"{at}: standings", {"ask": "standings", "totals": list(result.totals),
                                     "last_order": [_name(c) for c in result.order]})
    return tuple(out)


def _until_over(race: Any) -> list[str]:
    """The race's actions up to the one that ends it (the cards given after the end left
    out), as strings."""
    from heatcore.heat.engine import apply
    from heatcore.heat.setup import start_race

    state, _ = start_race(race.setup)
    out: list[str] = []
    for action in race.actions:
        if state.is_over():
            break
        state, _ = apply(state, action)
        out.append(str(action))
    return out

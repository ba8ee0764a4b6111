"""An independent check of a championship log (``heatcore.championship/1``).

It lives outside ``heatcore/heat/oracle`` (the race model, which imports nothing of the engine):
it replays each race through the engine, whose steps the race checker checks, and checks
what the championship makes of them.

Written from the rule text (``spec/rules/23-championship.toml`` and the championship
rulings) and the raw data of ``spec/modules/championship.json`` and ``spec/tracks``; nothing
here comes from :mod:`heatcore.heat.modules.championship`. It checks every race's setup against its
event
(track, laps, Heat/Stress/hand changes), each Garage round (market from the upgrade deck,
picks from the last car, the last car's swap) and the upgrades it gives, the grid of each
later race against the standings it recomputes, the points (table, event bonuses,
eliminations) and totals, and the Sponsorship cards: every card drawn from the top of the
logged deck order in the order given, the start-of-race cards per grid order, the in-race
cards only for reasons the event allows at its press corners, and the deck plus the held
cards always the 35 cards of the box; and, replaying each race, every car's Sponsorship
cards at every step (its piles plus the ones it played are exactly the ones kept from
before, drawn at the start and given by the race's ``sponsor`` inputs, so a played card
never comes back: sponsor.one-time), the start cards in the setup's hands and the kept ones
in its decks (counted from the log, not from the engine's bookkeeping); and, under an event
whose spins eliminate, that the eliminated cars are exactly the cars that spun, in order,
and that each left the race at its spin: no turn, no place in a round's order and no rank
after it (the race log replayed through :mod:`heatcore.heat.racelog`). It trusts the race logs'
rankings (the race checker checks races). It recomputes the cards earned during each race on
its own: it replays the race through the engine (:func:`heatcore.heat.engine.apply`), reads each
turn's start and end from the states around its events, the corner lines from the raw track
data, and lists the press and event cards that turn earns, which must be the logged ones in
the logged order.
"""

from __future__ import annotations

import json
from collections import Counter
from functools import cache
from typing import Any

from heatcore.framework.registry import spec_dir
from heatcore.heat.engine import apply
from heatcore.heat.notation import parse_action, setup_from_dict
from heatcore.heat.racelog import replay_log
from heatcore.heat.setup import start_race


class ChampionshipCheckFailure(Exception):
    """A championship log that breaks a rule: the rule IDs and what differs."""

    def __init__(self, rules: tuple[str, ...], detail: str) -> None:
        super().__init__(f"[{', '.join(rules)}] {detail}")
        self.rules = rules


def _require(ok: bool, rules: tuple[str, ...], detail: str) -> None:
    if not ok:
        raise ChampionshipCheckFailure(rules, detail)


@cache
def _data() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((spec_dir() / "modules" / "championship.json")
                                      .read_text(encoding="utf-8"))
    return data


@cache
def _track(track: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((spec_dir() / "tracks" / f"{track}.json")
                                      .read_text(encoding="utf-8"))
    return data


def _name(index: int) -> str:
    return f"P{index + 1}"


def _box() -> Counter[str]:
    return Counter({c["token"]: c["copies"] for c in _data()["sponsors"]["cards"]})


def _upgrade_box() -> Counter[str]:
    """Every upgrade card of both decks by market name (``G7``), from the raw Garage data."""
    data = json.loads((spec_dir() / "modules" / "garage.json").read_text(encoding="utf-8"))
    return Counter({f"G{c['type']}": c["copies"] for c in data["cards"]})


def _check_garage(number: int, race: dict[str, Any], pool: Counter[str],
                  owned: list[Counter[str]], grid: list[str]) -> None:
    """One Garage round: market from the deck, picks from the last car to the pole, the
    last car's swap; ``pool`` and ``owned`` are brought up to date."""
    rnd = race["garage"]
    market = Counter(rnd["market"])
    size = min(sum(pool.values()), len(grid) + 3)
    _require(sum(market.values()) == size and not market - pool,
             ("championship.garage-round",),
             f"race {number}: the market is not {size} cards of the upgrade deck")
    _require([car for car, _ in rnd["picks"]] == list(reversed(grid)),
             ("championship.garage-round",),
             f"race {number}: picks not from the last car to the pole")
    left = market.copy()
    for car, card in rnd["picks"]:
        _require(left[card] > 0, ("championship.garage-round",),
                 f"race {number}: {car} picks {card}, not in the market")
        left[card] -= 1
        owned[int(car[1:]) - 1][card] += 1
    if rnd["swap"] is not None:
        mine, other = rnd["swap"]
        last = owned[int(grid[-1][1:]) - 1]
        _require(last[mine] > 0 and left[other] > 0, ("championship.garage-round",),
                 f"race {number}: the last car's swap {mine} for {other} is not allowed")
        last[mine] -= 1
        last[other] += 1
        left[other] -= 1
        left[mine] += 1
    pool.subtract(market)
    pool.update(+left)
    _require(sum((pool + sum(owned, Counter())).values()) == sum(_upgrade_box().values())
             and pool + sum(owned, Counter()) == _upgrade_box(),
             ("championship.garage-round", "championship.carry-over"),
             f"race {number}: upgrade cards not accounted for")


def _check_setup(number: int, race: dict[str, Any], event: dict[str, Any],
                 upgrades: list[Counter[str]], weather: bool) -> None:
    setup = race["race"]["setup"]
    track = _track(race["track"])
    changes = event["changes"]
    _require(setup["track"] == race["track"], ("championship.season",),
             f"race {number} is not on {race['track']}")
    _require(setup["laps"] == track["laps"] + changes.get("laps", 0),
             ("event.setup-changes", "event.strike", "event.record-crowds"),
             f"race {number}: {setup['laps']} laps, the event makes "
             f"{track['laps'] + changes.get('laps', 0)}")
    want = {"heat": changes.get("heat", 0), "stress": changes.get("stress", 0),
            "hand": changes.get("hand", 7)}
    if event["eliminate_on_spin"]:  # event.sponsor-withdraws: the race itself eliminates
        want["eliminate"] = True
    got = setup.get("changes", {"heat": 0, "stress": 0, "hand": 7})
    _require(got == want, ("event.setup-changes",),
             f"race {number}: changes {got}, the event makes {want}")
    modules = ["weather", "garage"] if weather else ["garage"]
    got_upgrades = [Counter(u) for u in setup.get("upgrades", [])]
    _require(setup.get("modules") == modules and got_upgrades == [+u for u in upgrades],
             ("championship.carry-over", "championship.garage-round"),
             f"race {number}: modules {setup.get('modules')} (want {modules}) or the Garage "
             f"upgrades are not the ones the rounds gave")


def _places(ranking: list[str], eliminated: list[str]) -> list[str]:
    return [c for c in ranking if c not in eliminated] + list(reversed(eliminated))


def _points(places: list[str], eliminated: list[str], event: dict[str, Any],
            players: int) -> list[int]:
    table = _data()["points"]["table"]
    bonus = event["points_bonus"]
    out = [0] * players
    for place, car in enumerate(places):
        if car in eliminated:
            continue
        out[int(car[1:]) - 1] = (table[place] if place < len(table) else 0) + (
            bonus[place] if place < len(bonus) else 0)
    return out


def _standings(totals: list[int], places: list[str]) -> list[str]:
    cars = [_name(i) for i in range(len(totals))]
    return sorted(cars, key=lambda c: (-totals[int(c[1:]) - 1], places.index(c)))


def _check_sponsors(number: int, race: dict[str, Any], event: dict[str, Any],
                    held: Counter[str], grid: list[str]) -> None:
    order = race["sponsor_order"]
    box = _box()
    _require(Counter(order) == box - held, ("sponsor.deck",),
             f"race {number}: the deck's order is not the cards nobody holds")
    gains = race["result"]["gains"]
    start = [g for g in gains if g["step"] < 0]
    want = [car for car in grid for _ in range(event["sponsors"])]
    _require([g["car"] for g in start] == want and all(g["reason"] == "race-start"
                                                       for g in start),
             ("sponsor.race-start",),
             f"race {number}: start cards {[g['car'] for g in start]}, want {want}")
    _require(gains[:len(start)] == start, ("sponsor.race-start",),
             f"race {number}: a card was given during the race before the start cards")
    track = _track(race["track"])
    corners = len(track["corners"])
    press = {index % corners + 1 for index in event["press"]}
    allowed = {"press-slipstream", "press-exceed"} | (
        {event["sponsor_trigger"]} if event["sponsor_trigger"] else set())
    top = 0
    steps = len(race["race"]["actions"])
    last = -1
    grandstand = []
    per_corner: Counter[tuple[str, int, int]] = Counter()
    for gain in gains:
        if gain["card"] is None:
            _require(top == len(order), ("ruling.sponsor-deck-empty",),
                     f"race {number}: nothing given while the deck holds cards")
        else:
            _require(top < len(order) and gain["card"] == order[top], ("sponsor.deck",),
                     f"race {number}: {gain['car']} got {gain['card']}, not the top card")
            top += 1
            held[gain["card"]] += 1
        if gain["step"] < 0:
            continue
        _require(gain["reason"] in allowed, ("press.sponsor", event["rule"]),
                 f"race {number}: a card for {gain['reason']} under event {event['id']}")
        _require(last <= gain["step"] < steps, ("sponsor.given-at-once",),
                 f"race {number}: cards not given in the order they were earned")
        last = gain["step"]
        if gain["reason"].startswith("press-"):
            _require(gain["corner"] in press, ("press.corners",),
                     f"race {number}: corner {gain['corner']} is not a press corner {press}")
            per_corner[(gain["car"], gain["step"], gain["corner"])] += 1
            _require(per_corner[(gain["car"], gain["step"], gain["corner"])] == 1,
                     ("press.sponsor",), f"race {number}: two cards for one press corner")
        if gain["reason"] == "first-three-lap-one":
            grandstand.append(gain["car"])
    _require(len(grandstand) <= 3 and len(set(grandstand)) == len(grandstand),
             ("event.grandstand",), f"race {number}: grandstand cards to {grandstand}")
    _require(sum(held.values()) + len(order) - top == sum(box.values()),
             ("sponsor.deck",), f"race {number}: Sponsorship cards not accounted for")


def _sponsor_tokens() -> set[str]:
    return set(_box())


def _check_sponsor_cards(number: int, race: dict[str, Any], carried: list[Counter[str]]
                         ) -> list[Counter[str]]:
    """sponsor.in-hand, sponsor.one-time, sponsor.carry-over: replay the race and count the
    Sponsorship cards in each car's piles (hand, deck, discard pile, play area) at every
    step: always the cards kept from before, plus those drawn at the start, plus those given
    during the race (its ``sponsor`` actions, which must be the logged gains in order),
    less every one played whose turn is cleaned up (a played card still in the play area
    counts). Returns the cards each car holds at the end (kept for the next race)."""
    tokens = _sponsor_tokens()
    setup_data = race["race"]["setup"]
    players = setup_data["players"]
    start: list[Counter[str]] = [Counter() for _ in range(players)]
    for g in race["result"]["gains"]:
        if g["step"] < 0 and g["card"] is not None:
            start[int(g["car"][1:]) - 1][g["card"]] += 1
    logged_start = setup_data.get("sponsors", [[] for _ in range(players)])
    _require([Counter(h) for h in logged_start] == start, ("sponsor.in-hand",
                                                             "sponsor.race-start"),
             f"race {number}: the start Sponsorship cards in the setup are not the cards drawn")
    for p, deck in enumerate(setup_data["decks"]):
        _require(Counter(c for c in deck if c in tokens) == carried[p],
                 ("sponsor.carry-over", "ruling.sponsor-carry-over"),
                 f"race {number}: {_name(p)}'s deck does not hold the Sponsorship cards kept")
    setup = setup_from_dict(setup_data)
    state, _ = start_race(setup)
    for p in range(players):
        _require(Counter(c for c in state.cars[p].hand if c in tokens) >= start[p],
                 ("sponsor.in-hand",), f"race {number}: {_name(p)}'s start cards not in hand")
    gained: list[Counter[str]] = [Counter() for _ in range(players)]
    played: list[Counter[str]] = [Counter() for _ in range(players)]
    gifts = [(g["car"], g["card"]) for g in race["result"]["gains"]
             if g["step"] >= 0 and g["card"] is not None]
    given: list[tuple[str, str]] = []
    for text in race["race"]["actions"]:
        words = text.split()
        action = parse_action(text)
        if words[1] == "sponsor":
            given.append((words[0], words[2]))
            gained[int(words[0][1:]) - 1][words[2]] += 1
        elif words[1] == "gear":  # a plan: its Sponsorship cards will be used up
            played[int(words[0][1:]) - 1].update(c for c in words[4:] if c in tokens)
        state, _ = apply(state, action)
        for p in range(players):
            car = state.cars[p]
            # every card ever held is in a pile, in the play area or used (played, gone)
            piles = Counter(c for c in (*car.hand, *car.deck, *car.discard, *car.flipped)
                            if c in tokens)
            have = carried[p] + start[p] + gained[p]
            _require(piles + played[p] == have, ("sponsor.one-time", "sponsor.in-hand"),
                     f"race {number}: after {text}: {_name(p)} has Sponsorship cards "
                     f"{dict(piles)} in its piles and played {dict(played[p])}, of "
                     f"{dict(have)} held")
    _require(given == gifts, ("sponsor.given-at-once", "sponsor.in-hand"),
             f"race {number}: cards put in hands {given}, logged gains {gifts}")
    return [Counter(c for c in (*car.hand, *car.deck, *car.discard, *car.played,
                                *car.flipped) if c in tokens)
            for car in state.cars[:players]]


def _spun(race_log: dict[str, Any]) -> list[str]:
    """The cars that spun out in the race, each once, in the order of their first spin."""
    out: list[str] = []
    for evs in replay_log(race_log).events:
        for ev in evs:
            if ev.kind == "spun-out" and ev.car is not None and _name(ev.car) not in out:
                out.append(_name(ev.car))
    return out


def _check_removed(number: int, race_log: dict[str, Any], eliminated: list[str],
                   players: int) -> None:
    """event.sponsor-withdraws: an eliminated car leaves the race at its first spin: after
    it, the car takes no turn, is in no round's order and is not ranked; the race's ranking
    and the eliminated cars are together every car once."""
    gone: set[str] = set()
    for evs in replay_log(race_log).events:
        for ev in evs:
            car = None if ev.car is None else _name(ev.car)
            if ev.kind in ("turn-started", "ranked") and car in gone:
                _require(False, ("event.sponsor-withdraws",), f"race {number}: {car} is "
                         f"eliminated but has {ev.kind} after its spin")
            if ev.kind == "round-started":
                back = gone & set(ev.get("order"))
                _require(not back, ("event.sponsor-withdraws",), f"race {number}: the "
                         f"eliminated {sorted(back)} in a later round's order")
            if ev.kind == "spun-out" and car in eliminated:
                gone.add(car)
    ranking = race_log["result"]["ranking"]
    _require(sorted([*ranking, *eliminated]) == sorted(_name(i) for i in range(players)),
             ("event.sponsor-withdraws", "finish.ranking"), f"race {number}: ranking "
             f"{ranking} and eliminated {eliminated} are not every car once")


def _lines(track: dict[str, Any], laps: int, old: int, new: int) -> list[int]:
    """The corner numbers whose lines lie between positions ``old`` (included) and ``new``
    (excluded), from the grid's lap to the last lap."""
    length = track["spaces_per_lap"]
    return [number for lap in range(-1, laps)
            for number, corner in enumerate(track["corners"], start=1)
            if old <= corner["after_space"] + length * lap < new]


def _earned(race: dict[str, Any], event: dict[str, Any]) -> list[tuple[str, str, int]]:
    """(car, reason, corner) of every card the race's turns earn, in the order earned."""
    track = _track(race["track"])
    setup = setup_from_dict(race["race"]["setup"])
    state, _ = start_race(setup)
    corners = len(track["corners"])
    press = {index % corners + 1 for index in event["press"]}
    trigger = event["sponsor_trigger"]
    out: list[tuple[str, str, int]] = []
    crossed: list[int] = []
    turn: dict[str, Any] | None = None

    def close(after_positions: list[int]) -> None:
        nonlocal turn
        if turn is None:
            return
        car, end = turn["car"], after_positions[turn["car"]]
        first_time = car not in crossed and end > track["spaces_per_lap"]
        if first_time:
            crossed.append(car)
        if not turn["spun"]:
            for number, speed in turn["corners"]:
                if number in press and number in turn["slip"]:
                    out.append((_name(car), "press-slipstream", number))
                elif number in press and speed >= track["corners"][number - 1]["limit"] + \
                        _road_change(setup, number) + 2:
                    out.append((_name(car), "press-exceed", number))
            if trigger == "first-three-lap-one" and first_time and len(crossed) <= 3:
                out.append((_name(car), trigger, 0))
            if trigger == "speed-15" and turn["speed"] >= 15:
                out.append((_name(car), trigger, 0))
            if trigger == "pass-three" and sum(
                    1 for other, p in enumerate(after_positions)
                    if other != car and turn["start"] < p < end) >= 3:
                out.append((_name(car), trigger, 0))
        turn = None

    for text in race["race"]["actions"]:
        before = state
        state, events = apply(state, parse_action(text))
        for who in (before, state):
            if turn is not None and who.turn is not None and who.turn.car == turn["car"]:
                turn["speed"] = max(turn["speed"], who.turn.speed)
        # where each car stands as the step's events happen (the next car may move in it)
        positions = [c.position for c in before.cars]
        for ev in events:
            previous = positions[ev.car] if ev.car is not None else 0
            if ev.kind in ("moved", "spun-out") and ev.car is not None:
                positions[ev.car] = int(ev.get("position"))
            if ev.kind in ("turn-started", "round-started", "race-over"):
                close(positions)
            if ev.kind == "turn-started" and ev.car is not None:
                turn = {"car": ev.car, "start": before.cars[ev.car].position, "speed": 0,
                        "spun": False, "slip": set(), "corners": []}
                continue
            if turn is None or ev.car != turn["car"]:
                continue
            if isinstance(ev.get("speed"), int):
                turn["speed"] = max(turn["speed"], ev.get("speed"))
            if ev.kind == "moved" and ev.get("by") == "slipstream":
                # from where the car stood: a blocked move ends short of its spaces
                turn["slip"] |= set(_lines(track, setup.laps, previous,
                                           int(ev.get("position"))))
            elif ev.kind == "corner":
                turn["corners"].append((int(ev.get("corner")), int(ev.get("speed"))))
            elif ev.kind == "spun-out":
                turn["spun"] = True
    close([c.position for c in state.cars])
    return out


def _road_change(setup: Any, number: int) -> int:
    """The road token's change to corner ``number``'s limit (0 without the weather)."""
    if setup.weather is None:
        return 0
    return {"limit-plus": 1, "limit-minus": -1}.get(setup.road[number - 1], 0)


def check_championship_log(log: dict[str, Any]) -> None:
    """Raise ChampionshipCheckFailure naming the rule at the first thing the log gets
    wrong; return None when every race, point and card is as the rules make them."""
    data = _data()
    season = next((s for s in data["seasons"] if s["year"] == log["season"]), None)
    _require(season is not None, ("championship.season",), f"no season {log['season']}")
    assert season is not None
    events = {e["id"]: e for e in data["events"]}
    players = log["players"]
    races = log["races"]
    _require([(r["track"], r["event"]) for r in races]
             == [(r["track"], r["event"]) for r in season["races"]],
             ("championship.season",), "the races are not the season's, in order")
    totals = [0] * players
    held: Counter[str] = Counter()
    carried: list[Counter[str]] = [Counter() for _ in range(players)]
    pool = _upgrade_box()
    owned: list[Counter[str]] = [Counter() for _ in range(players)]
    standings: list[str] | None = None
    for number, race in enumerate(races, start=1):
        event = events[race["event"]]
        grid = race["race"]["setup"]["grid"]
        _require(standings is None or grid == standings, ("championship.grid",),
                 f"race {number}: grid {grid}, the standings are {standings}")
        _check_garage(number, race, pool, owned, grid)
        _check_setup(number, race, event, owned, bool(log.get("weather")))
        _check_sponsors(number, race, event, held, grid)
        carried = _check_sponsor_cards(number, race, carried)
        # ruling.sponsor-used-return: the used cards are back in the deck; the kept held
        held = sum(carried, Counter())
        logged = [(g["car"], g["reason"], g["corner"]) for g in race["result"]["gains"]
                  if g["step"] >= 0]
        earned = _earned(race, event)
        _require(logged == earned, ("press.sponsor", "sponsor.given-at-once", event["rule"]),
                 f"race {number}: cards given during the race {logged}, earned {earned}")
        result = race["result"]
        eliminated = result["eliminated"]
        spun = _spun(race["race"]) if event["eliminate_on_spin"] else []
        _require(eliminated == spun, ("event.sponsor-withdraws",),
                 f"race {number}: eliminated {eliminated}, the cars that spun {spun}")
        _check_removed(number, race["race"], eliminated, players)
        places = _places(race["race"]["result"]["ranking"], eliminated)
        _require(result["places"] == places, ("championship.points",),
                 f"race {number}: places {result['places']}, want {places}")
        points = _points(places, eliminated, event, players)
        _require(result["points"] == points, ("championship.points", event["rule"]),
                 f"race {number}: points {result['points']}, want {points}")
        totals = [t + p for t, p in zip(totals, points, strict=True)]
        standings = _standings(totals, places)
        _require(result["standings"] == standings,
                 ("championship.standings", "ruling.championship-ties"),
                 f"race {number}: standings {result['standings']}, want {standings}")
    _require(log["result"] == {"standings": standings, "totals": totals},
             ("championship.standings",), "the final standings differ")

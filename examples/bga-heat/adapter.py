#!/usr/bin/env python3
"""A conformance adapter for the online adaptation of Heat (bga-devs/bga-heat).

It speaks heatcore's conform/2 protocol on stdin/stdout (spec/schemas/HOWTO.md) and runs the
adaptation's own PHP rules code (modules/php, loaded unchanged) on the local stand-in of the
Board Game Arena framework in ``standin/`` through ``standin/worker.php``.

    BGA_HEAT_SRC=/path/to/bga-heat heatcore conform --impl "python3 examples/bga-heat/adapter.py"

The source is never part of this repository: fetch it (README.md says how) and name its
folder with ``BGA_HEAT_SRC`` or ``--src``.

How the protocol maps on the adaptation (README.md has the long form):

- ``load`` runs the adaptation's own setup for the track and number of cars, then writes the
  state's cars, cards and round into its tables and sets its state machine (planification,
  react, slipstream or discard), as a table saved at that moment would hold them.
- the plans are buffered and handed to the adaptation's ``actPlan`` in turn order when the
  round's last plan arrives; ``legal`` in the plan phase asks ``actPlan`` about every candidate
  plan on a copy that is rolled back (and ``stReveal``'s own two-gear limit).
- ``legal`` in a turn reads the adaptation's own ``args`` of the current state (argsReact,
  argsSlipstream, argsDiscard): exactly the choices its interface offers.
- ``apply`` calls the adaptation's player action (actReact, actPassReact, actSlipstream,
  actDiscard) and then passes, as the protocol asks, every step whose only choice is to pass,
  and confirms the corner payment (actCheckCorner: a confirmation, not a choice).
- every shuffle of the adaptation asks the harness: the worker stops it, the adapter rolls
  the step back and reports ``unsupported`` (the adaptation shuffles inside a draw or a flip;
  it has no point where the harness's ``shuffle`` action could come in); a ``setup`` gives
  the adaptation's own start-of-race shuffle the setup's deck orders.
"""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

JSON = Any
HERE = Path(__file__).resolve().parent

TRACKS = {"usa": 1, "italia": 2, "great-britain": 3, "france": 4}
TYPE_OF = {"1": 101, "2": 102, "3": 103, "4": 104, "U0": 100, "U5": 105, "S": 110, "H": 111}
NAME_OF = {101: "1", 102: "2", 103: "3", 104: "4", 100: "U0", 105: "U5", 110: "S", 111: "H", 106: "H"}
CANON = ["1", "2", "3", "4", "U0", "U5", "S", "H"]

ST_PLAN, ST_CHOOSE_SPEED, ST_REACT, ST_SLIPSTREAM, ST_CHECK_CORNER, ST_DISCARD = 12, 14, 22, 16, 27, 17
ST_OVER = {4, 5, 98, 99}

#: The rulings the adaptation follows where heatcore's default differs (spec/rulings.toml).
RULINGS: dict[str, str] = {
    "ruling.stress-supply": "unlimited",
    "ruling.blocked-extra-move": "must-gain",
    "ruling.finished-car-discard-draw": "skip",
    "ruling.blocked-own-space": "stay",
}

#: Rulings the adaptation decides as heatcore does, each read in its code (README.md).
SAME: list[str] = [
    "ruling.replenish-empty",        # Pieces::pickForLocation draws what exists
    "ruling.zero-move",              # Circuit::getReachedCell: a speed of 0 keeps the cell
    "ruling.cluttered-gear",         # argsPlanification: clutter judged with the paid shift; actPlan takes any gear
    "ruling.setback-corner",         # actCheckCorner checks the corners between the turn's start and where the car stands
    "ruling.spin-discard",           # actCheckCorner goes to ST_DISCARD after a spin too
    "ruling.finished-car-turn",      # a finished car reacts, keeps its cell until stEndRound, may not slipstream
    "ruling.simultaneous-planning",  # actPlan for every car, then the reveals
    "ruling.adrenaline-order",       # stAdrenaline: by the car's number in the order, never passed on
    "ruling.hand-over-limit",        # Cards::addStress adds to the hand, fillHand draws nothing at 7 or more
    "ruling.lap-count",              # the number of laps is an option
    "ruling.discard-pile-order",
]

HELLO: JSON = {
    "ok": True,
    "protocol": "conform/2",
    "implementation": {"name": "bga-heat (bga-devs/bga-heat) on heatcore's BGA stand-in", "version": "0.1"},
    "ruleset": "heat",
    "compare": ["state", "legal"],
    "rulings": {**{r: "default" for r in SAME}, **RULINGS},
    "tracks": sorted(TRACKS),
    "modules": ["weather"],
    "rule_ids": False,
}


def _defaults() -> dict[str, str]:
    """The name of each switchable ruling's default option (spec/rulings.toml)."""
    import tomllib

    path = HERE.parent.parent / "spec" / "rulings.toml"
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    return {r["id"]: r["default"] for r in data["ruling"] if "default" in r}


DEFAULTS = _defaults()


def _weather_ids() -> tuple[dict[str, int], dict[str, int]]:
    """The adaptation's numbers of the weather cards and road tokens (spec/modules/weather.json)."""
    data = json.loads((HERE.parent.parent / "spec" / "modules" / "weather.json").read_text(encoding="utf-8"))
    return ({w["id"]: int(w["bga_id"]) for w in data["weather"]},
            {r["id"]: int(r["bga_id"]) for r in data["road"]})


WEATHER_CARD, ROAD_TOKEN = _weather_ids()
COOLING_BONUS_CARDS = {WEATHER_CARD["snow"], WEATHER_CARD["rain"]}


class Unsupported(Exception):
    """A request the adaptation (or this adapter) cannot take; the harness skips it."""


class NeedShuffle(Exception):
    """The adaptation's call stopped at a shuffle whose outcome the harness gives."""

    def __init__(self, call: tuple[int, str, list[Any]], err: JSON) -> None:
        super().__init__("shuffle")
        self.call, self.err = call, err


class Refused(Exception):
    """The adaptation refuses an action or a state."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind, self.message = kind, message


def canon(cards: list[str]) -> list[str]:
    """Cards in the canonical order of hands and piles."""
    return sorted(cards, key=CANON.index)


def cid(car: str) -> int:
    """The adaptation's constructor id of heatcore's car P<n>."""
    return int(car[1:]) - 1


def pid(car: str) -> int:
    """The stand-in's player id of heatcore's car P<n>."""
    return 1000 + int(car[1:])


def car_of(c: int) -> str:
    return f"P{c + 1}"


class Worker:
    """The PHP process running the adaptation on the stand-in."""

    def __init__(self, src: str) -> None:
        log = os.environ.get("BGA_HEAT_LOG")
        self.err = open(log, "a") if log else None  # noqa: SIM115 (kept open with the process)
        self.proc = subprocess.Popen(
            ["php", "-d", "memory_limit=1G", "-d", "display_errors=stderr", str(HERE / "standin" / "worker.php"), src],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.err, text=True, bufsize=1)
        self.src = src

    def close(self) -> None:
        try:
            if self.proc.stdin:
                self.proc.stdin.close()
            self.proc.wait(timeout=5)
        except Exception:
            self.proc.kill()

    def alive(self) -> bool:
        return self.proc.poll() is None

    def __call__(self, **req: Any) -> JSON:
        assert self.proc.stdin and self.proc.stdout
        self.proc.stdin.write(json.dumps(req) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError("the PHP worker stopped")
        try:
            return json.loads(line)
        except ValueError:
            raise RuntimeError(f"the PHP worker wrote {line[:500]!r}") from None

    def ok(self, **req: Any) -> JSON:
        r = self(**req)
        if not r.get("ok"):
            raise RuntimeError(f"worker {req.get('cmd')}: {r.get('error')}")
        return r


class Circuit:
    """The adaptation's cells of a circuit, read from its own circuit data."""

    def __init__(self, datas: JSON) -> None:
        self.cells: dict[int, tuple[int, int]] = {}
        for k, v in datas["cells"].items():
            self.cells[int(k)] = (int(v["position"]) - 1, int(v["lane"]))
        self.length = len(self.cells) // 2
        self.upos = {2 * q + lane: c for c, (q, lane) in self.cells.items()}
        corners = []
        lane = None
        for i, info in enumerate(datas["corners"]):
            pos = int(info.get("position", i))
            corners.append(pos)
            lane = int(info["lane"])
        self.race_lanes = [lane] + [int(info["lane"]) for info in datas["corners"]]
        self.corners = corners

    def race_lane(self, q: int) -> int:
        q %= self.length
        i = 0
        for pos in self.corners:
            if pos > q:
                break
            i += 1
        return self.race_lanes[i]

    def to_heat(self, cell: int, turn: int) -> tuple[int, bool]:
        q, lane = self.cells[cell]
        return turn * self.length + q + 1, lane == self.race_lane(q)

    def to_bga(self, position: int, racing_line: bool) -> tuple[int, int]:
        q = (position - 1) % self.length
        turn = (position - 1 - q) // self.length
        rl = self.race_lane(q)
        lane = rl if racing_line else 3 - rl
        return self.upos[2 * q + lane], turn


class Adapter:
    """The current race: the worker's tables, plus what heatcore's state has and the
    adaptation's tables do not (the buffered plans, the finished cars' positions)."""

    def __init__(self, src: str) -> None:
        self.src = src
        self.pool: dict[tuple[str, int, int], Worker] = {}
        self.circuits: dict[tuple[str, int, int], Circuit] = {}
        self.spare: Worker | None = None
        self.w: Worker = None  # type: ignore[assignment]
        self.state: JSON = None
        self.circuit: Circuit | None = None
        self.plans: dict[str, list[int]] = {}  # buffered plans (card ids), by car
        self.played: dict[str, list[int]] = {}  # this round's played card ids, by car
        self.finished_at: dict[str, tuple[int, bool]] = {}
        self.flip_order: list[int] = []  # card ids kept by flips this round, in flip order
        self.pending: JSON = None  # the call interrupted by a shuffle
        self.orders: list[JSON] = []  # the shuffle outcomes given for it
        self.supply_base = 0
        self.stress_base = 0
        self.meta: JSON = {}

    # ------------------------------------------------------------------ load
    def new_table(self, track: str, players: int, laps: int, grid: list[int] | None,
                  orders: list[JSON] | None = None) -> JSON:
        """The adaptation's own setup of a race. The adaptation's setup can run once per PHP
        process (it declares a function and require_once's the circuit), so a setup with deck
        orders gets a fresh process, and a load reuses one process per track, number of cars
        and laps, restoring the tables its setup left (a snapshot)."""
        if track not in TRACKS:
            raise Unsupported(f"track {track} is not one of the adaptation's")
        key = (track, players, laps)
        self.pending, self.orders = None, []
        if orders is None and key in self.pool and self.pool[key].alive():
            self.w = self.pool.pop(key)
            self.pool[key] = self.w
            self.w.ok(cmd="restore")
            self.w.ok(cmd="orders", orders=[])
            self.circuit = self.circuits[key]
            return None
        self.w = Worker(self.src)
        r = self.w(cmd="new", players=players, circuit=TRACKS[track], laps=laps, grid=grid,
                   orders=orders or [], identity_shuffles=orders is None)
        if not r.get("ok"):
            err = r["error"]
            if err.get("kind") == "need-shuffle":
                raise Unsupported("setup: a deck order the adaptation's setup cannot take")
            raise RuntimeError(f"setup failed: {err}")
        d = self.w.ok(cmd="dump")["dump"]
        self.circuit = Circuit(d["globals"]["circuitDatas"])
        if orders is None:
            self.w.ok(cmd="snapshot")
            self.pool[key] = self.w
            self.circuits[key] = self.circuit
            while len(self.pool) > 4:
                oldest = next(iter(self.pool))
                self.pool.pop(oldest).close()
        elif self.spare is not None:
            self.spare.close()
            self.spare = self.w
        else:
            self.spare = self.w
        return d

    def load(self, state: JSON) -> None:
        modules = state.get("modules") or []
        if [m for m in modules if m != "weather"]:
            raise Unsupported(f"module(s) {', '.join(m for m in modules if m != 'weather')} not mapped yet")
        if state.get("shuffle"):
            raise Unsupported("a state waiting for a shuffle: the adaptation reshuffles inside its draw or flip")
        # The state's rulings are taken as they are: the adaptation plays its own way (the
        # harness skips the cases that depend on a ruling it decides otherwise).
        turn = state.get("turn")
        if state["phase"] == "turn" and turn["stage"] not in ("react", "slipstream", "discard"):
            raise Unsupported(f"a turn at stage {turn['stage']}")
        cars = state["cars"]
        self.new_table(state["track"], len(cars), state["laps"], None)
        assert self.circuit is not None
        sql: list[str] = ["DELETE FROM cards", "DELETE FROM log"]
        next_id = 1
        self.plans, self.played, self.finished_at = {}, {}, {}
        self.flip_order = []
        order = state["order"]
        cursor = state["cursor"]
        ranking = state["ranking"]
        rows: list[tuple[int, str, int, int]] = []

        def add(car: str, loc: str, cards: list[str]) -> list[int]:
            nonlocal next_id
            ids = []
            n = len(cards)
            for i, name in enumerate(cards):
                if name not in TYPE_OF:
                    raise Unsupported(f"card {name}")
                # the top of a deck has the highest state
                rows.append((next_id, f"{loc}-{cid(car)}", n - 1 - i if loc == "deck" else i, TYPE_OF[name]))
                ids.append(next_id)
                next_id += 1
            return ids

        active_car = turn["car"] if turn else None
        for car in cars:
            name = car["id"]
            if car.get("legend"):
                raise Unsupported("Legend cars")
            add(name, "deck", car["deck"])
            add(name, "discard", car["discard"])
            add(name, "engine", ["H"] * car["engine"])
            hand_ids = add(name, "hand", car["hand"])
            if state["phase"] == "plan":
                if car["played"]:
                    # a buffered plan: the cards go back to the hand, the plan waits in the adapter
                    self.plans[name] = add(name, "hand", car["played"])
                if car["flipped"]:
                    raise Unsupported("flipped cards in the plan phase")
            elif name == active_car:
                self.played[name] = add(name, "inplay", car["played"])
                self.flip_order = add(name, "inplay", car["flipped"])
            elif car["played"]:
                if car["flipped"]:
                    raise Unsupported("flipped cards of a car not in its turn")
                self.plans[name] = add(name, "hand", car["played"])
                self.played[name] = list(self.plans[name])
            del hand_ids
        for r in rows:
            sql.append(f"INSERT INTO cards (card_id, card_location, card_state, type) VALUES ({r[0]}, '{r[1]}', {r[2]}, {r[3]})")
        for car in cars:
            name = car["id"]
            c = cid(name)
            if name in ranking:
                cell, t = -(ranking.index(name) + 1), state["laps"]
                self.finished_at[name] = (car["position"], car["racing_line"])
            else:
                cell, t = self.circuit.to_bga(car["position"], car["racing_line"])
            no = order.index(name) if name in order else 0
            speed = turn["speed"] if turn and turn["car"] == name else -1
            sql.append(f"UPDATE constructors SET car_cell = '{cell}', turn = {t}, gear = {car['gear']}, "
                       f"speed = {speed}, no = {no}, paths = '[]' WHERE id = {c}")

        def glob(name: str, value: JSON) -> None:
            v = json.dumps(value).replace("'", "''")
            sql.append(f"REPLACE INTO global_variables (name, value) VALUES ('{name}', '{v}')")

        order_ids = [cid(c) for c in order]
        if "weather" in modules:
            corners = self.circuit.corners
            road = state["weather"]["road"]
            if len(road) != len(corners):
                raise Unsupported("road tokens do not match the adaptation's corners")
            glob("weatherModule", True)
            glob("weather", {"card": WEATHER_CARD[state["weather"]["token"]],
                             "tokens": {str(pos): ROAD_TOKEN[t] for pos, t in zip(corners, road, strict=True)}})
        glob("round", state["round"])
        glob("turnOrder", order_ids)
        glob("finishedConstructors", [cid(c) for c in ranking])
        glob("planificationRevealed", {str(cid(c["id"])): False for c in cars})
        glob("legendCardDrawn", False)
        glob("cardSymbols", [])
        glob("flippedCards", 0)
        glob("customTurnOrders", {})
        if state["phase"] == "turn":
            plans = {str(pid(c)): ids for c, ids in self.plans.items()}
            glob("planification", plans if plans else {})
            glob("customTurnOrders", {"reveal": {"order": order_ids, "index": cursor, "callback": "stReveal",
                                                 "args": [], "endCallback": "stEndRound", "loop": False}})
            glob("activeConstructor", cid(active_car))
            start_cell, start_turn = self.circuit.to_bga(turn["start_position"], True)
            q = self.circuit.cells[start_cell][0]
            glob("previousPosition", q)
            glob("previousTurn", start_turn)
            # slipstream bookkeeping (press corners only): where the car stands now
            me = next(c for c in cars if c["id"] == active_car)
            now_cell, now_turn = self.circuit.to_bga(me["position"], me["racing_line"])
            glob("positionBeforeSlipstream", self.circuit.cells[now_cell][0])
            glob("turnBeforeSlipstream", now_turn)
            glob("cardSymbols", self.symbols_for(state, me, turn))
        else:
            glob("planification", {})
        self.w.ok(cmd="sql", statements=sql)
        if state["phase"] == "plan":
            waiting = [pid(c) for c in order]
            self.w.ok(cmd="goto", state=ST_PLAN, active=waiting[0] if waiting else 0, multiactive=waiting)
        elif state["phase"] == "turn":
            st = {"react": ST_REACT, "slipstream": ST_SLIPSTREAM, "discard": ST_DISCARD}[turn["stage"]]
            self.w.ok(cmd="goto", state=st, active=pid(active_car), multiactive=[])
        else:
            self.w.ok(cmd="goto", state=99, active=0, multiactive=[])
        self.supply_base = state["supply"]
        self.stress_base = self.count_stress()
        self.meta = {"track": state["track"], "laps": state["laps"], "rulings": state.get("rulings", {}),
                     "modules": list(modules), "order": list(order), "round": state["round"]}
        if "weather" in modules:
            self.meta["weather"] = state["weather"]
        self.state = self.read(plan_cursor=cursor if state["phase"] == "plan" else None)

    def symbols_for(self, state: JSON, car: JSON, turn: JSON) -> JSON:
        """The adaptation's card symbols of a turn, as its stReveal and stAdrenaline leave them
        for the played cards, with the turn's used choices marked."""
        symbols: JSON = {}
        ids = self.played.get(car["id"], [])
        speeds = {"1": 1, "2": 2, "3": 3, "4": 4, "U0": 0, "U5": 5, "S": 0}
        for i, name in zip(ids, car["played"], strict=True):
            if name == "S":
                symbols.setdefault("boost", {"entries": {}})["entries"][str(i)] = {"used": True, "n": 1}
            if speeds[name] != 0:
                symbols.setdefault("speed", {"entries": {}})["entries"][str(i)] = {"values": [speeds[name]], "used": True, "value": speeds[name]}
        if turn["adrenaline"]:
            symbols.setdefault("cooldown", {"entries": {}})["entries"]["adrenaline"] = {"used": turn["adrenaline_cooldown_used"], "n": 1}
            symbols.setdefault("adrenaline", {"entries": {}})["entries"]["adrenaline"] = {"used": turn["adrenaline_move_used"], "n": 1}
        if car["gear"] <= 2:
            symbols.setdefault("cooldown", {"entries": {}})["entries"]["gear"] = {"n": 3 if car["gear"] == 1 else 1, "used": turn["cooldown_used"]}
        symbols["heated-boost"] = {"entries": {"heated-boost": {"n": 1, "used": turn["boosted"]}}}
        if "weather" in (state.get("modules") or []):
            # stReveal adds a cooling entry per corner whose sector has the cooling bonus
            assert self.circuit is not None
            w = state["weather"]
            for pos, token in zip(self.circuit.corners, w["road"], strict=True):
                if token == "weather" and WEATHER_CARD[w["token"]] in COOLING_BONUS_CARDS:
                    # heatcore keeps one flag for the turn: every cooling entry is used then
                    used = bool(turn.get("sector_cooldown_used"))
                    symbols.setdefault("cooldown", {"entries": {}})["entries"][f"corner-{pos}"] = {
                        "cornerPos": pos, "n": 1, "used": used}
        return symbols

    def sector_of(self, position: int) -> int:
        """The adaptation's sector of a position: its previous corner (Circuit::getPrevCorner)."""
        assert self.circuit is not None
        q = (position - 1) % self.circuit.length
        before = [c for c in self.circuit.corners if c <= q]
        return before[-1] if before else self.circuit.corners[-1]

    def count_stress(self) -> int:
        d = self.w.ok(cmd="dump")["dump"]
        return sum(1 for c in d["cards"] if int(c["type"]) == 110)

    # ------------------------------------------------------------------ read
    def read(self, plan_cursor: int | None = None, at: JSON = None, shuffle: JSON = None) -> JSON:
        """heatcore's state from the adaptation's tables (``at``: tables captured at a shuffle,
        ``shuffle``: that shuffle's location and what was on the stack)."""
        assert self.circuit is not None
        d = at if at is not None else self.w.ok(cmd="dump")["dump"]
        g = d["globals"]
        st = d["state"]["id"]
        chance_cid = int(shuffle["location"].rsplit("-", 1)[1]) if shuffle else None
        by_car: dict[int, dict[str, list[tuple[int, int]]]] = {}
        stress = 0
        for c in d["cards"]:
            loc = c["card_location"]
            t = int(c["type"])
            if t == 110:
                stress += 1
            if "-" not in loc:
                continue
            kind, owner = loc.rsplit("-", 1)
            by_car.setdefault(int(owner), {}).setdefault(kind, []).append((int(c["card_id"]), int(c["card_state"] or 0), t))
        cons = {int(r["id"]): r for r in d["constructors"]}
        planification = g.get("planification") or {}
        ranking = [car_of(int(x)) for x in (g.get("finishedConstructors") or [])]
        phase = "plan" if st == ST_PLAN else ("over" if st in ST_OVER else "turn")
        if shuffle:
            phase = "turn"
        active = car_of(int(g["activeConstructor"])) if phase == "turn" else None
        cars = []
        for c in sorted(cons):
            name = car_of(c)
            row = cons[c]
            piles = by_car.get(c, {})
            cell = int(row["car_cell"])
            if cell < 0:
                # the adaptation forgets where a ranked car stands; heatcore keeps it
                before = (d.get("cells_before_rank") or {}).get(str(c))
                if name in self.finished_at:
                    position, racing = self.finished_at[name]
                elif before:
                    position, racing = self.circuit.to_heat(before[0], before[1])
                else:
                    raise RuntimeError(f"{name} was ranked and its last cell is unknown")
            else:
                position, racing = self.circuit.to_heat(cell, int(row["turn"]))
            deck = [NAME_OF[t] for _i, _s, t in sorted(piles.get("deck", []), key=lambda x: -x[1])]
            pile_back: list[str] = []
            if c == chance_cid:
                # at the shuffle the adaptation has already moved the discard pile into the deck
                pile_back, deck = deck, []
            hand_ids = {i: t for i, _s, t in piles.get("hand", [])}
            inplay = {i: t for i, _s, t in piles.get("inplay", [])}
            # the plans wait in the adapter during the plan phase, in the adaptation after it
            plan_ids = ([int(x) for x in planification.get(str(pid(name)), [])] if phase == "turn"
                        else self.plans.get(name, []))
            gear = int(row["gear"])
            engine = len(piles.get("engine", []))
            discard = [NAME_OF[t] for _i, _s, t in piles.get("discard", [])] + pile_back
            played: list[str] = []
            flipped: list[str] = []
            if phase == "plan" or (phase == "turn" and name != active and plan_ids):
                # a buffered plan (the adapter's in the plan phase, the adaptation's after it)
                played = [NAME_OF[hand_ids.pop(i)] for i in plan_ids if i in hand_ids]
                if phase == "turn" and played:
                    new_gear = len(played)
                    if abs(new_gear - gear) == 2 and engine > 0:
                        engine -= 1
                        discard.append("H")
                    gear = new_gear
            else:
                mine = set(self.played.get(name, []))
                kept = []
                for i, t in inplay.items():
                    if i in mine:
                        played.append(NAME_OF[t])
                    else:
                        kept.append(i)
                # heatcore lists the kept flips in the order they were flipped
                rank = {i: k for k, i in enumerate(self.flip_order)}
                flipped = [NAME_OF[inplay[i]] for i in sorted(kept, key=lambda i: rank.get(i, len(rank)))]
            cars.append({"id": name, "position": position, "racing_line": racing, "gear": gear,
                         "engine": engine, "hand": canon([NAME_OF[t] for t in hand_ids.values()]),
                         "deck": deck, "discard": canon(discard), "played": canon(played),
                         "flipped": flipped})
            if cell < 0:
                self.finished_at[name] = (position, racing)
        order = [car_of(int(x)) for x in (g.get("turnOrder") or [])]
        order = [o for o in order if o not in ranking or phase != "plan"]
        turn = None
        cursor = 0
        if phase == "plan":
            cursor = plan_cursor if plan_cursor is not None else 0
            order = [o for o in order if o not in ranking]
        elif phase == "turn":
            tos = (g.get("customTurnOrders") or {}).get("reveal") or {}
            order = [car_of(int(x)) for x in tos.get("order", [])]
            cursor = int(tos.get("index", 0))
            symbols = g.get("cardSymbols") or {}
            me = cons[cid(active)]
            cd = ((symbols.get("cooldown") or {}).get("entries") or {})
            ad = ((symbols.get("adrenaline") or {}).get("entries") or {})
            hb = ((symbols.get("heated-boost") or {}).get("entries") or {})
            stage = {ST_REACT: "react", ST_SLIPSTREAM: "slipstream", ST_DISCARD: "discard"}.get(st)
            if shuffle:
                stack = shuffle["stack"]
                # the innermost of the three steps that draw or flip
                where = {"stReplenish": "replenish", "actReact": "boost", "stReveal": "reveal"}
                stage = next((where[f] for f in stack if f in where), None)
                if stage is None or cid(active) != chance_cid:
                    raise Unsupported(f"a shuffle inside {'/'.join(stack[:6])}")
            if stage is None:
                raise RuntimeError(f"the adaptation stopped in state {d['state']['name']}")
            speed = int(me["speed"])
            to_move = flips_left = 0
            adrenaline = "adrenaline" in ad
            cluttered = (stage == "replenish" and "stReveal" in shuffle["stack"]
                         and shuffle["stack"].index("stReveal") > shuffle["stack"].index("stReplenish"))
            if stage == "reveal" or cluttered:
                # stReveal flips for each Stress card before anything moves: the speed so far
                # is the play area's, and the adaptation decides adrenaline only after the move
                # (stAdrenaline: the last car of the order, the last two from 5 cars on)
                mine = next(x for x in cars if x["id"] == active)
                values = {"1": 1, "2": 2, "3": 3, "4": 4, "U0": 0, "U5": 5, "S": 0, "H": 0}
                speed = to_move = sum(values[x] for x in mine["played"] + mine["flipped"])
                done = sum(1 for e in d.get("events", []) if e.get("name") == "resolveBoost")
                flips_left = 0 if cluttered else mine["played"].count("S") - done
                if cluttered:
                    # a cluttered car goes from its reveal straight to replenish: no speed
                    speed = to_move = 0
                no = int(me["no"]) + len(ranking)
                n_all = len(cons)
                adrenaline = no == n_all - 1 or (no == n_all - 2 and n_all >= 5)
                start = mine["position"]
            else:
                start_cell = self.circuit.upos[2 * int(g["previousPosition"]) + 1]
                start, _rl = self.circuit.to_heat(start_cell, int(g["previousTurn"]))
            if stage == "boost":
                flips_left = 1
            if stage == "reveal" or cluttered:
                cd, ad, hb = {}, {}, {}  # the card symbols are still the previous turn's
            turn = {"car": active, "stage": stage, "start_position": start, "speed": speed,
                    "to_move": to_move, "flips_left": flips_left, "adrenaline": adrenaline,
                    "cooldown_used": bool((cd.get("gear") or {}).get("used", False)),
                    "adrenaline_move_used": bool((ad.get("adrenaline") or {}).get("used", False)),
                    "adrenaline_cooldown_used": bool((cd.get("adrenaline") or {}).get("used", False)),
                    "boosted": bool((hb.get("heated-boost") or {}).get("used", False))}
            if "weather" in self.meta.get("modules", []):
                turn["sector_cooldown_used"] = any(
                    k.startswith("corner-") and v.get("used") for k, v in cd.items())
        else:
            order = []
        rnd = int(g.get("round") or 0)
        out = {"format": "heatcore.state/1", "track": self.meta["track"], "laps": self.meta["laps"],
               "modules": list(self.meta.get("modules", [])), "rulings": self.meta["rulings"],
               "round": rnd, "phase": phase,
               "order": order, "cursor": cursor,
               "supply": self.supply_base - (stress - self.stress_base),
               "shuffle": car_of(chance_cid) if shuffle else None,
               "ranking": ranking, "turn": turn, "cars": cars}
        if not out["rulings"]:
            del out["rulings"]
        if "weather" in self.meta:
            out["weather"] = self.meta["weather"]
        if not shuffle:
            self.last_dump = d
        return out

    # ------------------------------------------------------------------ legal
    def legal(self) -> list[str]:
        s = self.state
        if s["phase"] == "over" or s.get("shuffle"):
            return []
        if s["phase"] == "plan":
            return self.legal_plans()
        d = self.last_dump
        args = d["args"] or {}
        car = s["turn"]["car"]
        stage = s["turn"]["stage"]
        out: list[str] = []
        if stage == "react":
            out = self.react_choices(args, car)
        elif stage == "slipstream":
            out = [f"{car} no slipstream"]
            for n in (args.get("speeds") or {}):
                if int(n) == 2:
                    out.append(f"{car} slipstream")
                else:
                    out.append(f"{car} slipstream +{int(n) - 2}")
        elif stage == "discard":
            out = [f"{car} {a}" for a in self.discard_choices(args)]
        return sorted(set(out))

    def react_choices(self, args: JSON, car: str) -> list[str]:
        out = []
        symbols = args.get("symbols") or {}
        cd = symbols.get("cooldown")
        if cd and cd.get("doable", True) and not cd.get("used"):
            mx = int(cd.get("max", 0))
            e = (cd.get("entries") or {})
            g = e.get("gear")
            if g and not g.get("used") and g.get("doable", True):
                for k in range(1, min(int(g["n"]), mx) + 1):
                    out.append(f"{car} cooldown {k}")
            a = e.get("adrenaline")
            if a and not a.get("used") and a.get("doable", True) and mx >= 1:
                out.append(f"{car} adrenaline cooldown")
            if mx >= 1 and any(k.startswith("corner-") and not v.get("used") and v.get("doable", True)
                               for k, v in e.items()):
                out.append(f"{car} sector cooldown")
        ad = symbols.get("adrenaline")
        if ad and ad.get("doable", True) and not ad.get("used"):
            out.append(f"{car} adrenaline move")
        hb = symbols.get("heated-boost")
        if hb and hb.get("doable", True) and not hb.get("used"):
            out.append(f"{car} boost")
        if args.get("canPass", True):
            out.append(f"{car} end react")
        return out

    def discard_choices(self, args: JSON) -> list[str]:
        priv = ((args.get("_private") or {}).get("active") or {})
        ids = [int(i) for i in priv.get("cardIds", [])]
        mx = int(priv.get("max", 0))
        types = self.card_types()
        names = [NAME_OF[types[i]] for i in ids]
        out = {"discard nothing"}
        for k in range(1, min(mx, len(names)) + 1):
            for combo in itertools.combinations(names, k):
                out.add("discard " + " ".join(canon(list(combo))))
        return sorted(out)

    def card_types(self) -> dict[int, int]:
        return {int(c["card_id"]): int(c["type"]) for c in self.last_dump["cards"]}

    def hand_ids(self, car: str) -> dict[int, str]:
        loc = f"hand-{cid(car)}"
        return {int(c["card_id"]): NAME_OF[int(c["type"])] for c in self.last_dump["cards"] if c["card_location"] == loc}

    def candidate_plans(self, car: str) -> dict[str, list[int]]:
        """Every plan of the car's hand in heatcore's notation, with card ids: 1 to 4 cards."""
        hand = self.hand_ids(car)
        ids = sorted(hand, key=lambda i: CANON.index(hand[i]))
        out: dict[str, list[int]] = {}
        for g in range(1, 5):
            for combo in itertools.combinations(ids, g):
                cards = canon([hand[i] for i in combo])
                key = f"{car} gear {g} play {' '.join(cards)}"
                out.setdefault(key, list(combo))
        return out

    def legal_plans(self) -> list[str]:
        """The plans the adaptation takes from the car at the cursor. By default its actPlan
        checks are read off its argsPlanification (see plan_accepted); with
        BGA_HEAT_TRY_PLANS=1 every candidate plan is handed to actPlan on a rolled-back copy."""
        if os.environ.get("BGA_HEAT_TRY_PLANS") == "1":
            return self.tried_plans()
        s = self.state
        car = s["order"][s["cursor"]]
        return sorted(a for a, ids in self.candidate_plans(car).items() if self.plan_accepted(car, ids))

    def plan_accepted(self, car: str, ids: list[int]) -> bool:
        """actPlan's checks (and stReveal's two-gear limit), on its argsPlanification: a
        change of more than one gear costs 1 Heat (one more when a flooded space is left
        downwards) that the engine must hold; a cluttered hand plays every non-Heat card and
        may fill up with Heat; any other hand plays no Heat card."""
        a = ((self.last_dump.get("args") or {}).get("_private") or {}).get(str(pid(car)))
        if a is None:
            return False
        types = self.card_types()
        engine = sum(1 for c in self.last_dump["cards"] if c["card_location"] == f"engine-{cid(car)}")
        gear, new = int(a["gear"]), len(ids)
        if not 1 <= new <= 4 or abs(new - gear) > 2:
            return False
        cost = (1 if abs(new - gear) > 1 else 0) + (1 if a["flooded"] and new < gear else 0)
        if cost > engine:
            return False
        heat = {i for i in ids if types[i] in (106, 111)}
        if a["clutteredHand"]:
            non_heat = {i for i, t in self.hand_ids(car).items() if t != "H"}
            return non_heat <= set(ids)
        return not heat

    def tried_plans(self) -> list[str]:
        s = self.state
        car = s["order"][s["cursor"]]
        me = next(c for c in s["cars"] if c["id"] == car)
        out = []
        for action, ids in self.candidate_plans(car).items():
            # stReveal refuses a change of more than 2 gears (it is checked there, not in actPlan)
            if abs(len(ids) - me["gear"]) > 2:
                continue
            r = self.w(cmd="call", player=pid(car), method="actPlan", args=[ids], **{"try": True})
            if r.get("ok") or r["error"]["kind"] == "need-shuffle":
                out.append(action)
        return sorted(out)

    # ------------------------------------------------------------------ apply
    def apply(self, action: str) -> JSON:
        try:
            return self.apply_inner(action)
        except NeedShuffle as e:
            return self.enter_chance(e)

    def enter_chance(self, e: NeedShuffle) -> JSON:
        """The adaptation stopped at a shuffle: show the chance point and keep the call."""
        err = e.err
        at = err["at"]
        for ev in at.get("events", []):
            card = (ev.get("args") or {}).get("card")
            if ev.get("name") == "resolveBoost" and isinstance(card, dict) and int(card["id"]) not in self.flip_order:
                self.flip_order.append(int(card["id"]))
        self.state = self.read(at=at, shuffle={"location": err["location"], "stack": at.get("stack", [])})
        self.pending = {"call": e.call, "location": err["location"]}
        return self.state

    def shuffle(self, action: str) -> JSON:
        """The harness's shuffle outcome: hand it to the adaptation's shuffle and run the
        interrupted call again from where it started (the worker rolled it back)."""
        words = action.split()
        car = words[0]
        if not self.pending or self.state.get("shuffle") != car:
            raise Refused("illegal-action", f"{action}: no shuffle of {car} is awaited")
        cards = words[2:]
        if any(x not in TYPE_OF for x in cards):
            raise Refused("malformed", f"{action}: unknown card")
        mine = next(c for c in self.state["cars"] if c["id"] == car)
        if canon(cards) != canon(mine["discard"]):
            raise Refused("illegal-action", f"{action}: not the cards of {car}'s discard pile")
        self.orders.append({"location": self.pending["location"], "types": [TYPE_OF[x] for x in cards]})
        self.w.ok(cmd="orders", orders=self.orders)
        player, method, args = self.pending["call"]
        try:
            self.check(self.call(player, method, args, action), action)
        except NeedShuffle as e:
            if e.err["location"] == self.pending["location"] and len(self.orders) > 4:
                raise RuntimeError("the adaptation keeps reshuffling") from None
            return self.enter_chance(e)
        self.pending = None
        self.orders = []
        return self.settle(action)

    def call(self, player: int, method: str, args: list[Any], action: str) -> JSON:
        r = self.w(cmd="call", player=player, method=method, args=args)
        if not r.get("ok") and r["error"]["kind"] == "need-shuffle":
            raise NeedShuffle((player, method, args), r["error"])
        return r

    def apply_inner(self, action: str) -> JSON:
        s = self.state
        words = action.split()
        if len(words) < 2:
            raise Refused("malformed", f"cannot read {action!r}")
        car, verb = words[0], words[1]
        if s["phase"] == "over":
            raise Refused("illegal-action", "the race is over")
        if verb == "shuffle":
            return self.shuffle(action)
        if s.get("shuffle"):
            raise Refused("illegal-action", f"{action}: a shuffle is awaited")
        if s["phase"] == "plan":
            if car != s["order"][s["cursor"]] or verb != "gear":
                raise Refused("illegal-action", f"{action}: not the planning car's plan")
            if action not in self.legal_plans():
                raise Refused("illegal-action", f"{action}: the adaptation refuses this plan")
            ids = self.candidate_plans(car)[action]
            self.plans[car] = ids
            if s["cursor"] + 1 < len(s["order"]):
                self.state = self.read(plan_cursor=s["cursor"] + 1)
                return self.state
            self.played = {c: list(v) for c, v in self.plans.items()}
            for c in s["order"]:
                r = self.call(pid(c), "actPlan", [self.plans[c]], action)
                self.check(r, action)
            self.plans = {}
            return self.settle(action)
        if s["phase"] != "turn" or car != s["turn"]["car"]:
            raise Refused("illegal-action", f"{action}: not this car's turn")
        if action not in self.legal():
            raise Refused("illegal-action", f"{action}: not offered by the adaptation")
        rest = words[2:]
        p = pid(car)
        if verb == "cooldown":
            r = self.call(p, "actReact", ["cooldown", ["gear"], int(rest[0])], action)
        elif verb == "adrenaline" and rest == ["cooldown"]:
            r = self.call(p, "actReact", ["cooldown", ["adrenaline"], 1], action)
        elif verb == "adrenaline" and rest == ["move"]:
            r = self.call(p, "actReact", ["adrenaline", ["adrenaline"], None], action)
        elif verb == "sector":
            entries = (((self.last_dump.get("args") or {}).get("symbols") or {}).get("cooldown") or {}).get("entries") or {}
            key = next(k for k, v in entries.items()
                       if k.startswith("corner-") and not v.get("used") and v.get("doable", True))
            r = self.call(p, "actReact", ["cooldown", [key], 1], action)
        elif verb == "boost":
            r = self.call(p, "actReact", ["heated-boost", ["heated-boost"], None], action)
        elif verb == "end":
            r = self.call(p, "actPassReact", [], action)
        elif verb == "slipstream":
            n = 2 + (int(rest[0][1:]) if rest else 0)
            r = self.call(p, "actSlipstream", [n], action)
        elif verb == "no":
            r = self.call(p, "actSlipstream", [0], action)
        elif verb == "discard":
            chosen = [] if rest == ["nothing"] else rest
            hand = self.hand_ids(car)
            ids = []
            for name in chosen:
                i = next(i for i, n in hand.items() if n == name and i not in ids)
                ids.append(i)
            r = self.call(p, "actDiscard", [ids], action)
        else:
            raise Refused("malformed", f"cannot read {action!r}")
        self.check(r, action)
        return self.settle(action)

    def check(self, r: JSON, action: str) -> None:
        if r.get("ok"):
            for e in r.get("events") or []:
                card = (e.get("args") or {}).get("card")
                if e.get("name") == "resolveBoost" and isinstance(card, dict):
                    self.flip_order.append(int(card["id"]))
            return
        err = r["error"]
        if err["kind"] == "need-shuffle":
            raise Unsupported(f"{action}: the adaptation reshuffles {err.get('location')} inside this step")
        if err["kind"] in ("user", "visible"):
            raise Refused("illegal-action", f"{action}: {err['message']}")
        raise RuntimeError(f"{action}: the adaptation failed: {err}")

    def settle(self, action: str) -> JSON:
        """Run on through the steps with no choice (HOWTO section 3) and read the state."""
        for _ in range(200):
            d = self.w.ok(cmd="dump")["dump"]
            st = d["state"]["id"]
            self.last_dump = d
            if st == ST_CHECK_CORNER:
                r = self.call(d["state"]["active"], "actCheckCorner", [], action)
                self.check(r, action)
                continue
            if st == ST_CHOOSE_SPEED:
                raise Unsupported(f"{action}: the adaptation waits for a speed choice")
            if st in (ST_REACT, ST_SLIPSTREAM, ST_DISCARD):
                self.state = self.read()
                acts = self.legal()
                if len(acts) == 1 and acts[0].endswith(("end react", "no slipstream", "discard nothing")):
                    self.apply_pass(acts[0])
                    continue
                return self.state
            if st == ST_PLAN:
                self.new_round()
                self.state = self.read(plan_cursor=0)
                if not self.state["order"]:
                    return self.state
                return self.state
            self.state = self.read()
            return self.state
        raise RuntimeError("no choice reached")

    def apply_pass(self, action: str) -> None:
        car = action.split()[0]
        p = pid(car)
        if action.endswith("end react"):
            r = self.call(p, "actPassReact", [], action)
        elif action.endswith("no slipstream"):
            r = self.call(p, "actSlipstream", [0], action)
        else:
            r = self.call(p, "actDiscard", [[]], action)
        self.check(r, action)

    def new_round(self) -> None:
        self.played = {}
        self.plans = {}
        self.flip_order = []

    # ------------------------------------------------------------------ setup
    def setup(self, setup: JSON) -> JSON:
        if setup.get("modules") or setup.get("legends") or setup.get("weather"):
            raise Unsupported("a setup with modules: the adaptation draws weather and road tokens itself")
        n = setup["players"]
        grid_cids = [cid(c) for c in setup["grid"]]
        # setupNewGame gives the i-th player (P<i+1>) the i-th number of a shuffled list:
        # that number is the car's place on the grid
        grid = [grid_cids.index(i) for i in range(n)]
        orders = [{"location": f"deck-{i}", "types": [TYPE_OF[x] for x in deck]}
                  for i, deck in enumerate(setup["decks"])]
        self.new_table(setup["track"], n, setup["laps"], grid, orders)
        self.plans, self.played, self.finished_at = {}, {}, {}
        self.meta = {"track": setup["track"], "laps": setup["laps"], "modules": [],
                     "rulings": {rid: RULINGS.get(rid, opt) for rid, opt in sorted(DEFAULTS.items())}}
        self.stress_base = self.count_stress()
        # The adaptation has no Stress supply; heatcore's count of a box of 37 is kept beside it.
        self.supply_base = 37 - self.stress_base
        self.state = self.read(plan_cursor=0)
        return self.state


def main() -> int:
    src = os.environ.get("BGA_HEAT_SRC", "")
    argv = sys.argv[1:]
    if "--src" in argv:
        src = argv[argv.index("--src") + 1]
    if not src or not Path(src, "modules", "php", "Game.php").is_file():
        print("adapter.py: set BGA_HEAT_SRC (or --src) to a fetched copy of bga-devs/bga-heat "
              "(README.md says how)", file=sys.stderr)
        return 2
    adapter: Adapter | None = None
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            req = json.loads(line)
        except ValueError:
            reply: JSON = {"ok": False, "error": {"kind": "malformed", "message": "not JSON"}}
            print(json.dumps(reply), flush=True)
            continue
        op = req.get("op")
        try:
            if op == "start":
                if req.get("protocol") not in ("conform/2", "conform/1"):
                    raise Unsupported("protocol")
                if req.get("ruleset", "heat") != "heat":
                    raise Unsupported("only heat")
                if adapter is None:
                    adapter = Adapter(src)
                hello = dict(HELLO)
                hello["protocol"] = req["protocol"]
                reply = hello
            elif op == "stop":
                print(json.dumps({"ok": True}), flush=True)
                return 0
            elif adapter is None:
                raise Refused("protocol", "start first")
            elif op == "setup":
                reply = {"ok": True, "state": adapter.setup(req["setup"])}
            elif op == "load":
                adapter.load(req["state"])
                reply = {"ok": True}
            elif op == "legal":
                if adapter.state is None:
                    raise Refused("protocol", "no state")
                reply = {"ok": True, "actions": adapter.legal()}
            elif op == "apply":
                if adapter.state is None:
                    raise Refused("protocol", "no state")
                saved = adapter.state
                try:
                    reply = {"ok": True, "state": adapter.apply(req["action"]), "events": []}
                except (Unsupported, Refused):
                    adapter.state = saved
                    raise
            else:
                raise Refused("protocol", f"unknown op {op}")
        except Unsupported as e:
            reply = {"ok": False, "error": {"kind": "unsupported", "message": str(e)}}
        except Refused as e:
            reply = {"ok": False, "error": {"kind": e.kind, "message": e.message}}
        except Exception as e:  # the adaptation or the stand-in failed: say so, keep serving
            print(f"adapter.py: {type(e).__name__}: {e}", file=sys.stderr)
            reply = {"ok": False, "error": {"kind": "unsupported", "message": f"adapter failure: {type(e).__name__}: {str(e)[:300]}"}}
            if adapter is not None:
                adapter.state = None
        print(json.dumps(reply), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

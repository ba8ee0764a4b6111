"""Hand-placed Rallyman GT cases: seed clauses and ruling alternatives that seeded races
seldom or never show (a car's own yellow flag, each value of each switch).

Each :class:`Crafted` places cars by hand (:func:`placed`), names the rule or ruling and the
switch value it shows, and says what it expects: the legal actions there, a rejection, or
the steps of a few actions. :func:`crafted_suite` turns them into the shared case format
(``spec/schemas/case.schema.json``); ``python -m heatcore.rallyman.fixtures generate`` writes
them to ``spec/rallyman/fixtures/crafted.json``. The expected states are the engine's, so
each case's point is also stated apart from the engine, in ``tests/test_rgt_crafted.py``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from heatcore.framework.conformance import SUITE_FORMAT
from heatcore.framework.errors import RulesError
from heatcore.framework.events import event_to_dict
from heatcore.framework.values import replace
from heatcore.rallyman.components import TOKENS, full_bag
from heatcore.rallyman.engine import apply, legal_actions
from heatcore.rallyman.notation import parse_action, state_to_dict
from heatcore.rallyman.options import Options
from heatcore.rallyman.rounds import advance
from heatcore.rallyman.state import WHITE, Car, RaceState
from heatcore.rallyman.track import load_track

PG, AP = "proving-ground", "albert-park"


def car(space: str, gear: int = 0, **kw: object) -> Car:
    """A white car on ``space`` in ``gear`` (other fields by keyword)."""
    return replace(Car(space=space, laps=0, gear=gear, colour=WHITE), **kw)


def placed(*cars: Car, track: str = PG, options: Options | None = None, laps: int = 1,
           yellow: tuple[int, ...] = (), order: tuple[int, ...] | None = None,
           weather: str = "dry") -> RaceState:
    """``order[0]`` (P1 by default) about to take its turn in round 1; the bag holds every
    token no car holds and no yellow flag on the track."""
    held = [t for c in cars for t in c.tokens]
    bag = tuple(n - held.count(t) - (len(yellow) if t == "yellow" else 0)
                for t, n in zip(TOKENS, full_bag(), strict=True))
    state = RaceState(track=load_track(track), laps=laps, options=options or Options(),
                      weather=weather, round=1, order=order or tuple(range(len(cars))),
                      cursor=0, cars=tuple(cars), bag=bag, yellow=yellow)
    return advance(state, [])


@dataclass(frozen=True)
class Crafted:
    """One hand-placed case. ``expect`` is ``"legal"``, ``"reject"`` (the single action is
    refused, naming ``rule``) or ``"steps"`` (every action applied in turn)."""

    ident: str
    description: str
    rules: tuple[str, ...]
    rulings: tuple[str, ...]
    source: str
    build: Callable[[], RaceState]
    expect: str
    actions: tuple[str, ...] = ()
    rule: str = ""


def _run(state: RaceState, actions: tuple[str, ...]) -> tuple[RaceState, list[dict[str, Any]]]:
    steps = []
    for text in actions:
        state, events = apply(state, parse_action(text))
        steps.append({"action": text, "state": state_to_dict(state),
                      "events": [event_to_dict(e) for e in events]})
    return state, steps


def to_case(c: Crafted) -> dict[str, Any]:
    """The case in the shared format, its expectations worked out by the engine."""
    state = c.build()
    case: dict[str, Any] = {"id": c.ident, "description": c.description,
                            "rules": list(c.rules), "rulings": list(c.rulings),
                            "source": c.source, "state": state_to_dict(state)}
    if c.expect == "legal":
        case["expect"] = {"legal": [str(a) for a in legal_actions(state)]}
    elif c.expect == "reject":
        (action,) = c.actions
        try:
            apply(state, parse_action(action))
        except RulesError as error:
            case["expect"] = {"rejection": {"action": action, "kind": error.kind,
                                            "rule": error.rule}}
        else:
            raise AssertionError(f"{c.ident}: {action} was accepted")
    else:
        case["expect"] = {"steps": _run(state, c.actions)[1]}
    return case


#: Every crafted case, filled in by the modules that define them (:func:`crafted_cases`).
CASES: list[Crafted] = []


def _yellow_own(options: Options | None = None) -> RaceState:
    """P1 in gear 0 on the inside lane holds the yellow flag it drew; P2 in gear 1 stands
    diagonally ahead, so P1's only free space is beside P2."""
    return placed(car("T2.L1.1", 0, tokens=()), car("T2.L2.2", 1), yellow=(0,),
                  options=options)


CASES += [
    Crafted("damage.yellow-flag.own-flag.legal",
            "A car's own yellow flag does not hold it back: in gear 0 it may lay G1 beside a "
            "car in gear 1", ("rgt.damage.yellow-flag",), ("rgt.ruling.yellow-flag-ends",),
            "seed 004 ダメージトークン イエローフラッグ: 動き出したら、トークンはトラック上から"
            "取り除かれ", _yellow_own, "legal"),
    Crafted("damage.yellow-flag.own-flag.steps",
            "A car moving off beside another car lifts its own yellow flag: the token goes to "
            "its dashboard", ("rgt.damage.yellow-flag",), ("rgt.ruling.yellow-flag-ends",),
            "seed 004 ダメージトークン イエローフラッグ", _yellow_own, "steps",
            ("P1 lay G1 T2.L1.2", "P1 go one", "P1 roll", "P1 dice -")),
    Crafted("damage.yellow-flag.other-flag.reject",
            "Another car's yellow flag forbids drawing level even at an equal gear",
            ("rgt.damage.yellow-flag",), (), "seed 004 ダメージトークン イエローフラッグ",
            lambda: placed(car("T2.L2.1", 0), car("T2.L1.2", 1), yellow=(1,)), "reject",
            ("P1 lay G1 T2.L2.2",)),
]


def _beside_under_flag(value: str) -> Callable[[], RaceState]:
    """P1 (gear 3) beside P2 (gear 2) on albert-park: T12.L3.1 is beside both T12.L2.1 and
    T12.L2.2; P3 (gear 0, far behind) drew a yellow flag."""
    return lambda: placed(car("T12.L2.1", 3), car("T12.L3.1", 2), car("T1.L1.1", 0),
                          track=AP, yellow=(2,), options=Options(yellow_beside=value))


_YB = ("rgt.ruling.yellow-beside",)
_YB_SRC = "seed 004 イエローフラッグ: 各プレイヤーは他のプレイヤーのクルマの横に並ぶことができない"
CASES += [
    Crafted("ruling.yellow-beside.nobody.legal",
            "Under another car's yellow flag a car already beside a car may not move on "
            "beside it: only the space away from it is offered", ("rgt.damage.yellow-flag",),
            _YB, _YB_SRC, _beside_under_flag("nobody"), "legal"),
    Crafted("ruling.yellow-beside.nobody.reject",
            "Under another car's yellow flag, staying beside a car is refused naming the "
            "yellow flag rule", ("rgt.damage.yellow-flag",), _YB, _YB_SRC,
            _beside_under_flag("nobody"), "reject", ("P1 lay G3 T12.L2.2",)),
    Crafted("ruling.yellow-beside.already-beside.legal",
            "Switch yellow_beside=already-beside: a car already beside a car may go on beside "
            "it under a yellow flag", ("rgt.damage.yellow-flag",), _YB, _YB_SRC,
            _beside_under_flag("already-beside"), "legal"),
    Crafted("ruling.yellow-beside.already-beside.steps",
            "Switch yellow_beside=already-beside: the car lays its die beside the car it "
            "already stood beside", ("rgt.damage.yellow-flag",), _YB, _YB_SRC,
            _beside_under_flag("already-beside"), "steps", ("P1 lay G3 T12.L2.2",)),
]

def _damaged(gear: int, value: str, lays: tuple[str, ...] = ()) -> Callable[[], RaceState]:
    """P1 (GT6, dry) in ``gear`` with one gear damage token, with ``lays`` already laid."""

    def build() -> RaceState:
        state = placed(car("T1.L2.1", gear, tokens=("gear",)), car("T9.L3.1", 0),
                       options=Options(gear_damage_removes=value))
        for text in lays:
            state, _ = apply(state, parse_action(text))
        return state

    return build


_GD = ("rgt.ruling.gear-damage-die",)
_GD_SRC = ("seed 004 ギアダメージ: 手番時に使用できる「ギアダイス」がトークン１つにつき１つ減る。"
           "ギアの数は問わない")
_FIVE = ("P1 lay G1 T1.L2.2", "P1 lay G2 T1.L2.3", "P1 lay G3 T2.L2.1", "P1 lay G4 T2.L2.2",
         "P1 lay G5 T2.L2.3")
CASES += [
    Crafted("ruling.gear-damage-die.highest.legal",
            "One gear damage token takes the gear 6 die away: from gear 5 only G4 and G5 (and "
            "coast)", ("rgt.damage.gear",), _GD, _GD_SRC, _damaged(5, "highest"), "legal"),
    Crafted("ruling.gear-damage-die.highest.reject",
            "One gear damage token takes the gear 6 die away: G6 is refused",
            ("rgt.damage.gear",), _GD, _GD_SRC, _damaged(5, "highest"), "reject",
            ("P1 lay G6 T1.L2.2",)),
    Crafted("ruling.gear-damage-die.lowest.legal",
            "Switch gear_damage_removes=lowest: the gear 1 die is gone, from gear 1 only G2 "
            "and coast", ("rgt.damage.gear",), _GD, _GD_SRC, _damaged(1, "lowest"), "legal"),
    Crafted("ruling.gear-damage-die.count.legal",
            "Switch gear_damage_removes=count: every gear die stays, from gear 5 G4, G5 and "
            "G6", ("rgt.damage.gear",), _GD, _GD_SRC, _damaged(5, "count"), "legal"),
    Crafted("ruling.gear-damage-die.count.cap",
            "Switch gear_damage_removes=count: after five gear dice a GT6 car with one token "
            "may lay no sixth", ("rgt.damage.gear",), _GD, _GD_SRC,
            _damaged(0, "count", _FIVE), "legal"),
]

def _from_zero(value: str) -> Callable[[], RaceState]:
    """P1, a GT5 (one boost die), in gear 0 on a straight."""
    return lambda: placed(car("T1.L2.1", 0, car_class="GT5"),
                          car("T9.L3.1", 0, car_class="GT5"), options=Options(zero_start=value))


_GZ = ("rgt.ruling.gear-zero-start",)
_GZ_SRC = ("seed 004 ブーストダイス: 現在のギアから「2段階」上げる場合、"
           "緑のブーストダイスも一緒に振らなければならない")
CASES += [
    Crafted("ruling.gear-zero-start.boost.legal",
            "From gear 0 a GT5 may lay gear die 1, or gear die 2 with its boost die",
            ("rgt.dice.gear-step", "rgt.dice.boost"), _GZ, _GZ_SRC, _from_zero("boost"),
            "legal"),
    Crafted("ruling.gear-zero-start.boost.steps",
            "From gear 0, gear die 2 is laid with a boost die", ("rgt.dice.boost",), _GZ,
            _GZ_SRC, _from_zero("boost"), "steps", ("P1 lay G2 T1.L2.2",)),
    Crafted("ruling.gear-zero-start.gear1.legal",
            "Switch zero_start=gear1: from gear 0 only gear die 1 is offered, boost die or not",
            ("rgt.dice.gear-step",), _GZ, _GZ_SRC, _from_zero("gear1"), "legal"),
    Crafted("ruling.gear-zero-start.gear1.reject",
            "Switch zero_start=gear1: gear die 2 from gear 0 is refused",
            ("rgt.dice.gear-step",), _GZ, _GZ_SRC, _from_zero("gear1"), "reject",
            ("P1 lay G2 T1.L2.2",)),
]

def _past_the_loss(value: str) -> Callable[[], RaceState]:
    """P1 has laid G4 into T3.L2.2, a corner of limit 3: a certain loss of control."""

    def build() -> RaceState:
        state = placed(car("T3.L2.1", 4), car("T9.L3.1", 0),
                       options=Options(dice_after_loss=value))
        return apply(state, parse_action("P1 lay G4 T3.L2.2"))[0]

    return build


_DL = ("rgt.ruling.dice-after-loss",)
_DL_SRC = ("seed 004 エンジン全開 / 集中トークン: 集中トークンはエンジン全開時に振った"
           "「黒と白のダイスの数」だけ獲得することができる")
CASES += [
    Crafted("ruling.dice-after-loss.allowed.legal",
            "After a die laid into a corner above its limit, more dice may be laid",
            ("rgt.turn.sequence",), _DL, _DL_SRC, _past_the_loss("allowed"), "legal"),
    Crafted("ruling.dice-after-loss.allowed.flat",
            "Flat out, the coast die laid after the space of a certain loss earns focus too: "
            "two tokens", ("rgt.focus.gain", "rgt.roll.flat-out"), _DL, _DL_SRC,
            _past_the_loss("allowed"), "steps", ("P1 lay C T3.L2.3", "P1 go flat")),
    Crafted("ruling.dice-after-loss.stop.legal",
            "Switch dice_after_loss=stop: after a die laid into a corner above its limit the "
            "plan is over, only rolling is offered", ("rgt.turn.sequence",), _DL, _DL_SRC,
            _past_the_loss("stop"), "legal"),
    Crafted("ruling.dice-after-loss.stop.reject",
            "Switch dice_after_loss=stop: a die laid after a certain loss of control is "
            "refused", ("rgt.turn.sequence",), _DL, _DL_SRC, _past_the_loss("stop"), "reject",
            ("P1 lay C T3.L2.3",)),
]

def _dotted(value: str, start: str) -> Callable[[], RaceState]:
    """P1 in gear 3 before T6.L1.2 of proving-ground: a steep corner, centre 3, whose entry
    dotted line (from T6.L1.1) says 2."""
    return lambda: placed(car(start, 3), car("T9.L3.1", 0),
                          options=Options(dotted_limit=value))


_DT = ("rgt.ruling.dotted-limit",)
_DT_SRC = ("seed 004 急なコーナー: ギアの制限は点線の数字に置き換わる / "
           "コーナーマスの中央に書かれてある数字は、例え斜めに入ったとしても、常に適用される")
CASES += [
    Crafted("ruling.dotted-limit.replaces.straight",
            "Entering across a dotted line of 2 in gear 3 exceeds it (both readings agree on "
            "the shipped tracks: no dotted number there is above its centre number)",
            ("rgt.corner.steep-entry",), _DT, _DT_SRC, _dotted("replaces", "T6.L1.1"), "steps",
            ("P1 lay G3 T6.L1.2",)),
    Crafted("ruling.dotted-limit.replaces.diagonal",
            "Entering the same corner space diagonally in gear 3 keeps within its centre 3",
            ("rgt.corner.steep-diagonal",), _DT, _DT_SRC, _dotted("replaces", "T6.L2.1"),
            "steps", ("P1 lay G3 T6.L1.2",)),
    Crafted("ruling.dotted-limit.lower.straight",
            "Switch dotted_limit=lower: across the dotted line the lower of 2 and 3 applies, "
            "gear 3 exceeds it", ("rgt.corner.steep-entry",), _DT, _DT_SRC,
            _dotted("lower", "T6.L1.1"), "steps", ("P1 lay G3 T6.L1.2",)),
]

RELAY_ROLL = ("P1 lay G2 T21.L3.1", "P1 lay C T21.L3.2", "P1 lay G3 T22.L3.1", "P1 lay G4 T22.L3.2",
         "P1 lay G5 T22.L3.3", "P1 go flat", "P1 dice !/-/!/-/!")
RELAY_DICE = ("P1 relay G2! T21.L12.1", "P1 relay C T22.L2.1", "P1 relay G3! T22.L2.2",
          "P1 relay G4 T22.L2.3", "P1 relay G5! T1.L2.1")


def _relay_near_line(value: str, relaid: int = 0) -> Callable[[], RaceState]:
    """Albert-park, last lap: P1 laid five dice along lane 3 from T20.L3.3 and lost control
    on T22.L3.3, just before the line (its third warning); through the straddling space
    T21.L12.1 the same five dice reach across the line. ``relaid`` dice already re-laid."""

    def build() -> RaceState:
        state = placed(car("T20.L3.3", 2), car("T5.L3.1", 0), track=AP,
                       options=Options(relay_finish=value))
        for text in RELAY_ROLL + RELAY_DICE[:relaid]:
            state, _ = apply(state, parse_action(text))
        return state

    return build


_RF = ("rgt.ruling.relay-finish",)
_RF_SRC = ("seed 004 コントロールを失う: 手番開始時の計画のようにダイスをトラック上に再配置できる"
           "（通常のトラックルールには従う）/ ゲームの終了")
CASES += [
    Crafted("ruling.relay-finish.finishes.steps",
            "Re-laid through the straddling space, the rolled dice cross the final line: the "
            "car finishes there and the race is over", ("rgt.loc.relay", "rgt.finish.end"),
            _RF, _RF_SRC, _relay_near_line("finishes"), "steps", RELAY_DICE),
    Crafted("ruling.relay-finish.finishes.legal",
            "The last rolled die may be re-laid across the final finish line",
            ("rgt.loc.relay",), _RF, _RF_SRC, _relay_near_line("finishes", 4), "legal"),
    Crafted("ruling.relay-finish.before-line.legal",
            "Switch relay_finish=before-line: no re-lay is offered that could only lose "
            "control across the final line", ("rgt.loc.relay",), _RF, _RF_SRC,
            _relay_near_line("before-line", 1), "legal"),
    Crafted("ruling.relay-finish.before-line.reject",
            "Switch relay_finish=before-line: the coast die towards the line is refused",
            ("rgt.loc.relay",), _RF, _RF_SRC, _relay_near_line("before-line", 1), "reject",
            ("P1 relay C T22.L2.1",)),
]

def _partly_level(value: str) -> Callable[[], RaceState]:
    """Albert-park: P2 in gear 4 on T11.L3.2, which shares part of its length with T11.L2.1
    but not the middle of it; P1 in gear 3 before T11.L2.1, not beside P2."""
    return lambda: placed(car("T10.L1.2", 3), car("T11.L3.2", 4), track=AP,
                          options=Options(beside=value))


_BS = ("rgt.ruling.beside",)
_BS_SRC = ("seed 004 追い越し: 他のプレイヤーのクルマの横のマスに入る際は、"
           "そのクルマのギアと同じまたはより大きいギアでなければならない")
CASES += [
    Crafted("ruling.beside.overlap.legal",
            "A space sharing any length with another car's space is beside it: only gear 4 "
            "may enter T11.L2.1 beside a car in gear 4", ("rgt.move.overtake-gear",), _BS,
            _BS_SRC, _partly_level("overlap"), "legal"),
    Crafted("ruling.beside.overlap.reject",
            "Entering a space partly level with a car in gear 4 in gear 3 is refused by the "
            "overtaking rule", ("rgt.move.overtake-gear",), _BS, _BS_SRC,
            _partly_level("overlap"), "reject", ("P1 lay G3 T11.L2.1",)),
    Crafted("ruling.beside.centre.legal",
            "Switch beside=centre: a space whose middle is not level with the car's is not "
            "beside it, any gear may enter", ("rgt.move.overtake-gear",), _BS, _BS_SRC,
            _partly_level("centre"), "legal"),
    Crafted("ruling.beside.centre.steps",
            "Switch beside=centre: gear 3 enters the space partly level with a car in gear 4",
            ("rgt.move.overtake-gear",), _BS, _BS_SRC, _partly_level("centre"), "steps",
            ("P1 lay G3 T11.L2.1",)),
]

def _started(track: str, grid: tuple[int, ...], laps: int, weather: str = "dry",
             car_class: str = "GT6") -> Callable[[], RaceState]:
    """The state a setup starts (the first car about to plan)."""
    from heatcore.rallyman.setup import RaceSetup, start_race

    return lambda: start_race(RaceSetup(track, len(grid), laps, grid, weather=weather,
                                        car_class=car_class))[0]


_SU = ("rgt.ruling.setup", "rgt.ruling.first-round")
_SU_SRC = ("research rallyman.md 3.7 (S4); seed 004 ギアとラウンドマーカー: "
           "”白”ラウンドと”黒”ラウンド")
CASES += [
    Crafted("ruling.setup.two-cars",
            "Two cars start on albert-park's first grid spaces in gear 0, white markers, no "
            "focus, two laps", ("rgt.round.alternate",), _SU, _SU_SRC,
            _started(AP, (1, 0), 2), "legal"),
    Crafted("ruling.setup.six-cars",
            "Six cars fill proving-ground's grid in the drawn order, all in gear 0 on white, "
            "one lap", ("rgt.round.alternate",), _SU, _SU_SRC,
            _started(PG, (3, 1, 5, 0, 2, 4), 1), "legal"),
    Crafted("ruling.setup.wet-gt5",
            "Four GT5 cars in the wet start on rain tyres in gear 0, white markers, three laps",
            ("rgt.round.alternate",), _SU, _SU_SRC,
            _started(PG, (0, 1, 2, 3), 3, "wet", "GT5"), "legal"),
]

def crafted_cases() -> list[Crafted]:
    """Every crafted case, in a stable order."""
    return list(CASES)


def crafted_suite() -> dict[str, Any]:
    """The crafted cases as one suite of the shared format."""
    return {"format": SUITE_FORMAT, "ruleset": "rallyman-gt",
            "cases": [to_case(c) for c in crafted_cases()]}

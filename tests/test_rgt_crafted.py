"""Hand-placed Rallyman GT cases (spec/rallyman/fixtures/crafted.json): the shipped suite is
what heatcore.rallyman.crafted builds; each case's point, stated here apart from the engine;
the independent checker agrees with every case; engines that follow another reading fail."""

from __future__ import annotations

import json
from typing import Any

import pytest

from heatcore.framework.conformance.binding import Step
from heatcore.framework.values import replace
from heatcore.rallyman import crafted, fixtures, moves
from heatcore.rallyman.oracle import check_recorded
from heatcore.rallyman.oracle.choices import legal as oracle_legal
from heatcore.rallyman.state import RaceState

SHIPPED = {c["id"]: c for c in json.loads(
    (fixtures.folder() / "crafted.json").read_text(encoding="utf-8"))["cases"]}


def _case(ident: str) -> dict[str, Any]:
    return SHIPPED[ident]


def _legal(ident: str) -> list[str]:
    return list(_case(ident)["expect"]["legal"])


def test_the_shipped_suite_is_the_crafted_one() -> None:
    assert crafted.crafted_suite()["cases"] == list(SHIPPED.values())


@pytest.mark.parametrize("ident", sorted(SHIPPED))
def test_the_independent_checker_agrees_with_each_case(ident: str) -> None:
    """Legal actions by the checker's own generator; rejections absent from it; steps
    judged by the checker with its own legal actions before each."""
    case = _case(ident)
    expect, state = case["expect"], case["state"]
    if "legal" in expect:
        assert oracle_legal(state) == set(expect["legal"])
    elif "rejection" in expect:
        mine = oracle_legal(state)
        assert mine and expect["rejection"]["action"] not in mine
    else:
        steps, before = [], state
        for step in expect["steps"]:
            steps.append(Step(before, step["action"], step["state"], step["events"],
                              sorted(oracle_legal(before) or ())))
            before = step["state"]
        assert not check_recorded(state, steps)


@pytest.mark.rules("rgt.damage.yellow-flag", "rgt.ruling.yellow-flag-ends")
def test_a_car_is_not_held_back_by_its_own_yellow_flag() -> None:
    assert _legal("damage.yellow-flag.own-flag.legal") == ["P1 lay G1 T2.L1.2"]
    last = _case("damage.yellow-flag.own-flag.steps")["expect"]["steps"][-1]["state"]
    assert last["yellow"] == [] and "yellow" in last["cars"][0]["tokens"]
    assert last["cars"][0]["space"] == "T2.L1.2"
    refused = _case("damage.yellow-flag.other-flag.reject")["expect"]["rejection"]
    assert refused["rule"] == "rgt.damage.yellow-flag"


def _own_flag_blocks(real: Any) -> Any:
    """The engine before the fix: any yellow flag out, the mover's own included, blocks."""

    def destinations(state: RaceState, car: int, at: str, gear: int,
                     taken: frozenset[str] = frozenset()) -> Any:
        if car in state.yellow:
            state = replace(state, yellow=tuple(range(len(state.cars))))
        return real(state, car, at, gear, taken)

    return destinations


def test_an_engine_blocked_by_its_own_flag_fails_the_own_flag_cases(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from heatcore.rallyman import control, planning

    ours = [c for i, c in SHIPPED.items() if ".own-flag." in i]
    assert len(ours) == 2 and all(fixtures.run_case(c) is None for c in ours)
    for module in (planning, control):
        monkeypatch.setattr(module, "destinations", _own_flag_blocks(moves.destinations))
    assert all(fixtures.run_case(c) is not None for c in ours)
    assert fixtures.run_case(_case("damage.yellow-flag.other-flag.reject")) is None


@pytest.mark.rules("rgt.ruling.yellow-beside")
def test_under_a_yellow_flag_nobody_stays_beside_unless_switched() -> None:
    nobody = _legal("ruling.yellow-beside.nobody.legal")
    keep = _legal("ruling.yellow-beside.already-beside.legal")
    assert nobody and not any(a.endswith("T12.L2.2") for a in nobody)
    assert set(nobody) < set(keep) and "P1 lay G3 T12.L2.2" in keep
    refused = _case("ruling.yellow-beside.nobody.reject")["expect"]["rejection"]
    assert refused == {"action": "P1 lay G3 T12.L2.2", "kind": "illegal-action",
                       "rule": "rgt.damage.yellow-flag"}
    step = _case("ruling.yellow-beside.already-beside.steps")["expect"]["steps"][0]
    assert step["state"]["turn"]["plan"][0]["to"] == "T12.L2.2"


def _dice(ident: str) -> set[str]:
    return {a.split()[2] for a in _legal(ident) if a.split()[1] == "lay"}


@pytest.mark.rules("rgt.ruling.gear-damage-die", "rgt.damage.gear")
def test_gear_damage_removes_a_die_by_each_reading() -> None:
    assert "G6" not in _dice("ruling.gear-damage-die.highest.legal")
    assert {"G4", "G5"} <= _dice("ruling.gear-damage-die.highest.legal")
    refused = _case("ruling.gear-damage-die.highest.reject")["expect"]["rejection"]
    assert refused["action"] == "P1 lay G6 T1.L2.2"
    assert _dice("ruling.gear-damage-die.lowest.legal") == {"G2", "C"}
    assert {"G4", "G5", "G6"} <= _dice("ruling.gear-damage-die.count.legal")
    capped = _case("ruling.gear-damage-die.count.cap")
    assert sum(s["die"] != "C" for s in capped["state"]["turn"]["plan"]) == 5
    assert _dice("ruling.gear-damage-die.count.cap") == {"C"}


@pytest.mark.rules("rgt.ruling.gear-zero-start", "rgt.dice.gear-step", "rgt.dice.boost")
def test_gear_die_2_with_a_boost_from_gear_0_unless_switched() -> None:
    assert _dice("ruling.gear-zero-start.boost.legal") == {"G1", "G2"}
    step = _case("ruling.gear-zero-start.boost.steps")["expect"]["steps"][0]
    assert step["state"]["turn"]["plan"][0]["boosts"] == 1
    assert _dice("ruling.gear-zero-start.gear1.legal") == {"G1"}
    refused = _case("ruling.gear-zero-start.gear1.reject")["expect"]["rejection"]
    assert refused["action"] == "P1 lay G2 T1.L2.2"


@pytest.mark.rules("rgt.ruling.dice-after-loss", "rgt.focus.gain")
def test_dice_after_a_certain_loss_are_laid_and_earn_focus_unless_switched() -> None:
    assert "P1 lay C T3.L2.3" in _legal("ruling.dice-after-loss.allowed.legal")
    flat = _case("ruling.dice-after-loss.allowed.flat")["expect"]["steps"][-1]
    gained = [e for e in flat["events"] if e["kind"] == "focus-gained"]
    assert len(gained) == 1 and gained[0]["tokens"] == 2
    assert _legal("ruling.dice-after-loss.stop.legal") == ["P1 go one", "P1 go flat"]
    refused = _case("ruling.dice-after-loss.stop.reject")["expect"]["rejection"]
    assert refused["action"] == "P1 lay C T3.L2.3"


def _laid(ident: str) -> dict[str, Any]:
    step: dict[str, Any] = _case(ident)["expect"]["steps"][-1]["state"]["turn"]["plan"][-1]
    return step


@pytest.mark.rules("rgt.ruling.dotted-limit", "rgt.corner.steep-entry")
def test_dotted_limit_cases_on_the_shipped_track() -> None:
    assert _laid("ruling.dotted-limit.replaces.straight")["overspeed"]
    assert not _laid("ruling.dotted-limit.replaces.diagonal")["overspeed"]
    assert _laid("ruling.dotted-limit.lower.straight")["overspeed"]


def _raised_line() -> tuple[Any, Any]:
    """proving-ground with the dotted line into T6.L1.2 (centre 3) raised from 2 to 5: the
    engine's track and move, and the checker's printed track."""
    import dataclasses

    from heatcore.rallyman.oracle.printed import printed_track
    from heatcore.rallyman.track import track_from_dict, tracks_folder

    data = json.loads((tracks_folder() / "proving-ground.json").read_text(encoding="utf-8"))
    for m in data["moves"]:
        if (m["from"], m["to"]) == ("T6.L1.1", "T6.L1.2"):
            m["entry_limit"] = 5
    track = track_from_dict(data)
    printed = printed_track("proving-ground")
    key = ("T6.L1.1", "T6.L1.2")
    raised = dataclasses.replace(printed, moves={**printed.moves,
                                                 key: {**printed.moves[key], "entry_limit": 5}})
    return track, raised


@pytest.mark.rules("rgt.ruling.dotted-limit", "rgt.corner.steep-entry")
@pytest.mark.parametrize(("lower", "over_at_4"), [(False, False), (True, True)])
def test_a_dotted_number_above_the_centre_by_each_reading(lower: bool, over_at_4: bool) -> None:
    """Where the readings part (a dotted 5 on a centre-3 space): the engine and the checker
    give gear 4 across the line the same verdict, by the switch's value."""
    from heatcore.rallyman.oracle.printed import corner_verdict

    track, printed = _raised_line()
    move = track.move("T6.L1.1", "T6.L1.2")
    assert move is not None and move.entry_limit == 5
    assert moves.arrive(track, move, 4, lower)[1] is over_at_4
    assert corner_verdict(printed, "T6.L1.1", "T6.L1.2", 4, lower)[1] is over_at_4
    assert moves.arrive(track, move, 6, lower)[1] and not moves.arrive(track, move, 3, lower)[1]


@pytest.mark.rules("rgt.ruling.relay-finish", "rgt.loc.relay")
def test_a_relay_across_the_final_line_finishes_unless_switched() -> None:
    steps = _case("ruling.relay-finish.finishes.steps")["expect"]["steps"]
    last = steps[-1]
    assert last["action"].endswith("T1.L2.1") and last["state"]["over"]
    assert last["state"]["ranking"][0] == "P1"
    assert "P1 relay G5! T1.L2.1" in _legal("ruling.relay-finish.finishes.legal")
    before = _legal("ruling.relay-finish.before-line.legal")
    assert before and "P1 relay C T22.L2.1" not in before
    refused = _case("ruling.relay-finish.before-line.reject")["expect"]["rejection"]
    assert refused["rule"] == "rgt.loc.relay"


@pytest.mark.rules("rgt.ruling.beside", "rgt.move.overtake-gear")
def test_a_partly_level_space_is_beside_unless_switched_to_centres() -> None:
    into = [a for a in _legal("ruling.beside.overlap.legal") if a.endswith("T11.L2.1")]
    assert into == ["P1 lay G4 T11.L2.1"]
    refused = _case("ruling.beside.overlap.reject")["expect"]["rejection"]
    assert refused["rule"] == "rgt.move.overtake-gear"
    centre = {a for a in _legal("ruling.beside.centre.legal") if a.endswith("T11.L2.1")}
    assert {"P1 lay G1 T11.L2.1", "P1 lay G3 T11.L2.1", "P1 lay G4 T11.L2.1"} <= centre
    spans = {s["id"]: s["span"] for s in json.loads(
        (fixtures.folder().parent / "tracks" / "albert-park.json").read_text("utf-8"))["spaces"]}
    (a0, a1), (b0, b1) = spans["T11.L2.1"], spans["T11.L3.2"]
    assert a0 < b1 and b0 < a1  # they overlap ...
    assert not (b0 <= (a0 + a1) / 2 < b1) and not (a0 <= (b0 + b1) / 2 < a1)  # ... off-centre


@pytest.mark.rules("rgt.ruling.setup", "rgt.ruling.first-round", "rgt.round.alternate")
@pytest.mark.parametrize(("ident", "track", "grid", "laps"), [
    ("ruling.setup.two-cars", "albert-park", ["P2", "P1"], 2),
    ("ruling.setup.six-cars", "proving-ground", ["P4", "P2", "P6", "P1", "P3", "P5"], 1),
    ("ruling.setup.wet-gt5", "proving-ground", ["P1", "P2", "P3", "P4"], 3),
])
def test_a_race_starts_on_the_grid_in_gear_0_in_a_white_round(
        ident: str, track: str, grid: list[str], laps: int) -> None:
    state = _case(ident)["state"]
    spaces = json.loads((fixtures.folder().parent / "tracks" / f"{track}.json").read_text(
        "utf-8"))["grid"]
    where = {c["id"]: c["space"] for c in state["cars"]}
    assert [where[name] for name in grid] == spaces[:len(grid)]
    assert (state["round"], state["laps"], state["track"]) == (1, laps, track)
    for c in state["cars"]:
        assert (c["gear"], c["focus"], c["tokens"], c["laps"]) == ("0", 0, [], 0)
        assert c["colour"] == "white"
        assert c["tyres"] == ("rain" if state["weather"] == "wet" else "asphalt")
    assert _legal(ident)  # the first car may lay a die

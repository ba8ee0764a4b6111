"""Checks of the parts that used to be checked only against themselves (issue 29): the race's
start, the round order and the Stress a spin takes, each tied to the engine by a check that
does not share the engine's code (tests/test_verify_planted.py plants a bug in each and
asserts the check names its rule).

Independent of: the race checker's start check reads the printed data
(``spec/starting-cards.toml``, the track boards, the weather tokens) through
``heatcore.heat.oracle.start``, never ``heatcore.heat.cards``/``heatcore.heat.setup``; the
refinement of starts and rounds (``proofs.refine_race``) evaluates the Z3 setup and round
encodings, which never import the engine, on the engine's recorded states.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable

import pytest

from heatcore.heat.race_checker import RaceChecker
from heatcore.heat.setup import random_setup, start_race
from heatcore.heat.track import track_ids
from proofs import refine_rulings, runner
from proofs.module_refine import describe, refine_modules
from proofs.refine import SPIN_GEARS, check_turn
from proofs.refine_race import RaceRecord, check_races
from proofs.turns import features, race_turns

#: Module lists the start check is tried with (the core race first).
MODULE_SETS: tuple[tuple[str, ...], ...] = ((), ("weather",), ("legends",), ("garage",),
                                            ("weather", "legends"))


@pytest.mark.rules("setup.deck", "setup.engine", "setup.gear", "setup.hand", "setup.grid",
                   "setup.stress-supply", "setup.spaces-and-spots", "weather.setup-change",
                   "legend.setup")
def test_the_race_checker_checks_each_start_against_the_printed_setup(
        starts: int = 15) -> None:
    ids = track_ids()
    for k in range(starts):
        rng = random.Random(k)
        modules = MODULE_SETS[k % len(MODULE_SETS)]
        setup = random_setup(ids[k % len(ids)], 2 + k % 5 if "legends" not in modules else 2,
                             rng, laps=1, modules=modules,
                             legends=1 if "legends" in modules else 0, draft=bool(k % 2))
        state, events = start_race(setup)
        RaceChecker().start(state, events, setup)


def _refined_races(seeds: Iterable[int]) -> list[RaceRecord]:
    races: list[RaceRecord] = []
    for seed in seeds:
        race_turns(seed, races=races)
    return races


@pytest.mark.rules("setup.deck", "setup.engine", "setup.gear", "setup.hand", "setup.grid",
                   "setup.stress-supply", "order.fixed-at-round-start", "adrenaline.who",
                   "adrenaline.count-fixed")
def test_refinement_checks_race_starts_and_round_orders_against_the_model(
        seeds: tuple[int, ...] = (1, 5, 6, 10)) -> None:
    races = _refined_races(seeds)
    stats: Counter[str] = Counter()
    problems = check_races(races, stats=stats)
    assert not problems, "\n".join(map(str, problems[:5]))
    assert stats["starts"] == len(seeds) and stats["rounds"] > 10 * len(seeds)


def test_the_round_model_with_a_wrong_order_is_caught_by_the_round_refinement() -> None:
    races = _refined_races((1, 5))
    problems = check_races(races, frozenset({"order-ignores-racing-line"}))
    assert problems and all("order.fixed-at-round-start" in p.rules for p in problems)


def test_the_setup_model_with_six_card_hands_is_caught_by_the_start_refinement() -> None:
    races = _refined_races((1,))
    problems = check_races(races, frozenset({"setup-hand-six"}))
    assert problems and any("setup.hand" in p.rules for p in problems)


@pytest.mark.rules("corner.spin", "ruling.stress-supply")
def test_refinement_checks_a_spin_in_every_gear(seeds: tuple[int, ...] = (3,)) -> None:
    seen: set[str] = set()
    problems = []
    for seed in seeds:
        for rec in race_turns(seed):
            gears = {f for f in features(rec) if f.startswith("spin-gear-")}
            if gears:
                seen |= gears
                problems += check_turn(rec)
    assert seen == set(SPIN_GEARS), seen
    assert not problems, "\n".join(map(str, problems[:5]))


@pytest.mark.rules("road.where-the-car-is", "weather.no-cooldown", "road.placement",
                   "legend.one-corner", "legend.before-line", "legend.past-line",
                   "upgrade.accelerate", "upgrade.adjust", "upgrade.heat")
def test_prove_modules_refines_each_module_encoding_against_the_engine(
        tracks: tuple[str, ...] = ("usa",)) -> None:
    found = refine_modules(tracks, samples=40)
    assert not found, "\n".join(describe(found)[:5])


def test_prove_every_ruling_refines_each_core_alternative(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    assert len(refine_rulings.CORE_ALTERNATIVES) == 8
    monkeypatch.setattr(refine_rulings, "CORE_ALTERNATIVES",
                        (("ruling.stress-supply", "unlimited"),))
    assert runner.main(["--refine", "40", "--every-ruling", "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert "ok   under ruling.stress-supply=unlimited" in out
    assert "1 alternatives, 0 failed" in out

"""Perft and explore counted twice: by the engine and by the independent model's own move
generator (``heatcore.heat.oracle.counts``), and compared (issue 29).

Independent of: the model's counts use its own legal actions, steps and chance points
(the perft shuffle rule written out again from spec/perft.md); only the start state is
shared. ``kink-3-flips`` records the figures the model counted (``model_figures`` in
``spec/tracks/constructed/explore.json``); the engine's exploration must reach them, and an
engine whose flips stop at an upgrade or whose order ignores the racing line does not.
"""

from __future__ import annotations

import os

import pytest

from heatcore.heat.explore import configuration, configurations, start_state
from heatcore.heat.explore_twice import (
    FIGURES,
    compare_explore,
    compare_perft,
    engine_figures,
    first_violation,
)
from heatcore.heat.notation import state_from_dict
from heatcore.heat.oracle.counts import model_explore
from heatcore.heat.perft import Counter
from heatcore.tools.heat.perft_runs import load_reference

RULES = ("round.sequence", "deck.reshuffle")
#: The exploration large enough for planted flip and order bugs to change its figures.
LARGE = "kink-3-flips"


@pytest.mark.rules(*RULES)
def test_perft_counted_by_the_model_agrees_with_the_engine_and_the_file() -> None:
    entries = load_reference()["entries"]
    for k, entry in enumerate(entries[:8]):
        depth = 3 if k == 0 else 2
        start = state_from_dict(entry["start"])
        engine = [Counter(entry["seed"], "reference").count(start, d) for d in range(depth + 1)]
        assert engine == entry["counts"][:depth + 1], entry["track"]
        assert compare_perft(start, entry["seed"], depth, engine) == [], entry["track"]


@pytest.mark.rules(*RULES)
def test_a_different_perft_count_is_reported() -> None:
    entry = load_reference()["entries"][0]
    start = state_from_dict(entry["start"])
    wrong = list(entry["counts"][:3])
    wrong[2] += 1
    assert compare_perft(start, entry["seed"], 2, wrong) == [
        f"depth 2: engine {wrong[2]}, model {wrong[2] - 1}"]


@pytest.mark.slow
@pytest.mark.rules(*RULES)
def test_explore_counted_by_the_model_agrees_with_the_engine_on_stub_2() -> None:
    setup, seed = configuration("stub-2")
    assert compare_explore(start_state(setup, seed), seed) == []


def _model_figures() -> dict[str, int]:
    recorded = configurations()[LARGE]["model_figures"]
    assert isinstance(recorded, dict)
    return {name: int(recorded[name]) for name in FIGURES}


@pytest.mark.slow
@pytest.mark.rules("reveal.stress-flip", "order.fixed-at-round-start", "round.sequence")
def test_the_engine_explores_kink_3_flips_to_the_models_figures() -> None:
    setup, seed = configuration(LARGE)
    start = start_state(setup, seed)
    engine = engine_figures(start, seed, limit=_model_figures()["states"])
    if engine != _model_figures():
        raise AssertionError(f"{LARGE}: engine {engine}, model {_model_figures()}; first "
                             f"refused transition: {first_violation(start, seed)[-400:]}")


@pytest.mark.skipif(not os.environ.get("HEATCORE_EXPLORE_DEEP"),
                    reason="the model's own exploration of kink-3-flips (minutes): set "
                           "HEATCORE_EXPLORE_DEEP=1")
def test_the_recorded_model_figures_are_the_models_count() -> None:
    setup, seed = configuration(LARGE)
    assert model_explore(start_state(setup, seed), seed).figures() == _model_figures()

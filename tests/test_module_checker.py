"""Races with modules through the independent checker (heatcore.heat.oracle reads the module
rules and data itself): seeded batches, Hypothesis-played races, and planted bugs that the
checker must catch, some of which remove behaviour."""

from __future__ import annotations

import pytest
from checked_play import checked_round, play_drawn_race
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from heatcore.heat import hooks
from heatcore.heat import strategies as hs
from heatcore.heat.conformance.module_cases import crafted_state
from heatcore.heat.engine import legal_actions
from heatcore.heat.modules import legends
from heatcore.heat.race_checker import RuleViolation, seeded_batch
from heatcore.heat.setup import RaceSetup
from heatcore.heat.state import RaceState

WEATHER_RULES = ("weather.no-cooldown", "weather.no-slipstream", "weather.slipstream-boost",
                 "weather.cooling-bonus", "road.limit", "road.overheat", "road.free-boost",
                 "road.slipstream-boost", "road.where-the-car-is", "weather.sector-only")
LEGEND_RULES = ("legend.deck", "legend.past-line", "legend.before-line", "legend.one-corner",
                "legend.final-lap", "legend.no-heat", "legend.turn-order", "legend.finish",
                "legend.aggressive")


@pytest.mark.rules(*WEATHER_RULES)
def test_seeded_weather_races_pass_the_checker_at_every_step() -> None:
    batch = seeded_batch(16, 100, ("weather",))
    assert batch.races == 16 and batch.steps > 16 * 50


@pytest.mark.rules(*LEGEND_RULES, "ruling.legend-adrenaline-count")
def test_seeded_races_with_legends_and_weather_pass_the_checker() -> None:
    batch = seeded_batch(16, 200, ("legends",))
    assert batch.races == 16
    batch = seeded_batch(16, 300, ("weather", "legends"))
    assert batch.races == 16


@pytest.mark.rules(*WEATHER_RULES, *LEGEND_RULES)
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=hs.module_setups(laps=st.just(1)), data=st.data())
def test_hypothesis_plays_module_races_checked_at_every_step(setup: RaceSetup,
                                                             data: st.DataObject) -> None:
    play_drawn_race(setup, data)


def _caught(modules: tuple[str, ...], seed: int = 0, count: int = 16) -> RuleViolation:
    with pytest.raises(RuleViolation) as caught:
        seeded_batch(count, seed, modules)
    return caught.value


def test_the_checker_catches_cooldown_in_a_cloud_sector(monkeypatch: pytest.MonkeyPatch) -> None:
    """Planted bug (removes behaviour): the Cloud never forbids cooldown."""
    monkeypatch.setattr(hooks.cooldown_allowed, "call", lambda state, car: True)
    assert "cooldown" in str(_caught(("weather",)))


def test_the_checker_catches_a_missing_overheat(monkeypatch: pytest.MonkeyPatch) -> None:
    """Planted bug (removes behaviour): Overheat corners cost nothing extra."""
    monkeypatch.setattr(hooks.corner_heat, "call", lambda state, number, excess: max(0, excess))
    violation = _caught(("weather",))
    assert violation.rules


def test_the_checker_catches_a_missing_slipstream_bonus(monkeypatch: pytest.MonkeyPatch) -> None:
    """Planted bug (removes behaviour): no sector gives a slipstream bonus."""
    monkeypatch.setattr(hooks.slipstream_extras, "call", lambda state, car: ())
    assert "slipstream" in str(_caught(("weather",)))


def test_the_checker_catches_a_legend_clearing_two_corners(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Planted bug (BGA 107185): a Legend stopped before a second corner goes on one space."""
    real = legends.legend_spaces

    def overshoot(state, car, diamond, helmet):  # type: ignore[no-untyped-def]
        spaces, rule = real(state, car, diamond, helmet)
        return (spaces + 1, rule) if rule == "legend.one-corner" else (spaces, rule)

    state = crafted_state("great-britain", [(60, ("1", "1", "1", "2", "2", "2", "3"))], [36],
                     ("legends",), card=6)  # the black Legend: 5 + 3 from 36 would reach 44
    assert _play_checked(state) == []  # the engine as it is passes
    monkeypatch.setattr(legends, "legend_spaces", overshoot)
    problems = _play_checked(state)
    assert problems and "legend.one-corner" in problems[0]


def _play_checked(state: RaceState) -> list[str]:
    """Play one round from ``state`` (first legal choice each time) through the checker."""
    return checked_round(state, lambda now: legal_actions(now)[0])


def test_the_checker_catches_legends_given_adrenaline(monkeypatch: pytest.MonkeyPatch) -> None:
    """Planted bug: a Legend in the last place gets adrenaline (and a player before it none)."""
    from heatcore.heat import engine, rounds

    def every_last(state, car):  # type: ignore[no-untyped-def]
        count = rounds.adrenaline_count(len(state.cars))
        return state.order.index(car) >= len(state.order) - count

    monkeypatch.setattr(engine, "has_adrenaline", every_last)
    assert "adrenaline" in str(_caught(("legends",)))

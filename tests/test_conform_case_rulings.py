"""Which corpus cases an engine's declared rulings let run: a case runs when the engine plays
the option the case's state plays, for every ruling the case depends on."""

from __future__ import annotations

import pytest

from heatcore.framework.conformance.capabilities import Capabilities

GEAR = "ruling.cluttered-gear"


def _state(option: str | None) -> dict[str, object]:
    rulings = {} if option is None else {GEAR: option}
    return {"track": "usa", "modules": [], "rulings": rulings}


@pytest.mark.rules("ruling.cluttered-gear")
def test_a_case_of_an_alternative_is_skipped_for_an_engine_playing_the_default() -> None:
    default = Capabilities(rulings={GEAR: "default"}, tracks=("usa",))
    why = default.unsupported(_state("free-shifts-only"), [GEAR])
    assert why == (f"ruling(s) decided otherwise: {GEAR}=default "
                   "(the case plays free-shifts-only)")
    for named in (None, "default", "any-reachable-gear"):
        assert default.unsupported(_state(named), [GEAR]) is None


@pytest.mark.rules("ruling.cluttered-gear")
def test_a_case_of_an_alternative_runs_for_an_engine_playing_that_alternative() -> None:
    alternative = Capabilities(rulings={GEAR: "free-shifts-only"}, tracks=("usa",))
    assert alternative.unsupported(_state("free-shifts-only"), [GEAR]) is None
    for named in (None, "any-reachable-gear"):
        why = alternative.unsupported(_state(named), [GEAR])
        assert why == (f"ruling(s) decided otherwise: {GEAR}=free-shifts-only "
                       "(the case plays default)")


@pytest.mark.rules("ruling.cluttered-gear")
def test_the_default_declared_by_its_own_name_is_the_default() -> None:
    named = Capabilities(rulings={GEAR: "any-reachable-gear"}, tracks=("usa",))
    assert named.unsupported(_state(None), [GEAR]) is None
    assert named.unsupported(_state("free-shifts-only"), [GEAR]) is not None

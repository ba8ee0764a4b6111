"""Z3 proofs of the Garage's symbol arithmetic (proofs.garage): each holds on every base
track, each negative control is caught by the same query, and each encoding agrees with
the engine's functions on concrete values (refinement)."""

from __future__ import annotations

import pytest

from heatcore.heat.modules.garage import symbols as sy
from heatcore.heat.state import Car
from proofs import garage, modules
from proofs.runner import main as prove_main
from proofs.track_graph import BASE_TRACKS


@pytest.fixture(scope="module")
def results() -> dict[tuple[str, str, str | None], str]:
    return garage.run()


def _holds_and_controls_fail(results: dict[tuple[str, str, str | None], str], proof: str,
                             controls: tuple[str, ...]) -> None:
    for track in BASE_TRACKS:
        assert results[(proof, track, None)] == "unsat", (proof, track)
        for control in controls:
            assert results[(proof, track, control)] == "sat", (proof, track, control)


@pytest.mark.rules("upgrade.accelerate", "upgrade.speed-increase",
                   "ruling.garage-accelerate-count")
def test_accelerate_adds_n_per_increase_all_or_none_and_counts_for_corners(
        results: dict[tuple[str, str, str | None], str]) -> None:
    _holds_and_controls_fail(results, "garage-accelerate", garage.ACCELERATE_CONTROLS)
    assert garage.refines_accelerate(sy.accelerate, sy.speed_increases) == []


@pytest.mark.rules("upgrade.adjust", "ruling.garage-adjust")
def test_adjust_never_drops_a_limit_below_zero_and_is_monotone(
        results: dict[tuple[str, str, str | None], str]) -> None:
    _holds_and_controls_fail(results, "garage-adjust", garage.ADJUST_CONTROLS)
    assert garage.refines_adjust(sy.adjusted_limit) == []
    assert garage.refines_adjust(lambda limit, adjust: limit + adjust) != []  # control


def _engine_pay(engine: int, cost: int) -> int | None:
    car = Car(position=0, racing_line=True, gear=1, engine=engine, hand=(), deck=(),
              discard=(), played=())
    after = sy.pay_heat(car, cost)
    return None if after is None else after.engine


@pytest.mark.rules("upgrade.heat", "upgrade.heat-unpayable", "ruling.garage-unpaid-heat")
def test_unpayable_heat_keeps_every_heat_card_and_pays_whole_symbols_in_any_order(
        results: dict[tuple[str, str, str | None], str]) -> None:
    _holds_and_controls_fail(results, "garage-unpayable-heat", garage.HEAT_CONTROLS)
    assert garage.refines_unpayable(_engine_pay) == []

    def what_is_there(engine: int, cost: int) -> int | None:
        return max(0, engine - cost) if engine else None

    assert garage.refines_unpayable(what_is_there) != []  # the refinement catches a bug


def test_the_garage_proofs_are_registered_with_the_module_proofs(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert set(garage.PROOFS) <= set(modules.PROOFS)
    assert prove_main(["--modules"]) == 0
    out = capsys.readouterr().out
    assert "garage-adjust" in out and "0 failed" in out


def test_the_catalogue_lists_every_garage_proof_with_its_controls(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert {c.id: c.controls for c in garage.CATALOGUE} == {
        name: controls for name, (_, controls) in garage.PROOFS.items()}
    assert prove_main(["--list"]) == 0
    assert "garage-unpayable-heat" in capsys.readouterr().out

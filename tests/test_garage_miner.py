"""The Garage's edge-case miner (proofs.garage_miner): Z3's smallest witnesses of an Adjust
corner, a Refresh with an empty deck and a Salvage that reshuffles, on every base track,
each played in the engine to the outcome the encoding predicts; controls: engines that drop
the upgrade's behaviour disagree with the encoding on the same witnesses."""

from __future__ import annotations

from typing import Any

import pytest

from heatcore.framework.conformance.fixtures import run_case
from heatcore.heat.conformance.binding import HeatBinding
from proofs import garage_miner
from proofs.track_graph import BASE_TRACKS


def _cases(name: str, tracks: tuple[str, ...] = BASE_TRACKS,
           per_track: int = 1) -> tuple[list[dict[str, Any]], list[str]]:
    cases: list[dict[str, Any]] = []

    def add(rule: str, cid: str, description: str, state: object, expect: object,
            source: str, also: tuple[str, ...] = ()) -> None:
        cases.append({"id": cid, "description": description, "rules": [rule, *also],
                      "rulings": [], "source": source, "state": state, "expect": expect})

    miner, play = garage_miner.MINERS[name][2], garage_miner.CASES[name]
    problems = [p for track in tracks
                for number, witness in enumerate(miner(track, per_track), start=1)
                for p in play(witness, number, add)]
    return cases, problems


@pytest.mark.rules("upgrade.adjust", "ruling.garage-adjust", "corner.check")
def test_the_cheapest_adjust_corner_costs_no_heat_on_every_track() -> None:
    for track in BASE_TRACKS:
        witness = garage_miner.mine_adjust_corner(track, 1)[0]
        p = witness.predicted
        assert p["speed"] > p["printed"] and p["corner_heat"] + p["card_heat"] == 0, track
    cases, problems = _cases("adjust-corner")
    assert problems == [] and len(cases) == len(BASE_TRACKS)
    binding = HeatBinding()
    for case in cases:
        assert run_case(binding, case) is None, case["id"]


@pytest.mark.rules("upgrade.refresh", "upgrade.salvage", "deck.reshuffle", "replenish.draw")
@pytest.mark.parametrize("name", ["refresh-empty-deck", "salvage-reshuffle"])
def test_pile_witnesses_reshuffle_after_the_symbol_on_every_track(name: str) -> None:
    cases, problems = _cases(name)
    assert problems == [] and len(cases) == len(BASE_TRACKS)
    binding = HeatBinding()
    for case in cases:
        assert run_case(binding, case) is None, case["id"]
        actions = [s["action"] for s in case["expect"]["steps"]]
        assert sum(" shuffle " in a for a in actions) >= (2 if "salvage" in name else 1)


def test_the_garage_miner_catches_engines_that_drop_the_upgrade(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Controls (each removes behaviour): Adjust ignored at the corner; a refreshed card
    discarded instead of put on the deck; a Salvage that moves nothing."""
    from heatcore.heat import hooks
    from heatcore.heat.modules.garage import symbols

    usa = ("usa",)
    monkeypatch.setattr(symbols, "adjusted_limit", lambda limit, adjust, clamped=True: limit)
    assert any("upgrade.adjust" in p for p in _cases("adjust-corner", usa)[1])
    monkeypatch.undo()
    monkeypatch.setattr(hooks.clear_refreshed, "call", lambda state, car: state)
    assert _cases("refresh-empty-deck", usa)[1]
    monkeypatch.undo()
    monkeypatch.setattr(symbols, "salvage", lambda car, cards: car)
    assert _cases("salvage-reshuffle", usa)[1]

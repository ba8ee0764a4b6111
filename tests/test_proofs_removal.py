"""Each key proof catches a bug that removes behaviour (``catalogue.REMOVAL_CONTROLS``), and
the spin proof catches a gear-2 spin that takes 2 Stress: the same obligations that prove the
claim find a counterexample once the bug is in the encoding (issue 29).

Independent of: the claims are stated apart from the encoding (``catalogue``'s claim
functions); the bugs are switched on in the encoding only.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from proofs import modules
from proofs.catalogue import PROOFS, REMOVAL_CONTROLS, Ctx, by_id
from proofs.runner import control
from proofs.symbols import MUTATIONS
from proofs.ties import TIES
from proofs.track_graph import BASE_TRACKS

TRACK = "usa@1"


def test_every_removal_control_is_listed_by_its_proof() -> None:
    for proof_id, bug in REMOVAL_CONTROLS.items():
        assert bug in by_id(proof_id).controls, (proof_id, bug)
        assert bug in MUTATIONS


@pytest.mark.parametrize("proof_id", sorted(REMOVAL_CONTROLS))
def test_the_key_proof_catches_its_removal_bug(proof_id: str) -> None:
    proof = by_id(proof_id)
    bug = REMOVAL_CONTROLS[proof_id]
    row = control(proof, TRACK, bug, Ctx())
    assert row.ok, f"{proof_id} holds with {bug} ({MUTATIONS[bug][1]}): {row.result}"


@pytest.mark.rules("corner.spin", "ruling.stress-supply")
def test_the_spin_proof_states_the_stress_per_gear_and_catches_a_gear_two_spin_taking_two(
        ) -> None:
    proof = next(p for p in PROOFS if p.id == "spin-stress")
    assert "1 Stress card (gear 1-2) or 2 (gear 3-4)" in proof.claim
    row = control(proof, TRACK, "spin-stress-gear-2-two", Ctx())
    assert row.ok and row.result.startswith("caught"), row.result


@pytest.mark.parametrize("proof_id", sorted(modules.REMOVAL_CONTROLS))
def test_each_module_proof_catches_a_bug_that_removes_behaviour(proof_id: str) -> None:
    prove, controls = modules.PROOFS[proof_id]
    bug = modules.REMOVAL_CONTROLS[proof_id]
    assert bug in controls
    assert any(str(prove(track, bug)) == "sat" for track in BASE_TRACKS), (proof_id, bug)


def test_the_proofs_page_says_for_each_proof_what_ties_it_to_the_engine() -> None:
    page = (Path(__file__).resolve().parent.parent / "docs" / "guides" /
            "proofs.rst").read_text(encoding="utf-8")
    for proof_id in [p.id for p in PROOFS] + list(modules.PROOFS):
        assert TIES.get(proof_id), proof_id
        assert f"``{proof_id}``\n   *" in page, proof_id
        assert by_id(proof_id).tie if proof_id in {p.id for p in PROOFS} else True

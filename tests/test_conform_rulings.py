"""``heatcore conform`` plays its random races under the rulings an engine declares in its
``start`` reply (issue 13 item 3): an engine that plays a ruling's alternative passes when
it declares it and fails when it does not; alternatives heatcore cannot play skip the races
with the reason; a ``--ruling`` request the engine's declaration contradicts stops the run.

Independent of the engine's code: the mutants are heatcore with one behaviour changed, and
the harness compares their replies with the reference's races under the declaration."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from heatcore.framework.conformance.capabilities import Capabilities
from heatcore.framework.conformance.harness import main as conform_main
from heatcore.framework.conformance.harness import race_binding
from heatcore.framework.conformance.protocol import handle
from heatcore.heat.conformance.binding import HeatBinding
from heatcore.heat.rulings import FINISHED_DISCARD_DRAW

ROOT = Path(__file__).resolve().parent.parent
PLANNER = ROOT / "examples" / "adapters" / "python" / "planner.py"
SKIP = f"{FINISHED_DISCARD_DRAW.removeprefix('ruling.')}=skip"


def conform(tmp_path: Path, impl: str, *extra: str) -> dict[str, Any]:
    """Run ``heatcore conform`` on 3 races (no corpus): its report, with the exit code."""
    folder = tmp_path / str(len(list(tmp_path.iterdir())))
    code = conform_main(["--impl", impl, "--no-fixtures", "--races", "3", "--seed", "5",
                         "--report", str(folder), *extra])
    report: dict[str, Any] = json.loads((folder / "report.json").read_text())
    return {**report, "exit": code}


def module(name: str, *args: str) -> str:
    return " ".join([sys.executable, "-m", name, *args])


@pytest.mark.rules("ruling.finished-car-discard-draw")
def test_heatcore_served_under_an_alternative_passes_its_races(tmp_path: Path) -> None:
    report = conform(tmp_path, module("heatcore", "serve", "--ruling", SKIP))
    assert report["exit"] == 0 and report["races"]["pass"] == 3, report["causes"]
    assert report["race_rulings"] == {FINISHED_DISCARD_DRAW: "skip"}
    assert report["declared"]["rulings"][FINISHED_DISCARD_DRAW] == "skip"
    md = (tmp_path / "0" / "report.md").read_text()
    assert f"under the rulings the engine declares: {FINISHED_DISCARD_DRAW}=skip" in md


@pytest.mark.rules("ruling.finished-car-discard-draw")
def test_an_engine_playing_an_alternative_passes_only_when_it_declares_it(
        tmp_path: Path) -> None:
    mutant = "heatcore.heat.conformance.mutants.plays_finished_skip"
    declared = conform(tmp_path, module(mutant, "--ruling", SKIP))
    assert declared["exit"] == 0 and declared["races"]["pass"] == 3, declared["causes"]
    silent = conform(tmp_path, module(mutant))
    assert silent["exit"] == 1 and silent["races"]["fail"] >= 1
    assert silent["race_rulings"] == {}
    assert silent["causes"][0]["rule"] == FINISHED_DISCARD_DRAW, silent["causes"][0]


@pytest.mark.rules("ruling.finished-car-discard-draw")
def test_an_engine_declaring_an_alternative_it_does_not_play_fails(tmp_path: Path) -> None:
    wrong = conform(tmp_path, module("heatcore.heat.conformance.mutants.rulings_ignored",
                                     "--ruling", SKIP))
    assert wrong["exit"] == 1 and wrong["races"]["fail"] >= 1
    assert wrong["race_rulings"] == {FINISHED_DISCARD_DRAW: "skip"}
    assert wrong["causes"][0]["rule"] == FINISHED_DISCARD_DRAW, wrong["causes"][0]


@pytest.mark.rules("ruling.no-round-limit", "ruling.zero-move")
def test_alternatives_the_reference_cannot_play_skip_the_races_with_the_reason() -> None:
    binding = HeatBinding()
    fixed = Capabilities(rulings={"ruling.no-round-limit": "sixty-rounds"})
    same, why = race_binding(binding, fixed)
    assert same is binding and why is not None
    assert "ruling.no-round-limit=sixty-rounds" in why and "not a switchable ruling" in why
    unknown = Capabilities(rulings={"ruling.zero-move": "teleport"})
    assert "'teleport' is not a choice" in str(race_binding(binding, unknown)[1])
    named_default = Capabilities(rulings={"ruling.zero-move": "stay"})
    played, why = race_binding(binding, named_default)
    assert why is None and played.random_race(1).start["rulings"]["ruling.zero-move"] == "stay"


@pytest.mark.rules("ruling.finished-car-discard-draw")
def test_the_start_reply_declares_what_the_session_plays() -> None:
    start = {"op": "start", "protocol": "conform/1", "ruleset": "heat"}
    assert isinstance(handle(HeatBinding(), {}, start)["rulings"], list)
    reply = handle(HeatBinding(), {}, {**start, "rulings": {FINISHED_DISCARD_DRAW: "skip"}})
    assert reply["ok"] and reply["rulings"][FINISHED_DISCARD_DRAW] == "skip"
    assert reply["rulings"]["ruling.zero-move"] == "default"


@pytest.mark.rules("ruling.finished-car-discard-draw")
def test_a_ruling_asked_for_but_not_declared_stops_the_run_with_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = conform_main(["--impl", f"{sys.executable} {PLANNER}", "--no-fixtures",
                         "--races", "1", "--ruling", SKIP])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1
    assert f"{FINISHED_DISCARD_DRAW}=skip (declared: nothing)" in err[0]


@pytest.mark.rules("ruling.finished-car-discard-draw")
def test_serve_refuses_an_unknown_alternative_with_one_line(
        capsys: pytest.CaptureFixture[str]) -> None:
    from heatcore.framework.conformance.serve import main as serve_main

    assert serve_main(["--ruling", "finished-car-discard-draw=sometimes"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "ruling.finished-car-discard-draw" in err[0]

"""The benchmark suite runs (tiny mode) and the race batch agrees with single races.

No timing is asserted: these tests only keep ``python3 -m benchmarks`` and
``heatcore race --count N --workers W`` working.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks.run import main as benchmarks_main
from heatcore.heat.batch import POLICIES, run_races
from heatcore.heat.driver import random_race
from heatcore.tools.cli import main as cli_main


def test_tiny_benchmarks_print_every_figure_and_write_json(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "results.json"
    assert benchmarks_main(["--tiny", "--quiet", "--json", str(out)]) == 0
    printed = capsys.readouterr().out
    for heading in ("Random-race throughput", "Targets (fast engine", "warm-up races",
                    "first 2 races of a new process", "reference engine, same races",
                    "legal_actions", "apply", "json_encode", "json_decode",
                    "fast_legal_actions", "fast_apply", "fast_from_state", "fast_to_state",
                    "Memory per state", "fast engine race object", "Growth",
                    "Process pool", "Rallyman GT", "Proofs (Z3)", "turn-order",
                    "perft (usa, seed 1)", "explore (every transition checked)",
                    "Dask LocalCluster of 2", "Fast engine builds",
                    "Protocol (heatcore serve", "Issue 18 side by side", "fast engine, pure",
                    "fast engine, compiled", "perft (fast engine)", "heatcore prove (the command"):
        assert heading in printed
    results = json.loads(out.read_text(encoding="utf-8"))
    assert results["tiny"] is True
    assert {(r["track"], r["players"]) for r in results["rallyman"]} == {
        (t, n) for t in ("albert-park", "proving-ground") for n in (2, 4, 6)}
    assert all(r["us_per_action"] > 0 for r in results["rallyman"])
    for engine in ("reference", "fast"):
        rows = [row for row in results["throughput"] if row["engine"] == engine]
        cells = {(row["track"], row["players"]) for row in rows}
        assert {players for _, players in cells} == {2, 4, 6}
        assert len(cells) == 3 * len({track for track, _ in cells}) >= 12
        laps = [row["laps"] for row in results["laps"] if row["engine"] == engine]
        assert laps == [1, 2, 4, 8]
    assert "not judged in a tiny run" in printed and "NOT met" not in printed
    target = results["target"]
    assert target["engine"] == "fast" and target["reference"]["engine"] == "reference"
    assert target["cold_process"]["races_per_s"] > 0
    assert [row["workers"] for row in results["pool"]] == [1, 2]
    scale = results["scale"]
    assert all(row["nodes_per_s"] > 0 for row in scale["perft"])
    assert scale["explore"][0]["deadlocks"] == 0 and scale["explore"][0]["states_per_s"] > 0
    assert [row["workers"] for row in scale["backends"]] == [1, 2, 1, 2]
    assert all(row["us_per_action"] > 0 for row in scale["backends"])
    builds = {row["requested"]: row for row in results["builds"]}
    assert builds["pure"]["build"].startswith("pure") and builds["pure"]["races_per_s"] > 0
    assert builds["compiled"]["races_per_s"] > 0
    assert results["fast_build"] in (builds["compiled"]["build"], builds["pure"]["build"])
    assert results["protocol"]["steps"] > 0 and results["protocol"]["steps_per_second"] > 0
    assert "steps_per_server_cpu_second" in results["protocol"]
    assert results["prove"]["exit_code"] == 0 and results["prove"]["complete"] is False
    for key in ("legal_actions_per_s", "apply_per_s", "json_encode_per_s", "json_decode_per_s",
                "fast_legal_actions_per_s", "fast_apply_per_s", "fast_from_state_per_s",
                "fast_to_state_per_s"):
        assert results["steps"][key] > 0
    assert results["memory"]["deep_bytes"] > 0 and results["memory"]["fast_race_bytes"] > 0
    proofs = results["proofs"]
    assert proofs["complete"] is False and "tiny run" in proofs["note"]
    assert proofs["failed"] == 0 and list(proofs["proofs"]) == ["turn-order"]
    assert proofs["proofs"]["turn-order"]["proof_seconds"] > 0


@pytest.mark.parametrize("engine", ["fast", "reference"])
@pytest.mark.parametrize("policy", ["random", "greedy"])
def test_a_batch_on_two_workers_plays_the_same_races_as_one_by_one(engine: str,
                                                                    policy: str) -> None:
    seeds = [3, 4, 5]
    batch = run_races("italia", 3, seeds, laps=1, policy=policy, workers=2, engine=engine)
    alone = [random_race("italia", 3, seed, laps=1, policy=POLICIES[policy]) for seed in seeds]
    assert batch.engine == engine
    assert [r.seed for r in batch.results] == seeds
    assert [r.actions for r in batch.results] == [len(race.actions) for race in alone]
    assert [r.ranking for r in batch.results] == [race.final.ranking for race in alone]
    assert batch.actions == sum(len(race.actions) for race in alone)


def test_an_unknown_engine_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown engine"):
        run_races("usa", 2, [1], engine="warp")


def test_race_count_prints_a_summary(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["race", "--track", "usa", "--players", "2", "--laps", "1", "--count", "3",
            "--workers", "2", "--policy", "random"]
    assert cli_main(argv) == 0
    printed = capsys.readouterr().out
    for label in ("engine: fast", "races: 3", "actions:", "workers: 2", "time:", "races/s:",
                  "actions/s:"):
        assert label in printed

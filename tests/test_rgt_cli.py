"""The Rallyman GT command line and benchmark: a readable race, a replayable log, clear
errors (exit 2, one line, no traceback), the batch summary and the tiny benchmark."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.bench_rallyman import main as bench_main
from heatcore.tools.cli import main


def test_race_prints_a_play_by_play_and_writes_a_log_that_replays(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "race.json"
    argv = ["race", "--game", "rallyman-gt", "--track", "proving-ground", "--players", "3",
            "--seed", "5", "--laps", "1", "--json", str(log)]
    assert main(argv) == 0
    first = capsys.readouterr().out
    assert first.startswith("Rallyman GT on Proving ground") and "Race over:" in first
    assert main(["replay", str(log)]) == 0
    again = capsys.readouterr().out
    assert again.splitlines()[:-1] == first.splitlines()[:-2]  # minus the "log written" line


@pytest.mark.parametrize("argv", [
    ["race", "--game", "rallyman-gt", "--track", "usa"],
    ["race", "--game", "rallyman-gt", "--players", "7"],
])
def test_bad_arguments_give_one_line_and_exit_2(argv: list[str],
                                                capsys: pytest.CaptureFixture[str]) -> None:
    try:
        code = main(argv)
    except SystemExit as stop:  # the argument parser's own one-line error
        code = stop.code
    assert code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err


@pytest.mark.parametrize("extra, words", [
    (["--modules", "weather"], "--modules is an option of heat races"),
    (["--ruling", "cluttered-gear=free-shifts-only"], "--ruling is an option of heat races"),
    (["--html", "race.html"], "--html is an option of heat races"),
    (["--policy", "clutter"], "drivers are greedy or random, not 'clutter'"),
    (["--policy", "greedy,random"], "not 'greedy,random'"),
])
def test_heat_only_options_are_refused_not_ignored(
        extra: list[str], words: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["race", "--game", "rallyman-gt", *extra]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1 and words in captured.err


def test_count_prints_a_summary(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["race", "--game", "rallyman-gt", "--track", "proving-ground", "--players", "2",
            "--laps", "1", "--count", "2"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "races: 2" in out and "actions/s:" in out


def test_tiny_benchmark_prints_every_cell(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench_main(["--tiny"]) == 0
    out = capsys.readouterr().out
    assert out.count("races/s") == 6


@pytest.mark.rules("rgt.turn.sequence")
@pytest.mark.parametrize("serve", ["serve --ruleset rallyman-gt", "serve"])
def test_conform_passes_against_heatcore_serve_for_rallyman(serve: str, tmp_path: Path) -> None:
    """The conformance kit, through the protocol: heatcore serving Rallyman GT (named, or
    picked from the start request) against the Rallyman GT binding, fixtures and a few
    seeded races."""
    import sys

    from heatcore.framework.conformance.harness import main as conform_main

    impl = f"{sys.executable} -m heatcore.tools.cli {serve}"
    code = conform_main(["--ruleset", "rallyman-gt", "--impl", impl, "--races", "2",
                         "--report", str(tmp_path)])
    report = (tmp_path / "report.md").read_text(encoding="utf-8")
    assert code == 0, report[:2000]


@pytest.mark.rules("rgt.corner.dangerous", "rgt.corner.steep-entry", "rgt.move.overtake-gear",
                   "rgt.focus.cost", "rgt.order.speed", "rgt.dice.coast", "rgt.loc.trigger",
                   "rgt.loc.relay", "rgt.ruling.damage-bag", "rgt.round.marker-colour")
@pytest.mark.parametrize("mutant", sorted(__import__("heatcore.rallyman.mutants",
                                                     fromlist=["BROKEN"]).BROKEN))
def test_conform_catches_a_broken_rallyman_engine(mutant: str, tmp_path: Path) -> None:
    """Negative controls: heatcore.rallyman with one rule broken (some remove behaviour: no
    coast dice, no loss of control, no re-laying, no dangerous-corner warning, no dotted entry
    line) fails,
    and the report charges the divergences to the broken rule first (the Rallyman
    attribution reads laid steps against the track data and what makes actions legal)."""
    import json
    import sys

    from heatcore.framework.conformance.harness import main as conform_main
    from heatcore.rallyman.mutants import BROKEN

    impl = f"{sys.executable} -m heatcore.rallyman.mutants {mutant}"
    # the fixtures alone catch each mutant: no seeded race is played
    assert conform_main(["--ruleset", "rallyman-gt", "--impl", impl, "--races", "0",
                         "--report", str(tmp_path)]) == 1
    report = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    row = report["rules"][BROKEN[mutant]]
    assert row["fail"] + row["races"] > 0, row
    assert report["failed_rules"][0] == BROKEN[mutant], report["failed_rules"]

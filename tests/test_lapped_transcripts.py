"""The two lapped-car bug reports of ``../shared/bug-reports`` give seed 000's answers when
piped into ``python -m heatcore serve`` (setup.board-space). Skipped only when the
folder is absent (CI keeps ``shared/`` beside the clone)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
REPORTS = ROOT.parent / "shared" / "bug-reports"

needs_reports = pytest.mark.skipif(not REPORTS.is_dir(), reason=f"{REPORTS} is absent")


def serve(lines: list[str]) -> list[dict[str, Any]]:
    """Pipe the requests into ``heatcore serve`` (this checkout's code); its responses."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "heatcore", "serve"], input="\n".join(lines)
                          + "\n", capture_output=True, text=True, env=env, cwd=ROOT,
                          check=True)
    return [json.loads(line) for line in done.stdout.splitlines()]


def transcript(name: str) -> list[str]:
    """The requests of a bug report, without its closing ``stop``."""
    lines = (REPORTS / name).read_text(encoding="utf-8").splitlines()
    return [line for line in lines if line.strip() and json.loads(line)["op"] != "stop"]


def board_spots(state: dict[str, Any], lap: int) -> list[tuple[int, bool]]:
    """(position mod lap, racing line) of every car still on the track."""
    return [(car["position"] % lap, car["racing_line"]) for car in state["cars"]
            if car["id"] not in state["ranking"]]


@needs_reports
@pytest.mark.rules("setup.board-space", "place.blocked", "place.racing-line-first")
def test_lapped_cars_fill_the_space_so_the_car_stops_behind() -> None:
    """France (60 spaces): P6 aims at 87 (space 27), held by P5 (27, racing line) and P2
    (27, outer spot) a lap behind; it stops on the racing line of 86."""
    responses = serve(transcript("lapped-car-placement.jsonl"))
    assert all(r["ok"] for r in responses), responses
    state = responses[-1]["state"]
    p6 = next(car for car in state["cars"] if car["id"] == "P6")
    assert (p6["position"], p6["racing_line"]) == (86, True)
    spots = board_spots(state, 60)
    assert len(spots) == len(set(spots))


@needs_reports
@pytest.mark.rules("setup.board-space", "slipstream.eligible")
def test_a_lapped_car_one_space_ahead_gives_slipstream() -> None:
    """Italia (54 spaces): P2 ends its move on 80 (space 26); P3 stands on 27 (space 27) a
    lap behind, so after ``end react`` P2 may slipstream."""
    responses = serve([*transcript("lapped-car-slipstream.jsonl"), '{"op":"legal"}'])
    assert all(r["ok"] for r in responses), responses
    assert responses[-2]["state"]["turn"]["stage"] == "slipstream"
    assert "P2 slipstream" in responses[-1]["actions"]

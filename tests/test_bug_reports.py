"""The bug reports of ``../shared/bug-reports`` piped into ``python -m heatcore serve`` as the
README there says, under each alternative of their ruling (``serve --ruling``): they give
seed 000's answers. The lapped-car reports are checked in test_lapped_transcripts.py; the
rulings' reports are kept in tests/transcripts (identical copies, checked when the folder
is present)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
REPORTS = ROOT.parent / "shared" / "bug-reports"
TRANSCRIPTS = Path(__file__).resolve().parent / "transcripts"
Replies = list[dict[str, Any]]


def serve(name: str, *args: str) -> Replies:
    """The replies of ``heatcore serve ARGS`` (this checkout's code) to a transcript."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "heatcore", "serve", *args],
                          input=(TRANSCRIPTS / name).read_text(encoding="utf-8"),
                          capture_output=True, text=True, env=env, cwd=ROOT,
                          check=True)
    replies = [json.loads(line) for line in done.stdout.splitlines()]
    assert all(r["ok"] for r in replies), replies
    return replies


@pytest.mark.skipif(not REPORTS.is_dir(), reason=f"{REPORTS} is absent")
@pytest.mark.rules("ruling.cluttered-gear", "ruling.finished-car-discard-draw")
def test_the_kept_transcripts_are_the_bug_reports() -> None:
    for path in TRANSCRIPTS.glob("*.jsonl"):
        assert path.read_bytes() == (REPORTS / path.name).read_bytes(), path.name


def _paid_shift_offered(replies: Replies) -> bool:
    return "P1 gear 2 play 3 H" in replies[2]["actions"]


def _finished_car_discards(replies: Replies) -> bool:
    after = replies[2]["state"]
    if after["turn"]["car"] == "P1":
        assert after["turn"]["stage"] == "discard"
        return True
    assert after["cars"][0]["hand"] == ["2", "2", "2"]  # no draw either
    return False


#: (report, ruling switch, the seed's answer under it).
CASES: list[tuple[str, str, Callable[[Replies], bool], bool]] = [
    ("cluttered-paid-shift.jsonl", "cluttered-gear=any-reachable-gear", _paid_shift_offered,
     True),
    ("cluttered-paid-shift.jsonl", "cluttered-gear=free-shifts-only", _paid_shift_offered,
     False),
    ("finished-car-discard-draw.jsonl", "finished-car-discard-draw=discard-and-draw",
     _finished_car_discards, True),
    ("finished-car-discard-draw.jsonl", "finished-car-discard-draw=skip",
     _finished_car_discards, False),
]


@pytest.mark.rules("ruling.cluttered-gear", "ruling.finished-car-discard-draw",
                   "gear.shift.two-costs-heat", "discard.optional")
@pytest.mark.parametrize(("name", "switch", "answer", "expected"), CASES,
                         ids=[c[1] for c in CASES])
def test_a_bug_report_gives_the_answer_of_its_ruling(
        name: str, switch: str, answer: Callable[[Replies], bool], expected: bool) -> None:
    replies = serve(name, "--ruling", switch)
    ruling = "ruling." + switch.split("=")[0]
    declared = replies[0]["rulings"]
    assert isinstance(declared, list) or declared[ruling] in (switch.split("=")[1], "default")
    assert answer(replies) is expected


@pytest.mark.rules("ruling.cluttered-gear", "ruling.finished-car-discard-draw")
def test_without_a_switch_the_bug_reports_get_the_defaults() -> None:
    assert _paid_shift_offered(serve("cluttered-paid-shift.jsonl"))
    assert _finished_car_discards(serve("finished-car-discard-draw.jsonl"))

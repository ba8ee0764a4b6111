"""The Rallyman GT race as a reader meets it (issue 30): places in words, a legend, the
standings after each round, a reason for every loss of control, the race page, and
``replay`` ending in a verdict.

Independent of: the story's wording beyond the words named here; the engine's own events
(the standings are checked against the final state and the reasons against the dashboard
limit and the laid step read from the replayed state, not against the story's code)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from heatcore.rallyman.driver import random_race
from heatcore.rallyman.track import load_track
from heatcore.tools.cli import main
from heatcore.tools.rallyman.racepage import race_html
from heatcore.tools.rallyman.story import place, race_rounds, race_story


@pytest.mark.parametrize("code, words", [
    ("T2.L1.3", "tile 2, lane 1, space 3"),
    ("T12.L3.1", "tile 12, lane 3, space 1"),
    ("T2.L12.3", "tile 2, lanes 1-2, space 3"),
    ("P1", "P1"),
])
def test_a_space_code_reads_as_tile_lane_and_space(code: str, words: str) -> None:
    assert place(code) == words


def test_a_corner_space_shows_its_limit() -> None:
    track = load_track("albert-park")
    corner = next(s for s in track.spaces.values() if s.corner is not None)
    assert place(corner.id, track).endswith(f"(corner {corner.corner.limit})")  # type: ignore


RACE = random_race("albert-park", 3, 1)


def test_the_story_has_a_legend_standings_and_no_space_codes() -> None:
    text = race_story(RACE)
    assert "How to read it:" in text
    rounds = [line for line in text.splitlines() if line.startswith("Round ")]
    standings = [line for line in text.splitlines() if "standings after round" in line]
    assert len(standings) >= len(rounds) - 1  # every round but the last (the result)
    assert not re.search(r"\bT\d+\.L\d+\.\d+\b", text)  # no raw codes
    assert "warnings)" not in text  # no "(1 warnings)" without a reason
    assert text.rstrip().splitlines()[-1].startswith("Final ranking: 1. ")
    assert len(text.splitlines()) < 900  # one line per turn, not per die


def test_every_loss_of_control_has_a_reason() -> None:
    lost = 0
    for seed in range(3):
        for line in race_story(random_race("albert-park", 3, seed)).splitlines():
            if "LOSES CONTROL" in line:
                lost += 1
                assert re.search(r": (gear \d is over the corner's limit"
                                 r"|\d+ warnings reach the dashboard's limit of \d)", line), line
    assert lost  # the races have some


def test_standings_after_the_last_full_round_match_the_state() -> None:
    _, rounds = race_rounds(RACE)
    story = next(r for r in reversed(rounds) if r.state is not None and not r.state.is_over())
    assert story.state is not None
    text = race_story(RACE, legend=False)
    block = text.split(f"standings after round {story.heading.split()[1]}:")[1].splitlines()
    cars = [re.match(r"\s+\d+\. (P\d)", line) for line in block[1:4]]
    assert [m.group(1) for m in cars if m] != []
    for m in cars:
        assert m is not None
        car = story.state.cars[int(m.group(1)[1:]) - 1]
        line = next(x for x in block[1:4] if m.group(1) in x)
        assert place(car.space, story.state.track) in line


def test_the_race_page_steps_through_every_round(tmp_path: Path) -> None:
    page = race_html(RACE)
    assert page.count('<g class="frame"') == RACE.final.round + 1  # the grid and each round
    assert "<script>" in page and "http" not in page.replace("http://www.w3.org", "")


def test_race_html_and_replay_verdict_from_the_command_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log, page = tmp_path / "r.json", tmp_path / "r.html"
    assert main(["race", "--game", "rallyman-gt", "--players", "2", "--seed", "4",
                 "--laps", "1", "--json", str(log), "--html", str(page), "--no-legend"]) == 0
    out = capsys.readouterr().out
    assert "How to read it:" not in out and f"Race page written to {page}" in out
    assert page.read_text().startswith("<!DOCTYPE html>")
    assert main(["replay", str(log)]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("log verified: same result")

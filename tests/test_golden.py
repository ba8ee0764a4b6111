"""Golden playthroughs: regenerated in memory, they must equal tests/golden/ byte for byte.

After an intended rule change run ``heatcore golden --regenerate`` and review the diff.
"""

from __future__ import annotations

import difflib
import json
from pathlib import Path

import pytest

from heatcore.heat.racelog import load_race
from heatcore.heat.track import track_ids
from heatcore.tools.heat import golden

ALL_RULES = ("round.sequence", "finish.ranking", "corner.check", "react.cooldown",
             "slipstream.move", "deck.reshuffle", "replenish.draw")


@pytest.fixture(scope="module")
def expected() -> dict[str, str]:
    return golden.golden_files()


def test_one_golden_race_per_track_and_player_count(expected: dict[str, str]) -> None:
    names = {f"{t}-{p}p.{ext}" for t in track_ids() for p in (2, 4, 6) for ext in ("txt", "json")}
    assert set(expected) == names
    assert {p.name for p in golden.golden_dir().iterdir() if not p.name.startswith(".")} == names


@pytest.mark.rules(*ALL_RULES)
@pytest.mark.parametrize("name", sorted(f"{t}-{p}p.{e}" for t in track_ids() for p in (2, 4, 6)
                                        for e in ("txt", "json")))
def test_golden_file_is_unchanged(expected: dict[str, str], name: str) -> None:
    path = golden.golden_dir() / name
    saved = path.read_text(encoding="utf-8")
    if saved != expected[name]:
        diff = "".join(list(difflib.unified_diff(
            saved.splitlines(keepends=True), expected[name].splitlines(keepends=True),
            f"saved/{name}", f"regenerated/{name}"))[:60])
        pytest.fail(f"{name} changed; if the rule change is intended run "
                    f"`heatcore golden --regenerate`.\n{diff}")


@pytest.mark.rules("round.sequence", "finish.ranking")
def test_golden_json_replays_to_its_result(tmp_path: Path) -> None:
    data = json.loads((golden.golden_dir() / "usa-4p.json").read_text(encoding="utf-8"))
    log = tmp_path / "race.json"
    log.write_text(json.dumps(data["race"]), encoding="utf-8")
    race = load_race(log)  # replays and checks the recorded ranking
    assert len(race.final.ranking) == 4
    assert data["rounds"][-1]["positions"]["P1"].get("finished")


def test_check_command_reports_a_changed_file(expected: dict[str, str],
                                              tmp_path: Path) -> None:
    for name, text in expected.items():
        (tmp_path / name).write_text(text if name != "italia-2p.txt" else "tampered\n",
                                     encoding="utf-8")
    assert golden.main(["--check", "--dir", str(tmp_path)]) == 1
    assert golden.differences(tmp_path) == ["italia-2p.txt"]


@pytest.mark.rules("adrenaline.effects", "react.cooldown")
def test_the_play_by_play_tells_the_adrenaline_cooldown_from_the_gears() -> None:
    """Gears 3 and 4 have no cooldown, so a cooldown there is adrenaline's: the text says so."""
    from heatcore.heat.driver import greedy_policy, random_race
    from heatcore.tools.heat.report import play_by_play

    text = play_by_play(random_race("usa", 6, 3, policy=greedy_policy))
    high_gear = [line for line in text.splitlines() if "cooldown" in line
                 and (" gear 3 " in line or " gear 4 " in line)]
    assert high_gear, "no cooldown in gear 3 or 4 in this race"
    for line in high_gear:
        assert "adrenaline cooldown" in line and ", cooldown" not in line, line

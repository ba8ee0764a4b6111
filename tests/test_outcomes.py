"""``heatcore race --count``: the outcomes watched from outside agree with the reference
engine's own events, and are the same on both engines."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from heatcore.heat.driver import play
from heatcore.heat.setup import random_setup
from heatcore.tools.cli import main
from heatcore.tools.heat.outcomes import ModuleChoice, observe_race, observe_races, seated_policy

POLICY_MIX = ("aggressive", "clutter", "greedy")


@pytest.mark.rules("corner.spin", "corner.pay-heat", "play.cluttered", "finish.ranking")
@pytest.mark.parametrize("seed", range(4))
def test_observed_counts_match_the_reference_engines_events(seed: int) -> None:
    """The watcher counts spins by positions going back, Heat paid from engine sizes and
    cooldowns, cluttered hands from the plans: the events say the same."""
    outcome = observe_race("italia", 3, seed, 1, POLICY_MIX, "fast")
    rng = random.Random(seed)
    race = play(random_setup("italia", 3, rng, 1), seated_policy(POLICY_MIX, 3), rng)
    events = [ev for evs in race.events for ev in evs]
    heat = sum(ev.get("amount") for ev in events if ev.kind == "paid-heat")
    heat += sum(ev.get("heat") or 0 for ev in events if ev.kind in ("corner", "spun-out"))
    assert outcome.actions == len(race.actions)
    assert outcome.ranking == race.final.ranking
    assert outcome.spins == sum(ev.kind == "spun-out" for ev in events)
    assert outcome.heat_paid == heat
    assert outcome.cluttered == sum(ev.kind == "cluttered" for ev in events)
    assert outcome.reshuffles == sum(ev.kind == "shuffled" for ev in events)
    crossed = [ev.car for ev in events if ev.kind == "crossed-finish"]
    assert outcome.first_across == crossed[0]
    per_round: dict[int, int] = {}
    current = 1
    for ev in events:
        if ev.kind == "round-started":
            current = ev.get("round")
        elif ev.kind == "ranked":
            per_round[current] = per_round.get(current, 0) + 1
    assert outcome.most_ranked_in_a_round == max(per_round.values())


def test_both_engines_give_the_same_outcomes() -> None:
    fast = observe_races("usa", 4, list(range(6)), 1, ("random", "greedy"), "fast")
    reference = observe_races("usa", 4, list(range(6)), 1, ("random", "greedy"), "reference")
    assert fast.races == reference.races
    assert any(r.spins for r in fast.races) and any(r.reshuffles for r in fast.races)


@pytest.mark.rules("weather.module", "legend.turn-order")
def test_both_engines_give_the_same_module_outcomes() -> None:
    modules = ModuleChoice(("weather", "legends"), legends=2, aggressive=True)
    fast = observe_races("france", 3, list(range(5)), 1, ("random",), "fast", modules=modules)
    reference = observe_races("france", 3, list(range(5)), 1, ("random",), "reference",
                              modules=modules)
    assert fast.races == reference.races
    assert all(r.policies == ("random",) * 3 + ("legend",) * 2 for r in fast.races)
    assert len(fast.wins_by_grid_spot()) == 5
    summary = fast.summary()
    assert summary["modules"] == ["weather", "legends"] and summary["legends"] == 2
    assert "sector_cooldowns" in summary["per_race"]
    assert sum(r.slipstream_bonuses + r.sector_cooldowns for r in fast.races) > 0


def test_race_count_prints_outcomes_and_writes_them_as_json(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "outcomes.json"
    assert main(["race", "--players", "3", "--laps", "1", "--count", "4", "--policy",
                 "greedy,random", "--json", str(out)]) == 0
    printed = capsys.readouterr().out
    for words in ("4 races on usa", "wins by grid spot", "wins by policy", "spin-outs",
                  "Heat paid", "cluttered hands", "races in which it happened", "races/s:"):
        assert words in printed
    assert all(len(line) <= 100 for line in printed.splitlines())
    data = json.loads(out.read_text())
    assert data["races"] == 4 and len(data["results"]) == 4
    assert abs(sum(data["wins_by_grid_spot"]) - 1) < 1e-9
    assert set(data["wins_by_policy"]) == {"greedy", "random"}

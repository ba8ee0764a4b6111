"""Perft (spec/perft.md): the reference counts, the chance rule, transpositions, divide, the
command, and ``conform --perft`` finding and dividing a planted bug over the protocol."""

from __future__ import annotations

import hashlib
import random
import subprocess
import sys
from collections import Counter as Multiset
from pathlib import Path

import pytest

from heatcore.heat.cards import canonical
from heatcore.heat.driver import random_race
from heatcore.heat.engine import apply, legal_actions
from heatcore.heat.notation import state_to_json
from heatcore.heat.perft import Counter, chance_action, perft_setup, perft_start, shuffle_order
from heatcore.heat.track import track_ids
from heatcore.tools.cli import main
from heatcore.tools.heat.perft_runs import check_reference, count, load_reference, reference_file

ROOT = Path(__file__).resolve().parent.parent
RULES = ("round.sequence", "deck.reshuffle")


@pytest.mark.rules(*RULES)
def test_reference_file_covers_every_base_track_and_car_count() -> None:
    data = load_reference()
    assert data["generated_by"].startswith("python3 -m heatcore perft --generate")
    seen = {(e["track"], e["players"]) for e in data["entries"]}
    assert seen == {(t, p) for t in track_ids() for p in range(2, 7)}
    for entry in data["entries"]:
        assert entry["counts"][0] == 1 and len(entry["counts"]) >= 5


@pytest.mark.rules(*RULES)
def test_reference_counts_hold_at_shallow_depth_on_the_fast_engine() -> None:
    assert check_reference(load_reference(), 3, "fast") == []


@pytest.mark.rules(*RULES)
def test_reference_counts_hold_at_shallow_depth_on_the_reference_engine() -> None:
    data = load_reference()
    data["entries"] = [e for e in data["entries"] if e["track"] == "usa"]
    assert check_reference(data, 3, "reference") == []


@pytest.mark.rules(*RULES)
def test_a_wrong_count_in_the_file_is_reported() -> None:
    data = load_reference()
    data["entries"] = data["entries"][:1]
    data["entries"][0]["counts"][2] += 1
    problems = check_reference(data, 2)
    assert len(problems) == 1 and "depth 2" in problems[0]


def test_shuffle_order_follows_the_written_rule() -> None:
    cards = ("S", "1", "H", "4", "1", "U0")
    got = shuffle_order(cards, 7, 2)
    assert Multiset(got) == Multiset(cards)
    # the rule of spec/perft.md, restated here from the text
    x = sorted(cards, key=["1", "2", "3", "4", "U0", "U5", "S", "H"].index)
    keys = [hashlib.sha256(f"heatcore-perft/7/P3/{i}".encode()).hexdigest()
            for i in range(len(x))]
    assert list(got) == [x[i] for i in sorted(range(len(x)), key=lambda i: keys[i])]
    assert shuffle_order(cards, 8, 2) != got or shuffle_order(cards, 7, 1) != got


@pytest.mark.rules("deck.reshuffle")
def test_a_chance_point_is_resolved_inside_the_ply_that_reached_it() -> None:
    race = random_race("usa", 2, seed=3)
    before = perft_start(race.setup, 0)
    for action in race.actions:
        if before.is_chance():
            break
        before = apply(before, action)[0]
    assert before.is_chance(), "the race reaches a shuffle"
    counter = Counter(5, "reference")
    settled = counter.settle(before)
    assert not settled.is_chance()
    car = before.shuffle
    assert car is not None
    mine = before.cars[car]
    expected = shuffle_order(mine.deck + mine.discard, 5, car)
    assert chance_action(before, 5).order == expected
    assert canonical(expected) == canonical(mine.deck + mine.discard)
    deck = settled.cars[car].deck  # the shuffled order, less the cards drawn after it
    assert deck == expected[len(expected) - len(deck):]


@pytest.mark.rules(*RULES)
def test_the_transposition_table_changes_no_count() -> None:
    rng = random.Random(4)
    race = random_race("italia", 3, seed=11)
    states = []
    state = perft_start(race.setup, 0)
    for action in race.actions:
        state = apply(state, action)[0]
        kinds = {type(a).__name__ for a in legal_actions(state)}
        if {"Cooldown", "Boost"} <= kinds:  # react choices that commute
            states.append(state)
    hits = 0
    for state in rng.sample(states, min(6, len(states))):
        with_table = Counter(0, "fast")
        total = with_table.count(state, 4)
        without = Counter(0, "fast")
        without.table = _NoTable()
        assert without.count(state, 4) == total
        hits += with_table.hits
    assert hits > 0, "some sampled subtree has a transposition"


class _NoTable(dict):  # type: ignore[type-arg]
    """A table that forgets everything."""

    def __setitem__(self, key: object, value: object) -> None:
        return None


@pytest.mark.rules(*RULES)
def test_divide_sums_to_the_count_and_both_engines_agree() -> None:
    run = count("france", 4, 2, 3, "fast")
    assert sum(n for _, n in run.divide) == run.count
    setup = perft_setup("france", 4, 2)
    assert run.count == Counter(2, "reference").count(perft_start(setup, 2), 3)
    assert [a for a, _ in run.divide] == [str(a) for a in legal_actions(perft_start(setup, 2))]


def test_perft_command_prints_the_count_and_the_divide(capsys: pytest.CaptureFixture[str]
                                                        ) -> None:
    assert main(["perft", "--track", "usa", "--players", "2", "--seed", "1", "--depth", "2",
                 "--divide"]) == 0
    out = capsys.readouterr().out
    usa2 = next(e for e in load_reference()["entries"]
                if e["track"] == "usa" and e["players"] == 2)
    assert f"depth 2: {usa2['counts'][2]}" in out
    assert out.count(": ") >= len(legal_actions(perft_start(perft_setup("usa", 2, 1), 1)))


def test_perft_command_refuses_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["perft", "--track", "nowhere"], ["perft", "--depth", "-1"],
                 ["perft", "--players", "9"]):
        with pytest.raises(SystemExit) as stop:
            main(argv)
        assert stop.value.code == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "Traceback" not in err


def test_perft_generate_checks_its_out_folder_before_counting(
        capsys: pytest.CaptureFixture[str], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    import heatcore.tools.heat.perft_runs

    def must_not_count(*_: object, **__: object) -> None:
        raise AssertionError("counted before checking --out")

    monkeypatch.setattr(heatcore.tools.heat.perft_runs, "generate", must_not_count)
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    assert main(["perft", "--generate", "--out", str(blocker / "perft.json")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot write into" in err and "Traceback" not in err


def test_start_state_in_the_file_is_the_setup_start() -> None:
    entry = load_reference()["entries"][0]
    setup = perft_setup(entry["track"], entry["players"], entry["seed"])
    assert state_to_json(perft_start(setup, entry["seed"])) == state_to_json(
        perft_start(setup, entry["seed"]))
    assert reference_file().parent.name == "perft"


def _conform(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "heatcore", "conform", *args], cwd=ROOT,
                          capture_output=True, text=True, check=False)


@pytest.mark.rules("adrenaline.who")
def test_conform_perft_finds_and_divides_a_planted_bug() -> None:
    """adrenaline_wrong_car gives the adrenaline to the leader: the start and the plans
    agree, so the counts differ first at depth 3, below both plans of round 1."""
    result = _conform("--impl", f"{sys.executable} -m heatcore.heat.conformance.mutants."
                      "adrenaline_wrong_car", "--perft", "--perft-depth", "3",
                      "--perft-only", "usa:2")
    assert result.returncode == 1, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert any("DIFFERS" in line for line in lines)
    after = next(line for line in lines if "first difference after:" in line)
    path = after.split("first difference after:")[1].strip().split(" | ")
    assert len(path) == 2 and all(" gear " in step for step in path)
    assert any("adrenaline" in line and "offers" in line for line in lines)


def test_conform_perft_passes_heatcore_itself() -> None:
    result = _conform("--impl", f"{sys.executable} -m heatcore serve", "--perft",
                      "--perft-depth", "3", "--perft-only", "usa:2,italia:3")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "2 of 2 entries agree" in result.stdout


def test_conform_perft_refuses_a_depth_beyond_the_file() -> None:
    result = _conform("--impl", f"{sys.executable} -m heatcore serve", "--perft",
                      "--perft-depth", "40")
    assert result.returncode == 2 and "deeper than the reference" in result.stderr

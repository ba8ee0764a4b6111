"""Rulings as configuration: every switchable ruling can be chosen in a race's setup, the
state JSON, the protocol's ``start`` and the command line; the bug-report transcripts give
seed 000's answers under each alternative of their ruling."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from heatcore.framework.conformance.protocol import handle
from heatcore.framework.errors import MalformedInput
from heatcore.framework.registry import ruleset
from heatcore.heat.conformance.binding import HeatBinding
from heatcore.heat.driver import random_race
from heatcore.heat.notation import (
    setup_from_dict,
    setup_to_dict,
    state_from_dict,
    state_from_json,
    state_to_dict,
    state_to_json,
)
from heatcore.heat.rulings import KNOWN_ALTERNATIVES, make_rulings, parse_ruling_option, switches
from heatcore.heat.setup import start_race
from heatcore.tools.cli import main as cli_main

TRANSCRIPTS = Path(__file__).resolve().parent / "transcripts"


@pytest.mark.rules("ruling.cluttered-gear", "ruling.finished-car-discard-draw")
def test_every_ruling_is_switchable_or_says_why_not() -> None:
    for entry in ruleset():
        if entry.kind != "ruling":
            continue
        if entry.choices:
            assert len(entry.choices) >= 2 and not entry.fixed, entry.id
        else:
            assert entry.fixed and not entry.default, entry.id
    spec = {(r, c) for r, choices in switches().items() for c in choices[1:]}
    assert spec == KNOWN_ALTERNATIVES


@pytest.mark.rules("ruling.zero-move", "ruling.stress-supply")
def test_rulings_round_trip_through_state_and_setup_json() -> None:
    chosen = make_rulings({"ruling.zero-move": "place", "ruling.stress-supply": "box"})
    assert chosen == make_rulings({"ruling.zero-move": "place"})
    race = random_race("usa", 2, seed=1, laps=1, rulings=chosen)
    state = race.final
    data = state_to_dict(state)
    assert list(data["rulings"]) == sorted(switches())
    assert data["rulings"]["ruling.zero-move"] == "place"
    assert state_from_json(state_to_json(state)) == state
    assert setup_from_dict(setup_to_dict(race.setup)) == race.setup
    old = dict(data)
    del old["rulings"]  # a heatcore.state/1 state written before rulings: the defaults
    assert state_from_dict(old).rulings == make_rulings({})


@pytest.mark.rules("ruling.zero-move", "ruling.unreadable-input")
def test_an_unknown_ruling_or_choice_is_a_clear_error() -> None:
    data = state_to_dict(start_race(random_race("usa", 2, 0).setup)[0])
    for bad, rule, words in (
            ({"ruling.zero-move": "hop"}, "ruling.zero-move", "'hop' is not a choice"),
            ({"ruling.nope": "x"}, "ruling.unreadable-input", "'ruling.nope' is not a ruling"),
            ({"ruling.lap-count": "any"}, "ruling.unreadable-input",
             "'ruling.lap-count' is not a switchable ruling")):
        with pytest.raises(MalformedInput) as err:
            state_from_dict({**data, "rulings": bad})
        assert err.value.rule == rule and words in err.value.detail
    assert parse_ruling_option("zero-move=place") == ("ruling.zero-move", "place")
    with pytest.raises(MalformedInput) as err:
        parse_ruling_option("zero-move")
    assert err.value.rule == "ruling.unreadable-input"


def _session(path: Path, start: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """Replies of heatcore to a transcript; ``start`` adds fields to its start request."""
    binding, session, replies = HeatBinding(), {}, []
    for line in path.read_text().splitlines():
        request = json.loads(line)
        if request["op"] == "start" and start:
            request = {**request, **start}
        replies.append(handle(binding, session, request))
    return replies


@pytest.mark.rules("ruling.cluttered-gear", "gear.shift.two-costs-heat", "play.cluttered")
def test_the_cluttered_transcript_offers_the_paid_two_gear_shift() -> None:
    replies = _session(TRANSCRIPTS / "cluttered-paid-shift.jsonl")
    legal = replies[2]["actions"]
    assert "P1 gear 2 play 3 H" in legal
    strict = _session(TRANSCRIPTS / "cluttered-paid-shift.jsonl",
                      {"rulings": {"ruling.cluttered-gear": "free-shifts-only"}})
    assert strict[0]["ok"] and "P1 gear 2 play 3 H" not in strict[2]["actions"]


@pytest.mark.rules("ruling.finished-car-discard-draw", "discard.optional")
@pytest.mark.parametrize("choice", ["discard-and-draw", "skip"])
def test_the_finished_car_transcript_under_each_alternative(choice: str) -> None:
    replies = _session(TRANSCRIPTS / "finished-car-discard-draw.jsonl",
                       {"rulings": {"ruling.finished-car-discard-draw": choice}})
    assert all(r["ok"] for r in replies)
    after = replies[2]["state"]
    assert after["rulings"]["ruling.finished-car-discard-draw"] == choice
    if choice == "discard-and-draw":
        assert after["turn"]["car"] == "P1" and after["turn"]["stage"] == "discard"
    else:
        assert after["turn"]["car"] == "P2"
        assert after["cars"][0]["hand"] == ["2", "2", "2"]


@pytest.mark.rules("ruling.zero-move")
def test_start_refuses_an_alternative_it_does_not_know() -> None:
    reply = handle(HeatBinding(), {}, {"op": "start", "protocol": "conform/1", "ruleset": "heat",
                                       "rulings": {"ruling.zero-move": "teleport"}})
    assert not reply["ok"] and reply["error"]["kind"] == "unsupported"


@pytest.mark.rules("ruling.finished-car-discard-draw", "ruling.spin-discard")
def test_race_command_plays_under_a_ruling(capsys: pytest.CaptureFixture[str],
                                           tmp_path: Path) -> None:
    log = tmp_path / "race.json"
    assert cli_main(["race", "--players", "3", "--laps", "1", "--seed", "2",
                     "--ruling", "finished-car-discard-draw=skip",
                     "--ruling", "ruling.spin-discard=straight-to-replenish",
                     "--json", str(log)]) == 0
    setup = json.loads(log.read_text())["setup"]
    assert setup["rulings"]["ruling.finished-car-discard-draw"] == "skip"
    assert cli_main(["replay", str(log)]) == 0
    capsys.readouterr()
    assert cli_main(["race", "--ruling", "zero-move=teleport"]) == 2
    assert "ruling.zero-move" in capsys.readouterr().err


def _alternatives() -> list[tuple[str, str]]:
    return sorted(KNOWN_ALTERNATIVES)


@pytest.mark.rules("ruling.stress-supply", "ruling.cluttered-gear", "ruling.zero-move",
                   "ruling.blocked-extra-move", "ruling.blocked-own-space",
                   "ruling.spin-discard", "ruling.finished-car-discard-draw")
@pytest.mark.parametrize(("ruling", "choice"), _alternatives())
def test_the_race_checker_passes_races_under_each_alternative(ruling: str, choice: str) -> None:
    import random

    from heatcore.heat.race_checker import check_race, mixed_policy
    from heatcore.heat.setup import random_setup

    for seed in range(3):
        rng = random.Random(seed)
        setup = random_setup(("usa", "italia", "france")[seed], 3 + seed, rng, 1,
                             rulings=make_rulings({ruling: choice}))
        _, final, _ = check_race(setup, mixed_policy(), rng)
        assert final.is_over() and final.rulings.chose(ruling, choice)


@pytest.mark.rules("ruling.finished-car-discard-draw")
def test_conform_plays_its_races_under_the_given_rulings(tmp_path: Path) -> None:
    import sys

    from heatcore.framework.conformance.harness import main as conform_main

    def conform(impl: str) -> dict[str, Any]:
        folder = tmp_path / impl.split()[0].rsplit(".", 1)[-1]
        code = conform_main(["--impl", f"{sys.executable} -m {impl}", "--no-fixtures",
                             "--races", "2", "--seed", "3", "--report", str(folder),
                             "--ruling", "finished-car-discard-draw=skip"])
        report: dict[str, Any] = json.loads((folder / "report.json").read_text())
        return {**report, "exit": code}

    honest = conform("heatcore serve")
    assert honest["exit"] == 0 and honest["races"]["pass"] == 2
    # an engine that plays the defaults whatever the race chose is caught
    wrong = conform("heatcore.heat.conformance.mutants.rulings_ignored")
    assert wrong["exit"] == 1 and wrong["races"]["fail"] >= 1

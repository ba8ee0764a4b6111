"""The Garage's fixtures (spec/fixtures): at least three cases for every symbol of the card
vocabulary (spec/modules/garage.json, read here, not through the engine), for the draft's
rules and for each Garage ruling, each from a state that plays the Garage; and the mined
upgrade edge cases are among them."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from heatcore.heat.conformance.corpus import fixtures_dir

SPEC = Path(__file__).resolve().parent.parent / "spec"


def _garage_cases() -> list[dict[str, object]]:
    cases = []
    for path in sorted(fixtures_dir().glob("*.json")):
        for case in json.loads(path.read_text(encoding="utf-8"))["cases"]:
            if "garage" in case["state"].get("modules", ()):
                cases.append(case)
    return cases


def _counts(cases: list[dict[str, object]]) -> Counter[str]:
    counts: Counter[str] = Counter()
    for case in cases:
        counts.update(set(case["rules"]) | set(case["rulings"]))  # type: ignore[call-overload]
    return counts


def test_every_symbol_and_the_draft_have_three_garage_fixtures() -> None:
    vocabulary = json.loads((SPEC / "modules" / "garage.json").read_text(encoding="utf-8"))
    symbol_rules = {s["rule"] for s in vocabulary["symbols"]}
    assert len(symbol_rules) >= 11  # Heat, Scrap, Adjust, +, Cooldown, ... Accelerate
    counts = _counts(_garage_cases())
    wanted = symbol_rules | {"draft.market", "draft.order", "draft.quick-start"}
    short = {rule: counts[rule] for rule in sorted(wanted) if counts[rule] < 3}
    assert not short, short


def test_every_garage_ruling_has_three_garage_fixtures() -> None:
    rulings = [line.split('"')[1] for line in
               (SPEC / "rulings.toml").read_text(encoding="utf-8").splitlines()
               if line.startswith('id = "ruling.garage-')]
    assert len(rulings) >= 8
    counts = _counts(_garage_cases())
    assert not {r: counts[r] for r in rulings if counts[r] < 3}


def test_the_mined_upgrade_edge_cases_are_fixtures_on_every_base_track() -> None:
    mined = [c for c in _garage_cases() if str(c["id"]).startswith("miner.")]
    found = {(str(c["id"]).split(".")[1], str(c["id"]).split(".")[2]) for c in mined}
    for situation in ("adjust-corner", "refresh-empty-deck", "salvage-reshuffle"):
        assert {t for s, t in found if s == situation} == {
            "usa", "italia", "france", "great-britain"}, situation

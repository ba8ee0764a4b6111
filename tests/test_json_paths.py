"""The JSON path-diff both rulesets' attributions read states through
(``heatcore.framework.conformance.causes.json_paths``), as each ruleset configures it."""

from __future__ import annotations

from heatcore.framework.conformance.causes import json_paths
from heatcore.heat.conformance.attribution import paths as heat_paths
from heatcore.rallyman.attribution import paths as rallyman_paths


def test_objects_key_by_key_and_anything_else_as_a_whole() -> None:
    assert json_paths({"a": 1, "b": {"c": [1, 2]}}, {"a": 1, "b": {"c": [1, 3]}}) == ["b.c"]
    assert json_paths({"a": 1}, {"b": 1}) == ["a", "b"]
    assert json_paths(1, 2) == ["$"]
    assert json_paths({"x": [1]}, {"x": [1]}) == []


def test_heat_itemises_the_cars_and_reads_absent_rulings_as_the_defaults() -> None:
    want = {"cars": [{"gear": 1, "hand": []}, {"gear": 2}], "rulings": {}}
    got = {"cars": [{"gear": 3, "hand": []}, {"gear": 4}, {"gear": 1}]}
    assert heat_paths(want, got) == ["cars[].gear", "cars"]
    assert heat_paths({"rulings": {"r": "x"}}, {}) == ["rulings.r"]
    assert heat_paths({"turn": {"cars": [1]}}, {"turn": {"cars": [2]}}) == ["turn.cars"]


def test_rallyman_itemises_lists_of_objects_of_one_length() -> None:
    want = {"turn": {"plan": [{"die": "G1"}, {"die": "G2"}]}, "order": ["P1", "P2"]}
    got = {"turn": {"plan": [{"die": "G1"}, {"die": "C"}]}, "order": ["P2", "P1"]}
    assert rallyman_paths(want, got) == ["order", "turn.plan[].die"]
    shorter = {"turn": {"plan": [{"die": "G1"}]}, "order": ["P1", "P2"]}
    assert rallyman_paths(want, shorter) == ["turn.plan"]

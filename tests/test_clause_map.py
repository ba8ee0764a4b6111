"""The seed clause map (``spec/clauses/``): every line of text of seeds 000, 003 and 004 is in
exactly one clause, every clause that carries rules names known rule and ruling IDs, and every
rule and ruling of ``spec/`` is cited by a clause or listed as coming from no seed.

Independent of the engine: it reads only the seed texts, the map and the rule registry's
entries. The planted maps below show that each kind of fault is caught.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import replace

import pytest

from heatcore.framework.clause_map import (
    DOCUMENTS,
    Clause,
    ClauseMaps,
    SeedMap,
    Unseeded,
    check,
    load_clause_maps,
    problems,
    seeds_at_hand,
    seeds_dir,
    source_sections,
)
from heatcore.framework.registry import combined_ruleset

if not seeds_at_hand():  # CI sets HEATCORE_REQUIRE_SEEDS: there, a missing seed fails
    if os.environ.get("HEATCORE_REQUIRE_SEEDS"):
        raise RuntimeError(f"the seed texts are not in {seeds_dir()}")
    pytest.skip(f"the seed texts are not here ({seeds_dir()}; set HEATCORE_SEEDS)",
                allow_module_level=True)


@pytest.fixture(scope="module")
def maps() -> ClauseMaps:
    return load_clause_maps()


def _problems(maps: ClauseMaps) -> list[str]:
    return problems(maps, combined_ruleset().entries, source_sections())


def _seed(maps: ClauseMaps, document: str) -> SeedMap:
    return next(seed for seed in maps.seeds if seed.document == document)


def _with_seed(maps: ClauseMaps, seed: SeedMap) -> ClauseMaps:
    return replace(maps, seeds=tuple(seed if s.document == seed.document else s
                                     for s in maps.seeds))


def _clause_at(seed: SeedMap, line: int) -> Clause:
    return next(c for c in seed.clauses if c.first <= line <= c.last)


def _swap(seed: SeedMap, old: Clause, new: Clause | None) -> SeedMap:
    clauses = tuple(c for c in (new if c == old else c for c in seed.clauses) if c is not None)
    return replace(seed, clauses=clauses)


# ----------------------------------------------------------------------------- the map


def test_the_clause_map_agrees_with_the_seeds_and_spec() -> None:
    found = check()
    assert not found, "\n".join(found)


@pytest.mark.parametrize("document", DOCUMENTS)
def test_every_line_of_text_is_in_exactly_one_clause(maps: ClauseMaps, document: str) -> None:
    seed = _seed(maps, document)
    lines = seed.text.split("\n")
    owners: dict[int, int] = {}
    for clause in seed.clauses:
        for number in range(clause.first, clause.last + 1):
            owners[number] = owners.get(number, 0) + 1
    text_lines = {n for n, line in enumerate(lines, start=1) if line.strip()}
    assert {n for n, count in owners.items() if count == 1 and n in text_lines} == text_lines
    assert all(count == 1 for count in owners.values())  # blank lines inside a clause too


@pytest.mark.parametrize("document", DOCUMENTS)
def test_the_map_was_made_from_this_very_seed_text(maps: ClauseMaps, document: str) -> None:
    """Each map records the sha256 of the seed text it cuts into clauses (the texts stay in
    shared/seeds, beside the repository: they are not copied into it)."""
    seed = _seed(maps, document)
    assert hashlib.sha256(seed.text_path.read_bytes()).hexdigest() == seed.sha256


def test_each_kind_of_clause_is_used_and_rulings_are_cited(maps: ClauseMaps) -> None:
    clauses = [c for seed in maps.seeds for c in seed.clauses]
    assert {c.kind for c in clauses} >= {"rules", "heading", "no-rule"}
    rulings = {i for c in clauses for i in c.rulings}
    assert "ruling.garage-unpaid-heat" in rulings and "rgt.ruling.yellow-flag-ends" in rulings
    assert _seed(maps, "000").text_path.parent == seeds_dir()


@pytest.mark.rules("slipstream.not-past-finish")
def test_both_seeds_forbidding_a_slipstream_across_the_final_line_cite_the_rule(
        maps: ClauseMaps) -> None:
    assert "slipstream.not-past-finish" in _clause_at(_seed(maps, "000"), 75).rules
    assert "slipstream.not-past-finish" in _clause_at(_seed(maps, "003"), 36).rules


@pytest.mark.rules("upgrade.heat-unpayable", "rgt.damage.yellow-flag")
def test_the_unpaid_heat_card_and_the_yellow_flag_clauses_cite_their_rules(
        maps: ClauseMaps) -> None:
    unpaid = _clause_at(_seed(maps, "003"), 29)
    assert "upgrade.heat-unpayable" in unpaid.rules
    assert "ruling.garage-unpaid-heat" in unpaid.rulings
    flag = _clause_at(_seed(maps, "004"), 194)
    assert "rgt.damage.yellow-flag" in flag.rules
    assert "rgt.ruling.yellow-flag-ends" in flag.rulings


# ----------------------------------------------------------------------------- planted faults


def test_a_clause_taken_out_leaves_a_gap(maps: ClauseMaps) -> None:
    seed = _seed(maps, "000")
    planted = _with_seed(maps, _swap(seed, _clause_at(seed, 53), None))
    found = _problems(planted)
    assert any("000 line 53: in no clause" in p for p in found), found


def test_overlapping_clauses_are_caught(maps: ClauseMaps) -> None:
    seed = _seed(maps, "004")
    old = _clause_at(seed, 3)
    planted = _with_seed(maps, _swap(seed, old, replace(old, last=5)))
    found = _problems(planted)
    assert any("004 line 5: in two clauses" in p for p in found), found


def test_an_unknown_id_is_caught(maps: ClauseMaps) -> None:
    seed = _seed(maps, "003")
    old = _clause_at(seed, 36)
    planted = _with_seed(maps, _swap(seed, old, replace(old, rules=(*old.rules,
                                                                     "slipstream.nowhere"))))
    found = _problems(planted)
    assert any("unknown rule or ruling ID 'slipstream.nowhere'" in p for p in found), found


def test_a_rule_cited_by_no_clause_is_caught(maps: ClauseMaps) -> None:
    seed = _seed(maps, "000")
    old = _clause_at(seed, 47)
    assert "slipstream.eligible" in old.rules
    other = _seed(maps, "003")
    old3 = _clause_at(other, 36)
    planted = _with_seed(_with_seed(maps, _swap(seed, old, replace(old, rules=tuple(
        r for r in old.rules if r != "slipstream.eligible")))), _swap(other, old3, replace(
            old3, rules=tuple(r for r in old3.rules if r != "slipstream.eligible"))))
    found = _problems(planted)
    assert any(p.startswith("slipstream.eligible: cited by no clause") for p in found), found


def test_a_ruling_cited_by_no_clause_is_caught(maps: ClauseMaps) -> None:
    seed = _seed(maps, "004")
    old = _clause_at(seed, 180)
    planted = _with_seed(maps, _swap(seed, old, replace(old, rulings=())))
    found = _problems(planted)
    assert any(p.startswith("rgt.ruling.gear-damage-die: cited by no clause")
               for p in found), found


def test_a_rules_clause_naming_nothing_and_a_silent_no_rule_are_caught(
        maps: ClauseMaps) -> None:
    seed = _seed(maps, "000")
    old, title = _clause_at(seed, 79), _clause_at(seed, 1)
    planted = _with_seed(maps, _swap(_swap(seed, old, replace(old, rules=(), rulings=())),
                                     title, replace(title, why="")))
    found = _problems(planted)
    assert any("000 lines 79: a clause that carries rules names none" in p for p in found)
    assert any("000 lines 1: a no-rule clause must say why" in p for p in found), found


def test_a_quote_outside_its_lines_and_a_wrong_section_are_caught(maps: ClauseMaps) -> None:
    seed = _seed(maps, "004")
    end, rounds = _clause_at(seed, 239), _clause_at(seed, 3)
    planted = _with_seed(maps, _swap(_swap(seed, end, replace(end, quote="ピットストップ")),
                                     rounds, replace(rounds, section="ゲームの終了")))
    found = _problems(planted)
    assert any("004 lines 239: the quote" in p for p in found), found
    assert any("004 lines 3: section 'ゲームの終了' is not opened" in p for p in found), found


def test_a_rule_moved_to_another_seed_or_listed_unseeded_is_caught(maps: ClauseMaps) -> None:
    seed = _seed(maps, "004")
    old = _clause_at(seed, 197)  # the green flag
    planted = _with_seed(maps, _swap(seed, old, replace(old, rules=(), kind="no-rule",
                                                        why="planted")))
    planted = replace(planted, unseeded=(*planted.unseeded,
                                         Unseeded("rgt.damage.green-flag", "planted")))
    found = _problems(planted)
    assert any("rgt.damage.green-flag: its source is seed 004" in p for p in found), found
    assert any("rgt.damage.green-flag: listed as unseeded" in p for p in found), found


def test_a_rule_under_the_wrong_heading_is_caught(maps: ClauseMaps) -> None:
    seed = _seed(maps, "000")
    spin = _clause_at(seed, 53)
    finish = _clause_at(seed, 75)
    example = _clause_at(seed, 71)
    moved = _swap(_swap(_swap(seed, spin, replace(spin, rules=("corner.check",))), example,
                        replace(example, rules=("corner.pay-heat",))),
                  finish, replace(finish, rules=(*finish.rules, "corner.spin")))
    found = _problems(_with_seed(maps, moved))
    assert any(p.startswith("corner.spin: its source is seed 000 section") for p in found), \
        found


def test_a_changed_seed_text_is_caught(maps: ClauseMaps) -> None:
    texts = {seed.document: seed.text for seed in maps.seeds}
    texts["003"] = texts["003"].replace("6.尾流", "6.尾流\n\n(a new line)")
    found = problems(maps, combined_ruleset().entries, source_sections(), texts)
    assert any("003: the seed's text changed" in p for p in found), found
    assert any("in no clause" in p for p in found), found

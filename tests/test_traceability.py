"""Every rule in spec/ (each ruleset: Heat in spec/, Rallyman GT in spec/rallyman/) is checked
by a test and implemented in the engine; tests and code name only known rule IDs."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from rule_marks import rule_marks

from heatcore.framework.registry import GAMES, IMPLEMENTATIONS, all_rule_ids, ruleset

ROOT = Path(__file__).resolve().parent.parent
MODULE_CHAPTERS = {"weather", "legends", "garage", "championship"}
#: Where each ruleset's engine lives (for the check that errors name known IDs).
PACKAGES = {"heat": ROOT / "heatcore", "rallyman-gt": ROOT / "heatcore" / "rallyman"}


@pytest.mark.rules("round.sequence", "rgt.turn.sequence")
@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_rule_and_ruling_has_a_test(game: str) -> None:
    marks = rule_marks()
    missing = [rule for rule in ruleset(game).rule_ids if not marks.get(rule)]
    assert not missing, f"{game} rules with no test: {missing}"


def test_tests_name_only_known_rule_ids() -> None:
    unknown = sorted(set(rule_marks()) - all_rule_ids())
    assert not unknown, f"tests name unknown rule IDs: {unknown}"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_rule_and_ruling_is_implemented_in_the_engine(game: str) -> None:
    rules = ruleset(game)
    missing = [e.id for e in rules if e.chapter != "examples" and e.id not in IMPLEMENTATIONS]
    assert not missing, f"{game} rules no engine function names: {missing}"
    unknown = sorted(set(IMPLEMENTATIONS) - all_rule_ids())
    assert not unknown, f"@implements names unknown rule IDs: {unknown}"


def test_rule_ids_are_unique_across_rulesets() -> None:
    sizes = sum(len(ruleset(game).rule_ids) for game in GAMES)
    assert sizes == len(all_rule_ids())


@pytest.mark.parametrize("game", sorted(GAMES))
def test_rule_ids_named_in_engine_errors_are_known(game: str) -> None:
    text = "\n".join(p.read_text(encoding="utf-8") for p in PACKAGES[game].rglob("*.py"))
    named = set(re.findall(r'(?:IllegalAction|MalformedInput|InvalidState)\(\s*"([^"]+)"', text))
    assert named, "no error names a rule"
    assert named <= all_rule_ids(), sorted(named - all_rule_ids())


@pytest.mark.parametrize("game", sorted(GAMES))
def test_spec_entries_have_text_and_source(game: str) -> None:
    for entry in ruleset(game):
        assert entry.text and entry.title, entry.id
        if entry.kind == "rule":
            # Heat's core rules come from seed 000; a module's from seed 003 where it speaks,
            # else from the research dossier; Rallyman GT's from seed 004
            assert entry.source is not None, entry.id
            if game == "heat":
                core = entry.chapter not in MODULE_CHAPTERS
                allowed = {"000"} if core else {"003", "research"}
            else:
                allowed = {GAMES[game].document}
            assert entry.source.document in allowed, entry.id
        else:
            assert entry.alternatives and entry.reasoning and entry.question, entry.id


def test_rallyman_ids_carry_the_rgt_prefix() -> None:
    assert all(rule.startswith("rgt.") for rule in ruleset("rallyman-gt").rule_ids)
    assert not any(rule.startswith("rgt.") for rule in ruleset("heat").rule_ids)


def test_the_combined_rulebook_titles_each_rallyman_chapter_with_its_game() -> None:
    from heatcore.framework.registry import combined_ruleset

    titles = {c.id: c.title for c in combined_ruleset().chapters}
    assert titles["rgt.corner"] == "Rallyman GT: Corners"
    assert all(titles[c.id] == f"Rallyman GT: {c.title}" for c in ruleset("rallyman-gt").chapters)
    assert all(titles[c.id] == c.title for c in ruleset("heat").chapters)  # the site's own game


def test_the_check_catches_a_rule_without_a_test(tmp_path: Path) -> None:
    (tmp_path / "test_x.py").write_text(
        "import pytest\n@pytest.mark.rules('corner.spin')\ndef test_a():\n    pass\n")
    marks = rule_marks(tmp_path)
    assert set(marks) == {"corner.spin"}
    assert [r for r in ruleset().rule_ids if not marks.get(r)]
    assert [r for r in ruleset("rallyman-gt").rule_ids if not marks.get(r)]

"""Every rule in spec/ is checked by a test and implemented in the engine; tests and
code name only known rule IDs."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from rule_marks import rule_marks

import heatcore.engine
import heatcore.observe
import heatcore.setup
import heatcore.validity  # noqa: F401  (imports register @implements)
from heatcore.registry import IMPLEMENTATIONS, ruleset

ROOT = Path(__file__).resolve().parent.parent
MODULE_CHAPTERS = {"weather", "legends"}


@pytest.mark.rules("round.sequence")
def test_every_rule_and_ruling_has_a_test() -> None:
    marks = rule_marks()
    missing = [rule for rule in ruleset().rule_ids if not marks.get(rule)]
    assert not missing, f"rules with no test: {missing}"


def test_tests_name_only_known_rule_ids() -> None:
    unknown = sorted(set(rule_marks()) - set(ruleset().rule_ids))
    assert not unknown, f"tests name unknown rule IDs: {unknown}"


def test_every_rule_and_ruling_is_implemented_in_the_engine() -> None:
    rules = ruleset()
    missing = [e.id for e in rules if e.chapter != "examples" and e.id not in IMPLEMENTATIONS]
    assert not missing, f"rules no engine function names: {missing}"
    unknown = sorted(set(IMPLEMENTATIONS) - set(rules.rule_ids))
    assert not unknown, f"@implements names unknown rule IDs: {unknown}"


def test_rule_ids_named_in_engine_errors_are_known() -> None:
    text = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "heatcore").rglob("*.py"))
    named = set(re.findall(r'(?:IllegalAction|MalformedInput|InvalidState)\(\s*"([^"]+)"', text))
    assert named, "no error names a rule"
    assert named <= set(ruleset().rule_ids), sorted(named - set(ruleset().rule_ids))


def test_spec_entries_have_text_and_source() -> None:
    for entry in ruleset():
        assert entry.text and entry.title, entry.id
        if entry.kind == "rule":
            # the core rules come from seed 000; a module's from seed 003 where it speaks,
            # else from the research dossier (a section naming its source tags)
            assert entry.source is not None, entry.id
            core = entry.chapter not in MODULE_CHAPTERS
            allowed = {"000"} if core else {"003", "research"}
            assert entry.source.document in allowed, entry.id
        else:
            assert entry.alternatives and entry.reasoning and entry.question, entry.id


def test_the_check_catches_a_rule_without_a_test(tmp_path: Path) -> None:
    (tmp_path / "test_x.py").write_text(
        "import pytest\n@pytest.mark.rules('corner.spin')\ndef test_a():\n    pass\n")
    marks = rule_marks(tmp_path)
    assert set(marks) == {"corner.spin"}
    assert [r for r in ruleset().rule_ids if not marks.get(r)]

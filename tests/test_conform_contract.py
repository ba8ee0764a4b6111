"""The conformance kit's contract and diagnosis: schemas of every state under every ruling,
Rallyman's schemas, rulings declared by name, attribution by replay, defects and reports."""

from __future__ import annotations

import json
import sys
import types
from pathlib import Path

import pytest

from heatcore.framework.conformance.capabilities import DEFAULT, Capabilities
from heatcore.framework.conformance.causes import Divergence, group, settle
from heatcore.framework.conformance.harness import main as conform_main
from heatcore.framework.conformance.harness import state_schema_problem
from heatcore.framework.conformance.report_view import defects, pool_states, resolve
from heatcore.framework.conformance.schema import check, is_valid
from heatcore.framework.conformance.variants import Explainer, Patcher, json_distance
from heatcore.heat.conformance.attribution import attribute
from heatcore.heat.conformance.binding import HeatBinding
from heatcore.heat.conformance.variants import VARIANTS
from heatcore.heat.rulings import make_rulings, switches
from heatcore.rallyman.binding import RallymanBinding


@pytest.mark.rules("ruling.stress-supply", "round.sequence")
def test_our_states_match_the_state_schema_under_every_ruling_alternative() -> None:
    checked = 0
    for ruling, choices in sorted(switches().items()):
        for choice in choices[1:]:
            binding = HeatBinding(make_rulings({ruling: choice}))
            race = binding.random_race(10_002)
            check("heat-state", race.start)
            for step in race.steps:
                check("heat-state", step.after)
                checked += 1
    assert checked > 1000


@pytest.mark.rules("ruling.stress-supply")
def test_a_negative_supply_is_valid_only_under_the_unlimited_supply() -> None:
    state = dict(HeatBinding().random_race(10_001).start)
    state["supply"] = -3
    assert not is_valid("heat-state", state)
    state["rulings"] = {"ruling.stress-supply": "unlimited"}
    assert is_valid("heat-state", state)
    assert "heat-state.schema.json at $.supply" in state_schema_problem(
        HeatBinding(), {"state": {**state, "rulings": {}}})


@pytest.mark.rules("rgt.turn.sequence")
def test_rallyman_states_actions_and_events_match_their_schemas() -> None:
    binding = RallymanBinding()
    kinds: set[str] = set()
    for seed in range(10_000, 10_012):
        race = binding.random_race(seed)
        check("rallyman-gt-state", race.start)
        check("rallyman-gt-setup", race.setup)
        for step in race.steps:
            check("rallyman-gt-state", step.after)
            check("rallyman-gt-action", step.action)
            for event in step.events:
                check("rallyman-gt-event", event)
                kinds.add(event["kind"])
    assert {"laid", "rolls", "dice", "moved", "turn-ended", "race-over"} <= kinds
    assert not is_valid("rallyman-gt-action", "P1 lay G7 T2.L1.1")
    assert not is_valid("rallyman-gt-event", {"kind": "moved", "car": "P1", "to": "T2.L1.1"})
    assert is_valid("rallyman-gt-dice", "-!/--") and not is_valid("rallyman-gt-dice", "G7")


@pytest.mark.rules("ruling.stress-supply")
def test_a_ruling_default_declared_by_its_own_name_is_the_default() -> None:
    caps = Capabilities.from_hello({"rulings": {"ruling.stress-supply": "box"}}, "heat")
    assert caps.rulings == {"ruling.stress-supply": DEFAULT} and caps.alternatives() == {}
    assert caps.unsupported({}, ["ruling.stress-supply"]) is None
    other = Capabilities.from_hello({"rulings": {"ruling.stress-supply": "unlimited"}},
                                    "heat")
    assert other.alternatives() == {"ruling.stress-supply": "unlimited"}


@pytest.mark.rules("ruling.stress-supply")
def test_cases_are_selected_by_the_alternative_they_play() -> None:
    default = Capabilities.from_hello({"rulings": {"ruling.stress-supply": "default"}}, "heat")
    unlimited = Capabilities.from_hello({"rulings": {"ruling.stress-supply": "unlimited"}},
                                        "heat")
    plays_unlimited = {"rulings": {"ruling.stress-supply": "unlimited"}}
    plays_box = {"rulings": {"ruling.stress-supply": "box"}}
    needs = ["ruling.stress-supply"]
    assert default.unsupported(plays_box, needs) is None
    assert "the case plays unlimited" in str(default.unsupported(plays_unlimited, needs))
    assert unlimited.unsupported(plays_unlimited, needs) is None
    assert "the case plays default" in str(unlimited.unsupported(plays_box, needs))
    # declared by ID alone: decided as heatcore decides, by the state, so every case runs
    as_stated = Capabilities.from_hello({"rulings": ["ruling.stress-supply"]}, "heat")
    assert as_stated.unsupported(plays_unlimited, needs) is None
    assert as_stated.unsupported(plays_box, needs) is None


@pytest.mark.rules("round.sequence")
def test_the_patcher_undoes_every_change() -> None:
    module = types.SimpleNamespace(value=1)
    table = {"a": 1}
    patcher = Patcher()
    patcher.setattr(module, "value", 2)
    patcher.setattr(module, "added", 3)
    patcher.setitem(table, "a", 5)
    patcher.setitem(table, "b", 6)
    assert (module.value, module.added, table) == (2, 3, {"a": 5, "b": 6})
    patcher.undo()
    assert module.value == 1 and not hasattr(module, "added") and table == {"a": 1}


def _boost_step(binding: HeatBinding) -> tuple[object, str]:
    for seed in range(10_000, 10_010):
        for step in binding.random_race(seed).steps:
            if step.action.endswith(" boost") and any(
                    e["kind"] == "paid-heat" for e in step.events):
                return step.before, step.action
    raise AssertionError("no paid boost in ten races")


@pytest.mark.rules("react.boost")
def test_the_variant_that_reproduces_an_engine_reply_is_found_and_a_stranger_is_not() -> None:
    binding = HeatBinding()
    state, action = _boost_step(binding)
    variant = next(v for v in VARIANTS if v.rule == "react.boost")
    patcher = Patcher()
    variant.plant(patcher)
    try:
        after, events = HeatBinding().apply(state, action)
    finally:
        patcher.undo()
    engine = {"state": after, "events": events}
    want_state, want_events = binding.apply(state, action)
    want = {"state": want_state, "events": want_events}
    assert want != engine  # the reference is back to the rules

    def observe(reference: HeatBinding) -> object:
        a, e = reference.apply(state, action)
        return {"state": a, "events": e}

    explainer = Explainer(binding, VARIANTS)
    found = explainer.explain(observe, lambda view: json_distance(view, engine),
                              json_distance(want, engine))
    assert found and found[0] == (0, variant)
    # an engine that does something no variant does is explained by none exactly
    odd = {"state": {**want_state, "round": 999}, "events": want_events}
    assert all(d > 0 for d, _ in explainer.explain(
        observe, lambda view: json_distance(view, odd), json_distance(want, odd)))


@pytest.mark.rules("react.boost")
def test_a_difference_in_trailing_events_is_charged_to_that_events_rule() -> None:
    binding = HeatBinding()
    state, action = _boost_step(binding)
    after, events = binding.apply(state, action)
    extra = [*events, {"kind": "drew", "car": "P1", "count": 1}]
    found = attribute("apply", state, action, {"state": after, "events": events},
                      {"state": after, "events": extra})
    assert found.rules[0] == "replenish.draw" and "trailing `drew`" in found.what


@pytest.mark.rules("react.boost")
def test_a_heat_paid_for_a_boost_is_charged_to_the_boost() -> None:
    binding = HeatBinding()
    state, action = _boost_step(binding)
    after, events = binding.apply(state, action)
    other = json.loads(json.dumps(after))
    car = int(action.split()[0][1:]) - 1
    other["cars"][car]["engine"] += 1
    found = attribute("apply", state, action, {"state": after, "events": events},
                      {"state": other, "events": events})
    assert found.rules[0] == "react.boost", found


def _div(rules: list[str], race: str, what: str = "x", step: int = 1) -> Divergence:
    return Divergence(f"race {race}, step {step}", "race", rules, what, "r", {"round": step},
                      [], "apply", {}, {}, step=step, race=race, round=step)


@pytest.mark.rules("round.sequence")
def test_divergences_one_rule_explains_are_one_defect() -> None:
    divs = [_div(["a.rule", "b.rule"], "1"), _div(["b.rule"], "2", "y"),
            _div(["c.rule", "b.rule"], "3", "z"), _div(["d.rule"], "4", "w")]
    settle(divs)
    assert [d.rules[0] for d in divs] == ["b.rule", "b.rule", "b.rule", "d.rule"]
    found = defects(group(divs), lambda rule: rule.upper())
    assert [(d["rule"], d["races"]) for d in found] == [("b.rule", ["1", "2", "3"]),
                                                       ("d.rule", ["4"])]
    assert found[0]["rounds"] == [1] and found[0]["title"] == "B.RULE"


@pytest.mark.rules("round.sequence")
def test_repeated_states_are_stored_once_and_resolve_back() -> None:
    state = HeatBinding().random_race(10_001).start
    report = {"causes": [{"example": {"repro": {"state": state}}}],
              "failures": [{"repro": {"state": state}}, {"repro": {"state": {"a": 1}}}]}
    pooled = pool_states(report)
    assert len(pooled["states"]) == 1
    assert pooled["failures"][0]["repro"]["state"] == {"$ref": "#/states/0"}
    assert pooled["failures"][1]["repro"]["state"] == {"a": 1}  # short: kept inline
    assert resolve(pooled, pooled["causes"]) == report["causes"]


@pytest.mark.rules("react.boost", "round.sequence")
def test_a_planted_engine_report_has_one_defect_races_and_an_html_view(
        tmp_path: Path) -> None:
    code = conform_main(["--impl", f"{sys.executable} -m heatcore.heat.conformance.mutants."
                         "boost_free", "--no-fixtures", "--races", "2", "--report",
                         str(tmp_path)])
    assert code == 1
    report = json.loads((tmp_path / "report.json").read_text())
    assert [d["rule"] for d in report["defects"]] == ["react.boost"]
    assert report["causes"][0]["rule"] == "react.boost"
    assert [r["seed"] for r in report["race_log"]] == [10_000, 10_001]
    assert all(r["reached"] == r["steps"] and r["rounds"] for r in report["race_log"])
    assert all(any(row.values()) for row in report["rules"].values())
    page = (tmp_path / "report.html").read_text()
    assert "<h2>Defects</h2>" in page and "react.boost" in page
    markdown = (tmp_path / "report.md").read_text()
    assert markdown.index("## Defects") < markdown.index("## Races") < \
        markdown.index("## Top causes")


@pytest.mark.rules("round.sequence")
def test_an_unwritable_report_folder_is_refused_in_one_line(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert conform_main(["--impl", "heatcore serve", "--races", "0", "--no-fixtures",
                         "--report", "/proc/no-such-folder/out"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot write --report" in err


@pytest.mark.rules("rgt.turn.sequence")
def test_the_rallyman_template_adapter_starts_and_is_checked_with_everything_skipped(
        tmp_path: Path) -> None:
    template = Path(__file__).resolve().parent.parent / "examples" / "adapters" / "python" \
        / "rallyman_template.py"
    code = conform_main(["--ruleset", "rallyman-gt", "--impl", f"{sys.executable} {template}",
                         "--races", "1", "--report", str(tmp_path)])
    report = json.loads((tmp_path / "report.json").read_text())
    assert code == 0 and report["declared"]["ruleset"] == "rallyman-gt"
    assert report["cases"]["pass"] == 0 and report["cases"]["skip"] > 100
    assert report["skipped"]["load: load is not implemented"] > 0

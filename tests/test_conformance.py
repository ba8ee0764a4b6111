"""The conformance kit: schemas, corpus, protocol, harness, shrinker and the wrong engines."""

from __future__ import annotations

import json
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from heatcore.framework.conformance import CORE_PROTOCOL, PROTOCOL
from heatcore.framework.conformance.fixtures import load_cases
from heatcore.framework.conformance.harness import CannotStart, run
from heatcore.framework.conformance.harness import main as conform_main
from heatcore.framework.conformance.protocol import handle
from heatcore.framework.conformance.schema import SchemaError, check, schemas_dir
from heatcore.framework.conformance.shrink import shortest_suffix
from heatcore.framework.registry import ruleset
from heatcore.heat.conformance.binding import HeatBinding
from heatcore.heat.conformance.corpus import check_corpus, fixtures_dir, render
from heatcore.heat.conformance.mutants import BROKEN, NARROWER, PLANTED, PROTOCOL_FAILURES
from heatcore.heat.modules.weather import MODULES

ALL_RULES = tuple(ruleset().rule_ids)
SERVE = [sys.executable, "-m", "heatcore.tools.cli", "serve"]


@pytest.mark.rules("round.sequence")
def test_every_schema_is_a_valid_draft_2020_12_schema() -> None:
    paths = sorted(schemas_dir().glob("*.schema.json"))
    assert len(paths) >= 14
    for path in paths:
        Draft202012Validator.check_schema(json.loads(path.read_text()))


@pytest.mark.rules("setup.spaces-and-spots", "round.sequence")
def test_tracks_states_and_events_of_the_corpus_match_their_schemas() -> None:
    from heatcore.heat.track import tracks_dir

    for path in sorted(tracks_dir().glob("*.json")):
        check("track", json.loads(path.read_text()))
    kinds: set[str] = set()
    for case in load_cases(fixtures_dir()):
        check("heat-state", case["state"])
        for step in case["expect"].get("steps", []):
            check("heat-state", step["state"])
            for event in step["events"]:
                check("heat-event", event)
                kinds.add(event["kind"])
    assert {"moved", "corner", "spun-out", "drew", "flipped", "ranked"} <= kinds
    with pytest.raises(SchemaError, match="heat-event"):
        check("heat-event", {"kind": "moved", "car": "P1", "by": "cards", "spaces": 3})


@pytest.mark.rules(*ALL_RULES)
def test_fixtures_check_passes_on_the_corpus() -> None:
    assert check_corpus(fixtures_dir(), HeatBinding()) == []


@pytest.mark.rules(*ALL_RULES)
def test_regenerating_the_corpus_yields_identical_files() -> None:
    files = render()
    on_disk = {p.name: p.read_text(encoding="utf-8") for p in fixtures_dir().glob("*.json")}
    assert set(files) == set(on_disk)
    for name, text in files.items():
        assert text == on_disk[name], f"{name} differs from a fresh generation"


@pytest.mark.rules("gear.shift.no-three", "play.heat-not-playable")
def test_fixtures_check_reports_a_broken_corpus(tmp_path: Path) -> None:
    suite = json.loads((fixtures_dir() / "gear.json").read_text())
    case = suite["cases"][0]
    bad = dict(case, id="bad.case", description="this case should fail", rules=["no.such-rule"])
    bad["expect"] = {"legal": ["P1 nonsense"]}
    suite["cases"] = [case, case, bad]
    (tmp_path / "gear.json").write_text(json.dumps(suite))
    problems = "\n".join(check_corpus(tmp_path, HeatBinding(), per_rule=0))
    assert "duplicate case id" in problems
    assert "duplicate description" in problems
    assert "should" in problems
    assert "unknown rule ID 'no.such-rule'" in problems
    assert "fails on heatcore" in problems


@pytest.mark.rules("ruling.stress-supply", "ruling.finished-car-turn")
def test_cases_name_the_rulings_their_states_depend_on(tmp_path: Path) -> None:
    from heatcore.heat.conformance.tags import implied_rulings

    cases = load_cases(fixtures_dir())
    empty = [c for c in cases if "ruling.stress-supply" in implied_rulings(c)]
    finished = [c for c in cases if "ruling.finished-car-turn" in implied_rulings(c)]
    assert empty and finished
    for case in cases:
        assert set(implied_rulings(case)) <= set(case["rulings"]), case["id"]
    suite = {"format": "conform.suite/1", "ruleset": "heat", "cases": [
        dict({k: v for k, v in empty[0].items() if k != "_file"}, rulings=[r for r in
             empty[0]["rulings"] if r != "ruling.stress-supply"])]}
    (tmp_path / "one.json").write_text(json.dumps(suite))
    problems = "\n".join(check_corpus(tmp_path, HeatBinding(), per_rule=0))
    assert "depend on ruling.stress-supply, not in its rulings" in problems


@pytest.mark.rules("round.sequence", "reveal.speed")
def test_serve_answers_each_request_with_a_schema_valid_reply() -> None:
    binding = HeatBinding()
    session: dict[str, object] = {}
    hello = handle(binding, session, {"op": "start", "protocol": PROTOCOL, "ruleset": "heat"})
    check("response.start", hello)
    assert "ruling.flip-no-basic" in hello["rulings"] and "usa" in hello["tracks"]
    race = binding.random_race(1)
    assert handle(binding, session, {"op": "load", "state": race.start}) == {"ok": True}
    legal = handle(binding, session, {"op": "legal"})
    check("response.legal", legal)
    assert sorted(legal["actions"]) == sorted(race.steps[0].legal)
    applied = handle(binding, session, {"op": "apply", "action": race.steps[0].action})
    check("response.apply", applied)
    assert applied["state"] == race.steps[0].after
    refused = handle(binding, session, {"op": "apply", "action": "P9 boost"})
    check("response.apply", refused)
    assert refused["ok"] is False
    bad = handle(binding, session, {"op": "fly"})
    assert bad["error"]["kind"] == "protocol"
    check("response.stop", handle(binding, session, {"op": "stop"}))


@pytest.mark.rules("weather.module")
def test_serve_speaks_conform_2_with_modules_and_still_conform_1_without() -> None:
    binding = HeatBinding()
    binding.use_modules(MODULES)
    module_race = next(binding.random_race(seed) for seed in range(40)
                       if binding.random_race(seed).setup.get("modules"))
    new: dict[str, object] = {}
    hello = handle(binding, new, {"op": "start", "protocol": "conform/2", "ruleset": "heat"})
    check("response.start", hello)
    assert hello["protocol"] == PROTOCOL == "conform/2"
    assert hello["modules"] == [*MODULES, "championship"]
    assert handle(binding, new, {"op": "load", "state": module_race.start}) == {"ok": True}
    old: dict[str, object] = {}
    hello = handle(binding, old, {"op": "start", "protocol": CORE_PROTOCOL, "ruleset": "heat"})
    check("response.start", hello)
    assert hello["protocol"] == "conform/1" and hello["modules"] == []
    refused = handle(binding, old, {"op": "load", "state": module_race.start})
    check("response.load", refused)
    assert refused["error"]["kind"] == "unsupported"
    refused = handle(binding, old, {"op": "setup", "setup": module_race.setup})
    assert refused["error"]["kind"] == "unsupported"
    core = binding.random_race(1)
    assert not core.setup.get("modules")
    assert handle(binding, old, {"op": "load", "state": core.start}) == {"ok": True}
    assert handle(binding, {}, {"op": "start", "protocol": "conform/9",
                                "ruleset": "heat"})["error"]["kind"] == "unsupported"


@pytest.mark.rules("weather.module", "legend.turn-order")
def test_the_random_races_play_the_declared_modules_and_only_those() -> None:
    binding = HeatBinding()
    assert {tuple(binding.random_race(s).setup.get("modules", [])) for s in range(8)} == {()}
    binding.use_modules(["legends", "garage", "unknown"])
    played = {tuple(binding.race_options(s)[0]) for s in range(28)}
    assert played == {(), ("legends",), ("garage",), ("legends", "garage")}
    binding.use_modules(MODULES)
    assert {binding.race_options(s)[0] for s in range(56)} == {
        (), ("weather",), ("legends",), ("garage",), ("weather", "legends"),
        ("weather", "garage"), ("legends", "garage"), ("weather", "legends", "garage")}


@pytest.mark.rules("weather.module")
@pytest.mark.parametrize("name", sorted(NARROWER))
def test_a_narrower_engine_is_checked_on_the_core_only_without_failures(
        name: str, tmp_path: Path) -> None:
    """An engine that plays no module, and one that speaks only conform/1, pass: the
    module cases are skipped as undeclared and the races are core races."""
    report = _conform(name, tmp_path, ["--races", "3"])
    assert report["exit"] == 0 and report["ok"] is True, report["failures"]
    assert report["declared"]["modules"] == []  # type: ignore[index]
    assert report["protocol"] == ("conform/1" if name == "conform1_only" else "conform/2")
    cases = report["cases"]
    assert cases["fail"] == 0 and cases["skip"] == sum(  # type: ignore[index]
        1 for c in load_cases(fixtures_dir()) if c["state"].get("modules"))
    skipped = report["skipped"]
    assert isinstance(skipped, dict) and skipped
    assert all(reason.startswith("module(s) not declared") for reason in skipped), skipped
    assert sum(skipped.values()) == cases["skip"]  # type: ignore[index]
    assert report["races"]["pass"] == 3  # type: ignore[index]


@pytest.mark.rules("round.sequence")
def test_shrinking_finds_the_latest_reproducing_start() -> None:
    assert shortest_suffix(40, lambda start: True) == 40
    assert shortest_suffix(40, lambda start: start <= 25) == 25
    assert shortest_suffix(40, lambda start: start == 0) == 0
    assert shortest_suffix(40, lambda start: False) is None


@pytest.mark.rules(*ALL_RULES)
def test_heatcore_conforms_to_itself(tmp_path: Path) -> None:
    code = conform_main(["--impl", " ".join(SERVE), "--races", "3", "--report", str(tmp_path)])
    report = json.loads((tmp_path / "report.json").read_text())
    assert code == 0, report["failures"][:1]
    assert report["ok"] and report["cases"]["fail"] == 0 and report["cases"]["skip"] == 0
    assert report["races"] == {"pass": 3, "fail": 0, "skip": 0,
                               "steps": report["races"]["steps"]}
    assert all(row["fail"] == 0 for row in report["rules"].values())
    assert "Result: PASS" in (tmp_path / "report.md").read_text()


def _conform(module: str, folder: Path, extra: list[str]) -> dict[str, object]:
    argv = ["--impl", f"{sys.executable} -m heatcore.heat.conformance.mutants.{module}",
            "--report", str(folder), *extra]
    code = conform_main(argv)
    report: dict[str, object] = json.loads((folder / "report.json").read_text())
    report["exit"] = code
    return report


WRONG = {**BROKEN, **PLANTED}


@pytest.mark.rules(*sorted(set(WRONG.values())))
def test_every_wrong_engine_is_caught_and_its_rule_ranked_first(tmp_path: Path) -> None:
    """Each wrong engine plants one core-race bug; it is judged on the core cases. (A bug in
    code that the modules share shows in their cases too, under the module's own rule: the
    one-corner-check engine also moves Legends past two corner lines, legend.one-corner.)"""
    assert len(BROKEN) >= 12 and len(PLANTED) >= 6
    core = tmp_path / "core"
    core.mkdir()
    cases = [c for c in load_cases(fixtures_dir()) if not c["state"].get("modules")]
    for case in cases:
        case.pop("_file")
    (core / "core.json").write_text(json.dumps(
        {"format": "conform.suite/1", "ruleset": "heat", "cases": cases}))
    with ThreadPoolExecutor(max_workers=2) as pool:
        reports = dict(zip(WRONG, pool.map(
            lambda name: _conform(name, tmp_path / name,
                                  ["--races", "0", "--fixtures", str(core)]), WRONG),
            strict=True))
    for name, rule in WRONG.items():
        report = reports[name]
        assert report["exit"] == 1 and report["ok"] is False, f"{name} was not caught"
        causes = report["causes"]
        assert isinstance(causes, list) and causes, name
        assert causes[0]["rule"] == rule, (name, [(c["rule"], c["what"]) for c in causes[:3]])
        markdown = (tmp_path / name / "report.md").read_text()
        assert markdown.index("## Defects") < markdown.index(rule) < \
            markdown.index("## Top causes")  # the defects table comes first
        assert '{"op":"load"' in markdown


@pytest.mark.rules("round.sequence")
def test_a_broken_engine_is_reported_and_never_hangs_the_harness(tmp_path: Path) -> None:
    cases = load_cases(fixtures_dir())[:1]
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for case in cases:
        case.pop("_file")
    (corpus / "few.json").write_text(json.dumps(
        {"format": "conform.suite/1", "ruleset": "heat", "cases": cases}))

    def one(name: str) -> dict[str, object]:
        # Only the hanging engine meets the short timeout: it never answers, so its verdict
        # does not depend on the machine's speed; the others get an hour per reply, so a
        # loaded machine cannot turn their crash, garbage, ... into a timeout.
        timeout = "1.5" if PROTOCOL_FAILURES[name] == "timeout" else "3600"
        return _conform(name, tmp_path / name, ["--races", "1", "--timeout", timeout,
                                                "--fixtures", str(corpus)])

    with ThreadPoolExecutor(max_workers=len(PROTOCOL_FAILURES)) as pool:
        reports = dict(zip(PROTOCOL_FAILURES, pool.map(one, PROTOCOL_FAILURES), strict=True))
    for name, kind in PROTOCOL_FAILURES.items():
        report = reports[name]
        assert report["exit"] == 1
        failures = " ".join(report["engine_failures"])  # type: ignore[arg-type]
        assert f"engine {kind}" in failures, (name, failures)


@pytest.mark.rules("round.sequence")
def test_an_engine_that_cannot_start_fails_fast_with_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(CannotStart, match="cannot run"):
        run(HeatBinding(), ["/nonexistent/engine"], 2, None)
    garbage = tmp_path / "garbage.py"
    garbage.write_text("import sys\nsys.stdin.readline()\nprint('hello')\n")
    nested = tmp_path / "nested.py"  # json raises RecursionError, not a decoding error
    nested.write_text("import sys\nsys.stdin.readline()\nprint('[' * 200000)\n")
    dies = tmp_path / "dies.py"
    dies.write_text("import sys\nsys.stderr.write('boom: no config\\n')\nsys.exit(4)\n")
    for impl, expected in ((f"{sys.executable} {garbage}", "not JSON"),
                           (f"{sys.executable} {nested}", "not JSON"),
                           (f"{sys.executable} {dies}", "exited with code 4"),
                           (f"{sys.executable} {dies}", "(stderr: boom: no config)"),
                           ("/nonexistent/engine", "cannot run")):
        capsys.readouterr()
        assert conform_main(["--impl", impl, "--races", "1"]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and expected in err, err
    assert conform_main(["--impl", "'unterminated"]) == 2


@pytest.mark.rules("round.sequence")
def test_a_bad_report_folder_is_refused_before_the_run(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    afile = tmp_path / "afile"
    afile.write_text("x")
    assert conform_main(["--impl", "/nonexistent/engine", "--report", str(afile / "out")]) == 2
    assert "cannot write --report" in capsys.readouterr().err


@pytest.mark.rules("round.sequence")
def test_a_crash_names_its_signal_and_shows_stderr(tmp_path: Path) -> None:
    script = tmp_path / "aborts.py"
    script.write_text(
        "import json, os, sys\n"
        "from heatcore.heat.conformance.binding import HeatBinding\n"
        "from heatcore.framework.conformance.protocol import handle\n"
        "binding, session = HeatBinding(), {}\n"
        "sys.stderr.write('starting up\\n')\n"
        "for n, line in enumerate(sys.stdin):\n"
        "    if n == 3:\n"
        "        sys.stderr.write('assertion failed: deck empty\\n'); sys.stderr.flush()\n"
        "        os.abort()\n"
        "    print(json.dumps(handle(binding, session, json.loads(line))), flush=True)\n")
    outcome = run(HeatBinding(), [sys.executable, str(script)], 2, None)
    text = "\n".join(outcome.engine_failures)
    assert "SIGABRT" in text and "assertion failed: deck empty" in text
    assert "starting up" in text
    assert outcome.restarts >= 2 and outcome.races_failed == 2


@pytest.mark.rules("round.sequence")
def test_the_howto_quotes_every_schema_verbatim() -> None:
    from heatcore.framework.conformance.howto import appendix

    howto = (schemas_dir() / "HOWTO.md").read_text()
    assert howto.rstrip().endswith(appendix().rstrip()), \
        "HOWTO.md is out of date: run python -m heatcore.framework.conformance.howto"
    for path in sorted(schemas_dir().glob("*.schema.json")):
        assert path.read_text().rstrip() in howto, f"HOWTO.md is out of date for {path.name}"
    assert (schemas_dir() / "INTERPRETING.md").read_text().startswith(
        "# Interpreting conformance cases — `conform.case/1`")


@pytest.mark.rules("gear.shift.no-three")
def test_a_divergent_race_is_shrunk_to_one_action_and_attributed(tmp_path: Path) -> None:
    report = _conform("three_step_shift", tmp_path, ["--no-fixtures", "--races", "2"])
    assert report["exit"] == 1
    causes = report["causes"]
    assert isinstance(causes, list) and len(causes) == 1
    first = causes[0]["example"]
    assert first["where"].startswith("race ")
    assert first["repro"]["check"] == "legal" and first["repro"]["actions"] == []
    assert first["rules"][0] == "gear.shift.no-three"
    markdown = (tmp_path / "report.md").read_text()
    assert "+ offered, not legal: P" in markdown


@pytest.mark.rules("place.racing-line-first")
def test_races_go_on_after_a_divergence_and_causes_are_counted_once(tmp_path: Path) -> None:
    report = _conform("racing_line_ignored", tmp_path, ["--no-fixtures", "--races", "3"])
    causes = report["causes"]
    assert isinstance(causes, list) and len(causes) == 1
    cause = causes[0]
    assert cause["rule"] == "place.racing-line-first"
    assert cause["races"] == ["10000", "10001", "10002"]
    steps = [int(w.rsplit(" ", 1)[1]) for w in cause["where"] if w.startswith("race 10000 ")]
    assert len(steps) >= 3 and steps == sorted(steps)
    failures = report["failures"]
    assert isinstance(failures, list) and len(failures) == cause["occurrences"]
    assert sum("repro" in f for f in failures) == 1  # the example only, for races
    assert "differs" in (tmp_path / "report.md").read_text()
    mode = (tmp_path / "report.json").stat().st_mode & 0o777
    assert mode == 0o644


@pytest.mark.rules("round.sequence")
def test_races_on_two_workers_pass_with_the_same_counts_as_on_one(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    races: dict[str, object] = {}
    for workers in ("1", "2"):
        folder = tmp_path / workers
        argv = ["--impl", " ".join(SERVE), "--races", "4", "--workers", workers,
                "--no-fixtures", "--report", str(folder)]
        code = conform_main(argv)
        report = json.loads((folder / "report.json").read_text())
        assert code == 0 and report["ok"], report["failures"][:1]
        out = capsys.readouterr().out
        assert f"workers: {workers}" in out
        assert "races: 4 pass, 0 fail, 0 skipped (" in out and "{" not in out  # words, no dict
        assert report["races"]["pass"] == 4 and report["races"]["steps"] > 0
        races[workers] = report["races"]
    assert races["2"] == races["1"]


@pytest.mark.rules("gear.shift.no-three")
def test_a_wrong_engine_on_two_workers_fails_the_same_races_in_the_same_order(
        tmp_path: Path) -> None:
    found: dict[str, list[tuple[str, list[str]]]] = {}
    for workers in ("1", "2"):
        report = _conform("three_step_shift", tmp_path / workers,
                          ["--no-fixtures", "--races", "4", "--workers", workers])
        assert report["exit"] == 1
        failures = report["failures"]
        assert isinstance(failures, list) and failures
        found[workers] = [(f["where"], f["rules"]) for f in failures]
    assert found["2"] == found["1"]
    races = list(dict.fromkeys(where.split()[1] for where, _ in found["2"]))
    assert races == ["10000", "10001", "10002", "10003"]


@pytest.mark.rules("corner.check", "corner.spin", "play.cluttered", "deck.reshuffle",
                   "place.blocked", "finish.ranking", "replenish.discard-before-draw")
def test_the_corpus_holds_mined_witnesses_and_steered_race_cases() -> None:
    from heatcore.heat.conformance.cases import group_of
    from heatcore.heat.conformance.mined import PER_SITUATION
    from heatcore.heat.conformance.steered import SITUATIONS as STEERED
    from proofs.miner import SITUATIONS as MINED

    cases = load_cases(fixtures_dir())
    mined = [c for c in cases if c["id"].startswith("mined.")]
    steered = [c for c in cases if c["id"].startswith("steered.")]
    for case in mined:
        assert case["source"].startswith("mined:") and case["_file"].startswith("mined-")
        assert f"{group_of(case)}.json" == case["_file"]
    for case in steered:
        assert case["source"].startswith("steered:") and case["_file"] == "steered.json"
    for sit in MINED:
        got = [c for c in mined if c["id"].startswith(f"mined.{sit.id}.")]
        assert len(got) == PER_SITUATION, sit.id
    for steered_situation in STEERED:
        prefix = f"steered.{steered_situation.id}."
        assert any(c["id"].startswith(prefix) for c in steered), steered_situation.id
    policies = {c["source"].split(":")[1] for c in steered}
    assert policies == {"aggressive", "clutter", "mixed"}


@pytest.mark.rules("round.sequence")
def test_the_conformance_kit_runs_without_hypothesis() -> None:
    import subprocess

    import heatcore.heat.strategies as hs
    from heatcore.heat.conformance import steering

    assert hs.aggressive_policy is steering.aggressive_policy
    assert hs.clutter_policy is steering.clutter_policy
    assert hs.mixed_policy is steering.mixed_policy
    code = ("import sys\n"
            "import heatcore.tools.cli, heatcore.framework.conformance.fixtures\n"
            "import heatcore.framework.conformance.harness\n"
            "import heatcore.heat.conformance.cases, heatcore.heat.conformance.steered\n"
            "import heatcore.heat.conformance.mined, heatcore.heat.conformance.steering\n"
            "assert 'hypothesis' not in sys.modules, 'hypothesis imported'\n")
    subprocess.run([sys.executable, "-c", code], check=True)

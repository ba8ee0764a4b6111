"""The online adaptation (bga-devs/bga-heat) through the conformance kit: examples/bga-heat/.

The adaptation's source is fetched, never committed; these tests run where a copy is found
(``BGA_HEAT_SRC``, or /tmp/bga-heat-src) and PHP with SQLite is installed, and are skipped
with the reason otherwise. Only the first test runs everywhere.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from heatcore.framework.conformance.harness import main as conform_main

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "bga-heat"
ADAPTER = EXAMPLE / "adapter.py"


def _source() -> str | None:
    """The fetched bga-heat folder, if there is one here."""
    for path in (os.environ.get("BGA_HEAT_SRC", ""), "/tmp/bga-heat-src"):
        if path and (Path(path) / "modules" / "php" / "Game.php").is_file():
            return path
    return None


def _php_ok() -> bool:
    if shutil.which("php") is None:
        return False
    out = subprocess.run(["php", "-m"], capture_output=True, text=True, check=False).stdout
    return "pdo_sqlite" in out and "mbstring" in out


SRC = _source()
needs_source = pytest.mark.skipif(
    SRC is None or not _php_ok(),
    reason="needs a fetched bga-devs/bga-heat (BGA_HEAT_SRC) and php-cli with pdo_sqlite and "
           "mbstring (examples/bga-heat/README.md says how to get both)")


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["BGA_HEAT_SRC"] = SRC or ""
    env.pop("BGA_HEAT_TRY_PLANS", None)
    return env


def test_the_adapter_without_the_source_says_how_to_get_it() -> None:
    env = dict(os.environ)
    env["BGA_HEAT_SRC"] = "/nonexistent"
    run = subprocess.run([sys.executable, str(ADAPTER)], input="", capture_output=True,
                         text=True, env=env, check=False)
    assert run.returncode == 2
    assert run.stderr.count("\n") == 1 and "BGA_HEAT_SRC" in run.stderr


def _conform(folder: Path, *extra: str, adapter: Path = ADAPTER) -> tuple[int, dict[str, object]]:
    old = dict(os.environ)
    os.environ.update(_env())
    try:
        code = conform_main(["--impl", f"{sys.executable} {adapter}", "--report", str(folder),
                             *extra])
    finally:
        os.environ.clear()
        os.environ.update(old)
    return code, json.loads((folder / "report.json").read_text())


@needs_source
@pytest.mark.rules("round.sequence", "deck.reshuffle")
def test_core_races_run_through_the_adaptation_without_adapter_failures(tmp_path: Path) -> None:
    code, report = _conform(tmp_path, "--races", "2", "--no-fixtures")
    races = report["races"]
    assert isinstance(races, dict) and races["pass"] + races["fail"] == 2, races
    assert report["setups"] == {"pass": 2, "fail": 0, "skip": 0}
    skipped = report["skipped"]
    assert isinstance(skipped, dict)
    assert not [k for k in skipped if "adapter failure" in k], skipped
    assert report["restarts"] == 0


def _lines(*reqs: object) -> str:
    return "".join(json.dumps(r) + "\n" for r in reqs)


def _serve(lines: str, env: dict[str, str]) -> list[dict[str, object]]:
    run = subprocess.run([sys.executable, str(ADAPTER)], input=lines, capture_output=True,
                         text=True, env=env, check=True)
    return [json.loads(x) for x in run.stdout.splitlines()]


def _start_state() -> dict[str, object]:
    deck = ["1", "1", "1", "2", "2", "2", "3", "3", "3", "4", "4", "4", "U0", "U5", "H",
            "S", "S", "S"]
    decks = [deck[5:] + deck[:5], deck[::-1], deck[3:] + deck[:3]]
    start = {"op": "start", "protocol": "conform/2", "ruleset": "heat"}
    setup = {"op": "setup", "setup": {"track": "usa", "players": 3, "laps": 1,
                                      "grid": ["P2", "P1", "P3"], "decks": decks}}
    replies = _serve(_lines(start, setup, {"op": "stop"}), _env())
    state = replies[1]["state"]
    assert isinstance(state, dict)
    return state


@needs_source
@pytest.mark.rules("gear.shift.free", "gear.shift.two-costs-heat", "play.cluttered")
def test_the_plans_read_off_argsPlanification_are_the_plans_actPlan_takes() -> None:
    """The default legal plans (actPlan's checks read from its args) against every candidate
    plan handed to actPlan itself (BGA_HEAT_TRY_PLANS=1), over the first rounds of a race."""
    state = _start_state()
    start = {"op": "start", "protocol": "conform/2", "ruleset": "heat"}
    reqs: list[object] = [start, {"op": "load", "state": state}]
    for _ in range(3):
        reqs += [{"op": "legal"}]
    quick = _serve(_lines(*reqs, {"op": "stop"}), _env())
    tried_env = _env()
    tried_env["BGA_HEAT_TRY_PLANS"] = "1"
    tried = _serve(_lines(*reqs, {"op": "stop"}), tried_env)
    assert quick == tried
    actions = quick[2]["actions"]
    assert isinstance(actions, list) and len(actions) > 5


@needs_source
@pytest.mark.rules("deck.reshuffle")
def test_a_stand_in_that_shuffles_wrongly_is_caught(tmp_path: Path) -> None:
    """Planted bug in the stand-in (the deck order of a shuffle upside down): the harness
    sees the adaptation's start state differ from the setup's decks."""
    copy = tmp_path / "examples" / "bga-heat"
    shutil.copytree(EXAMPLE, copy, ignore=shutil.ignore_patterns("findings", "*.md"))
    (tmp_path / "spec").symlink_to(ROOT / "spec")
    worker = copy / "standin" / "worker.php"
    text = worker.read_text()
    assert "$a = array_reverse($top);" in text
    worker.write_text(text.replace("$a = array_reverse($top);", "$a = $top;"))
    code, report = _conform(tmp_path / "out", "--races", "1", "--no-fixtures",
                            adapter=copy / "adapter.py")
    assert code == 1
    assert report["setups"]["fail"] == 1  # type: ignore[index]

"""The adapter templates' worked examples (examples/adapters/) checked by the harness."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

from heatcore.framework.conformance.harness import main as conform_main

ROOT = Path(__file__).resolve().parent.parent
PLANNER = ROOT / "examples" / "adapters" / "python" / "planner.py"
PLANNER_JS = ROOT / "examples" / "adapters" / "javascript" / "planner.js"
PLAN_RULES = ("setup.grid", "setup.hand", "setup.stress-supply", "gear.shift.free",
              "gear.shift.two-costs-heat", "play.card-count", "play.cluttered")


def _conform(impl: str, folder: Path, *extra: str) -> tuple[int, dict[str, object]]:
    code = conform_main(["--impl", impl, "--report", str(folder), "--races", "2", *extra])
    return code, json.loads((folder / "report.json").read_text())


@pytest.mark.rules(*PLAN_RULES)
def test_the_python_worked_example_passes_with_its_declines_counted_as_skips(
        tmp_path: Path) -> None:
    code, report = _conform(f"{sys.executable} {PLANNER}", tmp_path)
    assert code == 0 and report["ok"], report["causes"]
    assert report["declared"]["compare"] == ["legal", "state"]  # type: ignore[index]
    assert report["setups"] == {"pass": 2, "fail": 0, "skip": 0}
    cases = report["cases"]
    assert isinstance(cases, dict) and cases["pass"] >= 40 and cases["fail"] == 0
    skipped = report["skipped"]
    assert isinstance(skipped, dict)
    assert skipped["apply: apply is not implemented (this example only lists plans)"] > 0
    assert "| load: only plan-phase states are implemented |" in (
        tmp_path / "report.md").read_text()


@pytest.mark.rules("gear.shift.two-costs-heat")
def test_a_bug_planted_in_the_python_worked_example_is_found(tmp_path: Path) -> None:
    wrong = tmp_path / "wrong_planner.py"
    wrong.write_text(
        "import sys\n"
        f"sys.path.insert(0, {str(PLANNER.parent)!r})\n"
        "import planner\n"
        "class Wrong(planner.Planner):\n"
        "    def legal(self):  # forgets the paid two-gear shift\n"
        "        car = next(c for c in self.state['cars']\n"
        "                   if c['id'] == self.state['order'][self.state['cursor']])\n"
        "        return [a for a in super().legal()\n"
        "                if abs(int(a.split()[2]) - car['gear']) < 2]\n"
        "raise SystemExit(planner.main(Wrong()))\n")
    code, report = _conform(f"{sys.executable} {wrong}", tmp_path / "out", "--no-fixtures")
    causes = report["causes"]
    assert code == 1 and isinstance(causes, list)
    assert causes[0]["rule"] == "gear.shift.two-costs-heat", causes[0]
    assert "does not offer legal `gear`" in causes[0]["what"]


@pytest.mark.rules(*PLAN_RULES)
@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_javascript_worked_example_passes(tmp_path: Path) -> None:
    code, report = _conform(f"node {PLANNER_JS}", tmp_path)
    assert code == 0 and report["ok"], report["causes"]
    assert report["setups"] == {"pass": 2, "fail": 0, "skip": 0}
    cases = report["cases"]
    assert isinstance(cases, dict) and cases["pass"] >= 40

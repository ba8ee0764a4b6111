"""The independent Rallyman GT checker (heatcore/rallyman/oracle.py): seeded races pass it at
every step, and every planted bug of heatcore/rallyman/mutants.py (bugs that remove
behaviour among them) is caught and charged to the rule it breaks."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

from heatcore.framework.conformance.binding import Step
from heatcore.framework.conformance.reference import record
from heatcore.rallyman import mutants
from heatcore.rallyman.driver import ENGINE, POLICIES
from heatcore.rallyman.notation import state_to_dict
from heatcore.rallyman.oracle import Checker, check_recorded
from heatcore.rallyman.setup import random_setup, start_race

ORACLE = Path(__file__).resolve().parent.parent / "heatcore" / "rallyman" / "oracle"


def _race(track: str, players: int, seed: int, policy: str) -> tuple[object, list[Step]]:
    rng = random.Random(seed)
    state, _ = start_race(random_setup(track, players, rng, 1))
    return record(ENGINE, state, POLICIES[policy], rng, 20_000, state_to_dict)


RACES = [(t, n, p) for t in ("proving-ground", "albert-park") for n in (2, 4, 6)
         for p in ("sensible", "random")]


def _first_caught(rule: str) -> set[str]:
    """The rules the checker charges, over the seeded races up to the first that shows
    ``rule`` (all of them when none does)."""
    checker, seen = Checker(), set()
    for track, players, policy in RACES:
        start, steps = _race(track, players, players * 7, policy)
        seen |= {f.rule for _, f in check_recorded(start, steps, checker)}
        if rule in seen:
            break
    return seen


@pytest.mark.rules("rgt.order.speed", "rgt.order.distance", "rgt.order.position",
                   "rgt.move.one-car-per-space", "rgt.move.forward", "rgt.loc.trigger",
                   "rgt.focus.cost", "rgt.focus.gain", "rgt.ruling.damage-bag",
                   "rgt.round.marker-colour", "rgt.dice.gear-step", "rgt.dice.coast",
                   "rgt.move.overtake-gear", "rgt.corner.dangerous", "rgt.corner.steep-entry")
@pytest.mark.parametrize(("track", "players", "policy"), RACES)
def test_seeded_races_pass_the_independent_checker_at_every_step(
        track: str, players: int, policy: str) -> None:
    start, steps = _race(track, players, players * 7, policy)
    assert steps and steps[-1].after["over"]
    found = check_recorded(start, steps)
    assert not found, [(i, str(f)) for i, f in found[:5]]


@pytest.mark.rules(*sorted(set(mutants.BROKEN.values())))
@pytest.mark.parametrize("name", sorted(mutants.PATCHES))
def test_every_planted_bug_is_caught_and_charged_to_its_rule(name: str) -> None:
    with mutants.patched(name):
        rules = _first_caught(mutants.BROKEN[name])
    assert mutants.BROKEN[name] in rules, sorted(rules)


def test_planted_bugs_include_ones_that_remove_behaviour() -> None:
    assert len(mutants.REMOVES) >= 3 and set(mutants.REMOVES) <= set(mutants.PATCHES)


def test_the_checker_imports_no_rule_module_of_the_engine() -> None:
    """Independence: the checker reads the spec files itself; of heatcore it imports only
    the path of the spec folder and its own modules."""
    imported: set[str] = set()
    for path in ORACLE.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imported |= {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
        imported |= {a.name for n in ast.walk(tree) if isinstance(n, ast.Import)
                     for a in n.names}
    ours = {m for m in imported if m.startswith("heatcore")
            and not m.startswith("heatcore.rallyman.oracle")}
    assert ours == {"heatcore.rallyman.spec"}, ours

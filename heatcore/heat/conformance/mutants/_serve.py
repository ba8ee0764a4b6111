"""Serving a mutant: heatcore, patched, under another name."""

from __future__ import annotations

import argparse
import sys
from types import ModuleType
from typing import Any

from heatcore.framework.conformance.serve import run
from heatcore.framework.events import Event
from heatcore.framework.values import replace
from heatcore.heat.conformance.binding import HeatBinding
from heatcore.heat.rulings import make_rulings, parse_ruling_option
from heatcore.heat.state import RaceState, Turn


def serve_mutant(name: str, argv: list[str] | None = None) -> int:
    """Serve heatcore (already patched by the caller) as ``mutant:NAME``; ``--ruling
    ID=ALTERNATIVE`` options (from ``argv``, the command line by default) set the
    alternatives its start reply declares, as for ``heatcore serve``."""
    parser = argparse.ArgumentParser(prog=f"mutant {name}")
    parser.add_argument("--ruling", action="append", default=[])
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    binding = HeatBinding(make_rulings(dict(map(parse_ruling_option, args.ruling))))
    binding.name = f"mutant:{name}"
    return run(binding)


def patch(module: ModuleType, name: str, value: Any) -> Any:
    """Replace ``module.name`` with ``value`` (in this process only); return the original."""
    namespace = vars(module)
    original = namespace[name]
    namespace[name] = value
    return original


def original(module: ModuleType, name: str) -> Any:
    """The current value of ``module.name``."""
    return vars(module)[name]


def keep_gear_after(module: ModuleType, name: str, kind: str) -> None:
    """Patch the step ``module.name`` (``(state, turn, events) -> state``) so that the car
    keeps the gear it had whenever the step emits an event of ``kind``: an engine that
    forgets a "back to 1st gear" rule."""
    step = original(module, name)

    def kept(state: RaceState, turn: Turn, events: list[Event]) -> RaceState:
        gear = state.cars[turn.car].gear
        before = len(events)
        after: RaceState = step(state, turn, events)
        if any(e.kind == kind for e in events[before:]):
            after = after.with_car(turn.car, replace(after.cars[turn.car], gear=gear))
        return after

    patch(module, name, kept)

"""More planted Rallyman GT engines (each plays one rule otherwise), for the attribution
benchmark (``benchmarks/bench_attribution.py``) and the variant catalogue
(:mod:`heatcore.rallyman.variants`). ``python -m heatcore.rallyman.planted NAME`` serves one.
They are written apart from :mod:`heatcore.rallyman.mutants` and break other rules."""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from heatcore.rallyman import engine, rounds

#: name -> the rule it breaks.
BROKEN: dict[str, str] = {
    "pit_in_any_gear": "rgt.pit.conditions",
    "flat_out_gains_double": "rgt.focus.gain",
    "yellow_flag_stays": "rgt.damage.yellow-flag",
    "never_blocked": "rgt.move.blocked",
}

_may_pit = vars(rounds)["may_pit"]
_go = engine._go


def _pit_any_gear(state: Any, car: int) -> bool:
    me = state.cars[car]
    return bool(_may_pit(state.with_car(car, replace(me, gear=1)), car))


def _gains_double(state: Any, turn: Any, mode: str, events: list[Any]) -> Any:
    before = len(events)
    after = _go(state, turn, mode, events)
    for index in range(before, len(events)):
        ev = events[index]
        if ev.kind == "focus-gained":
            gained = dict(ev.details)["tokens"]
            events[index] = type(ev)(ev.kind, ev.car, tuple(
                (k, v * 2 if k == "tokens" else v) for k, v in ev.details))
            me = after.cars[turn.car]
            after = after.with_car(turn.car, replace(me, focus=me.focus + gained))
    return after


def _yellow_stays(state: Any, car: int, events: list[Any]) -> Any:
    return state


def _never_blocked(state: Any, turn: Any) -> bool:
    return False


#: name -> every (module, attribute, replacement).
PATCHES: dict[str, tuple[tuple[Any, str, Callable[..., Any]], ...]] = {
    "pit_in_any_gear": ((rounds, "may_pit", _pit_any_gear),),
    "flat_out_gains_double": ((engine, "_go", _gains_double),),
    "yellow_flag_stays": ((rounds, "_yellow_to_dashboard", _yellow_stays),),
    "never_blocked": ((rounds, "is_blocked", _never_blocked),),
}


def main(argv: list[str]) -> int:
    """Serve the planted engine named in ``argv``."""
    if len(argv) != 1 or argv[0] not in PATCHES:
        print(f"planted: name one of {', '.join(sorted(PATCHES))}", file=sys.stderr)
        return 2
    for module, attr, func in PATCHES[argv[0]]:
        vars(module)[attr] = func
    from heatcore.framework.conformance.bindings import load_binding
    from heatcore.framework.conformance.serve import run

    binding = load_binding("rallyman-gt")  # by its entry in spec/games.toml
    binding.name = f"planted:{argv[0]}"
    return run(binding)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

"""Deliberately wrong Rallyman GT engines, to prove that the checks catch bugs: the
conformance kit (``heatcore conform --ruleset rallyman-gt``) and the independent checker
(:mod:`heatcore.rallyman.oracle`).

``python -m heatcore.rallyman.mutants NAME`` serves heatcore.rallyman with one rule broken;
``BROKEN`` maps each NAME to the rule it breaks, ``REMOVES`` names the mutants that take
behaviour away (an engine that forbids too much), and :func:`patched` breaks the engine in
this process (for tests).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

from heatcore.rallyman import control, engine, moves, planning, rounds, setup
from heatcore.rallyman.components import TOKENS

BROKEN: dict[str, str] = {
    "dangerous_no_warning": "rgt.corner.dangerous",
    "steep_entry_ignored": "rgt.corner.steep-entry",
    "overtake_any_gear": "rgt.move.overtake-gear",
    "linear_focus_cost": "rgt.focus.cost",
    "order_by_number": "rgt.order.speed",
    "no_coast_dice": "rgt.dice.coast",
    "no_loss_on_warnings": "rgt.loc.trigger",
    "no_relay": "rgt.loc.relay",
    "drawn_token_stays_in_bag": "rgt.ruling.damage-bag",
    "marker_keeps_colour": "rgt.round.marker-colour",
}

#: Mutants that remove behaviour: fewer legal actions, or a rule that never fires.
REMOVES = ("dangerous_no_warning", "steep_entry_ignored", "no_coast_dice",
           "no_loss_on_warnings", "no_relay")

_arrive = moves.arrive
_die_choices = moves.die_choices
_destinations = moves.destinations
_trigger = control.trigger



def _no_danger(track: Any, move: Any, gear: int) -> tuple[int, bool]:
    warnings, over = _arrive(track, move, gear)
    corner = track.spaces[move.dst].corner
    if corner is not None and corner.kind == "dangerous" and gear == corner.limit:
        warnings -= 1
    return warnings, over


def _no_steep_entry(track: Any, move: Any, gear: int) -> tuple[int, bool]:
    return _arrive(track, replace(move, entry_limit=None), gear)


def _any_gear(state: Any, car: int, at: str, gear: int, taken: frozenset[str] = frozenset(),
              ) -> Iterator[Any]:
    return _destinations(state, car, at, 6, taken)


def _linear_cost(turn: Any, dice: int) -> int:
    return dice


def _by_number(state: Any, cars: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(sorted(cars))


def _no_coast(*args: Any) -> Iterator[Any]:
    return (c for c in _die_choices(*args) if c.die != "C")


def _lenient(limit: int, warnings: int, step: Any, results: tuple[bool, ...]
             ) -> tuple[int, bool]:
    return _trigger(limit + 100, warnings, step, results)


_draw_token = rounds.draw_token


def _token_stays(state: Any, turn: Any, token: str, events: list[Any]) -> Any:
    after = _draw_token(state, turn, token, events)
    bag = list(after.bag)
    bag[TOKENS.index(token)] += 1
    return replace(after, bag=tuple(bag))


def _same_colour(colour: str) -> str:
    return colour


def _no_relay(state: Any, turn: Any) -> list[Any]:
    return []


#: name -> every (module, attribute, replacement) the mutant patches (at each place of use)
PATCHES: dict[str, tuple[tuple[Any, str, Callable[..., Any]], ...]] = {
    "dangerous_no_warning": ((moves, "arrive", _no_danger),),
    "steep_entry_ignored": ((moves, "arrive", _no_steep_entry),),
    "overtake_any_gear": ((planning, "destinations", _any_gear),
                          (control, "destinations", _any_gear)),
    "linear_focus_cost": ((engine, "focus_cost", _linear_cost),),
    "order_by_number": ((rounds, "turn_order", _by_number), (setup, "turn_order", _by_number)),
    "no_coast_dice": ((planning, "die_choices", _no_coast), (control, "die_choices", _no_coast)),
    "no_loss_on_warnings": ((control, "trigger", _lenient),),
    "no_relay": ((control, "relay_options", _no_relay),),
    "drawn_token_stays_in_bag": ((rounds, "draw_token", _token_stays),),
    "marker_keeps_colour": ((rounds, "other_colour", _same_colour),),
}


@contextmanager
def patched(name: str) -> Iterator[None]:
    """heatcore.rallyman with mutant ``name``'s bug, in this process, until the block ends."""
    saved = [(module, attr, vars(module)[attr]) for module, attr, _ in PATCHES[name]]
    try:
        for module, attr, func in PATCHES[name]:
            vars(module)[attr] = func
        yield
    finally:
        for module, attr, func in saved:
            vars(module)[attr] = func


def main(argv: list[str]) -> int:
    """Serve the mutant named in ``argv``."""
    if len(argv) != 1 or argv[0] not in PATCHES:
        print(f"mutants: name one of {', '.join(sorted(PATCHES))}", file=sys.stderr)
        return 2
    for module, attr, func in PATCHES[argv[0]]:
        vars(module)[attr] = func
    from heatcore.framework.conformance.serve import run
    from heatcore.rallyman.binding import RallymanBinding

    binding = RallymanBinding()
    binding.name = f"mutant:{argv[0]}"
    return run(binding)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

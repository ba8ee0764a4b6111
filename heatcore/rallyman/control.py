"""Loss of control: re-laying the rolled dice, where control is lost, the table's result."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from functools import cache

from heatcore.framework.registry import implements
from heatcore.rallyman.actions import Relay
from heatcore.rallyman.moves import DieChoice, destinations, die_choices, step_for
from heatcore.rallyman.planning import car_dashboard, path_end
from heatcore.rallyman.state import RaceState, Step, Turn


def dice_tokens(step: Step, results: tuple[bool, ...]) -> tuple[str, ...]:
    """The dice of a rolled space as tokens (``G3!`` = gear 3 showing a warning)."""
    return tuple(die + ("!" if warn else "") for die, warn in zip(step.dice, results, strict=True))


@implements("rgt.focus.not-track")
def trigger(limit: int, warnings: int, step: Step, results: tuple[bool, ...]) -> tuple[int, bool]:
    """(warnings after this space, whether control is lost on it). The track's warnings
    always count, even on a space whose dice were fixed with focus."""
    total = warnings + sum(results) + step.track_warnings
    return total, step.overspeed or total >= limit


@implements("rgt.loc.trigger", "rgt.roll.track-warnings")
def first_loss(limit: int, steps: tuple[Step, ...],
               results: tuple[tuple[bool, ...], ...]) -> int | None:
    """Index of the space where control is lost along ``steps``, or None."""
    warnings = 0
    for index, (step, res) in enumerate(zip(steps, results, strict=False)):
        warnings, lost = trigger(limit, warnings, step, res)
        if lost:
            return index
    return None


def _brake_options(pool: Counter[str], die: str, need: int) -> list[tuple[str, ...]]:
    """Ways to take ``need`` dice of kind ``die`` (B or U) from the pool, safe ones first."""
    safe, warn = pool[die], pool[die + "!"]
    return [(die,) * (need - k) + (die + "!",) * k
            for k in range(max(0, need - safe), min(need, warn) + 1)]


def _main_tokens(pool: Counter[str]) -> list[str]:
    return sorted(t for t in pool if pool[t] > 0 and t[0] in "GC")


def _choice_of(token: str, current: int) -> DieChoice | None:
    if token[0] == "C":
        return DieChoice("C", current, 0, 0)
    return DieChoice(token.rstrip("!"), int(token[1:].rstrip("!")), 0, 0)


def relay_options(state: RaceState, turn: Turn) -> list[tuple[Relay, Step, tuple[bool, ...]]]:
    """Every re-lay step that keeps a loss of control reachable, in canonical order."""
    limit = car_dashboard(state, turn.car).limit
    pool = _pool_after(turn)
    warnings = _relay_warnings(turn)
    at, gear = path_end(turn, turn.relay)
    taken = frozenset(s.to for s in turn.relay) | {turn.start}
    search = _searcher(state, turn.car, limit)
    out = []
    for action, step, res in _candidates(state, turn.car, at, gear, not turn.relay, pool, taken):
        total, lost = trigger(limit, warnings, step, res)
        rest = tuple(sorted((pool - Counter(action.dice)).elements()))
        if lost or search(step.to, step.gear, rest, total, taken | {step.to}):
            out.append((action, step, res))
    return out


def _candidates(state: RaceState, car: int, at: str, gear: int, first: bool,
                pool: Counter[str], taken: frozenset[str],
                ) -> list[tuple[Relay, Step, tuple[bool, ...]]]:
    jumps = state.options.first_die_jumps == "yes"
    out = []
    for token in _main_tokens(pool):
        choice = _choice_of(token, gear)
        if choice is None:
            continue
        gears = (choice.gear,) if token[0] == "G" else ()
        allowed = list(die_choices(gear, first, gears, token[0] == "C",
                                   pool["B"] + pool["B!"], pool["U"] + pool["U!"], jumps))
        for legal in allowed:
            for brakes in _brake_options(pool, "B", legal.brakes):
                for boosts in _brake_options(pool, "U", legal.boosts):
                    dice = (token, *brakes, *boosts)
                    res = tuple(d.endswith("!") for d in dice)
                    for move in destinations(state, car, at, legal.gear, taken):
                        out.append((Relay(car, dice, move.dst), step_for(state.track, legal, move),
                                    res))
    return out


def _searcher(state: RaceState, car: int, limit: int,
              ) -> Callable[[str, int, tuple[str, ...], int, frozenset[str]], bool]:
    """A memoised test: can more re-laid dice from a pool still make the car lose control?"""

    @cache
    def search(at: str, gear: int, pool: tuple[str, ...], warnings: int,
               taken: frozenset[str]) -> bool:
        counter = Counter(pool)
        for action, step, res in _candidates(state, car, at, gear, False, counter, taken):
            total, lost = trigger(limit, warnings, step, res)
            if lost:
                return True
            rest = tuple(sorted((counter - Counter(action.dice)).elements()))
            if search(step.to, step.gear, rest, total, taken | {step.to}):
                return True
        return False

    return search


def _pool_after(turn: Turn) -> Counter[str]:
    pool = Counter(turn.pool)
    for step, res in zip(turn.relay, turn.relay_results, strict=True):
        pool -= Counter(dice_tokens(step, res))
    return pool


def _relay_warnings(turn: Turn) -> int:
    return sum(sum(r) + s.track_warnings for s, r in zip(turn.relay, turn.relay_results,
                                                          strict=True))


@implements("rgt.loc.relay")
def relay_pool(turn: Turn) -> tuple[str, ...]:
    """The rolled dice a player takes up to re-lay (results kept)."""
    tokens: list[str] = []
    for step, res in zip(turn.plan, turn.results, strict=False):
        tokens.extend(dice_tokens(step, res))
    return tuple(sorted(tokens))

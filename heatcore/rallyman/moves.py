"""Track rules of one die's space: which dice may follow (gears step by one, brake and
boost dice for jumps), where the car may go (forward, free spaces, overtaking, yellow
flags) and what the track does on arrival (corner limits, dotted lines)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from heatcore.framework.registry import implements
from heatcore.rallyman.components import DOUBLE_ZERO
from heatcore.rallyman.state import ON_TRACK, RaceState, Step
from heatcore.rallyman.track import Move, Track


@dataclass(frozen=True, slots=True)
class DieChoice:
    """A main die and the gear it drives in, with the brake and boost dice it needs."""

    die: str
    gear: int
    brakes: int
    boosts: int


@implements("rgt.dice.gear", "rgt.dice.gear-step", "rgt.dice.coast", "rgt.dice.brake",
            "rgt.dice.boost", "rgt.ruling.first-die-brake")
def die_choices(current: int, first: bool, gears: tuple[int, ...], coast: bool,
                brakes: int, boosts: int, jumps_on_first: bool) -> Iterator[DieChoice]:
    """The dice that may drive the next space from gear ``current`` (``gears``: gear dice
    left; ``coast``: a coast die left; ``brakes``/``boosts``: those dice left)."""
    for gear in gears:
        change = gear - max(current, 0)
        need_brakes = max(0, -change - 1)
        need_boosts = 1 if change == 2 else 0
        if change > 2:
            continue
        if (need_brakes or need_boosts) and first and not jumps_on_first:
            continue
        if need_brakes <= brakes and need_boosts <= boosts:
            yield DieChoice(f"G{gear}", gear, need_brakes, need_boosts)
    if coast and current not in (0, DOUBLE_ZERO):
        yield DieChoice("C", current, 0, 0)


@implements("rgt.move.one-car-per-space", "rgt.move.forward", "rgt.move.overtake-gear",
            "rgt.move.overtake-between", "rgt.damage.yellow-flag")
def destinations(state: RaceState, car: int, at: str, gear: int,
                 taken: frozenset[str] = frozenset()) -> Iterator[Move]:
    """Moves from ``at`` that ``car`` may make in ``gear``: into a free space (not in
    ``taken`` either), and beside another car only at its gear or higher (no car at all under
    a yellow flag, except cars at 0 or 00) unless already beside that car."""
    track = state.track
    others = [(c.space, c.gear) for i, c in enumerate(state.cars)
              if i != car and c.where == ON_TRACK]
    occupied = {space for space, _ in others}
    yellow = bool(state.yellow)
    for move in track.moves[at]:
        if move.dst in occupied or move.dst in taken:
            continue
        ok = True
        for space, other_gear in others:
            if space in track.beside[move.dst] and space not in track.beside[at]:
                if other_gear < 1:
                    continue
                if yellow or gear < other_gear:
                    ok = False
                    break
        if ok:
            yield move


@implements("rgt.corner.standard", "rgt.corner.dangerous", "rgt.corner.steep-entry",
            "rgt.corner.steep-exit", "rgt.corner.steep-diagonal", "rgt.corner.steep-warning")
def arrive(track: Track, move: Move, gear: int) -> tuple[int, bool]:
    """(warnings the track adds, whether the car exceeds a limit) for a car that makes
    ``move`` in ``gear``."""
    warnings = move.entry_warning + move.exit_warning
    overspeed = move.exit_limit is not None and gear > move.exit_limit
    corner = track.spaces[move.dst].corner
    if corner is not None:
        limit = corner.limit
        if move.kind == "straight" and move.entry_limit is not None:
            limit = move.entry_limit
        if gear > limit:
            overspeed = True
        elif corner.kind == "dangerous" and gear == corner.limit:
            warnings += 1
    return warnings, overspeed


def step_for(track: Track, choice: DieChoice, move: Move) -> Step:
    """The laid step of ``choice`` along ``move``."""
    warnings, overspeed = arrive(track, move, choice.gear)
    return Step(choice.die, choice.gear, choice.brakes, choice.boosts, move.dst, warnings,
                overspeed, move.finish)

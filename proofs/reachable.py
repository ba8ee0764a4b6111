"""Checks that tie a race state to its round: a state that fails one cannot be reached
from a legal setup by legal play, whatever the choices and the shuffles.

Each check rests on a proved bound or on counting: a turn moves a car at most
``MAX_MOVE`` spaces (the proved largest speed, plus the slipstream's 2), and nothing
else moves it forward; a car on the grid starts at position 0 or behind it; a finished
car moves no more; a spin adds at most 2 Stress cards; the cars past the final line at
the start of a round have all been ranked. ``problems(state)`` lists every check the
state fails, each naming its rule. The fixtures and the miner's witnesses must pass.
With modules on, the Stress count is not checked (the weather changes the decks).
"""

from __future__ import annotations

from heatcore.heat.cards import STRESS
from heatcore.heat.state import Phase, RaceState
from proofs.catalogue import PROVED_MAX_SPEED

#: The most spaces one turn moves a car forward: the proved largest speed, plus the
#: slipstream's 2 (adrenaline and boost are part of the speed).
MAX_MOVE = PROVED_MAX_SPEED + 2
#: The most Stress cards one spin adds to a hand.
SPIN_STRESS = 2


def turns_taken(state: RaceState, car: int) -> int:
    """Turns the car has had: one per earlier round it raced in, plus this round's if it
    has moved already (an upper bound for a ranked car)."""
    earlier = state.round - 1
    if state.phase is Phase.TURN and car in state.order:
        index = state.order.index(car)
        if index < state.cursor or (index == state.cursor and state.turn is not None
                                    and state.turn.car == car):
            return earlier + 1
    return earlier


def problems(state: RaceState) -> list[str]:
    """The round-consistency checks the state fails (empty: none)."""
    out: list[str] = []
    finish = state.finish_position
    if state.round < 1:
        out.append(f"round {state.round}: a race starts in round 1 (round.sequence)")
        return out
    stress = state.track.stress
    for i, car in enumerate(state.cars):
        name = f"P{i + 1}"
        turns = turns_taken(state, i)
        if car.position > MAX_MOVE * turns:
            out.append(f"{name} at {car.position} after {turns} turns of at most {MAX_MOVE} "
                       "spaces (speed.turn-total, setup.grid)")
        if i in state.ranking and not finish < car.position <= finish + MAX_MOVE:
            out.append(f"{name} is ranked at {car.position}: a finished car stops within "
                       f"{MAX_MOVE} spaces past the line {finish} (finish.line)")
        owned = sum(c.count(STRESS) for c in (car.hand, car.deck, car.discard, car.played,
                                               car.flipped))
        if not state.modules and owned - stress > SPIN_STRESS * turns:
            out.append(f"{name} holds {owned - stress} Stress beyond its deck's after "
                       f"{turns} turns: a spin adds at most {SPIN_STRESS} (corner.spin)")
    if state.phase is Phase.PLAN:
        late = [i for i in state.on_track() if state.cars[i].position > finish]
        if late:
            out.append(f"{', '.join(f'P{i + 1}' for i in late)} past the final line at the "
                       "start of a round but not ranked (finish.removed)")
    ranked_rounds = {i: turns_taken(state, i) for i in state.ranking}
    for i, turns in ranked_rounds.items():
        if finish + 1 > MAX_MOVE * turns:
            out.append(f"P{i + 1} is ranked but {turns} turns cannot reach the line "
                       "(finish.line)")
    return out


def earliest_round(positions: list[int], extra_stress: list[int], ranked: int,
                   finish: int) -> int:
    """The earliest round (at its start) consistent with cars at ``positions``, holding
    ``extra_stress`` Stress beyond their decks, with ``ranked`` cars already ranked."""
    needed = [-(-max(p, 0) // MAX_MOVE) for p in positions]
    needed += [-(-s // SPIN_STRESS) for s in extra_stress]
    if ranked:
        needed.append(-(-(finish + 1) // MAX_MOVE))
    return 1 + max(needed, default=0)

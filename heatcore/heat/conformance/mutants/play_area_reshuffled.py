"""When the deck runs out during a flip, the cards in play are shuffled in with the discard."""

from dataclasses import replace

from heatcore.heat import engine, reveal
from heatcore.heat.cards import canonical
from heatcore.heat.conformance.mutants._serve import original, patch, serve_mutant

_original = original(reveal, "flip_once")


def _flip_once(state, turn, events):  # type: ignore[no-untyped-def]
    state = _original(state, turn, events)
    if state.shuffle == turn.car:
        car = state.cars[turn.car]
        car = replace(car, discard=canonical(car.discard + car.played + car.flipped),
                      played=(), flipped=())
        state = state.with_car(turn.car, car)
    return state


patch(reveal, "flip_once", _flip_once)
patch(engine, "flip_once", _flip_once)

if __name__ == "__main__":
    raise SystemExit(serve_mutant("play_area_reshuffled"))

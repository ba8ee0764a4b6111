"""Building Rallyman GT positions for the rule tests: cars placed by hand, the first car
about to plan, and actions given as canonical strings."""

from __future__ import annotations

from heatcore.framework.events import Event
from heatcore.framework.values import replace
from heatcore.rallyman.actions import Action
from heatcore.rallyman.components import full_bag
from heatcore.rallyman.engine import apply, legal_actions
from heatcore.rallyman.notation import parse_action
from heatcore.rallyman.options import Options
from heatcore.rallyman.rounds import advance
from heatcore.rallyman.state import WHITE, Car, RaceState
from heatcore.rallyman.track import load_track

PG = "proving-ground"


def car(space: str, gear: int = 0, **kw: object) -> Car:
    """A white car on ``space`` in ``gear`` (other fields by keyword)."""
    return replace(Car(space=space, laps=0, gear=gear, colour=WHITE), **kw)


def position(*cars: Car, track: str = PG, weather: str = "dry", options: Options | None = None,
             laps: int = 1, yellow: tuple[int, ...] = (), bag: tuple[int, ...] | None = None,
             order: tuple[int, ...] | None = None) -> RaceState:
    """P1 (or ``order[0]``) about to take its turn in round 1, the others after it."""
    held = [t for c in cars for t in c.tokens]
    full = full_bag()
    from heatcore.rallyman.components import TOKENS

    if bag is None:
        bag = tuple(n - held.count(t) - (len(yellow) if t == "yellow" else 0)
                    for t, n in zip(TOKENS, full, strict=True))
    state = RaceState(track=load_track(track), laps=laps, options=options or Options(),
                      weather=weather, round=1, order=order or tuple(range(len(cars))),
                      cursor=0, cars=tuple(cars), bag=bag, yellow=yellow)
    return advance(state, [])


def run(state: RaceState, *actions: str) -> tuple[RaceState, list[Event]]:
    """Apply actions (canonical strings); return the state and all events."""
    events: list[Event] = []
    for text in actions:
        state, evs = apply(state, parse_action(text))
        events.extend(evs)
    return state, events


def legal(state: RaceState) -> list[str]:
    """The legal actions as strings."""
    return [str(a) for a in legal_actions(state)]


def lays(state: RaceState) -> set[tuple[str, str]]:
    """(die, space) of every legal lay."""
    out = set()
    for a in legal_actions(state):
        text = str(a).split()
        if text[1] == "lay":
            out.add((text[2], text[3]))
    return out


def dice_of(state: RaceState) -> list[str]:
    """Dice offered for the next lay."""
    return sorted({d for d, _ in lays(state)})


def act(text: str) -> Action:
    """An action from its string."""
    return parse_action(text)

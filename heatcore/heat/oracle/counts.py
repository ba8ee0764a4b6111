"""Perft and explore counts by the independent model's own move generator.

:mod:`heatcore.heat.perft` and :mod:`heatcore.heat.explore` count with the engine (its
legal actions, its ``apply``). Here the same figures are counted a second time by
:class:`heatcore.heat.oracle.model.RaceModel` alone: its own legal actions (``pending.actions``),
its own steps, its own chance points, resolved by the perft rule of ``spec/perft.md``
(written out again below from the spec, over the printed card order). Only the start state
is shared. The model cannot be copied (it is a coroutine), so every node is reached by
replaying its path of actions from the start.

- :func:`model_perft`: perft (``spec/perft.md``): action sequences of a given depth.
- :func:`model_explore`: every distinct decision point reachable from the start, breadth
  first (``spec/explore.md``), each identified by everything the model knows of it (the
  cars' spots, gears, engines and piles, the supply, the round, phase, order and cursor, the
  ranking, the turn in progress and the decision awaited); its figures (states,
  transitions, breadth-first depth, finished races, the longest race) are compared with
  the engine's.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, fields

from heatcore.heat.actions import Action, Shuffle
from heatcore.heat.oracle.choices import card_order
from heatcore.heat.oracle.model import Chance, Decision, Over, RaceModel
from heatcore.heat.state import RaceState


def perft_order(cards: Counter[str], seed: int, car: int) -> tuple[str, ...]:
    """spec/perft.md's shuffle order: the cards in the printed card order, then position
    ``i`` ranked by the hex SHA-256 of ``heatcore-perft/{seed}/P{car+1}/{i}``."""
    ordered = [c for c in card_order() for _ in range(cards[c])]
    keys = [hashlib.sha256(f"heatcore-perft/{seed}/P{car + 1}/{i}".encode()).hexdigest()
            for i in range(len(ordered))]
    return tuple(ordered[i] for i in sorted(range(len(ordered)), key=keys.__getitem__))


def _settle(model: RaceModel, seed: int) -> None:
    """Resolve every chance point the model awaits by the perft rule."""
    while isinstance(model.pending, Chance):
        car = model.pending.car
        pool = Counter(model.cars[car].deck)
        if not model.salvage:
            pool += model.cars[car].discard
        model.send(Shuffle(car, perft_order(pool, seed, car)))


def model_at(start: RaceState, path: Sequence[Action], seed: int) -> RaceModel:
    """The model after ``path`` from ``start`` (chance points settled)."""
    model = RaceModel(start)
    _settle(model, seed)
    for action in path:
        model.send(action)
        _settle(model, seed)
    return model


def _actions(model: RaceModel) -> list[Action]:
    pending = model.pending
    if isinstance(pending, Decision):
        return sorted(pending.actions, key=str)
    return []


def model_perft(start: RaceState, seed: int, depth: int,
                path: tuple[Action, ...] = ()) -> int:
    """perft(start after ``path``, ``depth``) counted by the model."""
    if depth == 0:
        return 1
    actions = _actions(model_at(start, path, seed))
    if depth == 1:
        return len(actions)
    return sum(model_perft(start, seed, depth - 1, (*path, a)) for a in actions)


def _frozen(value: object) -> Hashable:
    if isinstance(value, Counter):
        return tuple(sorted((k, n) for k, n in value.items() if n))
    if isinstance(value, list | tuple):
        return tuple(_frozen(v) for v in value)
    if hasattr(value, "__dataclass_fields__"):
        return tuple(_frozen(getattr(value, f.name)) for f in fields(value))  # type: ignore[arg-type]
    if isinstance(value, frozenset):
        return tuple(sorted(map(str, value)))
    assert isinstance(value, Hashable)
    return value


def model_key(model: RaceModel) -> Hashable:
    """Everything the model knows of a decision point (see the module's docstring)."""
    pending = model.pending
    awaited = (pending.car, _frozen(pending.actions)) if isinstance(pending, Decision) \
        else type(pending).__name__
    return (_frozen(model.cars), model.supply, model.round, model.phase, tuple(model.order),
            model.cursor, tuple(model.ranking), tuple(model.out), _frozen(model.turn),
            awaited)


@dataclass
class ModelFigures:
    """The figures of an exploration counted by the model (as ``explore.Report.figures``)."""

    states: int = 0
    transitions: int = 0
    depth: int = 0
    finished: int = 0
    longest: int = 0

    def figures(self) -> dict[str, int]:
        """The figures by name."""
        return {"states": self.states, "transitions": self.transitions, "depth": self.depth,
                "finished": self.finished, "longest": self.longest}


def model_explore(start: RaceState, seed: int) -> ModelFigures:
    """Every decision point reachable from ``start``, breadth first, by the model alone."""
    first = model_at(start, (), seed)
    seen = {model_key(first)}
    frontier: list[tuple[tuple[Action, ...], RaceModel]] = [((), first)]
    out = ModelFigures(states=1)
    while frontier:
        following: list[tuple[tuple[Action, ...], RaceModel]] = []
        for path, model in frontier:
            if isinstance(model.pending, Over):
                out.finished += 1
                out.longest = max(out.longest, model.round)
                continue
            for action in _actions(model):
                out.transitions += 1
                child = model_at(start, (*path, action), seed)
                key = model_key(child)
                if key not in seen:
                    seen.add(key)
                    following.append(((*path, action), child))
        if following:
            out.depth += 1
        frontier = following
    out.states = len(seen)
    return out

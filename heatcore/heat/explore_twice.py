"""Explore and perft counted twice: by the engine, and by the independent model's own move
generator (:mod:`heatcore.heat.oracle.counts`), and compared (issue 29).

:func:`engine_figures` is :mod:`heatcore.heat.explore`'s breadth-first search without the race
checker: the engine's own states (canonical JSON), legal actions and steps only, so that a
bug in the engine changes the figures rather than stopping the search.
:func:`compare_explore` and :func:`compare_perft` set them beside the model's figures.
"""

from __future__ import annotations

from heatcore.heat.engine import apply, legal_actions
from heatcore.heat.notation import state_from_json, state_to_json
from heatcore.heat.oracle.counts import model_explore, model_perft
from heatcore.heat.perft import chance_action
from heatcore.heat.state import RaceState

#: The figures both counts give.
FIGURES = ("states", "transitions", "depth", "finished", "longest")


def engine_figures(start: RaceState, seed: int, limit: int | None = None) -> dict[str, int]:
    """Every state reachable from ``start`` by the engine alone, breadth first; with
    ``limit``, the search stops (its figures then partial) once it has seen more states."""
    first = state_to_json(start)
    seen = {first}
    frontier = [first]
    out = dict.fromkeys(FIGURES, 0)
    while frontier:
        following = []
        for text in frontier:
            state = state_from_json(text)
            if state.is_over():
                out["finished"] += 1
                out["longest"] = max(out["longest"], state.round)
                continue
            for action in legal_actions(state):
                out["transitions"] += 1
                after = apply(state, action)[0]
                while after.is_chance():
                    after = apply(after, chance_action(after, seed))[0]
                key = state_to_json(after)
                if key not in seen:
                    seen.add(key)
                    following.append(key)
            if limit is not None and len(seen) > limit:
                out["states"] = len(seen)
                return out
        if following:
            out["depth"] += 1
        frontier = following
    out["states"] = len(seen)
    return out


def compare_explore(start: RaceState, seed: int) -> list[str]:
    """Where the engine's exploration figures differ from the model's (empty: none)."""
    engine = engine_figures(start, seed)
    model = model_explore(start, seed).figures()
    return [f"{name}: engine {engine[name]}, model {model[name]}" for name in FIGURES
            if engine[name] != model[name]]


def compare_perft(start: RaceState, seed: int, depth: int, engine_counts: list[int]) -> list[str]:
    """Depths up to ``depth`` where the engine's perft counts (``engine_counts``, from
    depth 0) differ from the model's."""
    return [f"depth {d}: engine {engine_counts[d]}, model {got}"
            for d in range(min(depth, len(engine_counts) - 1) + 1)
            if (got := model_perft(start, seed, d)) != engine_counts[d]]


def first_violation(start: RaceState, seed: int, limit: int = 200_000) -> str:
    """The first transition the race checker refuses, breadth first from ``start`` (the
    rules it names lead its message); "" when none is found within ``limit`` states."""
    from heatcore.heat.explore import expand

    seen = {state_to_json(start)}
    frontier = list(seen)
    while frontier and len(seen) < limit:
        found = expand((frontier, seed))
        if found.violations:
            return found.violations[0]
        frontier = [key for key in found.children if key not in seen]
        seen.update(frontier)
    return ""

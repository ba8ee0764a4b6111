"""The rulings a Heat case depends on whatever its generator says: a case whose states hold
an empty Stress supply depends on ``ruling.stress-supply``; one with a car past the finish
line that is not ranked yet (it finished this round and is still on the track) depends on
``ruling.finished-car-turn``. ``render`` adds them; ``check_corpus`` checks them."""

from __future__ import annotations

from heatcore.framework.conformance.binding import JSON
from heatcore.heat.track import load_track


def case_states(case: JSON) -> list[JSON]:
    """The start state and every expected state of a case."""
    return [case["state"], *(s["state"] for s in case["expect"].get("steps", []))]


def implied_rulings(case: JSON) -> list[str]:
    """The rulings a case's states make it depend on, in ID order."""
    out: set[str] = set()
    for state in case_states(case):
        if state.get("supply") == 0:
            out.add("ruling.stress-supply")
        finish = load_track(state["track"]).spaces_per_lap * state["laps"]
        if any(car["position"] > finish and car["id"] not in state["ranking"]
               for car in state["cars"]):
            out.add("ruling.finished-car-turn")
    return sorted(out)


def with_implied_rulings(case: JSON) -> JSON:
    """``case`` with its implied rulings added to ``rulings`` (kept in order, no repeats)."""
    missing = [r for r in implied_rulings(case) if r not in case["rulings"]]
    return dict(case, rulings=[*case["rulings"], *missing]) if missing else case

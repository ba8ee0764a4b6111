"""Crafted cases where an engine following the seeds and heatcore once disagreed (issue 26):
each is passed by an engine that follows the seed's text and was failed by the engine
before the fix.

- A slipstream bonus (Storm/Sun +2, the Slipstream boost token's +1) never takes a car
  across the final finish line (slipstream.not-past-finish; seed 000, seed 003 step 6).
"""

from __future__ import annotations

from collections.abc import Callable

from heatcore.conformance.binding import JSON
from heatcore.conformance.heat import HeatBinding
from heatcore.conformance.heat_module_cases import crafted_state
from heatcore.notation import state_to_dict
from heatcore.rulings import SLIPSTREAM_BONUS_PART, make_rulings
from heatcore.track import load_track
from heatcore.values import replace

Add = Callable[..., None]
QUIET = ("end react", "no slipstream", "discard nothing")
#: USA's road tokens of the first three sectors (the fourth, the finish straight, is chosen).
_USA_ROAD = ("limit-plus", "overheat", "limit-minus")


def slipstream_near_finish(binding: HeatBinding, token: str, behind: int,
                           rulings: dict[str, str] | None = None, before: int = 2) -> JSON:
    """USA with the Weather module (Storm), the last sector holding ``token``: P1 stands on
    the racing line ``before`` spaces before the final finish line and plays its speed-0 card; P2
    moves 2 to ``behind`` spaces behind it (0: beside it) and is asked whether to
    slipstream. Returns
    that state (JSON)."""
    finish = load_track("usa").finish_position(2)
    ahead = (finish - before, ("U0", "U5", "1", "1", "2", "2", "3"))
    mover = (finish - before - 2 - behind, ("1", "1", "1", "2", "2", "2", "3"))
    state = crafted_state("usa", [ahead, mover], [], ("weather",), weather="storm",
                          road=(*_USA_ROAD, token))
    assert state.finish_position == finish, "crafted_state races 2 laps on USA"
    if rulings:
        state = replace(state, rulings=make_rulings(rulings))
    data = state_to_dict(state)
    for action in ("P1 gear 1 play U0", "P2 gear 1 play 2"):
        data, _ = binding.apply(data, action)
    while not any(a.startswith("P2 slipstream") for a in binding.legal(data)):
        legal = binding.legal(data)
        data, _ = binding.apply(data, next((a for a in legal if a.endswith(QUIET)), legal[0]))
    return data


def fidelity_cases(binding: HeatBinding, add: Add) -> None:
    """The issue-26 cases: a slipstream bonus stopped by the final finish line (Storm +2 one
    space short, the token's +1 beside the car ahead), with the rejection naming the rule,
    and under ruling.slipstream-bonus-all-or-nothing's "any-part" the part that fits."""
    source = "seed:003:6.尾流"
    storm = slipstream_near_finish(binding, "weather", 1)
    add("slipstream.not-past-finish", "crafted.storm-slipstream-bonus-stops-at-finish",
        "Storm sector, one space behind a car two spaces before the final finish line: "
        "slipstream 2 is offered, slipstream 4 (across the line) is not", storm,
        {"legal": binding.legal(storm)}, source,
        also=("weather.slipstream-boost",))
    add("slipstream.not-past-finish", "crafted.storm-slipstream-bonus-across-finish-refused",
        "A Storm slipstream of 4 that would cross the final finish line is refused", storm,
        {"rejection": {"action": "P2 slipstream +2", "kind": "illegal-action",
                       "rule": "slipstream.not-past-finish"}}, source,
        also=("weather.slipstream-boost",))
    road = slipstream_near_finish(binding, "slipstream-plus-1", 0)
    add("slipstream.not-past-finish", "crafted.road-slipstream-plus1-stops-at-finish",
        "Slipstream boost sector, beside a car two spaces before the final finish line: "
        "slipstream 2 reaches the last space, slipstream 3 (across the line) is not offered",
        road, {"legal": binding.legal(road)}, source, also=("road.slipstream-boost",))
    part = slipstream_near_finish(binding, "weather", 1, {SLIPSTREAM_BONUS_PART: "any-part"})
    add(SLIPSTREAM_BONUS_PART, "crafted.any-part-slipstream-bonus-stops-at-finish",
        "Under \"any-part\", one space behind a car two spaces before the final finish line "
        "in a Storm sector: slipstream 2 and 3 are offered, 4 (across the line) is not",
        part, {"legal": binding.legal(part)}, source, also=("slipstream.not-past-finish",))

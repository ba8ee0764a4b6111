"""Crafted cases where an engine following the seeds and heatcore once disagreed (issue 26):
each is passed by an engine that follows the seed's text and was failed by the engine
before the fix.

- A slipstream bonus (Storm/Sun +2, the Slipstream boost token's +1) never takes a car
  across the final finish line (slipstream.not-past-finish; seed 000, seed 003 step 6).
- An unpaid Heat card counts as a (+) instead (seed 003 5.反應 <3>): its speed leaves the
  turn (ruling.garage-unpaid-heat), one case per alternative.
- The new switches, one case per alternative: the cooling bonus once per turn or once per
  sector (ruling.cooling-bonus-scope), and who gets adrenaline when a Legend moves last
  (ruling.legend-adrenaline-count).
"""

from __future__ import annotations

from collections.abc import Callable

from heatcore.framework.conformance.binding import JSON
from heatcore.framework.values import replace
from heatcore.heat.conformance.binding import HeatBinding
from heatcore.heat.conformance.module_cases import crafted_state
from heatcore.heat.notation import state_to_dict
from heatcore.heat.rulings import (
    COOLING_BONUS_SCOPE,
    GARAGE_UNPAID,
    LEGEND_ADRENALINE_COUNT,
    SLIPSTREAM_BONUS_PART,
    make_rulings,
    switches,
)
from heatcore.heat.track import load_track

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
    and under ruling.slipstream-bonus-all-or-nothing's "any-part" the part that fits; an
    unpaid Heat card under each alternative of ruling.garage-unpaid-heat."""
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
    unpaid_cases(binding, add)
    switch_cases(binding, add)


def unpaid_step(seeds: range | None = None) -> tuple[JSON, str]:
    """The state before the first unpaid Heat symbol of the seeded Garage races whose card's
    speed is not 0, and that action."""
    from heatcore.heat.conformance.module_cases import GARAGE_SEEDS, garage_race

    for seed in seeds if seeds is not None else GARAGE_SEEDS:
        for step in garage_race(seed).steps:
            unpaid = [e for e in step.events if e["kind"] == "upgrade-unpaid"]
            if unpaid and unpaid[0].get("speed", 0) < step.before["turn"]["speed"]:
                return step.before, step.action
    raise AssertionError("no seeded Garage race leaves a Heat symbol unpaid")


def unpaid_cases(binding: HeatBinding, add: Add) -> None:
    """One case per alternative of ruling.garage-unpaid-heat: the same unpaid Heat symbol
    played under each (the default takes the card's speed out and places the car again from
    its turn's start; the alternatives keep the car, or keep both)."""
    before, action = unpaid_step()
    for choice in switches()[GARAGE_UNPAID]:
        state = {**before, "rulings": {**before["rulings"], GARAGE_UNPAID: choice}}
        after, events = binding.apply(state, action)
        add(GARAGE_UNPAID, f"crafted.garage-unpaid-heat.{choice}",
            f"Under {choice!r}, {action} cannot be paid: the card is discarded and flipped "
            "for as a (+)" + {"speed-removed": ", its speed leaving the turn and the car "
                              "placed again from its turn's start",
                              "speed-out-car-stays": ", its speed leaving the turn, the car "
                              "where it is",
                              "speed-kept": ", the car keeping its speed and spaces"}[choice],
            state, {"steps": [{"action": action, "state": after, "events": events}]},
            "seed:003:5.反應<3>", also=("upgrade.heat-unpayable",))


def _quiet_until(binding: HeatBinding, data: JSON, done: Callable[[list[str]], bool]) -> JSON:
    """Play the quiet choice (U0, end react, no slipstream, discard nothing; else the first)
    until ``done(legal)``."""
    while not done(legal := binding.legal(data)):
        data, _ = binding.apply(data, next((a for a in legal if a.endswith(QUIET)
                                            or a.endswith("play U0")), legal[0]))
    return data


def switch_cases(binding: HeatBinding, add: Add) -> None:
    """Per alternative: P1 uses a Snow sector's cooling bonus and moves by its adrenaline
    into a second Snow sector (ruling.cooling-bonus-scope); three players and a Legend
    last in the turn order (ruling.legend-adrenaline-count)."""
    still = ("U0", "U5", "S", "S", "S", "H", "H")
    snow = ("weather", "weather", "overheat", "overheat")
    scenes = [(choice, 30) for choice in switches()[COOLING_BONUS_SCOPE]]
    for choice, start in [*scenes, ("once-per-sector", 27)]:
        state = crafted_state("usa", [(45, still), (start, ("1", "2", "H", "H", "H", "2", "3"))],
                              [], ("weather",), weather="snow", road=snow)
        data = state_to_dict(replace(state, rulings=make_rulings({COOLING_BONUS_SCOPE: choice})))
        data = _quiet_until(binding, data, lambda legal: legal[0].startswith("P2 gear"))
        data, _ = binding.apply(data, "P2 gear 2 play 1 2")
        data = _quiet_until(binding, data, lambda legal: "P2 sector cooldown" in legal)
        data, _ = binding.apply(data, "P2 sector cooldown")
        after, events = binding.apply(data, "P2 adrenaline move")
        new_sector = start == 30
        again = new_sector and choice == "once-per-sector"
        add(COOLING_BONUS_SCOPE, f"crafted.cooling-bonus-scope.{choice}.from-{start}",
            f"Under {choice!r}: P2 used a Snow sector's cooling bonus on space {start + 3} and "
            "moves by its adrenaline " + ("into the second Snow sector (34)" if new_sector
                                          else f"within the same sector ({start + 4})")
            + "; the sector cooldown is " + ("open again" if again else "not open again"),
            data, {"steps": [{"action": "P2 adrenaline move", "state": after,
                              "events": events}]}, "seed:003:【天氣與路況模組】",
            also=("weather.cooling-bonus",))
    for choice in switches()[LEGEND_ADRENALINE_COUNT]:
        state = crafted_state("usa", [(30, still), (20, still), (10, still)], [5],
                              ("legends",), card=1)
        data = state_to_dict(replace(state, rulings=make_rulings(
            {LEGEND_ADRENALINE_COUNT: choice})))
        first = data
        steps: list[JSON] = []
        while data["round"] == first["round"]:
            legal = binding.legal(data)
            action = next((a for a in legal if a.endswith(QUIET) or a.endswith("play U0")),
                          legal[0])
            after, events = binding.apply(data, action)
            steps.append({"action": action, "state": after, "events": events})
            data = after
        add(LEGEND_ADRENALINE_COUNT, f"crafted.legend-adrenaline-last-place.{choice}",
            f"Under {choice!r}: three players and a Legend last in the turn order play a "
            "round; " + ("P3, the last player to move, has adrenaline (seed 003 4.)"
                         if choice == "last-players" else "the Legend takes the one "
                         "adrenaline place, so no car has adrenaline"),
            first, {"steps": steps}, "seed:003:4.腎上腺素", also=("adrenaline.who",))

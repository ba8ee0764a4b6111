"""Issue 26's new switches for the Heat modules, each alternative played by the reference
engine, the fast engine (in lockstep) and the independent checker, which must catch an
engine that ignores the alternative (a checker shown the default rulings):
ruling.cooling-bonus-scope and ruling.legend-adrenaline-count's "last-players"."""

from __future__ import annotations

from dataclasses import replace

import pytest
from scenario import kinds, make_car, make_state, run
from test_module_legends import legend_state
from test_module_weather import legal_strings, weathered

from heatcore.framework.events import Event
from heatcore.heat.actions import Action, LegendShuffle
from heatcore.heat.engine import apply, legal_actions
from heatcore.heat.fast import FastRace
from heatcore.heat.modules.legends import full_deck
from heatcore.heat.notation import parse_action
from heatcore.heat.race_checker import RaceChecker, RuleViolation
from heatcore.heat.rulings import (
    COOLING_BONUS_SCOPE,
    DEFAULT_RULINGS,
    LEGEND_ADRENALINE_COUNT,
    make_rulings,
    switches,
)
from heatcore.heat.state import RaceState

STILL = "U0 U5 S S S H H"


def _under(state: RaceState, ruling: str, choice: str) -> RaceState:
    return replace(state, rulings=make_rulings({ruling: choice}))


def _lockstep(state: RaceState, actions: list[str] | None = None, blind: bool = False
              ) -> tuple[RaceState, list[Event]]:
    """Play ``actions`` (else the round, players playing U0 and doing nothing more) on the
    reference engine, the fast engine in lockstep (same state after every step) and the
    checker (shown the default rulings when ``blind``). Returns the state and events."""
    def shown(s: RaceState) -> RaceState:
        return replace(s, rulings=DEFAULT_RULINGS) if blind else s

    checker = RaceChecker()
    checker.resume(shown(state))
    fast = FastRace(state)
    events: list[Event] = []
    start, todo = state.round, list(actions or ())
    while (todo if actions is not None else state.round == start and not state.is_over()):
        if todo:
            action: Action = parse_action(todo.pop(0))
        elif state.is_chance():
            action = LegendShuffle(state.shuffle or 0, full_deck())
        else:
            legal = legal_actions(state)
            action = next((a for a in legal if "U0" in str(a) or "end react" in str(a)
                           or "no slipstream" in str(a) or "discard nothing" in str(a)),
                          legal[0])
        after, evs = apply(state, action)
        checker.step(shown(state), action, shown(after), evs)
        fast.apply(action)
        assert fast.to_state() == after
        events.extend(evs)
        state = after
    return state, events


# ---------------------------------------------------------------- ruling.cooling-bonus-scope

def _two_snow_sectors() -> RaceState:
    """USA, Snow on sectors 13-33 and 34-49: P1 (gear 2, last, with adrenaline) plays 1 2
    from 30 to 33, the end of the first Snow sector."""
    base = make_state(make_car(30, gear=2, hand="1 2 H H H 2 3"), make_car(45, hand=STILL))
    return weathered(base, "snow", ("weather", "weather", "overheat", "overheat"))


COOL = ["P1 sector cooldown", "P1 adrenaline move"]


@pytest.mark.rules("ruling.cooling-bonus-scope", "weather.cooling-bonus", "road.where-the-car-is")
@pytest.mark.parametrize(("choice", "again"), [("once-per-turn", False),
                                               ("once-per-sector", True)])
def test_the_cooling_bonus_once_per_turn_or_once_per_sector(choice: str, again: bool) -> None:
    state, _ = run(_under(_two_snow_sectors(), COOLING_BONUS_SCOPE, choice), "P1 gear 2 play 1 2")
    after, _ = _lockstep(state, COOL)
    assert after.cars[0].position == 34  # the second Snow sector
    assert ("P1 sector cooldown" in legal_strings(after)) is again
    assert [str(a) for a in FastRace(after).legal_actions()] == legal_strings(after)
    if again:
        twice, _ = _lockstep(after, ["P1 sector cooldown"])
        car = twice.cars[0]
        assert car.hand.count("H") == 1 and car.engine == after.cars[0].engine + 1
        assert "P1 sector cooldown" not in legal_strings(twice)


@pytest.mark.rules("ruling.cooling-bonus-scope")
def test_by_default_the_cooling_bonus_is_once_per_turn() -> None:
    test_the_cooling_bonus_once_per_turn_or_once_per_sector("once-per-turn", False)


@pytest.mark.rules("ruling.cooling-bonus-scope")
def test_under_once_per_sector_a_new_sector_gives_the_bonus_again() -> None:
    test_the_cooling_bonus_once_per_turn_or_once_per_sector("once-per-sector", True)


@pytest.mark.rules("ruling.cooling-bonus-scope")
def test_the_checker_catches_an_engine_ignoring_once_per_sector() -> None:
    state, _ = run(_under(_two_snow_sectors(), COOLING_BONUS_SCOPE, "once-per-sector"),
                   "P1 gear 2 play 1 2")
    _lockstep(state, COOL)  # control: the checker reading the switch agrees
    with pytest.raises(RuleViolation):
        _lockstep(state, COOL, blind=True)


@pytest.mark.rules("ruling.cooling-bonus-scope")
def test_the_bonus_is_not_renewed_within_one_sector() -> None:
    """Once per sector is still once in each: moving inside the same sector renews
    nothing (P1 from 27 to 30, then the adrenaline move to 31)."""
    base = make_state(make_car(27, gear=2, hand="1 2 H H H 2 3"), make_car(45, hand=STILL))
    state = weathered(base, "snow", ("weather", "weather", "overheat", "overheat"))
    state, _ = run(_under(state, COOLING_BONUS_SCOPE, "once-per-sector"), "P1 gear 2 play 1 2")
    after, _ = _lockstep(state, COOL)
    assert after.cars[0].position == 31 and "P1 sector cooldown" not in legal_strings(after)


# ---------------------------------------------------------------- legend adrenaline places

#: (players, Legends, {choice: the players' cars with adrenaline}): a Legend last in the order.
ADRENALINE = [
    ([10, 20, 30], [("black", 5)], {"all-cars": set(), "players-only": set(),
                                    "last-players": {0}}),
    ([10, 20, 30, 40, 50], [("black", 5)], {"all-cars": {0}, "players-only": {0},
                                            "last-players": {0, 1}}),
]


@pytest.mark.rules("ruling.legend-adrenaline-count", "adrenaline.who", "adrenaline.count-fixed")
@pytest.mark.parametrize("scene", range(len(ADRENALINE)))
@pytest.mark.parametrize("choice", switches()[LEGEND_ADRENALINE_COUNT])
def test_legend_adrenaline_places_under_each_alternative(scene: int, choice: str) -> None:
    players, legends, expected = ADRENALINE[scene]
    state = _under(legend_state(players, legends), LEGEND_ADRENALINE_COUNT, choice)
    _, events = _lockstep(state)
    started = {e.car for e in kinds(events, "turn-started") if e.get("adrenaline")}
    assert started == expected[choice]


@pytest.mark.rules("ruling.legend-adrenaline-count")
def test_under_last_players_the_last_player_to_move_has_adrenaline() -> None:
    for scene in range(len(ADRENALINE)):
        test_legend_adrenaline_places_under_each_alternative(scene, "last-players")


@pytest.mark.rules("ruling.legend-adrenaline-count")
def test_the_checker_catches_an_engine_ignoring_last_players() -> None:
    players, legends, _ = ADRENALINE[1]
    state = _under(legend_state(players, legends), LEGEND_ADRENALINE_COUNT, "last-players")
    _lockstep(state)
    with pytest.raises(RuleViolation):
        _lockstep(state, blind=True)


# ---------------------------------------------------------------- ruling.championship-weather

@pytest.mark.rules("ruling.championship-weather", "weather.draw")
def test_a_championship_plays_weather_in_every_race_unless_told_not_to() -> None:
    from heatcore.heat.championship_check import check_championship_log
    from heatcore.heat.modules.championship.log import championship_to_dict
    from heatcore.heat.modules.championship.season import play_championship
    from heatcore.tools.heat.championship_cli import parser

    champ = play_championship(1961, 2, 4)  # the default: every race draws its weather
    setups = [r.race.setup for r in champ.races]
    assert all(s.conditions is not None and "weather" in s.modules for s in setups)
    assert len({(s.conditions.weather, s.conditions.road) for s in setups
                if s.conditions is not None}) > 1  # drawn again for each race
    log = championship_to_dict(champ)
    assert log["weather"] is True
    check_championship_log(log)
    plain = play_championship(1961, 2, 4, weather=False)  # the alternative "no-weather"
    assert all(r.race.setup.conditions is None for r in plain.races)
    check_championship_log(championship_to_dict(plain))
    assert parser().parse_args([]).weather is True
    assert parser().parse_args(["--no-weather"]).weather is False

"""The Weather and Road Conditions module: setup draws and changes, sector effects judged
where the car is, corner tokens; the core race unchanged when the module is off."""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import replace

import pytest
from scenario import kinds, make_car, make_state, run

from heatcore import IllegalAction, MalformedInput
from heatcore.heat.actions import Cooldown, SectorCooldown, Slipstream
from heatcore.heat.cards import BOX_STRESS, HEAT, STRESS
from heatcore.heat.driver import play as play_race
from heatcore.heat.driver import random_policy
from heatcore.heat.engine import apply, legal_actions
from heatcore.heat.modules.weather import road_bag, sector_effect, weather_tokens
from heatcore.heat.notation import parse_action, state_from_json, state_to_json
from heatcore.heat.setup import RaceSetup, random_setup, start_race
from heatcore.heat.state import Conditions, RaceState
from heatcore.heat.track import load_track, track_from_dict
from heatcore.heat.validity import status

STILL = "U0 U5 S S S H H"  # a background car with this hand plays U0 and stays put
# USA: corners after spaces 12 (limit 7), 33 (3), 49 (3), 57 (2); sectors 13-33, 34-49,
# 50-57 and 58-12 (across the finish line).
NO_TOKENS = ("limit-plus", "limit-plus", "overheat", "overheat")


def weathered(state: RaceState, weather: str, road: tuple[str, ...]) -> RaceState:
    """``state`` playing the weather module, each engine holding the weather's extra Heat."""
    extra = weather_tokens()[weather].heat_in_engine
    cars = tuple(replace(c, engine=c.engine + extra) for c in state.cars)
    return replace(state, modules=("weather",), conditions=Conditions(weather, road), cars=cars)


def legal_strings(state: RaceState) -> list[str]:
    return [str(a) for a in legal_actions(state)]


# ---------------------------------------------------------------- setup

@pytest.mark.rules("weather.module")
def test_the_core_race_is_unchanged_when_no_module_is_on() -> None:
    core = random_setup("usa", 3, random.Random(5))
    again = random_setup("usa", 3, random.Random(5), modules=())
    assert core == again and core.modules == () and core.weather is None
    state, _ = start_race(core)
    assert state.conditions is None and state.modules == ()
    assert "weather" not in json.loads(state_to_json(state))


@pytest.mark.rules("weather.module")
def test_unknown_or_misordered_modules_are_refused_with_the_rule() -> None:
    setup = random_setup("usa", 2, random.Random(1))
    with pytest.raises(MalformedInput) as bad:
        start_race(replace(setup, modules=("championship",)))
    assert bad.value.rule == "weather.module" and "championship" in str(bad.value)
    with pytest.raises(MalformedInput):
        start_race(replace(setup, modules=("legends", "weather")))
    with pytest.raises(MalformedInput):  # tokens given for a module that is off
        start_race(replace(setup, weather="sun", road=("weather",) * 4))


@pytest.mark.rules("weather.draw")
def test_one_of_the_six_tokens_is_drawn_and_recorded_in_the_setup() -> None:
    drawn = {random_setup("usa", 2, random.Random(s), modules=("weather",)).weather
             for s in range(60)}
    assert drawn == set(weather_tokens()) and len(drawn) == 6
    setup = random_setup("italia", 2, random.Random(3), modules=("weather",))
    state, events = start_race(setup)
    assert state.conditions == Conditions(str(setup.weather), setup.road)
    assert kinds(list(events), "conditions")[0].get("weather") == setup.weather
    with pytest.raises(MalformedInput) as bad:
        start_race(replace(setup, weather="hail"))
    assert bad.value.rule == "weather.draw"


@pytest.mark.rules("weather.setup-change")
@pytest.mark.parametrize("weather, engine, deck_heat, discard, stress", [
    ("cloud", 6, 1, 0, 2), ("fog", 7, 1, 0, 3), ("storm", 6, 1, 0, 4),
    ("snow", 5, 1, 0, 3), ("rain", 3, 4, 0, 3), ("sun", 3, 1, 3, 3)])
def test_each_weather_changes_every_players_starting_cards(
        weather: str, engine: int, deck_heat: int, discard: int, stress: int) -> None:
    setup = random_setup("usa", 4, random.Random(9), modules=("weather",))
    decks = []
    rng = random.Random(2)
    from heatcore.heat.modules.weather import starting_cards
    for _ in range(4):
        deck = list(starting_cards(load_track("usa"), weather).deck)
        rng.shuffle(deck)
        decks.append(tuple(deck))
    state, _ = start_race(replace(setup, weather=weather, decks=tuple(decks)))
    for car in state.cars:
        owned = Counter(car.hand + car.deck)
        assert car.engine == engine and owned[HEAT] == deck_heat
        assert car.discard.count(HEAT) == discard and owned[STRESS] == stress
    assert state.supply == BOX_STRESS - 4 * stress
    assert not status(state)
    if weather in ("cloud", "storm", "rain"):  # a core deck does not fit this weather
        with pytest.raises(MalformedInput) as bad:
            start_race(replace(setup, weather=weather,
                               decks=random_setup("usa", 4, random.Random(9)).decks))
        assert bad.value.rule == "setup.deck"


@pytest.mark.rules("road.draw")
def test_one_road_token_per_corner_from_the_box_of_twelve() -> None:
    assert Counter(road_bag()) == {t: 2 for t in set(road_bag())} and len(road_bag()) == 12
    for seed in range(30):
        setup = random_setup("great-britain", 2, random.Random(seed), modules=("weather",))
        assert len(setup.road) == 5 and max(Counter(setup.road).values()) <= 2
    setup = random_setup("usa", 2, random.Random(0), modules=("weather",))
    for road in [("overheat",) * 3 + ("weather",), ("weather",) * 3, ("ice",) * 4]:
        with pytest.raises(MalformedInput) as bad:
            start_race(replace(setup, road=road))
        assert bad.value.rule == "road.draw"


@pytest.mark.rules("road.placement")
def test_a_sector_runs_from_its_corner_line_to_the_next_one() -> None:
    track = load_track("usa")
    assert [track.sector_of(p) for p in (-5, 0, 12, 13, 33, 34, 49, 50, 57, 58, 69, 82)] == \
        [3, 3, 3, 0, 0, 1, 1, 2, 2, 3, 3, 0]
    assert track.sector_spaces(3) == (58, 12) and track.sector_spaces(0) == (13, 33)
    state = weathered(make_state(make_car(20), make_car(40)), "sun",
                      ("overheat", "free-boost", "limit-minus", "weather"))
    assert sector_effect(state, 20) is None  # a corner token has no sector effect
    assert sector_effect(state, 40) == "free-boost"
    assert sector_effect(state, 60) == "slipstream-plus-2" == sector_effect(state, 5)
    from heatcore.heat.track import tracks_dir
    data = json.loads((tracks_dir() / "usa.json").read_text())
    data["corners"][0]["sector"] = [13, 34]
    with pytest.raises(MalformedInput) as bad:
        track_from_dict(data)
    assert bad.value.rule == "road.placement"


# ---------------------------------------------------------------- react

def cloud_race(road: tuple[str, ...] = ("weather", "limit-plus", "overheat", "overheat"),
               gear: int = 1) -> RaceState:
    """P1 (last, so with adrenaline) reaches space 33, the end of the Cloud sector 13-33."""
    return weathered(make_state(make_car(29, gear=gear, hand="4 H H 1 1 2 2"),
                                make_car(45, hand=STILL)), "cloud", road)


@pytest.mark.rules("weather.no-cooldown", "weather.sector-only")
def test_no_cooldown_at_all_in_a_cloud_sector() -> None:
    state, _ = run(cloud_race(), "P1 gear 1 play 4")
    assert state.cars[0].position == 33
    legal = legal_strings(state)
    assert not any("cooldown" in a for a in legal) and "P1 adrenaline move" in legal
    for text in ("P1 cooldown 1", "P1 adrenaline cooldown"):
        with pytest.raises(IllegalAction) as bad:
            apply(state, parse_action(text))
        assert bad.value.rule == "weather.no-cooldown"


@pytest.mark.rules("weather.sector-only", "weather.module")
def test_the_weather_acts_only_where_its_token_lies() -> None:
    state, _ = run(cloud_race(road=("limit-plus", "weather", "overheat", "overheat")),
                   "P1 gear 1 play 4")
    assert "P1 cooldown 1" in legal_strings(state)  # the Cloud sector is 34-49


@pytest.mark.rules("road.where-the-car-is", "weather.no-cooldown")
def test_leaving_a_cloud_sector_during_react_allows_cooldown_again() -> None:
    state, _ = run(cloud_race(), "P1 gear 1 play 4", "P1 adrenaline move")
    assert state.cars[0].position == 34
    legal = legal_strings(state)
    assert "P1 cooldown 2" in legal and "P1 adrenaline cooldown" in legal


@pytest.mark.rules("weather.cooling-bonus", "ruling.cooling-bonus-own-cooldown")
def test_rain_sector_gives_one_more_cooldown_in_any_gear() -> None:
    base = make_state(make_car(25, gear=2, hand="4 4 H H 1 2 3"), make_car(45, hand=STILL))
    state = weathered(base, "rain", ("weather", "limit-plus", "overheat", "overheat"))
    state, _ = run(state, "P1 gear 3 play 1 4 4")
    # speed 9 from 25: space 34 is past the corner, in sector 34-49 (no token): no bonus
    assert state.cars[0].position == 34
    assert "P1 sector cooldown" not in legal_strings(state)
    base = make_state(make_car(20, gear=2, hand="4 4 H H 1 2 3"), make_car(45, hand=STILL))
    state = weathered(base, "rain", ("weather", "limit-plus", "overheat", "overheat"))
    state, _ = run(state, "P1 gear 3 play 1 4 4")
    assert state.cars[0].position == 29 and state.cars[0].gear == 3
    legal = legal_strings(state)
    assert "P1 sector cooldown" in legal and not any(a.startswith("P1 cooldown") for a in legal)
    engine = state.cars[0].engine
    after, events = apply(state, SectorCooldown(0))
    assert after.cars[0].engine == engine + 1 and after.cars[0].hand.count(HEAT) == 1
    assert "P1 sector cooldown" not in legal_strings(after)
    with pytest.raises(IllegalAction) as bad:
        apply(after, SectorCooldown(0))
    assert bad.value.rule == "weather.cooling-bonus"


@pytest.mark.rules("ruling.cooling-bonus-own-cooldown", "weather.cooling-bonus")
def test_the_cooling_bonus_comes_on_top_of_the_gears_cooldown() -> None:
    base = make_state(make_car(27, gear=1, hand="1 H H H 2 2 3"), make_car(45, hand=STILL))
    state = weathered(base, "snow", ("weather", "limit-plus", "overheat", "overheat"))
    state, _ = run(state, "P1 gear 1 play 1", "P1 cooldown 3")
    assert "P1 sector cooldown" not in legal_strings(state)  # no Heat left in hand
    base = make_state(make_car(27, gear=2, hand="1 2 H H 2 2 3"), make_car(45, hand=STILL))
    state = weathered(base, "snow", ("weather", "limit-plus", "overheat", "overheat"))
    state, _ = run(state, "P1 gear 2 play 1 2", "P1 cooldown 1", "P1 sector cooldown")
    assert state.cars[0].hand.count(HEAT) == 0


@pytest.mark.rules("road.free-boost", "ruling.free-boost-empty-engine")
def test_heat_control_boosts_for_free_even_with_an_empty_engine() -> None:
    base = make_state(make_car(36, hand="1 1 1 2 2 2 3", deck_top="4", engine=0),
                      make_car(55, hand=STILL))
    state = weathered(base, "sun", ("limit-plus", "free-boost", "overheat", "overheat"))
    state, _ = run(state, "P1 gear 1 play 1")
    assert state.cars[0].engine == 0 and "P1 boost" in legal_strings(state)
    after, events = apply(state, parse_action("P1 boost"))
    assert [e.kind for e in events][:1] == ["free-boost"]
    assert not kinds(list(events), "paid-heat") and after.cars[0].engine == 0
    assert after.cars[0].position == 41
    core = replace(state, modules=(), conditions=None)
    assert "P1 boost" not in legal_strings(core)
    with pytest.raises(IllegalAction) as bad:
        apply(core, parse_action("P1 boost"))
    assert bad.value.rule == "react.boost"


# ---------------------------------------------------------------- slipstream

def slipstream_state(weather: str, road: tuple[str, ...], start: int = 36) -> RaceState:
    """P1 moves 1 from ``start``, ending just behind P2 (which stays put)."""
    base = make_state(make_car(start, hand="1 1 1 2 2 2 3"), make_car(start + 2, hand=STILL))
    return weathered(base, weather, road)


@pytest.mark.rules("weather.slipstream-boost", "ruling.slipstream-bonus-all-or-nothing")
def test_sun_sector_offers_slipstream_two_or_four() -> None:
    state, _ = run(slipstream_state("sun", ("limit-plus", "weather", "overheat", "overheat")),
                   "P1 gear 1 play 1", "P1 end react")
    legal = legal_strings(state)
    assert legal == ["P1 slipstream", "P1 slipstream +2", "P1 no slipstream"]
    after, events = apply(state, Slipstream(0, 2))
    assert after.cars[0].position == 41 and kinds(list(events), "moved")[0].get("spaces") == 4
    with pytest.raises(IllegalAction) as bad:
        apply(state, Slipstream(0, 1))
    assert bad.value.rule == "road.slipstream-boost"


@pytest.mark.rules("road.slipstream-boost", "slipstream.speed-unchanged")
def test_slipstream_boost_token_offers_three_spaces_without_speed() -> None:
    state, _ = run(slipstream_state("cloud", ("limit-plus", "slipstream-plus-1", "overheat",
                                              "overheat")), "P1 gear 1 play 1", "P1 end react")
    assert "P1 slipstream +1" in legal_strings(state)
    speed = state.turn.speed if state.turn else -1
    after, _ = apply(state, parse_action("P1 slipstream +1"))
    assert after.cars[0].position == 40 and after.turn is not None and after.turn.speed == speed


@pytest.mark.rules("weather.no-slipstream", "road.where-the-car-is")
def test_no_slipstream_from_a_fog_sector_but_into_one() -> None:
    fog = ("limit-plus", "weather", "overheat", "overheat")
    state, events = run(slipstream_state("fog", fog), "P1 gear 1 play 1")
    assert not any("slipstream" in a for a in legal_strings(state))
    after, events = apply(state, parse_action("P1 end react"))
    assert after.turn is not None and after.turn.stage.value == "discard"
    # from space 32 (sector 13-33, no weather) the car may slipstream into the Fog sector
    state, _ = run(slipstream_state("fog", fog, start=30), "P1 gear 1 play 1", "P1 end react")
    assert "P1 slipstream" in legal_strings(state)
    after, _ = apply(state, parse_action("P1 slipstream"))
    assert after.cars[0].position == 33


# ---------------------------------------------------------------- corners

def corner_state(token: str, hand: str, engine: int | None = None) -> RaceState:
    """P1 at 31 with corner 2 (after space 33, limit 3) carrying ``token``."""
    base = make_state(make_car(31, gear=2, hand=hand, engine=engine), make_car(60, hand=STILL))
    return weathered(base, "cloud", ("limit-plus", token, "overheat", "limit-plus"))


@pytest.mark.rules("road.limit")
def test_speed_limit_tokens_move_the_limit_by_one() -> None:
    _, events = run(corner_state("limit-minus", "1 2 1 1 2 3 3"), "P1 gear 2 play 1 2",
                    "P1 end react")
    corner = kinds(events, "corner")[0]
    assert corner.get("limit") == 2 and corner.get("heat") == 1
    _, events = run(corner_state("limit-plus", "1 3 1 1 2 2 3"), "P1 gear 2 play 1 3",
                    "P1 end react")
    corner = kinds(events, "corner")[0]
    assert corner.get("limit") == 4 and corner.get("heat") == 0


@pytest.mark.rules("road.overheat")
def test_overheat_costs_one_more_heat_only_when_over_the_limit() -> None:
    _, events = run(corner_state("overheat", "2 3 1 1 2 3 3"), "P1 gear 2 play 2 3",
                    "P1 end react")
    assert kinds(events, "corner")[0].get("heat") == 3  # speed 5, limit 3: 2 + 1
    _, events = run(corner_state("overheat", "1 2 1 1 2 3 3"), "P1 gear 2 play 1 2",
                    "P1 end react")
    assert kinds(events, "corner")[0].get("heat") == 0
    _, events = run(corner_state("overheat", "2 3 1 1 2 3 3", engine=2), "P1 gear 2 play 2 3",
                    "P1 end react")
    spin = kinds(events, "spun-out")[0]
    assert spin.get("heat") == 2 and spin.get("position") == 33


# ---------------------------------------------------------------- whole races

@pytest.mark.rules("weather.module", "weather.setup-change", "road.draw")
def test_weather_races_finish_valid_and_round_trip_on_every_track() -> None:
    from heatcore.heat.track import track_ids
    for number, track in enumerate(track_ids()):
        rng = random.Random(number)
        setup = random_setup(track, 2 + number, rng, laps=1, modules=("weather",))

        def check(before: RaceState, action: object, after: RaceState, events: object) -> None:
            assert not status(after), status(after)
            assert state_from_json(state_to_json(after)) == after

        race = play_race(setup, random_policy, rng, on_step=check)
        assert race.final.is_over()
        assert isinstance(setup, RaceSetup)
        assert any(isinstance(a, Cooldown | SectorCooldown | Slipstream) for a in race.actions)

"""The Garage module: the upgrade data, every symbol of the vocabulary on hand-made states,
the mandatory/optional split, the reveal (choose-speed cards, Heat, +), React (symbols and
Direct play), the draft and the quick start, and the rulings of the open points."""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import replace

import jsonschema
import pytest
from garage_scenario import P2_UPGRADES, garage_car, garage_state, to_turn, two_cars
from scenario import kinds

from heatcore import IllegalAction, MalformedInput
from heatcore.framework.registry import spec_dir
from heatcore.heat.actions import (
    ChooseSpeed,
    Cooldown,
    DeclineSlipstream,
    Discard,
    EndReact,
    Shuffle,
    Slipstream,
    UseSymbol,
)
from heatcore.heat.cards import canonical
from heatcore.heat.engine import apply, legal_actions
from heatcore.heat.modules.garage import symbols as sy
from heatcore.heat.modules.garage.data import box, card_upgrades, symbols, upgrades
from heatcore.heat.modules.garage.draft import (
    ALL_DECKS,
    BASIC_DECK,
    Market,
    Pick,
    apply_draft,
    draft_actions,
    pick_order,
    quick_start,
    run_draft,
    start_draft,
)
from heatcore.heat.modules.weather import weather_tokens
from heatcore.heat.notation import (
    parse_action,
    setup_from_dict,
    setup_to_dict,
    state_from_json,
    state_to_json,
)
from heatcore.heat.rulings import make_rulings
from heatcore.heat.setup import random_setup, start_race
from heatcore.heat.state import Conditions, RaceState, Stage
from heatcore.heat.validity import status

P1_UPS = ("G8", "G11", "G34")
P2_UPS = P2_UPGRADES


def step(state, action):
    """Apply and check validity."""
    state, events = apply(state, action)
    assert not status(state), status(state)
    return state, list(events)


# ---------------------------------------------------------------- data


@pytest.mark.rules("garage.decks")
def test_the_box_holds_17_basic_and_31_advanced_types_two_copies_each() -> None:
    ups = upgrades()
    assert sum(u.deck == "basic" for u in ups.values()) == 17
    assert sum(u.deck == "advanced" for u in ups.values()) == 31
    assert len(box(BASIC_DECK)) == 34 and len(box(ALL_DECKS)) == 96
    assert [u.type for u in ups.values()] == list(range(1, 49))
    used = {s for u in ups.values() for s, _ in u.symbols}
    assert used == set(symbols()), "every symbol of the vocabulary is on a card, and no other"


@pytest.mark.rules("garage.decks")
def test_the_data_file_follows_its_schema_and_says_it_is_unchecked() -> None:
    data = json.loads((spec_dir() / "modules" / "garage.json").read_text(encoding="utf-8"))
    schema = json.loads((spec_dir() / "schemas" / "garage.schema.json").read_text(
        encoding="utf-8"))
    jsonschema.validate(data, schema)
    assert "NOT checked against the printed cards" in data["source"]
    broken = json.loads(json.dumps(data))
    broken["cards"][0]["symbols"].append({"symbol": "teleport", "amount": 1})
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(broken, schema)


@pytest.mark.rules("garage.module", "ruling.garage-heat-card")
def test_setup_takes_out_the_starting_upgrades_and_shuffles_in_three_upgrades() -> None:
    setup = random_setup("usa", 3, random.Random(5), modules=("garage",))
    state, _ = start_race(setup)
    for index, ups in enumerate(setup.upgrades):
        car = state.cars[index]
        every = Counter(car.hand + car.deck)
        assert every["U0"] == every["U5"] == 0
        assert every["H"] == sum(u in ("G17", "G48") for u in ups)
        for up in ups:
            if up not in ("G17", "G48"):
                assert every[up] >= 1
        assert car.engine == 6
    with pytest.raises(MalformedInput) as bad:
        start_race(replace(setup, upgrades=setup.upgrades[:2]))
    assert bad.value.rule == "garage.module"
    with pytest.raises(MalformedInput) as bad:
        start_race(replace(setup, modules=()))
    assert bad.value.rule == "garage.module"
    assert setup_from_dict(json.loads(json.dumps(setup_to_dict(setup)))) == setup


# ---------------------------------------------------------------- reveal


@pytest.mark.rules("garage.choose-speed")
def test_a_brakes_card_is_worth_the_speed_chosen_at_reveal() -> None:
    state, _ = to_turn(two_cars(P1_UPS, "1 2 3 G8 G11 G34 S"), 2, "1 G8")
    assert state.turn is not None and state.turn.stage is Stage.CHOOSE
    assert legal_actions(state) == (ChooseSpeed(0, (1,)), ChooseSpeed(0, (3,)))
    with pytest.raises(IllegalAction) as bad:
        apply(state, ChooseSpeed(0, (2,)))
    assert bad.value.rule == "garage.choose-speed"
    after, events = step(state, ChooseSpeed(0, (3,)))
    assert kinds(events, "speed")[0].get("speed") == 4
    assert parse_action(str(ChooseSpeed(0, (3,)))) == ChooseSpeed(0, (3,))


@pytest.mark.rules("upgrade.heat", "garage.mandatory", "garage.symbols-any-order")
def test_a_cards_heat_is_a_mandatory_react_symbol_paid_from_the_engine() -> None:
    state, _ = to_turn(two_cars(P1_UPS, "1 2 3 G8 G11 G34 S", engine=3), 1, "G11")
    car = state.cars[0]
    assert car.engine == 3 and car.position == 26  # the move comes first (speed 6)
    assert state.turn is not None and state.turn.stage is Stage.REACT
    heat = UseSymbol(0, "G11", "heat")
    assert heat in legal_actions(state) and EndReact(0) not in legal_actions(state)
    with pytest.raises(IllegalAction) as bad:
        apply(state, EndReact(0))
    assert bad.value.rule == "garage.mandatory"
    after, events = step(state, heat)
    assert after.cars[0].engine == 2 and after.cars[0].discard.count("H") == 4
    assert [e.get("card") for e in kinds(events, "paid-heat")] == ["G11"]
    assert heat not in legal_actions(after) and EndReact(0) in legal_actions(after)


@pytest.mark.rules("upgrade.heat-unpayable", "ruling.garage-unpaid-heat",
                   "ruling.garage-accelerate-count")
def test_an_unpayable_card_is_discarded_in_react_and_replaced_by_a_flip() -> None:
    state = two_cars(P1_UPS, "1 2 3 G8 G11 G34 S", deck_top="S 4", engine=0)
    state, _ = to_turn(state, 1, "G11")
    assert state.cars[0].position == 26
    after, events = step(state, UseSymbol(0, "G11", "heat"))
    car = after.cars[0]
    assert [e.get("card") for e in kinds(events, "upgrade-unpaid")] == ["G11"]
    assert "G11" in car.discard and "G11" not in car.played
    assert car.flipped == ("4",) and "S" in car.discard  # flipped past a non-basic card
    # the car keeps its 6 spaces and the flip adds 4, as for a +
    assert car.position == 30 and after.turn is not None and after.turn.speed == 10
    assert not after.turn.boosted  # the replacement flip is not the gear's boost
    assert after.turn.stage is not Stage.REACT  # nothing left: G11's cooldown left with it


@pytest.mark.rules("upgrade.heat", "garage.symbols-any-order", "upgrade.cooldown")
def test_a_cooldown_resolved_first_makes_a_cards_heat_payable() -> None:
    """Seed 003 5.反應: symbols in any order, so a cooldown before the Heat pays for it."""
    state = two_cars(P1_UPS, "1 2 3 G8 G11 G34 H", deck_top="1", engine=0)
    state, _ = to_turn(state, 1, "G11")  # gear 1: the gear's cooldown 3
    late, _ = step(state, UseSymbol(0, "G11", "heat"))  # Heat first: the engine is empty
    assert "G11" in late.cars[0].discard
    cooled, _ = step(state, Cooldown(0, 1))
    paid, events = step(cooled, UseSymbol(0, "G11", "heat"))
    assert paid.cars[0].engine == 0 and "G11" in paid.cars[0].played
    assert [e.get("card") for e in kinds(events, "paid-heat")] == ["G11"]


@pytest.mark.rules("garage.symbols-any-order", "upgrade.heat")
def test_the_player_chooses_which_cards_heat_to_pay_first() -> None:
    ups = ("G42", "G11", "G34")
    state = two_cars(ups, "1 2 3 G42 G11 G34 S", deck_top="1 1", engine=2)
    state, _ = to_turn(state, 2, "G11 G42")
    heats = [a for a in legal_actions(state) if isinstance(a, UseSymbol) and a.symbol == "heat"]
    assert set(heats) == {UseSymbol(0, "G11", "heat"), UseSymbol(0, "G42", "heat")}
    big, events = step(state, UseSymbol(0, "G42", "heat"))  # the dearer card first
    assert big.cars[0].engine == 0 and "G42" in big.cars[0].played
    small, events = step(big, UseSymbol(0, "G11", "heat"))
    assert [e.get("card") for e in kinds(events, "upgrade-unpaid")] == ["G11"]
    cheap, _ = step(state, UseSymbol(0, "G11", "heat"))  # or the cheaper card first
    cheap, events = step(cheap, UseSymbol(0, "G42", "heat"))
    assert [e.get("card") for e in kinds(events, "upgrade-unpaid")] == ["G42"]


@pytest.mark.rules("upgrade.boost", "ruling.garage-plus-at-reveal")
def test_each_plus_on_a_played_upgrade_flips_for_a_basic_card_at_reveal() -> None:
    ups = ("G2", "G11", "G34")
    state = two_cars(ups, "1 2 3 G2 G11 G34 S", deck_top="3 S 2 4")
    after, events = to_turn(state, 1, "G2")
    assert [e.get("card") for e in kinds(events, "flipped")] == ["3", "S", "2", "4"]
    assert after.cars[0].flipped == ("3", "2", "4") and after.turn is not None
    assert after.turn.speed == 9 and after.turn.stage is Stage.REACT


# ---------------------------------------------------------------- react


@pytest.mark.rules("upgrade.cooldown", "garage.symbols-any-order")
def test_cooldown_moves_up_to_n_heat_from_hand_to_engine_once_per_card() -> None:
    ups = ("G12", "G11", "G34")
    state, _ = to_turn(two_cars(ups, "1 2 3 G12 H H S", engine=4, gear=2), 3, "G12 1 2")
    options = [a for a in legal_actions(state) if isinstance(a, UseSymbol)]
    assert options == [UseSymbol(0, "G12", "cooldown", 1), UseSymbol(0, "G12", "cooldown", 2)]
    after, _ = step(state, UseSymbol(0, "G12", "cooldown", 2))
    assert after.cars[0].engine == 6 and "H" not in after.cars[0].hand
    assert not any(isinstance(a, UseSymbol) for a in legal_actions(after))
    with pytest.raises(IllegalAction) as bad:
        apply(after, UseSymbol(0, "G12", "cooldown", 1))
    assert bad.value.rule == "upgrade.cooldown"


@pytest.mark.rules("upgrade.reduce")
def test_reduce_stress_discards_up_to_n_stress_from_hand() -> None:
    ups = ("G4", "G11", "G34")
    state, _ = to_turn(two_cars(ups, "1 2 G4 S S S H"), 1, "G4")
    assert UseSymbol(0, "G4", "reduce", 2) in legal_actions(state)
    assert UseSymbol(0, "G4", "reduce", 3) not in legal_actions(state)
    after, events = step(state, UseSymbol(0, "G4", "reduce", 2))
    assert after.cars[0].hand.count("S") == 1 and after.cars[0].discard.count("S") == 2
    assert kinds(events, "reduced-stress")[0].get("amount") == 2


@pytest.mark.rules("upgrade.scrap", "garage.mandatory")
def test_scrap_is_mandatory_and_moves_the_top_cards_to_the_discard_pile() -> None:
    ups = ("G21", "G11", "G34")
    state, _ = to_turn(two_cars(ups, "1 2 3 G21 G11 G34 S", deck_top="4 S 1"), 1, "G21")
    assert EndReact(0) not in legal_actions(state)
    with pytest.raises(IllegalAction) as bad:
        apply(state, EndReact(0))
    assert bad.value.rule == "garage.mandatory"
    after, events = step(state, UseSymbol(0, "G21", "scrap"))
    assert kinds(events, "scrapped")[0].get("cards") == ("4", "S")
    assert after.cars[0].deck[0] == "1"


@pytest.mark.rules("upgrade.scrap", "ruling.garage-scrap-empty")
def test_scrap_from_a_short_deck_moves_what_is_there_without_reshuffling() -> None:
    ups = ("G43", "G11", "G34")
    state, _ = to_turn(two_cars(ups, "1 2 3 G43 G11 G34 S", engine=6), 1, "G43")
    car = state.cars[0]
    short = state.with_car(0, replace(car, deck=car.deck[:2],
                                      discard=canonical(car.discard + car.deck[2:])))
    after, events = step(short, UseSymbol(0, "G43", "scrap"))
    assert len(kinds(events, "scrapped")[0].get("cards")) == 2
    assert after.cars[0].deck == () and after.shuffle is None


@pytest.mark.rules("upgrade.salvage", "ruling.garage-salvage-few")
def test_salvage_takes_cards_from_the_discard_pile_into_a_reshuffled_deck() -> None:
    ups = ("G22", "G11", "G34")
    state, _ = to_turn(two_cars(ups, "1 2 3 G22 G11 G34 S", discard="4 S"), 1, "G22")
    options = [a for a in legal_actions(state) if isinstance(a, UseSymbol)]
    assert UseSymbol(0, "G22", "salvage", 0, ("4", "S")) in options
    assert all(len(a.cards) <= 2 for a in options)
    after, events = step(state, UseSymbol(0, "G22", "salvage", 0, ("4",)))
    assert after.is_chance() and after.shuffle == 0 and after.garage is not None
    deck = after.cars[0].deck
    with pytest.raises(IllegalAction) as bad:
        apply(after, Shuffle(0, deck + after.cars[0].discard))
    assert bad.value.rule == "upgrade.salvage"
    with pytest.raises(IllegalAction) as short:  # a card of the deck left out
        apply(after, Shuffle(0, deck[1:]))
    assert short.value.rule == "upgrade.salvage"
    shuffled, _ = step(after, Shuffle(0, tuple(reversed(deck))))
    assert shuffled.cars[0].deck == tuple(reversed(deck)) and "4" not in shuffled.cars[0].discard
    assert parse_action(str(UseSymbol(0, "G22", "salvage", 0, ("4", "S")))) == UseSymbol(
        0, "G22", "salvage", 0, ("4", "S"))


@pytest.mark.rules("upgrade.refresh", "ruling.garage-refresh-order")
def test_a_refreshed_card_goes_on_top_of_the_deck_at_the_end_of_the_turn() -> None:
    ups = ("G34", "G11", "G8")
    state, _ = to_turn(two_cars(ups, "1 2 3 G34 G11 G8 S"), 1, "G34")
    after, _ = step(state, UseSymbol(0, "G34", "refresh"))
    while after.turn is not None and after.turn.car == 0 and not after.is_chance():
        after, _ = step(after, legal_actions(after)[-1 if after.turn.stage is
                                                     Stage.SLIPSTREAM else 0])
    car = after.cars[0]
    assert "G34" in car.hand and "G34" not in car.discard  # drawn straight back


@pytest.mark.rules("upgrade.direct")
def test_a_direct_card_is_played_from_the_hand_during_react() -> None:
    ups = ("G26", "G11", "G34")
    state, _ = to_turn(two_cars(ups, "1 2 3 G26 G11 G34 S"), 1, "1")
    assert UseSymbol(0, "G26", "direct") in legal_actions(state)
    start = state.cars[0].position
    after, events = step(state, UseSymbol(0, "G26", "direct"))
    assert after.cars[0].position == start + 3 and "G26" in after.cars[0].played
    assert after.turn is not None and after.turn.speed == 4
    assert UseSymbol(0, "G26", "scrap") in legal_actions(after)  # its symbols join in
    assert EndReact(0) not in legal_actions(after)


@pytest.mark.rules("upgrade.accelerate", "upgrade.speed-increase",
                   "ruling.garage-accelerate-count")
def test_accelerate_adds_n_per_speed_increase_at_the_moment_it_is_used() -> None:
    ups = ("G47", "G11", "G34")
    state = two_cars(ups, "1 2 3 G47 G11 G34 S", deck_top="2 3 4 4", engine=6)
    state, _ = to_turn(state, 2, "G47 S")
    assert state.turn is not None and state.turn.speed == 5  # 0 + flips 2 and 3
    assert sy.speed_increases(state.cars[0].played, False) == 2
    before = state.cars[0].position
    after, events = step(state, UseSymbol(0, "G47", "accelerate"))
    assert after.turn is not None and after.turn.speed == 7
    assert after.cars[0].position == before + 2
    assert sy.accelerate(1, 3) == 3 and sy.accelerate(2, 0) == 0


@pytest.mark.rules("upgrade.slipstream")
def test_slipstream_plus_n_offers_the_extra_spaces() -> None:
    ups = ("G14", "G11", "G34")
    p1 = garage_car(22, ups, hand="1 2 3 G14 G11 G34 S")
    p2 = garage_car(23, P2_UPS, hand="1 1 1 2 2 2 3")
    state = garage_state([(p1, ups), (p2, P2_UPS)])
    # P2 (ahead) moves 1 first; P1 then plays G14 (speed 1) and lands right behind P2
    while not (state.turn is not None and state.turn.car == 0
               and state.turn.stage is Stage.SLIPSTREAM):
        legal = legal_actions(state)
        if state.turn is None:
            action = next(a for a in legal if a.car != 0 or "G14" in str(a))
            action = next((a for a in legal if a.car == 0 and str(a).endswith("play G14")),
                          action)
        else:
            action = next((a for a in legal if isinstance(a, EndReact)), legal[-1])
        state, _ = step(state, action)
    offered = [a for a in legal_actions(state) if isinstance(a, Slipstream)]
    assert offered == [Slipstream(0, 0), Slipstream(0, 2)]
    after, _ = step(state, Slipstream(0, 2))
    assert after.cars[0].position >= state.cars[0].position + 3


@pytest.mark.rules("upgrade.adjust", "ruling.garage-adjust")
def test_adjust_changes_the_corner_limit_for_this_turn() -> None:
    assert sy.adjusted_limit(3, 2) == 5 and sy.adjusted_limit(1, -3) == 0
    ups = ("G46", "G11", "G34")
    # corner 1 of USA: limit 7 after space 12; G46 is speed 6, Heat 2, Adjust +3
    state = two_cars(ups, "1 2 3 4 G46 G11 S", position=8, engine=6)
    after, events = to_turn(state, 2, "4 G46")
    after, more = step(after, UseSymbol(0, "G46", "heat"))  # mandatory before React ends
    events += more
    while after.turn is not None and after.turn.stage is Stage.REACT:
        after, more = step(after, EndReact(0))
        events += more
    corner = kinds(events, "corner")[0]
    assert corner.get("limit") == 10 and corner.get("speed") == 10 and corner.get("heat") == 0


# ---------------------------------------------------------------- draft


@pytest.mark.rules("draft.market", "draft.order")
def test_the_draft_has_three_rounds_last_first_last_with_players_plus_three_cards() -> None:
    draft = start_draft((2, 0, 1), 3)
    assert draft.is_chance() and draft_actions(draft) == ()
    assert pick_order(draft) == (1, 0, 2)
    with pytest.raises(IllegalAction) as bad:
        apply_draft(draft, Market(("G1", "G2")))
    assert bad.value.rule == "draft.market"
    market = Market(("G1", "G1", "G2", "G3", "G4", "G5"))
    draft = apply_draft(draft, market)
    assert [a.car for a in draft_actions(draft)] == [1] * 5
    with pytest.raises(IllegalAction):
        apply_draft(draft, Pick(0, "G1"))
    final, log = run_draft(draft, random.Random(3))
    assert final.is_over() and all(len(p) == 3 for p in final.picks)
    assert sum(isinstance(a, Market) for a in log) == 2
    every = Counter(final.pool) + Counter(final.returned) + Counter(
        c for p in final.picks for c in p)
    assert every == Counter(box(ALL_DECKS))  # every upgrade card accounted for
    assert pick_order(replace(final, round=1)) == (2, 0, 1)


@pytest.mark.rules("draft.quick-start", "ruling.garage-draft-pool")
def test_the_quick_start_deals_three_basic_upgrades_each() -> None:
    dealt = quick_start(6, random.Random(2))
    assert len(dealt) == 6 and all(len(d) == 3 for d in dealt)
    assert all(upgrades()[c].deck == "basic" for d in dealt for c in d)
    assert not Counter(c for d in dealt for c in d) - Counter(box(BASIC_DECK))
    basic_draft, _ = run_draft(start_draft((0, 1), 2, BASIC_DECK), random.Random(1))
    assert all(upgrades()[c].deck == "basic" for p in basic_draft.picks for c in p)


# ---------------------------------------------------------------- bad input


@pytest.mark.rules("garage.symbols-any-order", "garage.module", "garage.decks")
def test_bad_garage_input_is_refused_with_a_typed_error_naming_the_rule() -> None:
    with pytest.raises(MalformedInput) as bad:
        parse_action("P1 G12 teleport 2")
    assert bad.value.rule == "garage.symbols-any-order"
    with pytest.raises(MalformedInput):
        parse_action("P1 G12 cooldown two")
    setup = random_setup("usa", 2, random.Random(3), modules=("garage",))
    with pytest.raises(MalformedInput) as bad:
        start_race(replace(setup, upgrades=(("G1", "G1", "G1"), setup.upgrades[1])))
    assert bad.value.rule == "garage.decks"
    state, _ = start_race(setup)
    data = json.loads(state_to_json(state))
    data["garage"]["used"] = ["G12 fly"]
    with pytest.raises(MalformedInput) as bad:
        state_from_json(json.dumps(data))
    assert bad.value.rule == "garage.symbols-any-order"
    data = json.loads(state_to_json(state))
    del data["garage"]
    with pytest.raises(MalformedInput) as bad:
        state_from_json(json.dumps(data))
    turn_state, _ = to_turn(two_cars(("G12", "G11", "G34"), "1 2 3 G12 H H S", engine=4,
                                     gear=2), 3, "G12 1 2")
    before = state_to_json(turn_state)
    with pytest.raises(IllegalAction) as illegal:
        apply(turn_state, UseSymbol(0, "G12", "cooldown", 3))
    assert illegal.value.rule == "upgrade.cooldown" and state_to_json(turn_state) == before
    with pytest.raises(IllegalAction) as illegal:
        apply(turn_state, UseSymbol(0, "G11", "cooldown", 1))  # not in play
    assert state_to_json(turn_state) == before


@pytest.mark.rules("discard.optional", "garage.module")
def test_a_discard_listing_upgrades_out_of_canonical_order_is_refused() -> None:
    """G3 and G10 in hand: the canonical order is G3 G10 (by number); listed G10 G3 (which
    sorts first as text) is refused naming the rule, the state unchanged."""
    from heatcore.heat.actions import Discard

    state, _ = to_turn(two_cars(("G3", "G10"), hand="G3 G10 1 1 2 2 3"), 1, "1")
    while state.turn is not None and state.turn.stage is not Stage.DISCARD:
        state, _ = apply(state, legal_actions(state)[-1])
    assert state.turn is not None and state.turn.car == 0
    assert Discard(0, ("G3", "G10")) in legal_actions(state)
    with pytest.raises(IllegalAction) as refused:
        apply(state, Discard(0, ("G10", "G3")))
    assert refused.value.rule == "discard.optional"


@pytest.mark.rules("garage.choose-speed", "upgrade.direct")
def test_no_rule_reads_the_table_value_of_a_card_with_several_speeds() -> None:
    """``heatcore.heat.cards.VALUE`` keeps one speed per upgrade (the first of several). Its rule
    readers are the Garage reveal, which takes a choose-speed card's speed from the choice,
    and Direct play (``VALUE[card]``), printed on no card with several speeds: so the table
    value of such a card moves no car (benchmarks/mutation/equivalent.toml, cards.py:31)."""
    several = [t for t, u in card_upgrades().items() if len(u.speeds) > 1]
    assert several == ["G7", "G8", "G9", "G10", "G31"]
    assert all(sy.chooses_speed(t) and not sy.has(t, "direct") for t in several)


def _garage_in_the_sun(choice: str) -> RaceState:
    """Weather and Garage: P1 moves 1 from 36 to 37, just behind P2 (moved 1 to 38), in the
    sun sector of the second road tile (slipstream +2); no upgrade card in play."""
    road = ("limit-plus", "weather", "overheat", "overheat")
    p1 = garage_car(36, (), hand="1 1 1 2 2 2 3")
    p2 = garage_car(37, (), hand="1 1 1 2 2 2 3")
    state = garage_state([(p1, ()), (p2, ())])
    extra = weather_tokens()["sun"].heat_in_engine
    state = replace(state, modules=("weather", "garage"), conditions=Conditions("sun", road),
                    cars=tuple(replace(c, engine=c.engine + extra) for c in state.cars),
                    rulings=make_rulings({"ruling.slipstream-bonus-all-or-nothing": choice}))
    while not (state.turn is not None and state.turn.car == 0
               and state.turn.stage is Stage.SLIPSTREAM):
        legal = legal_actions(state)
        action = next((a for a in legal if str(a).endswith("gear 1 play 1")
                       or isinstance(a, EndReact | DeclineSlipstream)
                       or (isinstance(a, Discard) and not a.cards)), legal[0])
        state, _ = step(state, action)
    return state


@pytest.mark.rules("ruling.slipstream-bonus-all-or-nothing", "upgrade.slipstream",
                   "weather.slipstream-boost")
def test_with_the_garage_any_part_offers_each_part_of_the_sector_bonus() -> None:
    state = _garage_in_the_sun("any-part")
    assert state.cars[0].position == 37 and state.cars[1].position == 38
    offered = [a for a in legal_actions(state) if isinstance(a, Slipstream)]
    assert offered == [Slipstream(0, 0), Slipstream(0, 1), Slipstream(0, 2)]
    after, _ = step(state, Slipstream(0, 1))
    assert after.cars[0].position == 40
    # the default takes the sector's bonus whole or not at all
    whole = _garage_in_the_sun("all-or-nothing")
    assert [a for a in legal_actions(whole) if isinstance(a, Slipstream)] == [
        Slipstream(0, 0), Slipstream(0, 2)]
    with pytest.raises(IllegalAction) as refused:
        apply(whole, Slipstream(0, 1))
    assert refused.value.rule == "upgrade.slipstream"

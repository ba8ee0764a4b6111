"""The fast engine (``heatcore.heat.fast``) against the reference engine: same legal actions in
the same order, same states, same errors, on whole races, on every action at sampled
states, on Hypothesis-made states and on the whole conformance fixture corpus."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from heatcore.framework.conformance.fixtures import load_cases
from heatcore.framework.errors import IllegalAction, UnsupportedModule
from heatcore.heat import strategies as hs
from heatcore.heat.actions import Action, Cooldown, Discard, EndReact, Plan, Shuffle
from heatcore.heat.conformance.corpus import fixtures_dir
from heatcore.heat.driver import play, random_policy, random_race, random_shuffle
from heatcore.heat.engine import apply, legal_actions
from heatcore.heat.fast import FastRace, fast_random_race
from heatcore.heat.fast import tables as fast_tables
from heatcore.heat.fast.compiled import is_compiled, pure
from heatcore.heat.notation import parse_action, state_from_dict, state_to_dict, state_to_json
from heatcore.heat.rulings import DEFAULT_RULINGS, Rulings, make_rulings, switches
from heatcore.heat.setup import random_setup, start_race
from heatcore.heat.state import RaceState
from heatcore.heat.track import track_ids
from heatcore.heat.validity import validate

PLAYER_COUNTS = (2, 3, 4, 5, 6)


def _states_of_races(seeds: range, laps: int | None = 1) -> list[RaceState]:
    """Every state (before each input) of random races on each track and car count."""
    states: list[RaceState] = []
    for seed in seeds:
        track = track_ids()[seed % len(track_ids())]
        players = PLAYER_COUNTS[seed % len(PLAYER_COUNTS)]
        rng = random.Random(seed)
        play(random_setup(track, players, rng, laps), random_policy, rng,
             on_step=lambda before, action, after, events: states.append(before))
    return states


@pytest.mark.parametrize("track", track_ids())
@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_random_races_are_the_reference_races(track: str, players: int) -> None:
    for seed in range(2):
        reference = random_race(track, players, seed)
        fast = fast_random_race(track, players, seed)
        assert fast.actions == reference.actions
        assert fast.final.to_state() == reference.final


def test_every_step_of_a_race_matches_in_lockstep() -> None:
    for seed in range(10):
        _lockstep(seed)


def _alternatives() -> list[tuple[str, str]]:
    return [(r, c) for r, choices in switches().items() for c in choices[1:]]


@pytest.mark.parametrize(("ruling", "choice"), _alternatives())
def test_races_under_each_ruling_alternative_match_in_lockstep(ruling: str, choice: str) -> None:
    for seed in range(4):
        _lockstep(seed, make_rulings({ruling: choice}))


def test_races_under_every_alternative_at_once_match_in_lockstep() -> None:
    every = make_rulings(dict(_alternatives()))
    for seed in range(6):
        _lockstep(seed, every)


def _lockstep(seed: int, rulings: Rulings = DEFAULT_RULINGS) -> None:
    """One random race on both engines, compared at every step."""
    if True:
        track = track_ids()[seed % 4]
        rng = random.Random(seed)
        state, _ = start_race(random_setup(track, 2 + seed % 5, rng, 1, rulings=rulings))
        fast = FastRace(state)
        while not state.is_over():
            assert fast.to_state() == state
            assert fast.legal_actions() == legal_actions(state)
            if state.is_chance():
                action: Action = random_shuffle(state, rng)
            else:
                legal = legal_actions(state)
                action = legal[rng.randrange(len(legal))]
            state, _ = apply(state, action)
            fast.apply(action)
        assert fast.to_state() == state
        assert fast.is_over()


def test_every_legal_action_at_sampled_states_gives_the_reference_state() -> None:
    states = _states_of_races(range(20))[::7]
    assert len(states) > 300
    for state in states:
        assert FastRace.from_state(state).to_state() == state
        if state.is_chance():
            rng = random.Random(len(states))
            options: tuple[Action, ...] = (random_shuffle(state, rng), random_shuffle(state, rng))
        else:
            options = legal_actions(state)
        for action in options:
            fast = FastRace.from_state(state)
            fast.apply(action)
            assert fast.to_state() == apply(state, action)[0], (state, action)


@given(data=st.data(), state=hs.race_states(max_steps=200))
def test_hypothesis_states_step_alike(data: st.DataObject, state: RaceState) -> None:
    fast = FastRace.from_state(state)
    assert fast.legal_actions() == legal_actions(state)
    if state.is_over():
        return
    action = data.draw(hs.next_actions(state))
    fast.apply(action)
    assert fast.to_state() == apply(state, action)[0]


@given(data=st.data(), state=hs.race_states(max_steps=150))
def test_illegal_actions_raise_the_reference_error_and_change_nothing(
        data: st.DataObject, state: RaceState) -> None:
    if state.is_over():
        return
    action = data.draw(hs.illegal_actions(state))
    fast = FastRace.from_state(state)
    fast.legal_actions()
    with pytest.raises(IllegalAction) as reference:
        apply(state, action)
    with pytest.raises(IllegalAction) as caught:
        fast.apply(action)
    assert (caught.value.rule, caught.value.detail) == (reference.value.rule,
                                                        reference.value.detail)
    assert fast.to_state() == state
    assert fast.legal_actions() == legal_actions(state)


def test_typical_illegal_actions_name_their_rules() -> None:
    race = FastRace.from_state(_states_of_races(range(1))[0])
    before = state_to_json(race.to_state())
    plan = race.legal_actions()[0]
    assert isinstance(plan, Plan)
    cases: dict[Action, str] = {
        Plan(plan.car, 5, plan.cards): "gear.range",
        Plan(plan.car, plan.gear, plan.cards + plan.cards): "play.playable-cards",
        Plan((plan.car + 1) % len(race.cars), plan.gear, plan.cards):
            "order.fixed-at-round-start",
        Cooldown(plan.car, 1): "round.sequence",
        EndReact(plan.car): "round.sequence",
        Shuffle(plan.car, ()): "deck.reshuffle",
    }
    for action, rule in cases.items():
        with pytest.raises(IllegalAction) as caught:
            race.apply(action)
        assert caught.value.rule == rule, action
        assert state_to_json(race.to_state()) == before


def test_copies_are_independent() -> None:
    race = FastRace.start(random_setup("usa", 4, random.Random(3)))
    copy = race.copy()
    copy.apply(copy.legal_actions()[0])
    assert copy.to_state() != race.to_state()
    assert race.to_state() == FastRace.start(random_setup("usa", 4, random.Random(3))).to_state()


def test_the_fixture_corpus_passes_on_states_and_errors() -> None:
    """Every conformance case: its legal actions, its rejection (kind and rule) and the
    state after each step (the fast engine records no events)."""
    cases = load_cases(fixtures_dir())
    assert len(cases) > 400
    for case in cases:
        state = validate(state_from_dict(case["state"]))
        if "garage" in state.modules:  # the fast engine refuses the Garage
            with pytest.raises(UnsupportedModule, match="garage"):
                FastRace.from_state(state)
            continue
        race = FastRace.from_state(state)
        expect = case["expect"]
        if "legal" in expect:
            assert sorted(map(str, race.legal_actions())) == sorted(expect["legal"]), case["id"]
        elif "rejection" in expect:
            rejection = expect["rejection"]
            with pytest.raises(IllegalAction) as caught:
                race.apply(parse_action(rejection["action"]))
            assert caught.value.kind == rejection["kind"], case["id"]
            if "rule" in rejection:
                assert caught.value.rule == rejection["rule"], case["id"]
            assert race.to_state() == state
        else:
            for step in expect["steps"]:
                race.apply(parse_action(step["action"]))
                assert state_to_dict(race.to_state()) == step["state"], case["id"]


def test_a_broken_fast_engine_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Negative control: a fast engine whose cooldown takes one Heat too few differs from
    the reference within a few races (on the pure build: a compiled class cannot be
    patched)."""
    race_module, driver_module = pure()
    real = race_module.FastRace._cool

    def cool_less(self: FastRace, amount: int) -> None:
        real(self, amount - 1 if amount > 1 else amount)

    monkeypatch.setattr(race_module.FastRace, "_cool", cool_less)
    differs = [seed for seed in range(10)
               if driver_module.fast_random_race("usa", 4, seed).actions
               != random_race("usa", 4, seed).actions]
    assert differs


@pytest.mark.parametrize("players", (2, 6))
def test_the_pure_build_plays_the_reference_races(players: int) -> None:
    """The pure Python build (``HEATCORE_FAST=pure``, or no compiler at install) plays the
    reference races too, whichever build this process runs."""
    _, driver_module = pure()
    for seed in range(2):
        reference = random_race("usa", players, seed)
        race = driver_module.fast_random_race("usa", players, seed)
        assert race.actions == reference.actions
        assert race.final.to_state() == reference.final


def test_the_compiled_build_runs_where_it_is_required() -> None:
    """Under ``HEATCORE_FAST_REQUIRE=compiled`` (.ci/run sets it) the compiled build must be
    what runs: a build that failed or went stale falls back to pure Python silently, and
    the differential tests above would then not cover the compiled engine."""
    import heatcore.heat.fast.driver
    import heatcore.heat.fast.race

    running = [is_compiled(heatcore.heat.fast.race), is_compiled(heatcore.heat.fast.driver)]
    if os.environ.get("HEATCORE_FAST_REQUIRE") == "compiled":
        assert heatcore.heat.fast.BUILD == "compiled", heatcore.heat.fast.BUILD
        assert running == [True, True]
    else:
        assert running == [heatcore.heat.fast.BUILD == "compiled"] * 2


def test_tables_are_bounded() -> None:
    """More hands than HAND_TABLE_SIZE empty the tables instead of growing them; a table
    made again lists the same actions."""
    hand = ("1", "1", "2", "3", "4", "H", "S")
    before = fast_tables.plan_actions(0, 2, True, hand)
    for n in range(fast_tables.HAND_TABLE_SIZE + 1):
        fast_tables.hand_tables((str(n),))
        assert fast_tables.hand_count() <= fast_tables.HAND_TABLE_SIZE
    assert fast_tables.hand_count() < fast_tables.HAND_TABLE_SIZE
    assert fast_tables.plan_actions(0, 2, True, hand) == before


def test_tables_hold_each_cars_actions() -> None:
    """A car's table lists its own actions (never another car's); equal actions of a car
    are one object in every table; react tables differ by every option."""
    hand = ("1", "2", "2", "3", "4", "H", "H")
    for car in range(6):
        plans = fast_tables.plan_actions(car, 2, True, hand)
        assert {p.car for p in plans} == {car}
        assert [(p.gear, p.cards) for p in plans] == list(fast_tables.plans(2, True, hand))
        discards = fast_tables.discard_actions(car, hand)
        assert {d.car for d in discards} == {car}
        assert [d.cards for d in discards] == list(fast_tables.discards(hand))
    shared = fast_tables.plan_actions(1, 2, True, hand)[3]
    other_hand = ("1", "2", "2", "3", "4", "4", "H")
    assert any(p is shared for p in fast_tables.plan_actions(1, 2, True, other_hand))
    assert fast_tables.plan_actions(1, 2, False, hand) != fast_tables.plan_actions(1, 2, True,
                                                                                   hand)
    options = [(c, a, m, b) for c in range(3) for a in (False, True) for m in (False, True)
               for b in (False, True)]
    tables = {fast_tables.react_actions(4, *option) for option in options}
    assert len(tables) == len(options)


def test_every_table_slot_holds_its_own_situation() -> None:
    """The tables are looked up by slot numbers made of car, gear, shift payment, ruling
    and react options: every combination, asked for in one process, gets the actions made
    afresh for it (two situations sharing a slot would get one table)."""
    hands = [("1", "1", "2", "3", "4", "H", "S"), ("1", "2", "3", "H", "H", "H", "S"),
             ("2", "2", "2", "3", "4", "4", "S")]
    for hand in hands:
        for car in range(6):
            for gear in range(1, 5):
                for pay in (False, True):
                    for clutter in (False, True):
                        fresh = tuple(Plan(car, g, cards) for g, cards
                                      in fast_tables.plans(gear, pay, hand, clutter))
                        assert fast_tables.plan_actions(car, gear, pay, hand, clutter) == fresh
            assert fast_tables.discard_actions(car, hand) == tuple(
                Discard(car, cards) for cards in fast_tables.discards(hand))
    options = [(c, a, m, b) for c in range(4) for a in (False, True) for m in (False, True)
               for b in (False, True)]
    for car in range(6):
        for option in options:
            assert fast_tables.react_actions(car, *option) == fast_tables._react_table(
                car, *option)


def test_cards_added_to_a_hand_come_in_canonical_order() -> None:
    """with_cards (the draw and a spin's Stress) equals heatcore.heat.cards.canonical of the
    hand and the cards, found afresh or looked up."""
    from heatcore.heat.cards import KNOWN_CARDS, canonical

    rng = random.Random(5)
    kinds = ("1", "2", "3", "4", "H", "S", "U0", "U5", *KNOWN_CARDS[8:12])
    for _ in range(400):
        hand = canonical(rng.choices(kinds, k=rng.randrange(0, 8)))
        drawn = rng.choices(kinds, k=rng.randrange(0, 5))
        expected = canonical((*hand, *drawn))
        assert fast_tables.with_cards(hand, drawn) == expected
        assert fast_tables.with_cards(hand, tuple(drawn)) == expected  # the second time


def test_a_batch_of_races_leaves_nothing_for_the_cycle_collector() -> None:
    """CollectorPaused rests on this: fast races, with modules and Legends or not, and
    their observation for ``race --count``, make no reference cycles (the collector finds
    nothing after a batch played without it)."""
    import gc

    from heatcore.heat.fast import CollectorPaused
    from heatcore.tools.heat.outcomes import observe_race

    def batch(first: int) -> None:
        for seed in range(first, first + 12):
            fast_random_race(track_ids()[seed % 4], PLAYER_COUNTS[seed % 5], seed)
        fast_random_race("usa", 4, first, modules=("weather", "legends"), legends=1)
        observe_race("italia", 3, first, 1, ("random", "greedy", "random"))  # race --count

    batch(0)  # first use: imports and data files load (their objects live on anyway)
    gc.collect()
    with CollectorPaused():
        assert not gc.isenabled()
        batch(100)
        found = gc.collect()
    assert gc.isenabled()
    assert found == 0
    with CollectorPaused(False):  # a batch on the reference engine: left alone
        assert gc.isenabled()


def test_the_fast_engine_names_its_rules_in_marks(tmp_path: Path) -> None:
    """The compiled modules name their rules in ``# implements:`` lines (a decorator would
    make each call to a method a Python-level call): read into the same registry, by the
    same qualified names, in either build."""
    from heatcore.framework.registry import IMPLEMENTATIONS, implements_marked

    assert "heatcore.heat.fast.race.FastRace._flip_once" in IMPLEMENTATIONS["reveal.stress-flip"]
    assert "heatcore.heat.fast.race.FastRace._shift_gears" in IMPLEMENTATIONS[
        "ruling.simultaneous-planning"]  # the second line of a two-line mark
    assert "heatcore.heat.fast.modules.ModuleRace._legend_stays" in IMPLEMENTATIONS[
        "ruling.legend-blocked-spot"]
    source = tmp_path / "marked.py"
    source.write_text("# implements: setup.grid\n"
                      "def first() -> None: ...\n\n\n"
                      "class Car:\n"
                      "    # implements: place.blocked,\n"
                      "    # implements: finish.line\n"
                      "    @staticmethod\n"
                      "    def second() -> None: ...\n\n"
                      "    # implements: setup.hand\n\n"
                      "    def third() -> None: ...\n", encoding="utf-8")
    implements_marked("marked_test_module", source)
    implements_marked("marked_test_module", source)  # once per module
    found = {rule: [n for n in names if n.startswith("marked_test_module.")]
             for rule, names in IMPLEMENTATIONS.items()}
    try:
        assert found["setup.grid"] == ["marked_test_module.first"]
        assert found["place.blocked"] == found["finish.line"] == ["marked_test_module.Car.second"]
        assert found["setup.hand"] == []  # a blank line between: no mark
    finally:
        for names in IMPLEMENTATIONS.values():
            names[:] = [n for n in names if not n.startswith("marked_test_module.")]

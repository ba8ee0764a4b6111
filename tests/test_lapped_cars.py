"""Cars stand on the board's spaces whatever lap they are on (setup.board-space).

Over 1,000 seeded races on all four tracks (2-6 cars, 1-3 laps, random policy, fast engine)
no two cars on the track ever share a spot of the board, and cars a lap apart meet: they
block each other, pass each other and give each other slipstream. The spot check reads
only the cars' positions (position mod the lap length, racing line), not the engine's
occupancy; the counts are printed (``pytest -s``) and must all be above zero.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from scenario import kinds, make_car, make_state, run

from heatcore.framework.conformance.fixtures import load_cases
from heatcore.framework.errors import InvalidState
from heatcore.heat import placement, race_checker
from heatcore.heat.actions import Action, Shuffle, Slipstream
from heatcore.heat.conformance.corpus import fixtures_dir
from heatcore.heat.driver import MAX_ACTIONS, random_policy, random_race
from heatcore.heat.engine import legal_actions
from heatcore.heat.fast import FastCar, FastRace, fast_random_race
from heatcore.heat.fast.compiled import pure
from heatcore.heat.notation import state_from_dict
from heatcore.heat.race_checker import RuleViolation, check_race
from heatcore.heat.setup import random_setup
from heatcore.heat.state import RaceState
from heatcore.heat.track import track_ids
from heatcore.heat.validity import Problem, status, validate

RACES = 1000
PLAYERS = (2, 3, 4, 5, 6)
LAPS = (1, 2, 3)


def race_plan(seed: int) -> tuple[str, int, int]:
    """Track, cars and laps of race ``seed``: every combination recurs every 60 seeds."""
    tracks = track_ids()
    return tracks[seed % len(tracks)], PLAYERS[seed % len(PLAYERS)], LAPS[seed % len(LAPS)]


# The pure build's race and driver: a compiled FastRace cannot be subclassed from Python.
PURE_RACE, PURE_DRIVER = pure()
random_shuffle = PURE_DRIVER.random_shuffle


class WatchedRace(PURE_RACE.FastRace):  # type: ignore[misc,name-defined]
    """A fast race that tallies every meeting of cars a lap apart (or more)."""

    tally: Counter[str]

    def _others(self, car: FastCar) -> list[tuple[int, bool]]:
        return [(c.position, c.racing_line) for i, c in enumerate(self.cars)
                if c is not car and i not in self.ranking]

    def _place(self, car: FastCar, position: int) -> None:
        lap = self.track.spaces_per_lap
        others = self._others(car)
        holders = [q for q, _ in others if q % lap == position % lap]
        if len(holders) == 2 and any(q != position for q in holders):
            self.tally["blocked by a car on another lap"] += 1
        start = car.position
        super()._place(car, position)
        for q, _ in others:
            if q < start and any(start < q + k * lap < car.position for k in range(1, 4)):
                self.tally["passed a lapped car"] += 1

    def slipstream_only_off_another_lap(self) -> bool:
        """The acting car may slipstream, and only cars on other laps give it."""
        me = self.cars[self.car]
        lap = self.track.spaces_per_lap
        givers = [q for q, r in self._others(me)
                  if (q % lap == me.position % lap and r != me.racing_line)
                  or q % lap == (me.position + 1) % lap]
        return bool(givers) and all(q not in (me.position, me.position + 1) for q in givers)


def board_spots_distinct(race: FastRace) -> bool:
    """No two cars on the track share a board spot: (position mod L, racing line)."""
    lap = race.track.spaces_per_lap
    spots = [(c.position % lap, c.racing_line) for i, c in enumerate(race.cars)
             if i not in race.ranking]
    return len(spots) == len(set(spots))


def play_watched(seed: int, tally: Counter[str]) -> None:
    """Play race ``seed`` with the random policy (as ``fast_random_race``), checking the
    board spots after every action."""
    track, players, laps = race_plan(seed)
    rng = random.Random(seed)
    race = WatchedRace.start(random_setup(track, players, rng, laps))
    race.tally = tally
    for step in range(MAX_ACTIONS):
        if race.is_over():
            tally["races"] += 1
            return
        if race.shuffle is not None:
            action: Action = random_shuffle(race, rng)
        else:
            legal = race.legal_actions()
            action = legal[rng.randrange(len(legal))]
            if isinstance(action, Slipstream) and race.slipstream_only_off_another_lap():
                tally["slipstream off a car on another lap"] += 1
        race.apply(action)
        assert board_spots_distinct(race), f"race {seed} ({track}, {players} cars, {laps} laps)" \
            f" step {step}: two cars on one spot of the board after {action}"
    raise AssertionError(f"race {seed} did not end")


@pytest.mark.rules("setup.board-space", "setup.spaces-and-spots", "place.blocked",
                   "move.exact", "slipstream.eligible")
def test_thousand_races_cars_a_lap_apart_meet_on_the_board() -> None:
    tally: Counter[str] = Counter()
    for seed in range(RACES):
        play_watched(seed, tally)
    print(dict(tally))
    assert tally["races"] == RACES
    assert tally["blocked by a car on another lap"] > 0
    assert tally["passed a lapped car"] > 0
    assert tally["slipstream off a car on another lap"] > 0


@pytest.mark.rules("setup.board-space")
def test_races_with_lapped_cars_are_the_reference_races() -> None:
    """The fast engine plays races where cars a lap apart meet exactly as the reference
    engine does (same actions, same final state)."""
    compared: Counter[str] = Counter()
    for seed in range(RACES):
        track, players, laps = race_plan(seed)
        tally: Counter[str] = Counter()
        play_watched(seed, tally)
        if "blocked by a car on another lap" not in tally:
            continue
        reference = random_race(track, players, seed, laps)
        fast = fast_random_race(track, players, seed, laps)
        assert fast.actions == reference.actions
        assert fast.final.to_state() == reference.final
        compared += tally
        if compared["races"] == 4:
            break
    assert compared["races"] == 4
    assert all(compared[k] > 0 for k in ("passed a lapped car", "blocked by a car on another lap",
                                         "slipstream off a car on another lap"))


def test_watched_race_is_the_plain_race() -> None:
    """The tallying subclass changes nothing: it plays the same race as the fast engine."""
    track, players, laps = race_plan(7)
    rng = random.Random(7)
    race = WatchedRace.start(random_setup(track, players, rng, laps))
    race.tally = Counter()
    while not race.is_over():
        if race.shuffle is not None:
            action: Action = random_shuffle(race, rng)
        else:
            legal = race.legal_actions()
            action = legal[rng.randrange(len(legal))]
        assert not isinstance(action, Shuffle) or race.shuffle is not None
        race.apply(action)
    assert race.to_state() == fast_random_race(track, players, 7, laps).final.to_state()


# ---- hand-made situations (reference engine) ----------------------------------------

STILL = "U0 U5 S S S H H"  # a background car with this hand plays U0 and stays put
MOVER = "1 1 2 2 4 4 3"


@pytest.mark.rules("setup.board-space", "place.blocked", "place.racing-line-first")
def test_two_lapped_cars_fill_the_space_and_the_car_stops_behind_them() -> None:
    # USA has 69 spaces: position 72 is space 3 of lap 2, where two lapped cars stand
    state = make_state(make_car(70, gear=1, hand=MOVER), make_car(3, hand=STILL),
                       make_car(3, racing_line=False, hand=STILL))
    after, _ = run(state, "P1 gear 2 play 1 1")
    assert after.cars[0].spot == (71, True)


@pytest.mark.rules("setup.board-space", "move.exact")
def test_a_car_passes_lapped_cars_without_being_blocked() -> None:
    state = make_state(make_car(70, gear=1, hand=MOVER), make_car(3, hand=STILL),
                       make_car(3, racing_line=False, hand=STILL))
    after, _ = run(state, "P1 gear 2 play 2 2")
    assert after.cars[0].spot == (74, True)


@pytest.mark.rules("setup.board-space", "place.racing-line-first")
def test_a_lapped_car_on_the_racing_line_sends_the_car_to_the_other_spot() -> None:
    state = make_state(make_car(70, gear=1, hand=MOVER), make_car(3, hand=STILL))
    after, _ = run(state, "P1 gear 2 play 1 1")
    assert after.cars[0].spot == (72, False)


@pytest.mark.rules("setup.board-space", "finish.removed", "place.racing-line-first")
def test_a_car_past_the_final_line_holds_its_board_spot_until_the_round_ends() -> None:
    # USA, 2 laps: the final line lies after 138. P1 finishes on 141 (board space 3); P2,
    # a lap behind, then stops on space 3 (72): the racing line is P1's, so it takes the
    # other spot, beside P1, which gives it slipstream. At the end of the round P1 is
    # ranked and leaves the board. (P1 discards and draws after the line:
    # ruling.finished-car-discard-draw.)
    state = make_state(make_car(136, gear=1, hand=MOVER), make_car(70, gear=1, hand=MOVER))
    state, _ = run(state, "P1 gear 2 play 1 4", "P2 gear 2 play 1 1", "P1 end react",
                   "P1 discard nothing", "P2 end react")
    assert state.cars[0].position == 141 and state.ranking == ()
    assert state.cars[1].spot == (72, False)
    assert "P2 slipstream" in [str(a) for a in legal_actions(state)]
    after, _ = run(state, "P2 no slipstream", "P2 discard nothing")
    assert after.ranking == (0,) and after.on_track() == (1,)


@pytest.mark.rules("setup.board-space", "slipstream.eligible")
def test_a_lapped_car_one_space_ahead_on_the_board_gives_slipstream() -> None:
    # P1 at 70 moves 8 to 78 (space 9 of lap 2); P2 stands on space 10 of lap 1
    state = make_state(make_car(70, gear=1, hand=MOVER), make_car(10, hand=STILL))
    state, _ = run(state, "P1 gear 2 play 4 4", "P1 end react")
    assert [str(a) for a in legal_actions(state)] == ["P1 slipstream", "P1 no slipstream"]
    after, _ = run(state, "P1 slipstream")
    assert after.cars[0].position == 80


@pytest.mark.rules("setup.board-space", "slipstream.eligible")
def test_a_car_a_lap_ahead_beside_on_the_board_gives_slipstream() -> None:
    # P2 (lap 1) ends on space 8, beside P1 standing on space 8 of lap 2 (position 77)
    state = make_state(make_car(77, hand=STILL), make_car(0, gear=1, hand=MOVER))
    state, _ = run(state, "P2 gear 2 play 4 4", "P2 end react")
    assert state.cars[1].spot == (8, False)
    assert "P2 slipstream" in [str(a) for a in legal_actions(state)]


@pytest.mark.rules("setup.board-space", "corner.spin")
def test_a_spin_lands_behind_lapped_cars_filling_the_space_before_the_line() -> None:
    # Great Britain has 63 spaces; the seed's spin example one lap later: from 88 at
    # speed 8 over the line after space 30 (93 on lap 2), where two lapped cars stand
    state = make_state(make_car(88, gear=2, hand="4 4 1 1 2 2 3", engine=1, track="great-britain"),
                       make_car(30, hand=STILL, track="great-britain"),
                       make_car(30, racing_line=False, hand=STILL, track="great-britain"),
                       track="great-britain")
    after, events = run(state, "P1 gear 2 play 4 4", "P1 end react")
    assert kinds(events, "spun-out")
    assert after.cars[0].spot == (92, True)


@pytest.mark.rules("setup.board-space", "setup.spaces-and-spots")
def test_two_cars_a_lap_apart_on_one_spot_are_an_invalid_state() -> None:
    state = make_state(make_car(72, hand=MOVER), make_car(3, hand=STILL))
    assert Problem.SPOT_OCCUPANCY in status(state)
    with pytest.raises(InvalidState) as err:
        validate(state)
    assert err.value.rule == "setup.board-space"
    assert status(make_state(make_car(72, hand=MOVER), make_car(3, racing_line=False,
                                                                 hand=STILL))) == Problem.NONE


def _unrolled_occupied(state: RaceState, moving: int) -> set[tuple[int, bool]]:
    """Planted bug: occupancy counted over the race, so cars a lap apart never meet."""
    return {car.spot for i, car in enumerate(state.cars)
            if i != moving and i not in state.ranking}


@pytest.mark.rules("setup.board-space")
def test_race_checker_catches_an_engine_where_lapped_cars_never_meet(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The race checker (its own model of the board, with validity switched off) catches
    an engine whose cars stop on a lapped car's spot."""
    seed = next(s for s in range(RACES) if _blocked_by_lapped(s))
    track, players, laps = race_plan(seed)

    def check() -> None:
        rng = random.Random(seed)
        check_race(random_setup(track, players, rng, laps), random_policy, rng)

    check()  # the real rules pass
    monkeypatch.setattr(race_checker, "status", lambda state: Problem.NONE)
    monkeypatch.setattr(placement, "occupied", _unrolled_occupied)
    with pytest.raises(RuleViolation) as err:
        check()
    assert {"place.blocked", "place.racing-line-first", "setup.board-space"} & set(err.value.rules)


def _blocked_by_lapped(seed: int) -> bool:
    tally: Counter[str] = Counter()
    play_watched(seed, tally)
    return tally["blocked by a car on another lap"] > 0


@pytest.mark.rules("setup.board-space", "setup.spaces-and-spots")
def test_every_fixture_starts_from_a_valid_state() -> None:
    """No case of the committed corpus starts with two cars on one spot of the board (the
    miner once exported such states: cars a lap apart on one spot)."""
    cases = load_cases(fixtures_dir())
    assert len(cases) > 100
    for case in cases:
        assert status(state_from_dict(case["state"])) == Problem.NONE, case["id"]

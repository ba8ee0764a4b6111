"""Z3 proofs of the modules (proofs.modules): each holds on every base track, each negative
control is caught, and the encodings agree with the engine on concrete values."""

from __future__ import annotations

import pytest

from heatcore.heat.modules.legends import legend_car
from heatcore.heat.modules.legends import legend_spaces as engine_legend_spaces
from heatcore.heat.state import Conditions, LegendDeck, Phase, RaceState
from heatcore.heat.track import load_track
from proofs import modules
from proofs.track_graph import BASE_TRACKS

NO_STOP_NEEDED = {"usa", "italia"}  # no corner speed + diamond reaches a second line there


@pytest.fixture(scope="module")
def results() -> dict[tuple[str, str, str | None], str]:
    return modules.run()


@pytest.mark.rules("legend.one-corner", "legend.aggressive", "legend.before-line")
def test_a_legend_never_crosses_more_corner_lines_than_it_may(
        results: dict[tuple[str, str, str | None], str]) -> None:
    for track in BASE_TRACKS:
        assert results[("legend-one-corner", track, None)] == "unsat", track
        assert modules.legend_premises_hold(track)
        assert results[("legend-one-corner", track, "legend-helmet-overshoot")] == "sat"
        caught = results[("legend-one-corner", track, "legend-no-stop")] == "sat"
        assert caught == (track not in NO_STOP_NEEDED), track


@pytest.mark.rules("ruling.legend-aggressive-stop", "legend.aggressive")
def test_the_aggressive_stop_ruling_cannot_change_a_legend_move(
        results: dict[tuple[str, str, str | None], str]) -> None:
    """Why ruling.legend-aggressive-stop is not switchable: its two alternatives agree on
    every Legend move of the base tracks; the control (chevrons everywhere, long moves)
    tells them apart on every track."""
    for track in BASE_TRACKS:
        assert results[("legend-aggressive-stop-moot", track, None)] == "unsat", track
        assert results[("legend-aggressive-stop-moot", track, "long-moves")] == "sat", track


@pytest.mark.rules("road.placement")
def test_a_move_crossing_no_corner_line_stays_in_its_sector(
        results: dict[tuple[str, str, str | None], str]) -> None:
    for track in BASE_TRACKS:
        assert results[("sector-between-lines", track, None)] == "unsat", track
        assert results[("sector-between-lines", track, "sector-off-by-one")] == "sat", track


@pytest.mark.rules("road.where-the-car-is", "weather.no-cooldown")
def test_the_cloud_refuses_cooldown_exactly_where_the_car_stands(
        results: dict[tuple[str, str, str | None], str]) -> None:
    for track in BASE_TRACKS:
        assert results[("sector-where-the-car-is", track, None)] == "unsat", track
        assert results[("sector-where-the-car-is", track, "sector-at-start")] == "sat", track


def _engine_legend(track_id: str):  # type: ignore[no-untyped-def]
    track = load_track(track_id)

    def spaces(p: int, d: int, h: int, r: int, aggressive: bool) -> int:
        token = {-1: "limit-minus", 0: "overheat", 1: "limit-plus"}[r]
        road = tuple(token for _ in track.corners)
        state = RaceState(track=track, laps=track.laps, cars=(legend_car("black", p, True),),
                          supply=0, round=1, phase=Phase.TURN, order=(0,), cursor=0,
                          modules=("weather", "legends"), conditions=Conditions("sun", road),
                          legends=LegendDeck((), 1, aggressive))
        return engine_legend_spaces(state, 0, d, h)[0]
    return spaces


@pytest.mark.rules("legend.past-line", "legend.before-line", "legend.final-lap",
                   "legend.one-corner", "road.placement")
def test_the_encodings_agree_with_the_engine() -> None:
    for track in BASE_TRACKS:
        assert modules.refines_legend(track, _engine_legend(track), samples=150) == []
        assert modules.refines_sectors(track, load_track(track).sector_of) == []


def test_the_refinement_check_catches_a_different_engine() -> None:
    """Negative control of the refinement: an engine whose Legends move one space more."""
    real = _engine_legend("usa")
    assert modules.refines_legend("usa", lambda *v: real(*v) + 1, samples=5)
    track = load_track("usa")
    assert modules.refines_sectors("usa", lambda p: track.sector_of(p - 1))


@pytest.mark.rules("legend.one-corner")
def test_the_miner_finds_every_legend_stop_and_only_on_great_britain() -> None:
    """Without road tokens only Great Britain's close corners stop a Legend; each witness,
    played on the engine, is stopped before the second corner line."""
    found = {track: modules.mine_legend_stops(track) for track in BASE_TRACKS}
    assert {t for t, hits in found.items() if hits} == {"great-britain"}
    for position, diamond in found["great-britain"]:
        state = _engine_legend("great-britain")
        spaces = state(position, diamond, 15, 0, False)
        track = load_track("great-britain")
        assert len(track.corner_lines(position, position + spaces, 2)) == 1
        assert len(track.corner_lines(position, position + spaces + 1, 2)) == 2

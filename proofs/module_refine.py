"""The module proofs' encodings tied to the engine: each is evaluated on concrete values
against the engine function that carries the same rule (``heatcore prove --modules`` runs
them after the proofs). The engine is imported here only, as in ``proofs.refine``.

- Legends: ``modules.legend_model`` against ``heatcore.heat.modules.legends.legend_spaces`` (random
  Legends: start, card, road token, aggressive option).
- Sectors: ``modules.sector_model`` against ``Track.sector_of`` at every position.
- The Cloud: ``modules.cloud_refuses`` against the engine's ``hooks.cooldown_allowed`` at
  every position, under every weather token, with the Weather road token in each sector.
- The Garage: Accelerate and the speed increases, Adjust (under ruling.garage-adjust's
  default and its alternative "unclamped", each against the encoding of it) and the
  payment of a Heat symbol, against ``heatcore.heat.modules.garage.symbols``.
"""

from __future__ import annotations

from collections.abc import Callable

from heatcore.heat import hooks
from heatcore.heat.modules.garage import symbols as sy
from heatcore.heat.modules.legends import legend_car
from heatcore.heat.modules.legends import legend_spaces as engine_legend_spaces
from heatcore.heat.modules.weather import WEATHER, road_tokens, weather_tokens
from heatcore.heat.state import Car, Conditions, LegendDeck, Phase, RaceState
from heatcore.heat.track import load_track
from proofs import garage, modules
from proofs.modules import CLOUD, WEATHER_TOKEN
from proofs.z3eval import compile_terms

#: The weather tokens in the encoding's numbering (Cloud is 0, as ``modules.CLOUD``).
WEATHER_IDS: tuple[str, ...] = ("cloud", "fog", "storm", "snow", "rain", "sun")
#: For each module ruling's alternative the encodings cover, the encoding of it.
RULING_VARIANTS: dict[tuple[str, str], str] = {
    ("ruling.garage-adjust", "unclamped"): "adjust-unclamped"}


def engine_legend(track_id: str) -> Callable[[int, int, int, int, bool], int]:
    """The engine's spaces for a lone Legend (``legend_spaces``), as the encoding's
    arguments: start, diamond, helmet, road token (-1/0/+1 on every corner), aggressive."""
    track = load_track(track_id)

    def spaces(p: int, d: int, h: int, r: int, aggressive: bool) -> int:
        token = {-1: "limit-minus", 0: "overheat", 1: "limit-plus"}[r]
        road = tuple(token for _ in track.corners)
        state = RaceState(track=track, laps=track.laps, cars=(legend_car("black", p, True),),
                          supply=0, round=1, phase=Phase.TURN, order=(0,), cursor=0,
                          modules=("weather", "legends"), conditions=Conditions("sun", road),
                          legends=LegendDeck((), 1, aggressive))
        return int(engine_legend_spaces(state, 0, d, h)[0])
    return spaces


def engine_cooldown_allowed(track_id: str) -> Callable[[int, str, int], bool]:
    """Whether the engine lets a car at ``position`` cool down (``hooks.cooldown_allowed``,
    looked up at each call) under ``weather`` with the Weather token in sector ``sector``
    (a corner token elsewhere)."""
    track = load_track(track_id)
    other = next(t for t, tok in road_tokens().items() if tok.placement == "corner")

    def allowed(position: int, weather: str, sector: int) -> bool:
        road = tuple(WEATHER if k == sector else other for k in range(len(track.corners)))
        car = Car(position=position, racing_line=True, gear=1, engine=6, hand=(), deck=(),
                  discard=(), played=())
        state = RaceState(track=track, laps=track.laps, cars=(car,), supply=0, round=1,
                          phase=Phase.TURN, order=(0,), cursor=0, modules=("weather",),
                          conditions=Conditions(weather, road))
        # the engine's own binding, looked up now (a patched engine is seen as it runs)
        return bool(hooks.cooldown_allowed(state, 0))
    return allowed


def refines_cloud(track_id: str, engine: Callable[[int, str, int], bool]) -> list[str]:
    """Positions, weathers and Weather-token sectors where the engine's cooldown refusal
    differs from the encoding's (``modules.cloud_refuses``)."""
    import z3

    tl = modules.lines(track_id)
    corners = len({(a - 1) % tl.spaces + 1 for a in tl.at})
    x, w, k = z3.Ints("x w k")
    tokens = [z3.If(k == j, WEATHER_TOKEN, WEATHER_TOKEN + 1) for j in range(corners)]
    term = modules.cloud_refuses(tl, x, x, w, tokens)
    assert set(weather_tokens()) == set(WEATHER_IDS) and WEATHER_IDS[CLOUD] == "cloud"
    out = []
    for position in range(-tl.spaces + 1, tl.spaces * tl.laps + 1):
        # the position folded in (z3eval has no modulo), then the rest compiled
        run = compile_terms([z3.simplify(z3.substitute(term, (x, z3.IntVal(position))))]).run
        for wid, weather in enumerate(WEATHER_IDS):
            for sector in range(corners):
                refused = bool(run({"w": wid, "k": sector})[0])
                if engine(position, weather, sector) == refused:
                    out.append(f"{track_id} position {position} {weather}, Weather token "
                               f"in sector {sector + 1}: model refuses {refused}")
    return out


def engine_pay(engine: int, cost: int) -> int | None:
    """The engine after the engine pays a Heat symbol of ``cost`` (None: unpaid)."""
    car = Car(position=0, racing_line=True, gear=1, engine=engine, hand=(), deck=(),
              discard=(), played=())
    after = sy.pay_heat(car, cost)
    return None if after is None else after.engine


#: The rules each module proof's refinement ties to the engine (named by a disagreement).
MODULE_RULES: dict[str, tuple[str, ...]] = {
    "legend-one-corner": ("legend.past-line", "legend.before-line", "legend.final-lap",
                          "legend.one-corner", "legend.aggressive"),
    "sector-between-lines": ("road.placement",),
    "sector-where-the-car-is": ("road.where-the-car-is", "weather.no-cooldown"),
    "garage-accelerate": ("upgrade.accelerate", "upgrade.speed-increase"),
    "garage-adjust": ("upgrade.adjust", "ruling.garage-adjust"),
    "garage-unpayable-heat": ("upgrade.heat", "upgrade.heat-unpayable"),
}


def describe(found: list[tuple[str, str]]) -> list[str]:
    """One line per disagreement: the proof, the rules it names, what differs."""
    return [f"{proof} [{', '.join(MODULE_RULES[proof])}]: {detail}" for proof, detail in found]


def refine_modules(track_ids: tuple[str, ...], samples: int = 150) -> list[tuple[str, str]]:
    """(proof, disagreement) for every module encoding that differs from the engine."""
    out: list[tuple[str, str]] = []
    for track in track_ids:
        out += [("legend-one-corner", d) for d in modules.refines_legend(
            track, engine_legend(track), samples=samples)]
        out += [("sector-between-lines", d) for d in modules.refines_sectors(
            track, load_track(track).sector_of)]
        out += [("sector-where-the-car-is", d)
                for d in refines_cloud(track, engine_cooldown_allowed(track))]
    out += [("garage-accelerate", d)
            for d in garage.refines_accelerate(sy.accelerate, sy.speed_increases)]
    out += [("garage-adjust", d) for d in garage.refines_adjust(sy.adjusted_limit)]
    out += [("garage-adjust", f"under ruling.garage-adjust=unclamped: {d}")
            for d in garage.refines_adjust(lambda lim, a: sy.adjusted_limit(lim, a, False),
                                           RULING_VARIANTS[("ruling.garage-adjust",
                                                            "unclamped")])]
    out += [("garage-unpayable-heat", d) for d in garage.refines_unpayable(engine_pay)]
    return out

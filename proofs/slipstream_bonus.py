"""Z3 proof that a slipstream bonus never crosses the final finish line, with controls.

Encoded from the words of ``spec/rules/08-slipstream.toml`` (slipstream.not-past-finish)
and ``spec/rules/20-weather.toml`` (weather.slipstream-boost, road.slipstream-boost) and
ruling.slipstream-bonus-all-or-nothing, over the corner lines of ``spec/tracks/*.json``
(:func:`proofs.modules.lines`, :func:`proofs.modules.sector_model`), not from the engine.

- ``slipstream-bonus-within-finish``: for every position of the race, every weather token
  and every road token in every sector, and either alternative of the ruling, every
  slipstream distance offered (2, 2 + the bonus, or under "any-part" 2 + a part of it)
  ends on or before the last space before the final finish line. Controls:
  ``bonus-unchecked`` (only the plain 2 is held to the line: the bug of issue 26, which
  every check shared) and ``part-unchecked`` (the all-or-nothing bonus is held to the line,
  the parts of "any-part" are not).

:func:`refines_extras` evaluates the encoding's offered extras on concrete positions and
bonuses against the engine's, tying the proof to the engine.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import z3

CONTROLS = ("bonus-unchecked", "part-unchecked")
#: Weather token ids: the ones whose sector effect is slipstream +2 (Storm, Sun).
PLUS_TWO_WEATHER = (3, 5)
#: Road token ids: Weather (the weather token's sector effect) and Slipstream boost (+1).
WEATHER_TOKEN, PLUS_ONE_TOKEN = 0, 5


def bonus_model(sector_token: z3.ArithRef, weather: z3.ArithRef) -> z3.ArithRef:
    """weather.slipstream-boost, road.slipstream-boost: the sector's bonus (0, 1 or 2)."""
    storm_or_sun = z3.Or(*(weather == w for w in PLUS_TWO_WEATHER))
    return z3.If(z3.And(sector_token == WEATHER_TOKEN, storm_or_sun), 2,
                 z3.If(sector_token == PLUS_ONE_TOKEN, 1, 0))


def offered(position: z3.ArithRef, finish: int, bonus: z3.ArithRef, any_part: z3.BoolRef,
            extra: z3.ArithRef, control: str | None = None) -> z3.BoolRef:
    """Whether a slipstream of 2 + ``extra`` is offered to a car at ``position``:
    slipstream.not-past-finish (the whole move, bonus included, ends by ``finish``), the
    ruling's all-or-nothing (``extra`` 0 or the bonus) or any-part (0 .. the bonus)."""
    shape = z3.If(any_part, z3.And(extra >= 0, extra <= bonus),
                  z3.Or(extra == 0, extra == bonus))
    plain = position + 2 <= finish
    whole = position + 2 + extra <= finish
    if control == "bonus-unchecked":
        held = plain
    elif control == "part-unchecked":
        held = z3.And(plain, z3.Or(any_part, whole))
    else:
        held = whole
    return z3.And(shape, plain, held)


def prove_within_finish(track_id: str, control: str | None = None) -> z3.CheckSatResult:
    """UNSAT: no offered slipstream, bonus included, ends past the final finish line (SAT
    under each control)."""
    from proofs.modules import lines, sector_model  # proofs.modules registers this proof

    tl = lines(track_id)
    finish = tl.spaces * tl.laps
    corners = len({(a - 1) % tl.spaces + 1 for a in tl.at})
    position, weather, extra = z3.Ints("position weather extra")
    any_part = z3.Bool("any_part")
    tokens = z3.Array("tokens", z3.IntSort(), z3.IntSort())
    bonus = bonus_model(z3.Select(tokens, sector_model(tl, position)), weather)
    solver = z3.Solver()
    solver.add(position > -tl.spaces, position <= finish, weather >= 0, weather <= 5,
               *[z3.And(z3.Select(tokens, k) >= 0, z3.Select(tokens, k) <= 5)
                 for k in range(corners)],
               offered(position, finish, bonus, any_part, extra, control),
               position + 2 + extra > finish)
    return solver.check()


def model_extras(finish: int, position: int, bonus: int, any_part: bool) -> set[int]:
    """The extras (0 included) the encoding offers at ``position`` with ``bonus`` (every
    model of :func:`offered`, enumerated by Z3)."""
    extra = z3.Int("extra")
    solver = z3.Solver()
    solver.add(offered(z3.IntVal(position), finish, z3.IntVal(bonus), z3.BoolVal(any_part),
                       extra), extra >= 0, extra <= 2)
    found: set[int] = set()
    while solver.check() == z3.sat:
        value = solver.model()[extra].as_long()
        found.add(value)
        solver.add(extra != value)
    return found


def refines_extras(samples: Iterable[tuple[int, int, int, bool]],
                   engine_extras: Callable[[int, int, int, bool], set[int] | None]
                   ) -> list[str]:
    """(finish, position, bonus, any_part) samples where the engine's offered extras (0
    for the plain slipstream; None when it offers no slipstream at all) differ from the
    encoding's."""
    out = []
    for finish, position, bonus, any_part in samples:
        want = model_extras(finish, position, bonus, any_part)
        got = engine_extras(finish, position, bonus, any_part)
        if (got or set()) != want:
            out.append(f"position {position} (finish {finish}), bonus {bonus}, any-part "
                       f"{any_part}: engine {sorted(got or ())}, model {sorted(want)}")
    return out


PROOFS: dict[str, tuple[Callable[[str, str | None], z3.CheckSatResult], tuple[str, ...]]] = {
    "slipstream-bonus-within-finish": (prove_within_finish, CONTROLS),
}
RULES = ("slipstream.not-past-finish", "weather.slipstream-boost", "road.slipstream-boost",
         "ruling.slipstream-bonus-all-or-nothing")
CLAIM = ("For every position of the race, every weather and road token in every sector and "
         "either alternative of ruling.slipstream-bonus-all-or-nothing, every slipstream "
         "distance offered, its bonus included, ends on or before the last space before the "
         "final finish line.")

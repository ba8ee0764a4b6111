"""Z3 proofs about the modules, each with a negative control, over the base tracks.

Read from ``spec/tracks/*.json`` (``proofs.track_graph.load_track_data``), not from the
engine; the rules are encoded from the spec's words. Four proofs:

- ``legend-one-corner`` (legend.one-corner, legend.aggressive): a Legend's move never
  crosses more corner lines than it may (1, or 2 from a chevron with aggressive Legends),
  whatever its start, card (diamond 0-3, helmet 10-19) and the corner's road token (-1/0/+1).
  Controls (both remove behaviour): ``legend-no-stop``, without the stop before the second
  line a Legend clears two corners (BGA bug 107185) on France and Great Britain (on USA and
  Italia no corner speed + diamond reaches a second line, so the stop never acts there);
  ``legend-helmet-overshoot``, a Legend before the line moving its helmet number even across
  the corner, clears two corners on every base track.
- ``legend-aggressive-stop-moot`` (legend.aggressive, ruling.legend-aggressive-stop): the
  ruling's default and its alternative (BGA: before the second line in every case) move
  every Legend alike on the base tracks, so the ruling is not switchable. Control
  ``long-moves``: chevrons at every corner and road tokens raising a limit by up to 20 make
  them differ; ``moot-no-stop`` (removes behaviour): without the stop before the second
  line the two differ on France and Great Britain.
- ``sector-between-lines`` (road.placement): a move that crosses no corner line stays in one
  sector, one that crosses one line ends in the next sector. Controls ``sector-off-by-one``
  (sectors starting on the corner's own space) and ``one-sector`` (removes behaviour).
- ``sector-where-the-car-is`` (road.where-the-car-is, weather.no-cooldown): the encoding's
  Cloud refusal (``cloud_refuses``, sectors by ``sector_model``'s arithmetic on spaces) is
  exactly "the last corner line the car passed, where it stands now, is a corner whose
  sector holds the Weather token, and the weather is Cloud", stated from the unrolled
  lines. Controls ``sector-at-start`` (judged where the turn started, BGA bugs 102781,
  103496), ``sector-one-back`` (judged one space back) and ``cloud-never-refuses`` (removes
  behaviour).

``refines_*`` and :mod:`proofs.module_refine` tie the encodings to the engine by evaluating
them on concrete values (``heatcore prove --modules`` runs them).
The Garage's proofs (``garage-accelerate``, ``garage-adjust``, ``garage-unpayable-heat``)
live in :mod:`proofs.garage` and are registered here with the others.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import z3

from proofs import garage
from proofs.track_graph import BASE_TRACKS, load_track_data

LEGEND_CONTROLS = ("legend-no-stop", "legend-helmet-overshoot")
MOOT_CONTROLS = ("long-moves", "moot-no-stop")
SECTOR_CONTROLS = ("sector-off-by-one", "one-sector")
WHERE_CONTROLS = ("sector-at-start", "sector-one-back", "cloud-never-refuses")
CLOUD, WEATHER_TOKEN = 0, 0  # weather token ids (Cloud) and road token ids (Weather)


@dataclass(frozen=True)
class Lines:
    """A track's corner lines, unrolled over the grid lap and the race's laps."""

    spaces: int
    laps: int
    at: tuple[int, ...]  # line between at[j] and at[j] + 1
    limit: tuple[int, ...]
    gap: tuple[int, ...]  # corner line minus Legend line (spaces)
    chevron: tuple[int, ...]
    corner: tuple[int, ...]  # 0-based corner index on the lap


def lines(track_id: str, laps: int | None = None) -> Lines:
    """Every corner line from the grid's lap to the final lap, in order."""
    data: dict[str, Any] = load_track_data(track_id)
    length = int(data["spaces_per_lap"])
    laps = int(data["laps"]) if laps is None else laps
    corners = sorted(data["corners"], key=lambda c: c["after_space"])
    rows = []
    for lap in range(-1, laps):
        for index, c in enumerate(corners):
            rows.append((c["after_space"] + length * lap, c["limit"],
                         c["after_space"] - c["legend_line"], c.get("aggressive_legends", 0),
                         index))
    rows.sort()
    return Lines(length, laps, *(tuple(r[i] for r in rows) for i in range(5)))


def _crossed(tl: Lines, start: z3.ArithRef, end: z3.ArithRef) -> z3.ArithRef:
    """How many corner lines a move from ``start`` to ``end`` crosses."""
    return z3.Sum([z3.If(z3.And(start <= c, c < end), 1, 0) for c in tl.at])


def legend_model(tl: Lines, p: z3.ArithRef, d: z3.ArithRef, h: z3.ArithRef, r: z3.ArithRef,
                 aggressive: z3.BoolRef, stop: bool = True,
                 helmet_stop: bool = True,
                 second_line: bool = False) -> tuple[z3.ArithRef, z3.ArithRef]:
    """(spaces moved, corner lines it may cross) for a Legend at ``p``, from the spec text:
    before the next corner's Legend line, the helmet number unless that crosses the corner
    (then to ``diamond`` spaces before the last space before it); past the line, the corner's
    limit (+ road token ``r``) + diamond, stopping before line ``allowed + 1`` (before the
    second line in every case with ``second_line``: ruling.legend-aggressive-stop's
    alternative)."""
    spaces: z3.ArithRef = h  # no corner line ahead before the finish: the final lap
    allowed: z3.ArithRef = z3.IntVal(1)
    for j in reversed(range(len(tl.at))):
        c = tl.at[j]
        is_next = z3.And(p <= c, p > tl.at[j - 1]) if j else p <= c
        speed = tl.limit[j] + r + d
        chev = z3.And(aggressive, c + 1 - p <= tl.chevron[j])
        may = z3.If(chev, 2, 1)
        if stop:
            after = [tl.at[k] for k in (j + 1, j + 2) if k < len(tl.at)]
            second = after[0] - p if after else speed
            third = after[1] - p if len(after) > 1 else speed
            limited = z3.If(_crossed(tl, p, p + speed) > may,
                            second if second_line else z3.If(chev, third, second), speed)
        else:
            limited = speed
        before = z3.If(p + h <= c, h, c - d - p) if helmet_stop else h
        past = p > c - tl.gap[j]
        spaces = z3.If(is_next, z3.If(past, limited, before), spaces)
        allowed = z3.If(is_next, z3.If(past, may, 1), allowed)
    return spaces, allowed


def _legend_vars(tl: Lines) -> tuple[list[z3.BoolRef], tuple[Any, ...]]:
    p, d, h, r = z3.Ints("p d h r")
    aggressive = z3.Bool("aggressive")
    domain = [p > -tl.spaces, p <= tl.spaces * tl.laps, d >= 0, d <= 3, h >= 10, h <= 19,
              r >= -1, r <= 1]
    return domain, (p, d, h, r, aggressive)


def prove_legend_one_corner(track_id: str, control: str | None = None) -> z3.CheckSatResult:
    """UNSAT: no Legend move crosses more corner lines than allowed (SAT under the control)."""
    tl = lines(track_id)
    domain, (p, d, h, r, aggressive) = _legend_vars(tl)
    spaces, allowed = legend_model(tl, p, d, h, r, aggressive,
                                   stop=control != "legend-no-stop",
                                   helmet_stop=control != "legend-helmet-overshoot")
    solver = z3.Solver()
    solver.add(*domain, _crossed(tl, p, p + spaces) > allowed)
    return solver.check()


def prove_aggressive_stop_moot(track_id: str, control: str | None = None) -> z3.CheckSatResult:
    """UNSAT: ruling.legend-aggressive-stop's default and its alternative (stop before the
    second line in every case) move every Legend alike, whatever its start, card, the road
    token and the option (only Great Britain has chevrons; elsewhere no Legend is ever
    allowed a second line). Control ``long-moves``: with a chevron of 3 spaces at every
    corner and road tokens up to +20 on a limit, moves cross three lines and differ (SAT)."""
    tl = lines(track_id)
    domain, (p, d, h, r, aggressive) = _legend_vars(tl)
    if control == "long-moves":
        tl = replace(tl, chevron=(3,) * len(tl.chevron))
        domain = [c for c in domain if not c.eq(r <= 1)] + [r <= 20]
    ours, _ = legend_model(tl, p, d, h, r, aggressive, stop=control != "moot-no-stop")
    theirs, _ = legend_model(tl, p, d, h, r, aggressive, second_line=True)
    solver = z3.Solver()
    solver.add(*domain, ours != theirs)
    return solver.check()


def legend_premises_hold(track_id: str) -> bool:
    """The legend proof's premises have a model (it does not hold vacuously)."""
    tl = lines(track_id)
    domain, (p, d, h, r, aggressive) = _legend_vars(tl)
    solver = z3.Solver()
    solver.add(*domain)
    return bool(solver.check() == z3.sat)


def refines_legend(track_id: str, engine_spaces: Any, samples: int = 200,
                   seed: int = 0) -> list[str]:
    """Disagreements between the encoding and ``engine_spaces(p, d, h, r, aggressive)`` on
    random concrete Legends (empty when they agree)."""
    tl = lines(track_id)
    p, d, h, r = z3.Ints("p d h r")
    aggressive = z3.Bool("aggressive")
    spaces, _ = legend_model(tl, p, d, h, r, aggressive)
    rng = random.Random(seed)
    out = []
    for _ in range(samples):
        values = (rng.randint(-tl.spaces + 1, tl.spaces * tl.laps), rng.randint(0, 3),
                  rng.randint(10, 19), rng.choice((-1, 0, 1)), rng.random() < 0.5)
        term = z3.substitute(spaces, (p, z3.IntVal(values[0])), (d, z3.IntVal(values[1])),
                             (h, z3.IntVal(values[2])), (r, z3.IntVal(values[3])),
                             (aggressive, z3.BoolVal(values[4])))
        model = z3.simplify(term).as_long()
        engine = engine_spaces(*values)
        if model != engine:
            out.append(f"{track_id} {values}: model {model}, engine {engine}")
    return out


# ---------------------------------------------------------------- sectors

def sector_model(tl: Lines, position: z3.ArithRef, off_by_one: bool = False,
                 control: str | None = None) -> z3.ArithRef:
    """The corner (0-based) whose sector holds ``position``: the last corner line behind it
    (spaces P+1 .. next P); the control ``sector-off-by-one`` starts each sector on the
    corner's own space, ``one-sector`` (removes behaviour) has a single sector."""
    space = (position - 1) % tl.spaces + 1
    corners = sorted({(a - 1) % tl.spaces + 1 for a in tl.at})
    out: z3.ArithRef = z3.IntVal(len(corners) - 1)
    if control == "one-sector":
        return out
    for index, after in enumerate(corners):
        inside = space >= after if off_by_one else space > after
        out = z3.If(inside, index, out)
    return out


def prove_sector_between_lines(track_id: str, control: str | None = None) -> z3.CheckSatResult:
    """UNSAT: a move of 1-30 spaces before the final finish line that crosses no corner line
    ends in the sector it started; one that crosses exactly one line ends in the sector of
    the corner it crossed (the next one round the lap)."""
    tl = lines(track_id)
    a, b = z3.Ints("a b")
    solver = z3.Solver()
    off = control == "sector-off-by-one"
    count = len({(c - 1) % tl.spaces + 1 for c in tl.at})
    start, end = sector_model(tl, a, off, control), sector_model(tl, b, off, control)
    crossed = _crossed(tl, a, b)
    solver.add(a > -tl.spaces, b <= tl.spaces * tl.laps, b > a, b - a <= 30,
               z3.Not(z3.And(z3.Implies(crossed == 0, start == end),
                             z3.Implies(crossed == 1, end == (start + 1) % count))))
    return solver.check()


def cloud_refuses(tl: Lines, start: z3.ArithRef, now: z3.ArithRef, weather: z3.ArithRef,
                  tokens: list[z3.ArithRef], control: str | None = None) -> z3.BoolRef:
    """road.where-the-car-is, weather.no-cooldown, the encoding: cooldown is refused in the
    sector (``sector_model``) of the car's position now when it holds the Weather token and
    the weather is Cloud. Controls: ``sector-at-start`` (judged where the turn started, BGA
    bugs 102781, 103496), ``sector-one-back`` (judged one space back),
    ``cloud-never-refuses`` (removes behaviour: the Cloud never refuses)."""
    judged = {"sector-at-start": start, "sector-one-back": now - 1}.get(control or "", now)
    sector = sector_model(tl, judged)
    token = tokens[-1]
    for k in reversed(range(len(tokens) - 1)):
        token = z3.If(sector == k, tokens[k], token)
    if control == "cloud-never-refuses":
        return z3.BoolVal(False)
    return z3.And(weather == CLOUD, token == WEATHER_TOKEN)


def last_line_behind(tl: Lines, position: z3.ArithRef) -> z3.ArithRef:
    """The corner (0-based) of the last corner line the car has passed to stand on
    ``position`` (the last corner of the lap before the first line), stated from the
    unrolled lines themselves, apart from ``sector_model``'s arithmetic on spaces."""
    out: z3.ArithRef = z3.IntVal(max(tl.corner))
    for at, corner in zip(tl.at, tl.corner, strict=True):  # in position order
        out = z3.If(position > at, corner, out)
    return out


def prove_sector_where_the_car_is(track_id: str,
                                  control: str | None = None) -> z3.CheckSatResult:
    """UNSAT: the encoding refuses cooldown exactly when the car, where it stands now, has
    last passed the line of a corner whose sector holds the Weather token and the weather is
    Cloud, whatever the road tokens and where the turn started (SAT under a control)."""
    tl = lines(track_id)
    corners = len({(a - 1) % tl.spaces + 1 for a in tl.at})
    start, now, weather = z3.Ints("start now weather")
    tokens = list(z3.Ints(" ".join(f"token{k}" for k in range(corners))))
    refused = cloud_refuses(tl, start, now, weather, tokens, control)
    corner = last_line_behind(tl, now)
    held = z3.Or([z3.And(corner == k, tokens[k] == WEATHER_TOKEN) for k in range(corners)])
    solver = z3.Solver()
    solver.add(start > -tl.spaces, start <= tl.spaces * tl.laps, now >= start,
               now <= tl.spaces * tl.laps, now - start <= 30, weather >= 0, weather <= 5,
               *[z3.And(t >= 0, t <= 5) for t in tokens],
               refused != z3.And(weather == CLOUD, held))
    return solver.check()


def refines_sectors(track_id: str, engine_sector: Any) -> list[str]:
    """Spaces where ``engine_sector(position)`` differs from the encoding (every position of
    the grid lap and the race)."""
    tl = lines(track_id)
    x = z3.Int("x")
    term = sector_model(tl, x)
    out = []
    for position in range(-tl.spaces + 1, tl.spaces * tl.laps + 1):
        model = z3.simplify(z3.substitute(term, (x, z3.IntVal(position)))).as_long()
        if model != engine_sector(position):
            out.append(f"{track_id} position {position}: model {model}, engine "
                       f"{engine_sector(position)}")
    return out


#: For each module proof, a control that removes behaviour (caught on at least one track).
REMOVAL_CONTROLS: dict[str, str] = {
    "legend-one-corner": "legend-no-stop", "legend-aggressive-stop-moot": "moot-no-stop",
    "sector-between-lines": "one-sector", "sector-where-the-car-is": "cloud-never-refuses",
    "garage-accelerate": "accelerate-ignores-stress", "garage-adjust": "adjust-ignored",
    "garage-unpayable-heat": "unpaid-kept",
}


def _bonus_proofs() -> dict[str, tuple[Callable[[str, str | None], z3.CheckSatResult],
                                        tuple[str, ...]]]:
    """The proofs of proofs.slipstream_bonus (it reads this module's lines when run) and
    proofs.garage_unpaid."""
    from proofs import garage_unpaid, slipstream_bonus

    return {**slipstream_bonus.PROOFS, **garage_unpaid.PROOFS}


PROOFS: dict[str, tuple[Callable[[str, str | None], z3.CheckSatResult], tuple[str, ...]]] = {
    "legend-one-corner": (prove_legend_one_corner, LEGEND_CONTROLS),
    "legend-aggressive-stop-moot": (prove_aggressive_stop_moot, MOOT_CONTROLS),
    "sector-between-lines": (prove_sector_between_lines, SECTOR_CONTROLS),
    "sector-where-the-car-is": (prove_sector_where_the_car_is, WHERE_CONTROLS),
    **garage.PROOFS,  # the Garage's symbol arithmetic (proofs.garage)
    **_bonus_proofs(),  # issue 26: proofs.slipstream_bonus, proofs.garage_unpaid
}


def run(track_ids: tuple[str, ...] = BASE_TRACKS) -> dict[tuple[str, str, str | None], str]:
    """(proof, track, control) -> "unsat" / "sat": proofs must be unsat, controls sat."""
    out: dict[tuple[str, str, str | None], str] = {}
    for name, (prove, controls) in PROOFS.items():
        for track in track_ids:
            out[(name, track, None)] = str(prove(track, None))
            for control in controls:
                out[(name, track, control)] = str(prove(track, control))
    return out


def mine_legend_stops(track_id: str, count: int = 64) -> list[tuple[int, int]]:
    """Distinct (position on the first lap, diamond) from which a Legend past the Legend
    line would cross two corner lines at corner speed + diamond (no road token), so
    ``legend.one-corner`` stops it: Z3 models, each blocked before the next search, sorted
    (all of them when fewer than ``count`` exist, so the result does not depend on the
    order Z3 finds them)."""
    tl = lines(track_id)
    p, d = z3.Ints("p d")
    solver = z3.Solver()
    solver.add(p >= 1, p <= tl.spaces, d >= 0, d <= 3)
    options = []
    for j, c in enumerate(tl.at):
        past = z3.And(p <= c, p > c - tl.gap[j], p > (tl.at[j - 1] if j else -tl.spaces))
        options.append(z3.And(past, _crossed(tl, p, p + tl.limit[j] + d) >= 2))
    solver.add(z3.Or(options))
    found: list[tuple[int, int]] = []
    while len(found) < count and solver.check() == z3.sat:
        model = solver.model()
        pair = (model[p].as_long(), model[d].as_long())
        found.append(pair)
        solver.add(z3.Or(p != pair[0], d != pair[1]))
    return sorted(found)

"""Edge-case miner: named situations as Z3 queries over a turn, and distinct witnesses.

Each situation is a condition on the encoded turn. ``mine`` asks the solver for a turn
that meets it from a state the engine can load (``scene_constraints``), reads the model
into a plain ``Scene``, then adds a blocking clause (start position, gear and cards played
must differ) so the next witness is a genuinely different state. Witnesses rotate over
the base tracks. ``proofs.witness`` turns scenes into engine states and cross-checks them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import z3

from proofs.catalogue import (
    PROVED_MAX_SPEED,
    PROVED_MAX_SPIN_BACK,
    Ctx,
    heat_cost_objective,
    premises,
    ref_speed,
    speed_objective,
    spin_back_objective,
)
from proofs.enc_track import spot_key
from proofs.encoding import Turn, cached_turn
from proofs.reachable import MAX_MOVE
from proofs.symbols import KINDS
from proofs.track_graph import BASE_TRACKS, TrackFacts, track_facts


@dataclass(frozen=True)
class Situation:
    """A named situation: what it is, the rules it exercises, its condition on a turn."""

    id: str
    description: str
    rules: tuple[str, ...]
    condition: Callable[[Turn], z3.BoolRef]


def _moving(t: Turn) -> z3.BoolRef:
    return z3.Not(t.cluttered)


def _crossed(t: Turn) -> list[tuple[int, z3.BoolRef, int]]:
    """(line position, crossed, limit) of each line before the final finish line."""
    a, b = t.pre.spot.pos, t.line_crossing_end()
    return [(ln.at, z3.And(_moving(t), a <= ln.at, ln.at < b), ln.limit)
            for ln in t.facts.lines if ln.at <= t.facts.finish]


def two_corners(t: Turn) -> z3.BoolRef:
    """At least two corner lines crossed in one turn."""
    return z3.Sum([z3.If(c, 1, 0) for _, c, _ in _crossed(t)]) >= 2


def spin_second_corner(t: Turn) -> z3.BoolRef:
    """Paid Heat at one corner line, then spun at a later one in the same turn."""
    checks = [c for c in t.corners.checks if c.line.at <= t.facts.finish]
    out = []
    for i, first in enumerate(checks):
        for later in checks[i + 1:]:
            out.append(z3.And(first.crossed, first.paid > 0, z3.Not(first.spin), later.spin))
    return z3.Or(out)


def slipstream_into_corner(t: Turn) -> z3.BoolRef:
    """The slipstream move itself crosses a corner line (checked with the unchanged speed)."""
    here, end = t.placements["react2"].result.pos, t.line_crossing_end()
    return z3.And(t.slip, z3.Or([z3.And(c, here <= at, at < end) for at, c, _ in _crossed(t)]))


def boost_tips_payment(t: Turn) -> z3.BoolRef:
    """A corner the speed without the boost would pass for free costs Heat with it."""
    s = ref_speed(t)
    return z3.And(t.boost, z3.Not(t.corners.spun), z3.Or([
        z3.And(c, s > limit, s - t.boost_value <= limit) for _, c, limit in _crossed(t)]))


def adrenaline_tips_spin(t: Turn) -> z3.BoolRef:
    """The adrenaline +1 turns an affordable set of corners into a spin."""
    s = ref_speed(t) - 1
    engine = t.stages["reacted"].engine
    demand = z3.Sum([z3.If(z3.And(c, s > limit), s - limit, 0) for _, c, limit in _crossed(t)])
    return z3.And(t.adr_move, t.corners.spun, demand <= engine)


def blocked_behind_corner(t: Turn) -> z3.BoolRef:
    """The final space (and those behind it) is full, so placement puts the car back
    behind a corner line its speed would have crossed: that line is not checked."""
    p = t.placements["reveal"]
    a = t.pre.spot.pos
    behind = [z3.And(a <= ln.at, p.result.pos <= ln.at, ln.at < p.target)
              for ln in t.facts.lines if ln.at <= t.facts.finish]
    return z3.And(_moving(t), p.moves, z3.Or(behind), t.line_crossing_end() == p.result.pos)


def cluttered(t: Turn) -> z3.BoolRef:
    """The hand cannot make a legal play: the cluttered play."""
    return t.cluttered


def flip_needs_reshuffle(t: Turn) -> z3.BoolRef:
    """A Stress or boost flip runs out of deck and reshuffles the discard pile."""
    return z3.Or([z3.And(f.active, f.reshuffled) for f in t.flips])


def later_mover_wins(t: Turn) -> z3.BoolRef:
    """Another car crossed the finish line earlier this round; this car, moving later,
    finishes ahead of it and of every other finisher, and wins the race."""
    me = t.post.spot
    key = spot_key(me.pos, me.racing)
    done = [z3.And(o.present, o.spot.pos > t.facts.finish) for o in t.others]
    return z3.And(me.pos > t.facts.finish, t.starters == t.racing, z3.Or(done),
                  *(z3.Implies(d, o.key < key) for d, o in zip(done, t.others, strict=True)))


def spin_short_supply(t: Turn) -> z3.BoolRef:
    """A spin when the Stress supply cannot give all the Stress it calls for."""
    wanted = z3.If(t.gear <= 2, 1, 2)
    return z3.And(t.corners.spun, t.corners.stress_taken < wanted)


def corner_after_finish(t: Turn) -> z3.BoolRef:
    """The car crosses the final finish line and then a corner line it is too fast for,
    which costs nothing."""
    a, b, s = t.pre.spot.pos, t.line_crossing_end(), ref_speed(t)
    return z3.Or([z3.And(_moving(t), a <= ln.at, ln.at < b, s > ln.limit)
                  for ln in t.facts.lines if ln.at > t.facts.finish])


def cooldown_then_boost(t: Turn) -> z3.BoolRef:
    """An empty engine boosts with a Heat cooled from hand this same turn."""
    return z3.And(t.boost, t.stages["revealed"].engine == 0)


def blocked_adrenaline(t: Turn) -> z3.BoolRef:
    """The adrenaline +1 is taken although placement puts the car back on its own spot."""
    moves = [t.placements["react1"], t.placements["react2"]]
    return z3.And(t.adr_move, z3.Not(t.boost), z3.Or([z3.And(
        p.moves, p.result.pos == p.start.pos, p.result.racing == p.start.racing)
        for p in moves]))


def slipstream_earlier_lap(t: Turn) -> z3.BoolRef:
    """A slipstream across the start/finish line on an earlier lap."""
    here, end = t.placements["react2"].result.pos, t.line_crossing_end()
    lap = t.facts.spaces_per_lap
    return z3.And(t.slip, z3.Or([z3.And(here <= j * lap, j * lap < end)
                                 for j in range(t.facts.laps)]))


def blocked_by_lapped_car(t: Turn) -> z3.BoolRef:
    """The space the move aims at is full and a car on another lap is one of the two
    holding it, so the car stops behind them."""
    p = t.placements["reveal"]
    lapped = [z3.And(o.present, o.spot.pos != p.target, o.spot.space == p.target_space)
              for o in t.others]
    return z3.And(_moving(t), p.moves, p.result.pos < p.target, z3.Or(lapped))


def slipstream_off_lapped_car(t: Turn) -> z3.BoolRef:
    """A slipstream that only a car on another lap gives (beside, or one space ahead, on
    the board)."""
    here = t.placements["react2"].result
    same_lap = [z3.And(o.present, z3.Or(z3.And(o.spot.pos == here.pos,
                                               o.spot.racing != here.racing),
                                        o.spot.pos == here.pos + 1)) for o in t.others]
    return z3.And(t.slip, z3.Not(z3.Or(same_lap)))


def _at_bound(objective: Callable[[Turn], z3.ArithRef],
              bound: Callable[[TrackFacts], int]) -> Callable[[Turn], z3.BoolRef]:
    def condition(t: Turn) -> z3.BoolRef:
        return objective(t) == bound(t.facts)
    return condition


SITUATIONS: tuple[Situation, ...] = (
    Situation("two-corners", "two corner lines crossed in one move",
              ("corner.check", "corner.pay-heat", "speed.turn-total"), two_corners),
    Situation("spin-second-corner", "Heat paid at the first corner, spin at the second",
              ("corner.check", "corner.pay-heat", "corner.spin"), spin_second_corner),
    Situation("slipstream-into-corner", "the slipstream crosses a corner line",
              ("slipstream.move", "slipstream.speed-unchanged", "corner.check"),
              slipstream_into_corner),
    Situation("boost-tips-payment", "the boost makes a free corner cost Heat",
              ("react.boost", "speed.turn-total", "corner.pay-heat"), boost_tips_payment),
    Situation("adrenaline-tips-spin", "the adrenaline +1 turns a payable corner into a spin",
              ("adrenaline.effects", "speed.turn-total", "corner.spin"), adrenaline_tips_spin),
    Situation("blocked-behind-corner",
              "a full final space sets the car back behind a corner line: not checked",
              ("place.blocked", "place.speed-unchanged", "corner.check"),
              blocked_behind_corner),
    Situation("cluttered", "a cluttered hand: all non-Heat cards plus Heat, no move, gear 1",
              ("play.cluttered", "play.cluttered-only-when-forced", "ruling.cluttered-gear"),
              cluttered),
    Situation("flip-needs-reshuffle", "a Stress or boost flip reshuffles the discard pile",
              ("reveal.stress-flip", "deck.reshuffle", "replenish.discard-before-draw"),
              flip_needs_reshuffle),
    Situation("later-mover-wins", "two cars finish in one round and the later mover wins",
              ("finish.line", "finish.ranking", "finish.removed", "order.fixed-at-round-start"),
              later_mover_wins),
    Situation("spin-short-supply", "a spin with too few Stress cards left in the supply",
              ("corner.spin", "ruling.stress-supply"), spin_short_supply),
    Situation("corner-after-finish", "a too-fast corner line after the finish costs nothing",
              ("corner.after-finish-ignored", "finish.line", "ruling.finished-car-turn"),
              corner_after_finish),
    Situation("cooldown-then-boost", "an empty engine cools a Heat, then boosts with it",
              ("react.any-order", "react.cooldown", "react.boost"), cooldown_then_boost),
    Situation("blocked-adrenaline", "the adrenaline +1 is used though blocked in place",
              ("ruling.blocked-extra-move", "adrenaline.effects", "place.blocked"),
              blocked_adrenaline),
    Situation("slipstream-earlier-lap", "a slipstream across the line on an earlier lap",
              ("slipstream.earlier-lap", "slipstream.move"), slipstream_earlier_lap),
    Situation("blocked-by-lapped-car", "a car on another lap fills the space the car aims at",
              ("setup.board-space", "place.blocked"), blocked_by_lapped_car),
    Situation("slipstream-off-lapped-car", "a slipstream that only a car on another lap gives",
              ("setup.board-space", "slipstream.eligible"), slipstream_off_lapped_car),
    Situation("max-speed", "a turn at the largest speed the bound proof found (21)",
              ("speed.turn-total", "reveal.stress-flip", "react.boost", "adrenaline.effects"),
              _at_bound(speed_objective, lambda f: PROVED_MAX_SPEED)),
    Situation("max-heat-cost", "a turn paying the most Heat the bound proof found",
              ("corner.pay-heat", "corner.spin", "react.boost"),
              _at_bound(heat_cost_objective, lambda f: f.heat + 1)),
    Situation("max-spin-back", "a spin sending the car back the most (23 spaces)",
              ("corner.spin", "place.blocked"),
              _at_bound(spin_back_objective, lambda f: PROVED_MAX_SPIN_BACK)),
)


def situation(name: str) -> Situation:
    """The situation with this id."""
    for s in SITUATIONS:
        if s.id == name:
            return s
    raise KeyError(name)


def scene_constraints(t: Turn) -> list[z3.BoolRef]:
    """What a witness needs so the engine can load it: every car on the track is in this
    round's order; the car is either the leader and first to move (the round's plans are
    still to be made) or the last to move (every other car has moved already); the Stress
    of the other players covers their decks."""
    facts = t.facts
    present = z3.Sum([z3.If(o.present, 1, 0) for o in t.others])
    me = spot_key(t.pre.spot.pos, t.pre.spot.racing)
    first = t.index == 0
    leader = z3.And([z3.Implies(o.present, z3.And(o.key < me, o.spot.pos <= facts.finish))
                     for o in t.others])
    finished_near = [z3.Implies(o.present, o.spot.pos <= facts.finish + MAX_MOVE)
                     for o in t.others]
    return [*finished_near, present + 1 == t.racing, present >= 1,
            z3.Or(z3.And(first, leader), z3.And(t.index == t.racing - 1, t.racing >= 2)),
            t.other_stress >= facts.stress * (t.starters - 1)]


@dataclass(frozen=True)
class FlipSeen:
    """One flip of the witness: did it run, find a card, reshuffle first; the card found
    and the other cards turned over before it."""

    active: bool
    found: bool
    reshuffled: bool
    card: str
    skips: dict[str, int]


@dataclass(frozen=True)
class DrawSeen:
    """Step 9's draw: cards from the deck, a reshuffle, cards from the new deck."""

    first: dict[str, int]
    reshuffled: bool
    second: dict[str, int]


@dataclass
class Outcome:
    """The acting car after its turn (the encoding's prediction, or the engine's result)."""

    position: int
    racing_line: bool
    gear: int
    engine: int
    hand: dict[str, int]
    deck: dict[str, int]
    discard: dict[str, int]
    corner_heat: int
    spun: bool
    stress_taken: int
    speed: int | None  # None: the engine reported no corner check
    cluttered: bool = False
    finished: bool = False
    ranking: list[int] = field(default_factory=list)


@dataclass
class Scene:
    """A witness read from the model: the acting car (P1) and the others, its choices,
    and the outcome the encoding predicts."""

    situation: str
    track: str
    first: bool  # the car leads and plans first (else it moves last, others done)
    pos: int
    racing: bool
    gear0: int
    gear: int
    zones: dict[str, dict[str, dict[str, int]]]  # stage -> zone -> counts
    engine: dict[str, int]  # stage -> engine Heat
    played: dict[str, int]
    others: list[tuple[int, bool]]
    starters: int
    supply: int
    other_stress: int
    cool_gear: int
    adr_cool: bool
    adr_move: bool
    adr_first: bool
    boost: bool
    slip: bool
    discarded: dict[str, int]
    flips: list[FlipSeen]
    drawn: DrawSeen
    expected: Outcome


def _int(m: z3.ModelRef, e: z3.ExprRef) -> int:
    v = m.eval(e, model_completion=True)
    return int(v.as_long())


def _bool(m: z3.ModelRef, e: z3.ExprRef) -> bool:
    return bool(z3.is_true(m.eval(e, model_completion=True)))


def _counts(m: z3.ModelRef, zone: dict[str, z3.ArithRef]) -> dict[str, int]:
    return {k: _int(m, zone[k]) for k in KINDS}


def read_scene(name: str, t: Turn, m: z3.ModelRef) -> Scene:
    """The witness as plain values."""
    zones = {stage: {"hand": _counts(m, z.hand), "deck": _counts(m, z.deck),
                     "discard": _counts(m, z.discard)}
             for stage, z in t.stages.items()}
    engine = {stage: _int(m, z.engine) for stage, z in t.stages.items()}
    others = [(_int(m, o.spot.pos), _bool(m, o.spot.racing)) for o in t.others
              if _bool(m, o.present)]
    flips = [FlipSeen(_bool(m, f.active), _bool(m, f.found), _bool(m, f.reshuffled),
                      f.accept[_int(m, f.pick)], {k: _int(m, v) for k, v in f.skips.items()})
             for f in t.flips]
    drawn = DrawSeen(_counts(m, t.drawn.first), _bool(m, t.drawn.reshuffled),
                     _counts(m, t.drawn.second))
    post = t.post
    expected = Outcome(
        position=_int(m, post.spot.pos), racing_line=_bool(m, post.spot.racing),
        gear=_int(m, post.gear), engine=_int(m, post.zones.engine),
        hand=_counts(m, post.zones.hand), deck=_counts(m, post.zones.deck),
        discard=_counts(m, post.zones.discard), corner_heat=_int(m, t.corners.paid),
        spun=_bool(m, t.corners.spun), stress_taken=_int(m, t.corners.stress_taken),
        speed=_int(m, t.speed), cluttered=_bool(m, t.cluttered),
        finished=_bool(m, t.finished))
    return Scene(
        situation=name, track=t.facts.id, first=_int(m, t.index) == 0,
        pos=_int(m, t.pre.spot.pos), racing=_bool(m, t.pre.spot.racing),
        gear0=_int(m, t.pre.gear), gear=_int(m, t.gear), zones=zones, engine=engine,
        played=_counts(m, t.played), others=others, starters=_int(m, t.starters),
        supply=_int(m, t.pre.zones.supply), other_stress=_int(m, t.other_stress),
        cool_gear=_int(m, t.cool_gear), adr_cool=_bool(m, t.adr_cool),
        adr_move=_bool(m, t.adr_move), adr_first=_bool(m, t.adr_first),
        boost=_bool(m, t.boost), slip=_bool(m, t.slip),
        discarded=_counts(m, t.discarded), flips=flips, drawn=drawn, expected=expected)


def _blocking(t: Turn, m: z3.ModelRef) -> z3.BoolRef:
    """Not this start position, gear and multiset of cards played again."""
    terms: list[z3.ArithRef] = [t.pre.spot.pos, t.gear, *(t.played[k] for k in KINDS)]
    return z3.Or([v != m.eval(v, model_completion=True) for v in terms])


def mine(name: str, count: int, tracks: tuple[str, ...] = BASE_TRACKS) -> list[Scene]:
    """Up to ``count`` distinct witnesses of a situation, rotating over ``tracks``."""
    from proofs.runner import make_solver  # the runner's solver settings

    cond = situation(name).condition
    solvers: dict[str, tuple[Turn, z3.Solver]] = {}
    exhausted: set[str] = set()
    scenes: list[Scene] = []
    turn_no = 0
    while len(scenes) < count and len(exhausted) < len(tracks):
        track = tracks[turn_no % len(tracks)]
        turn_no += 1
        if track in exhausted:
            continue
        if track not in solvers:
            t = cached_turn(track_facts(track))
            s = make_solver()
            lemmas = Ctx(speed_limit=PROVED_MAX_SPEED, movement=True)  # proved by the suite
            s.add(*premises(t, lemmas), *scene_constraints(t), cond(t))
            solvers[track] = (t, s)
        t, s = solvers[track]
        s.push()  # vary the state's shape: alternately prefer the leader, then the last car
        s.add(t.index == 0 if len(scenes) % 2 == 0 else t.index > 0)
        found = s.check() == z3.sat
        if not found:
            s.pop()
            if s.check() != z3.sat:
                exhausted.add(track)
                continue
        m = s.model()
        if found:
            s.pop()
        scenes.append(read_scene(name, t, m))
        s.add(_blocking(t, m))
    return scenes


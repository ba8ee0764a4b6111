"""A readable play-by-play of a race, built from its events and its states.

:func:`race_rounds` turns a race into one :class:`RoundReport` per round (every turn, the
cars ranked when the round ends, the standings after it); :func:`play_by_play` writes them
as plain text that fits in 100 columns. :data:`LEGEND` says what the abbreviations mean.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from heatcore.framework.events import Event
from heatcore.heat.actions import Action, AdrenalineCooldown, UseSymbol
from heatcore.heat.driver import Race
from heatcore.heat.engine import apply
from heatcore.heat.setup import start_race
from heatcore.heat.state import RaceState, car_name
from heatcore.heat.summary import (
    Standing,
    laps_text,
    short_where,
    standings,
    where,
)
from heatcore.heat.track import Track

#: Lines of the play-by-play are wrapped to this width.
WIDTH = 100

#: What the play-by-play's words and abbreviations mean.
LEGEND = """\
How to read it: each turn is
  CAR  gear G  [cards revealed]  speed S  heat H  -> where the car ended; what else happened
Cards: 1-4 speed cards; S Stress (its value is found by flipping cards from the deck:
  "flip 4" means a Stress card turned up a 4); H Heat (cannot be played); U0 and U5 the
  basic upgrades, worth 0 and 5. Speed is the sum, boost, adrenaline and slipstream included.
heat H: the Heat cards paid this turn (a two-step shift, a boost, corners over their limit).
Standings after each round: place, car, L2:14 = lap 2 space 14, g gear, e engine (Heat
  cards left in the engine); the cars that crossed the line are ranked at the round's end."""


@dataclass
class TurnReport:
    """One car's turn: gear, cards revealed, speed, Heat paid, where it ended, the rest."""

    car: int
    gear: int
    cards: tuple[str, ...] = ()
    speed: int = 0
    heat: int = 0
    notes: list[str] = field(default_factory=list)
    position: int | None = None
    finished: bool = False
    spun: bool = False
    legend: bool = False  # a Legend car's turn: no gear, no cards, no Heat


@dataclass
class RoundReport:
    """One round: its turn order, each turn, the cars ranked at its end (place, car), the
    standings after it and the state when it ended."""

    number: int
    order: tuple[int, ...]
    turns: list[TurnReport] = field(default_factory=list)
    ranked: list[tuple[int, int]] = field(default_factory=list)
    standings: tuple[Standing, ...] = ()
    state: RaceState | None = None



class _Reader:
    """Reads the events of a race in order and fills the round reports."""

    def __init__(self) -> None:
        self.rounds: list[RoundReport] = []
        self.gears: dict[int, int] = {}
        self.shift_heat: dict[int, int] = {}  # Heat paid for a two-step shift while planning
        self.turn: TurnReport | None = None
        self.boosting = False

    def read(self, cause: Action | None, ev: Event) -> None:
        k, car = ev.kind, ev.car
        if k == "round-started":
            order = tuple(int(name[1:]) - 1 for name in ev.get("order"))
            self.rounds.append(RoundReport(ev.get("round"), order))
            self.turn = None
        elif k == "ranked" and car is not None:
            self.rounds[-1].ranked.append((ev.get("place"), car))
        elif k == "shifted" and car is not None:
            self.gears[car] = ev.get("gear")
        elif k == "played" and car is not None:
            self.gears.setdefault(car, 1)
        elif k == "paid-heat" and ev.get("cause") == "shift" and car is not None:
            self.shift_heat[car] = ev.get("amount")
        elif k == "turn-started" and car is not None:
            self.turn = TurnReport(car, self.gears.get(car, 1), heat=self.shift_heat.pop(car, 0))
            self.boosting = False
            if self.turn.heat:
                self.turn.notes.append("two-step shift")
            self.rounds[-1].turns.append(self.turn)
        elif self.turn is not None:
            self._turn_event(self.turn, cause, ev)

    def _turn_event(self, turn: TurnReport, cause: Action | None, ev: Event) -> None:
        k = ev.kind
        if k == "legend":
            turn.legend = True
            turn.speed = ev.get("spaces")
            turn.notes.append(f"Legend card: diamond {ev.get('diamond')}, helmet "
                              f"{ev.get('helmet')} ({ev.get('rule')})")
        elif k == "free-boost":
            turn.notes.append("free boost")
        elif k == "revealed":
            turn.cards = ev.get("cards")
        elif k == "speed":
            turn.speed = ev.get("speed")
        elif k == "flipped" and ev.get("kept") and not self.boosting:
            turn.notes.append(f"flip {ev.get('card')}")
        elif k == "moved":
            turn.position = ev.get("position")
            by = ev.get("by")
            if by not in ("cards", "legend"):  # a Legend's move is its speed
                turn.notes.append(f"{by} +{ev.get('spaces')}")
                if by in ("boost", "adrenaline", "direct", "accelerate"):
                    turn.speed += ev.get("spaces")
            self.boosting = False
        elif k == "paid-heat":
            turn.heat += ev.get("amount")
            if ev.get("cause") == "boost":
                self.boosting = True
        elif k == "corner" and ev.get("heat"):
            turn.heat += ev.get("heat")
            turn.notes.append(f"corner {ev.get('corner')} (limit {ev.get('limit')}): "
                              f"{ev.get('heat')} heat")
        elif k == "spun-out":
            self.gears[turn.car] = 1
            turn.heat += ev.get("heat")
            turn.position = ev.get("position")
            turn.spun = True
            turn.notes.append(f"SPUN OUT at corner {ev.get('corner')} (limit "
                              f"{ev.get('limit')}, speed {ev.get('speed')}): "
                              f"+{ev.get('stress')} stress, gear 1")
        elif k == "cluttered":
            self.gears[turn.car] = 1
            turn.notes.append("cluttered hand: no move, gear 1")
        elif k == "cooled":
            source = "adrenaline cooldown" if isinstance(cause, AdrenalineCooldown) else "cooldown"
            if isinstance(cause, UseSymbol):
                source = f"{cause.card} cooldown"
            turn.notes.append(f"{source} {ev.get('amount')}")
        elif k in GARAGE_NOTES:  # the Garage's symbols
            turn.notes.append(GARAGE_NOTES[k](ev))
        elif k == "crossed-finish":
            turn.finished = True


#: How the play-by-play names each Garage event.
GARAGE_NOTES: dict[str, Callable[[Event], str]] = {
    "upgrade-unpaid": lambda ev: f"{ev.get('card')} unpaid: discarded, flip instead",
    "played-direct": lambda ev: f"{ev.get('card')} played direct",
    "reduced-stress": lambda ev: f"reduce stress {ev.get('amount')}",
    "scrapped": lambda ev: f"scrap {len(ev.get('cards'))}",
    "salvaged": lambda ev: f"salvage {' '.join(ev.get('cards'))}",
    "refresh-chosen": lambda ev: f"{ev.get('card')} refresh",
    "sponsor-gained": lambda ev: f"gains Sponsorship card {ev.get('card')}",
    "sponsor-used": lambda ev: f"{' '.join(ev.get('cards'))} used up (one-time)",
}


def race_rounds(race: Race) -> list[RoundReport]:
    """The race round by round, replayed from its setup (the standings need the states)."""
    reader = _Reader()
    state, start_events = start_race(race.setup)
    for ev in start_events:
        reader.read(None, ev)
    for action, recorded in zip(race.actions, race.events, strict=True):
        after, _ = apply(state, action)
        for ev in recorded:
            if ev.kind == "round-started":
                _close(reader.rounds, after)  # the round that just ended
            reader.read(action, ev)
        state = after
    _close(reader.rounds, state)
    return reader.rounds


def _close(rounds: list[RoundReport], state: RaceState) -> None:
    if rounds and rounds[-1].state is None:
        rounds[-1].state = state
        rounds[-1].standings = standings(state)


def pack_line(head: str, items: list[str], sep: str, indent: int) -> list[str]:
    """``head``, a space, then ``items`` joined by ``sep``, wrapped to :data:`WIDTH` between
    items; continuation lines are indented by ``indent``."""
    mark, gap = sep.rstrip(), sep[len(sep.rstrip()):]
    lines = [head]
    for i, item in enumerate(items):
        piece = item + (mark if i < len(items) - 1 else "")
        joiner = " " if i == 0 else gap
        if len(lines[-1]) + len(joiner) + len(piece) > WIDTH:
            lines.append(" " * indent + piece)
        else:
            lines[-1] += joiner + piece
    return lines


def turn_line(track: Track, turn: TurnReport) -> list[str]:
    """One turn as text (wrapped to :data:`WIDTH`)."""
    if turn.finished:
        end = " -> FINISH"
    elif turn.position is None:
        end = ""
    else:
        end = f" -> {where(track, turn.position)}"
    if turn.legend:  # a Legend plays no gear, cards or Heat: its card sets its speed
        head = (f"  {car_name(turn.car)}  Legend  speed {turn.speed}{end}"
                f"{';' if turn.notes else ''}")
    else:
        head = (f"  {car_name(turn.car)}  gear {turn.gear}  [{' '.join(turn.cards)}]  "
                f"speed {turn.speed}  heat {turn.heat}{end}{';' if turn.notes else ''}")
    return pack_line(head, turn.notes, ", ", 8)


def standings_line(track: Track, rows: tuple[Standing, ...]) -> list[str]:
    """The standings after a round as text (wrapped to :data:`WIDTH`)."""
    items = []
    for row in rows:
        if row.finished:
            items.append(f"{row.place} {car_name(row.car)} finished")
        else:
            car = "Legend" if row.legend else f"g{row.gear} e{row.engine}"
            items.append(f"{row.place} {car_name(row.car)} {short_where(track, row.position)} "
                         f"{car}")
    return pack_line("  standings:", items, "  ", 13)


def round_lines(track: Track, report: RoundReport) -> list[str]:
    """A round as text: its turns, the cars ranked and the standings."""
    order = " ".join(car_name(c) for c in report.order)
    lines = [f"Round {report.number} (turn order {order})"]
    for turn in report.turns:
        lines += turn_line(track, turn)
    for place, car in report.ranked:
        lines.append(f"  FINISHED #{place}: {car_name(car)}")
    if any(not row.finished for row in report.standings):
        lines += standings_line(track, report.standings)
    return lines


def play_by_play(race: Race, legend: bool = False) -> str:
    """The race as text: the grid, each round's turns and standings, the final ranking;
    the :data:`LEGEND` first if ``legend``."""
    track = race.final.track
    grid = " ".join(car_name(c) for c in _grid(race))
    setup = race.setup
    lines = [race_legend(race), ""] if legend else []
    cars = (f"{setup.cars} cars ({setup.players} players, {setup.legends} "
            f"Legend{'s' * (setup.legends != 1)})" if setup.legends else f"{setup.players} cars")
    lines.append(f"Race on {track.name}, {cars}, "
                 f"{laps_text(race.final.laps)}; grid from pole: {grid}")
    for ev in race.start_events:
        if ev.kind == "conditions":
            lines.append(f"Weather {ev.get('weather')}; road tokens by corner: "
                         f"{', '.join(ev.get('road'))}")
    shown = [r for r in race_rounds(race) if r.turns or r.ranked]
    for report in shown:
        lines += round_lines(track, report)
    ranking = " ".join(f"{i + 1}. {car_name(c)}" for i, c in enumerate(race.final.ranking))
    last = shown[-1].number if shown else 0
    lines.append(f"Final ranking: {ranking}" if race.final.is_over()
                 else f"The race stops here, in round {last}; ranked so far: "
                      f"{ranking or 'none'}")
    return "\n".join(lines) + "\n"


def race_legend(race: Race) -> str:
    """The :data:`LEGEND` and what the race's modules add to it: a Legend's turn line, the
    race's upgrade cards and their symbols."""
    return "\n".join([LEGEND, *_module_legend(race)])


def upgrades_owned(race: Race) -> str:
    """Each car's upgrades (the Garage module), ``P1 G19 G36 G38; P2 ...``; empty without."""
    return "; ".join(f"{car_name(car)} {' '.join(ups)}"
                     for car, ups in enumerate(race.setup.upgrades))


def _module_legend(race: Race) -> list[str]:
    """What a module adds to the legend: a Legend's turn line, the race's upgrade cards."""
    lines = []
    if race.setup.legends:
        lines.append("A Legend's turn: CAR  Legend  speed S  -> where it ended; the Legend card "
                     "drawn\n  (diamond, helmet) and the rule that moved it. Standings show a "
                     "Legend as 'Legend',\n  not its gear and engine.")
    if race.setup.upgrades:
        from heatcore.tools.heat.garage_legend import upgrade_legend

        lines += upgrade_legend((m for ups in race.setup.upgrades for m in ups), WIDTH)
    return lines


def _grid(race: Race) -> tuple[int, ...]:
    for ev in race.start_events:
        if ev.kind == "race-started":
            return tuple(int(name[1:]) - 1 for name in ev.get("grid"))
    return ()

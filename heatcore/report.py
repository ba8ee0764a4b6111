"""A readable play-by-play of a race, built from its events."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from heatcore.actions import Action, AdrenalineCooldown
from heatcore.driver import Race
from heatcore.events import Event
from heatcore.state import car_name
from heatcore.track import Track, load_track


def where(track: Track, position: int) -> str:
    """A position for people: ``grid 68`` before the start, else ``lap L space S``."""
    space = track.space(position)
    if position <= 0:
        return f"grid {space}"
    return f"lap {(position - 1) // track.spaces_per_lap + 1} space {space}"


@dataclass
class _Turn:
    car: int
    gear: int = 0
    cards: tuple[str, ...] = ()
    speed: int = 0
    heat: int = 0
    notes: list[str] = field(default_factory=list)
    position: int | None = None


def _lines(race: Race, track: Track) -> Iterator[str]:
    gears: dict[int, int] = {}
    shift_heat: dict[int, int] = {}  # Heat paid for a two-step shift while planning
    turn: _Turn | None = None

    def close() -> Iterator[str]:
        if turn is None:
            return
        pos = "" if turn.position is None else f" -> {where(track, turn.position)}"
        extra = f"; {', '.join(turn.notes)}" if turn.notes else ""
        yield (f"  {car_name(turn.car)}  gear {turn.gear}  [{' '.join(turn.cards)}]"
               f"  speed {turn.speed}  heat {turn.heat}{pos}{extra}")

    # every event with the action that caused it (None: the race's start)
    every: list[tuple[Action | None, Event]] = [(None, ev) for ev in race.start_events]
    for action, evs in zip(race.actions, race.events, strict=True):
        every.extend((action, ev) for ev in evs)
    for cause, ev in every:
        k, car = ev.kind, ev.car
        if k == "race-started":
            yield f"Race on {track.name}, {ev.get('laps')} laps, grid {' '.join(ev.get('grid'))}"
        elif k == "conditions":
            yield (f"Weather {ev.get('weather')}; road tokens by corner: "
                   f"{', '.join(ev.get('road'))}")
        elif k == "round-started":
            yield from close()
            turn = None
            yield f"Round {ev.get('round')} (order {' '.join(ev.get('order'))})"
        elif k == "played" and car is not None:
            gears[car] = gears.get(car, 1)
        elif k == "shifted" and car is not None:
            gears[car] = ev.get("gear")
        elif k == "paid-heat" and ev.get("cause") == "shift" and car is not None:
            shift_heat[car] = ev.get("amount")
        elif k == "turn-started" and car is not None:
            yield from close()
            turn = _Turn(car, gear=gears.get(car, 1), heat=shift_heat.pop(car, 0))
            if turn.heat:
                turn.notes.append("two-step shift")
            if ev.get("adrenaline"):
                turn.notes.append("adrenaline available")
        elif turn is None:
            continue
        elif k == "legend":
            turn.speed = ev.get("spaces")
            turn.notes.append(f"Legend: diamond {ev.get('diamond')}, helmet {ev.get('helmet')} "
                              f"({ev.get('rule')})")
        elif k == "free-boost":
            turn.notes.append("free boost")
        elif k == "revealed":
            turn.cards = ev.get("cards")
        elif k == "speed":
            turn.speed = ev.get("speed")
        elif k == "flipped" and ev.get("kept"):
            turn.notes.append(f"flip {ev.get('card')}")
        elif k == "moved":
            turn.position = ev.get("position")
            if ev.get("by") != "cards":
                turn.notes.append(f"{ev.get('by')} +{ev.get('spaces')}")
                if ev.get("by") in ("boost", "adrenaline"):
                    turn.speed += ev.get("spaces")
        elif k == "paid-heat":
            turn.heat += ev.get("amount")
            if ev.get("cause") == "boost":
                turn.notes.append("boost")
        elif k == "corner" and ev.get("heat"):
            turn.heat += ev.get("heat")
            turn.notes.append(f"corner {ev.get('corner')} (limit {ev.get('limit')}) "
                              f"-{ev.get('heat')} heat")
        elif k == "spun-out":
            gears[turn.car] = 1
            turn.heat += ev.get("heat")
            turn.position = ev.get("position")
            turn.notes.append(f"SPUN OUT at corner {ev.get('corner')} (limit {ev.get('limit')}),"
                              f" +{ev.get('stress')} stress")
        elif k == "cluttered":
            gears[turn.car] = 1
            turn.notes.append("cluttered hand: no move, gear 1")
        elif k == "cooled":
            source = "adrenaline cooldown" if isinstance(cause, AdrenalineCooldown) else "cooldown"
            turn.notes.append(f"{source} {ev.get('amount')}")
        elif k == "crossed-finish":
            turn.notes.append("FINISHED")
        elif k == "ranked":
            yield from close()
            turn = None
            yield f"  #{ev.get('place')}: {car_name(car or 0)}"
    yield from close()


def play_by_play(race: Race) -> str:
    """The race as text: each round's turns (gear, cards, speed, heat, position) and the
    final ranking."""
    track = load_track(race.setup.track)
    lines = list(_lines(race, track))
    ranking = " ".join(f"{i + 1}. {car_name(c)}" for i, c in enumerate(race.final.ranking))
    lines.append(f"Final ranking: {ranking}")
    return "\n".join(lines) + "\n"

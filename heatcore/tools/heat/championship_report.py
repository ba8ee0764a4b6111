"""A championship as readable text: each race's setup, sponsors, places and points, and the
standings after it."""

from __future__ import annotations

from heatcore.heat.actions import Plan
from heatcore.heat.modules.championship.press import press_corners
from heatcore.heat.modules.championship.season import Championship, RaceResult
from heatcore.heat.modules.garage.data import is_sponsor
from heatcore.heat.state import car_name
from heatcore.heat.track import load_track
from heatcore.tools.heat.garage_legend import card_legend


def _names(cars: tuple[int, ...]) -> str:
    return " ".join(car_name(c) for c in cars)


def race_lines(result: RaceResult, races: int) -> list[str]:
    """The lines of one race."""
    event, setup = result.event, result.race.setup
    track = load_track(setup.track)
    press = ", ".join(str(n) for n in sorted(press_corners(track, event))) or "none"
    lines = [f"Race {result.number}/{races}: {track.name}, event {event.id} \"{event.title}\"",
             f"  {event.text}",
             f"  laps {setup.laps}; sponsors at the start {event.sponsors} each; "
             f"press corners {press}",
             f"  grid (pole first): {_names(setup.grid)}",
             f"  Garage round: {result.garage}",
             "  upgrades: " + "; ".join(f"{car_name(i)} {' '.join(u)}"
                                        for i, u in enumerate(setup.upgrades))]
    if setup.conditions is not None:
        lines.append(f"  weather {setup.conditions.weather}; road tokens "
                     f"{' '.join(setup.conditions.road)}")
    changes = setup.changes
    if not changes.is_core():
        lines.append(f"  event changes: Heat {changes.heat:+d}, Stress {changes.stress:+d}, "
                     f"hand size {changes.hand}"
                     + ("; a spin eliminates" if changes.eliminate else ""))
    for gain in result.gains:
        when = "before the start" if gain.step < 0 else f"action {gain.step + 1}"
        lines.append(f"  {when}: {gain}")
    played = [(a.car, c) for a in result.race.actions if isinstance(a, Plan)
              for c in a.cards if is_sponsor(c)]
    if played:  # sponsor.play, sponsor.one-time
        lines.append("  sponsors played (used up): "
                     + ", ".join(f"{car_name(car)} {card}" for car, card in played))
    lines.append(f"  rounds: {result.race.final.round}, actions: {len(result.race.actions)}")
    if result.eliminated:
        lines.append(f"  eliminated (spun out, taken off the track): "
                     f"{_names(result.eliminated)}")
    places = "  ".join(f"{i}. {car_name(c)} +{result.points[c]}"
                       for i, c in enumerate(result.order, start=1))
    lines.append(f"  result: {places}")
    lines.append("  standings: " + "  ".join(f"{car_name(c)} {result.totals[c]}"
                                             for c in result.standings))
    return lines


def championship_lines(champ: Championship) -> list[str]:
    """Every race, then the final standings and who holds which upgrades and sponsors, then
    what each card named does."""
    races = len(champ.races)
    lines = [f"Championship {champ.year}: {champ.players} players"
             f"{', weather module' if champ.weather else ''}"]
    for result in champ.races:
        lines.extend(race_lines(result, races))
    lines.append("Final standings:")
    held = champ.races[-1].sponsors.held if champ.races else ()
    for place, car in enumerate(champ.standings, start=1):
        cards = " ".join(held[car]) if held else ""
        lines.append(f"  {place}. {car_name(car)} {champ.totals[car]} points"
                     f"{'; sponsors held: ' + cards if cards else ''}")
    named = {card for result in champ.races for card in result.garage.market}
    named |= {card for result in champ.races for ups in result.race.setup.upgrades
              for card in ups}
    named |= {gain.card for result in champ.races for gain in result.gains if gain.card}
    named |= {card for cards in held for card in cards}
    return lines + card_legend(named)

"""Mining Rallyman GT races for rare situations: seeded races are played and the first step
that shows each situation is kept, as a case (state before, action, state and events after).

``python -m heatcore.rallyman.miner [--seeds N] [--out DIR]`` writes one JSON file per
situation found (the same case format as the fixtures, with ``"ruleset": "rallyman-gt"``).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from heatcore.framework.events import Event, event_to_dict
from heatcore.framework.files import write_atomic
from heatcore.rallyman.actions import Action, Pit, Relay
from heatcore.rallyman.driver import play, random_policy, sensible_policy
from heatcore.rallyman.notation import state_to_dict
from heatcore.rallyman.setup import random_setup
from heatcore.rallyman.state import RaceState

Step = tuple[RaceState, Action, RaceState, tuple[Event, ...]]


def _kinds(step: Step) -> set[str]:
    return {e.kind for e in step[3]}


def _relay_moves_the_loss(step: Step) -> bool:
    """A re-lay that makes the car lose control somewhere else than its rolled dice did."""
    before, action, after, events = step
    if not isinstance(action, Relay) or not ({"spin", "off-track"} & _kinds(step)):
        return False
    turn = before.turn
    assert turn is not None
    lost = next(e for e in events if e.kind in ("spin", "off-track"))
    return bool(turn.plan) and lost.get("at") != before.cars[turn.car].space


@dataclass(frozen=True)
class Situation:
    """A rare situation: its name, the rules it shows, and how to recognise it."""

    name: str
    rules: tuple[str, ...]
    test: Callable[[Step], bool]
    description: str


SITUATIONS = (
    Situation("relay-moves-the-loss", ("rgt.loc.relay",), _relay_moves_the_loss,
              "After losing control, the player re-lays the rolled dice so that control is "
              "lost on another space than where the rolled dice put the car."),
    Situation("blocked", ("rgt.move.blocked",), lambda s: "blocked" in _kinds(s),
              "A car has no space it may enter with any die: its turn ends at once."),
    Situation("yellow-flag", ("rgt.damage.yellow-flag",),
              lambda s: any(e.kind == "damage-drawn" and e.get("token") == "yellow"
                            for e in s[3]),
              "A loss of control draws a yellow flag: it goes on the track."),
    Situation("pit-stop-00", ("rgt.pit.repair",),
              lambda s: isinstance(s[1], Pit) and s[1].lane in ("repair", "both"),
              "A damaged car ends its turn in gear 1 on an edge space and stops in a repair "
              "lane: its marker becomes 00."),
    Situation("cannot-return", ("rgt.pit.blocked-return", "rgt.loc.double-zero"),
              lambda s: "cannot-return" in _kinds(s),
              "A car off the track (or in the pits) cannot come back: its space is taken."),
    Situation("weather-change", ("rgt.damage.weather",), lambda s: "weather-changed" in _kinds(s),
              "A weather-change token is drawn: every dashboard turns over."),
)


def case(situation: Situation, step: Step, seed: int, index: int) -> dict[str, Any]:
    """The mined step as a fixture case."""
    before, action, after, events = step
    return {"id": f"rgt-mined-{situation.name}", "description": situation.description,
            "rules": list(situation.rules), "rulings": [],
            "source": f"race:{seed}:{index}", "ruleset": "rallyman-gt",
            "state": state_to_dict(before),
            "expect": {"steps": [{"action": str(action), "state": state_to_dict(after),
                                  "events": [event_to_dict(e) for e in events]}]}}


def mine(seeds: range) -> dict[str, dict[str, Any]]:
    """The first case of each situation found in the seeded races."""
    found: dict[str, dict[str, Any]] = {}
    for seed in seeds:
        rng = random.Random(seed)
        track = ("albert-park", "proving-ground")[seed % 2]
        policy = (sensible_policy, random_policy)[seed % 3 == 0]
        counter = [0]

        def watch(before: RaceState, action: Action, after: RaceState,
                  events: tuple[Event, ...], seed: int = seed,
                  counter: list[int] = counter) -> None:
            counter[0] += 1
            for situation in SITUATIONS:
                if situation.name not in found and situation.test((before, action, after,
                                                                    events)):
                    found[situation.name] = case(situation, (before, action, after, events),
                                                 seed, counter[0])

        play(random_setup(track, 2 + seed % 5, rng, 1), policy, rng, watch)
        if len(found) == len(SITUATIONS):
            break
    return found


def main(argv: list[str] | None = None) -> int:
    """Mine and write the cases."""
    parser = argparse.ArgumentParser(prog="heatcore.rallyman.miner")
    parser.add_argument("--seeds", type=int, default=200)
    parser.add_argument("--out", default="mined/rallyman")
    args = parser.parse_args(argv)
    found = mine(range(args.seeds))
    for name, data in sorted(found.items()):
        write_atomic(Path(args.out) / f"{name}.json", json.dumps(data, indent=1) + "\n")
    missing = [s.name for s in SITUATIONS if s.name not in found]
    print(f"found {len(found)} of {len(SITUATIONS)} situations"
          + (f"; not found: {', '.join(missing)}" if missing else ""), file=sys.stderr)
    return 0 if not missing else 1


if __name__ == "__main__":
    raise SystemExit(main())

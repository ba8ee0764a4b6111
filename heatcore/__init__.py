"""heatcore: the executable, model-checked rulebook of Heat: Pedal to the Metal."""

from heatcore.actions import Action
from heatcore.engine import apply, check_action, legal_actions
from heatcore.errors import (
    IllegalAction,
    InvalidState,
    MalformedInput,
    RulesError,
    UnsupportedModule,
)
from heatcore.events import Event
from heatcore.notation import (
    format_action,
    parse_action,
    state_from_json,
    state_to_json,
)
from heatcore.setup import RaceSetup, random_setup, start_race
from heatcore.state import RaceState
from heatcore.track import Track, load_track, track_ids

__all__ = [
    "Action",
    "Event",
    "IllegalAction",
    "InvalidState",
    "MalformedInput",
    "RaceSetup",
    "RaceState",
    "RulesError",
    "Track",
    "UnsupportedModule",
    "apply",
    "check_action",
    "format_action",
    "legal_actions",
    "load_track",
    "parse_action",
    "random_setup",
    "start_race",
    "state_from_json",
    "state_to_json",
    "track_ids",
]

__version__ = "0.1.0"

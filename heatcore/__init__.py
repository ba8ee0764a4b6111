"""heatcore: the executable, model-checked rulebook of Heat: Pedal to the Metal."""

from heatcore.framework.errors import (
    IllegalAction,
    InvalidState,
    MalformedInput,
    RulesError,
    UnsupportedModule,
)
from heatcore.framework.events import Event
from heatcore.heat.actions import Action
from heatcore.heat.engine import apply, check_action, legal_actions
from heatcore.heat.notation import (
    format_action,
    parse_action,
    state_from_json,
    state_to_json,
)
from heatcore.heat.setup import RaceSetup, random_setup, start_race
from heatcore.heat.state import RaceState
from heatcore.heat.track import Track, load_track, track_ids

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

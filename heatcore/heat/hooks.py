"""Hook points: where a module of Heat changes a step of the core race.

The core steps (planning, reveal, corners, react, slipstream, placement, cleanup, rounds,
engine) import no module. Where a module changes a step, the step calls one of the hook
points declared here; a module fills the hook points it changes when it is imported
(:mod:`heatcore.heat.modules` imports every module, and the :mod:`heatcore.heat` package
imports that first). A hook point no module fills gives the core rule's own answer, and
every module's filling gives that same answer in a race that does not play the module, so
a race with every module off is exactly the core race.

Each hook point is filled by one module at most (:meth:`HookPoint.fill` refuses a second),
so a step reads the same whatever order the modules were imported in.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Generic, NoReturn, ParamSpec, TypeVar

from heatcore.framework.errors import IllegalAction

if TYPE_CHECKING:
    from heatcore.framework.events import Event
    from heatcore.heat.actions import ChooseSpeed, GainSponsor, UseSymbol
    from heatcore.heat.state import LegendDeck, RaceState, Turn

P = ParamSpec("P")
R = TypeVar("R")


class HookPoint(Generic[P, R]):
    """A named point of a core step that a module may change: the core's answer until a
    module fills it."""

    __slots__ = ("call", "core", "module", "name", "step")

    def __init__(self, name: str, step: str, core: Callable[P, R]) -> None:
        self.name = name
        self.step = step
        self.core = core
        self.call: Callable[P, R] = core
        self.module: str | None = None

    def fill(self, module: str, call: Callable[P, R]) -> None:
        """Let ``module`` answer at this point (once: a second module is refused)."""
        if self.module is not None and self.module != module:
            raise RuntimeError(f"hook point {self.name} is filled by {self.module} already, "
                               f"not by {module}")
        self.call, self.module = call, module

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R:
        return self.call(*args, **kwargs)

    def __repr__(self) -> str:
        return f"<hook point {self.name} ({self.step}), filled by {self.module or 'no module'}>"


def _not_in_core(rule: str, what: str) -> Callable[..., NoReturn]:
    """The core's answer to an action only a module plays: it is not legal."""
    def refuse(*_args: object) -> NoReturn:
        raise IllegalAction(rule, f"{what} needs its module")
    return refuse


def _same_state(state: RaceState, *_args: object) -> RaceState:
    return state


# --- step 3 (reveal) and the Garage's choose-speed stage
reveal_upgrades: HookPoint[[RaceState, Turn, list[Event]], RaceState] = HookPoint(
    "reveal-upgrades", "reveal", _same_state)
speed_choices: HookPoint[[RaceState, Turn], list[ChooseSpeed]] = HookPoint(
    "speed-choices", "reveal", lambda state, turn: [])
check_choose: HookPoint[[RaceState, Turn, ChooseSpeed], None] = HookPoint(
    "check-choose", "reveal", _not_in_core("garage.module", "choosing speeds"))
settle_reveal: HookPoint[[RaceState, Turn, tuple[int, ...], list[Event]], RaceState] = HookPoint(
    "settle-reveal", "reveal", _not_in_core("garage.module", "choosing speeds"))

# --- steps 4-5 (adrenaline, react)
cooldown_allowed: HookPoint[[RaceState, int], bool] = HookPoint(
    "cooldown-allowed", "react", lambda state, car: True)
gear_cooldown_bonus: HookPoint[[RaceState, int], int] = HookPoint(
    "gear-cooldown-bonus", "react", lambda state, car: 0)
cooling_bonus: HookPoint[[RaceState, int], bool] = HookPoint(
    "cooling-bonus", "react", lambda state, car: False)
free_boost: HookPoint[[RaceState, int], bool] = HookPoint(
    "free-boost", "react", lambda state, car: False)
boost_open: HookPoint[[RaceState, int, int], bool] = HookPoint(
    "boost-open", "react", lambda state, car, engine: engine >= 1)
symbol_choices: HookPoint[[RaceState, Turn], list[UseSymbol]] = HookPoint(
    "symbol-choices", "react", lambda state, turn: [])
mandatory_pending: HookPoint[[RaceState, Turn], bool] = HookPoint(
    "mandatory-pending", "react", lambda state, turn: False)
check_symbol: HookPoint[[RaceState, Turn, UseSymbol], None] = HookPoint(
    "check-symbol", "react", _not_in_core("garage.module", "an upgrade symbol"))
apply_symbol: HookPoint[[RaceState, Turn, UseSymbol, list[Event]], RaceState] = HookPoint(
    "apply-symbol", "react", _not_in_core("garage.module", "an upgrade symbol"))

# --- step 6 (slipstream)
slipstream_allowed: HookPoint[[RaceState, int], bool] = HookPoint(
    "slipstream-allowed", "slipstream", lambda state, car: True)
slipstream_extras: HookPoint[[RaceState, int], tuple[int, ...]] = HookPoint(
    "slipstream-extras", "slipstream", lambda state, car: ())
card_slipstream_extras: HookPoint[[RaceState, int], tuple[int, ...]] = HookPoint(
    "card-slipstream-extras", "slipstream", lambda state, car: (0,))

# --- step 7 (corners)
corner_limit: HookPoint[[RaceState, int, int], int] = HookPoint(
    "corner-limit", "corners", lambda state, number, printed: printed)
adjust_limit: HookPoint[[RaceState, int, int], int] = HookPoint(
    "adjust-limit", "corners", lambda state, car, limit: limit)
corner_heat: HookPoint[[RaceState, int, int], int] = HookPoint(
    "corner-heat", "corners", lambda state, number, excess: max(0, excess))

# --- steps 8-9 (discard, replenish)
is_sponsor: HookPoint[[str], bool] = HookPoint("is-sponsor", "cleanup", lambda card: False)
clear_refreshed: HookPoint[[RaceState, int], RaceState] = HookPoint(
    "clear-refreshed", "cleanup", _same_state)

# --- the round, and the actions only a module plays (Legends, Sponsorship cards)
new_round: HookPoint[[LegendDeck | None], LegendDeck | None] = HookPoint(
    "new-round", "rounds", lambda legends: legends)
legend_turn: HookPoint[[RaceState, Turn, list[Event]], RaceState] = HookPoint(
    "legend-turn", "engine", _not_in_core("legend.setup", "a Legend's turn"))
check_legend_shuffle: HookPoint[[RaceState, int, tuple[int, ...]], None] = HookPoint(
    "check-legend-shuffle", "engine",
    _not_in_core("legend.deck", "the Legend deck's shuffle"))
apply_legend_shuffle: HookPoint[[RaceState, tuple[int, ...], list[Event]], RaceState] = HookPoint(
    "apply-legend-shuffle", "engine",
    _not_in_core("legend.deck", "the Legend deck's shuffle"))
check_gain: HookPoint[[RaceState, GainSponsor], None] = HookPoint(
    "check-gain", "engine", _not_in_core("sponsor.in-hand", "a Sponsorship card"))
gain_sponsor: HookPoint[[RaceState, GainSponsor, list[Event]], RaceState] = HookPoint(
    "gain-sponsor", "engine", _not_in_core("sponsor.in-hand", "a Sponsorship card"))

#: Every hook point, in the order of the steps of a turn.
HOOK_POINTS: tuple[HookPoint[..., object], ...] = tuple(
    v for v in list(globals().values()) if isinstance(v, HookPoint))

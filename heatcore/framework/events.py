"""Events: what happened when an action was applied."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from heatcore.framework.values import quick_init


@quick_init  # several built per step
@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened: a kind, the car it happened to, and its details."""

    kind: str
    car: int | None = None
    details: tuple[tuple[str, Any], ...] = ()

    def get(self, key: str) -> Any:
        """A detail by name (None when absent)."""
        for name, value in self.details:
            if name == key:
                return value
        return None

    def __str__(self) -> str:
        who = f"P{self.car + 1} " if self.car is not None else ""
        rest = " ".join(f"{k}={_show(v)}" for k, v in self.details)
        return f"{who}{self.kind} {rest}".rstrip()


def _show(value: Any) -> str:
    if isinstance(value, tuple):
        return ",".join(str(v) for v in value) or "-"
    return str(value)


def event(kind: str, car: int | None = None, **details: Any) -> Event:
    """Build an event; details keep the order given."""
    return Event(kind, car, tuple(details.items()))


def event_to_dict(ev: Event) -> dict[str, Any]:
    """An event as JSON data: its kind, its car (``P1``, ``P2``, ...) and its details."""
    out: dict[str, Any] = {"kind": ev.kind}
    if ev.car is not None:
        out["car"] = f"P{ev.car + 1}"
    for key, value in ev.details:
        out[key] = list(value) if isinstance(value, tuple) else value
    return out

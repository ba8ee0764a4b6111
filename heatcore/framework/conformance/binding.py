"""What the generic kit needs from a ruleset: a reference engine over plain JSON."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

JSON = Any


class Rejected(Exception):
    """The reference refused an input; ``kind`` is its stable error kind."""

    def __init__(self, kind: str, rule: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind
        self.rule = rule
        self.message = message


@dataclass(frozen=True)
class Step:
    """One action of a race: the state before it, the action, the state and events after."""

    before: JSON
    action: str
    after: JSON
    events: list[JSON]
    legal: list[str]


@dataclass(frozen=True)
class RandomRace:
    """A seeded race: its setup (chance outcomes included), start state and every step."""

    seed: int
    label: str
    start: JSON
    steps: list[Step]
    setup: JSON = None


@dataclass(frozen=True)
class Attribution:
    """The cause of a divergence: rule IDs, most likely first, and ``what`` differs, said in
    a short phrase with no car names or positions (so equal causes have equal phrases)."""

    rules: list[str]
    what: str


class CaseBinding(Protocol):
    """What running fixture cases needs of a binding: its rule IDs, and states loaded,
    their legal actions and actions applied (plain JSON)."""

    name: str

    def rule_ids(self) -> list[str]: ...

    def load(self, state: JSON) -> JSON: ...

    def legal(self, state: JSON) -> list[str]: ...

    def apply(self, state: JSON, action: str) -> tuple[JSON, list[JSON]]: ...


class Binding(Protocol):
    """A ruleset seen by the conformance kit. States, actions and events are plain JSON."""

    name: str
    version: str
    ruleset: str  # what a ``start`` request names (a name of spec/games.toml)

    def rulings(self) -> list[str] | dict[str, str]:
        """The rulings the reference follows (the ``start`` reply's ``rulings``)."""
        ...

    def tracks(self) -> list[str]: ...

    def modules(self) -> list[str]:
        """The optional modules the reference plays."""
        ...

    def rule_ids(self) -> list[str]: ...

    def load(self, state: JSON) -> JSON:
        """Validate a state; return its canonical JSON form or raise Rejected."""
        ...

    def legal(self, state: JSON) -> list[str]: ...

    def apply(self, state: JSON, action: str) -> tuple[JSON, list[JSON]]:
        """The next state and events, or raise Rejected."""
        ...

    def setup(self, setup: JSON) -> JSON:
        """The start state of a race setup, or raise Rejected."""
        ...

    def random_race(self, seed: int) -> RandomRace: ...

    def describe(self, rule: str) -> str:
        """A rule's one-line title ('' for an unknown ID)."""
        ...

    def attribute(self, check: str, state: JSON, action: str | None, expected: JSON,
                  actual: JSON, rule_ids: bool = False) -> Attribution:
        """Why ``actual`` differs from ``expected``. ``check`` is what was compared:
        ``legal`` (the actions of ``state``), ``apply``/``reject`` (``action`` in ``state``),
        ``load`` (``state`` refused) or ``setup`` (``state`` is then the race setup).
        ``rule_ids``: the engine's refusals name the reference's rule IDs."""
        ...


def track_of(state: JSON) -> str | None:
    """The board a state is played on, when the ruleset's states name one (``track``)."""
    if isinstance(state, dict) and isinstance(state.get("track"), str):
        return str(state["track"])
    return None


def modules_of(state: JSON) -> list[str]:
    """The optional modules a state plays, as its ``modules`` list names them (a binding
    whose states show a module otherwise has a ``modules_of`` of its own)."""
    if isinstance(state, dict) and isinstance(state.get("modules"), list):
        return [str(m) for m in state["modules"]]
    return []

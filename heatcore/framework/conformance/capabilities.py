"""What an engine declares in its ``start`` reply: what to compare, which rulings, tracks and
modules it follows, whether its refusals name our rule IDs, and which ruleset it plays."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from heatcore.framework.conformance.binding import JSON, modules_of, track_of
from heatcore.framework.registry import DEFAULT_GAME

#: What the harness can compare; an engine declares a non-empty subset (all by default).
COMPARABLE = ("state", "legal", "events")
#: The option name of a ruling's decision as heatcore takes it.
DEFAULT = "default"


@dataclass(frozen=True)
class Capabilities:
    """An engine's declaration, read from its ``start`` reply (see response.start.schema)."""

    ruleset: str = DEFAULT_GAME
    compare: frozenset[str] = frozenset(COMPARABLE)
    rulings: dict[str, str] = field(default_factory=dict)  # ruling ID -> chosen option
    tracks: tuple[str, ...] = ()
    modules: tuple[str, ...] = ()
    rule_ids: bool = False

    @classmethod
    def from_hello(cls, hello: JSON, ruleset: str) -> Capabilities:
        """Read a successful ``start`` reply (already checked against its schema)."""
        raw = hello.get("rulings", [])
        rulings = dict(raw) if isinstance(raw, dict) else {r: DEFAULT for r in raw}
        return cls(ruleset=str(hello.get("ruleset", ruleset)),
                   compare=frozenset(hello.get("compare", COMPARABLE)),
                   rulings=rulings, tracks=tuple(hello.get("tracks", [])),
                   modules=tuple(hello.get("modules", [])),
                   rule_ids=bool(hello.get("rule_ids", False)))

    def alternatives(self) -> dict[str, str]:
        """The rulings the engine decides otherwise than heatcore's default."""
        return {r: o for r, o in sorted(self.rulings.items()) if o != DEFAULT}

    def unsupported(self, state: JSON, rulings: list[str],
                    modules: Callable[[JSON], list[str]] = modules_of) -> str | None:
        """Why a case on ``state`` depending on ``rulings`` and playing the ``modules`` of
        the state (its binding's ``modules_of``) cannot be run (None: it can)."""
        missing = [r for r in rulings if r not in self.rulings]
        if missing:
            return f"ruling(s) not declared: {', '.join(missing)}"
        other = [f"{r}={self.rulings[r]}" for r in rulings if self.rulings[r] != DEFAULT]
        if other:
            return f"ruling(s) decided otherwise: {', '.join(other)}"
        track = track_of(state)
        if track is not None and track not in self.tracks:
            return f"track {track!r} not declared"
        extra = [m for m in modules(state) if m not in self.modules]
        if extra:
            return f"module(s) not declared: {', '.join(map(str, extra))}"
        return None

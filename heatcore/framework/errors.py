"""Typed errors. Each names the rule it enforces; the state it was raised for is unchanged."""

from __future__ import annotations


class RulesError(Exception):
    """Base of every error the engine raises on purpose.

    ``kind`` is a stable machine-readable category, ``rule`` the ID of the rule (or ruling)
    that the input breaks, ``detail`` a sentence for people.
    """

    kind = "error"

    def __init__(self, rule: str, detail: str) -> None:
        super().__init__(f"[{rule}] {detail}")
        self.rule = rule
        self.detail = detail


class MalformedInput(RulesError):
    """Input that cannot be read: bad JSON, a wrong type, an unknown name or token."""

    kind = "malformed"


class InvalidState(RulesError):
    """A state that parses but breaks one or more invariants (see ``validity``)."""

    kind = "invalid-state"


class IllegalAction(RulesError):
    """A well-formed action that the rules do not allow in this state."""

    kind = "illegal-action"


class UnsupportedModule(RulesError):
    """A state or setup that plays a module this engine does not implement (``module``)."""

    kind = "unsupported"

    def __init__(self, module: str, engine: str, rule: str) -> None:
        super().__init__(rule, f"{engine} does not play module {module!r}")
        self.module = module

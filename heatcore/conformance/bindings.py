"""Every ruleset the conformance kit can check, by the name used in ``--ruleset`` and in
the protocol's ``start`` message; each names the binding that makes heatcore its reference."""

from __future__ import annotations

import importlib
from pathlib import Path

from heatcore.conformance.binding import Binding
from heatcore.registry import GAMES, spec_dir

#: ruleset name -> ``module:class`` of its binding
BINDINGS: dict[str, str] = {
    "heat": "heatcore.conformance.heat:HeatBinding",
    "rallyman-gt": "heatcore.rallyman.binding:RallymanBinding",
}


def load_binding(ruleset: str) -> Binding:
    """A new binding of ``ruleset``."""
    module, _, name = BINDINGS[ruleset].partition(":")
    binding: Binding = getattr(importlib.import_module(module), name)()
    return binding


def ruleset_of(binding: Binding) -> str:
    """The protocol name of a binding's ruleset (``heat`` unless it says otherwise)."""
    return str(getattr(binding, "ruleset", "heat"))


def default_fixtures(ruleset: str) -> Path:
    """The fixture corpus of a ruleset: ``fixtures`` in its spec folder."""
    return (spec_dir() / GAMES[ruleset].folder / "fixtures").resolve()

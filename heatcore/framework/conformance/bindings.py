"""Every ruleset the conformance kit can check, by the name used in ``--ruleset`` and in
the protocol's ``start`` message; each names the binding that makes heatcore its reference."""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from pathlib import Path

from heatcore.framework.conformance.binding import Binding
from heatcore.framework.registry import DEFAULT_GAME, GAMES, spec_dir

#: ruleset name -> ``module:class`` of its binding (``spec/games.toml``)
BINDINGS: dict[str, str] = {name: game.binding for name, game in GAMES.items()}


def load_binding(ruleset: str = DEFAULT_GAME) -> Binding:
    """A new binding of ``ruleset`` (the default ruleset if none)."""
    binding: Binding = _binding_class(ruleset)()
    return binding


def ruleset_of(binding: Binding) -> str:
    """The protocol name of a binding's ruleset (the default ruleset unless it says
    otherwise)."""
    return str(getattr(binding, "ruleset", DEFAULT_GAME))


def default_fixtures(ruleset: str) -> Path:
    """The fixture corpus of a ruleset: ``fixtures`` in its spec folder."""
    return (spec_dir() / GAMES[ruleset].folder / "fixtures").resolve()


def with_ruling_options(binding: Binding, options: Sequence[str]) -> Binding:
    """``binding`` playing the alternatives ``options`` name (``ID=ALTERNATIVE``, the
    command line's ``--ruling``): its ``with_ruling_options``. RulesError names a bad
    option; ValueError says the ruleset has no switch for them."""
    choose = getattr(binding, "with_ruling_options", None)
    if choose is None:
        raise ValueError(f"the {ruleset_of(binding)} ruleset plays no --ruling switches "
                         f"(those with switches: {', '.join(_with_switches())})")
    chosen: Binding = choose(options)
    return chosen


def _with_switches() -> list[str]:
    """The rulesets whose binding takes ``--ruling`` options."""
    return [name for name in BINDINGS
            if hasattr(_binding_class(name), "with_ruling_options")]


def _binding_class(ruleset: str) -> type:
    module, _, name = BINDINGS[ruleset].partition(":")
    cls: type = getattr(importlib.import_module(module), name)
    return cls

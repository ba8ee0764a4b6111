"""Serving a mutant: heatcore, patched, under another name."""

from __future__ import annotations

from types import ModuleType
from typing import Any

from heatcore.conformance.heat import HeatBinding
from heatcore.conformance.serve import run


def serve_mutant(name: str) -> int:
    """Serve heatcore (already patched by the caller) as ``mutant:NAME``."""
    binding = HeatBinding()
    binding.name = f"mutant:{name}"
    return run(binding)


def patch(module: ModuleType, name: str, value: Any) -> Any:
    """Replace ``module.name`` with ``value`` (in this process only); return the original."""
    namespace = vars(module)
    original = namespace[name]
    namespace[name] = value
    return original


def original(module: ModuleType, name: str) -> Any:
    """The current value of ``module.name``."""
    return vars(module)[name]

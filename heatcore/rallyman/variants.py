"""Rallyman GT's per-rule variants for attribution by replay
(:mod:`heatcore.conformance.variants`): each planted mutant of
:mod:`heatcore.rallyman.mutants`, as a variant of the rule it breaks."""

from __future__ import annotations

from collections.abc import Callable

from heatcore.conformance.variants import Patcher, Variant
from heatcore.rallyman.mutants import BROKEN, PATCHES


def _plant(name: str) -> Callable[[Patcher], None]:
    def plant(patcher: Patcher) -> None:
        for module, attr, func in PATCHES[name]:
            patcher.setattr(module, attr, func)
    return plant


#: Every variant, named after its mutant.
VARIANTS: tuple[Variant, ...] = tuple(
    Variant(name, BROKEN[name], name.replace("_", " "), _plant(name))
    for name in sorted(PATCHES))

"""Rallyman GT's per-rule variants for attribution by replay
(:mod:`heatcore.framework.conformance.variants`): each planted engine of
:mod:`heatcore.rallyman.mutants` and :mod:`heatcore.rallyman.planted`, as a variant of the
rule it breaks."""

from __future__ import annotations

from collections.abc import Callable

from heatcore.framework.conformance.variants import Patcher, Variant
from heatcore.rallyman import planted
from heatcore.rallyman.mutants import BROKEN, PATCHES


def _plant(patches: tuple[tuple[object, str, Callable[..., object]], ...]
           ) -> Callable[[Patcher], None]:
    def plant(patcher: Patcher) -> None:
        for module, attr, func in patches:
            patcher.setattr(module, attr, func)
    return plant


#: Every variant, named after its mutant (those of heatcore.rallyman.mutants, then of
#: heatcore.rallyman.planted).
VARIANTS: tuple[Variant, ...] = tuple(
    Variant(name, BROKEN[name], name.replace("_", " "), _plant(PATCHES[name]))
    for name in sorted(PATCHES)) + tuple(
    Variant(name, planted.BROKEN[name], name.replace("_", " "), _plant(planted.PATCHES[name]))
    for name in sorted(planted.PATCHES))

"""Attribution by replay: the rule whose deliberate variant reproduces what an engine did.

A *variant* plays one rule otherwise (a planted single-rule change of the reference, made in
this process and undone after). At a divergence the kit replays the diverging step under
each variant of the ruleset's catalogue; a variant whose reply agrees with the foreign
engine's (compared exactly as the harness compares the reference's) explains it, and its
rule is charged first. When no variant reproduces the reply the field heuristics stand.

This check shares the reference's code by design (a variant *is* the reference with one
rule changed): it names a rule, it does not decide pass or fail.
"""

from __future__ import annotations

import copy
import difflib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from heatcore.framework.conformance.binding import JSON

#: Full searches (every variant replayed) one runner makes; after that only the variants
#: that explained an earlier divergence are tried.
SEARCH_BUDGET = 60


class Patcher:
    """``setattr``/``setitem`` that remember what they replaced, undone by :meth:`undo`
    (the part of ``pytest.MonkeyPatch`` a variant uses)."""

    def __init__(self) -> None:
        self._undo: list[Callable[[], None]] = []

    def setattr(self, target: Any, name: str, value: Any) -> None:
        """Set ``target.name`` to ``value`` until :meth:`undo`."""
        own = vars(target) if hasattr(target, "__dict__") else None
        if own is None or name in own:  # a slot (own None) or the target's own attribute
            old = getattr(target, name) if own is None else own[name]
            self._undo.append(lambda: setattr(target, name, old))
        else:
            self._undo.append(lambda: delattr(target, name))
        setattr(target, name, value)

    def setitem(self, mapping: Any, key: Any, value: Any) -> None:
        """Set ``mapping[key]`` to ``value`` until :meth:`undo`."""
        if key in mapping:
            old = mapping[key]
            self._undo.append(lambda: mapping.__setitem__(key, old))
        else:
            self._undo.append(lambda: mapping.__delitem__(key))
        mapping[key] = value

    def undo(self) -> None:
        """Put back everything set, the last first."""
        while self._undo:
            self._undo.pop()()


@dataclass(frozen=True)
class Variant:
    """One rule played otherwise: its rule ID, what it does, and how to plant it."""

    name: str
    rule: str
    what: str
    plant: Callable[[Patcher], None]


class Explainer:
    """Finds the variants that reproduce an engine's reply, remembering those that did.

    ``observe(binding)`` computes the reply view of the diverging step with a fresh copy of
    the reference; ``distance(view)`` is how far that view is from the engine's reply (0:
    the same). A variant explains the divergence when it brings the reply closer than the
    reference's own (``baseline``); the closest explain it best. One that explained an
    earlier divergence exactly is taken without a search (so one defect keeps one
    explanation across races); a full search replays every variant, at most ``budget``
    times per explainer."""

    def __init__(self, binding: Any, variants: Sequence[Variant],
                 budget: int = SEARCH_BUDGET) -> None:
        self.binding = binding
        self.variants = list(variants)
        self.budget = budget
        self.searches = 0
        self.hits: dict[str, int] = {}  # variant name -> divergences it explained

    def _fresh(self) -> Any:
        replay = copy.copy(self.binding)
        for name in ("_memo", "_listed"):
            if hasattr(replay, name):
                setattr(replay, name, None)
        if hasattr(replay, "shared_json"):
            replay.shared_json = False
        return replay

    def _distance(self, variant: Variant, observe: Callable[[Any], JSON],
                  distance: Callable[[JSON], int]) -> int | None:
        patcher = Patcher()
        try:
            variant.plant(patcher)
            view = observe(self._fresh())
        except Exception:  # a variant that cannot play this state explains nothing
            return None
        finally:
            patcher.undo()
        try:
            return distance(view)
        except Exception:
            return None

    def explain(self, observe: Callable[[Any], JSON], distance: Callable[[JSON], int],
                baseline: int) -> list[tuple[int, Variant]]:
        """The variants that bring the reply closer than ``baseline``, closest first, each
        with its distance (catalogue order among equals); [] when none does."""
        by_name = {v.name: v for v in self.variants}
        known = sorted(self.hits.items(), key=lambda kv: -kv[1])
        tried: list[tuple[int, Variant]] = []
        for name, _ in known:
            d = self._distance(by_name[name], observe, distance)
            if d == 0:
                return [(0, by_name[name])]
            if d is not None and d < baseline:
                tried.append((d, by_name[name]))
        if self.searches >= self.budget:
            return sorted(tried, key=lambda dv: dv[0])
        self.searches += 1
        found = list(tried)
        for v in self.variants:
            if v.name in self.hits:
                continue
            d = self._distance(v, observe, distance)
            if d is not None and d < baseline:
                found.append((d, v))
        order = {v.name: i for i, v in enumerate(self.variants)}
        return sorted(found, key=lambda dv: (dv[0], order[dv[1].name]))

    def remember(self, variant: Variant) -> None:
        """Try ``variant`` first from now on (it explained a divergence)."""
        self.hits[variant.name] = self.hits.get(variant.name, 0) + 1


def leaves(value: JSON, path: str = "$") -> dict[str, str]:
    """Every scalar of a JSON value by its path (list items by index)."""
    if isinstance(value, dict):
        out: dict[str, str] = {}
        for key, item in value.items():
            out.update(leaves(item, f"{path}.{key}"))
        return out or {path: "{}"}
    if isinstance(value, list):
        out = {}
        for index, item in enumerate(value):
            out.update(leaves(item, f"{path}[{index}]"))
        return out or {path: "[]"}
    return {path: repr(value)}


def json_distance(a: JSON, b: JSON) -> int:
    """How many scalars differ between two JSON values (present on one side only counts);
    an ``events`` list counts the events outside the longest run they share, aligned (an
    event missing at the start does not shift every later one)."""
    if isinstance(a, dict) and isinstance(b, dict) and isinstance(a.get("events"), list) \
            and isinstance(b.get("events"), list):
        rest = json_distance({k: v for k, v in a.items() if k != "events"},
                             {k: v for k, v in b.items() if k != "events"})
        return rest + event_distance(a["events"], b["events"])
    x, y = leaves(a), leaves(b)
    return sum(1 for k in x.keys() | y.keys() if x.get(k) != y.get(k))


def event_distance(a: list[JSON], b: list[JSON]) -> int:
    """Events inserted, deleted or replaced between two event lists."""
    x = [json.dumps(e, sort_keys=True) for e in a]
    y = [json.dumps(e, sort_keys=True) for e in b]
    matcher = difflib.SequenceMatcher(a=x, b=y, autojunk=False)
    return sum(max(i2 - i1, j2 - j1) for tag, i1, i2, j1, j2 in matcher.get_opcodes()
               if tag != "equal")


#: Rule families that are narrower explanations than a core rule's, when a binding names
#: none (``narrow_rules``): among equally close variants, a switchable ruling's alternative
#: is the narrower (a core rule's variant reproduces it only where the two agree).
NARROW = ("ruling.",)


def rank(found: Sequence[tuple[int, Variant]], heuristic: Sequence[str],
         narrow: Sequence[str] = NARROW) -> list[Variant]:
    """The explaining variants, best first: the closest; among equally close ones, a
    ruling's alternative, then a module's (``narrow``: the binding's ``narrow_rules``, the
    rule families of its modules after its rulings), before a core rule's, then those
    whose rule the field heuristics name (in their order), then catalogue order."""
    place = {r: i for i, r in enumerate(heuristic)}

    def narrowness(rule: str) -> int:
        return 0 if rule.startswith("ruling.") else 1 if rule.startswith(tuple(narrow)) else 2

    return [v for _, v in sorted(found, key=lambda dv: (
        dv[0], narrowness(dv[1].rule), place.get(dv[1].rule, len(place))))]


def catalogue(binding: Any) -> Sequence[Variant]:
    """The variants of a binding's ruleset (its ``variants()``; none without one)."""
    variants = getattr(binding, "variants", None)
    return tuple(variants()) if variants is not None else ()

"""``heatcore.values.replace`` gives what ``dataclasses.replace`` gives, on every engine value
class, and refuses a field the class does not have.

Independent of: the copiers' generated source (the standard library's ``replace`` rebuilds
each value through its ``__init__``).
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from heatcore.conformance.heat import HeatBinding
from heatcore.notation import state_from_dict
from heatcore.values import replace


def test_replace_is_dataclasses_replace_on_states_cars_and_turns() -> None:
    race = HeatBinding().random_race(4)
    checked = 0
    for step in race.steps[:60]:
        state = state_from_dict(step.after)
        values: list[tuple[Any, dict[str, Any]]] = [
            (state, {"cursor": state.cursor + 1, "turn": None}), (state, {}),
            *[(car, {"gear": 4, "position": car.position + 2}) for car in state.cars]]
        if state.turn is not None:
            values.append((state.turn, {"speed": 9}))
        for value, changes in values:
            copy = replace(value, **changes)
            assert copy == dataclasses.replace(value, **changes)
            assert copy is not value and type(copy) is type(value)
            checked += 1
    assert checked > 100
    with pytest.raises(AttributeError, match="wings"):
        replace(state, wings=2)


@dataclasses.dataclass(frozen=True, slots=True)
class _Base:
    a: int
    b: tuple[int, ...]


@dataclasses.dataclass(frozen=True, slots=True)
class _Derived(_Base):
    c: str


def test_replace_on_a_class_with_a_slotted_base_copies_through_object() -> None:
    """The twin class cannot stand in for a class whose base has slots: its copier sets every
    slot through ``object.__setattr__`` (the base's slots included)."""
    value = _Derived(1, (2,), "x")
    assert replace(value, c="y", a=5) == dataclasses.replace(value, c="y", a=5)
    assert replace(value) == value
    base = _Base(3, ())
    assert replace(base, b=(4,)) == _Base(3, (4,))
    with pytest.raises(dataclasses.FrozenInstanceError):
        replace(base).a = 2  # type: ignore[misc]

"""``heatcore.framework.values.replace`` gives what ``dataclasses.replace`` gives, on every engine
value
class, and refuses a field the class does not have.

Independent of: the copiers' generated source (the standard library's ``replace`` rebuilds
each value through its ``__init__``).
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from heatcore.framework.values import replace
from heatcore.heat.conformance.binding import HeatBinding
from heatcore.heat.notation import state_from_dict


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


def _quick_classes() -> list[type]:
    from heatcore.framework.events import Event
    from heatcore.heat.actions import ACTION_CLASSES
    from heatcore.heat.placement import Occupancy
    from heatcore.heat.state import Turn

    return sorted([*ACTION_CLASSES, Event, Occupancy, Turn], key=lambda cls: cls.__name__)


@pytest.mark.parametrize("cls", _quick_classes(), ids=lambda cls: cls.__name__)
def test_quick_init_builds_what_the_dataclass_init_builds(cls: type) -> None:
    """Same parameters and defaults as the dataclass's own ``__init__``, the same value built
    from arguments by position, by name and from defaults, and still frozen."""
    import inspect

    init: Any = cls.__init__
    def params(function: Any) -> list[tuple[str, Any, Any]]:
        return [(p.name, p.kind, p.default)
                for p in inspect.signature(function).parameters.values()]

    assert params(init) == params(init.dataclass_init)
    fields = dataclasses.fields(cls)
    samples = {int: 3, str: "G12", bool: True}
    args = [samples.get(type(f.default), ("1", "S")) if f.default is not dataclasses.MISSING
            else samples.get(f.type if isinstance(f.type, type) else int, 2) for f in fields]
    for given in ({"args": args, "kwargs": {}},
                  {"args": [], "kwargs": {f.name: a for f, a in zip(fields, args, strict=True)}},
                  {"args": args[:sum(f.default is dataclasses.MISSING for f in fields)],
                   "kwargs": {}}):
        quick = cls(*given["args"], **given["kwargs"])
        plain = object.__new__(cls)
        init.dataclass_init(plain, *given["args"], **given["kwargs"])
        assert quick == plain and repr(quick) == repr(plain)
        assert [getattr(quick, f.name) for f in fields] == [getattr(plain, f.name)
                                                            for f in fields]
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(quick, fields[0].name, 5)
    with pytest.raises(TypeError):
        cls(*args, 99)  # one argument too many, as for the dataclass's own

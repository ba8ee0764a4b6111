"""Copying the engine's immutable values with some fields changed.

States, cars and turns are frozen slots dataclasses. ``dataclasses.replace`` rebuilds one
through its ``__init__`` after looking up every field's metadata; the engine does this
several times per action, so this module offers the same operation done directly: read
every slot at once, copy them into a new object, then set the changed ones. The result is
equal to ``dataclasses.replace``'s (no engine value class has a ``__post_init__``).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from operator import attrgetter
from typing import Any, TypeVar

Value = TypeVar("Value")

_new = object.__new__
_set = object.__setattr__


@cache
def _slots(cls: type) -> tuple[tuple[str, ...], Callable[[Any], tuple[Any, ...]]]:
    """The field names of a slots dataclass and a getter of all their values (a tuple)."""
    names: tuple[str, ...] = tuple(cls.__slots__)  # type: ignore[attr-defined]
    if len(names) == 1:
        return names, lambda value: (getattr(value, names[0]),)
    return names, attrgetter(*names)


def replace(value: Value, **changes: Any) -> Value:
    """A copy of the frozen slots dataclass ``value`` with ``changes`` applied
    (an unknown field name raises AttributeError)."""
    cls: type = type(value)
    names, get_all = _slots(cls)
    new: Value = _new(cls)
    for name, field_value in zip(names, get_all(value), strict=True):
        _set(new, name, field_value)
    for name, field_value in changes.items():
        _set(new, name, field_value)
    return new

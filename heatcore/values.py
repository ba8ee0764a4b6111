"""Copying the engine's immutable values with some fields changed.

States, cars and turns are frozen slots dataclasses. ``dataclasses.replace`` rebuilds one
through its ``__init__`` after looking up every field's metadata; the engine does this
several times per action, so this module offers the same operation done directly: copy
every slot, then set the changed ones. The result is equal to ``dataclasses.replace``'s.
"""

from __future__ import annotations

from typing import Any, TypeVar

Value = TypeVar("Value")

_new = object.__new__
_set = object.__setattr__


def replace(value: Value, **changes: Any) -> Value:
    """A copy of the frozen slots dataclass ``value`` with ``changes`` applied
    (an unknown field name raises AttributeError)."""
    cls = type(value)
    new = _new(cls)
    for name in cls.__slots__:  # type: ignore[attr-defined]
        _set(new, name, getattr(value, name))
    for name, field_value in changes.items():
        _set(new, name, field_value)
    return new

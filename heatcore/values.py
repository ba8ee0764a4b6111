"""Copying the engine's immutable values with some fields changed.

States, cars and turns are frozen slots dataclasses. ``dataclasses.replace`` rebuilds one
through its ``__init__`` after looking up every field's metadata; the engine does this
several times per action, so this module offers the same operation done directly: a copier
per class, written out slot by slot once (its source is built from the class's slot names),
copies every slot into a new object, then sets the changed ones. The result is equal to
``dataclasses.replace``'s (no engine value class has a ``__post_init__``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

Value = TypeVar("Value")


def _copier(cls: type) -> Callable[[Any, dict[str, Any]], Any]:
    """``(value, changes) -> copy`` for the frozen slots class ``cls``: ``set(new, "x",
    value.x)`` for each slot ``x``, then each change set over it (a name that is not a slot
    raises AttributeError)."""
    names: tuple[str, ...] = tuple(cls.__slots__)  # type: ignore[attr-defined]
    assert all(name.isidentifier() for name in names)
    lines = ["def copy(value, changes):", "    new = new_object(cls)"]
    lines += [f"    set(new, {name!r}, value.{name})" for name in names]
    lines += ["    for name, changed in changes.items():", "        set(new, name, changed)",
              "    return new"]
    namespace: dict[str, Any] = {"cls": cls, "new_object": object.__new__,
                                 "set": object.__setattr__}
    exec("\n".join(lines), namespace)  # the source holds only the class's slot names
    copy: Callable[[Any, dict[str, Any]], Any] = namespace["copy"]
    return copy


def replace(value: Value, **changes: Any) -> Value:
    """A copy of the frozen slots dataclass ``value`` with ``changes`` applied
    (an unknown field name raises AttributeError)."""
    cls = type(value)
    copy = _COPIERS.get(cls) or _COPIERS.setdefault(cls, _copier(cls))
    new: Value = copy(value, changes)
    return new


_COPIERS: dict[type, Callable[[Any, dict[str, Any]], Any]] = {}

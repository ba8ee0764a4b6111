"""Copying the engine's immutable values with some fields changed.

States, cars and turns are frozen slots dataclasses. ``dataclasses.replace`` rebuilds one
through its ``__init__`` after looking up every field's metadata, and a frozen class sets
each field through ``object.__setattr__``; the engine copies values several times per
action, so this module offers the same operation done directly. Each class gets a copier,
written out slot by slot once (its source is built from the class's slot names): it fills a
new object of a plain *twin* class with the same slots (a plain attribute store, several
times faster than ``object.__setattr__``), sets the changed fields, then makes the object an
instance of the class (``__class__`` assignment, which CPython allows between classes of the
same slot layout; a class where it is refused gets a copier through ``object.__setattr__``).
The result is equal to ``dataclasses.replace``'s (no engine value class has a
``__post_init__``); ``tests/test_values.py`` compares the two.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, TypeVar

Value = TypeVar("Value")
Class = TypeVar("Class", bound=type)


def _copier(cls: type) -> Callable[[Any, dict[str, Any]], Any]:
    """``(value, changes) -> copy`` for the frozen slots class ``cls``: every slot (its
    bases' too) copied, then each change set over it (a name that is not a slot raises
    AttributeError)."""
    names = [name for base in reversed(cls.__mro__) for name in vars(base).get("__slots__", ())]
    assert all(name.isidentifier() for name in names)
    twin = type(cls.__name__, (), {"__slots__": tuple(names)})
    probe: Any = object.__new__(twin)
    try:
        probe.__class__ = cls
    except TypeError:  # another layout (a base class with slots): set through object
        lines = ["def copy(value, changes):", "    new = new_object(cls)"]
        lines += [f"    set(new, {name!r}, value.{name})" for name in names]
        lines += ["    for name, changed in changes.items():", "        set(new, name, changed)"]
    else:
        lines = ["def copy(value, changes):", "    new = new_object(twin)"]
        lines += [f"    new.{name} = value.{name}" for name in names]
        lines += ["    for name, changed in changes.items():",
                  "        setattr(new, name, changed)", "    new.__class__ = cls"]
    namespace: dict[str, Any] = {"cls": cls, "twin": twin, "new_object": object.__new__,
                                 "set": object.__setattr__}
    exec("\n".join([*lines, "    return new"]), namespace)  # source: the slot names only
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


def quick_init(cls: Class) -> Class:
    """Give the frozen slots dataclass ``cls`` an ``__init__`` that stores each field through
    its slot's own setter (a frozen dataclass's ``__init__`` looks up and calls
    ``object.__setattr__`` for each field): the same parameters, order and defaults, the same
    object built, about a third faster. Only for a class whose fields all come in by
    position or name, with plain defaults, and that has no ``__post_init__``; the
    dataclass's own ``__init__`` stays as ``__init__.dataclass_init``."""
    fields = dataclasses.fields(cls)
    assert not hasattr(cls, "__post_init__") and all(
        f.init and not f.kw_only and f.default_factory is dataclasses.MISSING
        and f.name.isidentifier() for f in fields), cls
    namespace: dict[str, Any] = {}
    params, lines = ["self"], []
    for f in fields:
        namespace[f"set_{f.name}"] = vars(cls)[f.name].__set__  # the slot's descriptor
        if f.default is dataclasses.MISSING:
            params.append(f.name)
        else:
            namespace[f"default_{f.name}"] = f.default
            params.append(f"{f.name}=default_{f.name}")
        lines.append(f"    set_{f.name}(self, {f.name})")
    source = "\n".join([f"def __init__({', '.join(params)}):", *lines, "    return None"])
    exec(source, namespace)  # source: the field names only
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.dataclass_init = vars(cls)["__init__"]
    setattr(cls, "__init__", init)  # noqa: B010 (mypy refuses cls.__init__ = ...)
    return cls

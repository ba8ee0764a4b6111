"""A first look at JSON data before it is read: refuse what no reader can even describe.

A state or setup nested 100,000 deep makes any recursive code (a reader, ``repr`` in an
error message, ``json.dumps``) raise RecursionError, and an integer of over 4,300 digits
makes ``str`` and ``repr`` raise ValueError (``sys.int_info.default_max_str_digits``). No
state or setup of either ruleset nests more than a few levels or holds such an integer, so
``check_plain`` refuses both at once, with MalformedInput naming the path, before each
game's notation reads the fields.
"""

from __future__ import annotations

from typing import Any

from heatcore.framework.conformance.jsontext import orjson_dumps
from heatcore.framework.errors import MalformedInput

#: Far deeper than any state or setup (the games' states nest about 5 levels), as deep as
#: orjson writes (recursive readers and ``repr`` go that deep).
MAX_DEPTH = 255
#: Integers at least this large (in size) are refused; ``str`` refuses 10 ** 4300.
MAX_INT = 10 ** 4000


_orjson_dumps = orjson_dumps()


def check_plain(data: Any, path: str, rule: str) -> None:
    """MalformedInput (``rule``) if ``data`` nests deeper than ``MAX_DEPTH`` or holds an
    integer of 4,000 digits or more; walks the data without recursion (after a fast test:
    what orjson writes nests at most 255 deep and holds no integer past 64 bits)."""
    if _orjson_dumps is not None:
        try:
            _orjson_dumps(data)
        except TypeError:  # orjson.JSONEncodeError: deep, long integers, other keys ...
            pass
        else:
            return
    stack: list[tuple[Any, int]] = [(data, 0)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict):
            children: Any = value.values()
        elif isinstance(value, list | tuple):
            children = value
        else:
            if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= MAX_INT:
                raise MalformedInput(rule, f"{path} holds an integer of over 4,000 digits")
            continue
        if depth >= MAX_DEPTH:
            raise MalformedInput(rule, f"{path} nests deeper than {MAX_DEPTH} levels")
        stack.extend((child, depth + 1) for child in children)

"""Compact JSON text, as ``json.dumps(value, separators=(",", ":"))`` writes it.

The server writes two replies per step; ``json.dumps`` (and ``JSONEncoder.encode``) builds a
new C encoder for every call, which costs more than encoding a short reply. :func:`compact`
keeps one C encoder with the same settings (``json.encoder.c_make_encoder``, or the plain
encoder where the C accelerator is missing). :func:`compact_line` writes a value that holds
no float with orjson, five times faster on a state, where orjson's text is the same (see
there). ``tests/test_jsontext.py`` checks that all give the same text.
"""

from __future__ import annotations

import json
import json.encoder
from collections.abc import Callable
from typing import Any

_plain = json.JSONEncoder(separators=(",", ":"))


def _make() -> Callable[[Any], str]:
    make = getattr(json.encoder, "c_make_encoder", None)  # not in typeshed
    if make is None:
        return _plain.encode
    encoder = make(None, _plain.default, json.encoder.encode_basestring_ascii, None,
                   ":", ",", False, False, True)

    def compact(value: Any) -> str:
        if isinstance(value, str):
            return json.encoder.encode_basestring_ascii(value)
        return "".join(encoder(value, 0))

    return compact


#: ``json.dumps(value, separators=(",", ":"))`` (same text; one encoder for every call).
compact: Callable[[Any], str] = _make()


def orjson_dumps() -> Callable[[Any], bytes] | None:
    """``orjson.dumps``, or None where orjson is not installed."""
    try:
        import orjson
    except ImportError:  # a set-up without it: compact's text, at compact's speed
        return None
    dumps: Callable[[Any], bytes] = orjson.dumps
    return dumps


_dumps = orjson_dumps()


def compact_line(value: Any) -> bytes:
    r"""``compact(value) + "\n"`` as ASCII bytes, for a ``value`` that holds no float (orjson
    writes some floats otherwise: ``1e-07`` as ``1e-7``). orjson's text where it is the same:
    where orjson refuses (an int past 64 bits, a key that is not a string) or writes a
    character past ASCII (``compact`` escapes it), ``compact``'s."""
    if _dumps is not None:
        try:
            text = _dumps(value)
        except TypeError:  # orjson.JSONEncodeError
            pass
        else:
            if text.isascii():
                return text + b"\n"
    return (compact(value) + "\n").encode()


#: The standard library's own encoder with the same settings (the tests compare the two).
plain_compact: Callable[[Any], str] = _plain.encode

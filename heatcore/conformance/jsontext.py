"""Compact JSON text, as ``json.dumps(value, separators=(",", ":"))`` writes it.

The server writes two replies per step; ``json.dumps`` (and ``JSONEncoder.encode``) builds a
new C encoder for every call, which costs more than encoding a short reply. :func:`compact`
keeps one C encoder with the same settings (``json.encoder.c_make_encoder``, or the plain
encoder where the C accelerator is missing); ``tests/test_jsontext.py`` checks that both
give the same text.
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
#: The standard library's own encoder with the same settings (the tests compare the two).
plain_compact: Callable[[Any], str] = _plain.encode

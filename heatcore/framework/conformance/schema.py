"""The JSON Schemas of the kit (``spec/schemas/``), compiled once, with typed errors."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from referencing import Registry, Resource

from heatcore.framework.registry import spec_dir


class SchemaError(ValueError):
    """A document that does not match its schema; ``where`` is the JSON path."""

    def __init__(self, schema: str, where: str, message: str) -> None:
        super().__init__(f"{schema}: at {where}: {message}")
        self.schema = schema
        self.where = where


def schemas_dir() -> Path:
    """``spec/schemas``."""
    return spec_dir() / "schemas"


@cache
def _registry() -> Registry:
    resources = []
    for path in sorted(schemas_dir().glob("*.schema.json")):
        doc = json.loads(path.read_text(encoding="utf-8"))
        resources.append((doc["$id"], Resource.from_contents(doc)))
        resources.append((path.name, Resource.from_contents(doc)))
    return Registry().with_resources(resources)


@cache
def validator(name: str) -> Draft202012Validator:
    """The compiled validator of ``spec/schemas/NAME.schema.json``."""
    doc = json.loads((schemas_dir() / f"{name}.schema.json").read_text(encoding="utf-8"))
    return Draft202012Validator(doc, registry=_registry())


def check(name: str, document: Any) -> None:
    """Raise SchemaError unless ``document`` matches schema ``name`` (also for a document
    nested too deeply to check or to describe: RecursionError in jsonschema or its repr)."""
    try:
        error = next(iter(validator(name).iter_errors(document)), None)
        if error is None:
            return
        best = error
        if error.context:
            best = min(error.context, key=lambda e: len(list(e.absolute_path)))
        where = "$" + "".join(f"[{p!r}]" if isinstance(p, int) else f".{p}"
                              for p in best.absolute_path)
        message = best.message[:300]
    except RecursionError:
        raise SchemaError(name, "$", "nested too deeply to check") from None
    raise SchemaError(name, where, message)


def is_valid(name: str, document: Any) -> bool:
    """Whether ``document`` matches schema ``name``."""
    return bool(validator(name).is_valid(document))

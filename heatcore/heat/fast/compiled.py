"""Which build of the fast engine runs: the one compiled by mypyc, or the pure Python source.

``pip install .`` (or ``-e .``) compiles :data:`COMPILED` with mypyc when mypyc and a C
compiler are at hand (``setup.py``) and writes :data:`DIGEST_FILE` beside the compiled
modules: the SHA-256 of every source file the build read (:func:`sources`). At import,
``heatcore.heat.fast`` runs the compiled build only when it is there, is not turned off
(``HEATCORE_FAST=pure``) and was built from the sources as they are now; otherwise it
loads the pure Python modules (so an edited ``race.py`` never runs as its old compiled
self). Only the standard library is used here: ``setup.py`` loads this file by its path.
"""

from __future__ import annotations

import ast
import hashlib
import importlib.machinery
import importlib.util
import json
import os
import sys
from functools import cache
from pathlib import Path
from types import ModuleType

#: The modules mypyc compiles (one group: all of them run compiled, or none).
COMPILED = ("heatcore.heat.fast.tables", "heatcore.heat.fast.race", "heatcore.heat.fast.modules",
            "heatcore.heat.fast.driver")
#: The file beside the compiled modules naming the digest of the sources they came from.
DIGEST_FILE = "compiled.json"
#: ``HEATCORE_FAST=pure`` runs the pure Python build even where a compiled one is installed.
ENV = "HEATCORE_FAST"
PACKAGE_DIR = Path(__file__).resolve().parent
ROOT = PACKAGE_DIR.parent.parent.parent


def source_path(module: str, root: Path = ROOT) -> Path:
    """The source file of ``module`` (a dotted name) under ``root``."""
    return root.joinpath(*module.split(".")).with_suffix(".py")


def sources(root: Path = ROOT) -> list[Path]:
    """The compiled modules' sources and every ``heatcore`` module they import (mypyc may
    bake what it reads of them, such as constants, into the build)."""
    out = {source_path(m, root) for m in COMPILED}
    for module in COMPILED:
        tree = ast.parse(source_path(module, root).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
                out.update(p for name in names if name.startswith("heatcore")
                           and (p := source_path(name, root)).is_file())
    return sorted(out)


def digest(root: Path = ROOT) -> str:
    """SHA-256 over the source files (relative path and bytes of each)."""
    h = hashlib.sha256()
    for path in sources(root):
        h.update(path.relative_to(root).as_posix().encode() + b"\0")
        h.update(path.read_bytes() + b"\0")
    return h.hexdigest()


def _compiled_file(module: str) -> Path | None:
    """The compiled extension of ``module`` beside its source, if there is one."""
    stem = source_path(module, ROOT).with_suffix("")
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        candidate = stem.with_name(stem.name + suffix)
        if candidate.is_file():
            return candidate
    return None


def why_pure() -> str | None:
    """Why the pure Python build runs (None: the compiled build is there and current)."""
    if os.environ.get(ENV, "") == "pure":
        return f"{ENV}=pure"
    if any(_compiled_file(m) is None for m in COMPILED):
        return "not compiled (no mypyc or no C compiler when installed)"
    try:
        built = json.loads((PACKAGE_DIR / DIGEST_FILE).read_text(encoding="utf-8"))["digest"]
    except (OSError, ValueError, KeyError, TypeError):
        return f"the compiled build has no readable {DIGEST_FILE}"
    if built != digest():
        return "the sources changed since the compiled build (reinstall: pip install -e .)"
    return None


def _load_source(module: str) -> ModuleType:
    """Run ``module``'s Python source as ``sys.modules[module]`` (not its compiled twin)."""
    spec = importlib.util.spec_from_file_location(module, source_path(module))
    assert spec is not None and spec.loader is not None
    loaded = importlib.util.module_from_spec(spec)
    _bind(module, loaded)
    spec.loader.exec_module(loaded)
    return loaded


def _bind(module: str, loaded: ModuleType) -> None:
    """Make ``loaded`` what ``import module`` gives: in ``sys.modules`` and as the attribute
    of its package (the import system sets that only for modules it loads itself)."""
    sys.modules[module] = loaded
    parent, _, name = module.rpartition(".")
    if parent in sys.modules:
        setattr(sys.modules[parent], name, loaded)


def select() -> str:
    """Load the build that runs (before anything imports the compiled modules); its name,
    ``compiled`` or ``pure`` with the reason."""
    reason = why_pure()
    if reason is None:
        return "compiled"
    for module in COMPILED:
        if module not in sys.modules and _compiled_file(module) is not None:
            _load_source(module)
    return f"pure ({reason})"


def is_compiled(module: ModuleType) -> bool:
    """Whether ``module`` was loaded from a compiled extension."""
    return not str(getattr(module, "__file__", "")).endswith(".py")


@cache
def pure() -> tuple[ModuleType, ModuleType]:
    """The pure Python ``race`` and ``driver`` modules (see :func:`pure_modules`)."""
    named = pure_modules()
    return named["heatcore.heat.fast.race"], named["heatcore.heat.fast.driver"]


def pure_modules() -> dict[str, ModuleType]:
    """The pure Python modules of :data:`COMPILED`, by name: those of ``heatcore.heat.fast`` when
    the pure build runs, else fresh copies from the same source, loaded beside the compiled
    ones. For tests that patch or subclass ``FastRace`` or ``ModuleRace`` (a compiled class
    allows neither: its methods call each other directly)."""
    import heatcore.heat.fast  # noqa: F401 (the running build first)

    running = [sys.modules[m] for m in COMPILED]
    if not any(is_compiled(m) for m in running):
        copies = running
    else:
        try:
            copies = [_load_source(m) for m in COMPILED]  # in order: each imports the last
        finally:
            for module, loaded in zip(COMPILED, running, strict=True):
                _bind(module, loaded)
    return dict(zip(COMPILED, copies, strict=True))

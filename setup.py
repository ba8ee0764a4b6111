"""Build: the fast engine (``heatcore.heat.fast.race`` and ``driver``) compiled by mypyc when mypyc
and a C compiler are at hand, else pure Python only (``HEATCORE_FAST=pure`` at install time
also skips the compiler). Every other setting is in pyproject.toml; which build runs is
decided at import (``heatcore/heat/fast/compiled.py``)."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import sys
import sysconfig
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent


def _choice() -> Any:
    """heatcore/heat/fast/compiled.py, loaded by its path (it needs only the standard library)."""
    spec = importlib.util.spec_from_file_location(
        "heatcore_fast_compiled", HERE / "heatcore" / "heat" / "fast" / "compiled.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _warn(message: str) -> None:
    print(f"heatcore setup: {message}; the fast engine runs as pure Python", file=sys.stderr)


def _extensions() -> list[Any]:
    if os.environ.get("HEATCORE_FAST", "") == "pure":
        return []
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        _warn(f"no C compiler ({compiler})")
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        _warn("no mypyc")
        return []
    choice = _choice()
    paths = [str(Path(*m.split(".")).with_suffix(".py")) for m in choice.COMPILED]
    try:
        return list(mypycify(paths, opt_level="3", group_name="heatcore.heat.fast.native"))
    except (Exception, SystemExit) as error:  # a type error mypyc refuses, ...
        _warn(f"mypyc failed ({error})")
        return []


class BuildExt(build_ext):
    """Compile; on success write the digest of the sources beside the compiled modules, on
    a compiler failure leave the pure Python build (a warning, not an error)."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as error:
            _warn(f"compiling failed ({error})")
            return
        if not self.extensions:
            return
        choice = _choice()
        target = Path(self.get_ext_fullpath(choice.COMPILED[0])).parent
        target.mkdir(parents=True, exist_ok=True)
        (target / choice.DIGEST_FILE).write_text(
            json.dumps({"digest": choice.digest(HERE)}) + "\n", encoding="utf-8")

    def get_outputs(self) -> list[str]:
        outputs = list(super().get_outputs())
        if self.extensions:
            target = Path(self.get_ext_fullpath(_choice().COMPILED[0])).parent
            outputs.append(str(target / _choice().DIGEST_FILE))
        return outputs


setup(ext_modules=_extensions(), cmdclass={"build_ext": BuildExt})

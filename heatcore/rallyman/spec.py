"""Where Rallyman GT's spec lives, and its ruleset."""

from __future__ import annotations

from pathlib import Path

from heatcore.framework.registry import GAMES, Ruleset, ruleset, spec_dir

GAME = "rallyman-gt"


def spec_folder() -> Path:
    """``spec/rallyman``."""
    return spec_dir() / GAMES[GAME].folder


def rules() -> Ruleset:
    """Rallyman GT's rules and rulings."""
    return ruleset(GAME)

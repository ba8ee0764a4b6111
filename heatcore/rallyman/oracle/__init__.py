"""An independent checker of Rallyman GT races, written apart from the engine.

:class:`~heatcore.rallyman.oracle.checker.Checker` reads the printed data itself
(``spec/rallyman/tracks/*.json``, ``components.toml`` and the switches' defaults in
``rulings.toml``, with plain ``json`` and ``tomllib``: :mod:`.printed`), generates the legal
actions itself (:mod:`.choices`) and judges plain JSON: the canonical state before and after
each step, the action string, the events and the legal actions offered. Each finding names
its rule.

Per state: one car per space; damage tokens conserved between bag, dashboards and the
track's yellow flags; gear markers show the round's colour until their car has played and
the next round's after; the cars still to play in speed > distance > lane order and every
racing car in the round's order; the laid dice: each a forward move of the track from the
one before, a gear die one step from the last gear or paid with brake/boost dice, no gear
die twice, within the dashboard's dice, and the track's warnings and limits on it restated
from the corner rules. Per step: the legal actions against its own generator (laying dice,
rolling, focus, stopping, re-laying the rolled dice after a loss of control, the side after
00, pit lanes; chance points offer none); cars only move forward; the warnings of the rolled
dice and the track against the dashboard's limit decide the loss of
control; focus spent is 1 + 2 + ... + k for the k-th die fixed in the turn, focus earned
flat out is one per die laid, and nothing else changes focus; a round's whole order at its
start; a pit stop offered only when its conditions hold. Every switch of ``rulings.toml`` is
honoured from the state's options (who is beside whom, the yellow flag's reach, gear damage,
the first die from 0, dice after a certain loss, dotted lines, re-lays across the line).

What it is independent of: every rule module of ``heatcore.rallyman`` (``moves``,
``planning``, ``control``, ``rounds``, ``order``, ``components``, ``track``, ``validity``,
``engine``), their tables and the engine's track object; it restates each rule from seed 004
and the rulings. It shares with the engine the canonical JSON of states and actions (the
format it reads) and the rulings' decisions (the printed numbers heatcore chose).
"""

from heatcore.rallyman.oracle.checker import Checker, Finding, check_recorded

__all__ = ["Checker", "Finding", "check_recorded"]

"""Refinement under every ruling alternative: the opt-in profile
``heatcore prove --refine N --every-ruling`` (N: 2,000 by default).

For each alternative a core race can switch on (``spec/rulings.toml``; the modules'
rulings change nothing in a core race and are refined by ``heatcore prove --modules`` and
the module checks), N turns of races played under the alternative are checked against the
model compiled under it (``proofs.refine.refine``: outcomes, uniqueness, the legal choices
at every decision, the race starts and every round's order). One alternative per worker
task; the default ``heatcore prove`` checks 2,000 turns under the defaults only (the tests
check 300 per alternative and hand-made turns for the alternatives random races rarely
show).
"""

from __future__ import annotations

import multiprocessing
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from heatcore.heat.rulings import KNOWN_ALTERNATIVES, MODULE_RULINGS, make_rulings
from proofs.refine import Report, describe, missing_situations, refine

#: The alternatives of the core race (the encoding plays core races only).
CORE_ALTERNATIVES: tuple[tuple[str, str], ...] = tuple(
    sorted(p for p in KNOWN_ALTERNATIVES if p[0] not in MODULE_RULINGS))
#: Turns per alternative by default.
EVERY_RULING_TURNS = 2000


def refine_under(job: tuple[str, str, int]) -> Report:
    """``turns`` turns played and modelled under one alternative."""
    ruling, choice, turns = job
    return refine(turns, rulings=make_rulings({ruling: choice}))


def every_ruling_main(turns: int, jobs: int) -> int:
    """Check ``turns`` turns under each core alternative; print one report each; non-zero
    exit on any disagreement, short sample or unfinished race."""
    start = time.perf_counter()
    failed = 0
    context = multiprocessing.get_context("fork")
    work = [(r, c, turns) for r, c in CORE_ALTERNATIVES]
    with ProcessPoolExecutor(max_workers=max(1, jobs), mp_context=context) as pool:
        for (ruling, choice, _), report in zip(work, pool.map(refine_under, work),
                                               strict=True):
            bad = bool(report.disagreements or report.turns < turns
                       or report.races["unfinished"])
            failed += bad
            print(f"{'FAIL' if bad else 'ok  '} under {ruling}={choice}:")
            print("\n".join("  " + line for line in describe(report)))
            print(f"  ({report.seconds:.1f} s)", flush=True)
            missing = missing_situations(report)
            if missing:  # reported, not failed: an alternative may make a situation rare
                print(f"  note: no turn showing {', '.join(missing)}")
    print(f"{len(work)} alternatives, {failed} failed, {time.perf_counter() - start:.1f}s wall",
          file=sys.stdout)
    return 1 if failed else 0

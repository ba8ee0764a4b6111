"""Attribution benchmark: does the conformance report name the rule a planted engine breaks?

    python3 -m benchmarks.bench_attribution                 # every planted engine
    python3 -m benchmarks.bench_attribution --tiny          # three engines
    python3 -m benchmarks.bench_attribution --mode held-out --json out.json

Each planted engine is heatcore with one rule broken, speaking the protocol: the shipped
mutants (``heatcore.heat.conformance.mutants``: BROKEN and PLANTED; ``heatcore.rallyman.mutants``)
and the benchmark's planted variants (``python -m heatcore.heat.conformance.mutants.planted
RULE#N``: every module variant of :mod:`heatcore.heat.conformance.variants`, weather, road
conditions, Legends and Garage, and a few core ones; ``python -m heatcore.rallyman.planted
NAME``: Rallyman GT rules the shipped mutants leave alone). Each is checked by ``conform`` (the
ruleset's whole corpus and ``--races`` random races, 8 by default, from seed 10013 for Heat
so that every module is played) and scores when the report's first cause names the broken
rule; it shows as one defect when the report has exactly one. Three weather variants that
only accept a setup the rules refuse are left out (``INPUT_ONLY``): conform never sends one;
so is ``ruling.legend-aggressive-stop``'s, which no race on the base tracks can tell apart.

``--mode``: ``full`` attributes with the whole variant catalogue; ``held-out`` with every
variant of the broken rule taken out of it (the rule must then come from the field
heuristics or another rule's variant: how the kit does on a bug it has no variant for);
``heuristics`` with no variant at all (the field heuristics alone).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from heatcore.framework.conformance import harness
from heatcore.framework.conformance.bindings import default_fixtures, load_binding
from heatcore.framework.conformance.reports import report_json
from heatcore.framework.conformance.variants import Variant
from heatcore.framework.files import write_atomic
from heatcore.heat.conformance.mutants import BROKEN, PLANTED
from heatcore.heat.conformance.variants import GARAGE_PLANTED, MODULE_PLANTED
from heatcore.rallyman.mutants import BROKEN as RALLYMAN_BROKEN
from heatcore.rallyman.planted import BROKEN as RALLYMAN_PLANTED

TARGET = 0.80
#: The first race seed of the Heat engines: races 10013-10016 play Legends and the Garage,
#: 10017-10020 the weather too (``HeatBinding.race_options``), so every module is met.
HEAT_SEED = 10_013
#: Variants left out: they only make the engine accept a setup the rules refuse, and
#: ``conform`` never sends a setup the rules refuse (a limit of the kit, not of attribution).
INPUT_ONLY = ("weather.module#1", "weather.draw#1", "road.draw#1",
              # no race on the base tracks tells its two readings apart (proofs/modules.py)
              "ruling.legend-aggressive-stop#1")
#: Core variants the benchmark also plants (their rules have no shipped mutant).
CORE_PLANTED = ("replenish.cleanup#1", "deck.reshuffle#1", "finish.ranking#1", "move.exact#1")


@dataclass(frozen=True)
class Engine:
    """One planted engine: its label, command, ruleset and the rule it breaks."""

    label: str
    argv: tuple[str, ...]
    ruleset: str
    rule: str
    shipped: bool


def engines() -> list[Engine]:
    """Every planted engine of the benchmark, the shipped ones first."""
    py = sys.executable
    out = [Engine(name, (py, "-m", f"heatcore.heat.conformance.mutants.{name}"), "heat", rule, True)
           for name, rule in {**BROKEN, **PLANTED}.items()]
    out += [Engine(name, (py, "-m", "heatcore.rallyman.mutants", name), "rallyman-gt", rule,
                   True) for name, rule in RALLYMAN_BROKEN.items()]
    names: list[tuple[str, str]] = []
    counts: dict[str, int] = {}
    for planted in (*MODULE_PLANTED, *GARAGE_PLANTED):
        n = counts[planted.rule] = counts.get(planted.rule, 0) + 1
        names.append((f"{planted.rule}#{n}", planted.rule))
    names = [(name, rule) for name, rule in names if name not in INPUT_ONLY]
    names += [(name, name.split("#")[0]) for name in CORE_PLANTED]
    out += [Engine(name, (py, "-m", "heatcore.heat.conformance.mutants.planted", name), "heat",
                   rule, False) for name, rule in names]
    out += [Engine(name, (py, "-m", "heatcore.rallyman.planted", name), "rallyman-gt", rule,
                   False) for name, rule in RALLYMAN_PLANTED.items()]
    return out


def check(engine: Engine, races: int, mode: str) -> dict[str, Any]:
    """Run ``conform`` on one planted engine; what its report's first cause names."""
    binding = load_binding(engine.ruleset)
    original = vars(harness)["catalogue"]

    def library(reference: object) -> Sequence[Variant]:
        if mode == "heuristics":
            return ()
        return [v for v in original(reference) if mode == "full" or v.rule != engine.rule]

    vars(harness)["catalogue"] = library
    began = time.perf_counter()
    try:
        outcome = harness.run(binding, list(engine.argv), races,
                              default_fixtures(engine.ruleset), timeout=20.0,
                              seed_base=HEAT_SEED if engine.ruleset == "heat" else
                              harness.RACE_SEED_BASE)
    except harness.CannotStart as error:
        return {"engine": engine.label, "rule": engine.rule, "error": str(error),
                "named": False, "one_defect": False, "caught": False}
    finally:
        vars(harness)["catalogue"] = original
    report = report_json(outcome, binding, " ".join(engine.argv))
    causes, defects = report["causes"], report["defects"]
    first = causes[0]["rule"] if causes else None
    return {"engine": engine.label, "rule": engine.rule, "shipped": engine.shipped,
            "caught": not report["ok"], "first": first, "named": first == engine.rule,
            "defects": len(defects), "one_defect": len(defects) == 1,
            "causes": len(causes), "seconds": round(time.perf_counter() - began, 1)}


def measure(races: int, mode: str, tiny: bool = False) -> dict[str, Any]:
    """Every engine's row and the shares."""
    chosen = engines()
    if tiny:
        chosen = [chosen[0], next(e for e in chosen if e.ruleset == "rallyman-gt"),
                  next(e for e in chosen if not e.shipped)]
    rows = []
    for number, engine in enumerate(chosen, 1):
        rows.append(check(engine, races, mode))
        print(f"  [{number}/{len(chosen)}] {engine.label}: first {rows[-1].get('first')}, "
              f"{rows[-1].get('defects')} defect(s)", file=sys.stderr, flush=True)
    named = sum(r["named"] for r in rows)
    one = sum(r["one_defect"] for r in rows)
    new = [r for r in rows if not r.get("shipped", True)]
    return {"mode": mode, "races": races, "engines": len(rows), "new": len(new),
            "named": named, "share": round(named / len(rows), 3) if rows else 0.0,
            "one_defect": one, "target": TARGET, "rows": rows}


def table(figures: dict[str, Any]) -> str:
    """The per-engine lines and the share."""
    lines = [f"{'engine':38} {'broken rule':34} {'first cause':34} named defects"]
    for r in figures["rows"]:
        lines.append(f"{r['engine'][:38]:38} {r['rule'][:34]:34} "
                     f"{str(r.get('first'))[:34]:34} {'yes' if r['named'] else 'no ':5} "
                     f"{r.get('defects', '-')}")
    lines.append(f"first cause names the broken rule: {figures['named']}/{figures['engines']}"
                 f" = {figures['share']:.0%} (target {TARGET:.0%}; mode {figures['mode']}; "
                 f"{figures['new']} new planted engines); one defect: "
                 f"{figures['one_defect']}/{figures['engines']}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m benchmarks.bench_attribution")
    parser.add_argument("--races", type=int, default=8)
    parser.add_argument("--mode", choices=("full", "held-out", "heuristics"), default="full")
    parser.add_argument("--tiny", action="store_true")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    figures = measure(args.races, args.mode, args.tiny)
    print(table(figures))
    if args.json is not None:
        write_atomic(args.json, json.dumps(figures, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

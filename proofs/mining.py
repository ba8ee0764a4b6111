"""``heatcore prove --mine SITUATION --count N --out DIR``: mine, replay, cross-check, export.

For each situation: mine N distinct witnesses, replay each in the engine, compare the
engine's outcome with the encoding's, and write the witnesses as a conformance suite
``DIR/<situation>.json``. Exit status 1 if a witness disagrees, fails to replay, or fewer
than N witnesses exist.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from heatcore.framework.conformance.schema import check as check_schema
from proofs.miner import SITUATIONS, mine, situation
from proofs.track_graph import BASE_TRACKS
from proofs.witness import case, cross_check, export, replay


def mine_situation(name: str, count: int, out: Path | None,
                   tracks: tuple[str, ...] = BASE_TRACKS) -> tuple[list[str], int]:
    """Mine, replay and cross-check one situation. Returns (report lines, failures)."""
    start = time.perf_counter()
    scenes = mine(name, count, tracks)
    lines, failures, cases = [], 0, []
    for number, scene in enumerate(scenes, start=1):
        run = replay(scene)
        problems = cross_check(scene, run)
        mode = "leader" if scene.first else "last car"
        result = "agrees" if not problems else "DISAGREES: " + "; ".join(problems)
        lines.append(f"{name:<24} {number:>2} {scene.track:<14} {mode:<9} {result}")
        failures += bool(problems)
        if not problems:
            document = case(scene, run, number)
            check_schema("case", document)
            cases.append(document)
    if len(scenes) < count:
        lines.append(f"{name:<24} only {len(scenes)} of {count} witnesses exist")
        failures += 1
    if out is not None and cases:
        path = export(name, cases, out)
        check_schema("suite", json.loads(path.read_text(encoding="utf-8")))
    lines.append(f"{name:<24} {len(cases)} exported, {time.perf_counter() - start:.1f}s")
    return lines, failures


def mine_module_situation(name: str, count: int, out: Path | None,
                          tracks: tuple[str, ...] = BASE_TRACKS) -> tuple[list[str], int]:
    """Mine a module situation (``proofs.module_miner``): witnesses played in the engine and
    exported as cases, or, for a situation proved impossible, the proof and its control."""
    from proofs import module_miner

    start = time.perf_counter()
    if name in module_miner.IMPOSSIBLE:
        prove, control = module_miner.IMPOSSIBLE[name]
        lines, failures = [], 0
        for track in tracks:
            held, caught = str(prove(track)), str(prove(track, control))
            ok = held == "unsat" and caught == "sat"
            lines.append(f"{name:<24} {track:<14} no witness exists ({held}); control "
                         f"{control} {caught}{'' if ok else ': WRONG'}")
            failures += not ok
        return lines, failures
    cases: list[dict[str, object]] = []

    def add(rule: str, cid: str, description: str, state: object, expect: object,
            source: str, also: tuple[str, ...] = ()) -> None:
        cases.append({"id": cid, "description": description, "rules": [rule, *also],
                      "rulings": [], "source": source, "state": state, "expect": expect})

    per_track = max(1, -(-count // len(tracks)))
    lines, failures = [], 0
    for number, witness in enumerate(module_miner.mine(name, per_track, tracks), start=1):
        problems = module_miner.CASES[name](witness, number, add)
        result = "agrees" if not problems else "DISAGREES: " + "; ".join(problems)
        lines.append(f"{name:<24} {number:>2} {witness.track:<14} {result}")
        failures += bool(problems)
    for document in cases:
        check_schema("case", document)
    if out is not None and cases:
        path = export(name, cases, out)
        check_schema("suite", json.loads(path.read_text(encoding="utf-8")))
    lines.append(f"{name:<24} {len(cases)} exported, {time.perf_counter() - start:.1f}s")
    return lines, failures


def mine_main(which: str, count: int, out: str | None,
              tracks: list[str] | None = None) -> int:
    """Run the miner for one situation or ``all``; print a report."""
    from proofs.module_miner import IMPOSSIBLE, MINERS

    modular = [*MINERS, *IMPOSSIBLE]
    if which == "all":
        names = [s.id for s in SITUATIONS] + modular
    else:
        names = [which if which in modular else situation(which).id]
    failures = 0
    for name in names:
        if name in modular:
            lines, failed = mine_module_situation(name, count, Path(out) if out else None,
                                                  tuple(tracks or BASE_TRACKS))
            print("\n".join(lines))
            failures += failed
            continue
        lines, failed = mine_situation(name, count, Path(out) if out else None,
                                       tuple(tracks or BASE_TRACKS))
        print("\n".join(lines))
        failures += failed
    print(f"\n{len(names)} situation(s), {failures} failure(s)")
    return 1 if failures else 0

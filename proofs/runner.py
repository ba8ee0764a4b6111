"""Run every proof and its negative controls on the base tracks and print a table.

A proof holds when each obligation is UNSAT (and the ``premises`` row shows every set of
premises has a model, so no proof holds vacuously); a control is caught when one obligation of the
same proof, built with the bug switched on, is SAT (the model is the counterexample). A
bound proof searches for the largest value a turn reaches (SAT models, galloping then
bisecting); its last step, ``objective > max`` UNSAT, is the proof of the bound.
Proofs named as lemmas (``Proof.lemmas``) run first; their proved claims become premises
of the proofs that name them. A control re-proves those lemmas with its bug on: lemmas that
still hold stay premises; a lemma the bug breaks catches it (the bound's proof rests on it).
The full run also checks 2,000 turns of sampled real races against the model
(``proofs.refine``: the engine's outcome is the model's, the only one, and the legal
choices agree; every race reaches its end), and replays the lasso that refutes a bound on
the rounds of a race (``proofs.lasso``); ``--refine N`` runs the refinement alone.
Exit status: 0 when every proof holds, every control is caught and no turn disagrees.
``--mine SITUATION --count N --out DIR`` runs the edge-case miner instead (``proofs.mining``).
"""

from __future__ import annotations

import multiprocessing
import sys
import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, replace
from typing import Any

import z3

from heatcore.framework.cliutil import Parser, positive
from proofs.catalogue import (
    PROOFS,
    Ctx,
    Proof,
    bound_obligation,
    by_id,
    obligations,
    premises,
)
from proofs.encoding import Turn, cached_turn
from proofs.refine import REFINED_RULES, Report, refine_main, refine_part
from proofs.symbols import MUTATIONS
from proofs.track_graph import BASE_TRACKS, PROOF_RUNS, all_laps, track_facts

TIMEOUT_MS = 120_000
LEMMAS = ("bound-speed", "movement")  # proofs other proofs may assume, run first
PREMISES = "premises"  # the row checking that no proof holds vacuously
REFINEMENT = "refinement"  # the row of the engine-against-model check
TERMINATION = "termination"  # the row of the lasso that refutes a round bound
REFINE_TURNS = 2000  # turns ``heatcore prove`` checks by default


#: The arithmetic theory solver of the proofs' checks: Z3's older simplex-based solver (2)
#: answers the proofs' queries (linear integer arithmetic over small bounded counts) about
#: twice as fast as its default (6). Either decides the same formulas; only the time differs.
PROOF_ARITH_SOLVER = 2


def make_solver(arith_solver: int | None = None) -> z3.Solver:
    """The solver every check uses: light preprocessing, then Z3's SMT core (with the
    arithmetic solver ``arith_solver``, or Z3's default when None)."""
    smt = (z3.Tactic("smt") if arith_solver is None
           else z3.With("smt", **{"arith.solver": arith_solver}))
    tactic = z3.Then("simplify", "propagate-values", "solve-eqs", "elim-uncnstr", smt)
    return z3.TryFor(tactic, TIMEOUT_MS).solver()


def check(assertions: tuple[z3.BoolRef, ...]) -> tuple[z3.CheckSatResult, z3.ModelRef | None]:
    """Check satisfiability; return the model when SAT."""
    solver = make_solver(PROOF_ARITH_SOLVER)
    solver.add(*assertions)
    result = solver.check()
    return result, solver.model() if result == z3.sat else None


@dataclass(frozen=True)
class Row:
    """One line of the table."""

    proof: str
    control: str | None  # the mutation, for a control row
    rules: tuple[str, ...]
    track: str
    result: str
    seconds: float
    ok: bool
    bound: int | None = None


def prove(proof: Proof, track: str, ctx: Ctx) -> Row:
    """Check every obligation of a (non-bound) proof."""
    start = time.perf_counter()
    failed = []
    for o in obligations(proof, track_facts(track), ctx=ctx):
        result, _ = check(o.assertions)
        if result != z3.unsat:
            failed.append(f"{o.label} {result}")
    text = "FAILED: " + ", ".join(failed) if failed else "proved"
    return Row(proof.id, None, proof.rules, track, text, time.perf_counter() - start,
               not failed)


def premise_sets(track: str, speed_limit: int | None) -> dict[str, tuple[z3.BoolRef, ...]]:
    """Every set of premises the proofs use on a track (``Obligation.given``)."""
    facts = track_facts(track)
    sets = {}
    for proof_id, label in (("heat-conservation", "setup"), ("discard", "turn"),
                            ("turn-order", "order"), ("round-order", "round")):
        for o in obligations(by_id(proof_id), facts):
            if o.label == label:
                sets[label] = o.given
    lemmas = Ctx(speed_limit=speed_limit, movement=True)
    sets["turn + lemmas"] = premises(cached_turn(facts), lemmas)
    return sets


def interesting_cases(t: Turn) -> dict[str, z3.BoolRef]:
    """Situations a turn's proofs must cover, so each must be possible under their
    premises: a spin, each reshuffle, a cluttered hand, a slipstream, a boost, the
    adrenaline move, a two-gear shift, a corner paid for, a finish."""
    return {"spin": t.corners.spun,
            "flip reshuffle": z3.Or([z3.And(f.active, f.reshuffled) for f in t.flips]),
            "replenish reshuffle": t.drawn.reshuffled, "cluttered": t.cluttered,
            "slipstream": t.slip, "boost": t.boost, "adrenaline move": t.adr_move,
            "two-gear shift": t.shift_cost == 1, "corner paid": t.corners.paid > 0,
            "finish": t.finished}


def premises_row(track: str, speed_limit: int | None) -> Row:
    """The premises of the proofs are satisfiable (no proof holds vacuously), and every
    interesting case (``interesting_cases``) is reachable under the turn's premises."""
    start = time.perf_counter()
    sets = premise_sets(track, speed_limit)
    empty = [name for name, given in sets.items() if check(given)[0] != z3.sat]
    turn = sets["turn + lemmas"]
    cases = interesting_cases(cached_turn(track_facts(track)))
    empty += [f"case {name}" for name, case in cases.items()
              if check((*turn, case))[0] != z3.sat]
    text = ("FAILED: unsatisfiable " + ", ".join(empty) if empty else
            f"satisfiable; {len(cases)} cases reachable")
    return Row(PREMISES, None, ("round.sequence",), track, text, time.perf_counter() - start,
               not empty)


def maximise(proof: Proof, track: str, ctx: Ctx) -> Row:
    """Find the largest objective value; the final UNSAT step proves the bound."""
    assert proof.objective is not None
    objective = proof.objective
    start = time.perf_counter()
    t = cached_turn(track_facts(track))
    base = premises(t, ctx)

    def at_least(value: int) -> int | None:
        result, model = check(bound_obligation(t, ctx, objective, value - 1).assertions)
        if result == z3.sat and model is not None:
            found: int = model.eval(objective(t), model_completion=True).as_long()
            return found
        return None if result == z3.unsat else -1

    result, model = check(base)
    if model is None:
        return Row(proof.id, None, proof.rules, track, f"FAILED: no turn ({result})",
                   time.perf_counter() - start, False)
    low: int = model.eval(objective(t), model_completion=True).as_long()
    high: int | None = None  # smallest value known unreachable
    step = 1
    while high is None or high > low + 1:
        target = low + step if high is None else (low + high) // 2
        found = at_least(target)
        if found == -1:
            return Row(proof.id, None, proof.rules, track, "FAILED: solver unknown",
                       time.perf_counter() - start, False)
        if found is None:
            high = target
        else:
            low, step = found, step * 2
    return Row(proof.id, None, proof.rules, track, f"proved: max {low}",
               time.perf_counter() - start, True, low)


def control(proof: Proof, track: str, bug: str, ctx: Ctx) -> Row:
    """Run the proof's obligations with ``bug`` on: caught if one is SAT."""
    start = time.perf_counter()
    caught = None
    unknown = False
    for o in obligations(proof, track_facts(track), frozenset({bug}), ctx):
        result, _ = check(o.assertions)
        if result == z3.sat:
            caught = o.label
            break
        unknown = unknown or result != z3.unsat
    text = (f"caught ({caught})" if caught else
            "MISSED (unknown)" if unknown else "MISSED (holds)")
    return Row(proof.id, bug, (MUTATIONS[bug][0],), track, text, time.perf_counter() - start,
               caught is not None)


def lemmas_under_bug(proof: Proof, track: str, ctx: Ctx, bug: str) -> tuple[Ctx, str | None]:
    """Re-prove the proof's lemmas with ``bug`` on. Returns the context of the lemmas that
    still hold, and the first lemma the bug breaks (with the obligation shown SAT)."""
    facts = track_facts(track)
    kept = Ctx(bound=ctx.bound)
    for lemma in proof.lemmas:
        if lemma == "bound-speed":
            assert ctx.speed_limit is not None
            obls = obligations(by_id(lemma), facts, frozenset({bug}),
                               Ctx(bound=ctx.speed_limit))
        else:
            obls = obligations(by_id(lemma), facts, frozenset({bug}))
        for o in obls:
            result, _ = check(o.assertions)
            if result != z3.unsat:
                return kept, f"{lemma}: {o.label}" if result == z3.sat else None
        if lemma == "bound-speed":
            kept = replace(kept, speed_limit=ctx.speed_limit)
        else:
            kept = replace(kept, movement=True)
    return kept, None


def run_task(track: str, proof_id: str, ctx: Ctx, controls: bool) -> list[Row]:
    """One proof and its controls on one track."""
    proof = by_id(proof_id)
    ctx = Ctx(speed_limit=ctx.speed_limit if "bound-speed" in proof.lemmas else None,
              movement="movement" in proof.lemmas)
    if proof.objective is not None:
        row = maximise(proof, track, ctx)
        if row.bound is None:
            return [row]
        ctx = replace(ctx, bound=row.bound)
    else:
        row = prove(proof, track, ctx)
    rows = [row]
    for bug in proof.controls if controls else ():
        start = time.perf_counter()
        held, broken = lemmas_under_bug(proof, track, ctx, bug)
        if broken is None:
            row = control(proof, track, bug, held)
            rows.append(replace(row, seconds=time.perf_counter() - start))
        else:
            rows.append(Row(proof.id, bug, (MUTATIONS[bug][0],), track,
                            f"caught (lemma {broken})", time.perf_counter() - start, True))
    return rows


def refinement_row(reports: list[Report], turns: int, seconds: float) -> Row:
    """The refinement check's row: turns checked and disagreements found."""
    total = Report()
    for r in reports:
        total.merge(r)
    bad = len(total.disagreements)
    stuck = total.races["unfinished"]
    text = (f"{total.turns} turns, {bad} disagreements; {total.races['states']} engine "
            f"states, {stuck} without a way on")
    return Row(REFINEMENT, None, REFINED_RULES, "all", text, seconds,
               bad == 0 and stuck == 0 and total.turns >= turns)


def termination_row() -> Row:
    """Termination: refuted by a lasso the engine replays (``proofs.lasso``)."""
    from proofs.lasso import check_lasso, describe, find_lasso

    start = time.perf_counter()
    lasso = find_lasso()
    problems = check_lasso(lasso) if lasso is not None else ["no lasso found"]
    text = describe(lasso) if not problems else "FAILED: " + "; ".join(problems)
    return Row(TERMINATION, None, ("finish.removed", "ruling.no-round-limit"), "usa", text,
               time.perf_counter() - start, not problems)


#: CPU seconds of one job on one track (a proof with its controls, the premises row, a
#: refinement part of 1,000 turns, the lasso), measured on a 2-core machine. Only the
#: order in which jobs are handed to the workers uses them (longest first, so that no
#: worker is left finishing a long job while the other idles); any order gives the same rows.
JOB_SECONDS: dict[str, float] = {
    "placement": 4.0, REFINEMENT: 1.8, "bound-heat-demand": 1.2, "turn-order": 1.1,
    "corner-payment": 1.1, PREMISES: 0.9, "round-order": 0.8, "bound-speed": 0.8,
    "bound-spin-back": 0.75, "choices": 0.7, "totality": 0.6, "no-deadlock": 0.6,
    "movement": 0.5, "deck-integrity": 0.5, "slipstream": 0.5, "gear-shifts": 0.5,
    "heat-conservation": 0.45, "bound-heat-cost": 0.4, TERMINATION: 0.2,
}


@dataclass(frozen=True)
class Job:
    """One unit of work for a worker: a proof with its controls on a track (``proof``),
    a premises row, a part of the refinement, or the termination row."""

    proof: str  # a proof id, PREMISES, REFINEMENT or TERMINATION
    track: str = ""
    part: int = 0  # a refinement part: its index and its turns
    turns: int = 0

    @property
    def cost(self) -> float:
        """The expected CPU seconds (``JOB_SECONDS``; 0.3 for a job not listed)."""
        seconds = JOB_SECONDS.get(self.proof, 0.3)
        return seconds * self.turns / 1000 if self.proof == REFINEMENT else seconds


def run_all(tracks: list[str], proof_ids: list[str], jobs: int,
            controls: bool = True, refine_turns: int = 0,
            on_rows: Callable[[list[Row]], None] = lambda rows: None) -> list[Row]:
    """Every (track, proof) task, the premises rows, and ``refine_turns`` turns of the
    refinement check alongside, on ``jobs`` workers. The lemmas are handed out first; a
    proof that assumes them, and the premises row (it uses the proved speed limit), as
    soon as its track's lemmas are done; every other job at once, the longest first.
    ``on_rows`` is told each task's rows as soon as the task has finished."""
    wanted = set(proof_ids)
    for p in proof_ids:
        wanted.update(by_id(p).lemmas)
    first = [p for p in LEMMAS if p in wanted]
    rest = [p.id for p in PROOFS if p.id in proof_ids and p.id not in LEMMAS]
    later = [p for p in rest if by_id(p).lemmas]  # wait for their track's lemmas
    rows: list[Row] = []
    ctx = {tr: Ctx() for tr in tracks}
    proved: dict[tuple[str, str], bool] = {}
    lemmas_left = {tr: len(first) for tr in tracks}
    parts = max(1, min(jobs, 4)) if refine_turns else 0
    reports: dict[int, Report] = {}
    ends: list[Row] = []  # the refinement and termination rows
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        started = time.perf_counter()
        running: dict[Future[Any], Job] = {}

        def submit(batch: list[Job]) -> None:
            for job in sorted(batch, key=lambda j: -j.cost):
                fut: Future[Any]
                if job.proof == PREMISES:
                    fut = pool.submit(premises_row, job.track, ctx[job.track].speed_limit)
                elif job.proof == REFINEMENT:
                    fut = pool.submit(refine_part, job.turns, job.part, parts)
                elif job.proof == TERMINATION:
                    fut = pool.submit(termination_row)
                else:
                    fut = pool.submit(run_task, job.track, job.proof, ctx[job.track],
                                      controls and job.proof in proof_ids)
                running[fut] = job

        def lemmas_done(tr: str) -> list[Job]:
            return [Job(p, tr) for p in later] + [Job(PREMISES, tr)]

        submit([Job(p, tr) for p in first for tr in tracks])
        submit([Job(p, tr) for p in rest if p not in later for tr in tracks]
               + [Job(REFINEMENT, part=i, turns=refine_turns // parts
                      + (i < refine_turns % parts)) for i in range(parts)]
               + ([Job(TERMINATION)] if parts else [])
               + [job for tr in tracks if not lemmas_left[tr] for job in lemmas_done(tr)])
        while running:
            done, _ = wait(running, return_when=FIRST_COMPLETED)
            for fut in sorted(done, key=lambda f: running[f].cost, reverse=True):
                job = running.pop(fut)
                tr, p = job.track, job.proof
                if p == REFINEMENT:
                    reports[job.part] = fut.result()
                    if len(reports) == parts:
                        ends.insert(0, refinement_row([reports[i] for i in range(parts)],
                                                      refine_turns,
                                                      time.perf_counter() - started))
                elif p == TERMINATION:
                    ends.append(fut.result())
                elif p == PREMISES:
                    rows.append(fut.result())
                    on_rows(rows[-1:])
                else:
                    got = fut.result()
                    if p in first:
                        proved[tr, p] = got[0].ok
                        if p == "bound-speed":
                            ctx[tr] = Ctx(speed_limit=got[0].bound)
                        lemmas_left[tr] -= 1
                        if not lemmas_left[tr]:
                            submit(lemmas_done(tr))
                    else:
                        missing = [lem for lem in by_id(p).lemmas
                                   if not proved.get((tr, lem), False)]
                        if missing:
                            got[0] = replace(got[0], ok=False, result="FAILED: lemma "
                                             f"{', '.join(missing)} not proved")
                    if p in proof_ids:
                        rows += got
                        on_rows(got)
                if len(ends) == 2:
                    rows += ends
                    on_rows(ends)
                    ends = []
    order = {p.id: i for i, p in enumerate(PROOFS)}
    order[PREMISES] = -1
    order[REFINEMENT] = len(PROOFS)
    order[TERMINATION] = len(PROOFS) + 1
    rows.sort(key=lambda r: (order[r.proof],
                             tracks.index(r.track) if r.track in tracks else len(tracks),
                             r.control or ""))
    return rows


def stream_rows(rows: list[Row]) -> None:
    """Progress: a finished task's proof and controls, one line, on stderr."""
    head = rows[0]
    failed = [r.control or r.proof for r in rows if not r.ok]
    verdict = "ok" if not failed else f"FAILED ({', '.join(failed)})"
    controls = sum(r.control is not None for r in rows)
    extra = f", {controls} controls" if controls else ""
    print(f"  {head.proof} on {head.track}: {head.result}{extra}: {verdict}", file=sys.stderr,
          flush=True)


def format_table(rows: list[Row]) -> str:
    """The table: proof (or control), track, result, seconds, rule IDs."""
    lines = [f"{'proof / control':<38} {'track':<14} {'result':<20} {'s':>6}  rule IDs"]
    sanity = {p.id for p in PROOFS if p.kind == "sanity"}
    for r in rows:
        name = r.proof if r.control is None else f"  control {r.control}"
        if r.control is None and r.proof in sanity:
            name += " (sanity check)"
        lines.append(f"{name:<38} {r.track:<14} {r.result:<20} {r.seconds:6.2f}  "
                     f"{', '.join(r.rules)}")
    return "\n".join(lines)


def modules_main(tracks: list[str] | None) -> int:
    """``heatcore prove --modules``: each module proof must be unsat on every track; each
    control must be caught (sat) on at least one track (some bugs cannot show on every
    board, e.g. a Legend that never reaches a second corner line on USA)."""
    from proofs import modules

    chosen = tuple(t for t in (tracks or BASE_TRACKS) if "@" not in t) or BASE_TRACKS
    results = modules.run(chosen)
    caught: dict[tuple[str, str], bool] = {}
    failed = 0
    for (proof, track, control), result in sorted(results.items(), key=lambda kv: (
            kv[0][0], kv[0][1], kv[0][2] or "")):
        if control is None:
            ok = result == "unsat"
            failed += not ok
            print(f"{'ok  ' if ok else 'FAIL'} {proof:26} {track:14} (proof) {result}")
        else:
            caught[(proof, control)] = caught.get((proof, control), False) or result == "sat"
    for (proof, control), was in sorted(caught.items()):
        failed += not was
        print(f"{'ok  ' if was else 'FAIL'} {proof:26} control {control}: "
              f"{'caught' if was else 'never caught'}")
    print(f"{failed} failed")
    return 1 if failed else 0


def main(argv: list[str] | None = None) -> int:
    """``heatcore prove``: run the proofs and controls; non-zero exit on any failure."""
    from proofs.miner import SITUATIONS
    from proofs.module_miner import IMPOSSIBLE, MINERS

    parser = Parser("heatcore prove", description=__doc__)
    runs = [*BASE_TRACKS, *all_laps()]
    parser.add_argument("--track", action="append", choices=runs, metavar="TRACK[@LAPS]",
                        help="track to prove on, optionally over 1-3 laps (repeatable; "
                             f"default: {' '.join(PROOF_RUNS)}, so every proof holds "
                             "for 1, 2 and 3 laps)")
    parser.add_argument("--all-laps", action="store_true",
                        help="prove on every base track at 1, 2 and 3 laps (12 runs)")
    parser.add_argument("--proof", action="append", choices=[p.id for p in PROOFS],
                        help="proof to run (repeatable; default: all)")
    parser.add_argument("--jobs", type=positive, default=2, help="worker processes")
    parser.add_argument("--no-controls", action="store_true", help="skip the controls")
    parser.add_argument("--progress", choices=("auto", "on", "off"), default="auto",
                        help="each proof's result on stderr as it finishes (auto: when "
                             "stderr is a terminal)")
    parser.add_argument("--list", action="store_true", help="list the proofs and exit")
    parser.add_argument("--modules", action="store_true",
                        help="run the modules' proofs (Legends, weather sectors, the Garage's "
                             "symbol arithmetic) and their controls instead")
    parser.add_argument("--refine", type=positive, metavar="N",
                        help="only check N turns of sampled races against the model "
                             "(refinement); by default the full run checks "
                             f"{REFINE_TURNS}")
    parser.add_argument("--scheduler", default=None, metavar="ADDRESS",
                        help="with --refine: check the turns on the Dask cluster at ADDRESS "
                             "(tcp://host:8786), or 'local' for a LocalCluster of --jobs "
                             "workers")
    parser.add_argument("--mine", metavar="SITUATION",
                        choices=["all", *(s.id for s in SITUATIONS), *MINERS,
                                 *IMPOSSIBLE],
                        help="mine witnesses of a situation ('all' for every one) instead")
    parser.add_argument("--count", type=positive, default=5, help="witnesses per situation")
    parser.add_argument("--out", metavar="DIR", default="mined",
                        help="folder for the witness fixtures")
    args = parser.parse_args(argv)
    if args.modules:
        return modules_main(args.track)
    if args.refine is not None:
        if args.refine < 1:
            parser.error("--refine needs a positive number of turns")
        return refine_main(args.refine, max(1, args.jobs), args.scheduler)
    if args.mine:
        from proofs.mining import mine_main

        return mine_main(args.mine, args.count, args.out, args.track)
    if args.list:
        from proofs.miner import SITUATIONS

        for kind, heading in (("proof", "proofs"), ("sanity", "sanity checks (they restate "
                                                         "a constraint of the encoding)")):
            print(f"{heading}:")
            for p in PROOFS:
                if p.kind == kind:
                    print(f"  {p.id}: {p.claim}\n      rules: {', '.join(p.rules)}\n"
                          f"      controls: {', '.join(p.controls)}")
        from proofs.garage import CATALOGUE as GARAGE_PROOFS

        print("module proofs (heatcore prove --modules):")
        for item in GARAGE_PROOFS:
            print(f"  {item.id}: {item.claim}\n      rules: {', '.join(item.rules)}\n"
                  f"      controls: {', '.join(item.controls)}")
        print("\nsituations for --mine:")
        for sit in SITUATIONS:
            print(f"  {sit.id}: {sit.description} ({', '.join(sit.rules)})")
        return 0
    tracks = args.track or list(all_laps() if args.all_laps else PROOF_RUNS)
    proof_ids = args.proof or [p.id for p in PROOFS]
    start = time.perf_counter()
    full = not args.track and not args.proof and not args.all_laps
    show = args.progress == "on" or (args.progress == "auto" and sys.stderr.isatty())
    rows = run_all(tracks, proof_ids, max(1, args.jobs), not args.no_controls,
                   REFINE_TURNS if full else 0, stream_rows if show else lambda rows: None)
    print(format_table(rows))
    failed = [r for r in rows if not r.ok]
    sanity = {p.id for p in PROOFS if p.kind == "sanity"}
    checks = sum(r.control is None and r.proof in sanity for r in rows)
    other = sum(r.proof in (PREMISES, REFINEMENT, TERMINATION) for r in rows)
    proofs = sum(r.control is None for r in rows) - checks - other
    print(f"\n{proofs} proofs, {checks} sanity checks (restating the encoding, not counted "
          f"as proofs), {other} premises/refinement/termination rows, "
          f"{sum(r.control is not None for r in rows)} controls, "
          f"{len(failed)} failed, {time.perf_counter() - start:.1f}s wall")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

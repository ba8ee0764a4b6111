"""``heatcore perft``: perft counts on one process or spread as subtrees over a backend, and
the reference counts of ``spec/fixtures/perft/perft.json`` (generated and checked here).

A job is one subtree: the race start of ``(track, players, seed)``, a prefix of actions
(canonical strings) and the depth left; its count depends on nothing else, so the jobs of a
run can go anywhere (:mod:`heatcore.framework.cluster`) and their sum is the one-process count.
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from heatcore.framework.cliutil import (
    CommandError,
    Parser,
    nonnegative,
    positive,
    seed,
    writable_dir,
)
from heatcore.framework.cluster import Backend, BackendError, add_arguments, from_arguments
from heatcore.framework.files import write_atomic
from heatcore.framework.terminal import progress
from heatcore.heat.notation import parse_action, setup_to_dict, state_to_dict
from heatcore.heat.perft import (
    ENGINES,
    FORMAT,
    Counter,
    load_reference,
    perft_setup,
    perft_start,
    reference_file,
)
from heatcore.heat.state import RaceState
from heatcore.heat.track import track_ids

#: The seed of every reference entry.
REFERENCE_SEED = 1
#: The deepest reference count by number of cars (a few minutes for all, on 2 cores).
REFERENCE_DEPTHS = {2: 7, 3: 6, 4: 5, 5: 4, 6: 4}
GENERATE = "python3 -m heatcore perft --generate"


@dataclass(frozen=True)
class Job:
    """One subtree: the count of ``depth`` plies after ``prefix`` from the start."""

    track: str
    players: int
    seed: int
    prefix: tuple[str, ...]
    depth: int
    engine: str = "fast"


@dataclass(frozen=True)
class JobResult:
    """A subtree's count and the work it took."""

    count: int
    nodes: int
    hits: int


def node_after(counter: Counter, track: str, players: int, seed: int,
               prefix: tuple[str, ...]) -> RaceState:
    """The node reached from the start by ``prefix``."""
    state = perft_start(perft_setup(track, players, seed), seed)
    for text in prefix:
        state = counter.child(state, parse_action(text))
    return state


def run_job(job: Job) -> JobResult:
    """Count one subtree (runs wherever the backend sends it)."""
    counter = Counter(job.seed, job.engine)
    state = node_after(counter, job.track, job.players, job.seed, job.prefix)
    count = counter.count(state, job.depth)
    return JobResult(count, counter.nodes, counter.hits)


@dataclass
class Run:
    """A perft run: the count, the divide (root action -> count) and the work."""

    count: int
    divide: list[tuple[str, int]]
    nodes: int
    hits: int
    seconds: float


def count(track: str, players: int, seed: int, depth: int, engine: str = "fast",
          backend: Backend | None = None, done: Any = None) -> Run:
    """perft of ``depth`` from the start, split by root action into jobs on ``backend``."""
    backend = backend or Backend()
    began = time.perf_counter()
    counter = Counter(seed, engine)
    root = node_after(counter, track, players, seed, ())
    if depth == 0:
        return Run(1, [], 0, 0, time.perf_counter() - began)
    actions = [str(a) for a in counter.legal(root)]
    jobs = [Job(track, players, seed, (a,), depth - 1, engine) for a in actions]
    results = backend.map(run_job, jobs, done)
    divide = [(a, r.count) for a, r in zip(actions, results, strict=True)]
    return Run(sum(r.count for r in results), divide,
               1 + sum(r.nodes for r in results), sum(r.hits for r in results),
               time.perf_counter() - began)


# --- the reference file ----------------------------------------------------------------

def entries() -> list[tuple[str, int]]:
    """(track, cars) of every reference entry: every base track, 2-6 cars."""
    return [(t, p) for t in track_ids() for p in sorted(REFERENCE_DEPTHS)]


def generate(backend: Backend, depths: dict[int, int] | None = None,
             tracks: list[tuple[str, int]] | None = None, engine: str = "fast",
             done: Any = None) -> dict[str, Any]:
    """The reference counts: for each entry, perft at every depth 0..deepest."""
    depths = depths or REFERENCE_DEPTHS
    todo = tracks or entries()
    jobs: list[Job] = []
    for track, players in todo:
        counter = Counter(REFERENCE_SEED, engine)
        root = node_after(counter, track, players, REFERENCE_SEED, ())
        for depth in range(1, depths[players] + 1):
            if depth < depths[players]:
                jobs.append(Job(track, players, REFERENCE_SEED, (), depth, engine))
            else:
                jobs += [Job(track, players, REFERENCE_SEED, (str(a),), depth - 1, engine)
                         for a in counter.legal(root)]
    results = iter(backend.map(run_job, jobs, done))
    out = []
    for track, players in todo:
        setup = perft_setup(track, players, REFERENCE_SEED)
        deepest = depths[players]
        counts = [1] + [next(results).count for _ in range(1, deepest)]
        last = Counter(REFERENCE_SEED, engine)
        width = len(last.legal(perft_start(setup, REFERENCE_SEED)))
        counts.append(sum(next(results).count for _ in range(width)))
        out.append({"track": track, "players": players, "seed": REFERENCE_SEED,
                    "laps": setup.laps, "counts": counts, "setup": setup_to_dict(setup),
                    "start": state_to_dict(perft_start(setup, REFERENCE_SEED))})
    return {"format": FORMAT, "definition": "spec/perft.md", "generated_by": GENERATE,
            "entries": out}


def check_reference(data: dict[str, Any], max_depth: int, engine: str = "fast") -> list[str]:
    """Every entry's counts up to ``max_depth`` recomputed; the differences (empty: none)."""
    problems = []
    for entry in data["entries"]:
        counter = Counter(entry["seed"], engine)
        root = node_after(counter, entry["track"], entry["players"], entry["seed"], ())
        if state_to_dict(root) != entry["start"]:
            problems.append(f"{entry['track']} {entry['players']} cars: start state differs")
        for depth, want in enumerate(entry["counts"][:max_depth + 1]):
            got = counter.count(root, depth)
            if got != want:
                problems.append(f"{entry['track']} {entry['players']} cars depth {depth}: "
                                f"{got}, the file says {want}")
    return problems


# --- the command -----------------------------------------------------------------------

def parser() -> Parser:
    """``heatcore perft``'s arguments."""
    p = Parser("heatcore perft", description="Count the action sequences of a depth from a "
               "seeded race start (spec/perft.md), or generate/check the reference counts.")
    from heatcore.tools.cli import track

    # no argparse defaults for the one count's options: given with --generate or --check
    # they are refused (see _refuse_ignored_options), then COUNT_DEFAULTS fills them
    p.add_argument("--track", type=track, help="the track (default: usa)")
    p.add_argument("--players", type=int, choices=range(2, 7), metavar="2-6",
                   help="number of cars (default: 2)")
    p.add_argument("--seed", type=seed,
                   help=f"the seed of the start (grid, decks) and of the shuffle orders "
                        f"(default: {REFERENCE_SEED})")
    p.add_argument("--depth", type=nonnegative, help="plies to count (default: 3)")
    p.add_argument("--divide", action="store_true",
                   help="print the count below each legal action of the start")
    p.add_argument("--engine", choices=ENGINES, default="fast", help="the engine that counts")
    p.add_argument("--generate", action="store_true",
                   help="regenerate the reference counts (spec/fixtures/perft/perft.json)")
    p.add_argument("--check", type=positive, default=None, metavar="DEPTH",
                   help="recompute the reference counts up to DEPTH and compare")
    p.add_argument("--out", type=Path, default=None, help="with --generate: write here")
    add_arguments(p, "subtrees")
    return p


def main(argv: list[str]) -> int:
    """Entry point of ``heatcore perft``."""
    args = parser().parse_args(argv)
    _refuse_ignored_options(args)
    backend = from_arguments(args)
    try:
        if args.generate:
            return _generate(args, backend)
        if args.check is not None:
            problems = check_reference(load_reference(), args.check, args.engine)
            for line in problems:
                print(f"DIFFERS {line}")
            print(f"perft reference: {'ok' if not problems else f'{len(problems)} differ'}"
                  f" (checked to depth {args.check})")
            return 1 if problems else 0
        with progress(80, "subtrees") as advance:
            run = count(args.track, args.players, args.seed, args.depth, args.engine,
                        backend, advance)
    except BackendError as error:
        raise CommandError(str(error)) from None
    setup = perft_setup(args.track, args.players, args.seed)
    if args.divide:
        for action, n in run.divide:
            print(f"{action}: {n}")
        print()
    print(f"perft {args.track}, {args.players} cars, seed {args.seed}, {setup.laps} laps, "
          f"depth {args.depth}: {run.count}")
    rate = run.nodes / run.seconds if run.seconds > 0 else float("inf")
    print(f"nodes expanded: {run.nodes}, table hits: {run.hits}, {run.seconds:.2f} s, "
          f"{rate:,.0f} nodes/s ({args.engine} engine, {backend.name})")
    return 0


#: The one count's options when not given (``heatcore perft`` alone counts these).
COUNT_DEFAULTS = {"track": "usa", "players": 2, "seed": REFERENCE_SEED, "depth": 3}


def _refuse_ignored_options(args: argparse.Namespace) -> None:
    """CommandError for an option the chosen mode would silently ignore; then the one
    count's options not given take :data:`COUNT_DEFAULTS`."""
    mode = "--generate" if args.generate else "--check" if args.check is not None else None
    if args.generate and args.check is not None:
        raise CommandError("--generate and --check are two modes: give one")
    given = [f"--{name}" for name in COUNT_DEFAULTS if getattr(args, name) is not None]
    if given and mode is not None:
        raise CommandError(f"{', '.join(given)} {'choose' if len(given) > 1 else 'chooses'} "
                           f"the one count; {mode} counts the reference entries "
                           f"(spec/fixtures/perft/perft.json): give one or the other")
    for name, default in COUNT_DEFAULTS.items():
        if getattr(args, name) is None:
            setattr(args, name, default)
    if args.divide and mode is not None:
        raise CommandError(f"--divide divides one count; it cannot be used with {mode}")
    if args.out is not None and not args.generate:
        raise CommandError("--out names the file --generate writes: add --generate")


def _generate(args: argparse.Namespace, backend: Backend) -> int:
    out = args.out or reference_file()
    writable_dir(out.parent)  # before minutes of counting, not after
    started = time.perf_counter()
    with progress(1500, "perft subtrees") as advance:
        data = generate(backend, engine=args.engine, done=advance)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(out, json.dumps(data, indent=1) + "\n")
    except OSError as error:
        raise CommandError(f"cannot write {out}: {error.strerror or error}") from None
    print(f"perft reference: {len(data['entries'])} entries written to {out} "
          f"({time.perf_counter() - started:.0f} s, {backend.name})")
    return 0

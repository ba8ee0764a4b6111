"""The heatcore benchmark suite: one command prints a table and writes JSON.

    python3 -m benchmarks                 # full run (about two minutes on a 2-core machine)
    python3 -m benchmarks --tiny          # a few races only: keeps the suite working
    python3 -m benchmarks --json out.json # where to write the figures

Figures, for both engines (the reference engine ``heatcore.heat.engine`` and the fast engine
``heatcore.heat.fast``, which play the same races): random-race throughput (races/s, actions/s)
for 2, 4 and 6 players on each base track; ``legal_actions`` and ``apply`` rates on states
sampled from real races; state JSON encode and decode rates; memory per state; growth with
players and laps; how a batch of races scales from 1 to 2 worker processes; Rallyman GT's
races per second and microseconds per action on both of its tracks for 2, 4 and 6 cars
(``benchmarks.bench_rallyman``); and the time of each Z3 proof and of its negative controls
(``benchmarks.bench_proofs``: the whole proof suite on the four base tracks, 2 workers;
``--tiny`` proves one proof on one track only).
Races are played with the random policy (every step calls ``legal_actions`` then
``apply``): by ``heatcore.heat.driver.play`` on the reference engine, by ``heatcore.heat.fast.play``
on the fast one. The fast engine's figures are those of the build this process runs
(``heatcore.heat.fast.BUILD``: compiled by mypyc when installed with a C compiler, else pure
Python); the target cell is also played by each build in a new process of its own
(``HEATCORE_FAST=pure`` for the pure one). Protocol throughput: steps/s through a
``heatcore serve`` subprocess, per second and per CPU-second of the server
(``benchmarks.bench_protocol``). The wall time of ``heatcore prove`` as a user runs it
(``benchmarks.bench_prove``). The first table puts issue 18's figures side by side.

The issue's targets are checked on the fast engine after a warm-up (its legal-action
tables fill during the first races of a process); the figure of the warm-up races is
printed beside it.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks import bench_proofs, bench_protocol, bench_prove, bench_rallyman, bench_scale
from heatcore.framework.files import write_atomic
from heatcore.framework.terminal import is_terminal, progress
from heatcore.heat.actions import Action
from heatcore.heat.batch import run_races
from heatcore.heat.driver import play, random_policy, random_race
from heatcore.heat.engine import apply, legal_actions
from heatcore.heat.fast import BUILD, CollectorPaused, FastRace, fast_random_race
from heatcore.heat.notation import state_from_json, state_to_json
from heatcore.heat.setup import random_setup
from heatcore.heat.state import RaceState
from heatcore.heat.track import track_ids
from proofs.track_graph import PROOF_RUNS

DEFAULT_JSON = Path(__file__).with_name("results.json")
#: The issue's targets (single process): 6-player USA random races.
TARGET_RACES_PER_SECOND = 400.0
TARGET_ACTIONS_PER_SECOND = 50_000.0
#: Issue 18's protocol target: steps/s through ``heatcore serve``.
TARGET_PROTOCOL_STEPS_PER_SECOND = 10_000.0


@dataclass(frozen=True)
class Sizes:
    """How much work each benchmark does (``--tiny`` shrinks everything)."""

    races: int  # races per (track, players) throughput cell
    warmup_races: int  # 6-player USA races played before the target check
    target_races: int  # 6-player USA races for the target check
    sample_races: int  # races whose states are sampled for legal/apply/JSON rates
    sample_states: int  # states kept from them
    repeat: int  # passes over the sampled states
    lap_races: int  # races per laps count
    pool_races: int  # races per worker count
    memory_states: int  # states decoded for the memory figure
    proof_tracks: tuple[str, ...]  # tracks the proofs run on
    proof_ids: tuple[str, ...] | None  # proofs timed (None: every proof)
    proof_jobs: int  # worker processes for the proofs
    protocol_races: int  # recorded races sent through heatcore serve


FULL = Sizes(races=20, warmup_races=100, target_races=300, sample_races=10,
             sample_states=2000, repeat=3, lap_races=10, pool_races=300, memory_states=500,
             proof_tracks=PROOF_RUNS, proof_ids=None,
             proof_jobs=2, protocol_races=40)
TINY = Sizes(races=1, warmup_races=1, target_races=2, sample_races=1, sample_states=50,
             repeat=1, lap_races=1, pool_races=4, memory_states=20,
             proof_tracks=("usa",), proof_ids=("turn-order",), proof_jobs=1,
             protocol_races=2)


def timed(work: Callable[[], Any]) -> tuple[Any, float]:
    """``work()``'s result and the wall time it took."""
    start = time.perf_counter()
    result = work()
    return result, time.perf_counter() - start


def cpu_timed(work: Callable[[], Any]) -> tuple[Any, float, float]:
    """``work()``'s result, the wall time and the CPU time of this process it took (the
    CPU time is less disturbed by other work on a busy machine)."""
    cpu = time.process_time()
    result, seconds = timed(work)
    return result, seconds, time.process_time() - cpu


def rate(count: float, seconds: float) -> float:
    return count / seconds if seconds > 0 else float("inf")


ENGINES = ("reference", "fast")


def race_throughput(track: str, players: int, races: int, laps: int | None = None,
                    first_seed: int = 0, engine: str = "reference") -> dict[str, Any]:
    """Play ``races`` seeded random races on ``engine``; races/s, actions/s and actions per
    race. A batch on the fast engine runs with the cyclic garbage collector paused, as
    ``heatcore.heat.batch.run_races`` runs one (``heatcore.heat.fast.CollectorPaused``)."""
    play_race = fast_random_race if engine == "fast" else random_race

    def work() -> int:
        with CollectorPaused(engine == "fast"):
            return sum(len(play_race(track, players, seed, laps).actions)
                       for seed in range(first_seed, first_seed + races))
    actions, seconds, cpu_seconds = cpu_timed(work)
    return {"engine": engine, "track": track, "players": players, "laps": laps, "races": races,
            "actions": actions, "seconds": seconds, "cpu_seconds": cpu_seconds,
            "races_per_s": rate(races, seconds), "actions_per_s": rate(actions, seconds),
            "races_per_cpu_s": rate(races, cpu_seconds),
            "actions_per_cpu_s": rate(actions, cpu_seconds),
            "actions_per_race": actions / races, "us_per_action": 1e6 * seconds / actions}


def sample_states(sizes: Sizes) -> list[tuple[RaceState, Action]]:
    """(state, action chosen there) pairs from real random races on every base track,
    2-6 players; an evenly spaced sample of ``sizes.sample_states`` of them."""
    pairs: list[tuple[RaceState, Action]] = []
    seed = 1000
    for _ in range(sizes.sample_races):
        for track in track_ids():
            for players in (2, 4, 6):
                seed += 1
                rng = random.Random(seed)
                play(random_setup(track, players, rng), random_policy, rng,
                     on_step=lambda before, action, after, events: pairs.append((before, action)))
    step = max(1, len(pairs) // sizes.sample_states)
    return pairs[::step][: sizes.sample_states]


def step_rates(pairs: list[tuple[RaceState, Action]], repeat: int) -> dict[str, Any]:
    """Calls per second of ``legal_actions``, ``apply``, ``state_to_json`` and
    ``state_from_json`` over the sampled states, and of the fast engine's ``legal_actions``
    and ``apply`` (each on a fresh ``FastRace`` made before the clock starts, as the fast
    engine changes its race in place and remembers its legal actions) and of its
    conversions ``FastRace.from_state`` and ``to_state``."""
    states = [state for state, _ in pairs]
    texts = [state_to_json(state) for state in states]

    def legal() -> None:
        for _ in range(repeat):
            for state in states:
                legal_actions(state)

    def applied() -> None:
        for _ in range(repeat):
            for state, action in pairs:
                apply(state, action)

    def encode() -> None:
        for _ in range(repeat):
            for state in states:
                state_to_json(state)

    def decode() -> None:
        for _ in range(repeat):
            for text in texts:
                state_from_json(text)

    fresh_for_legal = [FastRace.from_state(state) for _ in range(repeat) for state in states]
    fresh_for_apply = [(FastRace.from_state(state), action)
                       for _ in range(repeat) for state, action in pairs]

    def fast_legal() -> None:
        for race in fresh_for_legal:
            race.legal_actions()

    def fast_applied() -> None:
        for race, action in fresh_for_apply:
            race.apply(action)

    def from_state() -> None:
        for _ in range(repeat):
            for state in states:
                FastRace.from_state(state)

    races = [FastRace.from_state(state) for state in states]

    def to_state() -> None:
        for _ in range(repeat):
            for race in races:
                race.to_state()

    calls = len(states) * repeat
    out: dict[str, Any] = {"states": len(states),
                           "mean_json_bytes": sum(map(len, texts)) / len(texts)}
    for name, work in (("legal_actions", legal), ("apply", applied),
                       ("json_encode", encode), ("json_decode", decode),
                       ("fast_legal_actions", fast_legal), ("fast_apply", fast_applied),
                       ("fast_from_state", from_state), ("fast_to_state", to_state)):
        _, seconds = timed(work)
        out[f"{name}_per_s"] = rate(calls, seconds)
        out[f"{name}_us"] = 1e6 * seconds / calls
    return out


def deep_size(value: Any, seen: set[int] | None = None) -> int:
    """``sys.getsizeof`` summed over every object reachable from a state, each counted
    once; the track (shared by every state of a race) is left out."""
    seen = set() if seen is None else seen
    if id(value) in seen or type(value).__name__ == "Track":
        return 0
    seen.add(id(value))
    size = sys.getsizeof(value)
    if isinstance(value, tuple | list | set | frozenset):
        size += sum(deep_size(item, seen) for item in value)
    elif isinstance(value, dict):
        size += sum(deep_size(k, seen) + deep_size(v, seen) for k, v in value.items())
    elif hasattr(value, "__slots__"):
        size += sum(deep_size(getattr(value, name), seen) for name in value.__slots__
                    if hasattr(value, name))
    return size


def memory(pairs: list[tuple[RaceState, Action]], count: int) -> dict[str, Any]:
    """Bytes per state: the deep size of a standalone state, the memory ``tracemalloc``
    sees for a decoded state, the cost of one more state in a race (what ``apply``
    allocates and keeps, as states share their unchanged parts), and the deep size of the
    fast engine's race object (one per race, changed in place; its action tables are
    shared by every race of a process and left out)."""
    states = [state for state, _ in pairs][:count]
    texts = [state_to_json(state) for state in states]
    deep = sum(deep_size(state) for state in states) / len(states)
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    decoded = [state_from_json(text) for text in texts]
    decoded_bytes = (tracemalloc.get_traced_memory()[0] - base) / len(decoded)
    kept = []
    base = tracemalloc.get_traced_memory()[0]
    for state, action in pairs[:count]:
        kept.append(apply(state, action)[0])
    step_bytes = (tracemalloc.get_traced_memory()[0] - base) / len(kept)
    tracemalloc.stop()
    del decoded, kept
    fast = sum(deep_size(FastRace.from_state(state)) for state in states) / len(states)
    return {"deep_bytes": deep, "decoded_bytes": decoded_bytes, "per_step_bytes": step_bytes,
            "fast_race_bytes": fast}


def cold_start(races: int) -> dict[str, Any]:
    """``heatcore race --count N`` (fast engine, random policy, 6-player USA) in a new
    process: the throughput while the fast engine's tables are still filling."""
    command = [sys.executable, "-m", "heatcore.tools.cli", "race", "--track", "usa", "--players",
               "6", "--policy", "random", "--count", str(races), "--seed", "50000"]
    printed = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    figures = dict(line.split(": ", 1) for line in printed.splitlines() if ": " in line)
    return {"races": races, "races_per_s": float(figures["races/s"]),
            "actions_per_s": float(figures["actions/s"])}


_BUILD_CHILD = """
import json, sys
from benchmarks.run import race_throughput
from heatcore.heat.fast import BUILD
warmup, races = int(sys.argv[1]), int(sys.argv[2])
race_throughput("usa", 6, warmup, first_seed=9_000, engine="fast")
row = race_throughput("usa", 6, races, first_seed=10_000, engine="fast")
print(json.dumps({**row, "build": BUILD}))
"""


def build_target(build: str, warmup: int, races: int) -> dict[str, Any]:
    """The target cell (6-player USA, ``races`` races after ``warmup``) on one build of the
    fast engine, in a new process: ``pure`` (``HEATCORE_FAST=pure``) or ``compiled``
    (``build`` in the result says ``pure (...)`` where no compiled build is installed)."""
    env = {k: v for k, v in os.environ.items() if k != "HEATCORE_FAST"}
    if build == "pure":
        env["HEATCORE_FAST"] = "pure"
    command = [sys.executable, "-c", _BUILD_CHILD, str(warmup), str(races)]
    printed = subprocess.run(command, check=True, capture_output=True, text=True,
                             env=env).stdout
    row: dict[str, Any] = json.loads(printed.splitlines()[-1])
    row["requested"] = build
    return row


def pool_scaling(races: int) -> list[dict[str, Any]]:
    """The same batch of 6-player USA races on a pool of 1 and of 2 worker processes (fast
    engine; each worker starts with empty action tables)."""
    out = []
    for workers in (1, 2):
        summary = run_races("usa", 6, list(range(races)), workers=workers, pool=True)
        out.append({"workers": workers, "races": summary.races, "actions": summary.actions,
                    "seconds": summary.seconds, "races_per_s": summary.races_per_second,
                    "actions_per_s": summary.actions_per_second})
    return out


def proof_times(sizes: Sizes) -> dict[str, Any]:
    """Seconds per Z3 proof (and its negative controls), summed over ``sizes.proof_tracks``;
    the wall time of the run; in tiny mode a note that only part of the suite ran."""
    from proofs.catalogue import PROOFS

    ids = list(sizes.proof_ids) if sizes.proof_ids is not None else [p.id for p in PROOFS]
    from proofs.runner import REFINE_TURNS

    complete = sizes.proof_ids is None
    figures = bench_proofs.measure(list(sizes.proof_tracks), ids, sizes.proof_jobs,
                                   REFINE_TURNS if complete else 0)
    figures["complete"] = complete
    if not figures["complete"]:
        figures["note"] = (f"tiny run: only {', '.join(ids)} on {', '.join(sizes.proof_tracks)}"
                           f" ({sizes.proof_jobs} worker); python3 -m benchmarks.bench_proofs "
                           "times the whole suite")
    return figures


#: The number of stages :func:`run` announces through ``log``.
STAGES = 13


def run(sizes: Sizes, log: Callable[[str], None]) -> dict[str, Any]:
    """Every benchmark; the figures as a JSON-ready dict."""
    results: dict[str, Any] = {
        "machine": {"python": platform.python_version(), "platform": platform.platform(),
                    "cpus": os.cpu_count(), "load_average_at_start": os.getloadavg()},
        "tiny": sizes is TINY,
        "fast_build": BUILD,
    }
    log("throughput: random races per engine, track and player count ...")
    results["throughput"] = [race_throughput(track, players, sizes.races, engine=engine)
                             for engine in ENGINES for track in track_ids()
                             for players in (2, 4, 6)]
    log("target: 6-player USA random races on the fast engine ...")
    warmup = race_throughput("usa", 6, sizes.warmup_races, first_seed=9_000, engine="fast")
    target = race_throughput("usa", 6, sizes.target_races, first_seed=10_000, engine="fast")
    target["met_races_per_s"] = target["races_per_s"] >= TARGET_RACES_PER_SECOND
    target["met_actions_per_s"] = target["actions_per_s"] >= TARGET_ACTIONS_PER_SECOND
    target["warmup"] = warmup
    target["cold_process"] = cold_start(max(2, sizes.warmup_races))
    target["reference"] = race_throughput("usa", 6, sizes.races, first_seed=10_000)
    results["target"] = target
    log("the target cell on each build of the fast engine, each in a new process ...")
    results["builds"] = [build_target(build, sizes.warmup_races, sizes.target_races)
                         for build in ("pure", "compiled")]
    log("protocol: steps/s through heatcore serve ...")
    protocol = bench_protocol.throughput(sizes.protocol_races)
    protocol["met"] = protocol["steps_per_second"] >= TARGET_PROTOCOL_STEPS_PER_SECOND
    results["protocol"] = protocol
    log("sampling states from real races ...")
    pairs = sample_states(sizes)
    log("legal_actions / apply / JSON rates ...")
    results["steps"] = step_rates(pairs, sizes.repeat)
    log("memory per state ...")
    results["memory"] = memory(pairs, sizes.memory_states)
    log("growth with players (usa) and laps (usa, 6 players) ...")
    results["players"] = [race_throughput("usa", players, sizes.lap_races, first_seed=20_000,
                                          engine=engine)
                          for engine in ENGINES for players in range(2, 7)]
    results["laps"] = [race_throughput("usa", 6, sizes.lap_races, laps=laps, first_seed=30_000,
                                       engine=engine)
                       for engine in ENGINES for laps in (1, 2, 4, 8)]
    log("process pool: 1 vs 2 workers ...")
    results["pool"] = pool_scaling(sizes.pool_races)
    log("Rallyman GT: seeded races per track and car count ...")
    results["rallyman"] = bench_rallyman.figures(1 if sizes is TINY else 10,
                                                 1 if sizes is TINY else 2)
    log("scale: perft nodes/s, explore states/s, process pool and Dask LocalCluster ...")
    results["scale"] = bench_scale.figures(sizes is TINY)
    log("proofs: time per proof and its controls ...")
    results["proofs"] = proof_times(sizes)
    log("heatcore prove, the command, in a new process ...")
    results["prove"] = bench_prove.measure(tiny=sizes is TINY)
    results["machine"]["load_average_at_end"] = os.getloadavg()
    return results


def summary(results: dict[str, Any]) -> str:
    """Issue 18's figures side by side, from this one run: 6-player USA races on each
    engine and backend (per second of wall time and per CPU-second of the process where
    it is one process), perft, explore, the protocol and ``heatcore prove``."""
    target, builds = results["target"], {row["requested"]: row for row in results["builds"]}
    rows: list[tuple[str, str, str, str, str]] = []

    def race_row(name: str, row: dict[str, Any]) -> None:
        rows.append((name, f"{row['races_per_s']:.1f} races/s",
                     f"{row['races_per_cpu_s']:.1f} races/cpu-s",
                     f"{row['us_per_action']:.1f} us/action", str(row.get("build", ""))))

    race_row("reference engine", target["reference"])
    race_row("fast engine, pure", builds["pure"])
    race_row("fast engine, compiled", builds["compiled"])
    for row in results["scale"]["backends"]:
        if row["backend"].startswith("Dask"):
            rows.append((f"Dask LocalCluster of {row['workers']}",
                         f"{row['races_per_s']:.1f} races/s", "",
                         f"{row['us_per_action']:.1f} us/action",
                         f"{row['races']} races, cluster start-up included"))
    fast_perft = [r for r in results["scale"]["perft"] if r["engine"] == "fast"]
    deepest = max(fast_perft, key=lambda r: (r["players"], r["depth"]))
    rows.append(("perft (fast engine)", f"{deepest['nodes_per_s']:,.0f} nodes/s", "", "",
                 f"{deepest['players']} cars, depth {deepest['depth']}"))
    explored = results["scale"]["explore"][0]
    rows.append(("explore", f"{explored['states_per_s']:,.0f} states/s", "", "",
                 f"{explored['config']}: {explored['states']:,} states"))
    protocol = results["protocol"]
    per_cpu = protocol.get("steps_per_server_cpu_second")
    rows.append(("protocol (heatcore serve)", f"{protocol['steps_per_second']:,.0f} steps/s",
                 "" if per_cpu is None else f"{per_cpu:,.0f} steps/cpu-s", "",
                 f"{protocol['steps']} steps; cpu-s: the server's, start-up excluded"))
    prove = results["prove"]
    rows.append(("heatcore prove", f"{prove['wall_seconds']:.1f} s wall",
                 f"{prove['cpu_seconds']:.1f} s cpu", "",
                 "exit 0" if prove["exit_code"] == 0 else f"exit {prove['exit_code']}"))
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    out = [f"Issue 18 side by side (6-player USA random races unless named; targets: fast "
           f"engine {TARGET_RACES_PER_SECOND:.0f} races/s, protocol "
           f"{TARGET_PROTOCOL_STEPS_PER_SECOND:,.0f} steps/s; heatcore prove under "
           f"{bench_prove.LIMIT_SECONDS:.0f} s)"]
    for r in rows:
        out.append("  " + "  ".join(f"{cell:<{w}}" if i == 0 else f"{cell:>{w}}"
                                    for i, (cell, w) in enumerate(zip(r, widths, strict=False)))
                   + (f"  {r[4]}" if r[4] else ""))
    return "\n".join(out)


def table(results: dict[str, Any]) -> str:
    """The figures as plain-text tables."""
    lines: list[str] = []
    add = lines.append
    machine = results["machine"]
    add(f"Python {machine['python']}, {machine['cpus']} CPUs, load average "
        f"{machine['load_average_at_start'][0]:.1f} at start, "
        f"{machine['load_average_at_end'][0]:.1f} at end (other work slows every figure)")
    add("")
    lines.extend(summary(results).splitlines())
    add("")
    add("Random-race throughput (single process, random policy)")
    add(f"  {'engine':<11}{'track':<14}{'players':>8}{'races':>7}{'actions/race':>14}"
        f"{'races/s':>10}{'actions/s':>11}{'us/action':>11}{'races/cpu-s':>13}"
        f"{'actions/cpu-s':>15}")
    for row in results["throughput"]:
        add(f"  {row['engine']:<11}{row['track']:<14}{row['players']:>8}{row['races']:>7}"
            f"{row['actions_per_race']:>14.0f}{row['races_per_s']:>10.1f}"
            f"{row['actions_per_s']:>11.0f}{row['us_per_action']:>11.1f}"
            f"{row['races_per_cpu_s']:>13.1f}{row['actions_per_cpu_s']:>15.0f}")
    target = results["target"]

    def verdict(met: bool) -> str:
        if results["tiny"]:
            return "not judged in a tiny run"
        return "met" if met else "NOT met"

    add("")
    add(f"Targets (fast engine, 6-player USA, {target['races']} races after "
        f"{target['warmup']['races']} warm-up races): "
        f"{target['races_per_s']:.1f} races/s (target {TARGET_RACES_PER_SECOND:.0f}: "
        f"{verdict(target['met_races_per_s'])}), "
        f"{target['actions_per_s']:.0f} actions/s (target {TARGET_ACTIONS_PER_SECOND:.0f}: "
        f"{verdict(target['met_actions_per_s'])}); per CPU-second of this "
        f"process: {target['races_per_cpu_s']:.1f} races, {target['actions_per_cpu_s']:.0f} "
        "actions")
    warm, cold, ref = target["warmup"], target["cold_process"], target["reference"]
    add(f"  warm-up races (tables filling): {warm['races_per_s']:.1f} races/s, "
        f"{warm['actions_per_s']:.0f} actions/s")
    add(f"  first {cold['races']} races of a new process (heatcore race --count): "
        f"{cold['races_per_s']:.1f} races/s, {cold['actions_per_s']:.0f} actions/s")
    add(f"  reference engine, same races: {ref['races_per_s']:.1f} races/s, "
        f"{ref['actions_per_s']:.0f} actions/s, {ref['us_per_action']:.1f} us/action "
        f"(fast engine x{target['races_per_s'] / ref['races_per_s']:.1f})")
    add(f"  this process runs the fast engine's build: {results['fast_build']}")
    add("")
    add("Fast engine builds, same target cell, each build in a new process")
    add(f"  {'build':<10}{'races':>7}{'races/s':>10}{'races/cpu-s':>13}{'actions/s':>11}"
        f"{'us/action':>11}  runs")
    for row in [{**ref, "requested": "reference", "build": "heatcore.heat.engine"},
                *results["builds"]]:
        add(f"  {row['requested']:<10}{row['races']:>7}{row['races_per_s']:>10.1f}"
            f"{row['races_per_cpu_s']:>13.1f}{row['actions_per_s']:>11.0f}"
            f"{row['us_per_action']:>11.1f}  {row['build']}")
    protocol = results["protocol"]
    add("")
    add(f"Protocol (heatcore serve, {protocol['races']} recorded races, {protocol['steps']} "
        f"steps = legal + apply): {protocol['steps_per_second']:.0f} steps/s (target "
        f"{TARGET_PROTOCOL_STEPS_PER_SECOND:.0f}: {verdict(protocol['met'])}); per "
        f"CPU-second of the server, its start-up ({protocol['startup_cpu_seconds']:.2f} s) "
        f"left out: {protocol['steps_per_server_cpu_second'] or 0:.0f} steps")
    steps = results["steps"]
    add("")
    add(f"Per-call rates on {steps['states']} states sampled from real races "
        f"(mean state JSON {steps['mean_json_bytes']:.0f} bytes)")
    for name in ("legal_actions", "apply", "json_encode", "json_decode",
                 "fast_legal_actions", "fast_apply", "fast_from_state", "fast_to_state"):
        add(f"  {name:<20}{steps[name + '_per_s']:>12.0f} /s{steps[name + '_us']:>10.1f} us")
    mem = results["memory"]
    add("")
    add(f"Memory per state: deep size {mem['deep_bytes']:.0f} B, decoded (tracemalloc) "
        f"{mem['decoded_bytes']:.0f} B, kept per applied step {mem['per_step_bytes']:.0f} B; "
        f"fast engine race object {mem['fast_race_bytes']:.0f} B")
    add("")
    add("Growth (usa): players, and laps with 6 players")
    add(f"  {'engine':<11}{'players':>8}{'laps':>6}{'actions/race':>14}{'races/s':>10}"
        f"{'actions/s':>11}{'us/action':>11}")
    for row in results["players"] + results["laps"]:
        laps = "-" if row["laps"] is None else str(row["laps"])
        add(f"  {row['engine']:<11}{row['players']:>8}{laps:>6}{row['actions_per_race']:>14.0f}"
            f"{row['races_per_s']:>10.1f}{row['actions_per_s']:>11.0f}"
            f"{row['us_per_action']:>11.1f}")
    add("")
    add("Process pool (heatcore race --count N --workers W), fast engine, 6-player USA")
    base = results["pool"][0]["races_per_s"]
    for row in results["pool"]:
        add(f"  workers {row['workers']}: {row['races']} races in {row['seconds']:.2f} s, "
            f"{row['races_per_s']:.1f} races/s, {row['actions_per_s']:.0f} actions/s, "
            f"x{row['races_per_s'] / base:.2f}")
    rallyman = results.get("rallyman")
    if rallyman is not None:
        add("")
        add("Rallyman GT (heatcore.rallyman, single process, sensible policy)")
        lines.extend("  " + line for line in bench_rallyman.table(rallyman).splitlines())
    scale = results.get("scale")
    if scale is not None:
        add("")
        lines.extend(bench_scale.table(scale).splitlines())
    proofs = results.get("proofs")
    if proofs is not None:
        add("")
        add(f"Proofs (Z3): seconds per proof and its negative controls, summed over "
            f"{', '.join(proofs['tracks'])}; wall {proofs['wall_seconds']:.1f} s with "
            f"{proofs['jobs']} worker(s) (limit {proofs['limit_seconds']:.0f} s for the whole "
            f"suite), {proofs['rows']} rows, {proofs['failed']} failed")
        lines.extend("  " + line for line in bench_proofs.table(proofs).splitlines())
        if "note" in proofs:
            add(f"  note: {proofs['note']}")
    prove = results.get("prove")
    if prove is not None:
        add("")
        add("heatcore prove (the command, in a new process): " + bench_prove.line(prove))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m benchmarks", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tiny", action="store_true", help="a few races only (for tests)")
    parser.add_argument("--json", type=Path, default=DEFAULT_JSON,
                        help=f"where to write the figures (default {DEFAULT_JSON})")
    parser.add_argument("--quiet", action="store_true",
                        help="no progress lines (when not on a terminal)")
    args = parser.parse_args(argv)

    with progress(STAGES, "benchmarks") as tick:
        started = []

        def log(message: str) -> None:
            """A stage begins: the bar shows it on a terminal, else a line on stderr."""
            if started:
                tick()
            started.append(message)
            tick.stage(message)
            if not args.quiet and not is_terminal(sys.stderr):
                print(message, file=sys.stderr, flush=True)

        results = run(TINY if args.tiny else FULL, log)
    print(table(results))
    write_atomic(args.json, json.dumps(results, indent=2, sort_keys=True) + "\n")
    print(f"\nFigures written to {args.json}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

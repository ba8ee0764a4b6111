"""Where volume work runs: this process, a local process pool, or a Dask cluster.

Every volume command (``race --count``, ``conform``'s races, ``prove --refine``, ``perft``,
``explore``) cuts its work into independent jobs and hands them to :meth:`Backend.map`,
which returns their results in job order whatever ran them: the same jobs give the same
merged result on one process, on a pool and on a cluster. Dask (``distributed``) is used
as it is, never a scheduler of our own: ``--scheduler tcp://HOST:8786`` sends the jobs to
an existing cluster (its workers need heatcore installed), ``--scheduler local`` starts a
:class:`distributed.LocalCluster` of ``--workers`` processes for the run.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

J = TypeVar("J")
R = TypeVar("R")

#: The ``--scheduler`` value that starts a local Dask cluster (of processes) for the run.
LOCAL = "local"
#: The same in this process: one Dask worker of ``workers`` threads (cheap: for tests).
LOCAL_THREADS = "local:threads"


class BackendError(Exception):
    """The cluster cannot be reached or started (the message says which and why)."""


@dataclass(frozen=True)
class Backend:
    """Where jobs run. ``scheduler`` None: ``workers`` 1 runs them in this process, more a
    process pool; ``local``: a Dask LocalCluster of ``workers`` processes; ``local:threads``:
    a LocalCluster in this process (``workers`` threads); any other value: the address of a
    running Dask scheduler."""

    workers: int = 1
    scheduler: str | None = None

    @property
    def name(self) -> str:
        """How the run is described in reports."""
        if self.scheduler is None:
            return "one process" if self.workers <= 1 else f"process pool of {self.workers}"
        if self.scheduler == LOCAL:
            return f"Dask LocalCluster of {self.workers} worker(s)"
        if self.scheduler == LOCAL_THREADS:
            return f"Dask LocalCluster in this process ({self.workers} thread(s))"
        return f"Dask cluster at {self.scheduler}"

    @property
    def parallel(self) -> bool:
        """Whether jobs leave this process."""
        return self.scheduler is not None or self.workers > 1

    def map(self, function: Callable[[J], R], jobs: Sequence[J],
            done: Callable[[int], None] | None = None) -> list[R]:
        """``[function(job) for job in jobs]``, run where this backend says; ``done`` is
        called with the number of jobs just finished (in any order)."""
        if self.scheduler is not None:
            return _dask_map(self, function, jobs, done)
        if self.workers <= 1 or len(jobs) <= 1:
            out = []
            for job in jobs:
                out.append(function(job))
                if done is not None:
                    done(1)
            return out
        with ProcessPoolExecutor(max_workers=self.workers) as pool:
            futures = [pool.submit(function, job) for job in jobs]
            results = []
            for future in futures:
                results.append(future.result())
                if done is not None:
                    done(1)
            return results


def _dask_map(backend: Backend, function: Callable[[J], R], jobs: Sequence[J],
              done: Callable[[int], None] | None) -> list[R]:
    """The jobs on a Dask cluster, results in job order."""
    client, cluster = _connect(backend)
    try:
        futures = client.map(function, list(jobs), pure=False)
        if done is not None:
            for _ in _distributed().as_completed(futures):
                done(1)
        results: list[R] = client.gather(futures)
        return results
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def _distributed() -> Any:
    """The ``distributed`` package (untyped: used through ``Any``)."""
    import importlib

    try:
        return importlib.import_module("distributed")
    except ImportError:  # pragma: no cover - distributed is a dependency
        raise BackendError("Dask is not installed: pip install distributed") from None


def _connect(backend: Backend) -> tuple[Any, Any]:
    """A client of the backend's cluster (and the cluster, when this run started it)."""
    dask = _distributed()
    Client, LocalCluster = dask.Client, dask.LocalCluster
    if backend.scheduler == LOCAL_THREADS:
        cluster = LocalCluster(n_workers=1, threads_per_worker=backend.workers,
                               processes=False, dashboard_address=":0")
        return Client(cluster), cluster
    if backend.scheduler == LOCAL:
        cluster = LocalCluster(n_workers=backend.workers, threads_per_worker=1,
                               processes=True, dashboard_address=":0")
        return Client(cluster), cluster
    try:
        return Client(backend.scheduler, timeout="10s"), None
    except (OSError, TimeoutError, ValueError) as error:
        raise BackendError(f"cannot reach the Dask scheduler at {backend.scheduler!r}: "
                           f"{error}") from None


def add_arguments(parser: argparse.ArgumentParser, what: str) -> None:
    """``--workers`` and ``--scheduler`` for a command whose jobs are ``what``."""
    from heatcore.framework.cliutil import positive

    parser.add_argument("--workers", type=positive, default=1,
                        help=f"spread the {what} over W processes (a process pool; with "
                             "--scheduler local, a Dask LocalCluster of W workers)")
    parser.add_argument("--scheduler", default=None, metavar="ADDRESS",
                        help="run on the Dask cluster at ADDRESS (tcp://host:8786), or "
                             "'local' to start a Dask LocalCluster for this run "
                             "('local:threads': in this process)")


def from_arguments(args: argparse.Namespace) -> Backend:
    """The backend ``--workers`` and ``--scheduler`` ask for."""
    return Backend(workers=args.workers, scheduler=args.scheduler)

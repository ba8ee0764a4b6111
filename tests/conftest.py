"""Hypothesis profiles: ``ci`` (default, fast) and ``deep`` (long hunts).

Choose with the environment variable ``HEATCORE_HYPOTHESIS_PROFILE`` (``ci`` or ``deep``).
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, Phase, settings

settings.register_profile(
    "ci",
    max_examples=25,
    deadline=None,
    derandomize=True,
    # no target phase: the race machine's target() steers only the deep profile
    phases=(Phase.explicit, Phase.reuse, Phase.generate, Phase.shrink),
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                           HealthCheck.large_base_example,
                           HealthCheck.filter_too_much],
)
settings.register_profile(
    "deep",
    max_examples=1_000,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                           HealthCheck.large_base_example,
                           HealthCheck.filter_too_much],
)
settings.load_profile(os.environ.get("HEATCORE_HYPOTHESIS_PROFILE", "ci"))

#: Multiplier of the seeded race batches (``deep`` plays ten times as many).
DEEP = os.environ.get("HEATCORE_HYPOTHESIS_PROFILE") == "deep"

import pytest  # noqa: E402

from heatcore.heat.strategies import RaceBatch, seeded_batch  # noqa: E402

#: One-lap races in the seeded batch: 300 by default, 2000 with the deep profile.
BATCH_RACES = 2000 if DEEP else 300


@pytest.fixture(scope="session", autouse=True)
def _engines_start_however_loaded_the_machine() -> None:
    """No test depends on wall time: the conformance harness gives an engine an hour, not
    30 s, to start (an engine that never starts still fails, an hour later); a loaded
    machine made a healthy ``heatcore serve`` miss the 30 s."""
    import heatcore.framework.conformance.harness as harness

    harness.START_TIMEOUT = 3600.0


@pytest.fixture(scope="session")
def race_batch() -> RaceBatch:
    """The seeded batch of complete races, each step checked (shared by the race-machine and
    rare-situation tests)."""
    return seeded_batch(BATCH_RACES)


#: The test modules that take most of the suite's time (Z3 proofs, Sphinx builds, the
#: conformance harness, long property runs, mypy). ``python3 -m pytest -m "not slow"`` leaves
#: them out for day-to-day work; the README's plain ``python3 -m pytest`` runs everything.
SLOW_MODULES = frozenset({
    "test_proofs", "test_proofs_miner", "test_docs", "test_conformance", "test_race_machine",
    "test_rare_situations", "test_quality", "test_benchmarks", "test_race_page",
    "test_bench_attribution", "test_conform_championship",
})


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark every test of :data:`SLOW_MODULES` ``slow``."""
    for item in items:
        if item.path.stem in SLOW_MODULES:
            item.add_marker(pytest.mark.slow)

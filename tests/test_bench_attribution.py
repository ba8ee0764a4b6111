"""The attribution benchmark keeps working: its planted engines and one engine's row (no
timing asserted)."""

from __future__ import annotations

import pytest

from benchmarks.bench_attribution import check, engines, table


@pytest.mark.rules("legend.card")
def test_the_benchmark_plants_at_least_forty_new_engines_over_the_modules_and_rallyman() -> None:
    found = engines()
    new = [e for e in found if not e.shipped]
    assert len(new) >= 40
    families = {e.rule.split(".")[0] for e in new}
    assert {"weather", "road", "legend", "upgrade", "garage"} <= families
    assert any(e.ruleset == "rallyman-gt" for e in found)


@pytest.mark.rules("legend.card")
def test_a_planted_legend_engine_is_named_and_shows_as_one_defect() -> None:
    engine = next(e for e in engines() if e.label == "legend.card#1")
    row = check(engine, 1, "full")
    assert row["caught"] and row["named"] and row["one_defect"], row
    assert "legend.card#1" in table({"rows": [row], "named": 1, "engines": 1, "share": 1.0,
                                     "mode": "full", "new": 1, "one_defect": 1})

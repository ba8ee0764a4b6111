"""Each planted bug of ``tests/planted_verify.py`` fails its killer, a check tied to the engine,
and the failure names the bug's rule (the killer passes without the bug)."""

from __future__ import annotations

import pytest
from planted import Planted
from planted_verify import VERIFY_PLANTED
from test_planted_bugs import killer_of, tags_of


def failure_with(bug: Planted) -> str:
    """The killer's failure message with ``bug`` planted ("" if it passes)."""
    call = killer_of(bug)
    with pytest.MonkeyPatch.context() as mp:
        bug.plant(mp)
        try:
            call()
        except (Exception, pytest.fail.Exception) as error:  # any failure counts
            return str(error)
    return ""


def _param(bug: Planted) -> object:
    """The bug as a test case (the explorations are slow: marked so)."""
    marks = [pytest.mark.slow] if "explore" in bug.killer else []
    return pytest.param(bug, marks=marks, id=f"{bug.rule}-{bug.killer.rsplit('::')[-1][:40]}")


@pytest.mark.parametrize("bug", [_param(b) for b in VERIFY_PLANTED])
def test_the_planted_bug_fails_a_check_that_names_its_rule(bug: Planted) -> None:
    assert bug.rule in tags_of(bug), f"{bug.killer} is not tagged {bug.rule}"
    killer_of(bug)()  # passes without the bug
    message = failure_with(bug)
    assert message, f"{bug.killer} passes with '{bug.what}' planted"
    assert bug.rule in message, f"the failure does not name {bug.rule}: {message[:300]}"

"""A shift of three gears (1 to 4, 4 to 1) is allowed, paying one Heat like a two-gear shift."""

from heatcore.framework.errors import IllegalAction
from heatcore.heat import engine, planning
from heatcore.heat.conformance.mutants._serve import original, patch, serve_mutant

_reachable = original(planning, "reachable_gears")
_check = original(planning, "check_plan")


def _reachable_gears(car):  # type: ignore[no-untyped-def]
    extra = {g for g in (car.gear - 3, car.gear + 3) if 1 <= g <= 4 and car.engine >= 1}
    return tuple(sorted(set(_reachable(car)) | extra))


def _check_plan(state, plan):  # type: ignore[no-untyped-def]
    try:
        _check(state, plan)
    except IllegalAction as error:
        if error.rule != "gear.shift.no-three":
            raise


patch(planning, "reachable_gears", _reachable_gears)
patch(engine, "check_plan", _check_plan)

if __name__ == "__main__":
    raise SystemExit(serve_mutant("three_step_shift"))

"""Not a bug: heatcore as an engine that plays no optional module. It declares none and
refuses a state or setup that plays one as unsupported, so ``conform`` checks it on the
core race only (and must find nothing wrong)."""

from heatcore.framework.conformance.binding import JSON, Rejected
from heatcore.framework.conformance.serve import run
from heatcore.heat.conformance.binding import HeatBinding


class CoreOnly(HeatBinding):
    """The reference engine without its modules."""

    name = "mutant:no_modules"

    def modules(self) -> list[str]:
        return []

    def setup(self, setup: JSON) -> JSON:
        _refuse_modules(setup)
        return super().setup(setup)

    def load(self, state: JSON) -> JSON:
        _refuse_modules(state)
        return super().load(state)


def _refuse_modules(data: JSON) -> None:
    if isinstance(data, dict) and data.get("modules"):
        raise Rejected("unsupported", "weather.module", "this engine plays no module")


if __name__ == "__main__":
    raise SystemExit(run(CoreOnly()))

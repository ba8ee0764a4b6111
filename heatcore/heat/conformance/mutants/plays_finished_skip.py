"""Plays ruling.finished-car-discard-draw's alternative ``skip`` whatever a state or setup
chooses (a finished car neither discards nor draws): right when it declares that
alternative (``--ruling finished-car-discard-draw=skip``), wrong when it declares the
default."""

from heatcore.heat import notation
from heatcore.heat.conformance.mutants._serve import patch, serve_mutant
from heatcore.heat.rulings import FINISHED_DISCARD_DRAW, Rulings, make_rulings

_SKIP = make_rulings({FINISHED_DISCARD_DRAW: "skip"})


def _rulings_from(data, path) -> Rulings:  # type: ignore[no-untyped-def]
    return _SKIP


patch(notation, "rulings_from", _rulings_from)

if __name__ == "__main__":
    raise SystemExit(serve_mutant("plays_finished_skip"))

"""``heatcore serve``: heatcore speaking the conformance protocol on stdin/stdout."""

from __future__ import annotations

import sys

from heatcore.cliutil import Parser
from heatcore.conformance.binding import Binding
from heatcore.conformance.bindings import BINDINGS, load_binding
from heatcore.conformance.protocol import serve


def run(binding: Binding | None = None) -> int:
    """Serve ``binding`` (heatcore by default) until stop or end of input."""
    if binding is None:
        from heatcore.conformance.heat import HeatBinding

        binding = HeatBinding()
    try:
        return serve(binding, sys.stdin, sys.stdout)
    except (BrokenPipeError, KeyboardInterrupt):
        return 0


def main(argv: list[str]) -> int:
    """Entry point of ``heatcore serve``."""
    parser = Parser("heatcore serve",
                                     description="Speak the conformance protocol (conform/1) "
                                                 "on stdin/stdout.")
    parser.add_argument("--ruleset", default="heat", choices=sorted(BINDINGS),
                        help="the ruleset to serve (heat)")
    args = parser.parse_args(argv)
    return run(load_binding(args.ruleset))

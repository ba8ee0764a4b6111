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
                    description="Speak the conformance protocol (conform/1) on stdin/stdout.")
    parser.add_argument("--ruleset", default="heat", choices=sorted(BINDINGS),
                        help="the ruleset to serve (heat)")
    parser.add_argument("--ruling", action="append", default=[], metavar="ID=ALTERNATIVE",
                        help="play under this alternative of a switchable ruling "
                             "(spec/rulings.toml) and declare it in the start reply; "
                             "repeat for several (heat only)")
    args = parser.parse_args(argv)
    binding = load_binding(args.ruleset)
    if args.ruling:
        from heatcore.conformance.heat import HeatBinding
        from heatcore.errors import RulesError
        from heatcore.rulings import make_rulings, parse_ruling_option

        if not isinstance(binding, HeatBinding):
            print("heatcore serve: --ruling applies to the heat ruleset", file=sys.stderr)
            return 2
        try:
            binding = HeatBinding(make_rulings(dict(map(parse_ruling_option, args.ruling))))
        except RulesError as error:
            print(f"heatcore serve: --ruling: {error}", file=sys.stderr)
            return 2
    return run(binding)

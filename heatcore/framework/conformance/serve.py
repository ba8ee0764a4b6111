"""``heatcore serve``: heatcore speaking the conformance protocol on stdin/stdout."""

from __future__ import annotations

import sys

from heatcore.framework.cliutil import Parser
from heatcore.framework.conformance.binding import Binding
from heatcore.framework.conformance.bindings import BINDINGS, load_binding, with_ruling_options
from heatcore.framework.conformance.protocol import serve
from heatcore.framework.errors import RulesError
from heatcore.framework.registry import DEFAULT_GAME


def _known(ruleset: str) -> Binding | None:
    """The binding of a ruleset heatcore plays (None for another name)."""
    return _serving(load_binding(ruleset)) if ruleset in BINDINGS else None


def _serving(binding: Binding) -> Binding:
    """``binding`` with its ``shared_json`` on, where it has one: the server only writes the
    states out, so unchanged parts may keep their JSON from state to state."""
    if hasattr(binding, "shared_json"):
        binding.shared_json = True
    return binding


def run(binding: Binding | None = None) -> int:
    """Serve ``binding`` until stop or end of input; without one, serve the ruleset the
    ``start`` request names (the default ruleset until then)."""
    choose = _known if binding is None else None
    if binding is None:
        binding = load_binding()
    try:
        return serve(_serving(binding), sys.stdin.buffer, sys.stdout.buffer, choose)
    except (BrokenPipeError, KeyboardInterrupt):
        return 0


def main(argv: list[str]) -> int:
    """Entry point of ``heatcore serve``."""
    parser = Parser("heatcore serve",
                    description="Speak the conformance protocol (conform/2, and conform/1) "
                                "on stdin/stdout.")
    parser.add_argument("--ruleset", default=None, choices=sorted(BINDINGS),
                        help="serve only this ruleset (default: the one the start request "
                             "names, of " + ", ".join(sorted(BINDINGS)) + ")")
    parser.add_argument("--ruling", action="append", default=[], metavar="ID=ALTERNATIVE",
                        help="play under this alternative of a switchable ruling "
                             "(spec/rulings.toml) and declare it in the start reply; "
                             "repeat for several (the rulesets with switchable rulings)")
    args = parser.parse_args(argv)
    if not args.ruling:
        return run(load_binding(args.ruleset) if args.ruleset else None)
    try:
        binding = with_ruling_options(load_binding(args.ruleset or DEFAULT_GAME), args.ruling)
    except RulesError as error:
        print(f"heatcore serve: --ruling: {error.detail}", file=sys.stderr)  # no rule ID
        return 2
    except ValueError as error:
        print(f"heatcore serve: --ruling: {error}", file=sys.stderr)
        return 2
    return run(binding)

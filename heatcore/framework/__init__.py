"""The framework: what every game of heatcore shares, and knows no game by name.

Here: the rule registry and ``@implements`` (``registry``, the games listed in
``spec/games.toml``), errors, events, values (``replace``, ``quick_init``), files written
whole, the seeded play loop (``playing``) and batches (``batching``, ``cluster``), the
command line's shared parser and progress bars (``cliutil``, ``terminal``), and the
conformance kit (:mod:`~heatcore.framework.conformance`: fixture suites, the JSON-lines
protocol, ``heatcore serve`` and the harness of ``heatcore conform``).

May import: itself and third-party packages; never a game's package or the tools. A game
plugs in by data: its entry in ``spec/games.toml`` names its spec folder and its
conformance binding (``tests/test_layout.py`` checks the imports and greps this package for
the games' nouns).
"""

"""The conformance kit: fixtures, a JSON-lines protocol, and a harness for other engines.

The format, protocol, harness and shrinker are generic; everything that knows a game lives
in that game's *binding* (its reference engine seen through plain JSON), named for each
ruleset in ``spec/games.toml``.

May import: :mod:`heatcore.framework`; never a game's package or the tools.
"""

#: The protocol version the harness speaks first: ``conform/2`` carries the optional
#: modules (states, setups and random races that play them, for the modules an engine
#: declares).
PROTOCOL = "conform/2"
#: The earlier version, still served and spoken: a ``conform/1`` session plays the core race
#: only (no module states, no module races), whatever the engine declares.
CORE_PROTOCOL = "conform/1"
#: Every version heatcore serves, newest first.
PROTOCOLS = (PROTOCOL, CORE_PROTOCOL)
CASE_FORMAT = "conform.case/1"
SUITE_FORMAT = "conform.suite/1"

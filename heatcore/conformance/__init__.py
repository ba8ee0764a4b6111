"""The conformance kit: fixtures, a JSON-lines protocol, and a harness for other engines.

The format, protocol, harness and shrinker are generic; everything that knows Heat lives in
``heatcore.conformance.heat`` (a *binding*: the reference engine seen through plain JSON).
"""

#: The protocol version the harness speaks first: ``conform/2`` carries the optional
#: modules (states, setups and random races that play them, for the modules an engine
#: declares).
PROTOCOL = "conform/2"
#: The earlier version, still served and spoken: a ``conform/1`` session plays the core race
#: only (no module states, no module races), whatever the engine declares.
CORE_PROTOCOL = "conform/1"
#: The version that adds the Championship between races (``championship`` requests:
#: :mod:`heatcore.conformance.championship_protocol`); the harness opens a session of its own
#: in it for an engine that declares the ``championship`` module.
CHAMPIONSHIP_PROTOCOL = "conform/3"
#: Every version heatcore serves, newest first.
PROTOCOLS = (CHAMPIONSHIP_PROTOCOL, PROTOCOL, CORE_PROTOCOL)
CASE_FORMAT = "conform.case/1"
SUITE_FORMAT = "conform.suite/1"

"""The conformance kit: fixtures, a JSON-lines protocol, and a harness for other engines.

The format, protocol, harness and shrinker are generic; everything that knows Heat lives in
``heatcore.conformance.heat`` (a *binding*: the reference engine seen through plain JSON).
"""

PROTOCOL = "conform/1"
CASE_FORMAT = "conform.case/1"
SUITE_FORMAT = "conform.suite/1"

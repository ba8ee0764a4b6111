"""Mutation testing of the rules modules of both engines with cosmic-ray (``.[mutation]``).

    python3 -m benchmarks.mutation run reference   # the reference engine vs the rule tests
    python3 -m benchmarks.mutation run fast        # the fast engine vs the rule tests on it
    python3 -m benchmarks.mutation retest reference  # survivors again, with today's tests
    python3 -m benchmarks.mutation report          # results.json and docs/guides/mutation.rst

``run`` copies the repository's files to a scratch folder (cosmic-ray edits files in place),
makes the session (``NAME.toml`` lists the modules, the operators left out and the test
command) and executes every mutant one at a time with ``forked.py`` (one process that has
imported the tests' dependencies forks a child per mutant: the same outcomes as ``cosmic-ray
exec`` without a new interpreter each time), printing progress; a session interrupted goes on
where it stopped when run again. Opt-in: no test of the suite runs a session.
``report`` reads the sessions, names the test that killed each mutant
(the first failure of ``pytest -x``), marks survivors explained in ``equivalent.toml`` and
writes the score: killed by a test tagged with rule IDs / (all mutants - equivalent ones).
"""

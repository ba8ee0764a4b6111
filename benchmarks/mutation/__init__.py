"""Mutation testing of the rules modules of both engines with cosmic-ray (``.[mutation]``).

    python3 -m benchmarks.mutation run reference   # the reference engine vs the rule tests
    python3 -m benchmarks.mutation run fast        # the fast engine vs the rule tests on it
    python3 -m benchmarks.mutation retest reference  # survivors again, with today's tests
    python3 -m benchmarks.mutation retest reference --on-head  # ... on today's code too
    python3 -m benchmarks.mutation report          # results.json and docs/guides/mutation.rst

``run`` copies the repository's files to a scratch folder (cosmic-ray edits files in place),
makes the session (``NAME.toml`` lists the modules, the operators left out and the test
command) and executes every mutant one at a time with ``forked.py`` (one process that has
imported the tests' dependencies forks a child per mutant: the same outcomes as ``cosmic-ray
exec`` without a new interpreter each time), printing progress; a session interrupted goes on
where it stopped when run again. Opt-in: no test of the suite runs a session.

Each mutant runs only the tests that execute the statement it changes (``selection.py``, as
mutmut 3 does it): the session's test command runs once under coverage.py with a context per
test, and the map line -> tests is kept in the scratch folder (``coverage-map.json``, measured
again when the code, the tests or the command change). The selected tests run with the
command's own options (``-x``) in the command's order, so a killed mutant is named by the
first *covering* test to fail: the same test as with the whole command, since a test that
never executes the mutated statement runs exactly as without the mutant. What could make a
test depend on the mutant without executing it is state left by an earlier test: before each
test of the coverage run every memo table is emptied (``functools`` caches, ``__missing__``
dicts), so a test is mapped to what it computes itself; a statement run at import, at
collection, between tests or in a fixture shared beyond one test runs the whole command; the
default suite runs in random order (pytest-randomly), so the tests do not lean on each
other's order. A mutant whose statement no test executes survives without running ("no test
executes ..." in its output). ``run --all-tests`` runs the whole command for every mutant
(the old way); ``retest`` always runs the whole command, so every survivor of a selected run
is checked again the old way.
The fast engine's modules are compiled by mypyc at install (``heatcore.heat.fast.compiled``); a
mutant of one must run as its mutated source. Three things see to it: the scratch copy holds
no compiled extension (``git ls-files`` leaves the ignored ``*.so`` out), the children run
with ``HEATCORE_FAST=pure``, and a child that finds a mutated module loaded from anything
but its ``.py`` file stops the session (``forked.compiled_modules``). Checked by hand on
2026-12-02 in a copy holding the installed ``*.so`` and ``compiled.json``: unmutated,
``heatcore.heat.fast.BUILD`` was ``compiled``; with ``race.py``'s slipstream move made one space
short, it was ``pure (the sources changed since the compiled build ...)``,
``heatcore.heat.fast.race.__file__`` was the ``.py`` and the rule test
``test_slipstream_never_crosses_the_final_finish_line`` failed on the fast engine
(``tests/test_fast_rules.py``); restored, it passed again.

``retest`` copies today's tests into the session's scratch copy; when they no longer run on
the session's code, ``retest --on-head`` applies each survivor to a fresh copy of today's
repository (``NAME-head`` beside the session) instead, where the mutation changes the same
lines from the same text to the same text as the session's stored diff (the others are
named and left as they were); its outcomes say so (``code`` in ``retest.json``).
``HEATCORE_MUTATION_SCRATCH`` names the folder holding the sessions (``reference/`` and
``fast/``; default ``/tmp/heatcore-mutation``); ``report`` reads both from there, so sessions
kept in two folders are reported through a folder of symbolic links to them.

``report`` reads the sessions, names the test that killed each mutant
(the first failure of ``pytest -x``), marks survivors explained in ``equivalent.toml`` and
writes the score: killed by a test tagged with rule IDs / (all mutants - equivalent ones).
"""

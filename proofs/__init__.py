"""Z3 proofs of the rules of a turn, independent of the engine's code, the refinement
check that ties the model to the engine, and the edge-case miner.

``track_graph`` turns the track data into a graph and the facts the encoding needs;
``symbols``, ``enc_cards``, ``enc_track`` and ``encoding`` encode a car's turn (and the
setup and turn order); ``stages`` groups the turn's constraints by decision and chance
point; ``catalogue`` states the proofs and their negative controls, ``liveness`` the
no-deadlock, totality and choices obligations; ``runner`` runs them (``heatcore prove``).
Refinement: ``turns`` records real races, ``pinning`` compiles the model (``z3eval``)
and pins it to a recorded turn, ``refine`` checks each turn (``heatcore prove
--refine N``); ``lasso`` refutes a bound on the rounds of a race; ``reachable`` ties a
state to its round. ``miner`` finds witnesses of named situations, ``witness`` replays
them in the engine, ``mining`` exports them (``heatcore prove --mine``). The encoding
modules never import the engine; ``turns``, ``pinning``, ``refine``, ``lasso``,
``reachable``, ``witness`` and ``mining`` do, to drive it and read its records.
"""

"""Z3 proofs of the rules of a turn, independent of the engine's code, and the edge-case
miner that cross-checks the engine.

``track_graph`` turns the track data into a graph and the facts the encoding needs;
``symbols``, ``enc_cards``, ``enc_track`` and ``encoding`` encode a car's turn (and the
setup and turn order); ``catalogue`` states the proofs and their negative controls;
``runner`` runs them (``heatcore prove``). ``miner`` finds witnesses of named situations,
``witness`` replays them in the engine and compares outcomes, ``mining`` exports them
(``heatcore prove --mine``). Only ``witness``/``mining`` import the engine.
"""

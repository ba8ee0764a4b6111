"""Z3 proofs of the rules of a turn, independent of the engine's code.

``track_graph`` turns the track data into a graph and the facts the encoding needs;
``encoding`` (with ``symbols``, ``enc_cards``, ``enc_track``) encodes a car's turn;
``catalogue`` states the proofs and their negative controls; ``runner`` runs them.
"""

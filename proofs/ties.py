"""For every proof: whether it is about the Z3 model only or tied to the engine, and by
what check (the proofs page shows it with each proof; ``tests/test_proofs_removal.py``
checks that every proof has an entry)."""

from __future__ import annotations

_TURN = ("Tied to the engine by refinement (proofs.refine, in every heatcore prove run): "
         "each of 2,000 sampled real turns pins the model to the engine's state, choices "
         "and chance outcomes and compares ")
_MODEL = "About the model only. "
_MODULES = ("Tied to the engine by the module refinement (proofs.module_refine, run by "
            "heatcore prove --modules): ")

#: Proof id -> how it reaches the engine.
TIES: dict[str, str] = {
    "heat-conservation": _TURN + "the engine, hand, deck and discard pile (Heat counts "
                         "per pile) after each turn; every race start is compared with "
                         "the model's setup (proofs.refine_race).",
    "heat-from-engine": _TURN + "the Heat paid for the shift, the boost and the corners, "
                        "and the engine after the turn.",
    "stress-conservation": _TURN + "the Stress taken, the supply and the Stress in each "
                           "pile; each race start's supply is compared with the model's "
                           "setup (proofs.refine_race).",
    "deck-integrity": _TURN + "the count of every card kind in hand, deck and discard pile "
                      "after each turn, and every reshuffle; each race start's hand and "
                      "deck with the model's setup (proofs.refine_race).",
    "gear-shifts": _TURN + "the gear after the turn, the Heat paid for the shift, and the "
                   "plans the model allows against the engine's legal plans.",
    "play-legal": _TURN + "the plans the model allows (gear and cards) against the engine's "
                  "legal plans, and the cluttered play.",
    "turn-order": ("Tied to the engine by the round refinement (proofs.refine_race, in every "
                   "heatcore prove run): at the start of every round of the sampled races "
                   "the model's round is fed the engine's spots, and the order it fixes "
                   "must be the engine's order."),
    "round-order": ("Tied to the engine by the round refinement (proofs.refine_race): every "
                    "round of the sampled races, fed the engine's spots at its start and "
                    "after each turn; the model's movers and the adrenaline of each turn "
                    "must be the engine's."),
    "corner-payment": _TURN + "the Heat paid at the corners, the spin, the spot and the "
                      "speed.",
    "spin-stress": _TURN + "the Stress taken, the supply and the hand; a run of 1,000 turns "
                   "or more fails unless it checked a spin in each gear 1-4.",
    "placement": _TURN + "the spot (position, racing line) the car ends on, with the other "
                 "cars (lapped cars included) pinned to the engine's spots.",
    "movement": _TURN + "the position after the turn and the speed.",
    "slipstream": _TURN + "the slipstream the model offers against the engine's legal "
                  "actions at that decision.",
    "finish-corners": _TURN + "the corner Heat and the spin on the turns that cross the "
                      "final line.",
    "flip-always-finds": _TURN + "what each Stress and boost flip found and whether it "
                         "reshuffled.",
    "react": _TURN + "the react choices the model allows against the engine's legal "
             "actions, after each choice, and the engine Heat.",
    "discard": _TURN + "the discards the model allows against the engine's legal discards.",
    "no-deadlock": (_MODEL + "On the engine, the refinement sample's races must all reach "
                    "their end (no engine state without a legal action)."),
    "totality": (_MODEL + "It says the encoding completes every choice it allows; the "
                 "engine's choices are tied to the model's by the refinement."),
    "choices": (_MODEL + "It compares the model's choices with the rules restated; the "
                "refinement then compares the model's choices with the engine's."),
    "bound-speed": (_MODEL + "It carries to the engine only through the refinement (sampled "
                    "turns, not every turn); the miner replays a turn at the bound on the "
                    "engine (heatcore prove --mine max-speed)."),
    "bound-heat-cost": (_MODEL + "It carries to the engine only through the refinement "
                        "(sampled turns); the miner replays a turn at the bound."),
    "bound-heat-demand": (_MODEL + "It carries to the engine only through the refinement "
                          "(sampled turns)."),
    "bound-spin-back": (_MODEL + "It carries to the engine only through the refinement "
                        "(sampled turns); the miner replays a turn at the bound."),
    "legend-one-corner": _MODULES + "the encoded Legend move against the engine's "
                         "legend_spaces on random Legends (start, card, road token, "
                         "aggressive option) of every base track.",
    "legend-aggressive-stop-moot": (_MODEL + "It compares two readings of a ruling inside "
                                    "the model; the Legend move it encodes is tied to the "
                                    "engine as in legend-one-corner."),
    "sector-between-lines": _MODULES + "the encoded sector of every position of every base "
                            "track against the engine's Track.sector_of.",
    "sector-where-the-car-is": _MODULES + "the encoded Cloud refusal against the engine's "
                               "hooks.cooldown_allowed (the react step's) at every "
                               "position of every base track, under every weather token, "
                               "with the Weather road token in each sector.",
    "garage-accelerate": _MODULES + "the speed increases and the Accelerate gain of every "
                         "play of up to four cards against heatcore.heat.modules.garage.symbols.",
    "garage-adjust": _MODULES + "the adjusted limit of every limit and Adjust total against "
                     "heatcore.heat.modules.garage.symbols, under ruling.garage-adjust's "
                     "default and its alternative \"unclamped\" (each against the encoding of it).",
    "garage-unpayable-heat": _MODULES + "the payment of every printed Heat amount from "
                             "every engine 0-7 against heatcore.heat.modules.garage.symbols.",
    "slipstream-bonus-within-finish": (
        "Tied to the engine by tests/test_fidelity_heat.py: proofs.slipstream_bonus."
        "refines_extras compares the encoded extras with the slipstream extras both engines "
        "offer, at sampled positions near the final line, for every bonus and both "
        "alternatives of ruling.slipstream-bonus-all-or-nothing."),
    "garage-unpaid-speed": (
        "Tied to the engine by tests/test_fidelity_garage_unpaid.py: "
        "proofs.garage_unpaid.refines_card_speed compares the speed the engine takes out "
        "for an unpaid Heat card (each card, each chosen speed) with the printed one."),
}


def tie_of(proof_id: str) -> str:
    """How ``proof_id`` reaches the engine ("" if not recorded)."""
    return TIES.get(proof_id, "")

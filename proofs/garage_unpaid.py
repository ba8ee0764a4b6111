"""Z3 proof of ruling.garage-unpaid-heat's default, with negative controls.

The cards' printed speeds and Heat amounts are read from ``spec/modules/garage.json``
(:func:`proofs.garage._cards`), not from the engine; the rule is encoded from seed 003's
words as ``spec/rulings.toml`` quotes them ("discard this card ... the same as (+)").

- ``garage-unpaid-speed`` (upgrade.heat-unpayable, ruling.garage-unpaid-heat): for up to
  three played cards with a Heat symbol (any printed speed, a choose-speed card at any of
  its speeds), any of them unpaid, any flips (0-4) replacing them and any other speed of
  the turn, the turn's speed afterwards is the speed of the cards left in play, the other
  speed and the flips (each unpaid card counts as a + instead), and the car aims at its
  turn's start plus that speed (move.exact). Controls: ``speed-kept`` (the reading before
  issue 26: the card's speed stays) and ``car-stays`` (the speed is taken out but the car
  keeps the spaces it moved).

:func:`refines_card_speed` checks the engine's speed taken out for an unpaid card against
the printed speeds on every Heat card and every speed it can be played at.
"""

from __future__ import annotations

from collections.abc import Callable

import z3

from proofs.garage import _amount, _cards
from proofs.track_graph import load_track_data

CONTROLS = ("speed-kept", "car-stays")
SLOTS = 3  # a player owns three upgrades


def _heat_cards() -> list[tuple[str, tuple[int, ...]]]:
    """(token, printed speeds) of every upgrade type with a Heat symbol."""
    return [(c["token"], tuple(int(v) for v in c["speed"])) for c in _cards()
            if _amount(c, "heat")]


def prove_unpaid_speed(track_id: str, control: str | None = None) -> z3.CheckSatResult:
    """UNSAT: after the unpaid cards are replaced, the turn's speed is the cards left, the
    other speed and the flips, and the car aims at its start plus that speed (SAT under
    each control). The track bounds the start."""
    data = load_track_data(track_id)
    length = int(data["spaces_per_lap"]) * int(data["laps"])
    start, other = z3.Ints("start other")
    speed = z3.Ints(" ".join(f"speed{k}" for k in range(SLOTS)))
    flip = z3.Ints(" ".join(f"flip{k}" for k in range(SLOTS)))
    present = z3.Bools(" ".join(f"present{k}" for k in range(SLOTS)))
    unpaid = z3.Bools(" ".join(f"unpaid{k}" for k in range(SLOTS)))
    printed = sorted({v for _, speeds in _heat_cards() for v in speeds})
    domain = [start >= 0, start <= length, other >= 0, other <= 30]
    for k in range(SLOTS):
        domain += [z3.Or([speed[k] == v for v in printed]), flip[k] >= 0, flip[k] <= 4,
                   z3.Implies(unpaid[k], present[k])]
    revealed = other + z3.Sum([z3.If(present[k], speed[k], 0) for k in range(SLOTS)])
    position = start + revealed  # where the car stands when the Heat is resolved
    after = revealed
    for k in range(SLOTS):
        out = z3.If(unpaid[k], speed[k], 0)
        if control != "speed-kept":
            after = after - out
        if control != "car-stays":  # placed again from the turn's start
            position = z3.If(unpaid[k], start + after, position)
        position = position + z3.If(unpaid[k], flip[k], 0)
        after = after + z3.If(unpaid[k], flip[k], 0)
    kept = z3.Sum([z3.If(z3.And(present[k], z3.Not(unpaid[k])), speed[k], 0)
                   for k in range(SLOTS)])
    flips = z3.Sum([z3.If(unpaid[k], flip[k], 0) for k in range(SLOTS)])
    claims = [after == other + kept + flips, position == start + after]
    solver = z3.Solver()
    solver.add(*domain, z3.Not(z3.And(*claims)))
    return solver.check()


def refines_card_speed(engine_speed: Callable[[str, tuple[int, ...], str], int]) -> list[str]:
    """Heat cards and chosen speeds where ``engine_speed(card, chosen, card)`` (the speed the
    engine takes out for an unpaid copy played alone) is not the printed or chosen speed."""
    out = []
    for token, speeds in _heat_cards():
        for value in speeds:
            chosen = (value,) if len(speeds) > 1 else ()
            got = engine_speed(token, chosen, token)
            if got != value:
                out.append(f"{token} at {value}: engine takes out {got}")
    return out


PROOFS: dict[str, tuple[Callable[[str, str | None], z3.CheckSatResult], tuple[str, ...]]] = {
    "garage-unpaid-speed": (prove_unpaid_speed, CONTROLS),
}
RULES = ("upgrade.heat-unpayable", "ruling.garage-unpaid-heat", "move.exact")
CLAIM = ("For up to three played Heat cards at any printed speed, any of them unpaid and "
         "replaced by a flip of 0-4: the turn's speed is the cards left in play, the other "
         "speed and the flips, and the car aims at its turn's start plus that speed.")

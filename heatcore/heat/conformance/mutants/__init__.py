"""Deliberately wrong engines: heatcore with one rule broken, speaking the protocol.

Each module ``NAME`` runs as ``python -m heatcore.heat.conformance.mutants.NAME``; ``BROKEN`` maps
it to the rule ID it breaks. They exist to prove that ``heatcore conform`` catches bugs.
The ``broken_*`` modules misbehave at the protocol level instead (crash, hang, garbage, ...).
"""

BROKEN: dict[str, str] = {
    "cooldown_per_gear": "react.cooldown",
    "slipstream_adds_speed": "slipstream.speed-unchanged",
    "adrenaline_wrong_car": "adrenaline.who",
    "heat_from_hand": "corner.pay-heat",
    "one_corner_check": "corner.check",
    "blocked_moves_forward": "place.blocked",
    "racing_line_ignored": "place.racing-line-first",
    "flip_accepts_upgrades": "reveal.stress-flip",
    "play_area_reshuffled": "replenish.discard-before-draw",
    "three_step_shift": "gear.shift.no-three",
    "slipstream_past_finish": "slipstream.not-past-finish",
    "spin_stress_count": "corner.spin",
    "rulings_ignored": "ruling.cluttered-gear",
}

#: More planted bugs, several of which remove behaviour, for the attribution test: each
#: maps to the rule the harness must rank first.
PLANTED: dict[str, str] = {
    "no_slipstream": "slipstream.eligible",
    "no_discard": "discard.optional",
    "draw_to_six": "replenish.draw",
    "boost_free": "react.boost",
    "two_shift_free": "gear.shift.two-costs-heat",
    "spin_keeps_gear": "corner.spin",
    "cluttered_keeps_gear": "play.cluttered",
    "adrenaline_no_move": "adrenaline.effects",
}

#: Engines that are not wrong, only narrower than heatcore: ``conform`` must pass them, on
#: what they declare (name -> what they leave out).
NARROWER: dict[str, str] = {
    "no_modules": "plays no optional module (checked on the core race only)",
    "conform1_only": "speaks only conform/1 (checked on the core race only)",
}

#: Engines that play an alternative of a switchable ruling whatever the race chooses: they
#: pass when their start reply declares it (``--ruling ID=ALTERNATIVE``) and fail when they
#: declare the default (tests/test_conform_rulings.py).
DECLARED: dict[str, str] = {
    "plays_finished_skip": "ruling.finished-car-discard-draw=skip",
}

#: Protocol-level failures and how the harness names them.
PROTOCOL_FAILURES: dict[str, str] = {
    "broken_crash": "crashed",
    "broken_hang": "timeout",
    "broken_garbage": "garbage",
    "broken_huge": "huge-line",
    "broken_closes": "closed-pipe",
}

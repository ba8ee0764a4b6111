"""Heat's fixture cases: chosen from seeded races by what their events show, plus crafted
states for behaviour that random play rarely reaches. Deterministic: same code, same cases."""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from functools import cache
from typing import Any

from heatcore.framework.conformance.binding import JSON, RandomRace, Rejected, Step
from heatcore.framework.registry import ruleset
from heatcore.heat.conformance.binding import HeatBinding

CARD_ORDER = ("1", "2", "3", "4", "U0", "U5", "S", "H")
PLAYABLE = ("1", "2", "3", "4", "U0", "U5", "S")
BASIC = ("1", "2", "3", "4")
#: Seeds of the races the corpus is cut from (the harness uses other seeds).
CORPUS_SEEDS = range(0, 60)
#: Further seeds, scanned only for rules still short of cases.
EXTRA_SEEDS = range(60, 460)
#: Rules that random races show rarely and no crafted case covers: scanned further.
RARE = frozenset({"slipstream.earlier-lap", "ruling.blocked-own-space",
                  "ruling.setback-corner"})
PER_RULE = 3


def _canon(cards: list[str]) -> list[str]:
    return sorted(cards, key=CARD_ORDER.index)


def _car(state: JSON, name: str) -> JSON:
    return state["cars"][int(name[1:]) - 1]


def _kinds(step: Step) -> set[str]:
    return {e["kind"] for e in step.events}


def _ev(step: Step, kind: str) -> list[JSON]:
    return [e for e in step.events if e["kind"] == kind]


def _verb(step: Step) -> str:
    return " ".join(step.action.split()[1:2])


def _actor(step: Step) -> JSON:
    return _car(step.before, step.action.split()[0])


def _turn(step: Step) -> JSON:
    return step.before.get("turn") or {}


def _blocked(step: Step) -> bool:
    pos = {c["id"]: c["position"] for c in step.before["cars"]}
    for e in step.events:
        if e["kind"] == "moved":
            if e["position"] < pos[e["car"]] + e["spaces"]:
                return True
            pos[e["car"]] = e["position"]
        elif e["kind"] == "spun-out":
            pos[e["car"]] = e["position"]
    return False


def _finish(state: JSON, lap_length: dict[str, int]) -> int:
    return int(lap_length[state["track"]] * state["laps"])


def _adjacent(state: JSON, name: str) -> bool:
    me = _car(state, name)
    ranked = set(state["ranking"])
    spots = {(c["position"], c["racing_line"]) for c in state["cars"]
             if c["id"] != name and c["id"] not in ranked}
    p = me["position"]
    return ((p, not me["racing_line"]) in spots or (p + 1, True) in spots
            or (p + 1, False) in spots)


Predicate = Callable[[Step], bool]


def predicates(lap_length: dict[str, int]) -> dict[str, tuple[str, Predicate]]:
    """Rule ID -> (description, which race steps show it)."""
    def plan(s: Step) -> bool:
        return _verb(s) == "gear"

    def shift(s: Step, size: int) -> bool:
        if not plan(s):
            return False
        return abs(int(s.action.split()[2]) - int(_actor(s)["gear"])) == size

    def first_plan(s: Step) -> bool:
        return plan(s) and s.before["round"] == 1 and s.before["cursor"] == 0

    def last_plan(s: Step) -> bool:
        return plan(s) and s.before["cursor"] == len(s.before["order"]) - 1

    def finished_actor(s: Step) -> bool:
        t = _turn(s)
        return bool(t) and bool(
            _car(s.before, t["car"])["position"] > _finish(s.before, lap_length))

    def setback_before_line(s: Step) -> bool:
        from heatcore.heat.track import load_track

        track = load_track(s.before["track"])
        pos = {c["id"]: c["position"] for c in s.before["cars"]}
        for e in _ev(s, "moved"):
            target = pos[e["car"]] + e["spaces"]
            if e["position"] < target and track.corner_lines(e["position"], target,
                                                             s.before["laps"]):
                return True
            pos[e["car"]] = e["position"]
        return False

    def gears_then_two_step(s: Step) -> bool:
        """The last plan, with a normal shift of a car later in the order than a car
        shifting two gears (so the two steps of info.gears-shown tell apart)."""
        if not last_plan(s):
            return False
        gears = {c["id"]: len(c["played"]) for c in s.before["cars"]}
        gears[s.action.split()[0]] = int(s.action.split()[2])
        now = {c["id"]: c["gear"] for c in s.before["cars"]}
        steps = [abs(gears[name] - now[name]) for name in s.before["order"]]
        return any(a == 2 and 1 in steps[k + 1:] for k, a in enumerate(steps))

    def own_space_hop(s: Step) -> bool:
        for e in _ev(s, "moved"):
            me = _car(s.before, e["car"])
            if (e["spaces"] > 0 and e["position"] == me["position"] and e["racing_line"]
                    and not me["racing_line"]):
                return True
        return False

    def near_finish_no_slip(s: Step) -> bool:
        name = s.action.split()[0]
        me = _car(s.before, name)
        fin = _finish(s.before, lap_length)
        return (_verb(s) == "end" and fin < me["position"] + 2
                and _adjacent(s.before, name))

    def earlier_lap_slip(s: Step) -> bool:
        lap = lap_length[s.before["track"]]
        t = _turn(s)
        if t.get("stage") == "slipstream" and s.before["laps"] > 1:
            p = _car(s.before, t["car"])["position"]
            if p // lap < (p + 2) // lap and p + 2 <= lap * s.before["laps"]:
                return True
        for e in _ev(s, "moved"):
            if e["by"] == "slipstream" and s.before["laps"] > 1:
                start = e["position"] - e["spaces"]
                if start // lap < e["position"] // lap and e["position"] <= lap * s.before["laps"]:
                    return True
        return False

    def finished_react(s: Step) -> bool:
        t = _turn(s)
        if not t or t.get("stage") != "react":
            return False
        return bool(_car(s.before, t["car"])["position"] > _finish(s.before, lap_length))

    def hand_over(s: Step) -> bool:
        return any(len(_car(s.after, e["car"])["hand"]) > 7 for e in _ev(s, "spun-out"))

    def flip_shuffle(s: Step) -> bool:
        if _verb(s) == "shuffle" and _turn(s).get("stage") in ("reveal", "boost"):
            return True
        after = s.after.get("turn") or {}
        return bool(s.after.get("shuffle")) and after.get("stage") in ("reveal", "boost") \
            and bool(_car(s.after, after["car"])["played"])

    def replenish_shuffle(s: Step) -> bool:
        return _verb(s) == "shuffle" and _turn(s).get("stage") == "replenish"

    def turn_total(s: Step) -> bool:
        t = _turn(s)
        return bool("corner" in _kinds(s) and (t.get("boosted") or t.get("adrenaline_move_used")))

    def adrenaline_late(s: Step) -> bool:
        return any(e.get("adrenaline") for e in _ev(s, "turn-started")) and bool(
            s.before["ranking"] or len(s.before["cars"]) >= 5)

    table: dict[str, tuple[str, Predicate]] = {
        "round.sequence": ("a new round starts once every car has had its turn",
                           lambda s: "round-started" in _kinds(s)),
        "info.hidden": ("a plan taken before the last car has planned reveals nothing",
                        lambda s: plan(s) and s.before["cursor"] < len(s.before["order"]) - 1),
        "setup.track-laps": ("the race ends after the track's laps",
                             lambda s: "ranked" in _kinds(s)),
        "setup.spaces-and-spots": ("a car lands on the spot off the racing line",
                                   lambda s: any(not e["racing_line"] for e in _ev(s, "moved"))),
        "setup.deck": ("the first plan draws on the 18-card starting deck", first_plan),
        "setup.engine": ("a first-round two-gear shift pays from the starting engine",
                         lambda s: s.before["round"] == 1 and shift(s, 2) and last_plan(s)),
        "setup.gear": ("every car starts in 1st gear", first_plan),
        "setup.stress-supply": ("a spin takes Stress from the shared supply",
                                lambda s: "spun-out" in _kinds(s)),
        "setup.grid": ("the first round's order follows the grid", first_plan),
        "setup.hand": ("every car starts with 7 cards in hand", first_plan),
        "gear.range": ("a car in 1st or 4th gear shifts within 1-4",
                       lambda s: plan(s) and _actor(s)["gear"] in (1, 4)),
        "gear.shift.free": ("a one-gear shift costs nothing", lambda s: shift(s, 1)),
        "gear.shift.two-costs-heat": ("a two-gear shift pays one Heat once every plan is in",
                                      lambda s: shift(s, 2) and last_plan(s)),
        "gear.shift.no-three": ("a car in 1st or 4th gear cannot shift three gears",
                                lambda s: plan(s) and _actor(s)["gear"] in (1, 4)),
        "play.card-count": ("a car plays as many cards as its gear", plan),
        "play.playable-cards": ("a plan plays cards from the hand", plan),
        "play.heat-not-playable": ("a hand holding Heat plays other cards",
                                   lambda s: plan(s) and "H" in _actor(s)["hand"]
                                   and "H" not in s.action.split()),
        "play.cluttered": ("a cluttered hand plays Heat and does not move",
                           lambda s: "cluttered" in _kinds(s)),
        "play.cluttered-only-when-forced": ("Heat in hand with a legal play is not cluttered",
                                            lambda s: plan(s) and "H" in _actor(s)["hand"]),
        "order.fixed-at-round-start": ("the turn order is fixed when the round starts",
                                       lambda s: "round-started" in _kinds(s)),
        "reveal.speed": ("speed is the sum of the revealed cards", lambda s: "speed" in _kinds(s)),
        "reveal.stress-flip": ("a Stress card flips until a basic card",
                               lambda s: "flipped" in _kinds(s) and "S" in " ".join(
                                   str(e.get("cards")) for e in _ev(s, "revealed"))),
        "move.exact": ("a car moves exactly its speed",
                       lambda s: any(e["by"] == "cards" for e in _ev(s, "moved"))
                       and not _blocked(s)),
        "place.racing-line-first": ("a car stops on the racing line when free, else beside it",
                                    lambda s: bool(_ev(s, "moved"))),
        "place.blocked": ("a car whose final space is full stops behind it", _blocked),
        "place.speed-unchanged": ("a blocked car keeps its speed for the corners",
                                  lambda s: _blocked(s) and "corner" in _kinds(s)),
        "adrenaline.who": ("the last car of the turn order gets adrenaline",
                           lambda s: any(e.get("adrenaline") for e in _ev(s, "turn-started"))),
        "adrenaline.count-fixed": ("with 5 or more cars two cars get adrenaline",
                                   lambda s: len(s.before["cars"]) >= 5 and any(
                                       e.get("adrenaline") for e in _ev(s, "turn-started"))),
        "adrenaline.effects": ("adrenaline gives one move or one cooldown",
                               lambda s: _verb(s) == "adrenaline"),
        "react.any-order": ("react choices come in any order, each once",
                            lambda s: _verb(s) in ("cooldown", "boost", "adrenaline")
                            and bool(_turn(s).get("cooldown_used") or _turn(s).get("boosted")
                                     or _turn(s).get("adrenaline_move_used"))),
        "react.cooldown": ("cooldown moves Heat from hand to engine",
                           lambda s: _verb(s) == "cooldown"),
        "react.boost": ("boost pays one Heat and flips for a basic card",
                        lambda s: _verb(s) == "boost"),
        "speed.turn-total": ("boost and adrenaline add to the speed checked at corners",
                             turn_total),
        "slipstream.eligible": ("a car beside or just behind another may slipstream",
                                lambda s: _turn(s).get("stage") == "slipstream"),
        "slipstream.move": ("slipstream moves two more spaces",
                            lambda s: _verb(s) == "slipstream"),
        "slipstream.speed-unchanged": ("slipstream does not add to the speed checked at corners",
                                       lambda s: _verb(s) == "slipstream"
                                       and "corner" in _kinds(s)),
        "slipstream.not-past-finish": ("no slipstream is offered across the final finish line",
                                       near_finish_no_slip),
        "corner.check": ("every corner line crossed in one move is checked",
                         lambda s: len(_ev(s, "corner")) + len(_ev(s, "spun-out")) >= 2),
        "corner.pay-heat": ("speed over the limit costs the excess in Heat",
                            lambda s: any(e["heat"] for e in _ev(s, "corner"))),
        "corner.spin": ("a car that cannot pay spins out and takes Stress",
                        lambda s: "spun-out" in _kinds(s)),
        "corner.after-finish-ignored": ("movement past the final line checks no corner",
                                        lambda s: "crossed-finish" in _kinds(s)),
        "discard.optional": ("discarding is optional", lambda s: _verb(s) == "discard"),
        "replenish.cleanup": ("played cards go to the discard pile before drawing",
                              lambda s: "drew" in _kinds(s)),
        "replenish.draw": ("the hand is drawn back to 7", lambda s: "drew" in _kinds(s)),
        "deck.reshuffle": ("an empty deck is refilled by shuffling the discard pile",
                           lambda s: _verb(s) == "shuffle"),
        "finish.line": ("crossing the final line finishes the race",
                        lambda s: "crossed-finish" in _kinds(s)),
        "finish.ranking": ("finishers are ranked furthest first", lambda s: "ranked" in _kinds(s)),
        "finish.removed": ("finished cars leave the track at the end of the round",
                           lambda s: "ranked" in _kinds(s)),
        "example.opening-turn": ("a first-round turn reveals, moves and replenishes",
                                 lambda s: s.before["round"] == 1 and "speed" in _kinds(s)),
        "example.second-turn": ("a second-round turn reveals, moves and replenishes",
                                lambda s: s.before["round"] == 2 and "speed" in _kinds(s)),
        "ruling.flip-no-basic": ("a flip with no basic card left finds nothing",
                                 lambda s: "flip-found-nothing" in _kinds(s)),
        "ruling.stress-supply": ("a spin takes Stress while the supply lasts",
                                 lambda s: "spun-out" in _kinds(s)),
        "ruling.replenish-empty": ("drawing reshuffles the discard pile when the deck runs out",
                                   replenish_shuffle),
        "ruling.cluttered-gear": ("a cluttered hand chooses its gear like any other",
                                  lambda s: "cluttered" in _kinds(s)),
        "slipstream.earlier-lap": ("a slipstream may cross the line on an earlier lap",
                                          earlier_lap_slip),
        "ruling.zero-move": ("a speed of 0 leaves the car on its spot",
                             lambda s: any(e["speed"] == 0 for e in _ev(s, "speed"))),
        "ruling.blocked-extra-move": ("the adrenaline move is taken even when blocked",
                                      lambda s: _verb(s) == "adrenaline" and _blocked(s)),
        "ruling.finished-car-turn": ("a car past the final line still reacts", finished_react),
        "ruling.finished-car-discard-draw": ("a car past the final line discards and draws",
                                             lambda s: finished_actor(s)
                                             and _verb(s) == "discard"),
        "ruling.simultaneous-planning": ("a two-gear shift planned early pays only when every "
                                         "plan is in", lambda s: shift(s, 2)
                                         and not last_plan(s)),
        "ruling.blocked-own-space": ("a blocked move ends on the racing line of its own space",
                                     own_space_hop),
        "ruling.spin-discard": ("a car that spun may still discard",
                                lambda s: "spun-out" in _kinds(s)
                                and (s.after.get("turn") or {}).get("stage") == "discard"),
        "info.plan-simultaneous": ("a plan taken before the last changes no gear or engine",
                                   lambda s: plan(s) and not last_plan(s)),
        "info.gears-shown": ("the normal shifts come before the two-gear shifts",
                             gears_then_two_step),
        "info.cards-revealed": ("a car's cards are turned face up at its turn",
                                lambda s: "revealed" in _kinds(s)),
        "race.goal": ("the race goes on after a car has finished, until every car is ranked",
                      lambda s: "ranked" in _kinds(s) and "round-started" in _kinds(s)),
        "setup.first-track": ("a first round on USA, the board of the first race",
                              lambda s: first_plan(s) and s.before["track"] == "usa"),
        "ruling.lap-count": ("a race of one lap ranks its cars after that lap",
                             lambda s: s.before["laps"] == 1 and "ranked" in _kinds(s)),
        "ruling.setback-corner": ("a car set back before a corner line by a full space does "
                                  "not check it", setback_before_line),
        "info.discard-top": ("discarded cards go face up to the discard pile",
                             lambda s: _verb(s) == "discard" and s.action.split()[2:] != [
                                 "nothing"]),
        "ruling.discard-pile-order": ("a discard pile is held as a set of cards, unordered",
                                      lambda s: "drew" in _kinds(s)
                                      and _verb(s) == "discard"),
        "setup.players": ("every car of the race plans in the first round", first_plan),
        "ruling.hand-over-limit": ("Stress from a spin may take the hand over 7", hand_over),
        "replenish.discard-before-draw": ("a reshuffle during a flip leaves the play area out",
                                             flip_shuffle),
        "ruling.adrenaline-order": ("adrenaline goes to the last cars of the fixed order",
                                    adrenaline_late),
    }
    return table


#: Rules whose cases also check the legal-action set of the state before the step.
LEGAL_RULES = {"gear.range", "gear.shift.free", "gear.shift.two-costs-heat",
               "gear.shift.no-three", "setup.gear", "setup.hand", "react.any-order",
               "react.cooldown", "react.boost", "slipstream.eligible", "discard.optional",
               "play.heat-not-playable", "play.cluttered-only-when-forced", "adrenaline.effects"}


class Builder:
    """Collects cases, keeping ids unique."""

    def __init__(self, binding: HeatBinding) -> None:
        self.binding = binding
        self.cases: list[JSON] = []
        self.ids: set[str] = set()
        self.entries = ruleset()

    def _tags(self, rule: str) -> tuple[list[str], list[str]]:
        if rule.startswith("ruling."):
            refines = [r for r in self.entries[rule].refines if r in self.entries]
            return (refines[:2] or ["round.sequence"]), [rule]
        return [rule], []

    def add(self, rule: str, cid: str, description: str, state: JSON, expect: JSON,
            source: str, also: tuple[str, ...] = ()) -> None:
        """Add a case tagged with ``rule`` (and the rules ``also``), unless its id is taken."""
        if cid in self.ids:
            return
        rules, rulings = self._tags(rule)
        rules = rules + [r for r in also if r not in rules]
        self.ids.add(cid)
        self.cases.append({"id": cid, "description": description, "rules": rules,
                           "rulings": rulings, "source": source, "state": state,
                           "expect": expect})

    def step_case(self, rule: str, cid: str, description: str, state: JSON,
                  action: str, source: str) -> bool:
        try:
            after, events = self.binding.apply(state, action)
        except Rejected:
            return False
        self.add(rule, cid, description, state,
                 {"steps": [{"action": action, "state": after, "events": events}]}, source)
        return True

    def legal_case(self, rule: str, cid: str, description: str, state: JSON,
                   source: str) -> None:
        self.add(rule, cid, description, state, {"legal": self.binding.legal(state)}, source)

    def reject_case(self, rule: str, cid: str, description: str, state: JSON, action: str,
                    source: str, want_rule: str | None = None) -> bool:
        try:
            self.binding.apply(state, action)
        except Rejected as rejected:
            if want_rule is not None and rejected.rule != want_rule:
                return False
            self.add(rule, cid, description, state,
                     {"rejection": {"action": action, "kind": rejected.kind,
                                    "rule": rejected.rule}}, source)
            return True
        return False


@cache
def _race(binding: HeatBinding, seed: int) -> RandomRace:
    """Race ``seed`` (cached: the case builders scan the same races; about 100 of them, which
    :func:`all_cases` drops when done)."""
    return binding.random_race(seed)


def _slug(rule: str) -> str:
    return rule.replace("_", "-")


def race_cases(builder: Builder, lap_length: dict[str, int]) -> None:
    """Cut cases from the corpus races: for each rule, the first steps that show it."""
    table = predicates(lap_length)
    found: dict[str, list[tuple[int, int, Step, str]]] = {r: [] for r in table}
    seeds = [*CORPUS_SEEDS, *EXTRA_SEEDS]
    for seed in seeds:
        lacking = {r for r, hits in found.items() if len(hits) < PER_RULE and r in RARE}
        if seed >= len(CORPUS_SEEDS) and not lacking:
            continue
        race = _race(builder.binding, seed)
        used: set[str] = set()
        for k, step in enumerate(race.steps):
            for rule, (_, pred) in table.items():
                if rule in used or len(found[rule]) >= PER_RULE + 1:
                    continue
                if seed >= len(CORPUS_SEEDS) and rule not in lacking:
                    continue
                try:
                    ok = pred(step)
                except (KeyError, TypeError, ValueError, IndexError):
                    ok = False
                if ok:
                    found[rule].append((seed, k, step, race.label))
                    used.add(rule)
    for rule, hits in found.items():
        text = table[rule][0]
        for seed, k, step, label in hits:
            where = f"race {seed} ({label}), step {k}"
            builder.add(rule, f"{_slug(rule)}.race{seed}-step{k}",
                        f"{text}: {step.action} ({where})", step.before,
                        {"steps": [{"action": step.action, "state": step.after,
                                    "events": step.events}]}, f"race:{seed}:{k}")
            if rule in LEGAL_RULES:
                builder.add(rule, f"{_slug(rule)}.race{seed}-step{k}.legal",
                            f"{text}: the legal actions before {step.action} ({where})",
                            step.before, {"legal": step.legal}, f"race:{seed}:{k}")


def _plan_states(builder: Builder, count: int) -> Iterator[tuple[int, int, JSON]]:
    """States where a car plans, from a few corpus races."""
    for seed in range(count):
        race = _race(builder.binding, seed)
        for k, step in enumerate(race.steps):
            if step.action.split()[1] == "gear" and k % 7 == 0:
                yield seed, k, step.before


def _actor_name(state: JSON) -> str:
    return str(state["order"][state["cursor"]])


def rejection_cases(builder: Builder) -> None:
    """Actions heatcore refuses, each naming the rule it breaks."""
    want: dict[str, int] = {}

    def need(rule: str) -> bool:
        return want.get(rule, 0) < PER_RULE

    def got(rule: str) -> None:
        want[rule] = want.get(rule, 0) + 1

    for seed, k, state in _plan_states(builder, 12):
        name = _actor_name(state)
        me = _car(state, name)
        hand = me["hand"]
        playable = [c for c in hand if c in PLAYABLE]
        where = f"race {seed}, step {k}"
        gear = me["gear"]
        tries: list[tuple[str, str, str]] = []
        if gear in (1, 4) and len(playable) >= 4 - 3 * (gear == 4):
            g = 4 if gear == 1 else 1
            cards = " ".join(_canon(playable[:g]))
            tries.append(("gear.shift.no-three", f"{name} gear {g} play {cards}",
                          f"a shift from {gear} to {g} is refused"))
        if "H" in hand and len(playable) >= gear:
            cards = " ".join(_canon([*playable[:gear - 1], "H"]))
            tries.append(("play.heat-not-playable", f"{name} gear {gear} play {cards}",
                          "Heat is refused while a legal play exists"))
        if len(playable) > gear:
            cards = " ".join(_canon(playable[:gear + 1]))
            tries.append(("play.card-count", f"{name} gear {gear} play {cards}",
                          f"gear {gear} refuses {gear + 1} cards"))
        missing = [c for c in ("4", "3", "U5") if hand.count(c) == 0]
        if missing and len(playable) >= gear:
            cards = " ".join(_canon([*playable[:gear - 1], missing[0]]))
            tries.append(("play.playable-cards", f"{name} gear {gear} play {cards}",
                          "a card not in hand is refused"))
        other = next(c["id"] for c in state["cars"] if c["id"] != name)
        tries.append(("order.fixed-at-round-start",
                      f"{other} gear 1 play {playable[0] if playable else 'H'}",
                      f"{other} is refused while {name} is to plan"))
        tries.append(("round.sequence", f"{name} end react",
                      "a react choice is refused while plans are awaited"))
        for rule, action, text in tries:
            if need(rule) and builder.reject_case(
                    rule, f"{_slug(rule)}.reject.race{seed}-step{k}", f"{text}: {action} ({where})",
                    state, action, f"race:{seed}:{k}", rule):
                got(rule)
    for seed in range(30):
        race = _race(builder.binding, seed)
        for k, step in enumerate(race.steps):
            t = _turn(step)
            where = f"race {seed}, step {k}"
            state = step.before
            tries = []
            if t.get("stage") == "react":
                name = t["car"]
                me = _car(state, name)
                if me["gear"] >= 3 and "H" in me["hand"]:
                    tries.append(("react.cooldown", f"{name} cooldown 1",
                                  f"gear {me['gear']} gives no cooldown"))
                if t.get("boosted"):
                    tries.append(("react.boost", f"{name} boost", "a second boost is refused"))
                if not t.get("adrenaline"):
                    tries.append(("adrenaline.who", f"{name} adrenaline move",
                                  f"{name} has no adrenaline"))
                if t.get("cooldown_used") and "H" in me["hand"]:
                    tries.append(("react.any-order", f"{name} cooldown 1",
                                  "the gear's cooldown is used once"))
            if t.get("stage") == "discard":
                name = t["car"]
                me = _car(state, name)
                bad = "H" if "H" in me["hand"] else "S"
                tries.append(("discard.optional", f"{name} discard {bad}",
                              f"a {bad} card is refused on discard"))
            if state.get("shuffle"):
                name = state["shuffle"]
                tries.append(("deck.reshuffle", f"{name} shuffle 1 2",
                              "a shuffle of other cards is refused"))
            if k == len(race.steps) - 1:
                tries.append(("finish.removed", "P1 end react",
                              "no action is taken after the race is over"))
                state = step.after
            for rule, action, text in tries:
                if need(rule) and builder.reject_case(
                        rule, f"{_slug(rule)}.reject.race{seed}-step{k}",
                        f"{text}: {action} ({where})", state, action, f"race:{seed}:{k}", rule):
                    got(rule)


def _cluttered_last(builder: Builder) -> None:
    """The last car of a round's order made cluttered (every playable card to its deck, the
    engine's Heat but one to its hand): its adrenaline is used by no one
    (ruling.adrenaline-order)."""
    count = 0
    for seed in range(40):
        race = _race(builder.binding, seed)
        for k, step in enumerate(race.steps):
            s = step.before
            if count >= PER_RULE or step.action.split()[1] != "gear" \
                    or s["cursor"] != len(s["order"]) - 1 or len(s["order"]) < 2:
                continue
            s, _, legal = _cluttered(builder, s, 0)
            if legal and builder.step_case(
                    "ruling.adrenaline-order", f"ruling.adrenaline-order.crafted{seed}-{k}",
                    f"the last car is cluttered: no other car gets its adrenaline "
                    f"(crafted from race {seed}, step {k})", s, legal[0],
                    f"crafted:{seed}:{k}"):
                count += 1
                break
        if count >= PER_RULE:
            return


def _move(cards: list[str], card: str, target: list[str]) -> None:
    cards.remove(card)
    target.append(card)


def _cluttered(builder: Builder, state: JSON, engine: int) -> tuple[JSON, JSON, list[str]]:
    """A copy of a plan-phase ``state`` whose planning car is cluttered: its engine's Heat
    down to ``engine`` moved to its hand, its playable cards to its deck; the copy, that
    car and its legal plans ([] if the state is refused)."""
    s = copy.deepcopy(state)
    me = _car(s, _actor_name(s))
    while me["engine"] > engine:
        me["engine"] -= 1
        me["hand"].append("H")
    for card in [c for c in me["hand"] if c != "H"]:
        _move(me["hand"], card, me["deck"])
    me["hand"] = _canon(me["hand"])
    try:
        builder.binding.load(s)
        return s, me, builder.binding.legal(s)
    except Rejected:
        return s, me, []


def crafted_cases(builder: Builder) -> None:
    """States random play rarely reaches, made by moving cards between a car's own zones
    (which keeps every card and Heat count valid)."""
    lap = {t: 0 for t in builder.binding.tracks()}
    del lap
    count = 0
    # Cluttered hands: every Heat of the engine but one into the hand, playable cards out.
    for seed, k, state in _plan_states(builder, 20):
        if count >= 4:
            break
        if _car(state, _actor_name(state))["gear"] < 3:
            continue
        s, me, legal = _cluttered(builder, state, 1)
        if not legal:
            continue
        name = me["id"]
        count += 1
        where = f"crafted from race {seed}, step {k}"
        for rule, text in (("play.cluttered", "a hand of only Heat plays Heat"),
                           ("ruling.cluttered-gear",
                            "a cluttered hand picks any reachable gear, the paid shift too"),
                           ("play.cluttered-only-when-forced",
                            "a hand with no playable card is cluttered")):
            builder.legal_case(rule, f"{_slug(rule)}.crafted{seed}-{k}.legal",
                               f"{text} ({where})", s, f"crafted:{seed}:{k}")
        builder.step_case("play.cluttered", f"play.cluttered.crafted{seed}-{k}",
                          f"a cluttered play drops to 1st gear: {legal[-1]} ({where})", s,
                          legal[-1], f"crafted:{seed}:{k}")
        down = me["gear"] - 2
        paid = f"{name} gear {down} play {' '.join(['H'] * down)}"
        builder.step_case("ruling.cluttered-gear", f"ruling.cluttered-gear.crafted{seed}-{k}",
                          f"a cluttered hand takes the paid two-gear shift ({where})", s, paid,
                          f"crafted:{seed}:{k}")
        strict = {**s, "rulings": {**s["rulings"], "ruling.cluttered-gear": "free-shifts-only"}}
        builder.reject_case("ruling.cluttered-gear",
                            f"ruling.cluttered-gear.crafted{seed}-{k}.free-shifts-only",
                            "under free-shifts-only a cluttered hand may not take the paid "
                            f"two-gear shift ({where})", strict, paid, f"crafted:{seed}:{k}")
    # Flips with no basic card left: every basic card of deck and discard into the hand.
    count = 0
    for seed in range(40):
        if count >= PER_RULE:
            break
        race = _race(builder.binding, seed)
        for k, step in enumerate(race.steps):
            t = _turn(step)
            if t.get("stage") != "react" or not step.action.endswith(" end react"):
                continue
            s = copy.deepcopy(step.before)
            me = _car(s, t["car"])
            if me["engine"] < 1 or t.get("boosted"):
                continue
            for zone in ("deck", "discard"):
                for card in [c for c in me[zone] if c in BASIC]:
                    _move(me[zone], card, me["hand"])
            me["hand"] = _canon(me["hand"])
            if builder.step_case("ruling.flip-no-basic",
                                 f"ruling.flip-no-basic.crafted{seed}-{k}",
                                 f"a boost with no basic card in deck or discard finds nothing "
                                 f"(crafted from race {seed}, step {k})", s, f"{t['car']} boost",
                                 f"crafted:{seed}:{k}"):
                count += 1
            break
    # Spins with a short Stress supply: the supply's cards move to another car's discard.
    count = 0
    for seed, spins in _race_spins(builder):
        if count >= PER_RULE:
            break
        for k, step, spin in spins:
            s = copy.deepcopy(step.before)
            other = next(c for c in s["cars"] if c["id"] != spin["car"])
            left = count % 2
            moved = 0
            while s["supply"] > left:
                s["supply"] -= 1
                moved += 1
                other["discard"].append("S")
            other["discard"] = _canon(other["discard"])
            # a spin adds at most 2 Stress: a round late enough for that many spins
            s["round"] = max(s["round"], 2 + (moved + 1) // 2)
            if builder.step_case("ruling.stress-supply",
                                 f"ruling.stress-supply.crafted{seed}-{k}",
                                 f"a spin with {left} Stress left in the supply takes {left} "
                                 f"(crafted from race {seed}, step {k})", s, step.action,
                                 f"crafted:{seed}:{k}"):
                count += 1
            break


def _no_round_limit(builder: Builder) -> None:
    """The last turn of a round, moved to a late round: the next round starts all the
    same, with cars still racing; the rules set no round limit (ruling.no-round-limit)."""
    count = 0
    for seed in range(90):
        if count >= PER_RULE:
            return
        race = _race(builder.binding, seed)
        for k, step in enumerate(race.steps):
            if not _ev(step, "round-started") or _ev(step, "race-over"):
                continue
            s = copy.deepcopy(step.before)
            s["round"] = 200 + 50 * count
            if builder.step_case("ruling.no-round-limit",
                                 f"ruling.no-round-limit.crafted{seed}-{k}",
                                 f"round {s['round']} ends with cars still racing and round "
                                 f"{s['round'] + 1} starts: no round limit (crafted from race "
                                 f"{seed}, step {k})", s, step.action, f"crafted:{seed}:{k}"):
                count += 1
            break


def _race_spins(builder: Builder, seeds: int = 90,
                ) -> Iterator[tuple[int, Iterator[tuple[int, Step, JSON]]]]:
    """For each corpus race (seed), its spins in order: (step index, step, first spun-out
    event). Races are played only as the caller asks for them."""
    for seed in range(seeds):
        race = _race(builder.binding, seed)
        yield seed, ((k, step, spins[0]) for k, step in enumerate(race.steps)
                     if (spins := _ev(step, "spun-out")))


def _hand_over_limit(builder: Builder) -> None:
    """Spins by a car whose hand already holds 7 cards (cards moved up from its deck)."""
    count = 0
    for seed, spins in _race_spins(builder):
        if count >= PER_RULE:
            return
        for k, step, spin in spins:
            s = copy.deepcopy(step.before)
            me = _car(s, spin["car"])
            while len(me["hand"]) < 7 and me["deck"]:
                me["hand"].append(me["deck"].pop(0))
            me["hand"] = _canon(me["hand"])
            if len(me["hand"]) < 7:
                continue
            if builder.step_case("ruling.hand-over-limit",
                                 f"ruling.hand-over-limit.crafted{seed}-{k}",
                                 f"Stress from a spin goes into a full hand "
                                 f"(crafted from race {seed}, step {k})", s, step.action,
                                 f"crafted:{seed}:{k}"):
                count += 1
            break


def _stress_flip_example(builder: Builder) -> None:
    """3 + 3 + a Stress card whose flip finds a 2: speed 8 (a deck stacked by hand)."""
    from heatcore.heat.notation import state_to_dict
    from heatcore.heat.setup import RaceSetup, start_race

    rest = ["1", "1", "4", "U0", "2", "1", "2", "2", "3", "4", "4", "U5", "H", "S", "S"]
    stacked = ("3", "3", "S", *rest[:4], *rest[4:])
    plain = tuple(_canon(["3", "3", "S", *rest]))
    state, _ = start_race(RaceSetup("usa", 2, 1, (0, 1), (stacked, plain)))
    first = state.order[0]
    if first != 0:
        return
    data = state_to_dict(state)
    try:
        after, _ = builder.binding.apply(data, "P1 gear 3 play 3 3 S")
    except Rejected:
        return
    builder.step_case("reveal.stress-flip", "seed.three-three-stress",
                      "3 + 3 + a Stress card flipping a 2 reveals speed 8 (usa, 2 cars, "
                      "stacked deck)", after, "P2 gear 1 play 1", "seed:stacked")
    builder.step_case("reveal.speed", "seed.three-three-stress-speed",
                      "the speed of 3, 3 and a Stress card that found a 2 is 8 (usa, 2 cars, "
                      "stacked deck)", after, "P2 gear 1 play 1", "seed:stacked")


def seed_examples(builder: Builder) -> None:
    """Hand-picked examples: a stacked deck, and exact numbers found in corpus races."""
    _stress_flip_example(builder)
    wanted: list[tuple[str, str, str, Callable[[Step], bool]]] = [
        ("reveal.stress-flip", "seed.stress-flip-speed",
         "a Stress card flipping a 2 adds 2 to the other cards' speed",
         lambda s: any(e["kind"] == "flipped" and e["card"] == "2" and e["kept"]
                       for e in s.events) and "S" in str(_ev(s, "revealed"))),
        ("corner.pay-heat", "seed.corner-excess-two",
         "speed 8 over a limit of 6 costs 2 Heat",
         lambda s: any(e["speed"] == 8 and e["limit"] == 6 and e["heat"] == 2
                       for e in _ev(s, "corner"))),
        ("corner.spin", "seed.spin-second-gear",
         "a spin in 2nd gear takes 1 Stress and drops to 1st gear",
         lambda s: any(e["stress"] == 1 and _car(s.before, e["car"])["gear"] == 2
                       for e in _ev(s, "spun-out"))),
        ("corner.spin", "seed.spin-fourth-gear",
         "a spin in 4th gear takes 2 Stress and drops to 1st gear",
         lambda s: any(e["stress"] == 2 and _car(s.before, e["car"])["gear"] == 4
                       for e in _ev(s, "spun-out"))),
        ("gear.shift.two-costs-heat", "seed.two-gear-shift",
         "a shift from 1st to 3rd gear pays one Heat",
         lambda s: _verb(s) == "gear" and s.action.split()[2] == "3"
         and _actor(s)["gear"] == 1),
    ]
    for rule, cid, text, pred in wanted:
        for seed in range(60):
            race = _race(builder.binding, seed)
            hit = next(((k, s) for k, s in enumerate(race.steps) if _safe(pred, s)), None)
            if hit is not None:
                k, step = hit
                builder.add(rule, cid, f"{text}: {step.action} (race {seed}, step {k})",
                            step.before, {"steps": [{"action": step.action, "state": step.after,
                                                     "events": step.events}]},
                            f"seed:race:{seed}:{k}")
                break


def _safe(pred: Callable[[Step], bool], step: Step) -> bool:
    try:
        return pred(step)
    except (KeyError, TypeError, ValueError, IndexError):
        return False


#: The stages of :func:`all_cases`, for a progress display.
CASE_STAGES = ("seed examples", "cases from seeded races", "rejections", "crafted states",
               "hand over the limit", "weather, road conditions, Legends and the Garage",
               "steered races",
               "Z3 witnesses")


def all_cases(stage: Callable[[str], None] = lambda name: None) -> list[JSON]:
    """Every case of the Heat corpus, in a fixed order: seed examples, cases cut from seeded
    races and crafted states, then steps of races steered towards rare situations
    (``steered.*``), then the Z3 miner's witnesses (``mined.*``, mined in a subprocess
    while the others are built). ``stage`` is told each stage of :data:`CASE_STAGES` as it
    starts."""
    from heatcore.heat.conformance.championship_cases import championship_cases, sponsor_cases
    from heatcore.heat.conformance.mined import MinedCases
    from heatcore.heat.conformance.module_cases import (
        crafted_rule_cases,
        garage_cases,
        legend_cases,
        mined_legend_cases,
        mined_module_cases,
        regression_cases,
        weather_cases,
    )
    from heatcore.heat.conformance.sharpened import sharpened_cases
    from heatcore.heat.conformance.steered import steered_cases
    from heatcore.heat.track import load_track

    miner = MinedCases()
    try:
        binding = HeatBinding()
        lap_length = {t: load_track(t).finish_position(1) for t in binding.tracks()}
        builder = Builder(binding)
        stage(CASE_STAGES[0])
        seed_examples(builder)
        stage(CASE_STAGES[1])
        race_cases(builder, lap_length)
        sharpened_cases(builder, lap_length, lambda seed: _race(binding, seed))
        stage(CASE_STAGES[2])
        rejection_cases(builder)
        stage(CASE_STAGES[3])
        crafted_cases(builder)
        _cluttered_last(builder)
        stage(CASE_STAGES[4])
        _hand_over_limit(builder)
        _no_round_limit(builder)
        stage(CASE_STAGES[5])
        weather_cases(builder.add)
        legend_cases(builder.add)
        garage_cases(builder.add)
        championship_cases(builder.add)
        sponsor_cases(builder.add)
        regression_cases(binding, builder.add)
        mined_legend_cases(binding, builder.add)
        mined_module_cases(builder.add)
        crafted_rule_cases(binding, builder.add)
        stage(CASE_STAGES[6])
        cases = builder.cases + steered_cases(binding)
        stage(CASE_STAGES[7])
    except BaseException:
        miner.cancel()
        raise
    finally:
        _race.cache_clear()
    return cases + miner.result()


def group_of(case: JSON) -> str:
    """The file a case goes to: ``mined-SITUATION`` for the miner's witnesses, ``steered``
    for the steered races' cases, else the chapter of its first rule (rulings to
    ``rulings``)."""
    source, _, rest = str(case["id"]).partition(".")
    if source == "mined":
        return f"mined-{rest.split('.')[0]}"
    if source == "steered":
        return "steered"
    if source == "regression":
        return "regressions"
    first: str = (case["rulings"] or case["rules"])[0]
    entry: Any = ruleset()[first]
    return str(entry.chapter)

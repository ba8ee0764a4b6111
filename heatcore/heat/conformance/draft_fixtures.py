"""The draft's fixtures (``spec/fixtures/draft``): the Garage's draft played by
:mod:`heatcore.heat.modules.garage.draft` behind plain JSON (:class:`DraftBinding`), and cases cut
from
seeded drafts: the market as a chance outcome (no player acts while it is awaited; a market
of the wrong size is refused), the picks from the back of the grid, then the pole, then the
back (the legal picks at each round's start; a pick out of turn is refused), whole drafts,
and a draft from the basic deck alone (ruling.garage-draft-pool).

The draft happens before the race's state exists, so its cases live in a folder of their
own, run by this binding with ``check_corpus`` as the race's cases are by the Heat binding.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from heatcore.framework.conformance import SUITE_FORMAT
from heatcore.framework.conformance.binding import Rejected
from heatcore.framework.conformance.fixtures import dumps
from heatcore.framework.errors import RulesError
from heatcore.framework.files import write_atomic
from heatcore.heat.conformance.corpus import fixtures_dir
from heatcore.heat.modules.garage.draft import (
    ALL_DECKS,
    BASIC_DECK,
    Draft,
    DraftAction,
    Market,
    Pick,
    draft_actions,
    draw_market,
    pick_order,
    start_draft,
)
from heatcore.heat.modules.garage.draft_notation import (
    draft_from_dict,
    draft_legal,
    draft_step,
    draft_to_dict,
    parse_draft_action,
    validate_draft,
)
from heatcore.heat.state import car_name

JSON = Any
RULES = ("draft.market", "draft.order", "ruling.garage-draft-pool")
INTERPRETING = "spec/schemas/INTERPRETING.md (conform.case/1); states: heat-draft.schema.json"
#: (seed, players, decks) of the drafts the cases are cut from.
DRAFTS = ((1, 3, ALL_DECKS), (2, 4, ALL_DECKS), (3, 6, ALL_DECKS), (4, 2, BASIC_DECK),
          (5, 5, BASIC_DECK))


def draft_dir() -> Path:
    """``spec/fixtures/draft``."""
    return fixtures_dir() / "draft"


class DraftBinding:
    """heatcore's draft behind plain JSON drafts, action strings and event objects."""

    name = "heatcore-draft"
    ruleset = "heat"

    def rule_ids(self) -> list[str]:
        return list(RULES)

    def _parse(self, state: JSON) -> Draft:
        try:
            return validate_draft(draft_from_dict(state))
        except RulesError as error:
            raise Rejected(error.kind, error.rule, str(error)) from None

    def load(self, state: JSON) -> JSON:
        return draft_to_dict(self._parse(state))

    def legal(self, state: JSON) -> list[str]:
        return draft_legal(self._parse(state))

    def apply(self, state: JSON, action: str) -> tuple[JSON, list[JSON]]:
        draft = self._parse(state)
        try:
            after, events = draft_step(draft, parse_draft_action(action))
        except RulesError as error:
            raise Rejected(error.kind, error.rule, str(error)) from None
        return draft_to_dict(after), events


def _played(seed: int, players: int, decks: tuple[str, ...]) -> list[tuple[Draft, DraftAction]]:
    """Draft ``seed``: a shuffled grid of ``players`` cars, markets drawn and picks chosen
    at random; every (draft before, action) in order."""
    rng = random.Random(seed)
    grid = list(range(players))
    rng.shuffle(grid)
    draft = start_draft(tuple(grid), players, decks)
    out: list[tuple[Draft, DraftAction]] = []
    while not draft.is_over():
        action: DraftAction = (draw_market(draft, rng) if draft.is_chance()
                               else rng.choice(draft_actions(draft)))
        out.append((draft, action))
        draft = draft_step(draft, action)[0]
    return out


def _steps(played: list[tuple[Draft, DraftAction]]) -> list[JSON]:
    out = []
    for draft, action in played:
        after, events = draft_step(draft, action)
        out.append({"action": str(action), "state": draft_to_dict(after), "events": events})
    return out


def _case(cid: str, description: str, rules: list[str], state: Draft, expect: JSON,
          source: str, rulings: tuple[str, ...] = ()) -> JSON:
    return {"id": cid, "description": description, "rules": rules, "rulings": list(rulings),
            "source": source, "state": draft_to_dict(state), "expect": expect}


def draft_cases() -> list[JSON]:
    """Every case of the draft's corpus, in a fixed order."""
    cases: list[JSON] = []
    for seed, players, decks in DRAFTS:
        played = _played(seed, players, decks)
        basic = decks == BASIC_DECK
        rulings = ("ruling.garage-draft-pool",)
        where = f"{players} players, {'the basic deck' if basic else 'both decks'}"
        source = f"draft:{seed}"
        start, first_market = played[0]
        cases.append(_case(f"draft.market.{seed}.awaited",
                           f"Draft {seed} ({where}) starts with the market's draw, a chance "
                           "outcome: no player has a pick", ["draft.market"], start,
                           {"legal": []}, source, rulings))
        cases.append(_case(f"draft.market.{seed}.drawn",
                           f"Draft {seed} ({where}): the first market holds players + 3 = "
                           f"{players + 3} cards drawn from the box", ["draft.market"], start,
                           {"steps": _steps(played[:1])}, source, rulings))
        assert isinstance(first_market, Market)
        short = " ".join(first_market.cards[:-1])
        cases.append(_case(f"draft.market.{seed}.short",
                           f"Draft {seed} ({where}): a market of players + 2 cards is "
                           "refused", ["draft.market"], start,
                           {"rejection": {"action": f"market {short}",
                                          "kind": "illegal-action", "rule": "draft.market"}},
                           source, rulings))
        for number, (draft, _) in enumerate(d for d in played
                                            if not d[0].is_chance() and d[0].cursor == 0):
            side = ("pole", "back")[number != 1]
            first = car_name(pick_order(draft)[0])
            cases.append(_case(f"draft.order.{seed}.round-{number + 1}",
                               f"Draft {seed} ({where}), round {number + 1}: the car at the "
                               f"{side} of the grid ({first}) picks first",
                               ["draft.order"], draft, {"legal": draft_legal(draft)},
                               source, rulings))
            other = pick_order(draft)[1]
            card = draft.market[0] if draft.market else ""
            cases.append(_case(f"draft.order.{seed}.round-{number + 1}.out-of-turn",
                               f"Draft {seed} ({where}), round {number + 1}: "
                               f"{car_name(other)} may not pick before {first}",
                               ["draft.order"], draft,
                               {"rejection": {"action": str(Pick(other, card)),
                                              "kind": "illegal-action", "rule": "draft.order"}},
                               source, rulings))
        cases.append(_case(f"draft.whole.{seed}",
                           f"Draft {seed} ({where}) from the first market to the last pick: "
                           "three rounds, back, pole, back; each round's leftovers return to "
                           "the box", ["draft.order", "draft.market"], start,
                           {"steps": _steps(played)}, source, rulings))
    return cases


def render() -> dict[str, str]:
    """File name -> text of the draft's corpus."""
    cases = sorted(draft_cases(), key=lambda c: str(c["id"]))
    return {"draft.json": dumps({"format": SUITE_FORMAT, "ruleset": "heat",
                                 "interpreting": INTERPRETING, "cases": cases})}


def generate(folder: Path | None = None) -> list[Path]:
    """Write the draft's corpus (``spec/fixtures/draft`` unless ``folder``)."""
    folder = folder or draft_dir()
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in render().items():
        write_atomic(folder / name, text)
        written.append(folder / name)
    return written

"""The draft as plain JSON (``heatcore.draft/1``, ``spec/schemas/heat-draft.schema.json``)
and its actions as text (``market G1 G4 ...``, ``P2 picks G4``), for the draft's fixtures.

A draft's JSON names the upgrade decks it was dealt from, so that every card can be
accounted for: the cards not drawn, the market, the picks and the cards returned to the box
always make that box (``validate_draft``).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from heatcore.framework.errors import IllegalAction, InvalidState, MalformedInput
from heatcore.framework.registry import implements
from heatcore.heat.modules.garage.data import box, draft_rules
from heatcore.heat.modules.garage.draft import (
    ALL_DECKS,
    BASIC_DECK,
    Draft,
    DraftAction,
    Market,
    Pick,
    apply_draft,
    by_type,
    pick_order,
)
from heatcore.heat.state import car_name

DRAFT_FORMAT = "heatcore.draft/1"
JSON = Any


def _car(token: object) -> int:
    """``P3`` -> 2 (MalformedInput naming draft.order otherwise)."""
    text = str(token)
    if len(text) < 2 or text[0] != "P" or not text[1:].isdigit() or text[1] == "0":
        raise MalformedInput("draft.order", f"{token!r} is not a car name like P1")
    return int(text[1:]) - 1


def _cards(value: object, what: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
        raise MalformedInput("draft.market", f"{what} must be a list of upgrade names")
    known = set(box(ALL_DECKS))
    unknown = [c for c in value if c not in known]
    if unknown:
        raise MalformedInput("draft.market", f"{what}: {unknown[0]!r} is not an upgrade (G1-G48)")
    return tuple(value)


def decks_of(draft: Draft) -> tuple[str, ...]:
    """The upgrade decks the draft deals from, told by how many cards it holds."""
    total = len(draft.pool) + len(draft.market or ()) + len(draft.returned) + sum(
        len(p) for p in draft.picks)
    return BASIC_DECK if total == len(box(BASIC_DECK)) else ALL_DECKS


def draft_to_dict(draft: Draft) -> JSON:
    """The draft's JSON form (keys sorted when dumped; cards sorted by type)."""
    return {"format": DRAFT_FORMAT, "modules": ["garage"], "decks": list(decks_of(draft)),
            "grid": [car_name(c) for c in draft.grid], "round": draft.round,
            "market": None if draft.market is None else list(draft.market),
            "cursor": draft.cursor, "picks": [list(p) for p in draft.picks],
            "returned": list(draft.returned), "pool": list(draft.pool)}


def draft_from_dict(data: JSON) -> Draft:
    """A draft from its JSON form (MalformedInput naming the rule for a bad shape; the
    draft's consistency is :func:`validate_draft`'s)."""
    if not isinstance(data, dict) or data.get("format") != DRAFT_FORMAT:
        raise MalformedInput("draft.market", f"a draft is an object with format {DRAFT_FORMAT}")
    if data.get("modules") != ["garage"]:
        raise MalformedInput("garage.module", "a draft's modules are [\"garage\"]")
    if data.get("decks") not in (list(BASIC_DECK), list(ALL_DECKS)):
        raise MalformedInput("ruling.garage-draft-pool",
                             "decks must be [\"basic\"] or [\"basic\", \"advanced\"]")
    grid = data.get("grid")
    picks = data.get("picks")
    if not isinstance(grid, list) or not isinstance(picks, list):
        raise MalformedInput("draft.order", "grid and picks must be lists")
    for key in ("round", "cursor"):
        if not isinstance(data.get(key), int) or isinstance(data.get(key), bool):
            raise MalformedInput("draft.order", f"{key} must be an integer")
    market = data.get("market")
    return Draft(tuple(_car(c) for c in grid), _cards(data.get("pool"), "pool"),
                 data["round"], None if market is None else _cards(market, "market"),
                 tuple(_cards(p, "picks") for p in picks),
                 _cards(data.get("returned"), "returned"), data["cursor"])


@implements("draft.market", "draft.order")
def validate_draft(draft: Draft) -> Draft:
    """The draft if it is one the draft's rules can reach (InvalidState naming the rule
    otherwise): the players' cars each once, every card of the box accounted for, each
    player holding one card per round picked so far, the cursor within this round's order."""
    players = len(draft.picks)
    rounds = len(draft_rules()["rounds"])
    if not 2 <= players <= 6 or sorted(draft.grid) != list(range(players)):
        raise InvalidState("draft.order", "the grid must name each of the 2-6 players once")
    if not 0 <= draft.round <= rounds:
        raise InvalidState("draft.order", f"round must be 0-{rounds}")
    held = Counter(draft.pool) + Counter(draft.market or ()) + Counter(draft.returned)
    for cards in draft.picks:
        held += Counter(cards)
    if held != Counter(box(decks_of(draft))):
        raise InvalidState("draft.market", "the pool, market, picks and returned cards must "
                           "make the upgrade box exactly")
    for cards in (draft.pool, draft.returned, *draft.picks, draft.market or ()):
        if tuple(cards) != by_type(cards):
            raise InvalidState("draft.market", "cards are listed sorted by type")
    if draft.is_over() or draft.market is None:
        if draft.cursor != 0 or any(len(p) != draft.round for p in draft.picks):
            raise InvalidState("draft.order", f"between rounds every player holds "
                               f"{draft.round} card(s) and the cursor is 0")
        return draft
    order = pick_order(draft)
    if not 0 <= draft.cursor < players:
        raise InvalidState("draft.order", "the cursor must point at a player of the order")
    if any(len(draft.picks[car]) != draft.round + (k < draft.cursor)
           for k, car in enumerate(order)):
        raise InvalidState("draft.order", "the players before the cursor in this round's "
                           "order have picked once more than the others")
    return draft


def parse_draft_action(text: str) -> DraftAction:
    """``market G1 G4 ...`` or ``P2 picks G4`` (MalformedInput naming the rule otherwise)."""
    words = text.split()
    if words and words[0] == "market":
        return Market(_cards(words[1:], "market"))
    if len(words) == 3 and words[1] == "picks":
        return Pick(_car(words[0]), _cards(words[2:], "pick")[0])
    raise MalformedInput("draft.order", f"{text!r} is not 'market CARDS...' or 'Pn picks CARD'")


def draft_legal(draft: Draft) -> list[str]:
    """The draft's open picks as text (none at the market's draw or when it is over)."""
    from heatcore.heat.modules.garage.draft import draft_actions

    return [str(a) for a in draft_actions(draft)]


def draft_step(draft: Draft, action: DraftAction) -> tuple[Draft, list[JSON]]:
    """The draft after ``action`` and what happened: ``market`` (the cards drawn),
    ``picked`` (car and card), ``returned`` (a round's leftovers back to the box)."""
    after = apply_draft(draft, action)
    if isinstance(action, Market):
        return after, [{"kind": "market", "cards": list(action.cards)}]
    if not isinstance(action, Pick):  # pragma: no cover - DraftAction is Market | Pick
        raise IllegalAction("draft.order", f"{action!r} is not a draft action")
    events: list[JSON] = [{"kind": "picked", "car": car_name(action.car), "card": action.card}]
    if after.round > draft.round:
        left = Counter(after.returned) - Counter(draft.returned)
        events.append({"kind": "returned", "cards": list(by_type(list(left.elements())))})
    return after, events

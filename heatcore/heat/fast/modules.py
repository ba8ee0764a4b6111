"""``ModuleRace``: the fast engine's race when it plays the Weather and Road Conditions
and the Legends modules.

:class:`~heatcore.heat.fast.race.FastRace` plays the core race; a race whose state plays a
module is made as this subclass (``FastRace(state)`` picks it), which overrides the steps a
module changes and adds its own. The effects are read from tables built once per race (a
board space's sector effect, a corner's limit change and overheat), never from the
reference engine's state. Every method mirrors a function of :mod:`heatcore.heat.modules.weather`,
:mod:`heatcore.heat.modules.legends` or the core steps they change, named in its docstring.
"""

from __future__ import annotations

from bisect import bisect_left
from typing import ClassVar

from heatcore.framework.values import replace
from heatcore.heat.actions import (
    Action,
    AdrenalineCooldown,
    AdrenalineMove,
    Boost,
    Cooldown,
    DeclineSlipstream,
    EndReact,
    LegendShuffle,
    Plan,
    SectorCooldown,
    Shuffle,
    Slipstream,
    require_action,
)
from heatcore.heat.cards import HEAT
from heatcore.heat.fast.race import (
    BOOST,
    MODULE_RACE,
    OVER,
    PLAN,
    REPLENISH,
    SLIPSTREAM,
    TURN,
    FastRace,
)
from heatcore.heat.modules.legends import full_deck, legend_cards
from heatcore.heat.modules.weather import (
    COOLING_BONUS,
    FREE_BOOST,
    LEGENDS,
    NO_COOLDOWN,
    NO_SLIPSTREAM,
    SLIPSTREAM_BONUS,
    WEATHER,
    road_tokens,
    weather_tokens,
)
from heatcore.heat.react import COOLDOWN
from heatcore.heat.rulings import (
    COOLING_BONUS_COOLDOWN,
    FREE_BOOST_ENGINE,
    LEGEND_ADRENALINE_COUNT,
    LEGEND_BLOCKED_SPOT,
    SLIPSTREAM_BONUS_PART,
)
from heatcore.heat.slipstream import SLIPSTREAM_SPACES
from heatcore.heat.state import Conditions, LegendDeck, RaceState

_FULL_DECK = full_deck()


class ModuleRace(FastRace):
    """A fast race that plays modules: the core steps, with the weather's sector and corner
    effects and the Legends' turns."""

    #: The modules this engine plays (not the Garage: a garage state raises
    #: UnsupportedModule).
    SUPPORTED_MODULES: ClassVar[tuple[str, ...]] = (WEATHER, LEGENDS)

    __slots__ = (
        "_any_part",
        "_corner_delta",
        "_effects",
        "_gear_plus_one",
        "_needs_heat",
        "_overheat",
        "_players",
        "_stay",
        "aggressive",
        "colours",
        "conditions",
        "legend_card",
        "legend_deck",
        "sector_cooldown_used",
    )

    def __init__(self, state: RaceState) -> None:
        """Start from a reference state that plays modules."""
        super().__init__(state)
        self.conditions: Conditions | None = state.conditions
        self.colours: tuple[str | None, ...] = tuple(car.legend for car in state.cars)
        self._players = sum(colour is None for colour in self.colours)
        legends = state.legends
        self.legend_deck: tuple[int, ...] = legends.deck if legends else ()
        self.legend_card: int | None = legends.card if legends else None
        self.aggressive = legends.aggressive if legends else False
        self.sector_cooldown_used = (state.turn.sector_cooldown_used
                                     if state.turn is not None else False)
        self._effects, self._corner_delta, self._overheat = self._road_tables()
        rulings = state.rulings
        self._gear_plus_one = rulings.chose(COOLING_BONUS_COOLDOWN, "gear-plus-one")
        self._any_part = rulings.chose(SLIPSTREAM_BONUS_PART, "any-part")
        self._needs_heat = rulings.chose(FREE_BOOST_ENGINE, "needs-heat")
        self._stay = rulings.chose(LEGEND_BLOCKED_SPOT, "stay")
        if any(self.colours):  # Legends take adrenaline places, never adrenaline
            self.adrenaline_cars = self._adrenaline_cars()

    # implements: road.placement, road.where-the-car-is, weather.sector-only, road.limit,
    # implements: road.overheat
    def _road_tables(self) -> tuple[tuple[str | None, ...], tuple[int, ...], tuple[bool, ...]]:
        """heatcore.heat.modules.weather.sector_effect, corner_limit, corner_heat as tables: the
        sector
        effect on each board space (index 0 unused), and by corner number (index 0 unused)
        the limit's change and whether the corner overheats."""
        track = self.track
        conditions = self.conditions
        if conditions is None:
            corners = len(track.corners) + 1
            return (None,) * (track.spaces_per_lap + 1), (0,) * corners, (False,) * corners
        sector = weather_tokens()[conditions.weather].sector
        effects: list[str | None] = [None]
        for space in range(1, track.spaces_per_lap + 1):
            token = conditions.road[track.sector_of(space)]
            if token == WEATHER:
                effects.append(sector)
            elif road_tokens()[token].placement == "sector":
                effects.append(token)
            else:
                effects.append(None)
        delta = {"limit-plus": 1, "limit-minus": -1}
        return (tuple(effects), (0, *(delta.get(t, 0) for t in conditions.road)),
                (False, *(t == "overheat" for t in conditions.road)))

    # implements: adrenaline.who, adrenaline.count-fixed, ruling.legend-adrenaline-count
    def _adrenaline_cars(self) -> int:
        """heatcore.heat.rounds.adrenaline_count over every car (Legends count), or over the
        players' cars under the alternative "players-only"."""
        cars = len(self.cars)
        if self.rulings.chose(LEGEND_ADRENALINE_COUNT, "players-only"):
            cars = self._players
        return 2 if cars >= 5 else 1

    def to_state(self) -> RaceState:
        """The reference engine's value of the race now, modules included."""
        state = super().to_state()
        cars = state.cars
        if any(self.colours):
            cars = tuple(car if colour is None else replace(car, legend=colour)
                         for car, colour in zip(cars, self.colours, strict=True))
        turn = state.turn
        if turn is not None and self.sector_cooldown_used:
            turn = replace(turn, sector_cooldown_used=True)
        legends = None
        if any(self.colours):
            legends = LegendDeck(self.legend_deck, self.legend_card, self.aggressive)
        return replace(state, cars=cars, turn=turn, conditions=self.conditions,
                       legends=legends)

    # ------------------------------------------------------------------ weather: react

    def _effect(self) -> str | None:
        """The sector effect where the acting car stands now."""
        return self._effects[self.track.space(self.cars[self.car].position)]

    # implements: weather.no-cooldown, weather.cooling-bonus, road.free-boost, react.any-order,
    # implements: react.cooldown, react.boost, adrenaline.effects,
    # implements: ruling.cooling-bonus-own-cooldown, ruling.free-boost-empty-engine
    # ruling.cooling-bonus-own-cooldown "gear-plus-one": the bonus adds 1 to the gear's
    # cooldown instead; ruling.free-boost-empty-engine "needs-heat": a free boost too needs
    # a Heat in the engine
    def _react_actions(self) -> tuple[Action, ...]:
        """heatcore.heat.react.react_choices with the sector effects: no cooldown in a Cloud
        sector, the cooling bonus in a Snow or Rain sector, the free boost in a Heat control
        sector."""
        car = self.cars[self.car]
        effect = self._effect()
        heat = car.hand.count(HEAT) if effect != NO_COOLDOWN else 0
        bonus = effect == COOLING_BONUS
        index = self.car
        out: list[Action] = []
        if not self.cooldown_used:
            most = COOLDOWN[car.gear] + (bonus and self._gear_plus_one)
            out += [Cooldown(index, n) for n in range(1, min(most, heat) + 1)]
        if self.adrenaline and not self.adrenaline_cooldown_used and heat:
            out.append(AdrenalineCooldown(index))
        if not self.sector_cooldown_used and heat and bonus and not self._gear_plus_one:
            out.append(SectorCooldown(index))
        if self.adrenaline and not self.adrenaline_move_used and self._extra_move_open(1):
            out.append(AdrenalineMove(index))
        if not self.boosted and (car.engine >= 1
                                 or (effect == FREE_BOOST and not self._needs_heat)):
            out.append(Boost(index))
        out.append(EndReact(index))
        return tuple(out)

    # implements: road.free-boost, react.boost
    def _boost(self) -> None:
        """heatcore.heat.react.apply_react: a boost in a Heat control sector pays nothing."""
        if self._effect() != FREE_BOOST:
            super()._boost()
            return
        self.boosted = True
        self.stage = BOOST
        self.flips_left = 1

    # ------------------------------------------------------------------ weather: slipstream

    # implements: weather.no-slipstream, weather.slipstream-boost, road.slipstream-boost
    def _can_slipstream(self) -> bool:
        """heatcore.heat.slipstream.can_slipstream, never from a Fog sector; the choices include
        the sector's bonus."""
        if self._effect() == NO_SLIPSTREAM:
            return False
        can = super()._can_slipstream()
        if can:
            self._legal = self._slipstream_actions()
        return can

    # implements: weather.slipstream-boost, road.slipstream-boost,
    # implements: ruling.slipstream-bonus-all-or-nothing
    def _slipstream_actions(self) -> tuple[Action, ...]:
        """heatcore.heat.slipstream.slipstream_choices: slipstream, slipstream with the sector's
        bonus (if any), no slipstream."""
        effect = self._effect()
        bonus = SLIPSTREAM_BONUS.get(effect, 0) if effect is not None else 0
        index = self.car
        if not bonus:
            return (Slipstream(index), DeclineSlipstream(index))
        if self._any_part:  # ruling.slipstream-bonus-all-or-nothing "any-part"
            return (Slipstream(index), *(Slipstream(index, n) for n in range(1, bonus + 1)),
                    DeclineSlipstream(index))
        return (Slipstream(index), Slipstream(index, bonus), DeclineSlipstream(index))

    def _current_legal(self) -> tuple[Action, ...]:
        if (self.shuffle is None and self.phase is TURN and self.stage is SLIPSTREAM):
            return self._slipstream_actions()
        return super()._current_legal()

    # ------------------------------------------------------------------ weather: corners

    # implements: road.limit, road.overheat
    def _excess(self, limit: int, number: int) -> int:
        """heatcore.heat.corners.check_corners with the corner's road token: the limit -1 / +1,
        one more Heat at an overheating corner taken too fast."""
        excess = self.speed - (limit + self._corner_delta[number])
        if excess > 0 and self._overheat[number]:
            excess += 1
        return excess

    # ------------------------------------------------------------------ actions

    def apply(self, action: Action) -> None:
        """Carry out ``action`` (the modules' actions here, the rest as the core race)."""
        require_action(action)
        if isinstance(action, LegendShuffle):
            self._check_legend_shuffle(action)
            self.legend_deck = action.order
            self.shuffle = None
        elif isinstance(action, SectorCooldown):
            if action not in self.legal_actions():
                self._reject(action)
            self._cool(1)
            self.sector_cooldown_used = True
        elif isinstance(action, Slipstream) and action.extra:
            if action not in self.legal_actions():
                self._reject(action)
            self._move(self.car, SLIPSTREAM_SPACES + action.extra)
            self._after_slipstream()
        else:
            super().apply(action)
            return
        self._legal = None
        self._advance()

    # implements: deck.reshuffle, legend.deck
    def _check_shuffle(self, action: Shuffle) -> None:
        """heatcore.heat.engine.check_action: a player's shuffle is no answer to the Legend
        deck's."""
        if self.shuffle is not None and self.colours[self.shuffle] is not None:
            self._reject(action)
        super()._check_shuffle(action)

    # implements: legend.deck
    def _check_legend_shuffle(self, action: LegendShuffle) -> None:
        """heatcore.heat.modules.legends.check_legend_shuffle."""
        if (self.shuffle != action.car or self.colours[action.car] is None
                or tuple(sorted(action.order)) != _FULL_DECK):
            self._reject(action)

    # ------------------------------------------------------------------ Legends: the round

    # implements: legend.turn-order
    def _next_planner(self) -> None:
        """heatcore.heat.rounds.next_planner: Legends skip steps 1-2."""
        order = self.order
        colours = self.colours
        while self.cursor < len(order) and colours[order[self.cursor]] is not None:
            self.cursor += 1

    # implements: legend.turn-order, round.sequence
    def _plans_done(self) -> None:
        """After the last player's plan (or at once when only Legends race): shifts, then
        the first turn (heatcore.heat.engine._advance in phase PLAN)."""
        self._shift_gears()
        self.phase = TURN
        self.cursor = 0
        self._start_turn()

    def _apply_plan(self, plan: Plan) -> None:
        """heatcore.heat.engine.apply: the plan, then the next player's (Legends skipped)."""
        super()._apply_plan(plan)
        if self.phase is PLAN:
            self._next_planner()
            if self.cursor == len(self.order):
                self._plans_done()

    # implements: legend.turn-order, gear.shift.free, gear.shift.two-costs-heat
    def _shift_gears(self) -> None:
        """heatcore.heat.planning.shift_gears: a Legend plans nothing and keeps its gear."""
        colours = self.colours
        for index in self.order:
            if colours[index] is not None:
                continue
            car = self.cars[index]
            gear = len(car.played)
            if abs(gear - car.gear) == 2:
                car.engine -= 1
                car.discard.append(HEAT)
            car.gear = gear

    # implements: adrenaline.who, legend.turn-order, ruling.legend-adrenaline-count
    def _start_turn(self) -> None:
        """heatcore.heat.engine._start_turn: a Legend never has adrenaline; the cooling bonus is
        unused."""
        self.sector_cooldown_used = False
        super()._start_turn()
        if self.colours[self.car] is not None:
            self.adrenaline = False

    # implements: legend.deck, round.sequence
    def _end_round(self) -> None:
        """heatcore.heat.rounds.end_round and start_round: no Legend card is up in a new round;
        Legends skip steps 1-2."""
        super()._end_round()
        if self.phase is OVER or not any(self.colours):
            return
        self.legend_card = None
        self._next_planner()
        if self.cursor == len(self.order):
            self._plans_done()

    # ------------------------------------------------------------------ Legends: the turn

    def _finish_flips(self) -> None:
        """A Legend's turn instead of the reveal's move (a Legend flips nothing)."""
        if self.colours[self.car] is None:
            super()._finish_flips()
            return
        self._legend_turn()

    # implements: legend.no-heat, legend.turn-order, ruling.legend-blocked-spot, legend.finish
    def _legend_turn(self) -> None:
        """heatcore.heat.modules.legends.legend_turn: the round's card, then the move with the usual
        placement; no Heat, no corner check, no cards."""
        if not self._reveal_legend_card():
            return
        colour = self.colours[self.car]
        assert colour is not None and self.legend_card is not None
        diamond, helmet = legend_cards()[self.legend_card][colour]
        spaces = self._legend_spaces(diamond, helmet)
        if not self._legend_stays(spaces):
            self.speed = spaces
            self._move(self.car, spaces)
        self.stage = REPLENISH

    # implements: ruling.legend-blocked-spot, place.blocked
    def _legend_stays(self, spaces: int) -> bool:
        """heatcore.heat.modules.legends.legend_stays: under the alternative "stay", a Legend whose
        move
        ends on a space with both spots taken stays where it is."""
        if spaces <= 0 or not self._stay:
            return False
        target = self.cars[self.car].position + spaces
        return (self._board(target, True) in self.spots
                and self._board(target, False) in self.spots)

    # implements: legend.deck
    def _reveal_legend_card(self) -> bool:
        """heatcore.heat.modules.legends.reveal_legend_card: reveal the round's card if none is up
        yet;
        await the Legend deck's shuffle when it is empty. False while a shuffle is awaited."""
        if self.legend_card is not None:
            return True
        if not self.legend_deck:
            self.shuffle = self.car
            self._pool = None  # a new chance point (FastRace.shuffle_pool)
            return False
        self.legend_card = self.legend_deck[0]
        self.legend_deck = self.legend_deck[1:]
        return True

    # implements: legend.past-line, legend.before-line, legend.final-lap, legend.one-corner,
    # implements: legend.aggressive, ruling.legend-aggressive-stop, road.limit
    def _legend_spaces(self, diamond: int, helmet: int) -> int:
        """heatcore.heat.modules.legends.legend_spaces: before its Legend line a Legend moves by the
        helmet, stopping ``diamond`` spaces before the corner line if the helmet would
        cross it; past it, the corner's limit plus the diamond, crossing one corner line
        (two for an aggressive Legend within the chevrons); after the last line, the
        helmet."""
        position = self.cars[self.car].position
        positions = self.corner_positions
        index = bisect_left(positions, position)
        if index == len(positions):
            return helmet
        line, printed, number = self.corner_lines[index]
        corner = self.track.corners[number - 1]
        if position <= line - (corner.after_space - corner.legend_line):
            if position + helmet <= line:
                return helmet
            return max(0, line - diamond - position)
        spaces = printed + self._corner_delta[number] + diamond
        allowed = 2 if self.aggressive and line + 1 - position <= corner.aggressive else 1
        if bisect_left(positions, position + spaces) - index > allowed:
            return positions[index + allowed] - position
        return spaces


MODULE_RACE.append(ModuleRace)

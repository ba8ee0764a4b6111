#!/usr/bin/env node
// Conformance adapter for the TypeScript Heat engine johntylernyc/heat-game, built from
// examples/adapters/javascript/template.js. See README.md for how to get and build the engine.
//
// heat-game plays phase by phase (every car reveals, then adrenaline for all, then every car
// reacts...); the protocol goes car by car. The adapter keeps heatcore's JSON state as its
// working state and, for each step of the current car, builds a heat-game GameState, calls the
// engine's own function for that step (shiftGear, executePlayCardsPhase, executeRevealAndMove,
// executeAdrenaline, executeCooldown, executeBoost, executeSlipstream, executeCheckCorner,
// executeDiscardPhase, replenishHand, executeReplenishPhase) and reads the car back. The
// stage sequence and the turn object follow HOWTO sections 3 and 7. heat-game has no events:
// the adapter declares compare ["state", "legal"].
'use strict';

const fs = require('fs');
const path = require('path');
const { Adapter, HELLO, Unsupported, Refused, main } = require('../adapters/javascript/template');

const ENGINE = process.env.HEAT_GAME_BUILD || path.join(__dirname, 'heat-game', 'build');
const TRACKS = process.env.HEATCORE_TRACKS || path.join(__dirname, '..', '..', 'spec', 'tracks');
const ORDER = ['1', '2', '3', '4', 'U0', 'U5', 'S', 'H'];
const canonical = (cards) => [...cards].sort((a, b) => ORDER.indexOf(a) - ORDER.indexOf(b));
const clone = (x) => JSON.parse(JSON.stringify(x));

class NeedShuffle extends Error {}

function toCard(c) {
  if (['1', '2', '3', '4'].includes(c)) return { type: 'speed', value: Number(c) };
  if (c === 'U0') return { type: 'upgrade', subtype: 'speed-0' };
  if (c === 'U5') return { type: 'upgrade', subtype: 'speed-5' };
  if (c === 'S') return { type: 'stress' };
  return { type: 'heat' };
}

function fromCard(card) {
  if (card.type === 'speed') return String(card.value);
  if (card.type === 'stress') return 'S';
  if (card.type === 'upgrade' && card.subtype === 'speed-0') return 'U0';
  if (card.type === 'upgrade' && card.subtype === 'speed-5') return 'U5';
  return 'H';
}

class HeatGame extends Adapter {
  constructor(engine, types) {
    super();
    this.e = engine;
    this.t = types;
    this.tracks = {};
  }

  track(id) {
    if (!this.tracks[id]) this.tracks[id] = JSON.parse(fs.readFileSync(path.join(TRACKS, `${id}.json`), 'utf8'));
    return this.tracks[id];
  }

  // ------------------------------------------------------------------ conversions
  index(name) { return Number(name.slice(1)) - 1; }

  player(S, i) {
    const car = S.cars[i];
    const T = this.track(S.track).spaces_per_lap;
    const turn = S.turn && S.turn.car === car.id ? S.turn : null;
    // heat-game moves the played cards and every flipped card to the discard pile as it
    // reveals: once this car's cards are revealed, heatcore's play area (`played`,
    // `flipped`) is part of heat-game's discard pile.
    const revealed = turn && turn.stage !== 'reveal';
    const discard = revealed ? [...car.discard, ...car.played, ...car.flipped] : car.discard;
    return {
      id: car.id, gear: car.gear, hand: car.hand.map(toCard),
      drawPile: [...car.deck].reverse().map(toCard), // heat-game draws with pop()
      discardPile: discard.map(toCard),
      engineZone: Array.from({ length: car.engine }, () => ({ type: 'heat' })),
      position: car.position, lapCount: Math.max(0, Math.floor(car.position / T)),
      speed: turn ? turn.speed : 0, hasBoosted: turn ? turn.boosted : false,
      adrenalineCooldownBonus: turn && turn.adrenaline ? 1 : 0,
      playedCards: revealed ? [] : car.played.map(toCard), previousPosition: turn ? turn.start_position : car.position,
      lapRounds: [],
    };
  }

  readBack(S, i, p) {
    const car = S.cars[i];
    Object.assign(car, {
      gear: p.gear, hand: canonical(p.hand.map(fromCard)),
      deck: [...p.drawPile].reverse().map(fromCard), discard: canonical(p.discardPile.map(fromCard)),
      engine: p.engineZone.filter((c) => c.type === 'heat').length, position: p.position,
      played: canonical(p.playedCards.map(fromCard)),
      flipped: [], // heat-game keeps no flipped card aside: they are in its discard pile
    });
    // heat-game has no spots: every car is reported on the racing line.
    car.racing_line = true;
  }

  game(S, phase, active) {
    const track = this.track(S.track);
    return {
      players: S.cars.map((_, i) => this.player(S, i)), round: S.round, phase,
      activePlayerIndex: active, turnOrder: [active], lapTarget: S.laps, raceStatus: 'racing',
      mode: 'race', totalSpaces: track.spaces_per_lap, startFinishLine: 0, trackId: S.track,
      corners: track.corners.map((c, k) => ({ id: k + 1, speedLimit: c.limit,
        position: (c.after_space + 1) % track.spaces_per_lap })),
    };
  }

  rng() { return () => { throw new NeedShuffle(); }; }

  // ------------------------------------------------------------------ protocol
  load(state) {
    if (state.shuffle !== null) throw new Unsupported('a pending shuffle: heat-game reshuffles by itself inside a flip or draw');
    if ((state.modules || []).length) throw new Unsupported('modules are not supported');
    this.state = clone(state);
  }

  legal() {
    const S = this.state;
    if (!S) throw new Unsupported('no state');
    if (S.phase === 'over') return [];
    if (S.phase === 'plan') return this.legalPlans(S);
    const i = this.index(S.turn.car);
    const name = S.turn.car;
    if (S.turn.stage === 'react') return this.reactChoices(S);
    if (S.turn.stage === 'slipstream') return [`${name} slipstream`, `${name} no slipstream`];
    if (S.turn.stage === 'discard') return this.discards(S, i);
    return [];
  }

  legalPlans(S) {
    const name = S.order[S.cursor];
    const p = this.player(S, this.index(name));
    const out = [];
    for (const { gear } of this.e.getValidGearTargets(p)) {
      const k = this.t.CARDS_PER_GEAR[gear];
      const playable = p.hand.filter((c) => this.isPlayable(c)).map(fromCard);
      if (playable.length >= k) {
        for (const pick of subsets(playable, k)) out.push(`${name} gear ${gear} play ${pick.join(' ')}`);
      } else {
        const heat = p.hand.filter((c) => !this.isPlayable(c)).map(fromCard);
        if (playable.length + heat.length >= k) {
          out.push(`${name} gear ${gear} play ${canonical([...playable, ...heat.slice(0, k - playable.length)]).join(' ')}`);
        }
      }
    }
    return [...new Set(out)];
  }

  isPlayable(card) { return card.type === 'speed' || card.type === 'stress' || (card.type === 'upgrade' && card.subtype !== 'starting-heat'); }

  reactChoices(S) {
    const name = S.turn.car;
    const car = S.cars[this.index(name)];
    const heat = car.hand.filter((c) => c === 'H').length;
    const max = this.t.COOLDOWN_PER_GEAR[car.gear] + (S.turn.adrenaline ? 1 : 0);
    const out = [];
    for (let n = 1; n <= Math.min(max, heat); n++) out.push(`${name} cooldown ${n}`);
    if (!S.turn.boosted && car.engine >= 1) out.push(`${name} boost`);
    out.push(`${name} end react`);
    return out;
  }

  discards(S, i) {
    const name = S.cars[i].id;
    const playable = S.cars[i].hand.filter((c) => this.isPlayable(toCard(c)));
    const out = [`${name} discard nothing`];
    for (let k = 1; k <= playable.length; k++) {
      for (const pick of subsets(playable, k)) out.push(`${name} discard ${pick.join(' ')}`);
    }
    return [...new Set(out)];
  }

  apply(action) {
    if (!this.state) throw new Unsupported('no state');
    const S = clone(this.state);
    try {
      this.step(S, action.trim().split(/\s+/));
    } catch (e) {
      if (e instanceof NeedShuffle) throw new Unsupported('heat-game reshuffles with its own generator inside a flip or draw and cannot stop for a shuffle action');
      if (e instanceof Unsupported || e instanceof Refused) throw e;
      throw new Refused('illegal-action', `heat-game: ${e.message}`);
    }
    this.state = S;
    return { state: S, events: [] };
  }

  step(S, words) {
    const [name, verb, ...rest] = words;
    const i = this.index(name);
    if (S.phase === 'plan') {
      if (verb !== 'gear' || S.order[S.cursor] !== name) throw new Refused('illegal-action', `not ${name}'s plan`);
      this.plan(S, i, Number(rest[0]), rest.slice(2));
      S.cursor += 1;
      if (S.cursor === S.order.length) { S.cursor = 0; this.planningDone(S); this.startTurn(S); }
      return;
    }
    if (S.phase !== 'turn' || S.turn.car !== name) throw new Refused('illegal-action', `not ${name}'s turn`);
    const stage = S.turn.stage;
    if (stage === 'react' && verb === 'cooldown') {
      const p = this.player(S, i);
      const heat = p.hand.map((c, k) => (c.type === 'heat' ? k : -1)).filter((k) => k >= 0).slice(0, Number(rest[0]));
      if (heat.length !== Number(rest[0])) throw new Refused('illegal-action', 'not enough Heat in hand');
      const g = this.game(S, 'react', i);
      const r = this.e.executeCooldown(g, { type: 'cooldown', playerIndex: i, heatIndices: heat });
      this.readBack(S, i, r.players[i]);
      S.turn.cooldown_used = true;
      this.toReact(S);
    } else if (stage === 'react' && verb === 'boost') {
      const r = this.e.executeBoost(this.game(S, 'react', i), { type: 'boost', playerIndex: i }, this.rng());
      this.readBack(S, i, r.players[i]);
      Object.assign(S.turn, { speed: r.players[i].speed, boosted: true });
      this.toReact(S);
    } else if (stage === 'react' && verb === 'end') {
      this.toSlipstream(S);
    } else if (stage === 'slipstream' && (verb === 'slipstream' || verb === 'no')) {
      const r = this.e.executeSlipstream(this.game(S, 'slipstream', i), { type: 'slipstream', playerIndex: i, accept: verb === 'slipstream' });
      this.readBack(S, i, r.players[i]);
      this.toCorners(S);
    } else if (stage === 'discard' && verb === 'discard') {
      const cards = rest[0] === 'nothing' ? [] : rest;
      const indices = pickIndices(S.cars[i].hand, cards);
      const r = this.e.executeDiscardPhase(this.game(S, 'discard', i), [{ playerIndex: i, cardIndices: indices }]);
      this.readBack(S, i, r.players[i]);
      this.toReplenish(S);
    } else {
      throw new Refused('illegal-action', `heat-game has no ${verb} at stage ${stage}`);
    }
  }

  // Simultaneous planning (HOWTO sections 3, 5 and 7): a plan takes nothing into effect
  // until the round's last plan is in. A plan only moves its cards from the hand to
  // `played` (gear, engine and discard pile stay as they were), so the state carries the
  // buffered plan: its gear is the number of cards in `played`, a cluttered play included.
  plan(S, i, gear, cards) {
    const car = S.cars[i];
    this.played(S, this.player(S, i), gear, cards); // heat-game's own checks, on a scratch copy
    const hand = [...car.hand];
    pickIndices(hand, cards).sort((a, b) => b - a).forEach((k) => hand.splice(k, 1));
    Object.assign(car, { hand: canonical(hand), played: canonical(cards) });
  }

  // The car after heat-game's gear-shift and play-cards phases for this plan.
  played(S, p, gear, cards) {
    const shifted = this.e.shiftGear(p, gear);
    if (!shifted.ok) throw new Refused('illegal-action', shifted.reason);
    const cluttered = cards.includes('H');
    const indices = cluttered ? [] : pickIndices(shifted.player.hand.map(fromCard), cards);
    const g = { ...this.game(S, 'play-cards', 0), players: [shifted.player] };
    return this.e.executePlayCardsPhase(g, [{ playerIndex: 0, cardIndices: indices }]).players[0];
  }

  // With the round's last plan every buffered plan takes effect (the one-gear shifts, then
  // each two-gear shift paying its Heat: each car pays from its own engine, so the order
  // changes no state), through heat-game's shiftGear and executePlayCardsPhase.
  planningDone(S) {
    for (const name of S.order) {
      const i = this.index(name);
      const car = S.cars[i];
      const cards = [...car.played];
      const before = { ...car, hand: canonical([...car.hand, ...cards]), played: [] };
      const p = this.player({ ...S, cars: S.cars.map((c, k) => (k === i ? before : c)) }, i);
      this.readBack(S, i, this.played(S, p, cards.length, cards));
    }
  }

  startTurn(S) {
    const name = S.order[S.cursor];
    const i = this.index(name);
    // Who has adrenaline: heat-game's executeAdrenaline, on the positions as they stand.
    const before = this.game(S, 'adrenaline', i);
    const after = this.e.executeAdrenaline({ ...before, turnOrder: S.order.map((n) => this.index(n)) });
    const adrenaline = after.players[i].speed > before.players[i].speed;
    S.phase = 'turn';
    S.turn = { car: name, stage: 'reveal', start_position: S.cars[i].position, speed: 0, to_move: 0,
      flips_left: 0, adrenaline, cooldown_used: false, adrenaline_move_used: false,
      adrenaline_cooldown_used: false, boosted: false };
    const r = this.e.executeRevealAndMove(this.game(S, 'reveal-and-move', i), i, this.rng());
    this.readBack(S, i, r.players[i]);
    S.turn.speed = r.players[i].speed;
    if (adrenaline) { // heat-game applies adrenaline at once: +1 speed and space, +1 cooldown
      const g = { ...this.game(S, 'adrenaline', i), players: [this.player(S, i)], turnOrder: [0] };
      const a = this.e.executeAdrenaline(g);
      this.readBack(S, i, a.players[0]);
      Object.assign(S.turn, { speed: a.players[0].speed, adrenaline_move_used: true });
    }
    this.toReact(S);
  }

  toReact(S) {
    S.turn.stage = 'react';
    if (this.reactChoices(S).length > 1) return;
    this.toSlipstream(S);
  }

  toSlipstream(S) {
    S.turn.stage = 'slipstream';
    const i = this.index(S.turn.car);
    const others = S.cars.filter((_, k) => k !== i).map((c) => c.position);
    const T = this.track(S.track).spaces_per_lap;
    if (this.e.isSlipstreamEligible(S.cars[i].position, others, T, 2)) return;
    this.toCorners(S);
  }

  toCorners(S) {
    const i = this.index(S.turn.car);
    const r = this.e.executeCheckCorner(this.game(S, 'check-corner', i), i);
    this.readBack(S, i, r.players[i]);
    S.turn.stage = 'discard';
    if (S.cars[i].hand.some((c) => this.isPlayable(toCard(c)))) return;
    this.toReplenish(S);
  }

  toReplenish(S) {
    const i = this.index(S.turn.car);
    S.turn.stage = 'replenish';
    this.readBack(S, i, this.e.replenishHand(this.player(S, i), this.rng()));
    S.cursor += 1;
    if (S.cursor < S.order.length) { this.startTurn(S); return; }
    this.endRound(S);
  }

  endRound(S) {
    const g = this.game(S, 'replenish', 0);
    S.turn = null;
    const r = this.e.executeReplenishPhase(g, this.rng());
    r.players.forEach((p, k) => this.readBack(S, k, p));
    S.cursor = 0;
    if (r.phase === 'finished') {
      // heat-game ends the race at the end of the round in which a car finishes.
      const ranked = r.players.map((p, k) => ({ k, p })).sort((a, b) => (b.p.lapCount - a.p.lapCount) || (b.p.position - a.p.position));
      Object.assign(S, { phase: 'over', order: [], ranking: ranked.map(({ k }) => S.cars[k].id) });
      return;
    }
    Object.assign(S, { phase: 'plan', round: S.round + 1, order: r.turnOrder.map((k) => S.cars[k].id) });
  }
}

function subsets(cards, k) {
  const out = new Set();
  const walk = (start, chosen) => {
    if (chosen.length === k) { out.add(canonical(chosen).join(' ')); return; }
    for (let i = start; i < cards.length; i++) walk(i + 1, [...chosen, cards[i]]);
  };
  walk(0, []);
  return [...out].map((s) => s.split(' '));
}

function pickIndices(hand, cards) {
  const used = new Set();
  return cards.map((c) => {
    const k = hand.findIndex((h, j) => h === c && !used.has(j));
    if (k < 0) throw new Refused('illegal-action', `card ${c} is not in hand`);
    used.add(k);
    return k;
  });
}

Object.assign(HELLO, {
  implementation: { name: 'heat-game (johntylernyc/heat-game)', version: 'b5ad70a' },
  compare: ['state', 'legal'],
  rulings: ['ruling.simultaneous-planning'],
  tracks: ['france', 'great-britain', 'italia', 'usa'],
});

if (require.main === module) {
  const load = (name) => import(path.join(ENGINE, name));
  Promise.all(['engine.js', 'gear.js', 'deck.js', 'types.js'].map(load))
    .then(([engine, gear, deck, types]) => main(new HeatGame({ ...engine, ...gear, ...deck }, types)))
    .catch((e) => { process.stderr.write(`cannot load heat-game from ${ENGINE}: ${e.message}\n`); process.exit(3); });
}

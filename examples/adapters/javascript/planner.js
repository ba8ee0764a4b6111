#!/usr/bin/env node
// Worked example of the JavaScript template: the Python worked example (planner.py) in Node.
// It builds start states from setups and lists the legal plans of the plan phase, written
// from spec/schemas/HOWTO.md, the track schema and spec/rules/ alone, and declines the rest.
//
// Run it:  heatcore conform --impl "node examples/adapters/javascript/planner.js"
'use strict';

const fs = require('fs');
const path = require('path');
const { Adapter, HELLO, Unsupported, main } = require('./template');

const TRACKS = process.env.HEATCORE_TRACKS || path.join(__dirname, '..', '..', '..', 'spec', 'tracks');
const CARD_ORDER = ['1', '2', '3', '4', 'U0', 'U5', 'S', 'H'];
const BOX_STRESS = 37; // ruling.stress-supply
const HAND = 7; // setup.hand

Object.assign(HELLO, {
  implementation: { name: 'planner.js (worked example)', version: '1' },
  compare: ['state', 'legal'],
  rulings: ['ruling.cluttered-gear', 'ruling.stress-supply', 'ruling.simultaneous-planning'],
  tracks: fs.readdirSync(TRACKS).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5)).sort(),
});

const canonical = (cards) => [...cards].sort((a, b) => CARD_ORDER.indexOf(a) - CARD_ORDER.indexOf(b));

function racingSpot(track, space) {
  let lane = track.racing_lane_start;
  for (const corner of track.corners) {
    if (space <= corner.after_space) return lane;
    lane = corner.racing_lane_after;
  }
  return lane;
}

/** Every distinct multiset of k cards from `cards`, canonical. */
function picks(cards, k) {
  const out = new Set();
  const walk = (start, chosen) => {
    if (chosen.length === k) { out.add(canonical(chosen).join(' ')); return; }
    for (let i = start; i < cards.length; i++) walk(i + 1, [...chosen, cards[i]]);
  };
  walk(0, []);
  return [...out];
}

class Planner extends Adapter {
  setup(setup) {
    const track = JSON.parse(fs.readFileSync(path.join(TRACKS, `${setup.track}.json`), 'utf8'));
    const cars = [];
    for (let i = 0; i < setup.players; i++) {
      const name = `P${i + 1}`;
      const [space, spot] = track.grid[setup.grid.indexOf(name)];
      const deck = setup.decks[i];
      cars.push({ id: name, position: space - track.spaces_per_lap,
        racing_line: spot === racingSpot(track, space), gear: 1, engine: track.heat,
        hand: canonical(deck.slice(0, HAND)), deck: deck.slice(HAND), discard: [], played: [], flipped: [] });
    }
    const standing = [...cars].sort((a, b) => (b.position - a.position) || (b.racing_line - a.racing_line));
    this.state = { format: 'heatcore.state/1', track: setup.track, laps: setup.laps,
      modules: setup.modules || [], round: 1, phase: 'plan', order: standing.map((c) => c.id),
      cursor: 0, supply: BOX_STRESS - setup.players * track.stress, shuffle: null, ranking: [],
      turn: null, cars };
    return this.state;
  }

  load(state) {
    if (state.phase !== 'plan' || state.shuffle !== null) throw new Unsupported('only plan-phase states are implemented');
    this.state = state;
  }

  legal() {
    if (!this.state) throw new Unsupported('no state');
    const name = this.state.order[this.state.cursor];
    const car = this.state.cars.find((c) => c.id === name);
    const free = [car.gear - 1, car.gear, car.gear + 1].filter((g) => g >= 1 && g <= 4);
    const paid = [car.gear - 2, car.gear + 2].filter((g) => g >= 1 && g <= 4 && car.engine >= 1);
    const playable = car.hand.filter((c) => c !== 'H');
    if (playable.length < Math.min(...free, ...paid)) { // cluttered: any gear it may reach,
      const heat = car.hand.filter((c) => c === 'H'); // the paid shift too (ruling.cluttered-gear)
      return [...free, ...paid].sort().filter((g) => playable.length + heat.length >= g)
        .map((g) => `${name} gear ${g} play ${canonical([...playable, ...heat.slice(0, g - playable.length)]).join(' ')}`);
    }
    return [...free, ...paid].sort().flatMap((g) => picks(playable, g).map((p) => `${name} gear ${g} play ${p}`));
  }

  apply() { throw new Unsupported('apply is not implemented (this example only lists plans)'); }
}

if (require.main === module) main(new Planner());

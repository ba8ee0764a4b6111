#!/usr/bin/env node
// A conformance adapter for `heatcore conform`, to copy and fill in (Node 18 or later).
//
// It speaks the JSON-lines protocol conform/2 on stdin/stdout (spec/schemas/HOWTO.md,
// sections 1 and 2) and hands each request to your engine through the four methods marked
// FILL IN. Anything left unimplemented answers `unsupported`, which the harness counts as a
// skip with the reason you give, so you can start with one method and add the others.
//
// Run it:  heatcore conform --impl "node template.js" --report out/
'use strict';

const readline = require('readline');

/** Throw this (with a reason) for a request your engine does not handle. */
class Unsupported extends Error {}

/** Throw this when your engine refuses an action or a state (HOWTO section 1). */
class Refused extends Error {
  constructor(kind, message, rule) {
    super(message);
    this.kind = kind; // illegal-action, invalid-state or malformed
    this.rule = rule; // a heatcore rule ID, or undefined
  }
}

/** The `start` reply (HOWTO section 2). Declare only what your engine really does. */
const HELLO = {
  ok: true,
  protocol: 'conform/2',
  implementation: { name: 'my-engine', version: '0.1' },
  ruleset: 'heat',
  compare: ['state', 'legal', 'events'], // drop 'events' if your engine has no events
  rulings: [], // rulings decided as heatcore does; {"ruling.id": "alt"} for others
  tracks: ['usa'],
  modules: [],
  rule_ids: false,
};

/** Holds the current state; converts between heatcore's JSON (HOWTO sections 3-5) and your
 * engine's own structures. */
class Adapter {
  constructor() {
    this.state = null; // your engine's current state
  }

  // ---------------------------------------------------------------------- FILL IN
  /** Build the start state from a setup (grid order and every deck given: do not shuffle,
   * HOWTO section 6), make it current, return it as heatcore JSON. */
  setup(setup) { throw new Unsupported('setup is not implemented'); }

  /** Make a heatcore state (heat-state.schema.json) current: any state of a race. If your
   * engine plays phase by phase and cannot hold some states, throw Unsupported for them
   * (HOWTO section 7). */
  load(state) { throw new Unsupported('load is not implemented'); }

  /** Every legal action (canonical strings, HOWTO section 4); [] at a chance point. */
  legal() { throw new Unsupported('legal is not implemented'); }

  /** Apply an action; return {state, events}. Run every step that needs no choice, skip
   * every step whose only choice is to pass (HOWTO section 3). A `shuffle` action gives the
   * deck order: use it instead of your engine's random generator (HOWTO section 6). Throw
   * Refused if the action is not legal; the current state must not change then. */
  apply(action) { throw new Unsupported('apply is not implemented'); }

  // ---------------------------------------------------------------------- protocol
  handle(request) {
    const op = request && request.op;
    try {
      switch (op) {
        case 'start':
          if (request.ruleset !== HELLO.ruleset) throw new Unsupported(`this engine plays ${HELLO.ruleset}`);
          return HELLO;
        case 'stop': return { ok: true };
        case 'setup': return { ok: true, state: this.setup(request.setup) };
        case 'load': this.load(request.state); return { ok: true };
        case 'legal': return { ok: true, actions: this.legal() };
        case 'apply': {
          const { state, events } = this.apply(request.action);
          const reply = { ok: true, state };
          if (HELLO.compare.includes('events')) reply.events = events;
          return reply;
        }
        default: return error('protocol', `unknown op ${JSON.stringify(op)}`);
      }
    } catch (e) {
      if (e instanceof Unsupported) return error('unsupported', e.message);
      if (e instanceof Refused) return error(e.kind, e.message, e.rule);
      throw e; // a bug in the adapter: crash loudly, the harness shows stderr
    }
  }
}

function error(kind, message, rule) {
  const err = { kind, message };
  if (rule) err.rule = rule;
  return { ok: false, error: err };
}

/** Answer requests line by line until `stop` or end of input. Logs go to stderr. */
function main(adapter) {
  const lines = readline.createInterface({ input: process.stdin, terminal: false });
  lines.on('line', (line) => {
    if (!line.trim()) return;
    let request;
    let reply;
    try {
      request = JSON.parse(line);
      reply = adapter.handle(request);
    } catch (e) {
      if (!(e instanceof SyntaxError)) throw e;
      reply = error('malformed', `not JSON: ${e.message}`);
    }
    process.stdout.write(JSON.stringify(reply) + '\n');
    if (request && request.op === 'stop') { lines.close(); }
  });
}

module.exports = { Adapter, HELLO, Unsupported, Refused, main };

if (require.main === module) main(new Adapter());

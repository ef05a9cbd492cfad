const fs = require('node:fs');
const Sequencer = require('@jest/test-sequencer').default;

/** What starts a PostgreSQL, a Temporal or a whole stack of the test file's own: each start costs seconds. */
const OWN_START = /\b(startStack|spawnStack|startEmbeddedPostgres|startTemporalDevServer)\(/g;
/** The chaos scenarios start a stack of their own for every test. */
const CHAOS = /bench\/chaos\//;
const TEST = /\bit(\.each)?\(/g;

/**
 * Longest first, so that the workers end together. Jest orders by the durations of the last run, which a
 * fresh clone (CI) has not got; it then orders by file size alone, which starts a small file that starts
 * stacks of its own (the chaos scenarios: minutes) last. A file without a recorded duration is estimated
 * here: its size, and 20 s for every stack or server it starts.
 */
class LongestFirst extends Sequencer {
  time(test) {
    const recorded = super.time(test);
    if (recorded !== undefined) return recorded;
    const source = fs.readFileSync(test.path, 'utf8');
    const starts = CHAOS.test(source) ? (source.match(TEST) ?? []).length : (source.match(OWN_START) ?? []).length;
    return source.length + 20_000 * starts;
  }
}

module.exports = LongestFirst;

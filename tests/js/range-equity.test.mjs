// The browser range equity engine agrees with kernels/range_equity/ on the committed goldens of
// spec/range-equity.json (spec/engines/range_equity.py), with the evaluator tables of spec/evaluator-tables.bin.gz
// and the class table of spec/matchups.bin.gz.
import { test } from "node:test";
import assert from "node:assert/strict";

import { parseTables } from "../../templates/assets/js/engines/evaluator.js";
import { parseMatchupTable } from "../../templates/assets/js/engines/matchup-table.js";
import {
  EXACT_LIMIT, NoDealError, Z_975, boardWork, enumerateCounts, enumerationMethod, enumerationWork, enumerateEquity, equityFromCounts, liveWeights, mergeCounts,
  mergeSamples, monteCarloResult, planEquity, rangeEquity, sampleEquity, classTableDocument, classTableFile,
} from "../../templates/assets/js/engines/range-equity.js";
import { patternWork } from "../../templates/assets/js/engines/range-patterns.js";
import { parseRange } from "../../templates/assets/js/engines/ranges.js";

import { golden, table } from "./golden.mjs";

const fixture = golden("range-equity");
const tables = parseTables(table("evaluator-tables.bin.gz"));
const matchups = parseMatchupTable(table("matchups.bin.gz"));

/** The multiway case's table (multiway.json's shape): by_players[n] holds only the hero class's row, every other
 *  class has no estimate (null), as spec/engines/range_equity.py's multiway_block. */
function multiwayTable({ players, hero_class: heroClass, row }) {
  const block = Object.fromEntries(Object.entries(row).map(([field, value]) => {
    const column = new Array(169).fill(null);
    column[heroClass] = value;
    return [field, column];
  }));
  return { by_players: { [players]: block } };
}
const weightsOf = (ranges) => ranges.map((r) => parseRange(r).weights);
/** Both exact methods where each is quick (work ≤ 2e7, a fraction of a second), else the one the spot chooses. */
const methodsOf = (live, board, dead) => (Math.max(boardWork(live, board, dead), patternWork(live, board, dead)) <= 2e7
  ? ["boards", "patterns"] : [enumerationMethod(live, board, dead)]);

for (const spot of fixture.exact) {
  test(`exact ${spot.ranges.join(" vs ")} on [${spot.board}] dead [${spot.dead}]: Python's fractions`, (t) => {
    const live = liveWeights(weightsOf(spot.ranges), spot.board, spot.dead);
    assert.equal(enumerationMethod(live, spot.board, spot.dead), spot.method, "the method Python chooses");
    for (const method of methodsOf(live, spot.board, spot.dead)) { // to the last bit (dyadic weights)
      const started = performance.now();
      const result = equityFromCounts(enumerateCounts(tables, live, spot.board, spot.dead, { method }));
      t.diagnostic(`${method}: ${(performance.now() - started).toFixed(0)} ms`);
      assert.deepEqual(Array.from(result.win), spot.win, method);
      assert.deepEqual(result.ties.map((row) => Array.from(row)), spot.ties, method);
      assert.equal(result.boards, spot.boards);
      result.equity.forEach((e, p) => assert.ok(Math.abs(e - spot.equity[p]) <= 1e-15, `${method}: ${e} vs ${spot.equity[p]}`));
    }
  });
}

test("the calculator's first example, AsKs vs QQ+,AKo preflop, is Python's exactly, from deal orbits (5 of 18 deals)", () => {
  const spot = fixture.default_spot;
  const live = liveWeights(weightsOf(spot.ranges), spot.board, spot.dead);
  assert.equal(enumerationMethod(live, spot.board, spot.dead), "patterns");
  const result = enumerateEquity(tables, live, spot.board, spot.dead);
  assert.deepEqual(Array.from(result.win), spot.win);
  assert.deepEqual(result.ties.map((row) => Array.from(row)), spot.ties);
});

test("the work estimate is Python's, and Python's limit is at least the browser's: the CLI is exact wherever the page is", () => {
  assert.ok(EXACT_LIMIT <= fixture.python_exact_limit, `${EXACT_LIMIT} vs ${fixture.python_exact_limit}`);
  for (const spot of fixture.exact) {
    const live = liveWeights(weightsOf(spot.ranges), spot.board, spot.dead);
    assert.equal(enumerationWork(live, spot.board, spot.dead), spot.work, spot.ranges.join(" vs "));
  }
  const exactInBrowser = fixture.exact.filter((spot) => spot.work <= EXACT_LIMIT).map((spot) => spot.ranges.join(" vs "));
  assert.ok(exactInBrowser.includes("AhAd vs random vs random"), "AhAd random random on a flop: enumerated in both");
  const first = fixture.default_spot; // the calculator's own example is exact, not a sample (issue #24)
  const live = liveWeights(weightsOf(first.ranges), first.board, first.dead);
  assert.equal(enumerationWork(live, first.board, first.dead), first.work);
  assert.equal(planEquity(weightsOf(first.ranges), first.board, first.dead).method, "enumeration");
  assert.equal(planEquity(weightsOf(first.ranges), first.board, first.dead, { exactLimit: first.work - 1 }).method, "monte carlo");
});

test("enumeration split into parts (several workers) adds up to exactly the single run's counts, by either method", () => {
  for (const spot of fixture.exact) {
    const live = liveWeights(weightsOf(spot.ranges), spot.board, spot.dead);
    for (const method of methodsOf(live, spot.board, spot.dead)) {
      const whole = enumerateCounts(tables, live, spot.board, spot.dead, { method });
      const parts = [0, 1, 2].map((part) => enumerateCounts(tables, live, spot.board, spot.dead, { part, parts: 3, method }));
      assert.deepEqual(mergeCounts(parts), whole);
      assert.equal(whole.unit, method === "boards" ? "boards" : "deals");
      assert.deepEqual(Array.from(equityFromCounts(mergeCounts(parts)).win), spot.win);
    }
  }
});

test("a class against random hands preflop comes from the multiway table, as Python reads it", () => {
  const spot = fixture.multiway;
  const result = rangeEquity(tables, weightsOf(spot.ranges), [], [], { multiway: multiwayTable(spot) });
  assert.equal(result.method, "table");
  assert.equal(result.exact, false);
  assert.equal(result.samples, spot.samples);
  result.equity.forEach((e, p) => assert.ok(Math.abs(e - spot.equity[p]) <= 1e-15, `${e} vs ${spot.equity[p]}`));
  result.seEquity.forEach((se, p) => assert.ok(Math.abs(se - spot.se_equity[p]) <= 1e-15));
  assert.deepEqual(result.win, spot.win);
  const sampled = rangeEquity(tables, weightsOf(spot.ranges), [], [], { targetSe: 5e-2 });
  assert.equal(sampled.method, "monte carlo", "without the table the spot is sampled");
});

test("a class against two random hands comes from the exact three-handed counts, as Python reads them", () => {
  const spot = fixture.three_handed;
  const result = rangeEquity(tables, weightsOf(spot.ranges), [], [], { multiway: classTableDocument(3, spot.counts) });
  assert.equal(result.method, "table");
  assert.equal(result.exact, true);
  assert.equal(result.seEquity, null);
  assert.equal(result.samples, spot.samples);
  assert.equal(result.boards, spot.boards);
  result.equity.forEach((e, p) => assert.ok(Math.abs(e - spot.equity[p]) <= 1e-15, `${e} vs ${spot.equity[p]}`));
  assert.deepEqual(result.win, spot.win);
  result.ties.forEach((row, p) => assert.deepEqual(row, spot.ties[p].every((t) => t === null) ? null : spot.ties[p]));
  assert.equal(classTableFile(3), "threehanded.json");
  assert.equal(classTableFile(4), "multiway.json");
  assert.equal(classTableFile(4, [2, 3, 4]), "fourhanded.json");
  assert.equal(classTableFile(5, [2, 3, 4]), "multiway.json");
});

test("a class against three random hands comes from the exact four-handed counts where the build has them", () => {
  const spot = fixture.four_handed;
  const result = rangeEquity(tables, weightsOf(spot.ranges), [], [], { multiway: classTableDocument(4, spot.counts, [2, 3, 4]) });
  assert.equal(result.method, "table");
  assert.equal(result.exact, true);
  assert.equal(result.samples, spot.samples);
  result.equity.forEach((e, p) => assert.ok(Math.abs(e - spot.equity[p]) <= 1e-15, `${e} vs ${spot.equity[p]}`));
  assert.deepEqual(result.win, spot.win);
  result.ties.forEach((row, p) => assert.deepEqual(row, spot.ties[p].every((t) => t === null) ? null : spot.ties[p]));
});

test("heads-up preflop class ranges come from the table, equal to Python's", () => {
  const result = rangeEquity(tables, weightsOf(fixture.table.ranges), [], [], { matchups });
  assert.equal(result.method, "table");
  result.equity.forEach((e, p) => assert.ok(Math.abs(e - fixture.table.equity[p]) <= 1e-15));
  assert.ok(Math.abs(result.ties[0][0] - fixture.table.ties[0][0]) <= 1e-15);
});

for (const spot of fixture.sampled) {
  test(`Monte Carlo ${spot.ranges.join(" vs ")} on [${spot.board}] within 5σ of Python's exact answer`, (t) => {
    const live = liveWeights(weightsOf(spot.ranges), spot.board, spot.dead);
    const started = performance.now();
    const result = sampleEquity(tables, live, spot.board, spot.dead, { targetSe: 2e-3, seed: 7 });
    t.diagnostic(`${result.samples} deals in ${(performance.now() - started).toFixed(0)} ms`);
    assert.equal(result.exact, false);
    result.equity.forEach((e, p) => assert.ok(Math.abs(e - spot.equity[p]) < 5 * result.seEquity[p], `player ${p}: ${e} vs ${spot.equity[p]} (se ${result.seEquity[p]})`));
    assert.ok(result.seEquity.every((se) => se <= 2e-3));
  });
}

test("an empty range names its player; ranges that block each other are refused", () => {
  assert.throws(() => liveWeights(weightsOf(["AsKs", "AA"]), [50, 49, 48], []), (e) => e instanceof NoDealError && e.player === 1);
  // the cards that emptied the range, with who holds them, as live_weights in Python says
  assert.throws(() => liveWeights(weightsOf(["AsKs", "AA"]), [48, 49, 50], []), (e) => e.player === 1 &&
    e.message === "player 2's range is empty after card removal: Ac (board), Ad (board), Ah (board), As (player 1)" &&
    JSON.stringify(e.blockers) === JSON.stringify([[48, "board"], [49, "board"], [50, "board"], [51, 0]]));
  assert.throws(() => liveWeights(weightsOf(["KK", "AsKs"]), [0, 1, 10], [47]),
    (e) => e.message === "player 2's range is empty after card removal: Ks (dead)");
  const blocked = weightsOf(["AsAh,AcAd", "AsAc,AhAd", "AsAd,AhAc"]);
  assert.throws(() => rangeEquity(tables, blocked, [0, 4, 9], []), NoDealError);
});

test("Monte Carlo 95% intervals cover the exact equity as often as they should (fixed seeds)", () => {
  // R independent runs of 2,000 deals: the count of intervals missing the exact equity of player 1 is
  // Binomial(R, 0.05) for a correct sampler and se; accept 50 ± 4 binomial sd (R = 1,000: 23..77 misses), which
  // 90% or 99% intervals (about 100 or 10 misses) would fail (how-the-equity-calculator-works.md).
  const spot = fixture.sampled[0];
  const live = liveWeights(weightsOf(spot.ranges), spot.board, spot.dead);
  const runs = 1000;
  let missed = 0;
  const merged = [];
  for (let seed = 1; seed <= runs; seed++) {
    const result = sampleEquity(tables, live, spot.board, spot.dead, { targetSe: 0, maxSamples: 2000, batch: 2000, seed: 100 + seed });
    missed += Math.abs(result.equity[0] - spot.equity[0]) > Z_975 * result.seEquity[0];
    merged.push(result.counts);
  }
  const expected = 0.05 * runs, spread = Math.sqrt(runs * 0.05 * 0.95);
  assert.ok(Math.abs(missed - expected) <= 4 * spread, `${missed} of ${runs} intervals missed`);
  const all = monteCarloResult(mergeSamples(merged));
  assert.equal(all.samples, 2000 * runs);
  all.equity.forEach((e, p) => assert.ok(Math.abs(e - spot.equity[p]) < 5 * all.seEquity[p], `merged runs, player ${p}`));
});

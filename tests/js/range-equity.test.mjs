// The browser range equity engine agrees with kernels/range_equity.py (fixtures by make_range_equity_fixtures.py).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

import { parseTables } from "../../templates/assets/js/evaluator.js";
import { NoDealError, enumerateEquity, liveWeights, rangeEquity, sampleEquity } from "../../templates/assets/js/range-equity.js";
import { parseRange } from "../../templates/assets/js/ranges.js";

const fixture = JSON.parse(readFileSync(new URL("./fixtures/range-equity.json", import.meta.url), "utf8"));
const file = readFileSync(new URL("./fixtures/evaluator-tables.bin", import.meta.url));
const tables = parseTables(file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength));
const weightsOf = (ranges) => ranges.map((r) => parseRange(r).weights);

for (const spot of fixture.exact) {
  test(`exact ${spot.ranges.join(" vs ")} on [${spot.board}] dead [${spot.dead}]: Python's fractions`, (t) => {
    const started = performance.now();
    const result = enumerateEquity(tables, liveWeights(weightsOf(spot.ranges), spot.board, spot.dead), spot.board, spot.dead);
    t.diagnostic(`${(performance.now() - started).toFixed(0)} ms`);
    assert.deepEqual(Array.from(result.win), spot.win);
    assert.deepEqual(result.ties.map((row) => Array.from(row)), spot.ties);
    assert.equal(result.boards, spot.boards);
    result.equity.forEach((e, p) => assert.ok(Math.abs(e - spot.equity[p]) <= 1e-15, `${e} vs ${spot.equity[p]}`));
  });
}

test("heads-up preflop class ranges come from the table, equal to Python's", () => {
  const result = rangeEquity(tables, weightsOf(fixture.table.ranges), [], [], { matchups: fixture.matchups });
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
  const blocked = weightsOf(["AsAh,AcAd", "AsAc,AhAd", "AsAd,AhAc"]);
  assert.throws(() => rangeEquity(tables, blocked, [0, 4, 9], []), NoDealError);
});

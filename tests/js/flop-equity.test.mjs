// The browser's flop equity engine agrees with kernels/flop/equity.py on the committed goldens of spec/flop-equity.json
// (spec/engines/flop_equity.py), with the evaluator tables of spec/evaluator-tables.bin.gz: the distributions and the
// every-flop reports exactly (dyadic weights: every sum is exact in both languages), the suit-distinct flops and the
// board classes they walk.
import { test } from "node:test";
import assert from "node:assert/strict";

import { parseTables } from "../../templates/assets/js/engines/evaluator.js";
import { boardClasses, N_BOARD_CLASSES } from "../../templates/assets/js/engines/flop-boards.js";
import {
  NotSuitSymmetricError, QUANTILES, THRESHOLDS, comboEquities, equityDistribution, everyFlopCounts, flopGroup, flopReport, flopWalk,
  mergeFlopCounts,
} from "../../templates/assets/js/engines/flop-equity.js";
import { N_FLOPS, orbitOf, suitDistinctFlops, texture } from "../../templates/assets/js/engines/flops.js";
import { parseRange } from "../../templates/assets/js/engines/ranges.js";

import { golden, table } from "./golden.mjs";

const fixture = golden("flop-equity");
const tables = parseTables(table("evaluator-tables.bin.gz"));
const weights = (text) => parseRange(text).weights;

test("the quantiles and thresholds are Python's", () => {
  assert.deepEqual(QUANTILES, fixture.quantiles);
  assert.deepEqual(THRESHOLDS, fixture.thresholds);
});

for (const spot of fixture.distributions) {
  test(`distribution ${spot.ranges.join(" vs ")} on [${spot.board}] dead [${spot.dead}]`, () => {
    const [a, b] = spot.ranges.map(weights);
    if (spot.error) {
      assert.throws(() => comboEquities(tables, a, b, spot.board, spot.dead), { message: spot.error });
      return;
    }
    const ce = comboEquities(tables, a, b, spot.board, spot.dead);
    for (const key of ["combos", "win", "tie", "total", "equity", "weight"]) assert.deepEqual(Array.from(ce[key]), spot[key], key);
    assert.equal(ce.boards, spot.boards);
    const d = equityDistribution(ce);
    assert.deepEqual(Array.from(d.combos), spot.curve);
    assert.deepEqual(Array.from(d.cumulative), spot.cumulative);
    assert.deepEqual(d.quantiles, spot.quantiles);
    assert.deepEqual(d.above, spot.above);
    assert.equal(d.overall, spot.overall);
  });
}

for (const spot of fixture.reports) {
  test(`every-flop report ${spot.ranges.join(" vs ")}: Python's sums, flops and equity, whole or in two parts`, () => {
    const [a, b] = spot.ranges.map(weights);
    const whole = everyFlopCounts(tables, a, b);
    const parts = mergeFlopCounts([0, 1].map((part) => everyFlopCounts(tables, a, b, { part, parts: 2 })));
    assert.equal(whole.visited, N_BOARD_CLASSES);
    assert.equal(parts.visited, N_BOARD_CLASSES);
    for (const counts of [whole, parts]) {
      const report = flopReport(counts);
      const sum = (key) => counts[key].reduce((s, x) => s + x, 0);
      assert.deepEqual(["win", "tie", "total"].map(sum), spot.sums);
      assert.equal(report.overall, spot.overall);
      const withDeal = report.flops.filter((row) => row.equity !== null);
      assert.equal(withDeal.length, spot.flops_with_a_deal);
      const weighted = withDeal.reduce((s, row) => s + (1 + (row.index % 7)) * row.equity, 0);
      assert.ok(Math.abs(weighted - spot.weighted_equity) <= 1e-12 * spot.weighted_equity, `${weighted} vs ${spot.weighted_equity}`);
      for (const [name, equity, share] of spot.groups) {
        const key = ["rainbow", "two-tone", "monotone"].includes(name) ? "suits" : "pairing";
        assert.deepEqual(flopGroup(counts, (f) => report.flops[f].texture[key] === name), { equity, share }, name);
      }
      for (const row of spot.rows) {
        const mine = report.flops[row.index];
        assert.deepEqual({ ...mine, win: counts.win[row.index], tie: counts.tie[row.index], total: counts.total[row.index] },
          { ...row, cards: row.cards, texture: row.texture }, `flop ${row.index}`);
      }
    }
  });
}

test("a range that is not suit-symmetric is refused with Python's message", () => {
  const { ranges, error } = fixture.not_symmetric;
  assert.throws(() => flopWalk(tables, ...ranges.map(weights)), (e) => e instanceof NotSuitSymmetricError && e.message === error);
});

test("the suit-distinct flops are Python's: representatives, weights, textures, orbits", () => {
  const { flops, weights: flopWeights } = suitDistinctFlops();
  assert.equal(flops.length, 1755);
  assert.equal(flopWeights.reduce((s, w) => s + w, 0), N_FLOPS);
  for (const row of fixture.flops) {
    assert.deepEqual(flops[row.index], row.cards);
    assert.equal(flopWeights[row.index], row.weight);
    assert.deepEqual(texture(row.cards), row.texture);
    assert.equal(orbitOf([...row.cards].reverse()), row.index);
  }
});

test("the board classes are Python's: representatives, sizes and flops", () => {
  const { boards, sizes, flops } = boardClasses();
  assert.equal(sizes.reduce((s, x) => s + x, 0), 2598960);
  for (const row of fixture.boards) {
    assert.deepEqual(Array.from(boards.subarray(5 * row.index, 5 * row.index + 5)), row.cards);
    assert.equal(sizes[row.index], row.size);
    assert.deepEqual(Array.from(flops.subarray(10 * row.index, 10 * row.index + 10)), row.flops);
  }
});

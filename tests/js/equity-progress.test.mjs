// Live figures of a run in progress: the running counts the engine reports (enumerateCounts,
// sampleEquity), their merge across the pool's workers (combinedProgress) and the figures shown from
// them (progressResult), on the site's evaluator tables (spec/evaluator-tables.bin.gz).
import { test } from "node:test";
import assert from "node:assert/strict";

import { combinedProgress } from "../../templates/assets/js/workers/equity-pool.js";
import { parseTables } from "../../templates/assets/js/engines/evaluator.js";
import {
  enumerateCounts, enumerateEquity, liveWeights, mergeSamples, monteCarloResult, progressResult, sampleEquity,
} from "../../templates/assets/js/engines/range-equity.js";
import { parseCards, parseRange } from "../../templates/assets/js/engines/ranges.js";
import { table } from "./golden.mjs";

const tables = parseTables(table("evaluator-tables.bin.gz"));

/** Live weights, board and dead card ids of a spot. */
function spotOf(ranges, boardText, deadText = "") {
  const board = parseCards(boardText, "Board"), dead = parseCards(deadText, "Dead cards");
  return { live: liveWeights(ranges.map((r) => parseRange(r).weights), board, dead), board, dead };
}

/** Every progress report of one enumeration by ``method`` (part of parts) as the worker would post it, and the final counts. */
function enumerationReports({ live, board, dead }, method, part = 0, parts = 1) {
  const reports = [];
  const onProgress = (done, total, c) => reports.push({ done, total, counts: c });
  const counts = enumerateCounts(tables, live, board, dead, { part, parts, onProgress, method });
  return { reports, counts };
}

const plain = (counts) => ({ win: Array.from(counts.win), ties: counts.ties.map((row) => Array.from(row)), total: counts.total });

const PROGRESS_SPOTS = [[["AsKs", "QQ+,AKo"], "Kh8d3c", ""], [["QQ+,AK", "JJ-99,0.5(AQs)", "T9s"], "Kh8d3c", "2s"]];
for (const [[ranges, board, dead], method] of PROGRESS_SPOTS.flatMap((spot) => [[spot, "boards"], [spot, "patterns"]])) {
  test(`partial enumeration counts of two workers add up to one worker's at every step: ${ranges.join(" vs ")} by ${method}`, () => {
    const spot = spotOf(ranges, board, dead);
    const one = enumerationReports(spot, method);
    const parts = [0, 1].map((part) => enumerationReports(spot, method, part, 2));
    // boards: one report after each first card of the two to come; deals: one every 64 orbits and at the end
    const reports = method === "boards" ? 52 - 3 - (dead ? 1 : 0) - 1 : Math.ceil(one.reports.at(-1).total / 64);
    assert.equal(one.reports.length, reports);
    assert.ok(one.reports.length > (method === "boards" ? 10 : 0));
    assert.equal(one.counts.unit, method === "boards" ? "boards" : "deals");
    one.reports.forEach((report, k) => {
      const merged = combinedProgress(parts.map((p) => p.reports[k]));
      assert.deepEqual(plain(merged.counts), plain(report.counts), `step ${k}`);
      assert.equal(merged.done, report.counts.visited);
      assert.equal(report.counts.visited, report.done); // one worker counts every board it walks
      assert.equal(merged.total, report.total);
      if (k > 0) assert.ok(report.counts.visited > one.reports[k - 1].counts.visited && report.counts.total >= one.reports[k - 1].counts.total);
    });
    // the last report holds every board: the exact counts, and their figures are the final result's
    const last = one.reports.at(-1);
    assert.deepEqual(plain(last.counts), plain(one.counts));
    assert.equal(last.counts.visited, method === "boards" ? one.counts.boards : last.total);
    const exact = enumerateEquity(tables, spot.live, spot.board, spot.dead);
    assert.deepEqual(progressResult(last).equity, exact.equity);
  });
}

test("partial enumeration figures are marked partial, n of N boards (or deals), and add up to one", () => {
  for (const [method, unit] of [["boards", "boards"], ["patterns", "deals"]]) {
    const { reports } = enumerationReports(spotOf(["QQ+,AK", "JJ-99,0.5(AQs)", "T9s"], "Kh8d3c", "2s"), method);
    const middle = reports[Math.floor(reports.length / 2)];
    const shown = progressResult(middle);
    assert.equal(shown.partial, true);
    assert.equal(shown.exact, false);
    assert.equal(shown.seEquity, null);
    assert.equal(shown.method, "enumeration");
    assert.equal(shown.unit, unit);
    assert.equal(shown[unit], middle.counts.visited);
    assert.equal(shown.of, middle.total);
    assert.ok(shown[unit] > 0 && shown[unit] < shown.of);
    assert.ok(Math.abs(shown.equity.reduce((a, b) => a + b, 0) - 1) < 1e-12);
  }
  assert.equal(progressResult({ done: 0, total: 1081, counts: { win: [0, 0], ties: [[0], [0]], total: 0, visited: 0 } }), null);
});

test("Monte Carlo running counts of two workers merge into the figures of their integer sums, within 5σ of exact", () => {
  const spot = spotOf(["QQ+,AK", "JJ-99,0.5(AQs)", "T9s"], "Kh8d3c", "2s");
  const runs = [1, 2].map((seed) => {
    const reports = [];
    const result = sampleEquity(tables, spot.live, spot.board, spot.dead, {
      seed, batch: 5000, maxSamples: 20000, targetSe: 0,
      onProgress: (samples, se, counts) => { reports.push({ samples, se: Math.max(...se), counts }); return false; },
    });
    return { reports, result };
  });
  runs.forEach(({ reports }) => {
    assert.deepEqual(reports.map((r) => r.samples), [5000, 10000, 15000, 20000]);
    reports.forEach((r) => assert.equal(r.counts.samples, r.samples)); // a copy per report, not the running arrays
  });
  const exact = enumerateEquity(tables, spot.live, spot.board, spot.dead);
  for (let k = 0; k < 4; k++) {
    const merged = combinedProgress(runs.map((run) => run.reports[k]));
    const expected = mergeSamples(runs.map((run) => run.reports[k].counts));
    assert.deepEqual(merged.counts, expected);
    assert.equal(merged.samples, 2 * 5000 * (k + 1));
    const shown = progressResult(merged);
    const reference = monteCarloResult(expected);
    assert.deepEqual(shown.equity, reference.equity);
    assert.equal(merged.se, Math.max(...reference.seEquity));
    assert.equal(shown.partial, true);
    shown.equity.forEach((e, p) => assert.ok(Math.abs(e - exact.equity[p]) <= 5 * shown.seEquity[p], `player ${p}: ${e} vs ${exact.equity[p]}`));
  }
  // the last reports are the runs' final counts: the pool's final merge gives the same figures
  const final = combinedProgress(runs.map((run) => run.reports.at(-1)));
  assert.deepEqual(final.counts, mergeSamples(runs.map((run) => run.result.counts)));
});

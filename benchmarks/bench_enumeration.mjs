// Times the browser's exact enumeration (templates/assets/js/engines/range-equity.js) under node, for
// benchmarks/bench_enumeration.py. Usage: node benchmarks/bench_enumeration.mjs evaluator-tables.bin spots.json RUNS
// -> one JSON line per spot: {"name", "method", "first": [wall s, CPU s], "runs": [[wall s, CPU s], ...], "equity"}:
// each rangeEquity() on the parsed weights as the page's worker calls it (one thread); "first" the spot's first call
// in this process (the JIT not warm: what a page's first answer costs), "runs" after WARMUP more untimed calls.
import { readFileSync } from "node:fs";

import { parseTables } from "../templates/assets/js/engines/evaluator.js";
import { enumerationMethod, liveWeights, rangeEquity } from "../templates/assets/js/engines/range-equity.js";
import { parseRange } from "../templates/assets/js/engines/ranges.js";

const file = readFileSync(process.argv[2]);
const tables = parseTables(file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength));
const spots = JSON.parse(readFileSync(process.argv[3], "utf8"));
const runs = Number(process.argv[4]);
const WARMUP = 15; // calls until V8 has optimised the hot functions (10-ish on the 3-way flop spot)

/** [wall s, CPU s] of one call of ``run``. */
function timed(run) {
  const cpu = process.cpuUsage(), wall = process.hrtime.bigint();
  run();
  const used = process.cpuUsage(cpu);
  return [Number(process.hrtime.bigint() - wall) / 1e9, (used.user + used.system) / 1e6];
}

for (const spot of spots) {
  const weights = spot.ranges.map((r) => parseRange(r).weights);
  let result = null;
  const answer = () => (result = rangeEquity(tables, weights, spot.board, spot.dead));
  const first = timed(answer);
  for (let i = 0; i < WARMUP; i++) answer();
  const times = Array.from({ length: runs }, () => timed(answer));
  const method = `${result.method}, ${enumerationMethod(liveWeights(weights, spot.board, spot.dead), spot.board, spot.dead)}`;
  console.log(JSON.stringify({ name: spot.name, method, first, runs: times, equity: Array.from(result.equity) }));
}

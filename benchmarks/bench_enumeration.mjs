// Times the browser's exact enumeration (templates/assets/js/range-equity.js) under node, for
// benchmarks/bench_enumeration.py. Usage: node benchmarks/bench_enumeration.mjs evaluator-tables.bin spots.json RUNS
// -> one JSON line per spot: {"name", "method", "runs": [[wall s, CPU s], ...], "equity": [...]}, the runs after one
// untimed warm-up run (the JIT), each rangeEquity() on the parsed weights as the page's worker calls it (one thread).
import { readFileSync } from "node:fs";

import { parseTables } from "../templates/assets/js/evaluator.js";
import { enumerationMethod, liveWeights, rangeEquity } from "../templates/assets/js/range-equity.js";
import { parseRange } from "../templates/assets/js/ranges.js";

const file = readFileSync(process.argv[2]);
const tables = parseTables(file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength));
const spots = JSON.parse(readFileSync(process.argv[3], "utf8"));
const runs = Number(process.argv[4]);

for (const spot of spots) {
  const weights = spot.ranges.map((r) => parseRange(r).weights);
  let result = rangeEquity(tables, weights, spot.board, spot.dead);
  const times = [];
  for (let i = 0; i < runs; i++) {
    const cpu = process.cpuUsage(), wall = process.hrtime.bigint();
    result = rangeEquity(tables, weights, spot.board, spot.dead);
    const used = process.cpuUsage(cpu);
    times.push([Number(process.hrtime.bigint() - wall) / 1e9, (used.user + used.system) / 1e6]);
  }
  const method = `${result.method}, ${enumerationMethod(liveWeights(weights, spot.board, spot.dead), spot.board, spot.dead)}`;
  console.log(JSON.stringify({ name: spot.name, method, runs: times, equity: Array.from(result.equity) }));
}

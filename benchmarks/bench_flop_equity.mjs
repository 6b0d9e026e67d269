// Times the flop equity engine (templates/assets/js/engines/flop-equity.js) under node, for benchmarks/bench_flop_equity.py.
// Usage: node benchmarks/bench_flop_equity.mjs evaluator-tables.bin spots.json  ->  one JSON object per line:
//   {"row": "distribution", "name", "seconds" (best of 3), "overall", "combos"}
//   {"row": "report", "name", "seconds" (best of 3, one thread), "parts" ([seconds of part 0, part 1] of a 2-part
//    split, one after the other), "overall"}
import { readFileSync } from "node:fs";

import { parseTables } from "../templates/assets/js/engines/evaluator.js";
import { comboEquities, equityDistribution, everyFlopCounts, flopReport, mergeFlopCounts } from "../templates/assets/js/engines/flop-equity.js";
import { parseRange } from "../templates/assets/js/engines/ranges.js";

const file = readFileSync(process.argv[2]);
const tables = parseTables(file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength));
const { distributions, reports } = JSON.parse(readFileSync(process.argv[3], "utf8"));
const cards = (text) => (text.match(/../g) ?? []).map((c) => 4 * "23456789TJQKA".indexOf(c[0]) + "cdhs".indexOf(c[1]));
const timed = (run) => {
  const start = process.hrtime.bigint();
  const value = run();
  return [Number(process.hrtime.bigint() - start) / 1e9, value];
};
/** [best seconds of ``repeats`` runs, the last value]. */
function best(run, repeats = 3) {
  let fastest = Infinity, value;
  for (let i = 0; i < repeats; i++) {
    const [seconds, v] = timed(run);
    [fastest, value] = [Math.min(fastest, seconds), v];
  }
  return [fastest, value];
}

for (const spot of distributions) {
  const [a, b] = spot.ranges.map((r) => parseRange(r).weights);
  const [seconds, d] = best(() => equityDistribution(comboEquities(tables, a, b, cards(spot.board), cards(spot.dead))));
  console.log(JSON.stringify({ row: "distribution", name: spot.name, seconds, overall: d.overall, combos: d.combos.length }));
}
for (const spot of reports) {
  const [a, b] = spot.ranges.map((r) => parseRange(r).weights);
  const [seconds, report] = best(() => flopReport(everyFlopCounts(tables, a, b)));
  const split = [0, 1].map((part) => timed(() => everyFlopCounts(tables, a, b, { part, parts: 2 })));
  const merged = flopReport(mergeFlopCounts(split.map(([, counts]) => counts)));
  if (merged.overall !== report.overall) throw new Error(`2 parts ${merged.overall} != whole ${report.overall}`);
  console.log(JSON.stringify({ row: "report", name: spot.name, seconds, parts: split.map(([s]) => s), overall: report.overall }));
}

// Times the browser equity engine (templates/assets/js) under node, for benchmarks/bench_equity.py.
// Usage: node benchmarks/bench_equity.mjs evaluator-tables.bin spots.json  ->  one JSON object per line:
//   {"row": "evaluator", "ours": evaluations/s, "phe": evaluations/s, "agree": share of equal comparisons}
//   {"row": "enumeration", "name", "players", "hands": hands resolved, "seconds", "phe": evaluations/s}
//   {"row": "spot", "name", "method", "seconds", "samples" | "boards", "se": largest se or null}
// phe (node_modules/phe, `evaluateCardCodes`) is the peer 7-card evaluator, timed in the same run.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

import { parseTables, strength } from "../templates/assets/js/engines/evaluator.js";
import { enumerateCounts, liveWeights, rangeEquity } from "../templates/assets/js/engines/range-equity.js";
import { parseRange } from "../templates/assets/js/engines/ranges.js";

const require = createRequire(import.meta.url);
const { evaluateCardCodes } = require("phe");
const file = readFileSync(process.argv[2]);
const tables = parseTables(file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength));
const { spots, matchups, multiway } = JSON.parse(readFileSync(process.argv[3], "utf8"));
const seconds = (start) => Number(process.hrtime.bigint() - start) / 1e9;
const cards = (text) => (text.match(/../g) ?? []).map((c) => 4 * "23456789TJQKA".indexOf(c[0]) + "cdhs".indexOf(c[1]));

/** Best of ``repeats`` runs of ``run()``, in seconds. */
function best(run, repeats = 3) {
  let fastest = Infinity;
  for (let i = 0; i < repeats; i++) {
    const start = process.hrtime.bigint();
    run();
    fastest = Math.min(fastest, seconds(start));
  }
  return fastest;
}

// Random 7-card hands (card ids 4·rank + suit in both libraries; phe: lower is stronger).
const HANDS = 1 << 20;
let state = 12345;
const next = () => ((state = (Math.imul(state, 1103515245) + 12345) >>> 0) >>> 8);
const hands = Array.from({ length: HANDS }, () => {
  const hand = [];
  while (hand.length < 7) { const c = next() % 52; if (!hand.includes(c)) hand.push(c); }
  return hand;
});
let sink = 0;
const ours = HANDS / best(() => { for (const hand of hands) sink += strength(tables, hand); });
const phe = HANDS / best(() => { for (const hand of hands) sink += evaluateCardCodes(hand); });
let agree = 0;
for (let i = 1; i < 100000; i++) {
  const a = Math.sign(strength(tables, hands[i]) - strength(tables, hands[i - 1]));
  const b = Math.sign(evaluateCardCodes(hands[i - 1]) - evaluateCardCodes(hands[i]));
  agree += a === b;
}
console.log(JSON.stringify({ row: "evaluator", ours, phe, agree: agree / 99999, sink: sink > 0 }));

for (const spot of spots) {
  const weights = spot.ranges.map((r) => parseRange(r).weights);
  const [board, dead] = [cards(spot.board), cards(spot.dead ?? "")];
  if (spot.enumeration) {
    // every weight 1: the count total is the number of (board, compatible assignment) leaves
    const live = liveWeights(weights.map((w) => w.map((x) => (x > 0 ? 1 : 0))), board, dead);
    let counts = null;
    const time = best(() => (counts = enumerateCounts(tables, live, board, dead)));
    console.log(JSON.stringify({ row: "enumeration", name: spot.name, players: live.length, hands: counts.total * live.length, seconds: time, phe }));
    continue;
  }
  let result = null;
  const time = best(() => (result = rangeEquity(tables, weights, board, dead, { matchups, multiway, targetSe: 1e-3 })), spot.repeats ?? 3);
  console.log(JSON.stringify({
    row: "spot", name: spot.name, method: result.method, exact: result.exact, seconds: time, samples: result.samples ?? null,
    boards: result.boards ?? null, se: result.seEquity ? Math.max(...result.seEquity) : null,
  }));
}

// Times the browser ICM module (templates/assets/js/engines/icm.js) under node, for benchmarks/bench_icm.py.
// Usage: node benchmarks/bench_icm.mjs fields.json  ->  one JSON object per line:
//   {"n": ..., "seconds": best wall time of the repeats, "equity": [...], "method": ...} for
//   icm(stacks, payouts, {method, places: false}), method the field's "method" (default "integral")
// With a field's "bubble": true, it times bubbleFactors instead and reports the bubble-factor matrix
// ("required_equity": [[...]], null where undefined) in place of "equity". With "bands": [[first, last], ...]
// it times fieldSummary once (the big-field summary of the ICM page) and reports "cash" and "finish".
import { readFileSync } from "node:fs";

import { bubbleFactors, fieldSummary, icm } from "../templates/assets/js/engines/icm.js";

const fields = JSON.parse(readFileSync(process.argv[2], "utf8"));
for (const { stacks, payouts, repeats, bubble, bands, method = "integral" } of fields) {
  if (bands) {
    const start = process.hrtime.bigint();
    const summary = fieldSummary(stacks, payouts, { bands });
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    console.log(JSON.stringify({ n: stacks.length, seconds, cash: summary.cash, finish: summary.finish }));
    continue;
  }
  if (bubble) {
    let best = Infinity;
    let matrix = null;
    for (let i = 0; i < repeats; i++) {
      const start = process.hrtime.bigint();
      matrix = bubbleFactors(stacks, payouts).requiredEquity;
      best = Math.min(best, Number(process.hrtime.bigint() - start) / 1e9);
    }
    console.log(JSON.stringify({ n: stacks.length, seconds: best, required_equity: matrix }));
    continue;
  }
  let best = Infinity;
  let result = null;
  for (let i = 0; i < repeats; i++) {
    const start = process.hrtime.bigint();
    result = icm(stacks, payouts, { method, places: false });
    best = Math.min(best, Number(process.hrtime.bigint() - start) / 1e9);
  }
  console.log(JSON.stringify({ n: stacks.length, seconds: best, equity: result.equity, method: result.method }));
}

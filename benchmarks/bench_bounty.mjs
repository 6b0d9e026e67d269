// Times the browser's bounty module (templates/assets/js/engines/bounty.js) against plain ICM (icm.js) under node, for
// benchmarks/bench_bounty.py. Usage: node benchmarks/bench_bounty.mjs fields.json -> one JSON object per line:
//   {"n", "what": "value" | "bubble", "seconds": best wall time with bounties, "plain_seconds": the same without,
//    "total": [...] (position values) or "required_equity": [[...]] (bubble factors, null where undefined)}
// positionValue(stacks, payouts, bounties) against icm(stacks, payouts); bubbleFactors of bounty.js against icm.js's.
import { readFileSync } from "node:fs";

import { bubbleFactors, positionValue } from "../templates/assets/js/engines/bounty.js";
import { bubbleFactors as plainBubbleFactors, icm } from "../templates/assets/js/engines/icm.js";

/** {seconds: the best wall time of `repeats` calls after one warm-up call (the JIT's), result: the last}. */
function best(repeats, run) {
  let seconds = Infinity;
  let result = run();
  for (let i = 0; i < repeats; i++) {
    const start = process.hrtime.bigint();
    result = run();
    seconds = Math.min(seconds, Number(process.hrtime.bigint() - start) / 1e9);
  }
  return { seconds, result };
}

const fields = JSON.parse(readFileSync(process.argv[2], "utf8"));
for (const { stacks, payouts, bounties, share, repeats, what } of fields) {
  if (what === "bubble") {
    const timed = best(repeats, () => bubbleFactors(stacks, payouts, bounties, share).requiredEquity);
    const plain = best(repeats, () => plainBubbleFactors(stacks, payouts));
    console.log(JSON.stringify({ n: stacks.length, what, seconds: timed.seconds, plain_seconds: plain.seconds, required_equity: timed.result }));
  } else {
    const timed = best(repeats, () => positionValue(stacks, payouts, bounties).total);
    const plain = best(repeats, () => icm(stacks, payouts, { places: false }));
    console.log(JSON.stringify({ n: stacks.length, what, seconds: timed.seconds, plain_seconds: plain.seconds, total: timed.result }));
  }
}

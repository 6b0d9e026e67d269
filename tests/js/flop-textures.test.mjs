// flops.js's straightHoldings (rank bit masks, fast enough for a page's main thread) against the definition of
// docs/flop.md written out plainly here: for every multiset of three board ranks, the unpaired two-rank holdings
// whose five or fewer distinct ranks hold five in a row, the ace also low.
import { test } from "node:test";
import assert from "node:assert/strict";

import { straightHoldings } from "../../templates/assets/js/engines/flops.js";

/** Whether the ranks (0..12) hold five consecutive ranks, the ace (12) also counting as one below the deuce. */
function hasStraight(ranks) {
  const present = new Set(ranks);
  if (present.has(12)) present.add(-1);
  for (let low = -1; low <= 8; low++) if ([0, 1, 2, 3, 4].every((k) => present.has(low + k))) return true;
  return false;
}

test("straight holdings of every three-rank board equal the definition", () => {
  const seen = new Set();
  for (let a = 0; a < 13; a++) {
    for (let b = a; b < 13; b++) {
      for (let c = b; c < 13; c++) {
        let expected = 0;
        for (let x = 0; x < 13; x++) for (let y = x + 1; y < 13; y++) expected += hasStraight([a, b, c, x, y]);
        assert.equal(straightHoldings([a, b, c]), expected, `${a} ${b} ${c}`);
        seen.add(expected);
      }
    }
  }
  assert.ok(seen.has(0) && seen.has(3) && seen.size > 3); // K72: none; T98: QJ, J7, 76 (docs/flop.md) and more
  assert.equal(straightHoldings([11, 5, 0]), 0); // K♠7♦2♣
  assert.equal(straightHoldings([8, 7, 6]), 3); // T♠9♦8♣
});

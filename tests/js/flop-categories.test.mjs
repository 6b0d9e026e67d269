// The browser's flop hit categories agree with kernels/flop/categories.py on the committed goldens of
// spec/flop-categories.json (spec/engines/flop_categories.py), on the site's evaluator tables. Everything is exact:
// categories, draw bits and counts are integers, and the weights are summed in the same order as Python sums them.
import { test } from "node:test";
import assert from "node:assert/strict";

import { classIndex } from "../../templates/assets/js/engines/cards.js";
import { parseTables } from "../../templates/assets/js/engines/evaluator.js";
import {
  DRAWS, FLOPS_PER_HAND, MADE_CATEGORIES, categoryFloor, classHitCounts, classRepresentatives, comboHitCounts, drawMask,
  madeCategory, rangeHitTable,
} from "../../templates/assets/js/engines/flop-categories.js";
import { COMBOS, COMBO_CLASS, parseCards, parseRange } from "../../templates/assets/js/engines/ranges.js";
import { golden, table } from "./golden.mjs";

const fixture = golden("flop-categories");
const tables = parseTables(table("evaluator-tables.bin.gz"));

test("the category and draw names and the evaluator's category floors are Python's", () => {
  assert.deepEqual([...MADE_CATEGORIES], fixture.made_categories);
  assert.deepEqual([...DRAWS], fixture.draws);
  assert.deepEqual(categoryFloor(tables), fixture.category_floor);
});

test("every golden hand has Python's made category and draws", () => {
  const wrong = fixture.hands.filter(([hand, board, made, draws]) => {
    const [first, second] = parseCards(hand, "hand"), cards = parseCards(board, "board");
    return madeCategory(tables, first, second, cards) !== made || drawMask(first, second, cards) !== draws;
  });
  assert.deepEqual(wrong.slice(0, 5), []);
});

test("the golden hands reach every category, every draw and every board size", () => {
  const made = new Set(fixture.hands.map(([, , m]) => m));
  const draws = fixture.hands.reduce((bits, [, , , d]) => bits | d, 0);
  const sizes = new Set(fixture.hands.map(([, board]) => board.length / 2));
  assert.equal(made.size, MADE_CATEGORIES.length);
  assert.equal(draws, (1 << DRAWS.length) - 1);
  assert.deepEqual([...sizes].sort(), [3, 4, 5]);
});

test("the class table is Python's, every row over 19,600 flops", (t) => {
  const started = performance.now();
  const { made, draws } = classHitCounts(tables);
  t.diagnostic(`classHitCounts in ${(performance.now() - started).toFixed(0)} ms`);
  assert.deepEqual(made, fixture.class_made);
  assert.deepEqual(draws, fixture.class_draws);
  assert.ok(made.every((row) => row.reduce((a, b) => a + b) === FLOPS_PER_HAND));
});

test("a class's representative is one of its combos, and another combo of it has the same counts", () => {
  const representatives = classRepresentatives();
  representatives.forEach(([a, b], index) => assert.equal(COMBO_CLASS[COMBOS.findIndex(([x, y]) => x === a && y === b)], index));
  const cls = classIndex("AKo");
  const last = COMBOS.findLastIndex((_, i) => COMBO_CLASS[i] === cls);
  assert.notDeepEqual(COMBOS[last], representatives[cls]);
  const { made, draws } = comboHitCounts(tables, ...COMBOS[last]);
  assert.deepEqual([made, draws], [fixture.class_made[cls], fixture.class_draws[cls]]);
});

for (const { range, board, dead, error, ...expected } of fixture.ranges) {
  test(`the hit table of ${range} on ${board}${dead ? `, dead ${dead}` : ""} is Python's`, () => {
    const { weights } = parseRange(range);
    const live = [...weights.keys()].filter((i) => weights[i] > 0);
    const run = () => rangeHitTable(tables, live.map((i) => COMBOS[i]), live.map((i) => weights[i]),
      parseCards(board, "board"), parseCards(dead, "dead"));
    if (error) {
      assert.throws(run, { message: error });
      return;
    }
    const result = run();
    assert.deepEqual(
      [result.kept, result.made, result.draws, result.madeWeight, result.drawWeight, result.total, result.madeShare, result.drawShare],
      [expected.kept, expected.made, expected.draws, expected.made_weight, expected.draw_weight, expected.total,
        expected.made_share, expected.draw_share],
    );
    assert.deepEqual(result.combos, expected.kept.map((k) => COMBOS[live[k]]));
  });
}

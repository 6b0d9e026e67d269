// The browser range parser agrees with kernels/ranges.py (fixtures written by make_ranges_fixtures.py).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

import { COMBO_CLASS, RangeError, className, comboIndex, parseRange } from "../../templates/assets/js/ranges.js";

const fixture = JSON.parse(readFileSync(new URL("./fixtures/ranges.json", import.meta.url), "utf8"));

function answer(text) {
  try {
    const { weights } = parseRange(text, fixture.ranking);
    const combos = [];
    weights.forEach((w, i) => w !== 0 && combos.push(i));
    return { text, combos, weights: combos.map((i) => weights[i]) };
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return { text, error: { token: error.token, column: error.column, message: error.message } };
  }
}

test("every fixture string parses to Python's weights or fails at Python's token, column and message", () => {
  assert.ok(fixture.cases.length > 500);
  assert.ok(fixture.cases.filter((c) => c.error).length > 40 && fixture.cases.filter((c) => !c.error).length > 300);
  const wrong = fixture.cases.filter((c) => JSON.stringify(answer(c.text)) !== JSON.stringify(c));
  assert.deepEqual(wrong.slice(0, 3).map((c) => [c, answer(c.text)]), []);
});

test("combo indices and classes follow Python's ALL_COMBOS and chart layout", () => {
  assert.equal(comboIndex(0, 1), 0);
  assert.equal(comboIndex(51, 50), 1325);
  assert.equal(className(0), "AA");
  assert.equal(className(1), "AKs");
  assert.equal(className(13), "AKo");
  assert.equal(className(168), "22");
  assert.equal(COMBO_CLASS[comboIndex(51, 47)], 1); // AsKs
  assert.equal(className(fixture.ranking[0]), "AA");
});

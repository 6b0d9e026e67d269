// The browser range parser agrees with kernels/ranges.py on the committed goldens of spec/ranges.json
// (spec/engines/ranges.py; python -m spec.regenerate writes them).
import { test } from "node:test";
import assert from "node:assert/strict";

import { COMBO_CLASS, CardsError, N_COMBOS, RangeError, className, comboIndex, normalise, parseCards, parseRange } from "../../templates/assets/js/engines/ranges.js";
import { fromRuns, golden, weightRuns } from "./golden.mjs";

const spec = golden("ranges");

function answer(text) {
  try {
    const { weights } = parseRange(text, spec.ranking);
    return { text, weights: weightRuns(weights), normalised: normalise(weights) };
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return { text, error: { token: error.token, column: error.column, message: error.message } };
  }
}

test("every golden string parses to Python's weights or fails at Python's token, column and message", () => {
  assert.ok(spec.cases.length > 200);
  assert.ok(spec.cases.filter((c) => c.error).length > 40 && spec.cases.filter((c) => !c.error).length > 150);
  const wrong = spec.cases.filter((c) => JSON.stringify(answer(c.text)) !== JSON.stringify(c));
  assert.deepEqual(wrong.slice(0, 3).map((c) => [c, answer(c.text)]), []);
});

test("weightRuns reads back: the golden weights are the parsed weights", () => {
  for (const c of spec.cases.filter((c) => c.weights)) {
    assert.deepEqual(fromRuns(c.weights, N_COMBOS), parseRange(c.text, spec.ranking).weights, c.text);
  }
});

test("combo indices and classes follow Python's ALL_COMBOS and chart layout", () => {
  assert.equal(comboIndex(0, 1), 0);
  assert.equal(comboIndex(51, 50), 1325);
  assert.equal(className(0), "AA");
  assert.equal(className(1), "AKs");
  assert.equal(className(13), "AKo");
  assert.equal(className(168), "22");
  assert.equal(COMBO_CLASS[comboIndex(51, 47)], 1); // AsKs
  assert.equal(className(spec.ranking[0]), "AA");
});

test("normalised strings parse back to the same weights", () => {
  for (const c of spec.cases.filter((c) => c.normalised)) { // "" (nothing) is no range
    assert.deepEqual(parseRange(c.normalised, spec.ranking).weights, parseRange(c.text, spec.ranking).weights, c.text);
  }
});

test("board and dead-card strings: card ids, or one error line naming the field", () => {
  assert.deepEqual(parseCards("Kh 8d,3c", "Board"), [4 * 11 + 2, 4 * 6 + 1, 4 * 1 + 0]);
  assert.deepEqual(parseCards("", "Board"), []);
  assert.throws(() => parseCards("Kh8", "Board"), new CardsError("Board: cards are two characters each (e.g. Kh8d3c)"));
  assert.throws(() => parseCards("Kx", "Dead cards"), /^CardsError: Dead cards: "Kx" is not a card/);
  assert.throws(() => parseCards("KhKH", "Board"), /duplicate card KH/);
});

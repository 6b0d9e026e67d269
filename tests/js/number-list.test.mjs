// The browser's typed-number grammar (number-list.js, re-exported by icm.js) reads text as generator/core/numbers.py
// does: the committed goldens of spec/number-list.json (spec/engines/number_list.py).
import { test } from "node:test";
import assert from "node:assert/strict";

import { parseNumberList, parsePayouts } from "../../templates/assets/js/engines/icm.js";
import { parseNumber } from "../../templates/assets/js/engines/number-list.js";
import { golden } from "./golden.mjs";

const spec = golden("number-list");

test("parseNumberList reads typed lists as Python does: same numbers or the same message", () => {
  assert.ok(spec.lists.some((c) => c.error) && spec.lists.some((c) => c.values));
  for (const { text, values, error } of spec.lists) {
    if (error === undefined) assert.deepEqual(parseNumberList(text, "stacks"), values, JSON.stringify(text));
    else assert.throws(() => parseNumberList(text, "stacks"), (e) => e.message === error, JSON.stringify(text));
  }
});

test("thousands separators: the case a player typed is three players", () => {
  assert.deepEqual(parseNumberList("10,000 5,000 2,500", "stacks"), [10000, 5000, 2500]);
  assert.throws(() => parseNumberList("10,000", "stacks"), /ambiguous: one number \(10000\) or 2 entries/);
});

for (const typed of spec.numbers) {
  test(`one number typed as Python reads it: ${JSON.stringify(typed.text)}`, () => {
    if (typed.error) assert.throws(() => parseNumber(typed.text, "ante"), { message: typed.error });
    else assert.equal(parseNumber(typed.text, "ante"), typed.value);
  });
}

for (const typed of spec.payouts) {
  test(`payouts typed as Python reads them: ${JSON.stringify(typed.text).slice(0, 60)}`, () => {
    if (typed.error) assert.throws(() => parsePayouts(typed.text, "payouts"), { message: typed.error });
    else assert.deepEqual(parsePayouts(typed.text, "payouts"), typed.payouts);
  });
}

// The browser ICM module agrees with the Python engine (fixtures written by make_icm_fixtures.py).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

import { bubbleFactors, fieldSummary, groupMeans, icm, parseNumberList, parsePayouts, stackOrder, validateField } from "../../templates/assets/js/icm.js";
import { parseNumber } from "../../templates/assets/js/number-list.js";

const fixture = JSON.parse(readFileSync(new URL("./fixtures/icm.json", import.meta.url), "utf8"));
const TOLERANCE = 1e-12; // of the prize pool / of a probability

function pool(payouts) {
  return payouts.reduce((sum, prize) => sum + prize, 0);
}

function assertClose(actual, expected, scale, label) {
  assert.equal(actual.length, expected.length, `${label}: length`);
  actual.forEach((value, i) => {
    assert.ok(Math.abs(value - expected[i]) <= TOLERANCE * scale, `${label}[${i}]: ${value} vs ${expected[i]}`);
  });
}

for (const field of fixture.fields) {
  test(`equity and places agree with Python: ${field.name}`, () => {
    const result = icm(field.stacks, field.payouts);
    assert.equal(result.method, field.auto.method);
    assertClose(result.equity, field.auto.equity, pool(field.payouts), "equity");
    result.places.forEach((row, i) => assertClose(row, field.auto.places[i], 1, `places[${i}]`));
  });

  test(`integral equity agrees with Python: ${field.name}`, () => {
    const result = icm(field.stacks, field.payouts, { method: "integral", places: false });
    assert.equal(result.places, null);
    assertClose(result.equity, field.integral_equity, pool(field.payouts), "equity");
  });
}

// Fields of 2,000 and 20,000 players (Python: the Fourier method). Same algorithm, same nodes; the two
// differ by exp/expm1 of the two runtimes (an ulp) and by summation order, so each player's equity is held
// to 1e-12 of itself (every place paid: each is at least the last prize) or of the pool (15% paid);
// measured 2.4e-15 of an equity, 6e-19 of the pool.
for (const field of fixture.big) {
  test(`big field agrees with Python: ${field.name}`, () => {
    const result = icm(field.stacks, field.payouts, { places: false });
    assert.equal(result.method, field.method);
    const allPaid = field.payouts.length === field.stacks.length;
    result.equity.forEach((value, i) => {
      const scale = allPaid ? field.equity[i] : pool(field.payouts);
      assert.ok(Math.abs(value - field.equity[i]) <= TOLERANCE * scale, `equity[${i}]: ${value} vs ${field.equity[i]}`);
    });
  });
}

test("three-handed example", () => {
  const { equity } = icm([500, 300, 200], [600, 400, 0]);
  assertClose(equity, [435.7142857142857, 330, 234.28571428571428], 1000, "equity");
});

test("validateField gives Python's messages, one per field problem", () => {
  for (const { stacks, payouts, messages } of fixture.invalid) {
    assert.deepEqual(validateField(stacks, payouts).map((error) => error.message), messages);
  }
});

test("validateField points at the offending field and entry", () => {
  const errors = validateField([100, "x", 5], [10, -2]);
  assert.deepEqual(
    errors.map(({ field, index }) => [field, index]),
    [["stacks", 1], ["payouts", 1]],
  );
  assert.deepEqual(validateField([100, 50], [60, 40]), []);
});

test("invalid input throws one readable error", () => {
  assert.throws(() => icm([], [1]), /stacks: no players/);
  assert.throws(() => icm(new Array(100001).fill(1), [1]), /more than the limit of 100,000/);
});

test("parseNumberList reads typed lists as Python does: same numbers or the same message", () => {
  assert.ok(fixture.typed.some((c) => c.error) && fixture.typed.some((c) => c.values));
  for (const { text, values, error } of fixture.typed) {
    if (error === undefined) assert.deepEqual(parseNumberList(text, "stacks"), values, JSON.stringify(text));
    else assert.throws(() => parseNumberList(text, "stacks"), (e) => e.message === error, JSON.stringify(text));
  }
});

test("thousands separators: the case a player typed is three players", () => {
  assert.deepEqual(parseNumberList("10,000 5,000 2,500", "stacks"), [10000, 5000, 2500]);
  assert.throws(() => parseNumberList("10,000", "stacks"), /ambiguous: one number \(10000\) or 2 entries/);
});

const BUBBLE_TOLERANCE = 1e-12; // required equity and risk premium: absolute; bubble factor: relative

for (const field of fixture.bubble) {
  test(`bubble factors agree with Python: ${field.name}`, () => {
    const result = bubbleFactors(field.stacks, field.payouts);
    assert.equal(result.method, field.method);
    const pool = field.payouts.reduce((sum, prize) => sum + prize, 0);
    result.equity.forEach((value, i) => assert.ok(Math.abs(value - field.equity[i]) <= TOLERANCE * pool, `equity ${i}`));
    for (const [mine, theirs] of [
      [result.bubbleFactor, field.bubble_factor],
      [result.requiredEquity, field.required_equity],
      [result.riskPremium, field.risk_premium],
    ]) {
      mine.forEach((row, i) => row.forEach((value, j) => {
        const expected = theirs[i][j];
        if (expected === null) assert.equal(value, null, `[${i}][${j}]`);
        else assert.ok(Math.abs(value - expected) <= BUBBLE_TOLERANCE * Math.max(1, Math.abs(expected)), `[${i}][${j}]: ${value} vs ${expected}`);
      }));
    }
  });
}

test("bubble factor of the hand-computed example: 81/71", () => {
  assert.ok(Math.abs(bubbleFactors([50, 30, 20], [0.7, 0.3]).bubbleFactor[1][2] - 81 / 71) < 1e-12);
});

for (const field of fixture.summary) {
  test(`big-field summary agrees with Python's full place table: ${field.name}`, () => {
    const result = fieldSummary(field.stacks, field.payouts, { bands: field.bands });
    const n = field.stacks.length;
    assertClose(result.cash, field.cash, 1, "P(cash)");
    assertClose(result.finalTable, field.final_table, 1, "P(final table)");
    assertClose(result.finish, field.finish, n, "expected finish");
    result.bands.forEach((chances, b) => assertClose(chances, field.band_chances[b], 1, `band ${b}`));
  });
}

test("stack order and group means of the aggregated heatmap", () => {
  const order = stackOrder([5, 9, 5, 1]);
  assert.deepEqual(order, [1, 0, 2, 3]);
  assert.deepEqual(groupMeans(order, [0.5, 0.9, 0.3, 0.1], 2), [{ first: 1, last: 2, mean: 0.7 }, { first: 3, last: 4, mean: 0.2 }]);
});

for (const typed of fixture.typed_numbers) {
  test(`one number typed as Python reads it: ${JSON.stringify(typed.text)}`, () => {
    if (typed.error) assert.throws(() => parseNumber(typed.text, "ante"), { message: typed.error });
    else assert.equal(parseNumber(typed.text, "ante"), typed.value);
  });
}

for (const typed of fixture.typed_payouts) {
  test(`payouts typed as Python reads them: ${JSON.stringify(typed.text)}`, () => {
    if (typed.error) assert.throws(() => parsePayouts(typed.text, "payouts"), { message: typed.error });
    else assert.deepEqual(parsePayouts(typed.text, "payouts"), { values: typed.values, percent: typed.percent });
  });
}

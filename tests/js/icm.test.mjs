// The browser ICM module agrees with the Python engine on the committed goldens of spec/icm.json
// (spec/engines/icm.py; python -m spec.regenerate writes them).
import { test } from "node:test";
import assert from "node:assert/strict";

import { bubbleFactors, fieldSummary, groupMeans, icm, stackOrder, validateField } from "../../templates/assets/js/engines/icm.js";
import { atRows, golden, series, weightedSum } from "./golden.mjs";

const spec = golden("icm");
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

for (const field of spec.fields) {
  const stacks = series(field.stacks), payouts = series(field.payouts);
  const [autoSum, integralSum, fourierSum] = field.weighted_sums;

  test(`equity and places agree with Python: ${field.name}`, () => {
    const result = icm(stacks, payouts);
    assert.equal(result.method, field.auto.method);
    assertClose(atRows(result.equity, field.rows), field.auto.equity, pool(payouts), "equity");
    atRows(result.places, field.rows).forEach((row, i) => assertClose(row, field.auto.places[i], 1, `places[${i}]`));
    assertClose([weightedSum(result.equity)], [autoSum], 7 * pool(payouts), "Σ (1 + i mod 7) equity");
  });

  test(`integral and Fourier equity agree with Python: ${field.name}`, () => {
    const integral = icm(stacks, payouts, { method: "integral", places: false });
    assert.equal(integral.places, null);
    assertClose(atRows(integral.equity, field.rows), field.integral_equity, pool(payouts), "integral equity");
    assertClose([weightedSum(integral.equity)], [integralSum], 7 * pool(payouts), "Σ (1 + i mod 7) integral equity");
    const fourier = icm(stacks, payouts, { method: "fourier", places: false });
    assert.equal(fourier.method, "fourier");
    assertClose(atRows(fourier.equity, field.rows), field.fourier_equity, pool(payouts), "Fourier equity");
    assertClose([weightedSum(fourier.equity)], [fourierSum], 7 * pool(payouts), "Σ (1 + i mod 7) Fourier equity");
  });
}

// Fields of 2,000 and 20,000 players (Python: the Fourier method). Same algorithm, same nodes; the two
// differ by exp/expm1 of the two runtimes (an ulp) and by summation order, so each player's equity is held
// to 1e-12 of itself (every place paid: each is at least the last prize) or of the pool (15% paid);
// measured 2.4e-15 of an equity, 6e-19 of the pool.
for (const field of spec.big) {
  test(`big field agrees with Python: ${field.name}`, () => {
    const stacks = series(field.stacks), payouts = series(field.payouts);
    const result = icm(stacks, payouts, { places: false });
    assert.equal(result.method, field.method);
    const allPaid = payouts.length === stacks.length;
    atRows(result.equity, field.rows).forEach((value, i) => {
      const scale = allPaid ? field.equity[i] : pool(payouts);
      assert.ok(Math.abs(value - field.equity[i]) <= TOLERANCE * scale, `equity[${field.rows[i]}]: ${value} vs ${field.equity[i]}`);
    });
    assertClose([weightedSum(result.equity)], [field.weighted_sum], 7 * pool(payouts), "Σ (1 + i mod 7) equity");
  });
}

test("three-handed example", () => {
  const { equity } = icm([500, 300, 200], [600, 400, 0]);
  assertClose(equity, [435.7142857142857, 330, 234.28571428571428], 1000, "equity");
});

test("validateField gives Python's messages, one per field problem", () => {
  for (const { stacks, payouts, messages } of spec.invalid) {
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

const BUBBLE_TOLERANCE = 1e-12; // required equity and risk premium: absolute; bubble factor: relative

for (const field of spec.bubble) {
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

for (const field of spec.summary) {
  test(`big-field summary agrees with Python's full place table: ${field.name}`, () => {
    const stacks = series(field.stacks);
    const result = fieldSummary(stacks, series(field.payouts), { bands: field.bands });
    const n = stacks.length;
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

// pushfold-solver.js = kernels/pushfold/ on the committed goldens of spec/pushfold-solver.json
// (spec/engines/pushfold_solver.py): the same CFR+ iterates, best-response gains, values and table_errors messages,
// on the provisional 3-way table (kernels/threeway/pairwise.py, quantised as threeway.bin.gz stores it) that both
// languages build from spec/matchups.bin.gz and the compatible counts of spec/threeway-compatible.bin.gz.
//
// Tolerance: Python runs the fixtures with its dense 3-way tensor in float64 and JS is float64 throughout, so
// the two differ only by the order of additions (Python's BLAS / einsum sums, JS's loops over the supports):
// relative differences of about 1e-15 per sum, grown by ≤ 30 CFR+ iterations through regret matching's
// divisions. 1e-9 (absolute, on probabilities and on payoffs of order 1–100) is a million times that and
// still far below anything a chart shows (six decimals) — a wrong payoff, seat or ordering moves them by 1e-3+.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";

import {
  CHECK_EVERY, CLASS_NAMES, FALLBACK_DISCOUNT, MEASURE, THREEWAY_BYTES, THREEWAY_WEIGHTS_END, TaskRunner, evaluateStrategies, helperTable, infosetNames,
  loadEquities, payoffTolerances, provisionalEquities, solvePushfold, solveSteps, tableErrors,
} from "../../templates/assets/js/engines/pushfold-solver.js";
import { NO, ROW_BYTES } from "../../templates/assets/js/engines/pushfold/model.js";
import { golden, table as specTable } from "./golden.mjs";

const TOLERANCE = 1e-9;
const fixtures = golden("pushfold-solver");
const matchups = specTable("matchups.bin.gz");
/** The first THREEWAY_WEIGHTS_END bytes of a threeway.bin (header and compatible counts), all the provisional table reads. */
const prefix = specTable("threeway-compatible.bin.gz");
const equities = provisionalEquities(matchups, prefix);
equities.triple.tensorType = Float64Array; // as Python's fixtures: float64 3-way tensors (pushfold/tensors.js)
/** The same table with the solver's own float32 tensors. */
const equities32 = provisionalEquities(matchups, prefix);

function close(actual, expected, what, tolerance = TOLERANCE) {
  assert.equal(actual.length, expected.length, `${what}: length`);
  expected.forEach((x, i) => assert.ok(Math.abs(actual[i] - x) <= tolerance * Math.max(1, Math.abs(x)), `${what}[${i}]: ${actual[i]} vs ${x}`));
}

function run(table, maxIterations, start = null, options = {}) {
  const steps = solveSteps(table, equities, { tolerance: 0, maxIterations, start, ...options });
  for (;;) {
    const { value, done } = steps.next();
    if (done) return value;
  }
}

for (const fixture of fixtures.solved) {
  test(`CFR+ iterates, NashConv, gains and values = Python: ${fixture.name}`, () => {
    const result = run(fixture.table, fixture.iterations);
    assert.equal(result.iterations, fixture.iterations);
    assert.deepEqual(infosetNames(fixture.table).map((info) => info.name), fixture.spots);
    result.strategies.forEach((p, i) => close(p, fixture.strategies[i], fixture.spots[i]));
    close([result.nashConv], [fixture.nash_conv], "NashConv");
    close(result.gains, fixture.gains, "gains");
    close(result.values, fixture.values, "values");
  });
}

test("next(MEASURE) yields the answer so far between checks and changes neither the iterates nor the checks", () => {
  const fixture = fixtures.solved.find((f) => f.table.stacks.length > 2 && f.iterations > CHECK_EVERY);
  const steps = solveSteps(fixture.table, equities, { tolerance: 0, maxIterations: fixture.iterations });
  const seen = [];
  let step = steps.next();
  while (!step.done) {
    seen.push(step.value);
    const asked = step.value.nashConv === null && step.value.iteration <= 2;
    step = steps.next(asked ? MEASURE : undefined);
  }
  const early = seen.filter((s) => s.current && s.iteration % CHECK_EVERY !== 0);
  assert.deepEqual(early.map((s) => s.iteration), [1, 2]); // measured where asked, at once, once each
  for (const s of early) {
    assert.equal(s.current.iterations, s.iteration);
    assert.ok(Number.isFinite(s.nashConv) && s.nashConv > 0 && s.current.strategies.length === fixture.strategies.length);
  }
  assert.deepEqual(seen.filter((s) => !s.current).map((s) => s.iteration).slice(0, 2), [1, 2]); // each iteration also yielded plainly
  const result = step.value;
  assert.equal(result.iterations, fixture.iterations);
  result.strategies.forEach((p, i) => close(p, fixture.strategies[i], fixture.spots[i]));
  close([result.nashConv], [fixture.nash_conv], "NashConv");
});

test("with float32 tensors (the browser's) the iterates stay within float32's rounding of Python's float64 ones", () => {
  // a tensor entry carries a relative error of 2^-24 ≈ 6e-8; through the fixtures' iterations it moves the
  // strategies by less than 1e-6 (measured: about 1e-8), far below the six decimals a chart shows
  for (const fixture of fixtures.solved.filter((f) => f.table.stacks.length > 2 && f.table.stacks.length < 5)) {
    const steps = solveSteps(fixture.table, equities32, { tolerance: 0, maxIterations: fixture.iterations });
    let step;
    while (!(step = steps.next()).done);
    step.value.strategies.forEach((p, i) => close(p, fixture.strategies[i], fixture.spots[i], 1e-6));
    close([step.value.nashConv], [fixture.nash_conv], "NashConv", 1e-6);
    const kept = equities32.triple.tensors;
    assert.ok(kept.map.size > 0 && [...kept.map.values()].every((t) => t.values instanceof Float32Array), "float32 tensors were used");
  }
});

test("a solve shared with a helper (solveSteps' share) yields the same checks and answer as one thread, bit for bit", () => {
  // the helper's half of the 3-way sums run on a structured clone of what the worker posts (helperTable, the tasks),
  // as a second worker would; the solve below dispatches more than ten batches and reads float32 tensors on both sides
  const { table } = fixtures.ruled;
  const [tolerance, classTolerance] = payoffTolerances(table);
  const solve = (eq, share) => {
    const runner = new TaskRunner();
    runner.setTable(table);
    runner.setTriple(structuredClone(helperTable(eq.triple)));
    const steps = solveSteps(table, eq, { tolerance, classTolerance, fallbackDiscount: FALLBACK_DISCOUNT, share });
    const seen = [];
    let [step, answer, batches, tensors] = [steps.next(), null, 0, 0];
    while (!step.done) {
      if (step.value.dispatch) {
        batches++;
        tensors += step.value.dispatch.filter((m) => m.spec.tensor).length;
        answer = runner.run(structuredClone(step.value.dispatch));
      } else if (!step.value.collect) seen.push([step.value.iteration, step.value.nashConv, step.value.classRegret]);
      step = steps.next(step.value.collect ? answer : undefined);
    }
    return { result: step.value, seen, batches, tensors };
  };
  const alone = solve(provisionalEquities(matchups, prefix), false);
  const shared = solve(provisionalEquities(matchups, prefix), true);
  assert.equal(alone.batches, 0);
  assert.ok(shared.batches > 10 && shared.tensors > 0, `${shared.batches} batches, ${shared.tensors} tensor tasks`);
  assert.deepEqual(shared.seen, alone.seen);
  assert.equal(shared.result.iterations, fixtures.ruled.iterations);
  assert.deepEqual([shared.result.nashConv, shared.result.classRegret, shared.result.residue],
    [alone.result.nashConv, alone.result.classRegret, alone.result.residue]);
  shared.result.strategies.forEach((p, i) => assert.deepEqual(p, alone.result.strategies[i]));
});

test("the 5-handed fixtures do reach 4+-way pots (the approximation is exercised, with bounties too)", () => {
  const fives = fixtures.solved.filter((f) => f.table.stacks.length === 5);
  assert.deepEqual(fives.map((f) => f.table.bounties !== undefined), [false, true]);
  for (const { reach } of fives) assert.ok(reach["4"] > 1e-3 && reach["5"] > 0, JSON.stringify(reach));
});

test("bounty tables: the solution object's table carries the bounties and the share", () => {
  const pko = fixtures.solved.find((f) => f.table.bountyShare === 0.5);
  const solution = solvePushfold(pko.table, equities, { tolerance: 0, maxIterations: 5 });
  assert.deepEqual(solution.table, { stacks: pko.table.stacks, blinds: pko.table.blinds, ante: pko.table.ante, bb_ante: false,
    payouts: pko.table.payouts, bounties: pko.table.bounties, bounty_share: 0.5 });
  const plain = solvePushfold(fixtures.solved[0].table, equities, { tolerance: 0, maxIterations: 5 });
  assert.ok(!("bounties" in plain.table) && !("bounty_share" in plain.table));
});

test("best-response gains and values of a profile that is no equilibrium = Python's", () => {
  const { table, strategies, gains, values } = fixtures.evaluated;
  const result = evaluateStrategies(table, equities, strategies.map((p) => Float64Array.from(p)));
  close(result.gains, gains, "gains");
  close(result.values, values, "values");
  assert.ok(result.nashConv > 0.1, "the profile is far from an equilibrium");
  // the worst class regret at a decision, and where it is
  const names = infosetNames(table).map((info) => info.name);
  let worst = { regret: -1 };
  names.forEach((name, i) => fixtures.evaluated.class_regret[name].forEach((r, c) => {
    if (r > worst.regret) worst = { regret: r, info: i, class: c };
  }));
  close([result.classRegret.regret], [worst.regret], "worst class regret");
  assert.deepEqual([result.classRegret.info, result.classRegret.class], [worst.info, worst.class]);
});

test("solvePushfold's default stopping rule = Python's RULE: same iteration, same worst class regret", () => {
  const { table, iterations, document } = fixtures.ruled;
  const progress = [];
  const solution = solvePushfold(table, equities, { onProgress: (p) => progress.push(p) });
  assert.equal(solution.iterations, iterations);
  assert.ok(iterations > 10 && iterations < 1000, `${iterations} iterations`);
  assert.equal(solution.rule_met, true);
  assert.equal(document.rule_met, true);
  assert.deepEqual([solution.class_regret.spot, solution.class_regret.class], [document.class_regret.spot, document.class_regret.class]);
  close([solution.class_regret.pool_pct], [document.class_regret.pool_pct], "worst class regret", 1e-3);
  assert.ok(solution.class_regret.pool_pct <= 0.01 && solution.class_regret.bb === null);
  // progress reports the worst class regret at every check; the solution's is that of the strategy cleaned of the
  // averages' residue, which may rise to the last check's worst regret but never above it or the rule's
  assert.equal(progress.at(-1).iteration, iterations);
  assert.ok(progress.at(-1).classRegret <= 0.01);
  assert.ok(solution.class_regret.pool_pct <= Math.max(0.01, progress.at(-1).classRegret) + 1e-12);
  assert.ok(progress.slice(0, -1).every((p) => p.nashConv > 0.05 || p.classRegret > 0.01), "the rule stopped it at the first check that met it");
});

test("ev_gain: what the aggressive action gains over folding at each decision agrees with the published ranges", () => {
  const { table } = fixtures.ruled; // solved to the stopping rule, then cleaned of the averages' residue
  const solution = solvePushfold(table, equities);
  const tolerance = 0.01; // % of the pool: the class rule; a pure action is never worse than that at its decision
  let checked = 0;
  for (const kind of ["shove", "call"]) {
    for (const [spot, gains] of Object.entries(solution.ev_gain[kind])) {
      for (const name of CLASS_NAMES) {
        const p = solution[kind][spot]?.[name] ?? 0, gain = gains[name];
        if (gain === undefined) continue; // never reached
        if (p === 1) assert.ok(gain >= -tolerance - 1e-9, `${spot} ${name}: played always, gains ${gain}`);
        if (p === 0) assert.ok(gain <= tolerance + 1e-9, `${spot} ${name}: never played, gains ${gain}`);
        checked++;
      }
    }
  }
  assert.ok(checked > 169 * 3, `${checked} classes checked`);
  assert.ok(Object.values(solution.ev_gain.shove).some((g) => Object.values(g).some((x) => x > 1)), "some shoves gain clearly");
});

test("tableErrors = table_errors, message for message", () => {
  for (const { table, errors } of fixtures.bad) assert.deepEqual(tableErrors(table), errors, JSON.stringify(table));
});

test("solvePushfold: the solution object (six decimals, classes at 0 left out) and progress in reported units", () => {
  const fixture = fixtures.solved.find((f) => f.table.payouts !== null);
  const progress = [];
  const solution = solvePushfold(fixture.table, equities, { tolerance: 0, maxIterations: fixture.iterations, onProgress: (p) => progress.push(p),
    fallbackDiscount: null });
  assert.deepEqual(solution.positions, ["CO", "BTN", "SB", "BB"]);
  assert.equal(solution.exploitability.bb, null);
  close([solution.exploitability.pool_pct], [fixture.nash_conv], "pool_pct"); // a pool of 100: % of the pool = prize units
  assert.deepEqual(progress.map((p) => p.iteration), [5, 10, 15, 20, 25, 30]); // a check every CHECK_EVERY = 5
  assert.equal(progress.at(-1).nashConv, solution.exploitability.pool_pct);
  assert.equal(solution.iterations, fixture.iterations);
  close(Object.values(solution.values), fixture.values, "values");
  infosetNames(fixture.table).forEach((info, i) => {
    const spot = info.open ? solution.shove[info.name] : solution.call[info.name];
    fixture.strategies[i].forEach((p, c) => {
      const shown = spot[fixtures.classes[c]];
      assert.equal(shown ?? 0, Math.round(p * 1e6) / 1e6, `${info.name} ${fixtures.classes[c]}`);
      if (shown !== undefined) assert.ok(shown > 0);
    });
  });
  const chipEv = solvePushfold(fixtures.solved[0].table, equities, { tolerance: 0, maxIterations: 30, fallbackDiscount: null });
  assert.deepEqual([chipEv.positions, Object.keys(chipEv.shove), Object.keys(chipEv.call)], [["SB", "BB"], ["SB"], ["BB vs SB"]]);
  assert.equal(chipEv.exploitability.pool_pct, null);
  close([chipEv.exploitability.bb], [fixtures.solved[0].nash_conv], "bb");
});

for (const warm of fixtures.warm) {
  test(`warm start from a published solution (six decimals) = Python: regret ${warm.start_regret}, within ${warm.start_within}`, () => {
    const { table, start, iterations, strategies, nash_conv: nashConv } = warm;
    const result = run(table, iterations, start, { startRegret: warm.start_regret, startWithin: warm.start_within });
    assert.equal(result.warmStarted, warm.warm_started);
    result.strategies.forEach((p, i) => close(p, strategies[i], `set ${i}`));
    close([result.nashConv], [nashConv], "NashConv");
  });
}

test("a run that misses the rule is followed by the fallback schedule (FALLBACK_DISCOUNT): same iterates as Python", () => {
  const { table, max_iterations: maxIterations } = fixtures.fallback;
  const [tolerance, classTolerance] = payoffTolerances(table);
  const result = run(table, maxIterations, null, { tolerance, classTolerance, fallbackDiscount: FALLBACK_DISCOUNT });
  assert.equal(result.schedule, fixtures.fallback.schedule);
  assert.equal(result.iterations, fixtures.fallback.iterations);
  result.strategies.forEach((p, i) => close(p, fixtures.fallback.strategies[i], `set ${i}`));
  close([result.nashConv], [fixtures.fallback.nash_conv], "NashConv");
  const without = run(table, maxIterations, null, { tolerance, classTolerance });
  assert.equal(without.schedule, "dcfr");
  assert.equal(without.iterations, maxIterations);
});

test("the warm-start fixtures cover a used start and a refused one (then the iterates are the cold start's)", () => {
  assert.deepEqual(fixtures.warm.map((w) => w.warm_started), [true, true, false]);
  const cold = run(fixtures.warm[2].table, fixtures.warm[2].iterations);
  cold.strategies.forEach((p, i) => close(p, fixtures.warm[2].strategies[i], `set ${i}`));
});

test("shouldStop cancels between iterations; a 3+-player table without the 3-way table is refused", () => {
  const table = fixtures.solved[1].table;
  let asked = 0;
  assert.throws(() => solvePushfold(table, equities, { shouldStop: () => ++asked >= 3 }), { name: "SolveCancelled" });
  assert.equal(asked, 3);
  const headsUpOnly = loadEquities(matchups, null);
  assert.throws(() => solvePushfold(table, headsUpOnly), /3-way table/);
});

test("the provisional 3-way table (heads-up results, the file's compatible counts) = kernels.threeway.pairwise's, quantised", () => {
  const { rows } = equities.triple;
  const counts = new Uint8Array(rows.length / ROW_BYTES * NO);
  for (let row = 0; row < counts.length / NO; row++) counts.set(rows.subarray(row * ROW_BYTES, row * ROW_BYTES + NO), row * NO);
  for (const [row, expected] of Object.entries(fixtures.pairwise.rows)) assert.deepEqual([...counts.subarray(row * NO, row * NO + NO)], expected, `row ${row}`);
  assert.equal(createHash("sha256").update(counts).digest("hex"), fixtures.pairwise.sha256);
  assert.throws(() => provisionalEquities(matchups, prefix.slice(0, THREEWAY_WEIGHTS_END - 1)), /truncated/);
  // the same table as the site's file: the header and compatible counts, then corrections and residuals that are all
  // zero (the table is the file's own prediction), are the bytes Python's writer gives (threeway_bin), and
  // loadEquities reads them back to the provisional table
  const file = new Uint8Array(THREEWAY_BYTES);
  file.set(new Uint8Array(prefix, 0, THREEWAY_WEIGHTS_END));
  assert.equal(createHash("sha256").update(file).digest("hex"), fixtures.pairwise.threeway_bin_sha256);
  const loaded = loadEquities(matchups, file.buffer);
  assert.ok(Buffer.from(loaded.triple.rows).equals(Buffer.from(rows)), "rows and compatible counts");
  assert.deepEqual(loaded.triple.norm, equities.triple.norm);
  const solution = solvePushfold(fixtures.ruled.table, loaded);
  assert.equal(solution.iterations, fixtures.ruled.iterations);
  for (const [seat, shoves] of Object.entries(fixtures.ruled.document.shove)) { // Python's lists the classes at 0 too
    for (const [name, p] of Object.entries(shoves)) assert.equal(solution.shove[seat][name] ?? 0, p, `${seat} ${name}`);
  }
});

/** The synthetic table's whole threeway.bin (uncompressed): its header and compatible counts, then its tail. */
function syntheticFile() {
  const tail = new Uint8Array(specTable("threeway-synthetic-tail.bin.gz"));
  const file = new Uint8Array(THREEWAY_WEIGHTS_END + tail.length);
  file.set(new Uint8Array(prefix, 0, THREEWAY_WEIGHTS_END));
  file.set(tail, THREEWAY_WEIGHTS_END);
  return file;
}

/** A triple table's counts, row after row (13 per row). */
function tableCounts({ rows }) {
  const counts = new Uint8Array(rows.length / ROW_BYTES * NO);
  for (let row = 0; row < counts.length / NO; row++) counts.set(rows.subarray(row * ROW_BYTES, row * ROW_BYTES + NO), row * NO);
  return counts;
}

test("threeway.bin.gz version 3 decodes to Python's counts: prediction, corrections and residuals (synthetic table)", () => {
  const file = syntheticFile();
  assert.equal(file.length, THREEWAY_BYTES);
  const counts = tableCounts(loadEquities(matchups, file.buffer).triple);
  for (const [row, expected] of Object.entries(fixtures.synthetic.rows)) assert.deepEqual([...counts.subarray(row * NO, row * NO + NO)], expected, `row ${row}`);
  assert.equal(createHash("sha256").update(counts).digest("hex"), fixtures.synthetic.sha256);
  // with the provisional table of the same matchups.bin at hand (the worker's case), its pairwise counts are reused
  const reused = loadEquities(matchups, file.buffer, provisionalEquities(matchups, prefix)).triple;
  assert.ok(Buffer.from(reused.rows).equals(Buffer.from(loadEquities(matchups, file.buffer).triple.rows)));
});

test("threeway.bin.gz: another version, another matchups.bin, a truncated or damaged file are refused", () => {
  const file = syntheticFile();
  const version2 = file.slice();
  version2[8] = 2;
  assert.throws(() => loadEquities(matchups, version2.buffer), /not a version 3 table/);
  assert.throws(() => loadEquities(matchups, file.slice(0, -1).buffer), /truncated/);
  const otherMatchups = new Uint8Array(matchups).slice();
  otherMatchups[100] ^= 1;
  assert.throws(() => loadEquities(otherMatchups.buffer, file.buffer), /another matchups\.bin/);
  const damaged = file.slice();
  damaged.fill(127, THREEWAY_BYTES - NO * 818_805); // every residual at its largest: counts above the scale
  assert.throws(() => loadEquities(matchups, damaged.buffer), /damaged/);
});

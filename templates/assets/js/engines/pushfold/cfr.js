// Discounted CFR and its stopping rule (kernels/pushfold/cfr.py): solveSteps / solvePushfold, the solution
// object, the reported units and tolerances.
// Pure ES module: no DOM, no globals (the solver's parts; pushfold-solver.js is their public face).

import * as C from "../constants.js";
import { Evaluator } from "./best-response.js";
import { makeGame, positionNames } from "./game.js";
import { CLASS_NAMES, K } from "./model.js";
import { Strategy } from "./strategy.js";

export const CHECK_EVERY = C.PUSHFOLD_CHECK_EVERY;
/** A warm start is used when its NashConv is ≤ START_WITHIN tolerances, with regrets of START_REGRET tolerances (as the build's tables). */
export const START_WITHIN = C.PUSHFOLD_START_WITHIN;
export const START_REGRET = C.PUSHFOLD_START_REGRET;
/** The stopping rule of `allin pushfold` and the build (spec/constants.json): NashConv ≤ 0.01 bb (chip EV) or ≤ 0.05% of the pool (ICM). */
export const TOLERANCE_BB = C.PUSHFOLD_NASH_CONV_BB;
export const TOLERANCE_POOL_PCT = C.PUSHFOLD_NASH_CONV_POOL_PCT;
/** The per-class rule (kernels.pushfold.RULE): every class's regret at every decision ≤ 0.01 bb / 0.01% of the pool. */
export const CLASS_TOLERANCE_BB = C.PUSHFOLD_CLASS_REGRET_BB;
export const CLASS_TOLERANCE_POOL_PCT = C.PUSHFOLD_CLASS_REGRET_POOL_PCT;
/** Heads-up tables are held tighter: the NashConv HEADS_UP_SCALE times (the heads-up threshold table's 1e-5 bb),
 *  class regrets HEADS_UP_CLASS_SCALE times. */
export const HEADS_UP_SCALE = C.PUSHFOLD_HEADS_UP_SCALE;
export const HEADS_UP_CLASS_SCALE = C.PUSHFOLD_HEADS_UP_CLASS_SCALE;
export const MAX_ITERATIONS = C.PUSHFOLD_MAX_ITERATIONS;
/** Answers are published as the build's charts are (kernels.pushfold.remove_residue): frequencies below ε (above 1 − ε)
 *  set to 0 (1) for the largest ε of RESIDUE_THRESHOLDS that still meets the stopping rule, rounded to DECIMALS. */
export const RESIDUE_THRESHOLDS = C.PUSHFOLD_RESIDUE_THRESHOLDS;
export const DECIMALS = C.PUSHFOLD_DECIMALS;

// ------------------------------------------------------------------------------------------- solving

/** Discounted CFR as kernels/pushfold/: regrets floored at 0, positive ones × t^α / (t^α + 1) after
 *  iteration t (α = DISCOUNT_POSITIVE), iteration t's strategies weighted by t^AVERAGE_POWER. */
export const DISCOUNT_POSITIVE = C.PUSHFOLD_DISCOUNT_POSITIVE;
export const AVERAGE_POWER = C.PUSHFOLD_AVERAGE_POWER;
/** α of the schedule a table is solved again with when discounted CFR misses the stopping rule
 *  (kernels.pushfold.FALLBACK_DISCOUNT): no discount of positive regrets (CFR+'s regrets, t² averages). */
export const FALLBACK_DISCOUNT = C.PUSHFOLD_FALLBACK_DISCOUNT;

/** t^α / (t^α + 1), the factor of positive regrets after iteration t; α = ∞: 1/2 after the first, then 1 (as Python's
 *  1 / (1 + t ** -α), where 1.0 ** -inf is 1: JavaScript's 1 ** -Infinity is NaN). */
function discountFactor(iteration, alpha) {
  if (alpha === Infinity) return iteration === 1 ? 0.5 : 1;
  return 1 / (1 + iteration ** -alpha);
}

function regretMatch(r0, r1) {
  const total = r0 + r1;
  return total > 0 ? r1 / total : 0.5;
}

/** Start strategy per information set from a solution object (missing classes: 0), or 1/2 everywhere. */
function startStrategy(game, start) {
  const names = positionNames(game.n);
  return game.infosets.map((info) => {
    if (!start) return new Float64Array(K).fill(0.5);
    const spot = info.shover === null ? start.shove?.[names[info.seat]] : start.call?.[spotName(names, info)];
    return Float64Array.from(CLASS_NAMES, (name) => Number(spot?.[name] ?? 0));
  });
}

/** "BB vs BTN+SB" for the call set of the BB facing the BTN's shove and the SB's call (as generator/compute/pushfold_records.spot_name). */
export function spotName(names, info) {
  return `${names[info.seat]} vs ` + [info.shover, ...info.before].map((s) => names[s]).join("+");
}

/**
 * Discounted CFR on a table, yielding after every iteration: {iteration, nashConv | null, classRegret | null}
 * (payoff units, at every check; then also `current`, the averages measured there, which solutionObject turns into
 * the answer so far). Returns {strategies (K-arrays per information set, as game.infosets),
 * nashConv, gains, values, classRegret, iterations, game, warmStarted, schedule}. Stops when the NashConv is ≤
 * `tolerance` and the worst class regret ≤ `classTolerance` (payoff units; null: NashConv only). `start`: a
 * solution object whose strategies start the regrets (`startRegret` · (1 − p, p), payoff units), used
 * only when its NashConv is ≤ `startWithin` (null: always), as kernels.pushfold.solve. With a
 * `fallbackDiscount` (FALLBACK_DISCOUNT), a run that misses the rule in `maxIterations` is followed by one with that
 * discount from the same start (iterations counted on; the result's `schedule` "cfr+", `iterations` both runs').
 * With `share: true` the caller has a helper (pushfold/helper.js) for part of the 3-way sums (shareTasks): it also
 * yields {dispatch: messages}, to be posted to the helper before calling next() at once, and {collect: count}, to
 * be answered by next(the helper's results, in order); the iterates, checks and result are those without it.
 */
export function* solveSteps(table, equities, options = {}) {
  const { tolerance, classTolerance = null, fallbackDiscount = null, share = false } = options;
  const game = makeGame(table);
  if (game.n > 2 && !equities.triple) throw new Error("3+ players need the 3-way table (threeway.bin.gz)");
  const meets = (result) => result.nashConv <= tolerance && (classTolerance === null || result.classRegret.regret <= classTolerance);
  const first = yield* cfrSteps(game, equities, options, DISCOUNT_POSITIVE, 0);
  if (meets(first)) return yield* removeResidue(equities, { ...first, schedule: "dcfr" }, tolerance, classTolerance, share);
  if (fallbackDiscount === null) return { ...first, schedule: "dcfr", residue: 0 };
  const second = yield* cfrSteps(game, equities, options, fallbackDiscount, first.iterations);
  const both = { ...second, iterations: first.iterations + second.iterations, schedule: "cfr+" };
  return meets(both) ? yield* removeResidue(equities, both, tolerance, classTolerance, share) : { ...both, residue: 0 };
}

/** 3-way work below this many multiply-adds is done here: a message to the helper and back costs about a millisecond. */
const SHARE_ABOVE = 2e6;

/** Complete the 3-way tasks of `evaluator` for `seats` (Evaluator.pending); with `share`, about half of their cost
 *  (largest first, each to the lighter side) goes to the caller's helper through the {dispatch} / {collect} yields
 *  of solveSteps while this thread computes the rest. Where a task runs does not change its result. */
function* completeTasks(evaluator, seats, share) {
  const tasks = evaluator.pending(seats);
  const total = tasks.reduce((sum, task) => sum + task.cost, 0);
  if (!share || total < SHARE_ABOVE) return evaluator.complete(tasks);
  const here = [], there = [];
  let balance = 0; // cost here − cost there
  for (const task of [...tasks].sort((a, b) => b.cost - a.cost)) {
    if (balance <= 0) here.push(task);
    else there.push(task);
    balance += balance <= 0 ? task.cost : -task.cost;
  }
  yield { dispatch: there.map((task) => evaluator.message(task)) };
  evaluator.complete(here);
  const results = yield { collect: there.length };
  there.forEach((task, i) => evaluator.fill(task, results[i]));
}

/** NumPy's rint: to the nearest integer, halves to the even one (np.round(x, DECIMALS) is rint(x · 10^DECIMALS) / 10^DECIMALS). */
function roundHalfEven(x) {
  const r = Math.round(x);
  return r - x === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

/** A result that meets the stopping rule, cleaned of the averages' residue (RESIDUE_THRESHOLDS, DECIMALS; a class's
 *  regret may rise to the result's own worst, never above it), with the figures of what is kept; `residue`: the ε
 *  used (0: none met the rule, the result is kept as it is). A generator, as solveSteps (`share`). */
function* removeResidue(equities, result, tolerance, classTolerance, share) {
  const limit = classTolerance === null ? Infinity : Math.max(classTolerance, result.classRegret.regret);
  const scale = 10 ** DECIMALS;
  for (const threshold of [...RESIDUE_THRESHOLDS].sort((a, b) => b - a)) {
    const cleaned = result.strategies.map((p) => Float64Array.from(p, (x) => roundHalfEven((x < threshold ? 0 : x > 1 - threshold ? 1 : x) * scale) / scale));
    const check = yield* measure(result.game, equities, cleaned, 1, result.iterations, share);
    if (check.nashConv <= tolerance && check.classRegret.regret <= limit) return { ...result, ...check, residue: threshold };
  }
  return { ...result, residue: 0 };
}

/** What a caller of solveSteps passes to `next()` after an iteration without a check to have the averages measured there
 *  and yielded with `current` (the answer so far) at once: the iterates, checks and result stay those of Python. */
export const MEASURE = "measure";

/** One run of discounted CFR with positive regrets discounted by α = `discount` (solveSteps); iterations are
 *  yielded numbered from `offset` + 1; `next(MEASURE)` after an iteration without a check yields it again, measured. */
function* cfrSteps(game, equities, { tolerance, classTolerance = null, maxIterations = MAX_ITERATIONS, checkEvery = CHECK_EVERY,
  start = null, startRegret = 1e-3, startWithin = null, share = false }, discount, offset) {
  const count = game.infosets.length;
  let scale = 0;
  let initial = startStrategy(game, null);
  let warmStarted = false;
  if (start) {
    const given = startStrategy(game, start);
    if (startWithin === null || (yield* measure(game, equities, given, 1, 0, share)).nashConv <= startWithin) {
      [scale, initial, warmStarted] = [startRegret, given, true];
    }
  }
  const regrets = initial.map((p) => {
    const r = new Float64Array(2 * K);
    for (let c = 0; c < K; c++) [r[2 * c], r[2 * c + 1]] = [scale * (1 - p[c]), scale * p[c]];
    return r;
  });
  const current = new Strategy(count, equities);
  const average = Array.from({ length: count }, () => new Float64Array(K));
  const bySeat = Array.from({ length: game.n }, () => []);
  game.infosets.forEach((info, i) => bySeat[info.seat].push(i));
  for (let i = 0; i < count; i++) {
    for (let c = 0; c < K; c++) current.p[i][c] = regretMatch(regrets[i][2 * c], regrets[i][2 * c + 1]);
    current.changed(i);
  }
  const evaluator = new Evaluator(game, equities, current);
  let weight = 0;
  let result = null;
  for (let iteration = 1; iteration <= maxIterations; iteration++) {
    for (let seat = 0; seat < game.n; seat++) {
      if (!bySeat[seat].length) continue;
      yield* completeTasks(evaluator, [seat], share);
      for (const [i, [fold, aggressive]] of evaluator.values([seat])) {
        const p = current.p[i];
        const r = regrets[i];
        for (let c = 0; c < K; c++) {
          const expected = (1 - p[c]) * fold[c] + p[c] * aggressive[c];
          r[2 * c] = Math.max(r[2 * c] + fold[c] - expected, 0);
          r[2 * c + 1] = Math.max(r[2 * c + 1] + aggressive[c] - expected, 0);
        }
        for (let c = 0; c < K; c++) p[c] = regretMatch(r[2 * c], r[2 * c + 1]);
        current.changed(i);
      }
    }
    const factor = discountFactor(iteration, discount);
    for (const r of regrets) for (let j = 0; j < r.length; j++) r[j] *= factor;
    const step = iteration ** AVERAGE_POWER;
    for (let i = 0; i < count; i++) for (let c = 0; c < K; c++) average[i][c] += step * current.p[i][c];
    weight += step;
    const schedule = discount === DISCOUNT_POSITIVE ? "dcfr" : "cfr+";
    const measured = function* () {
      const figures = { ...(yield* measure(game, equities, average, weight, iteration, share)), warmStarted };
      return [figures, { iteration: offset + iteration, nashConv: figures.nashConv, classRegret: figures.classRegret.regret,
        current: { ...figures, iterations: offset + iteration, schedule } }];
    };
    if (iteration % checkEvery === 0 || iteration === maxIterations) {
      let step;
      [result, step] = yield* measured();
      yield step;
      if (result.nashConv <= tolerance && (classTolerance === null || result.classRegret.regret <= classTolerance)) break;
    } else if ((yield { iteration: offset + iteration, nashConv: null, classRegret: null }) === MEASURE) {
      yield (yield* measured())[1]; // the answer so far: shown, never a reason to stop
    }
  }
  return result;
}

/** The figures of the strategies average / weight (a generator, as solveSteps with `share`). */
function* measure(game, equities, average, weight, iterations, share) {
  const strategy = new Strategy(average.length, equities);
  average.forEach((sum, i) => {
    for (let c = 0; c < K; c++) strategy.p[i][c] = sum[c] / weight;
    strategy.changed(i);
  });
  const evaluator = new Evaluator(game, equities, strategy);
  yield* completeTasks(evaluator, Array.from({ length: game.n }, (_, seat) => seat), share);
  const { gains, values, nashConv, classRegret, advantages } = evaluator.gains();
  return { game, strategies: strategy.p, nashConv, gains, values, classRegret, advantages, iterations };
}

/** {gains, values, nashConv} (payoff units) of given strategies (K-arrays per information set, in the
 *  order of the game's information sets: opens by seat, then call sets as make_game lists them). */
export function evaluateStrategies(table, equities, strategies) {
  const game = makeGame(table);
  const strategy = new Strategy(game.infosets.length, equities);
  strategies.forEach((p, i) => {
    strategy.p[i].set(p);
    strategy.changed(i);
  });
  return new Evaluator(game, equities, strategy).gains();
}

/** The information sets of a table, as solveSteps orders its strategies: [{seat, name, spot}]. */
export function infosetNames(table) {
  const n = table.stacks.length;
  const names = positionNames(n);
  return makeGame(table).infosets.map((info) => ({ seat: info.seat, name: info.shover === null ? names[info.seat] : spotName(names, info), open: info.shover === null }));
}

const round6 = (p) => Math.round(p * 1e6) / 1e6;

/** The solution object (docs/pushfold.md) of a finished solveSteps run: classes played with p = 0 are left out. */
export function solutionObject(table, result) {
  const names = positionNames(result.game.n);
  const shove = {}, call = {};
  result.game.infosets.forEach((info, i) => {
    const spot = {};
    result.strategies[i].forEach((p, c) => {
      const value = round6(p);
      if (value > 0) spot[CLASS_NAMES[c]] = value;
    });
    if (info.shover === null) shove[names[info.seat]] = spot;
    else call[spotName(names, info)] = spot;
  });
  const reported = result.nashConv / payoffPerUnit(table);
  const worst = result.classRegret;
  const worstReported = worst.regret / payoffPerUnit(table);
  const info = result.game.infosets[worst.info];
  const [tolerance, classTolerance] = payoffTolerances(table);
  return {
    positions: names,
    shove,
    call,
    exploitability: table.payouts == null ? { bb: reported, pool_pct: null } : { bb: null, pool_pct: reported },
    class_regret: {
      bb: table.payouts == null ? worstReported : null, pool_pct: table.payouts == null ? null : worstReported,
      spot: info.shover === null ? names[info.seat] : spotName(names, info), class: CLASS_NAMES[worst.class],
    },
    rule_met: result.nashConv <= tolerance && worst.regret <= classTolerance,
    ...(result.advantages ? { ev_gain: advantageObject(result, names, table) } : {}),
    iterations: result.iterations,
    schedule: result.schedule,
    values: Object.fromEntries(names.map((name, seat) => [name, result.values[seat]])),
    table: {
      stacks: table.stacks, blinds: table.blinds, ante: table.ante, bb_ante: table.bbAnte, payouts: table.payouts ?? null,
      ...(table.bounties == null ? {} : { bounties: table.bounties, bounty_share: table.bountyShare ?? 1 }),
    },
  };
}

/** {shove: {position: {class: gain}}, call: {spot: {class: gain}}}: what shoving (calling) is worth over folding for each
 *  class at the decision, in reported units, four decimals; classes that never reach the decision are left out. */
function advantageObject(result, names, table) {
  const unit = payoffPerUnit(table);
  const out = { shove: {}, call: {} };
  result.game.infosets.forEach((info, i) => {
    const spot = {};
    result.advantages[i]?.forEach((x, c) => {
      if (Number.isFinite(x)) spot[CLASS_NAMES[c]] = Math.round((x / unit) * 1e4) / 1e4;
    });
    if (info.shover === null) out.shove[names[info.seat]] = spot;
    else out.call[spotName(names, info)] = spot;
  });
  return out;
}

/** Reported units: NashConv in bb (chip EV) or in % of the pool (ICM). */
export function nashConvUnits(table) {
  return table.payouts == null ? "bb" : "pool_pct";
}

/** Payoff units per reported unit: 1 (bb) for chip EV, pool / 100 for ICM (% of the pool). */
export function payoffPerUnit(table) {
  return table.payouts == null ? 1 : table.payouts.reduce((a, b) => a + b, 0) / 100;
}

/** The stopping rule in payoff units, [NashConv, class regret] (kernels.pushfold.StoppingRule.tolerances):
 *  0.01 bb and 0.01 bb (chip EV) or 0.05% and 0.01% of the pool (ICM), heads-up HEADS_UP_SCALE and HEADS_UP_CLASS_SCALE times that;
 *  `tolerance`, when given, replaces the NashConv target (reported units). */
export function payoffTolerances(table, tolerance = null) {
  const chip = table.payouts == null;
  const headsUp = table.stacks.length === 2;
  const unit = payoffPerUnit(table);
  const nashConv = tolerance ?? (headsUp ? HEADS_UP_SCALE : 1) * (chip ? TOLERANCE_BB : TOLERANCE_POOL_PCT);
  return [nashConv * unit, (headsUp ? HEADS_UP_CLASS_SCALE : 1) * (chip ? CLASS_TOLERANCE_BB : CLASS_TOLERANCE_POOL_PCT) * unit];
}

/**
 * Solve a table: discounted CFR until it meets the stopping rule (payoffTolerances; `tolerance`: another NashConv
 * target, bb for chip EV, % of the pool for ICM) or `maxIterations`, then if need be again with FALLBACK_DISCOUNT. `onProgress({iteration, nashConv, classRegret})`
 * at every check (reported units); `shouldStop()` is asked after every iteration and, when true, the solve throws a
 * SolveCancelled error. `start`: a solution object to warm-start from; `fallbackDiscount`: null for exactly
 * `maxIterations` of discounted CFR. Returns a solution object.
 */
export function solvePushfold(table, equities, { tolerance, maxIterations = MAX_ITERATIONS, start = null, onProgress, shouldStop,
  fallbackDiscount = FALLBACK_DISCOUNT } = {}) {
  const toPayoff = payoffPerUnit(table);
  const [target, classTolerance] = payoffTolerances(table, tolerance);
  const steps = solveSteps(table, equities, { tolerance: target, classTolerance, maxIterations, start, fallbackDiscount });
  for (;;) {
    const { value, done } = steps.next();
    if (done) return solutionObject(table, value);
    if (value.nashConv !== null && onProgress) {
      onProgress({ iteration: value.iteration, nashConv: value.nashConv / toPayoff, classRegret: value.classRegret / toPayoff });
    }
    if (shouldStop && shouldStop()) throw new SolveCancelled();
  }
}

export class SolveCancelled extends Error {
  constructor() {
    super("the solve was cancelled");
    this.name = "SolveCancelled";
  }
}

// Independent Chip Model (Malmuth–Harville) in the browser: the same engine as kernels/icm/harville.py.
//
// Pure ES module: no DOM, no globals, safe to import from a Web Worker.
//   icm(stacks, payouts, {method, places}) -> {equity: number[], places: number[][] | null, method}
//   validateField(stacks, payouts) -> [{field: "stacks" | "payouts", index: number | null, message}]
//
// Model: every player gets an exponential clock with rate = chip share; players finish in the order
// their clocks ring. P(i finishes r+1-th) = ∫ x_i e^{-x_i t} PB_r^{(-i)}(t) dt, PB^{(-i)} the
// Poisson-binomial law of how many other clocks rang by t. The integral is taken by the trapezoid rule
// in a stretched variable (error ~1e-12 of the pool); fields of up to 10 players use the exact subset
// recursion. Conventions: zero stacks are busted and share the last places equally; more payouts than
// players is refused; at most 100,000 players. See docs/icm.md.


// The numbers kernels/icm/harville.py shares (units and meaning in spec/constants.json): limits and the choice of method,
// the quadrature (step h in v, the finer step for places, the stretch c, tails, the Poisson-binomial window, the
// series' cut, players per pass) and the bubble factors' grid (one shared by every all-in outcome field) and floors.
import {
  ICM_AUTO_DP_MAX_PLAYERS as AUTO_DP_MAX_PLAYERS, ICM_AUTO_FOURIER_LARGE_FIELD as AUTO_FOURIER_LARGE_FIELD,
  ICM_AUTO_FOURIER_MIN_PAID as AUTO_FOURIER_MIN_PAID, ICM_BUBBLE_STEP as BUBBLE_STEP, ICM_BUST_RATIO as BUST_RATIO,
  ICM_DP_MAX_PLAYERS as DP_MAX_PLAYERS, ICM_GAIN_FLOOR as GAIN_FLOOR, ICM_GROUP as GROUP, ICM_GROUP_SPREAD as GROUP_SPREAD,
  ICM_MAX_PLAYERS as MAX_PLAYERS, ICM_MIN_SHARE as MIN_SHARE, ICM_PAIR_TAIL as PAIR_TAIL, ICM_PLACES_STEP as PLACES_STEP,
  ICM_SERIES_TOL as SERIES_TOL, ICM_STEP as STEP, ICM_STRETCH as STRETCH, ICM_T_MIN as T_MIN, ICM_TAIL_MASS as TAIL_MASS,
  ICM_WINDOW_SIGMAS as WINDOW_SIGMAS,
} from "./constants.js";

export { AUTO_DP_MAX_PLAYERS, BUST_RATIO, DP_MAX_PLAYERS, MAX_PLAYERS };
const METHODS = ["auto", "dp", "integral", "fourier"];

// ------------------------------------------------------------------------------------ validation

// The typed-number grammar (lists, one number, payouts in % of the pool) lives in number-list.js, the
// twin of generator/core/numbers.py; re-exported here for the ICM pages and the worker.
export { PERCENT_ROUNDING, parseNumber, parseNumberList, parsePayouts } from "./number-list.js";
import { formatG } from "./python-format.js";
import { clockProbabilities as sortedClockProbabilities, fourierNode } from "./icm-fourier.js";

function parseEntry(value) {
  if (typeof value === "number") return value;
  if (typeof value === "string" && value.trim() !== "") return Number(value);
  return NaN;
}

/** `values` as numbers, or null after pushing {field, index, message} to `errors` (not a flat list, an
 * entry not a finite number, a negative entry), as _numeric_array in kernels/icm/harville.py. */
export function numericEntries(field, values, errors) {
  if (!Array.isArray(values) && !ArrayBuffer.isView(values)) {
    errors.push({ field, index: null, message: `${field}: expected a flat list of numbers` });
    return null;
  }
  const numbers = Array.from(values, parseEntry);
  for (let i = 0; i < numbers.length; i++) {
    if (Number.isNaN(numbers[i])) {
      errors.push({ field, index: i, message: `${field}: entry ${i + 1} is not a number (${values[i]})` });
      return null;
    }
    if (!Number.isFinite(numbers[i])) {
      errors.push({ field, index: i, message: `${field}: entry ${i + 1} is not a finite number (${numbers[i]})` });
      return null;
    }
  }
  const negative = numbers.findIndex((value) => value < 0);
  if (negative >= 0) {
    errors.push({ field, index: negative, message: `${field}: entry ${negative + 1} is negative (${formatG(numbers[negative])})` });
    return null;
  }
  return numbers;
}

/** Every problem with a field, one {field, index, message} each (empty when valid). Entries may be
 * numbers or numeric strings (form inputs). */
export function validateField(stacks, payouts) {
  const errors = [];
  const stackNumbers = numericEntries("stacks", stacks, errors);
  const payoutNumbers = numericEntries("payouts", payouts, errors);
  if (stackNumbers !== null) {
    if (stackNumbers.length === 0) {
      errors.push({ field: "stacks", index: null, message: "stacks: no players; give at least one stack" });
    } else if (stackNumbers.length > MAX_PLAYERS) {
      errors.push({
        field: "stacks",
        index: null,
        message: `stacks: ${stackNumbers.length} players is more than the limit of ${MAX_PLAYERS.toLocaleString("en-US")}`,
      });
    } else if (!stackNumbers.some((value) => value > 0)) {
      errors.push({ field: "stacks", index: null, message: "stacks: every stack is zero; at least one player needs chips" });
    }
  }
  if (payoutNumbers !== null) {
    if (payoutNumbers.length === 0) {
      errors.push({ field: "payouts", index: null, message: "payouts: no prizes; give at least one payout" });
    } else if (!payoutNumbers.some((value) => value > 0)) {
      errors.push({ field: "payouts", index: null, message: "payouts: every prize is zero; give at least one positive prize" });
    } else if (stackNumbers !== null && stackNumbers.length > 0 && stackNumbers.length < payoutNumbers.length) {
      errors.push({
        field: "payouts",
        index: stackNumbers.length,
        message: `payouts: ${payoutNumbers.length} prizes for ${stackNumbers.length} players; give at most one prize per player`,
      });
    }
  }
  return errors;
}

/** Shares of the chips summing to 1 (scaled by the largest stack first); tiny shares become 0. */
export function chipShares(stacks) {
  const largest = stacks.reduce((most, stack) => Math.max(most, stack), 0);
  const scaled = stacks.map((stack) => stack / largest);
  const total = scaled.reduce((sum, value) => sum + value, 0);
  const shares = scaled.map((value) => (value / total < MIN_SHARE ? 0 : value / total));
  const kept = shares.reduce((sum, value) => sum + value, 0);
  return shares.map((share) => share / kept);
}

// ----------------------------------------------------------------------------- exact subset DP

/** Exact place probabilities (n rows × paid) by the subset recursion, O(n 2^n); shares positive. */
export function dpPlaces(shares, paid) {
  const n = shares.length;
  if (n > DP_MAX_PLAYERS) throw new Error(`the subset DP handles at most ${DP_MAX_PLAYERS} players (got ${n})`);
  const size = 1 << n;
  const full = size - 1;
  const chipsIn = new Float64Array(size);
  const popcount = new Int8Array(size);
  for (let mask = 1; mask < size; mask++) {
    const low = mask & -mask;
    chipsIn[mask] = chipsIn[mask ^ low] + shares[31 - Math.clz32(low)];
    popcount[mask] = popcount[mask ^ low] + 1;
  }
  const reach = new Float64Array(size);
  reach[0] = 1;
  const places = Array.from({ length: n }, () => new Array(paid).fill(0));
  for (let mask = 0; mask < size; mask++) {
    const place = popcount[mask];
    if (place >= paid || reach[mask] === 0) continue;
    const remaining = chipsIn[full ^ mask];
    for (let j = 0; j < n; j++) {
      if (mask & (1 << j)) continue;
      const step = (reach[mask] * shares[j]) / remaining;
      places[j][place] += step;
      if (place + 1 < paid) reach[mask | (1 << j)] += step;
    }
  }
  return places;
}

// ------------------------------------------------------------------------------ quadrature in t

/** {values, counts}: the shares sorted and merged into groups whose largest is at most (1 + GROUP_SPREAD)
 * times their smallest, each standing as its count times its mean share (kernels/icm/harville.py _share_groups). */
function shareGroups(shares) {
  const ordered = Float64Array.from(shares).sort();
  const values = [];
  const counts = [];
  for (let start = 0; start < ordered.length;) {
    let stop = start;
    let total = 0;
    while (stop < ordered.length && ordered[stop] <= ordered[start] * (1 + GROUP_SPREAD)) total += ordered[stop++];
    values.push(total / (stop - start));
    counts.push(stop - start);
    start = stop;
  }
  return { values: Float64Array.from(values), counts: Float64Array.from(counts) };
}

/** [v(t), v'(t)] for v(t) = -log log(1 + 1/t) + 2c sqrt(9 + mu(t)), mu summed over the share groups. */
function stretched({ values, counts }, t) {
  let mu = 0;
  let slope = 0;
  for (let g = 0; g < values.length; g++) {
    mu -= counts[g] * Math.expm1(-values[g] * t);
    slope += counts[g] * values[g] * Math.exp(-values[g] * t);
  }
  const logTerm = Math.log1p(1 / t);
  const root = Math.sqrt(9 + mu);
  return [-Math.log(logTerm) + 2 * STRETCH * root, 1 / (t * logTerm) / (t + 1) + (STRETCH * slope) / root];
}

function logFactorial(m) {
  if (m < 20) {
    let total = 0;
    for (let i = 2; i <= m; i++) total += Math.log(i);
    return total;
  }
  const x = m + 1;
  return (x - 0.5) * Math.log(x) - x + 0.5 * Math.log(2 * Math.PI) + 1 / (12 * x) - 1 / (360 * x ** 3) + 1 / (1260 * x ** 5);
}

function logUnfinishedBound(shares, paid, t) {
  let mu = 0;
  let running = 0;
  for (let j = 0; j < shares.length; j++) {
    mu -= Math.expm1(-shares[j] * t);
    running += Math.exp(-shares[j] * t);
  }
  let bound = 0;
  const slack = mu - (paid - 1);
  if (slack > 0) bound = (-slack * slack) / (2 * mu);
  const alive = shares.length - paid + 1;
  if (running > 0) return Math.min(bound, alive * Math.log(running) - logFactorial(alive));
  return -Infinity;
}

function upperTime(shares, paid) {
  const target = Math.log(TAIL_MASS);
  let high = 1;
  while (logUnfinishedBound(shares, paid, high) > target) high *= 2;
  let low = high / 2;
  for (let i = 0; i < 60; i++) {
    const mid = Math.sqrt(low * high);
    if (logUnfinishedBound(shares, paid, mid) > target) low = mid;
    else high = mid;
    if (high / low < 1.01) break;
  }
  return high;
}

function solveStretched(groups, target, start, startValue, startSlope) {
  let low = Math.log(start);
  let high = Infinity;
  let u = low + (target - startValue) / (startSlope * start);
  for (let i = 0; i < 200; i++) {
    const t = Math.exp(u);
    const [value, derivative] = stretched(groups, t);
    if (Math.abs(value - target) <= 1e-13 * Math.max(1, Math.abs(target))) return [t, derivative];
    if (value < target) low = u;
    else high = u;
    let candidate = u - (value - target) / (derivative * t);
    if (!(low < candidate && candidate < high)) {
      candidate = high < Infinity ? 0.5 * (low + high) : low + 2 * (u - low) + 1;
    }
    u = candidate;
  }
  return [Math.exp(u), stretched(groups, Math.exp(u))[1]];
}

/** Trapezoid nodes and weights on the uniform grid v(T_MIN) + j·step: {times, weights}. */
export function quadratureNodes(shares, paid, step = STEP) {
  return quadratureTo(shares, upperTime(shares, paid), step);
}

/** The grid of quadratureNodes from T_MIN up to a given end time tMax. */
function quadratureTo(shares, tMax, step) {
  const groups = shareGroups(shares);
  let [vMin, slope] = stretched(groups, T_MIN);
  const vMax = stretched(groups, tMax)[0];
  const count = Math.ceil((vMax - vMin) / step) + 1;
  const times = new Float64Array(count);
  const weights = new Float64Array(count);
  let t = T_MIN;
  times[0] = t;
  weights[0] = step / slope;
  for (let j = 1; j < count; j++) {
    [t, slope] = solveStretched(groups, vMin + j * step, t, vMin + (j - 1) * step, slope);
    times[j] = t;
    weights[j] = step / slope;
  }
  return { times, weights };
}

// -------------------------------------------------------------------- Poisson-binomial at one node

function groupPolynomial(fired, quiet, start, taps) {
  taps.fill(0);
  taps[0] = 1;
  const stop = Math.min(start + GROUP, fired.length);
  for (let j = start; j < stop; j++) {
    for (let degree = j - start + 1; degree > 0; degree--) {
      taps[degree] = quiet[j] * taps[degree] + fired[j] * taps[degree - 1];
    }
    taps[0] *= quiet[j];
  }
}

/** Coefficients 0..length-1 of prod_j (quiet_j + fired_j z), windowed as in kernels/icm/harville.py. */
function poissonBinomial(fired, quiet, length) {
  const pad = GROUP;
  let current = new Float64Array(length + 2 * pad);
  let following = new Float64Array(length + 2 * pad);
  const taps = new Float64Array(GROUP + 1);
  current[pad] = 1;
  let low = 0;
  let high = 0;
  let mean = 0;
  let variance = 0;
  for (let start = 0; start < fired.length; start += GROUP) {
    groupPolynomial(fired, quiet, start, taps);
    const stop = Math.min(start + GROUP, fired.length);
    for (let j = start; j < stop; j++) {
      mean += fired[j];
      variance += fired[j] * quiet[j];
    }
    const spread = WINDOW_SIGMAS * Math.sqrt(variance) + (WINDOW_SIGMAS * WINDOW_SIGMAS) / 3;
    const newHigh = Math.min(high + stop - start, length - 1, Math.trunc(mean + spread) + 1);
    const newLow = Math.max(low, Math.trunc(mean - spread));
    if (newLow > newHigh) return { pb: new Float64Array(length), low: 0, high: 0 };
    const [t0, t1, t2, t3, t4, t5, t6, t7, t8] = taps;
    for (let r = newLow + pad; r <= newHigh + pad; r++) {
      following[r] =
        t0 * current[r] + t1 * current[r - 1] + t2 * current[r - 2] + t3 * current[r - 3] +
        t4 * current[r - 4] + t5 * current[r - 5] + t6 * current[r - 6] + t7 * current[r - 7] +
        t8 * current[r - 8];
    }
    following.fill(0, newLow, newLow + pad);
    following.fill(0, newHigh + pad + 1, newHigh + 2 * pad + 1);
    [current, following] = [following, current];
    low = newLow;
    high = newHigh;
  }
  const pb = new Float64Array(length);
  pb.set(current.subarray(low + pad, high + pad + 1), low);
  return { pb, low, high };
}

function seriesLength(ratio, limit) {
  if (ratio <= 0) return 1;
  if (ratio >= 1) return limit;
  return Math.min(limit, Math.trunc(Math.log(SERIES_TOL) / Math.log(ratio)) + 1);
}

function clockProbabilities(shares, t) {
  const n = shares.length;
  const fired = new Float64Array(n);
  const quiet = new Float64Array(n);
  let anyBackward = false;
  for (let j = 0; j < n; j++) {
    fired[j] = -Math.expm1(-shares[j] * t);
    quiet[j] = Math.exp(-shares[j] * t);
    if (fired[j] > quiet[j]) anyBackward = true;
  }
  return { fired, quiet, anyBackward };
}

/** outs[v][i] = x_i e^{-x_i t} Σ_r a^v_r PB_r^{(-i)}(t) for payout vectors a^v of one length (the
 * Poisson-binomial product is built once): short series in p/q (or q/p) per player. */
function nodeEquities(shares, vectors, t, outs) {
  const n = shares.length;
  const paid = vectors[0].length;
  const { fired, quiet, anyBackward } = clockProbabilities(shares, t);
  const { pb, low, high } = poissonBinomial(fired, quiet, anyBackward ? n + 1 : paid);
  let forwardTerms = 1;
  let backwardTerms = 1;
  for (let j = 0; j < n; j++) {
    if (fired[j] <= quiet[j]) forwardTerms = Math.max(forwardTerms, seriesLength(fired[j] / quiet[j], paid - low));
    else backwardTerms = Math.max(backwardTerms, seriesLength(quiet[j] / fired[j], high));
  }
  vectors.forEach((payouts, v) => {
    const out = outs[v];
    const forward = new Float64Array(forwardTerms);
    for (let d = 0; d < forwardTerms; d++) {
      let total = 0;
      for (let r = low; r < paid - d; r++) total += payouts[r + d] * pb[r];
      forward[d] = total;
    }
    const backward = new Float64Array(backwardTerms);
    if (anyBackward) {
      for (let m = 0; m < backwardTerms; m++) {
        let total = 0;
        const stop = Math.min(paid, high - m);
        for (let r = Math.max(0, low - 1 - m); r < stop; r++) total += payouts[r] * pb[r + 1 + m];
        backward[m] = total;
      }
    }
    for (let i = 0; i < n; i++) {
      if (fired[i] <= quiet[i]) {
        const ratio = fired[i] / quiet[i];
        let acc = 0;
        for (let d = seriesLength(ratio, forwardTerms) - 1; d >= 0; d--) acc = forward[d] - ratio * acc;
        out[i] = shares[i] * acc;
      } else {
        const ratio = quiet[i] / fired[i];
        let acc = 0;
        for (let m = seriesLength(ratio, backwardTerms) - 1; m >= 0; m--) acc = backward[m] - ratio * acc;
        out[i] = shares[i] * ratio * acc;
      }
    }
  });
}

/** out[i][r] = x_i e^{-x_i t} PB_r^{(-i)}(t), r < paid, by stable forward/backward division. */
function nodePlaces(shares, paid, t, out) {
  const n = shares.length;
  const { fired, quiet, anyBackward } = clockProbabilities(shares, t);
  const { pb, low, high } = poissonBinomial(fired, quiet, anyBackward ? n + 1 : paid);
  for (let i = 0; i < n; i++) {
    const row = out[i];
    row.fill(0);
    if (fired[i] <= quiet[i]) {
      const ratio = fired[i] / quiet[i];
      let previous = 0;
      for (let r = low; r < paid; r++) {
        previous = shares[i] * pb[r] - ratio * previous;
        row[r] = previous;
      }
    } else {
      const inverse = quiet[i] / fired[i];
      let following = 0;
      for (let r = high - 1; r >= 0; r--) {
        following = inverse * (shares[i] * pb[r + 1] - following);
        if (r < paid) row[r] = following;
      }
    }
  }
}

function paidPrefix(payouts) {
  let last = payouts.length - 1;
  while (last > 0 && payouts[last] === 0) last--;
  return payouts.slice(0, last + 1);
}

/**
 * Σ over the quadrature nodes of weight × integrand for each payout vector (all of one length paid <= m;
 * live shares (m) summing to 1): the leave-one-out series (method "integral", nodeEquities) or the
 * characteristic function ("fourier", icm-fourier.js, on the shares sorted ascending as in
 * kernels/icm/harville.py fourier_equity). Returns one Float64Array(m) of equities per vector.
 */
function integralSums(shares, vectors, method) {
  const m = shares.length;
  const order = Array.from(shares.keys());
  if (method === "fourier") order.sort((a, b) => shares[a] - shares[b] || a - b);
  const ordered = Float64Array.from(order, (i) => shares[i]);
  const { times, weights } = quadratureNodes(ordered, vectors[0].length, STEP);
  const fired = new Float64Array(m);
  const quiet = new Float64Array(m);
  const nodes = vectors.map(() => new Float64Array(m));
  const sums = vectors.map(() => new Float64Array(m));
  const largest = vectors.map((vector) => vector.reduce((most, prize) => Math.max(most, Math.abs(prize)), 0));
  for (let j = 0; j < times.length; j++) {
    if (method === "fourier") {
      sortedClockProbabilities(ordered, times[j], fired, quiet);
      fourierNode(ordered, vectors, largest, fired, quiet, nodes);
    } else {
      nodeEquities(ordered, vectors, times[j], nodes);
    }
    for (let v = 0; v < vectors.length; v++) {
      const [node, sum, weight] = [nodes[v], sums[v], weights[j]];
      for (let k = 0; k < m; k++) sum[k] += weight * node[k];
    }
  }
  return sums.map((sum) => {
    const equity = new Float64Array(m);
    order.forEach((player, k) => (equity[player] = sum[k]));
    return equity;
  });
}

/** Prize equity by the integral method ("integral" or "fourier"); shares positive summing to 1,
 * payouts.length <= n. */
export function integralEquity(shares, payouts, method = "integral") {
  return Array.from(integralSums(shares, [Float64Array.from(paidPrefix(payouts))], method)[0]);
}

/** Place probabilities (n rows × paid) by the integral method. */
export function integralPlaces(shares, paid) {
  const { times, weights } = quadratureNodes(shares, paid, PLACES_STEP);
  const places = Array.from({ length: shares.length }, () => new Array(paid).fill(0));
  const node = Array.from({ length: shares.length }, () => new Float64Array(paid));
  for (let j = 0; j < times.length; j++) {
    nodePlaces(shares, paid, times[j], node);
    for (let i = 0; i < shares.length; i++) {
      for (let r = 0; r < paid; r++) places[i][r] += weights[j] * node[i][r];
    }
  }
  return places;
}

// ------------------------------------------------------------------------------------ front door

/** The checks and set-up shared by icm() and bubbleFactors(): numbers, chip shares, the players with
 * chips (live) and without (busted); `methods` are the names accepted. Throws Error on invalid input. */
function preparedField(stacks, payouts, method, methods) {
  if (!methods.includes(method)) {
    throw new Error(`unknown ICM method ${method} (expected ${methods.slice(0, -1).join(", ")} or ${methods.at(-1)})`);
  }
  const errors = validateField(stacks, payouts);
  if (errors.length) throw new Error(errors.map((error) => error.message).join("; "));
  const stackNumbers = Array.from(stacks, Number);
  const prizes = Array.from(payouts, Number);
  const shares = chipShares(stackNumbers);
  const live = [];
  const busted = [];
  shares.forEach((share, i) => (share > 0 ? live : busted).push(i));
  return { stackNumbers, prizes, shares, live, busted };
}

/** The method "auto" resolves to for `live` players with chips and `paid` places they can take
 * (kernels/icm/harville.py _equity_method): the DP up to AUTO_DP_MAX_PLAYERS; beyond, the place recurrences when
 * places are wanted, else the characteristic function from AUTO_FOURIER_MIN_PAID paid places (or
 * AUTO_FOURIER_LARGE_FIELD) and the series below. */
function equityMethod(method, live, paid, places) {
  if (method !== "auto") return method;
  if (live <= AUTO_DP_MAX_PLAYERS) return "dp";
  const [large, largePaid] = AUTO_FOURIER_LARGE_FIELD;
  const faster = paid >= AUTO_FOURIER_MIN_PAID || (live >= large && paid >= largePaid);
  return !places && faster ? "fourier" : "integral";
}

/**
 * ICM prize equity of every player and (unless places: false) the paid-place probabilities.
 * stacks: chips >= 0; payouts: prizes >= 0 for places 1..k, k <= stacks.length.
 * method: "dp", "integral" (leave-one-out series), "fourier" (characteristic function; places, when
 * wanted, from the integral's recurrences) or "auto" (equityMethod: the DP up to 10 players with chips).
 * Returns {equity: number[], places: number[][] | null, method}. Throws Error on invalid input.
 */
export function icm(stacks, payouts, { method = "auto", places = true } = {}) {
  const { stackNumbers, prizes, shares, live, busted } = preparedField(stacks, payouts, method, METHODS);
  const paid = prizes.length;
  const livePaid = Math.min(paid, live.length);
  const chosen = equityMethod(method, live.length, livePaid, places);
  if (chosen === "dp" && live.length > DP_MAX_PLAYERS) {
    throw new Error(`method 'dp' handles at most ${DP_MAX_PLAYERS} players with chips (got ${live.length})`);
  }
  const liveShares = live.map((i) => shares[i]);
  const bustedPrize = prizes.slice(live.length).reduce((sum, prize) => sum + prize, 0) / Math.max(busted.length, 1);
  let table = null;
  if (places || chosen === "dp") {
    const liveTable = chosen === "dp" ? dpPlaces(liveShares, livePaid) : integralPlaces(liveShares, livePaid);
    table = stackNumbers.map(() => new Array(paid).fill(0));
    live.forEach((player, row) => liveTable[row].forEach((probability, r) => (table[player][r] = probability)));
    busted.forEach((player) => {
      for (let r = live.length; r < paid; r++) table[player][r] = 1 / busted.length;
    });
    if (chosen !== "fourier") {
      const equity = table.map((row) => row.reduce((sum, probability, r) => sum + probability * prizes[r], 0));
      return { equity, places: places ? table : null, method: chosen };
    }
  }
  const equity = new Array(stackNumbers.length).fill(0);
  const liveEquity = integralEquity(liveShares, prizes.slice(0, livePaid), chosen);
  live.forEach((player, row) => (equity[player] = liveEquity[row]));
  busted.forEach((player) => (equity[player] = bustedPrize));
  return { equity, places: table, method: chosen };
}

// ------------------------------------------------------------------ big fields: what a player reads first

/** 1 + E[others ringing before i] = 1 + ∫ x_i e^{-x_i t} (μ(t) - p_i(t)) dt for live shares, on a grid
 * that runs until the slowest clock has rung (past PAIR_TAIL / x_min). Expected finishing place (n). */
function expectedFinish(shares) {
  const n = shares.length;
  const { times, weights } = quadratureTo(shares, PAIR_TAIL / Math.min(...shares), STEP);
  const finish = new Float64Array(n).fill(1);
  for (let j = 0; j < times.length; j++) {
    const t = times[j];
    let mu = 0;
    for (let i = 0; i < n; i++) mu -= Math.expm1(-shares[i] * t);
    for (let i = 0; i < n; i++) finish[i] += weights[j] * shares[i] * Math.exp(-shares[i] * t) * (mu + Math.expm1(-shares[i] * t));
  }
  return finish;
}

/**
 * A big field as a player reads it, without the n × k place table: for every player the prize
 * equity, P(cash) (any paid place), P(final table) (the first `finalTable` places), the expected
 * finishing place, and P(finishing within each band of places) — each the equity of an indicator
 * payout vector, all on one pass of the integral (integralSums). bands: [[first, last], ...], 1-based
 * places, last <= number of players. Returns {equity, cash, finalTable, finish, bands: number[][]
 * (one row of n per band), method}. Throws Error on invalid input.
 */
export function fieldSummary(stacks, payouts, { bands = [], finalTable = 9 } = {}) {
  const errors = validateField(stacks, payouts);
  if (errors.length) throw new Error(errors.map((error) => error.message).join("; "));
  const stackNumbers = Array.from(stacks, Number);
  const prizes = Array.from(payouts, Number);
  const n = stackNumbers.length;
  const shares = chipShares(stackNumbers);
  const live = [];
  const busted = [];
  shares.forEach((share, i) => (share > 0 ? live : busted).push(i));
  const m = live.length;
  const indicator = (first, last) => Array.from({ length: n }, (_, r) => (r >= first - 1 && r < last ? 1 : 0));
  const vectors = [prizes.concat(new Array(n - prizes.length).fill(0)), indicator(1, prizes.length),
    indicator(1, Math.min(finalTable, n)), ...bands.map(([first, last]) => indicator(first, last))];
  const length = Math.max(1, ...vectors.map((v) => v.findLastIndex((x) => x !== 0) + 1));
  const results = vectors.map(() => new Array(n).fill(0));
  const liveShares = live.map((i) => shares[i]);
  const livePaid = Math.min(length, m);
  const method = equityMethod("auto", m, livePaid, false);
  if (method === "dp") {
    const table = dpPlaces(liveShares, livePaid);
    vectors.forEach((vector, v) => live.forEach((player, row) => {
      results[v][player] = table[row].reduce((sum, p, r) => sum + p * vector[r], 0);
    }));
  } else {
    const cut = vectors.map((vector) => Float64Array.from(vector.slice(0, livePaid)));
    integralSums(liveShares, cut, method).forEach((sum, v) => live.forEach((player, row) => { results[v][player] = sum[row]; }));
  }
  vectors.forEach((vector, v) => busted.forEach((player) => {
    results[v][player] = vector.slice(m).reduce((sum, x) => sum + x, 0) / busted.length;
  }));
  const finish = new Array(n).fill(m + (busted.length + 1) / 2);
  const liveFinish = expectedFinish(liveShares);
  live.forEach((player, row) => { finish[player] = liveFinish[row]; });
  const [equity, cash, finalTableChance, ...bandChances] = results;
  return { equity, cash, finalTable: finalTableChance, finish, bands: bandChances, method };
}

/** Player indices by stack, largest first (ties by player number). */
export function stackOrder(stacks) {
  return Array.from(stacks, (stack, i) => [Number(stack), i]).sort((a, b) => b[0] - a[0] || a[1] - b[1]).map(([, i]) => i);
}

/** Mean of `chances` (one per player) over each of `groups` runs of players in `order` (as equal as
 * possible): the rows of the aggregated place heatmap. Returns [{first, last, mean}] with 1-based ranks. */
export function groupMeans(order, chances, groups) {
  const out = [];
  for (let g = 0; g < groups; g++) {
    const [start, stop] = [Math.floor((g * order.length) / groups), Math.floor(((g + 1) * order.length) / groups)];
    if (stop <= start) continue;
    let sum = 0;
    for (let k = start; k < stop; k++) sum += chances[order[k]];
    out.push({ first: start + 1, last: stop, mean: sum / (stop - start) });
  }
  return out;
}

// ------------------------------------------------------------------ bubble factors, risk premium

/** out[0..size) = c / (quiet + fired z), c zero outside [low, high]: forward when fired <= quiet
 * (coefficients below size only), else backward from the top. Returns the quotient's [low, high]. */
function divideFactor(c, low, high, fired, quiet, size, out) {
  out.fill(0, 0, size);
  if (fired <= quiet) {
    let previous = 0;
    const stop = Math.min(high, size - 1);
    for (let r = low; r <= stop; r++) {
      previous = (c[r] - fired * previous) / quiet;
      out[r] = previous;
    }
    return [low, high];
  }
  if (high < 1) return [0, 0];
  let following = 0;
  const bottom = Math.max(low - 1, 0);
  for (let r = high - 1; r >= bottom; r--) {
    following = (c[r + 1] - quiet * following) / fired;
    out[r] = following;
  }
  return [bottom, high - 1];
}

/** Σ_{r < limit} a_r [y (quiet + fired z)]_r. */
function withFactorSum(payouts, limit, y, fired, quiet) {
  let total = payouts[0] * quiet * y[0];
  for (let r = 1; r < limit; r++) total += payouts[r] * (quiet * y[r] + fired * y[r - 1]);
  return total;
}

/**
 * Every all-in outcome on one grid (kernels/icm/harville.py _pair_equities): at each node the law of the
 * others of w and l is the full Poisson-binomial product with their two factors divided out; each
 * outcome multiplies one new factor back in. shares (m) of the players with chips, payouts (k <= m),
 * wonShare[w][l] / lostShare[l][w] the winner's / loser's share after w beats l (0: busted).
 * Returns {base: Float64Array(m), won, lost: Float64Array(m)[]} (lost[l][w] left 0 where l busts).
 */
function pairEquitiesOnGrid(shares, payouts, wonShare, lostShare, times, weights) {
  const m = shares.length;
  const paid = payouts.length;
  const base = new Float64Array(m);
  const won = Array.from({ length: m }, () => new Float64Array(m));
  const lost = Array.from({ length: m }, () => new Float64Array(m));
  const leaveOne = Array.from({ length: m }, () => new Float64Array(m + 1));
  const windows = Array.from({ length: m }, () => [0, 0]);
  const leaveTwo = new Float64Array(m + 1);
  for (let node = 0; node < times.length; node++) {
    const t = times[node];
    const weight = weights[node];
    const { fired, quiet, anyBackward } = clockProbabilities(shares, t);
    const size = anyBackward ? m + 1 : paid;
    const { pb, low, high } = poissonBinomial(fired, quiet, size);
    for (let i = 0; i < m; i++) {
      windows[i] = divideFactor(pb, low, high, fired[i], quiet[i], size, leaveOne[i]);
      let total = 0;
      for (let r = 0; r < paid; r++) total += payouts[r] * leaveOne[i][r];
      base[i] += weight * shares[i] * quiet[i] * total;
    }
    for (let i = 0; i < m; i++) {
      for (let j = i + 1; j < m; j++) {
        const first = fired[i] <= quiet[i] ? j : i; // a forward division last needs only `paid` terms
        const second = first === i ? j : i;
        divideFactor(leaveOne[first], windows[first][0], windows[first][1], fired[second], quiet[second],
          fired[second] <= quiet[second] ? paid : size, leaveTwo);
        for (let side = 0; side < 2; side++) {
          const winner = side === 0 ? i : j;
          const loser = side === 0 ? j : i;
          const up = wonShare[winner][loser];
          const down = lostShare[loser][winner];
          const upQuiet = Math.exp(-up * t);
          const downQuiet = Math.exp(-down * t);
          const limit = down > 0 ? paid : Math.min(paid, m - 1);
          won[winner][loser] += weight * up * upQuiet * withFactorSum(payouts, limit, leaveTwo, -Math.expm1(-down * t), downQuiet);
          if (down > 0) {
            lost[loser][winner] += weight * down * downQuiet * withFactorSum(payouts, paid, leaveTwo, -Math.expm1(-up * t), upQuiet);
          }
        }
      }
    }
  }
  return { base, won, lost };
}

/** {base, won, lost} for live shares (m, summing to 1), as _integral_pair_equities in kernels/icm/harville.py:
 * the busted loser's equity filled in (he shares places m.. with `busted` players already out). */
function integralPairEquities(shares, payouts, busted) {
  const m = shares.length;
  const livePrizes = Float64Array.from(paidPrefix(payouts.slice(0, Math.min(payouts.length, m))));
  const wonShare = shares.map((x, w) => shares.map((y) => x + Math.min(x, y)));
  const gone = shares.map((x, l) => shares.map((y) => x - Math.min(x, y) <= y * BUST_RATIO));
  const lostShare = shares.map((x, l) => shares.map((y, w) => (gone[l][w] ? 0 : x - Math.min(x, y))));
  let tEnd;
  if (livePrizes.length + 2 <= m) {
    tEnd = upperTime(shares, livePrizes.length + 2);
  } else {
    let smallest = Math.min(...shares);
    lostShare.forEach((row) => row.forEach((x) => { if (x > 0) smallest = Math.min(smallest, x); }));
    tEnd = PAIR_TAIL / smallest;
  }
  const { times, weights } = quadratureTo(shares, tEnd, BUBBLE_STEP);
  const result = pairEquitiesOnGrid(shares, livePrizes, wonShare, lostShare, times, weights);
  const bustedPrize = payouts.slice(m - 1).reduce((sum, prize) => sum + prize, 0) / (busted + 1);
  for (let l = 0; l < m; l++) for (let w = 0; w < m; w++) if (gone[l][w]) result.lost[l][w] = bustedPrize;
  return result;
}

/** i's and j's equity after `winner` takes min(stack_w, stack_l) from `loser` (kernels/icm/harville.py). */
function pairOutcomeEquity(stacks, payouts, winner, loser) {
  const moved = stacks.slice();
  const amount = Math.min(stacks[winner], stacks[loser]);
  moved[winner] += amount;
  moved[loser] -= amount;
  if (moved[loser] <= stacks[winner] * BUST_RATIO) moved[loser] = 0;
  const { equity } = icm(moved, payouts, { method: "dp", places: false });
  return [equity[winner], equity[loser]];
}

/**
 * ICM equity before and after an all-in between every ordered pair of players with chips, for
 * min(stack_w, stack_l) chips with every other stack unchanged, as pair_equities in kernels/icm/harville.py:
 * "dp" = one exact DP per ordered pair; "integral" = every outcome field on one quadrature grid,
 * O(N m² W). Returns {base: number[], won, lost: (number|null)[][], method}: won[w][l] = w's equity
 * after beating l, lost[l][w] = l's after losing to w; null on the diagonal and for players without chips.
 */
export function pairEquities(stacks, payouts, { method = "auto" } = {}) {
  const { stackNumbers, prizes, shares, live } = preparedField(stacks, payouts, method, ["auto", "dp", "integral"]);
  const chosen = method !== "auto" ? method : live.length <= AUTO_DP_MAX_PLAYERS ? "dp" : "integral";
  const n = stackNumbers.length;
  const won = emptyMatrix(n);
  const lost = emptyMatrix(n);
  let base;
  if (chosen === "dp") {
    const largest = Math.max(...stackNumbers);
    const scaled = stackNumbers.map((stack) => stack / largest); // 1e308 + 1e308 would overflow
    base = icm(scaled, prizes, { method: "dp", places: false }).equity;
    for (const winner of live) {
      for (const loser of live) {
        if (winner !== loser) [won[winner][loser], lost[loser][winner]] = pairOutcomeEquity(scaled, prizes, winner, loser);
      }
    }
  } else {
    const bustedPrize = prizes.slice(live.length).reduce((sum, prize) => sum + prize, 0) / Math.max(n - live.length, 1);
    base = new Array(n).fill(bustedPrize);
    const fast = integralPairEquities(live.map((i) => shares[i]), prizes, n - live.length);
    live.forEach((i, a) => {
      base[i] = fast.base[a];
      live.forEach((j, b) => {
        if (i !== j) {
          won[i][j] = fast.won[a][b];
          lost[i][j] = fast.lost[a][b];
        }
      });
    });
  }
  return { base, won, lost, method: chosen };
}

const emptyMatrix = (n) => Array.from({ length: n }, () => new Array(n).fill(null));

/**
 * Bubble factors, required equity and risk premium from the values of pairEquities (money), as
 * risk_prices in kernels/icm/harville.py: undefined (null) where won or lost is null or winning gains less than
 * GAIN_FLOOR of `money` (the total at stake: the prize pool, plus the bounties where they count).
 * Returns {bubbleFactor, requiredEquity, riskPremium: (number|null)[][], equity: base, method}.
 */
export function riskPrices(base, won, lost, money, method) {
  const n = base.length;
  const floor = GAIN_FLOOR * money;
  const bubbleFactor = emptyMatrix(n);
  const requiredEquity = emptyMatrix(n);
  const riskPremium = emptyMatrix(n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      if (won[i][j] === null || lost[i][j] === null) continue;
      const gain = won[i][j] - base[i];
      const loss = base[i] - lost[i][j];
      if (!(gain > floor)) continue;
      bubbleFactor[i][j] = loss / gain;
      requiredEquity[i][j] = loss / (gain + loss);
      riskPremium[i][j] = requiredEquity[i][j] - 0.5;
    }
  }
  return { bubbleFactor, requiredEquity, riskPremium, equity: base, method };
}

/**
 * Bubble factors, required equity and risk premium for every ordered pair (row i risks
 * min(stack_i, stack_j) against column j): riskPrices of pairEquities, as bubble_factors in
 * kernels/icm/harville.py. Undefined entries (diagonal, players without chips, a win that gains less than
 * 1e-12 of the pool) are null.
 */
export function bubbleFactors(stacks, payouts, { method = "auto" } = {}) {
  const { base, won, lost, method: chosen } = pairEquities(stacks, payouts, { method });
  return riskPrices(base, won, lost, Array.from(payouts, Number).reduce((sum, prize) => sum + prize, 0), chosen);
}

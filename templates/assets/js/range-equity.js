// Range equity in the browser: the engine of kernels/range_equity.py (docs/equity.md) on evaluator.js.
//
// Players hold weights over the 1,326 combos (ranges.js). A deal is one combo per player with no
// shared card (nor with the board and dead cards), weighted by the product of the weights; then
// every completion of the board. Methods, first that applies: "table" (heads-up preflop whole-class
// ranges, from matchups.json counts), "enumeration" (exact, when the work estimate is small),
// "monte carlo" (rejection sampling of the ranged players, random players and board from the deck).
// Exact results equal Python's on shared fixtures (tests/js/range-equity.test.mjs).

import { strengthOfSums } from "./evaluator.js";
import { COMBOS, COMBO_CLASS, N_COMBOS } from "./ranges.js";

export const MAX_PLAYERS = 10;
export const EXACT_LIMIT = 3e7; // work units (boards × (Σ sizes + Π sizes)); JS is ~10× slower than Numba on 2 cores
export const Z_975 = 1.959963984540054; // as kernels/multiway/control_variates.py

/** No deal is possible: ``player`` (0-based) has an empty range after card removal, or null. */
export class NoDealError extends Error {
  constructor(message, player = null) {
    super(message);
    this.name = "NoDealError";
    this.player = player;
  }
}

const bit = (card) => (card < 32 ? [1 << card, 0] : [0, 1 << (card - 32)]);
const COMBO_LO = new Int32Array(N_COMBOS), COMBO_HI = new Int32Array(N_COMBOS);
COMBOS.forEach(([a, b], i) => {
  COMBO_LO[i] = bit(a)[0] | bit(b)[0];
  COMBO_HI[i] = bit(a)[1] | bit(b)[1];
});

function maskOf(cards) {
  let lo = 0, hi = 0;
  for (const c of cards) [lo, hi] = [lo | bit(c)[0], hi | bit(c)[1]];
  return [lo, hi];
}

/** Each player's weights with combos touching the board, dead cards or a single-combo player's cards zeroed. */
export function liveWeights(weights, board, dead) {
  const [blo, bhi] = maskOf([...board, ...dead]);
  const live = weights.map((w) => w.map((x, i) => ((COMBO_LO[i] & blo) || (COMBO_HI[i] & bhi) ? 0 : x)));
  let changed = true;
  while (changed) {
    changed = false;
    live.forEach((w, p) => {
      const nonzero = [];
      w.forEach((x, i) => x > 0 && nonzero.push(i));
      if (!nonzero.length) throw new NoDealError(`player ${p + 1}'s range is empty after card removal`, p);
      if (nonzero.length !== 1) return;
      const [lo, hi] = [COMBO_LO[nonzero[0]], COMBO_HI[nonzero[0]]];
      live.forEach((other, q) => {
        if (q === p) return;
        for (let i = 0; i < N_COMBOS; i++) {
          if (other[i] > 0 && ((COMBO_LO[i] & lo) || (COMBO_HI[i] & hi))) [other[i], changed] = [0, true];
        }
      });
    });
  }
  return live;
}

/** Weight of each class (Float64Array(169)) if every combo of each class has the same weight, else null. */
export function classWeights(w) {
  const out = new Float64Array(169).fill(NaN);
  for (let i = 0; i < N_COMBOS; i++) {
    const c = COMBO_CLASS[i];
    if (Number.isNaN(out[c])) out[c] = w[i];
    else if (out[c] !== w[i]) return null;
  }
  return out;
}

/** Heads-up preflop from matchups.json counts ({win, tie, pairs}: 169×169, boards per pair). */
export function tableEquity(first, second, { win, tie, pairs }, boards = 1712304) {
  let w = 0, t = 0, l = 0, total = 0;
  for (let i = 0; i < 169; i++) {
    if (!first[i] && !second[i]) continue;
    for (let j = 0; j < 169; j++) {
      const a = first[i] * second[j], b = second[i] * first[j];
      if (a) [w, t, total] = [w + a * win[i][j], t + a * tie[i][j], total + a * pairs[i][j] * boards];
      if (b) l += b * win[i][j];
    }
  }
  if (!total) throw new NoDealError("no deal gives both players a hand");
  [w, t, l] = [w / total, t / total, l / total];
  return { equity: [w + t / 2, l + t / 2], win: [w, l], ties: [[t], [t]], seEquity: null, exact: true, method: "table", boards };
}

const choose = (n, k) => { let r = 1; for (let i = 0; i < k; i++) r = (r * (n - i)) / (i + 1); return r; };

/** Enumeration cost estimate: boards × (Σ range sizes + Π range sizes). */
export function enumerationWork(live, board, dead) {
  const sizes = live.map((w) => w.reduce((n, x) => n + (x > 0), 0));
  return choose(52 - board.length - dead.length, 5 - board.length) * (sizes.reduce((a, b) => a + b, 0) + sizes.reduce((a, b) => a * b, 1));
}

/** [rank-key sum, suit counters, mask low, mask high] of ``cards`` added to ``sums`` (default: no cards). */
function addCards(t, cards, [k, s, l, h] = [0, t.suitStart, 0, 0]) {
  for (const c of cards) [k, s, l, h] = [k + t.cardRankKey[c], s + t.cardSuits[c], l | t.cardMaskLow[c], h | t.cardMaskHigh[c]];
  return [k, s, l, h];
}

/** Strength of hole cards a, b on a board given by its sums. */
const holeStrength = (t, [k, s, l, h], a, b) => strengthOfSums(t, k + t.cardRankKey[a] + t.cardRankKey[b],
  s + t.cardSuits[a] + t.cardSuits[b], l | t.cardMaskLow[a] | t.cardMaskLow[b], h | t.cardMaskHigh[a] | t.cardMaskHigh[b]);

function packed(live) {
  const starts = [0], idx = [], weight = [];
  for (const w of live) {
    w.forEach((x, i) => x > 0 && (idx.push(i), weight.push(x)));
    starts.push(idx.length);
  }
  return { starts, idx: Int32Array.from(idx), weight: Float64Array.from(weight) };
}

function scoreLeaf(strengths, n, weight, win, ties) {
  let best = 0, winners = 0;
  for (let p = 0; p < n; p++) {
    if (strengths[p] > best) [best, winners] = [strengths[p], 1];
    else if (strengths[p] === best) winners++;
  }
  for (let p = 0; p < n; p++) {
    if (strengths[p] !== best) continue;
    if (winners === 1) win[p] += weight;
    else ties[p][winners - 2] += weight;
  }
}

const summary = (n, win, ties, total) => {
  const ws = win.map((x) => x / total), ts = ties.map((row) => row.map((x) => x / total));
  const equity = ws.map((x, p) => x + ts[p].reduce((s, v, k) => s + v / (k + 2), 0));
  return { equity, win: ws, ties: ts };
};

/**
 * Exact equity: every completion of the board × every compatible assignment (weights: liveWeights()).
 * ``onProgress(done, total)`` after each first board card; returns {equity, win, ties, exact, method, boards}.
 */
export function enumerateEquity(t, live, board, dead, onProgress = () => {}) {
  const n = live.length;
  const { starts, idx, weight } = packed(live);
  const gone = new Set([...board, ...dead]);
  const deck = []; for (let c = 0; c < 52; c++) if (!gone.has(c)) deck.push(c);
  const missing = 5 - board.length;
  const known = addCards(t, board);
  const win = new Float64Array(n), ties = Array.from({ length: n }, () => new Float64Array(n - 1));
  const strength = new Int32Array(idx.length), chosen = new Int32Array(n), pos = new Int32Array(n);
  const usedLo = new Int32Array(n + 1), usedHi = new Int32Array(n + 1), product = new Float64Array(n + 1);
  let total = 0, boards = 0;
  const pick = new Int32Array(missing), extra = new Int32Array(missing);
  const visit = () => {
    boards++;
    let lo = 0, hi = 0;
    for (let j = 0; j < missing; j++) {
      const c = (extra[j] = deck[pick[j]]);
      if (c < 32) lo |= 1 << c; else hi |= 1 << (c - 32);
    }
    const sums = addCards(t, extra, known);
    for (let i = 0; i < idx.length; i++) {
      const combo = idx[i];
      if ((COMBO_LO[combo] & lo) || (COMBO_HI[combo] & hi)) { strength[i] = -1; continue; }
      strength[i] = holeStrength(t, sums, COMBOS[combo][0], COMBOS[combo][1]);
    }
    usedLo[0] = lo; usedHi[0] = hi; product[0] = 1;
    let d = 0; pos[0] = starts[0];
    while (d >= 0) {
      if (pos[d] >= starts[d + 1]) { d--; if (d >= 0) pos[d]++; continue; }
      const i = pos[d], combo = idx[i];
      if (strength[i] < 0 || (COMBO_LO[combo] & usedLo[d]) || (COMBO_HI[combo] & usedHi[d])) { pos[d]++; continue; }
      chosen[d] = strength[i];
      if (d === n - 1) {
        const w = product[d] * weight[i];
        total += w;
        scoreLeaf(chosen, n, w, win, ties);
        pos[d]++;
      } else {
        usedLo[d + 1] = usedLo[d] | COMBO_LO[combo]; usedHi[d + 1] = usedHi[d] | COMBO_HI[combo];
        product[d + 1] = product[d] * weight[i];
        d++; pos[d] = starts[d];
      }
    }
  };
  const m = deck.length, all = choose(m, missing);
  if (missing === 0) visit();
  const walk = (j, from) => {
    if (j === missing) return visit();
    for (let x = from; x <= m - missing + j; x++) {
      pick[j] = x;
      walk(j + 1, x + 1);
      if (j === 0) onProgress(boards, all);
    }
  };
  if (missing > 0) walk(0, 0);
  if (!total) throw new NoDealError("no deal gives every player a hand (the ranges block each other)");
  return { ...summary(n, win, ties, total), seEquity: null, exact: true, method: "enumeration", boards };
}

/** xoshiro128** seeded by splitmix32: uniform doubles in [0, 1) with 53 random bits. */
function generator(seed) {
  let x = seed >>> 0;
  const split = () => { x = (x + 0x9e3779b9) | 0; let z = x; z = Math.imul(z ^ (z >>> 16), 0x85ebca6b); z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35); return (z ^ (z >>> 16)) >>> 0; };
  let a = split(), b = split(), c = split(), d = split();
  const next = () => {
    const r = Math.imul(((Math.imul(b, 5) << 7) | (Math.imul(b, 5) >>> 25)), 9) >>> 0;
    const u = b << 9;
    c ^= a; d ^= b; b ^= c; a ^= d; c ^= u; d = (d << 11) | (d >>> 21);
    return r;
  };
  return () => ((next() >>> 5) * 67108864 + (next() >>> 6)) / 9007199254740992;
}

/** Equity (n) and standard errors (n) from integer counts (share 1 on a win, 1/k on a k-way tie). */
export function mcStatistics(win, ties, samples) {
  const mean = [], se = [];
  win.forEach((w, p) => {
    let m = w, s2 = w;
    ties[p].forEach((x, j) => { m += x / (j + 2); s2 += x / (j + 2) ** 2; });
    m /= samples; s2 /= samples;
    mean.push(m);
    se.push(Math.sqrt((Math.max(s2 - m * m, 0) * samples) / Math.max(samples - 1, 1) / samples));
  });
  return { mean, se };
}

/**
 * Monte Carlo until every se ≤ targetSe, budgetMs or maxSamples; ``onProgress(samples, se)`` after each
 * batch may return true to stop. Returns {equity, win, ties, seEquity, exact: false, method, samples}.
 */
export function sampleEquity(t, live, board, dead, { targetSe = 1e-3, budgetMs = 60000, seed = 1, maxSamples = Infinity,
  batch = 20000, maxAttempts = 100000, onProgress = () => false } = {}) {
  const n = live.length;
  const fixed = new Set([...board, ...dead]);
  live.forEach((w) => { const nz = []; w.forEach((x, i) => x > 0 && nz.push(i)); if (nz.length === 1) COMBOS[nz[0]].forEach((c) => fixed.add(c)); });
  const isRandom = live.map((w) => {
    let count = 0;
    for (let i = 0; i < N_COMBOS; i++) {
      const expected = fixed.has(COMBOS[i][0]) || fixed.has(COMBOS[i][1]) ? 0 : 1;
      if (w[i] !== expected) return false;
      count += expected;
    }
    return count > 1;
  });
  const ranged = [], cumulative = [];
  live.forEach((w, p) => {
    if (isRandom[p]) return;
    const idx = [], cum = []; let s = 0;
    w.forEach((x, i) => { if (x > 0) { s += x; idx.push(i); cum.push(s); } });
    ranged.push([p, Int32Array.from(idx), Float64Array.from(cum)]);
  });
  const base = []; for (let c = 0; c < 52; c++) if (!board.includes(c) && !dead.includes(c)) base.push(c);
  const missing = 5 - board.length;
  const known = addCards(t, board);
  const random = generator(seed);
  const win = new Array(n).fill(0), ties = Array.from({ length: n }, () => new Array(n - 1).fill(0));
  const hole = Array.from({ length: n }, () => [0, 0]), strengths = new Int32Array(n);
  const used = new Uint8Array(52), deck = new Int32Array(52);
  let samples = 0, stats = null;
  const started = performance.now();
  for (;;) {
    const size = Math.min(batch, maxSamples - samples);
    for (let deal = 0; deal < size; deal++) {
      let attempts = 0;
      for (;;) {
        if (++attempts > maxAttempts) throw new NoDealError(`no compatible deal in ${maxAttempts} tries: the ranges (nearly) block each other`);
        used.fill(0);
        let ok = true;
        for (const [p, idx, cum] of ranged) {
          const u = random() * cum[cum.length - 1];
          let a = 0, b = cum.length - 1;
          while (a < b) { const mid = (a + b) >> 1; if (cum[mid] > u) b = mid; else a = mid + 1; }
          const [x, y] = COMBOS[idx[a]];
          if (used[x] || used[y]) { ok = false; break; } // restart the whole draw: unbiased
          used[x] = used[y] = 1;
          hole[p][0] = x; hole[p][1] = y;
        }
        if (ok) break;
      }
      let size2 = 0;
      for (const c of base) if (!used[c]) deck[size2++] = c;
      const need = 2 * (n - ranged.length) + missing;
      for (let i = 0; i < need; i++) {
        const j = i + Math.floor(random() * (size2 - i));
        [deck[i], deck[j]] = [deck[j], deck[i]];
      }
      let taken = 0;
      for (let p = 0; p < n; p++) if (isRandom[p]) { hole[p][0] = deck[taken++]; hole[p][1] = deck[taken++]; }
      const sums = addCards(t, deck.subarray(taken, taken + missing), known);
      for (let p = 0; p < n; p++) strengths[p] = holeStrength(t, sums, hole[p][0], hole[p][1]);
      scoreLeaf(strengths, n, 1, win, ties);
    }
    samples += size;
    stats = mcStatistics(win, ties, samples);
    const stop = onProgress(samples, stats.se) === true;
    if (stop || stats.se.every((x) => x <= targetSe) || performance.now() - started >= budgetMs || samples >= maxSamples) break;
  }
  return {
    equity: stats.mean, win: win.map((x) => x / samples), ties: ties.map((row) => row.map((x) => x / samples)),
    seEquity: stats.se, exact: false, method: "monte carlo", samples,
  };
}

/**
 * Equity of 2..10 players (weights: Float64Array(1326) each) on ``board`` (0/3/4/5 card ids) with ``dead``.
 * options: {matchups (matchups.json, for the table), exactLimit, onProgress, …sampleEquity options}.
 */
export function rangeEquity(t, weights, board = [], dead = [], options = {}) {
  const { matchups = null, exactLimit = EXACT_LIMIT, onProgress = () => false } = options;
  if (weights.length < 2 || weights.length > MAX_PLAYERS) throw new Error(`2 to ${MAX_PLAYERS} players, got ${weights.length}`);
  if (![0, 3, 4, 5].includes(board.length)) throw new Error(`a board has 0, 3, 4 or 5 cards, got ${board.length}`);
  if (new Set([...board, ...dead]).size !== board.length + dead.length) throw new Error("the board and dead cards repeat a card");
  const live = liveWeights(weights, board, dead);
  if (matchups && live.length === 2 && !board.length && !dead.length) {
    const [first, second] = live.map(classWeights);
    const unchanged = live.every((w, p) => w.every((x, i) => x === weights[p][i]));
    if (first && second && unchanged) return tableEquity(first, second, matchups);
  }
  if (enumerationWork(live, board, dead) <= exactLimit) return enumerateEquity(t, live, board, dead, (done, all) => onProgress(done, all));
  return sampleEquity(t, live, board, dead, { ...options, onProgress });
}

// Range against range after the flop, exact: each combo's equity on a board of 3, 4 or 5 cards (Equilab's equity
// graph) and the every-flop report. The browser's twin of kernels/flop/equity.py (definitions in docs/flop.md,
// "Equity on a board"); no DOM, run by workers/flop-worker.js.
//
// The deal is PokerStove's, as range-equity.js: every pair of one combo of range A and one of range B sharing no
// card with each other, the board and the dead cards, weighted by the product of their weights; then every
// completion of the board. A combo's equity is its share of the pot against B's compatible combos over every
// completion (ties split); its weight in the deal is its range weight × the compatible weight of B. Both walks
// rank every live combo once per complete board and count by one sweep in strength order (headsUpSweep). The
// every-flop report walks the 134,459 five-card board classes (flop-boards.js), each counted for its ten flops;
// it takes suit-symmetric ranges only (NotSuitSymmetricError). Its counts are sums over boards, so parts of the
// walk (every parts-th board class) add up to the whole: exactly when the weights are dyadic (1, 0.5, 0.25).

import { choose } from "./range-patterns.js";
import { boardClasses, N_BOARD_CLASSES } from "./flop-boards.js";
import { N_SUIT_DISTINCT_FLOPS, suitDistinctFlops, texture } from "./flops.js";
import { formatG } from "./python-format.js";
import { NoDealError, addCards, boardStrengths, headsUpState, headsUpSweep, liveWeights, packed } from "./range-equity.js";
import { COMBOS, N_COMBOS, cardName, comboIndex } from "./ranges.js";

/** Distribution quantiles (fractions of A's weight in the deal) and equity thresholds (Python's QUANTILES, THRESHOLDS). */
export const QUANTILES = [0.1, 0.25, 0.5, 0.75, 0.9];
export const THRESHOLDS = [0.5, 0.7, 0.9];

/** A range that a relabelling of the suits changes: the every-flop report walks suit-distinct boards only. */
export class NotSuitSymmetricError extends Error {
  /** ``player``: 0 for range A, 1 for range B. */
  constructor(message, player) {
    super(message);
    this.name = "NotSuitSymmetricError";
    this.player = player;
  }
}

function checkSpot(board, dead) {
  if (![3, 4, 5].includes(board.length)) throw new Error(`a board after the flop has 3, 4 or 5 cards, got ${board.length}`);
  if (new Set([...board, ...dead]).size !== board.length + dead.length) throw new Error("the board and dead cards repeat a card");
  if (board.length + dead.length + 4 + 5 - board.length > 52) throw new Error("not enough cards left to deal both hands and complete the board");
}

/** The sweep's state for ranges A and B after card removal: {h (headsUpState), distinct (combo ids of either range)}. */
function sweepState(weightsA, weightsB, board, dead) {
  const live = liveWeights([weightsA, weightsB], board, dead);
  const { starts, idx, weight } = packed(live);
  const strength = new Int32Array(N_COMBOS).fill(-1);
  return { h: headsUpState(idx, weight, starts, strength), distinct: Int32Array.from(new Set(idx)) };
}

/**
 * Each combo of range A against range B on ``board`` (3, 4 or 5 card ids) with ``dead``, exact (Python's
 * combo_equities). weightsA, weightsB: Float64Array(1326) (one hand: a single non-zero weight);
 * onProgress(done, total): completions counted, after each first completion card. Returns {combos (A's combos
 * that meet a compatible combo of B, ascending), rangeWeight, win, tie, total (B's weight beaten, tied, met,
 * summed over the completions), boards (completions behind each compatible pair), equity, weight (in the
 * deal)}; NoDealError when no deal exists.
 */
export function comboEquities(t, weightsA, weightsB, board, dead = [], { onProgress = () => {} } = {}) {
  checkSpot(board, dead);
  const { h, distinct } = sweepState(weightsA, weightsB, board, dead);
  const n0 = h.idx0.length, win = new Float64Array(n0), tie = new Float64Array(n0), total = new Float64Array(n0);
  const gone = new Set([...board, ...dead]), deck = [];
  for (let c = 0; c < 52; c++) if (!gone.has(c)) deck.push(c);
  const known = addCards(t, board), missing = 5 - board.length, extra = new Int32Array(missing);
  const count = () => {
    boardStrengths(t, known, extra, distinct, h.strength);
    const m0 = headsUpSweep(h);
    for (let k = 0; k < m0; k++) {
      const i = h.key0[k] & 2047;
      win[i] += h.won[k]; tie[i] += h.tied[k]; total[i] += h.met[k];
    }
  };
  const all = choose(deck.length, missing);
  let done = 0;
  const walk = (j, from) => {
    if (j === missing) { done++; return count(); }
    for (let x = from; x <= deck.length - missing + j; x++) {
      extra[j] = deck[x];
      walk(j + 1, x + 1);
      if (j === 0) onProgress(done, all);
    }
  };
  walk(0, 0);
  const met = [];
  for (let i = 0; i < n0; i++) if (total[i] > 0) met.push(i);
  if (!met.length) throw new NoDealError("no deal gives both players a hand (the ranges block each other)");
  const boards = choose(52 - board.length - dead.length - 4, missing);
  const pick = (values) => Float64Array.from(met, (i) => values[i]);
  const result = {
    combos: Int32Array.from(met, (i) => h.idx0[i]), rangeWeight: pick(h.w0), win: pick(win), tie: pick(tie), total: pick(total), boards,
  };
  result.equity = result.win.map((w, k) => (w + result.tie[k] / 2) / result.total[k]);
  result.weight = result.rangeWeight.map((w, k) => w * (result.total[k] / boards));
  return result;
}

/** First index of ascending ``values`` at which values[i] ≥ x (or > x with ``strict``), else values.length. */
function searchSorted(values, x, strict = false) {
  let lo = 0, hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (strict ? values[mid] <= x : values[mid] < x) lo = mid + 1; else hi = mid;
  }
  return lo;
}

/**
 * Equilab's equity graph from comboEquities (Python's equity_distribution): {combos, equity, weight (A's combos in
 * ascending order of equity, ties by combo id), cumulative (running share of A's weight in the deal, the curve's
 * x), quantiles: [[q, the equity of the first combo at which cumulative ≥ q], ...], above: [[t, share of A's
 * weight with equity > t], ...], overall (A's equity)}. The running sums go in the curve's order, as Python's.
 */
export function equityDistribution(ce, quantiles = QUANTILES, thresholds = THRESHOLDS) {
  const order = Array.from(ce.combos.keys()).sort((a, b) => ce.equity[a] - ce.equity[b] || ce.combos[a] - ce.combos[b]);
  const running = new Float64Array(order.length);
  let sum = 0;
  order.forEach((i, k) => { sum += ce.weight[i]; running[k] = sum; });
  const whole = running[order.length - 1];
  const equity = Float64Array.from(order, (i) => ce.equity[i]);
  let won = 0, met = 0;
  ce.rangeWeight.forEach((w, i) => { won += w * (ce.win[i] + ce.tie[i] / 2); met += w * ce.total[i]; });
  return {
    combos: Int32Array.from(order, (i) => ce.combos[i]), equity, weight: Float64Array.from(order, (i) => ce.weight[i]),
    cumulative: running.map((x) => x / whole),
    quantiles: quantiles.map((q) => [q, equity[Math.min(searchSorted(running, q * whole), order.length - 1)]]),
    above: thresholds.map((t) => {
      const below = searchSorted(equity, t, true);
      return [t, (whole - (below ? running[below - 1] : 0)) / whole];
    }),
    overall: won / met,
  };
}

/** The 24 relabellings of the suits as maps of combo ids (lexicographic permutations, the identity first). */
function suitPermutations() {
  const perms = [];
  const extend = (prefix) => {
    if (prefix.length === 4) return perms.push(prefix);
    for (let s = 0; s < 4; s++) if (!prefix.includes(s)) extend([...prefix, s]);
  };
  extend([]);
  return perms.map((perm) => Int32Array.from(COMBOS, ([a, b]) => comboIndex(4 * (a >> 2) + perm[a & 3], 4 * (b >> 2) + perm[b & 3])));
}

/** Throws NotSuitSymmetricError (of ``player``) naming a combo whose weight a relabelling of the suits changes;
 *  ``name``: the range's name in the message (Python's check_suit_symmetric, the same message). */
export function checkSuitSymmetric(weights, name, player = 0) {
  const combo = (c) => cardName(COMBOS[c][1]) + cardName(COMBOS[c][0]);
  for (const perm of suitPermutations().slice(1)) {
    const c = weights.findIndex((w, i) => weights[perm[i]] !== w);
    if (c >= 0) {
      throw new NotSuitSymmetricError(`${name} is not suit-symmetric (${combo(c)} at ${formatG(weights[c])} but `
        + `${combo(perm[c])} at ${formatG(weights[perm[c]])}): the every-flop report takes ranges whose suits are interchangeable, such as whole classes`, player);
    }
  }
}

/**
 * The every-flop walk of range A against range B (suit-symmetric Float64Array(1326) weights), or of its part
 * ``part`` of ``parts`` (the board classes whose index ≡ part mod parts): ``step(n)`` counts the next n board
 * classes of the part and returns true once the part is done; ``done``/``size``: board classes counted / in the
 * part; ``counts()``: {win, tie, total: Float64Array(1755) (A's weight × B's weight beaten, tied and met over
 * every flop of the suit-distinct flop, turn and river), visited}. Throws NotSuitSymmetricError (naming the range
 * by ``names``), NoDealError.
 */
export function flopWalk(t, weightsA, weightsB, { part = 0, parts = 1, names = ["range A", "range B"] } = {}) {
  checkSuitSymmetric(weightsA, names[0], 0);
  checkSuitSymmetric(weightsB, names[1], 1);
  const { h, distinct } = sweepState(weightsA, weightsB, [], []);
  const { boards, sizes, flops } = boardClasses();
  const win = new Float64Array(N_SUIT_DISTINCT_FLOPS), tie = new Float64Array(N_SUIT_DISTINCT_FLOPS);
  const total = new Float64Array(N_SUIT_DISTINCT_FLOPS);
  const empty = addCards(t, []);
  let next = part, done = 0;
  const walk = {
    size: Math.floor((N_BOARD_CLASSES - part + parts - 1) / parts),
    get done() { return done; },
    step(n) {
      for (let left = n; left > 0 && next < N_BOARD_CLASSES; left--, next += parts, done++) {
        boardStrengths(t, empty, boards.subarray(5 * next, 5 * next + 5), distinct, h.strength);
        const m0 = headsUpSweep(h);
        let w = 0, ti = 0, to = 0;
        for (let k = 0; k < m0; k++) {
          const weight = h.w0[h.key0[k] & 2047];
          w += weight * h.won[k]; ti += weight * h.tied[k]; to += weight * h.met[k];
        }
        const size = sizes[next];
        for (let f = 10 * next; f < 10 * next + 10; f++) {
          win[flops[f]] += size * w; tie[flops[f]] += size * ti; total[flops[f]] += size * to;
        }
      }
      return next >= N_BOARD_CLASSES;
    },
    counts: () => ({ win: win.slice(), tie: tie.slice(), total: total.slice(), visited: done }),
  };
  return walk;
}

/** The every-flop counts of a whole walk or of its part (flopWalk), in steps of ``every`` board classes with
 *  ``onProgress(done, size)`` after each. */
export function everyFlopCounts(t, weightsA, weightsB, { part = 0, parts = 1, every = 4096, onProgress = () => {} } = {}) {
  const walk = flopWalk(t, weightsA, weightsB, { part, parts });
  while (!walk.step(every)) onProgress(walk.done, walk.size);
  onProgress(walk.done, walk.size);
  return walk.counts();
}

/** Adds every-flop counts of several parts into one (exact when the weights are dyadic). */
export function mergeFlopCounts(parts) {
  const merged = { win: new Float64Array(N_SUIT_DISTINCT_FLOPS), tie: new Float64Array(N_SUIT_DISTINCT_FLOPS),
    total: new Float64Array(N_SUIT_DISTINCT_FLOPS), visited: 0 };
  for (const counts of parts) {
    for (const key of ["win", "tie", "total"]) counts[key].forEach((x, f) => (merged[key][f] += x));
    merged.visited += counts.visited;
  }
  return merged;
}

/**
 * The report of every-flop counts (Python's FlopReport): {flops: [{index, cards (the representative), weight (flops
 * it stands for), equity (A's, null where no deal reaches it), share (of the deal: the probability that its flops
 * come), texture}, ...] in suit-distinct order, overall (A's preflop equity: the equities weighted by the shares)};
 * NoDealError when no deal exists.
 */
export function flopReport({ win, tie, total }) {
  let sumWin = 0, sumTie = 0, sumTotal = 0;
  for (let f = 0; f < N_SUIT_DISTINCT_FLOPS; f++) { sumWin += win[f]; sumTie += tie[f]; sumTotal += total[f]; }
  if (!sumTotal) throw new NoDealError("no deal gives both players a hand (the ranges block each other)");
  const { flops, weights } = suitDistinctFlops();
  return {
    flops: flops.map((cards, f) => ({
      index: f, cards, weight: weights[f], equity: total[f] ? (win[f] + tie[f] / 2) / total[f] : null,
      share: total[f] / sumTotal, texture: texture(cards),
    })),
    overall: (sumWin + sumTie / 2) / sumTotal,
  };
}

/** A's equity on the flops where ``keep(f)`` (a texture, say) and their share of the deal, from every-flop counts:
 *  {equity (null where no deal reaches them), share} (Python's FlopReport.group). */
export function flopGroup({ win, tie, total }, keep) {
  let w = 0, t = 0, kept = 0, all = 0;
  for (let f = 0; f < N_SUIT_DISTINCT_FLOPS; f++) {
    all += total[f];
    if (keep(f)) { w += win[f]; t += tie[f]; kept += total[f]; }
  }
  return { equity: kept ? (w + t / 2) / kept : null, share: kept / all };
}

// Range equity in the browser: the engine of kernels/range_equity/ (docs/equity.md) on evaluator.js.
//
// Players hold weights over the 1,326 combos (ranges.js). A deal is one combo per player with no
// shared card (nor with the board and dead cards), weighted by the product of the weights; then
// every completion of the board. Methods, first that applies (planEquity): "table" (heads-up preflop
// whole-class ranges from matchups.json counts, exact; or one class against random hands preflop
// from multiway.json, with its standard error), "enumeration" (exact, when the work estimate is
// small: board by board, heads-up by a strength-ordered sweep per board, or by deal orbits and rank
// patterns, range-patterns.js, whichever is cheaper), "monte carlo" (rejection sampling of the
// ranged players, random players and board from the deck). Enumeration and sampling also return
// counts that add up across parts (equity-pool.js runs several workers). Exact results equal
// Python's on shared fixtures (tests/js/range-equity.test.mjs).

import { strengthOfSums } from "./evaluator.js";
import { MAX_SEATS, RANGE_EQUITY_EXACT_LIMIT, Z_975 } from "./constants.js";
import { choose, patternCounts, patternWork } from "./range-patterns.js";
import { COMBOS, COMBO_CLASS, N_COMBOS, cardName } from "./ranges.js";

export const MAX_PLAYERS = MAX_SEATS;
/** Work units of enumerationWork() enumerated without asking: Python's limit (kernels/range_equity/), about
 *  two seconds of one worker (node on the 2-core machine: 1.5–1.8e8 units a second, WORK_PER_SECOND). */
export const EXACT_LIMIT = RANGE_EQUITY_EXACT_LIMIT;
/** Boards behind each deal of the exact three-handed counts: C(50, 5), the board cards after the hero's two. */
/** Boards a hero combo meets preflop (C(50, 5)): behind each deal of the exact three- and four-handed tables. */
export const EXACT_TABLE_BOARDS = choose(50, 5);
/** Enumeration work one worker does in a second (measured in node on the 2-core machine), for time estimates. */
export const WORK_PER_SECOND = 1.5e8;
export { Z_975 }; // spec/constants.json

/** No deal is possible: ``player`` (0-based) has an empty range after card removal, or null. */
export class NoDealError extends Error {
  /** ``blockers``: [[card, holder], ...], the cards that emptied ``player``'s range, each with who holds
   * it ("board", "dead" or a 0-based player holding that single combo), in card order. */
  constructor(message, player = null, blockers = []) {
    super(message);
    this.name = "NoDealError";
    this.player = player;
    this.blockers = blockers;
  }
}

/** "As (board), Kd (player 1)": the cards of NoDealError.blockers and their holders (as blocker_text). */
export function blockerText(blockers) {
  return blockers.map(([card, who]) => `${cardName(card)} (${typeof who === "string" ? who : `player ${who + 1}`})`).join(", ");
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
  const held = new Map([...board.map((c) => [c, "board"]), ...dead.map((c) => [c, "dead"])]); // who holds each taken card
  let changed = true;
  while (changed) {
    changed = false;
    live.forEach((w, p) => {
      const nonzero = [];
      w.forEach((x, i) => x > 0 && nonzero.push(i));
      if (!nonzero.length) {
        const cards = new Set();
        weights[p].forEach((x, i) => { if (x > 0) COMBOS[i].forEach((c) => cards.add(c)); });
        const blockers = [...held.keys()].sort((a, b) => a - b).filter((c) => cards.has(c)).map((c) => [c, held.get(c)]);
        throw new NoDealError(`player ${p + 1}'s range is empty after card removal: ${blockerText(blockers)}`, p, blockers);
      }
      if (nonzero.length !== 1) return;
      COMBOS[nonzero[0]].forEach((c) => { if (!held.has(c)) held.set(c, p); });
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


/** Cost estimate of the board-by-board enumeration (Python's board_work): boards × (Σ range sizes + 3 Σ sizes
 * heads-up, or 4n Π sizes / max size). */
export function boardWork(live, board, dead) {
  const sizes = live.map((w) => w.reduce((n, x) => n + (x > 0), 0));
  const sum = sizes.reduce((a, b) => a + b, 0);
  // heads-up: one sweep per board (headsUpBoard), about 4 units per combo with the sort; 3+ players:
  // the assignments of all but the largest range, each costing ~4n units (belowFree)
  const n = live.length;
  const leaves = n === 2 ? 3 * sum : (sizes.reduce((a, b) => a * b, 1) / Math.max(...sizes)) * 4 * n;
  return choose(52 - board.length - dead.length, 5 - board.length) * (sum + leaves);
}

/** Enumeration cost estimate of the method enumerationMethod() chooses (Python's enumeration_work). */
export function enumerationWork(live, board, dead) {
  return Math.min(boardWork(live, board, dead), patternWork(live, board, dead));
}

/** "patterns" (deal by deal up to suit symmetry, range-patterns.js) when its work estimate is below the board
 * method's, else "boards" (Python's enumeration_method). */
export function enumerationMethod(live, board, dead) {
  return patternWork(live, board, dead) < boardWork(live, board, dead) ? "patterns" : "boards";
}

/** [rank-key sum, suit counters, mask low, mask high] of ``cards`` added to ``sums`` (default: no cards). */
export function addCards(t, cards, [k, s, l, h] = [0, t.suitStart, 0, 0]) {
  for (const c of cards) [k, s, l, h] = [k + t.cardRankKey[c], s + t.cardSuits[c], l | t.cardMaskLow[c], h | t.cardMaskHigh[c]];
  return [k, s, l, h];
}

/** Card ids of each combo, Int32Array(1326) each. */
const COMBO_A = Int32Array.from(COMBOS, ([a]) => a), COMBO_B = Int32Array.from(COMBOS, ([, b]) => b);

/** Strength of hole cards a, b on a board given by its sums. */
const holeStrength = (t, [k, s, l, h], a, b) => strengthOfSums(t, k + t.cardRankKey[a] + t.cardRankKey[b],
  s + t.cardSuits[a] + t.cardSuits[b], l | t.cardMaskLow[a] | t.cardMaskLow[b], h | t.cardMaskHigh[a] | t.cardMaskHigh[b]);

/**
 * Sets ``strength[c]`` of every combo id in ``distinct`` on the known board (its sums, addCards()) plus
 * ``cards`` (-1 for a combo holding one of them); returns the cards' bit mask [low, high] (Python's
 * _board_strengths).
 */
export function boardStrengths(t, known, cards, distinct, strength) {
  let lo = 0, hi = 0;
  for (const c of cards) if (c < 32) lo |= 1 << c; else hi |= 1 << (c - 32);
  const sums = addCards(t, cards, known);
  for (const combo of distinct) {
    strength[combo] = (COMBO_LO[combo] & lo) || (COMBO_HI[combo] & hi) ? -1 : holeStrength(t, sums, COMBO_A[combo], COMBO_B[combo]);
  }
  return [lo, hi];
}

/** The players' live combos concatenated: {starts (n + 1), idx: combo ids, weight} (Python's deals.packed). */
export function packed(live) {
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
    if (strengths[p] > best) { best = strengths[p]; winners = 1; } else if (strengths[p] === best) winners++;
  }
  for (let p = 0; p < n; p++) {
    if (strengths[p] !== best) continue;
    if (winners === 1) win[p] += weight;
    else ties[p][winners - 2] += weight;
  }
}

const summary = (n, win, ties, total) => {
  const ws = Array.from(win, (x) => x / total), ts = ties.map((row) => Array.from(row, (x) => x / total));
  const equity = ws.map((x, p) => x + ts[p].reduce((s, v, k) => s + v / (k + 2), 0));
  return { equity, win: ws, ties: ts };
};

/**
 * One board's heads-up sweep in strength order instead of every combo pair: player 1's live combos
 * sorted by strength into h.key0[0..m0) (key & 2047: the combo's position in idx0), and for each, at the
 * same position k, player 2's weight it beats (h.won[k]), ties (h.tied[k]) and meets (h.met[k]: the
 * compatible combos). Returns m0. Player 2's combos below / equal to the current strength are kept as
 * running weight sums, in total and per card, so a combo's compatible opponents are the total minus
 * those holding either of its cards (a combo shared by both ranges has equal strength, so it is added
 * back to ties and total). ``h``: scratch state of :func:`headsUpState` (Python's _sweep).
 */
export function headsUpSweep(h) {
  const { strength, key0, key1, idx0, idx1, w1, w1ByCombo, below, equal, live, won, tied, met } = h;
  let m0 = 0, m1 = 0, liveTotal = 0;
  below.fill(0); equal.fill(0); live.fill(0);
  for (let j = 0; j < idx1.length; j++) {
    const c = idx1[j], s = strength[c];
    if (s < 0) continue;
    key1[m1++] = (s << 11) | j;
    const w = w1[j];
    liveTotal += w; live[COMBO_A[c]] += w; live[COMBO_B[c]] += w;
  }
  for (let i = 0; i < idx0.length; i++) {
    const s = strength[idx0[i]];
    if (s >= 0) key0[m0++] = (s << 11) | i;
  }
  const sorted0 = key0.subarray(0, m0).sort(), sorted1 = key1.subarray(0, m1).sort();
  let belowTotal = 0, equalTotal = 0, jEqual = 0, jBelow = 0;
  for (let k = 0; k < m0; k++) {
    const v = sorted0[k] >> 11, c = idx0[sorted0[k] & 2047], a = COMBO_A[c], b = COMBO_B[c];
    while (jEqual < m1 && sorted1[jEqual] >> 11 <= v) {
      const j = sorted1[jEqual++] & 2047, x = idx1[j], w = w1[j];
      equalTotal += w; equal[COMBO_A[x]] += w; equal[COMBO_B[x]] += w;
    }
    while (jBelow < jEqual && sorted1[jBelow] >> 11 < v) {
      const j = sorted1[jBelow++] & 2047, x = idx1[j], w = w1[j];
      equalTotal -= w; equal[COMBO_A[x]] -= w; equal[COMBO_B[x]] -= w;
      belowTotal += w; below[COMBO_A[x]] += w; below[COMBO_B[x]] += w;
    }
    const shared = w1ByCombo[c];
    won[k] = belowTotal - below[a] - below[b];
    tied[k] = equalTotal - equal[a] - equal[b] + shared;
    met[k] = liveTotal - live[a] - live[b] + shared;
  }
  return m0;
}

/** Heads-up counts on one board (headsUpSweep), weighted by player 1's weights: adds into h.win0, h.tie, h.total. */
function headsUpBoard(h) {
  const m0 = headsUpSweep(h), { key0, w0, won, tied, met } = h;
  let win = 0, tie = 0, total = 0;
  for (let k = 0; k < m0; k++) {
    const weight = w0[key0[k] & 2047];
    win += weight * won[k]; tie += weight * tied[k]; total += weight * met[k];
  }
  h.win0 += win; h.tie += tie; h.total += total;
}

/** Scratch state of :func:`headsUpSweep` for packed ranges (see packed()), on the combo strengths ``strength``. */
export function headsUpState(idx, weight, starts, strength) {
  const idx0 = idx.subarray(starts[0], starts[1]), idx1 = idx.subarray(starts[1], starts[2]);
  const w1ByCombo = new Float64Array(N_COMBOS);
  idx1.forEach((c, j) => (w1ByCombo[c] = weight[starts[1] + j]));
  const n0 = idx0.length;
  return {
    idx0, idx1, w0: weight.subarray(starts[0], starts[1]), w1: weight.subarray(starts[1], starts[2]), w1ByCombo, strength,
    key0: new Int32Array(n0), key1: new Int32Array(idx1.length), won: new Float64Array(n0), tied: new Float64Array(n0),
    met: new Float64Array(n0), below: new Float64Array(52), equal: new Float64Array(52), live: new Float64Array(52),
    win0: 0, tie: 0, total: 0,
  };
}

/** Index of the combo of two distinct cards, Int16Array(52 × 52). */
const COMBO_OF = new Int16Array(52 * 52);
COMBOS.forEach(([a, b], i) => { COMBO_OF[52 * a + b] = i; COMBO_OF[52 * b + a] = i; });

/** Scratch state of :func:`lastPlayerBoard` for the last player's packed combos ``idx``, ``w``. */
function lastPlayerState(idx, w) {
  const size = idx.length;
  return {
    idx, w, keys: new Int32Array(size), sortedS: new Int32Array(size), cum: new Float64Array(size + 1), m: 0,
    cardStart: new Int32Array(53), cursor: new Int32Array(52), cardS: new Int32Array(2 * size), cardCum: new Float64Array(2 * size),
    wByCombo: new Float64Array(N_COMBOS),
  };
}

/**
 * The last player's live combos on one board sorted by strength, with cumulative weights in total
 * (sortedS, cum) and per card (segments cardStart[c]..cardStart[c + 1] of cardS, cardCum), so the
 * weight of its combos below a strength and free of given cards is a few binary searches (belowFree).
 */
function lastPlayerBoard(L, strength) {
  const { idx, w, keys, sortedS, cum, cardStart, cursor, cardS, cardCum, wByCombo } = L;
  let m = 0;
  for (let j = 0; j < idx.length; j++) {
    const c = idx[j], s = strength[c];
    wByCombo[c] = s < 0 ? 0 : w[j];
    if (s >= 0) keys[m++] = (s << 11) | j;
  }
  const sorted = keys.subarray(0, m).sort();
  cardStart.fill(0);
  for (let k = 0; k < m; k++) {
    const c = idx[sorted[k] & 2047];
    cardStart[COMBO_A[c] + 1]++; cardStart[COMBO_B[c] + 1]++;
  }
  for (let x = 0; x < 52; x++) { cardStart[x + 1] += cardStart[x]; cursor[x] = cardStart[x]; }
  for (let k = 0; k < m; k++) {
    const j = sorted[k] & 2047, c = idx[j], s = sorted[k] >> 11, weight = w[j];
    sortedS[k] = s; cum[k + 1] = cum[k] + weight;
    for (let h = 0; h < 2; h++) {
      const x = h ? COMBO_B[c] : COMBO_A[c], at = cursor[x]++;
      cardS[at] = s; cardCum[at] = (at > cardStart[x] ? cardCum[at - 1] : 0) + weight;
    }
  }
  L.m = m;
}

/** Number of entries of sorted ``values`` in [lo, hi) below ``bound``. */
function countBelow(values, lo, hi, bound) {
  let a = lo, b = hi;
  while (a < b) { const mid = (a + b) >> 1; if (values[mid] < bound) a = mid + 1; else b = mid; }
  return a - lo;
}

/** Weight of the last player's combos with strength below ``bound`` holding none of ``cards`` (used[0..count)). */
function belowFree(L, strength, cards, count, bound) {
  const { sortedS, cum, cardStart, cardS, cardCum, wByCombo } = L;
  let sum = cum[countBelow(sortedS, 0, L.m, bound)];
  for (let u = 0; u < count; u++) {
    const x = cards[u], start = cardStart[x], r = countBelow(cardS, start, cardStart[x + 1], bound);
    if (r) sum -= cardCum[start + r - 1];
  }
  for (let u = 0; u < count; u++) { // a combo on two of the cards was subtracted twice
    for (let v = u + 1; v < count; v++) {
      const c = COMBO_OF[52 * cards[u] + cards[v]];
      if (wByCombo[c] && strength[c] < bound) sum += wByCombo[c];
    }
  }
  return sum;
}

/**
 * Weighted counts of an exact enumeration: every completion of the board × every compatible assignment
 * (weights: liveWeights()), by ``method`` ("boards" or "patterns"; default: enumerationMethod()). Returns
 * {win: Float64Array(n), ties: n × Float64Array(n-1), total, boards, unit}: ``unit`` is what the parts and
 * progress count, "boards" here, "deals" (orbits of deals) for patternCounts (range-patterns.js).
 * With ``parts`` > 1 only the boards whose index ≡ ``part`` (mod parts) are
 * visited, so counts of the parts add up to the whole (several workers). ``onProgress(done, total, counts)``
 * after each first board card: ``done`` boards of ``total`` walked (all parts' indices), ``counts`` the
 * partial counts so far, {win, ties, total, visited (boards this part counted)}, in the players' order.
 *
 * Heads-up: one sweep per board (headsUpBoard). Three or more players: the largest range is dealt
 * last; every compatible assignment of the others is walked, and the last player's combos are
 * counted at once by strength below / equal to / above the best of the others (belowFree).
 */
export function enumerateCounts(t, live, board, dead, options = {}) {
  const { part = 0, parts = 1, onProgress = () => {}, method = enumerationMethod(live, board, dead) } = options;
  if (method === "patterns") return patternCounts(t, live, board, dead, { part, parts, onProgress });
  const n = live.length;
  const sizes = live.map((w) => w.reduce((k, x) => k + (x > 0), 0));
  const last = sizes.indexOf(Math.max(...sizes));
  const order = n === 2 ? [0, 1] : [...live.keys()].filter((p) => p !== last).concat([last]);
  const { starts, idx, weight } = packed(order.map((p) => live[p]));
  const gone = new Set([...board, ...dead]);
  const deck = []; for (let c = 0; c < 52; c++) if (!gone.has(c)) deck.push(c);
  const missing = 5 - board.length;
  const known = addCards(t, board);
  const win = new Float64Array(n), ties = Array.from({ length: n }, () => new Float64Array(n - 1));
  const strength = new Int32Array(N_COMBOS).fill(-1), chosen = new Int32Array(n), pos = new Int32Array(n);
  const usedLo = new Int32Array(n + 1), usedHi = new Int32Array(n + 1), product = new Float64Array(n + 1);
  const cards = new Int32Array(2 * n);
  const distinct = Int32Array.from(new Set(idx));
  const headsUp = n === 2 ? headsUpState(idx, weight, starts, strength) : null;
  const L = n > 2 ? lastPlayerState(idx.subarray(starts[n - 1]), weight.subarray(starts[n - 1])) : null;
  let total = 0, boards = 0, visited = 0;
  const pick = new Int32Array(missing), extra = new Int32Array(missing);
  const leaf = (d) => { // players 0..d = n-2 dealt: credit every compatible combo of the last player
    const P = product[d + 1];
    let best = 0, count = 0, bestPlayer = 0;
    for (let p = 0; p <= d; p++) {
      if (chosen[p] > best) { best = chosen[p]; count = 1; bestPlayer = p; } else if (chosen[p] === best) count++;
    }
    const used = 2 * (d + 1);
    const below = belowFree(L, strength, cards, used, best), upTo = belowFree(L, strength, cards, used, best + 1);
    const all = belowFree(L, strength, cards, used, 8192);
    if (!all) return;
    total += P * all;
    win[n - 1] += P * (all - upTo);
    if (count === 1) win[bestPlayer] += P * below;
    for (let p = 0; p <= d; p++) {
      if (chosen[p] !== best) continue;
      if (count > 1) ties[p][count - 2] += P * below;
      ties[p][count - 1] += P * (upTo - below);
    }
    ties[n - 1][count - 1] += P * (upTo - below);
  };
  const visit = () => {
    if (boards++ % parts !== part) return;
    visited++;
    for (let j = 0; j < missing; j++) extra[j] = deck[pick[j]];
    const [lo, hi] = boardStrengths(t, known, extra, distinct, strength);
    if (headsUp) return headsUpBoard(headsUp);
    lastPlayerBoard(L, strength);
    usedLo[0] = lo; usedHi[0] = hi; product[0] = 1;
    let d = 0; pos[0] = starts[0];
    while (d >= 0) {
      if (pos[d] >= starts[d + 1]) { d--; if (d >= 0) pos[d]++; continue; }
      const i = pos[d], combo = idx[i], s = strength[combo];
      if (s < 0 || (COMBO_LO[combo] & usedLo[d]) || (COMBO_HI[combo] & usedHi[d])) { pos[d]++; continue; }
      chosen[d] = s; cards[2 * d] = COMBO_A[combo]; cards[2 * d + 1] = COMBO_B[combo];
      product[d + 1] = product[d] * weight[i];
      if (d === n - 2) {
        leaf(d);
        pos[d]++;
      } else {
        usedLo[d + 1] = usedLo[d] | COMBO_LO[combo]; usedHi[d + 1] = usedHi[d] | COMBO_HI[combo];
        d++; pos[d] = starts[d];
      }
    }
  };
  /** The counts so far (copies), back in the players' order. */
  const counts = () => {
    const w = Float64Array.from(win), tiesNow = ties.map((row) => Float64Array.from(row));
    let sum = total;
    if (headsUp) {
      [w[0], w[1], tiesNow[0][0], tiesNow[1][0], sum] = [headsUp.win0, headsUp.total - headsUp.win0 - headsUp.tie, headsUp.tie, headsUp.tie, headsUp.total];
    }
    const byPlayer = { win: new Float64Array(n), ties: ties.map(() => null), total: sum, unit: "boards" };
    order.forEach((p, k) => { byPlayer.win[p] = w[k]; byPlayer.ties[p] = tiesNow[k]; });
    return byPlayer;
  };
  const m = deck.length, all = choose(m, missing);
  if (missing === 0) visit();
  const walk = (j, from) => {
    if (j === missing) return visit();
    for (let x = from; x <= m - missing + j; x++) {
      pick[j] = x;
      walk(j + 1, x + 1);
      if (j === 0) onProgress(boards, all, { ...counts(), visited });
    }
  };
  if (missing > 0) walk(0, 0);
  return { ...counts(), boards };
}

/** Adds enumeration counts (of several parts) into one. */
export function mergeCounts(parts) {
  const [first, ...rest] = parts;
  const win = Float64Array.from(first.win), ties = first.ties.map((row) => Float64Array.from(row));
  let { total } = first;
  for (const other of rest) {
    other.win.forEach((x, p) => (win[p] += x));
    other.ties.forEach((row, p) => row.forEach((x, k) => (ties[p][k] += x)));
    total += other.total;
  }
  return { win, ties, total, boards: first.boards, unit: first.unit };
}

/** {equity, win, ties, exact, method, boards} of enumeration counts; NoDealError when no assignment exists. */
export function equityFromCounts({ win, ties, total, boards }) {
  if (!total) throw new NoDealError("no deal gives every player a hand (the ranges block each other)");
  return { ...summary(win.length, win, ties, total), seEquity: null, exact: true, method: "enumeration", boards };
}

/** Exact equity: every completion of the board × every compatible assignment (weights: liveWeights()). */
export function enumerateEquity(t, live, board, dead, onProgress = () => {}) {
  return equityFromCounts(enumerateCounts(t, live, board, dead, { onProgress }));
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
 * Monte Carlo until every se ≤ targetSe, budgetMs or maxSamples; ``onProgress(samples, se, counts)``
 * after each batch (``counts``: a copy of the integer counts so far, {win, ties, samples}) may return
 * true to stop. Returns {equity, win, ties, seEquity, exact: false, method, samples}.
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
  const hole = new Int32Array(2 * n), strengths = new Int32Array(n);
  const used = new Uint8Array(52), deck = new Int32Array(52);
  const { cardRankKey, cardSuits, cardMaskLow, cardMaskHigh } = t;
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
        for (let r = 0; r < ranged.length; r++) {
          const [p, idx, cum] = ranged[r];
          const u = random() * cum[cum.length - 1];
          let a = 0, b = cum.length - 1;
          while (a < b) { const mid = (a + b) >> 1; if (cum[mid] > u) b = mid; else a = mid + 1; }
          const x = COMBO_A[idx[a]], y = COMBO_B[idx[a]];
          if (used[x] || used[y]) { ok = false; break; } // restart the whole draw: unbiased
          used[x] = used[y] = 1;
          hole[2 * p] = x; hole[2 * p + 1] = y;
        }
        if (ok) break;
      }
      let size2 = 0;
      for (const c of base) if (!used[c]) deck[size2++] = c;
      const need = 2 * (n - ranged.length) + missing;
      for (let i = 0; i < need; i++) {
        const j = i + Math.floor(random() * (size2 - i)), swap = deck[i];
        deck[i] = deck[j]; deck[j] = swap;
      }
      let taken = 0;
      for (let p = 0; p < n; p++) if (isRandom[p]) { hole[2 * p] = deck[taken++]; hole[2 * p + 1] = deck[taken++]; }
      let [k, su, lo, hi] = known;
      for (let j = taken; j < taken + missing; j++) {
        const c = deck[j];
        k += cardRankKey[c]; su += cardSuits[c]; lo |= cardMaskLow[c]; hi |= cardMaskHigh[c];
      }
      for (let p = 0; p < n; p++) {
        const a = hole[2 * p], b = hole[2 * p + 1];
        strengths[p] = strengthOfSums(t, k + cardRankKey[a] + cardRankKey[b], su + cardSuits[a] + cardSuits[b],
          lo | cardMaskLow[a] | cardMaskLow[b], hi | cardMaskHigh[a] | cardMaskHigh[b]);
      }
      scoreLeaf(strengths, n, 1, win, ties);
    }
    samples += size;
    stats = mcStatistics(win, ties, samples);
    const stop = onProgress(samples, stats.se, { win: win.slice(), ties: ties.map((row) => row.slice()), samples }) === true;
    if (stop || stats.se.every((x) => x <= targetSe) || performance.now() - started >= budgetMs || samples >= maxSamples) break;
  }
  return monteCarloResult({ win, ties, samples });
}

/** {equity, win, ties, seEquity, exact: false, method, samples, counts} of integer Monte Carlo counts. */
export function monteCarloResult(counts) {
  const { win, ties, samples } = counts;
  const { mean, se } = mcStatistics(win, ties, samples);
  return {
    equity: mean, win: Array.from(win, (x) => x / samples), ties: ties.map((row) => Array.from(row, (x) => x / samples)),
    seEquity: se, exact: false, method: "monte carlo", samples, counts,
  };
}

/** Adds integer Monte Carlo counts ({win, ties, samples}) of several runs into one. */
export function mergeSamples(runs) {
  const win = Array.from(runs[0].win), ties = runs[0].ties.map((row) => Array.from(row));
  let samples = runs[0].samples;
  for (const other of runs.slice(1)) {
    other.win.forEach((x, p) => (win[p] += x));
    other.ties.forEach((row, p) => row.forEach((x, k) => (ties[p][k] += x)));
    samples += other.samples;
  }
  return { win, ties, samples };
}

/**
 * The figures of a run in progress (a worker's or the pool's merged progress message): for an
 * enumeration {done, total, counts: {win, ties, total, visited, unit}} the partial figures over the boards
 * (or deals, unit "deals") counted so far ({equity, win, ties, seEquity: null, exact: false, partial: true,
 * method: "enumeration", boards (or deals): visited, of: total, unit}; boards and deals are walked in order,
 * so these are not an estimate of the exact figures, only where the count stands); for sampling {samples,
 * se, counts: {win, ties, samples}} the current estimates with their standard errors (monteCarloResult,
 * partial: true). null while nothing is counted yet.
 */
export function progressResult({ total: of, counts }) {
  if (!counts) return null;
  if (counts.samples !== undefined) return counts.samples ? { ...monteCarloResult(counts), partial: true } : null;
  if (!counts.total) return null;
  const figures = summary(counts.win.length, counts.win, counts.ties, counts.total);
  const { unit = "boards" } = counts;
  return { ...figures, seEquity: null, exact: false, partial: true, method: "enumeration", [unit]: counts.visited, of, unit };
}

/** The exact counts of a class against players − 1 random hands (threehanded.json's or fourhanded.json's win,
 *  tie_2 … tie_<players>, total) as a table block of the shape multiwayTableEquity reads, marked exact
 *  (kernels/range_equity/tables.exact_block: the equity summed in the same order); ``boards``: board completions
 *  behind each deal. */
export function exactBlock(counts, players, boards = EXACT_TABLE_BOARDS) {
  const { win, total } = counts;
  const splits = Array.from({ length: players - 1 }, (_, k) => counts[`tie_${k + 2}`]);
  return {
    equity: total.map((t, c) => splits.reduce((share, split, k) => share + split[c] / (k + 2), win[c]) / t),
    win: total.map((t, c) => win[c] / t),
    tie_k: total.map((t, c) => [...splits.map((split) => split[c] / t), ...Array(MAX_PLAYERS - players).fill(0)]),
    se_equity: total.map(() => 0), samples: total.slice(), exact: true, boards,
  };
}

/**
 * A class against n − 1 random hands preflop from a table block: multiway.json's by_players[n] (Monte
 * Carlo: the hero seat's estimates and standard error as published) or exactBlock (exact). Each
 * random seat gets an equal share of the rest (its win and ties are not in the table: null). null when a
 * Monte Carlo table has no standard error for the class yet.
 */
export function multiwayTableEquity(hero, heroClass, n, block) {
  const se = block.se_equity[heroClass];
  if (se === null || se === undefined) return null;
  const exact = block.exact === true;
  const equity = block.equity[heroClass];
  const seat = (p, heroValue, otherValue) => (p === hero ? heroValue : otherValue);
  const heroTies = Array.from({ length: n - 1 }, (_, k) => block.tie_k[heroClass][k]);
  return {
    equity: Array.from({ length: n }, (_, p) => seat(p, equity, (1 - equity) / (n - 1))),
    win: Array.from({ length: n }, (_, p) => seat(p, block.win[heroClass], null)),
    ties: Array.from({ length: n }, (_, p) => seat(p, heroTies, null)),
    seEquity: exact ? null : Array.from({ length: n }, (_, p) => seat(p, se, se / (n - 1))),
    exact, method: "table", samples: block.samples[heroClass], ...(exact ? { boards: block.boards } : {}),
  };
}

/** The build's file that answers a class against random hands at ``players`` seats: the exact counts where the build
 *  has them (``exactPlayers``: the table sizes its pages say are exact; threehanded.json at 3, fourhanded.json at 4
 *  once computed), the multiway Monte Carlo table otherwise. */
const EXACT_TABLE_FILES = { 3: "threehanded.json", 4: "fourhanded.json" };
export const classTableFile = (players, exactPlayers = [3]) =>
  (EXACT_TABLE_FILES[players] && exactPlayers.includes(players) ? EXACT_TABLE_FILES[players] : "multiway.json");

/** That file's JSON as the document tableAnswer reads ({by_players: {n: block}}). */
export const classTableDocument = (players, json, exactPlayers = [3]) =>
  (classTableFile(players, exactPlayers) === "multiway.json" ? json : { by_players: { [players]: exactBlock(json, players) } });

/** [hero seat, class] when exactly one player holds one whole class (equal weights) and every other
 * player holds every combo with equal weights (random), else null. */
export function classAgainstRandom(weights) {
  const isRandom = (w) => w.every((x) => x === w[0] && x > 0);
  const heroes = weights.map((w, p) => (isRandom(w) ? -1 : p)).filter((p) => p >= 0);
  if (heroes.length !== 1) return null;
  const perClass = classWeights(weights[heroes[0]]);
  const classes = perClass ? [...perClass.keys()].filter((c) => perClass[c] > 0) : [];
  return classes.length === 1 ? [heroes[0], classes[0]] : null;
}

/** The answer of a "table" or "multiway table" plan (planEquity) from matchups.json or multiway.json, or
 * null when the table does not hold it. */
export function tableAnswer(method, live, table) {
  if (method === "table") return tableEquity(...live.map(classWeights), table);
  const [hero, heroClass] = classAgainstRandom(live);
  const block = table.by_players?.[live.length];
  return block ? multiwayTableEquity(hero, heroClass, live.length, block) : null;
}

/**
 * How a spot is answered, first that applies: "table" (heads-up preflop whole-class ranges, from
 * matchups.json), "multiway table" (one class against random hands preflop, 3+ players, from
 * multiway.json), "enumeration" (work ≤ exactLimit), else "monte carlo". Returns {method, live}
 * (live: liveWeights()); checks the spot's shape (throws Error) and card removal (NoDealError).
 */
export function planEquity(weights, board = [], dead = [], { exactLimit = EXACT_LIMIT } = {}) {
  exactLimit ??= EXACT_LIMIT;
  if (weights.length < 2 || weights.length > MAX_PLAYERS) throw new Error(`2 to ${MAX_PLAYERS} players, got ${weights.length}`);
  if (![0, 3, 4, 5].includes(board.length)) throw new Error(`a board has 0, 3, 4 or 5 cards, got ${board.length}`);
  if (new Set([...board, ...dead]).size !== board.length + dead.length) throw new Error("the board and dead cards repeat a card");
  const live = liveWeights(weights, board, dead);
  const preflop = !board.length && !dead.length && live.every((w, p) => w.every((x, i) => x === weights[p][i]));
  if (preflop && live.length === 2 && live.every((w) => classWeights(w))) return { method: "table", live };
  if (preflop && live.length >= 3 && classAgainstRandom(live)) return { method: "multiway table", live };
  return { method: enumerationWork(live, board, dead) <= exactLimit ? "enumeration" : "monte carlo", live };
}

/**
 * Equity of 2..10 players (weights: Float64Array(1326) each) on ``board`` (0/3/4/5 card ids) with ``dead``.
 * options: {matchups (matchups.json), multiway (multiway.json), exactLimit, onProgress, …sampleEquity
 * options}; a table that is not given (or lacks the answer) falls through to enumeration or sampling.
 */
export function rangeEquity(t, weights, board = [], dead = [], options = {}) {
  const { matchups = null, multiway = null, onProgress = () => false } = options;
  const { method, live } = planEquity(weights, board, dead, options);
  const table = { table: matchups, "multiway table": multiway }[method];
  const answer = table ? tableAnswer(method, live, table) : null;
  if (answer) return answer;
  if (enumerationWork(live, board, dead) <= (options.exactLimit ?? EXACT_LIMIT)) return enumerateEquity(t, live, board, dead, onProgress);
  return sampleEquity(t, live, board, dead, { ...options, onProgress });
}

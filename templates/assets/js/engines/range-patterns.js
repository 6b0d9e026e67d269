// Exact enumeration deal by deal, up to suit symmetry, each deal's board completions counted by rank pattern:
// the method of kernels/range_equity/patterns.py (docs/equity.md, "Deals up to suit symmetry").
//
// The compatible deals of hole cards are grouped into orbits under the suit permutations that fix the board and
// the dead cards, each orbit counted once with its deals' total weight. A deal's completions are counted by rank
// multiset (the rank pass, once per rank signature: flushes ignored), then, per suit, the completions on which a
// player holds five cards of it are walked by the ranks they take in that suit and the other ranks (the suit pass,
// once per rank signature and players' ranks in the suit): each adds its true outcome and takes away the rank
// pass's. Counts are integers, the same as Python's.

import {
  RANGE_EQUITY_DEALS_LIMIT, RANGE_EQUITY_PATTERN_DEAL, RANGE_EQUITY_PATTERN_PASS, RANGE_EQUITY_PATTERN_SETUP,
} from "./constants.js";
import { rankStrength } from "./evaluator.js";
import { COMBOS, comboIndex } from "./ranges.js";

/** Compatible deals (Π live range sizes) above which this method is not used; work units of setting up a spot, of
 * listing one compatible deal and of setting up one suit pass (spec/constants.json). */
export const DEALS_LIMIT = RANGE_EQUITY_DEALS_LIMIT;
const SETUP_COST = RANGE_EQUITY_PATTERN_SETUP, DEAL_COST = RANGE_EQUITY_PATTERN_DEAL, PASS_COST = RANGE_EQUITY_PATTERN_PASS;

/** The rank multisets of 0..5 cards (at most four of a rank) in Python's order: distinct ranks and counts, 5 a row
 * (each multiset as its non-decreasing rank sequence, in lexicographic order, size by size). */
const MULTISET_RANKS = [], MULTISET_COUNTS = [], MULTISET_START = [0];
{
  const sequence = new Int32Array(5);
  const visit = (size, from, depth) => {
    if (depth === size) {
      const row = MULTISET_RANKS.length;
      for (let e = 0; e < 5; e++) { MULTISET_RANKS.push(0); MULTISET_COUNTS.push(0); }
      for (let i = 0, e = -1; i < size; i++) {
        if (i === 0 || sequence[i] !== sequence[i - 1]) MULTISET_RANKS[row + ++e] = sequence[i];
        MULTISET_COUNTS[row + e]++;
      }
      if (MULTISET_COUNTS[row] > 4) { MULTISET_RANKS.length = row; MULTISET_COUNTS.length = row; } // five of a rank
      return;
    }
    for (let r = from; r < 13; r++) { sequence[depth] = r; visit(size, r, depth + 1); }
  };
  for (let size = 0; size <= 5; size++) {
    visit(size, 0, 0);
    MULTISET_START.push(MULTISET_RANKS.length / 5);
  }
}
const MULTISET_RANK = Int32Array.from(MULTISET_RANKS), MULTISET_COUNT = Int32Array.from(MULTISET_COUNTS);
/** Rank multisets of each size 0..5: 1, 13, 91, 455, 1,820, 6,175. */
const MULTISETS = MULTISET_START.slice(1).map((end, size) => end - MULTISET_START[size]);
const bitCount = (x) => { let k = 0; for (; x; x &= x - 1) k++; return k; };
/** The 8,192 rank sets as 13-bit masks by size, then value; those of size t start at SUBSET_START[t]. */
const SUBSETS = new Int32Array(1 << 13), SUBSET_START = new Array(15).fill(1 << 13);
{
  const sizes = Int32Array.from({ length: 1 << 13 }, (_, x) => bitCount(x));
  let next = 0;
  for (let t = 0; t <= 13; t++) {
    SUBSET_START[t] = next;
    for (let x = 0; x < 1 << 13; x++) if (sizes[x] === t) SUBSETS[next++] = x;
  }
}
/** C(n, k), exact for the card counts here (0 outside 0 ≤ k ≤ n). */
export function choose(n, k) {
  if (k < 0 || k > n) return 0;
  let r = 1;
  for (let i = 0; i < k; i++) r = (r * (n - i)) / (i + 1);
  return r;
}
const BINOMIAL = Int32Array.from({ length: 25 }, (_, i) => choose(Math.floor(i / 5), i % 5)); // C(a, k) at 5a + k
/** The 24 suit permutations in Python's order (identity first); PERMUTATIONS[g][s] is the image of suit s. */
const PERMUTATIONS = [];
const permute = (prefix) => (prefix.length === 4 ? PERMUTATIONS.push(prefix)
  : [0, 1, 2, 3].filter((s) => !prefix.includes(s)).forEach((s) => permute([...prefix, s])));
permute([]);
/** COMBO_IMAGES[g][c]: the combo that suit permutation g maps combo c to. */
const COMBO_IMAGES = PERMUTATIONS.map((perm) => Int32Array.from(COMBOS,
  ([a, b]) => comboIndex(a - (a & 3) + perm[a & 3], b - (b & 3) + perm[b & 3])));

/** Indices into the 24 permutations (0, the identity, first) that map the board and the dead cards onto themselves. */
export function suitSymmetries(board, dead) {
  const fixes = (perm, cards) => cards.every((c) => cards.includes(c - (c & 3) + perm[c & 3]));
  return PERMUTATIONS.flatMap((perm, g) => (fixes(perm, board) && fixes(perm, dead) ? [g] : []));
}

/** Live combo ids of each player. */
const liveCombos = (live) => live.map((w) => { const ids = []; w.forEach((x, c) => x > 0 && ids.push(c)); return ids; });

/**
 * Cost estimate of this method in the board method's units (Python's pattern_work, the same number): SETUP_COST,
 * DEAL_COST per compatible deal listed (Π live sizes), n per rank pattern of each rank signature (Π distinct rank
 * pairs per range), and per suit the distinct suit passes (at most the orbits that need one, at most Π over players
 * of their distinct (rank pair, ranks in the suit)), each PASS_COST and n per flush pattern it needs (expected over
 * deals drawn uniformly from the ranges); Infinity above DEALS_LIMIT.
 */
export function patternWork(live, board, dead) {
  const n = live.length, missing = 5 - board.length;
  let deals = 1, signatures = 1;
  const held = liveCombos(live).map((ids) => { // per suit: [combos holding 0, 1, 2 cards of it], distinct (rank pair, ranks in it)
    deals *= ids.length;
    signatures *= new Set(ids.map((c) => 13 * (COMBOS[c][0] >> 2) + (COMBOS[c][1] >> 2))).size;
    return [0, 1, 2, 3].map((suit) => {
      const counts = [0, 0, 0], distinct = new Set();
      for (const c of ids) {
        const [a, b] = COMBOS[c], inA = (a & 3) === suit, inB = (b & 3) === suit;
        counts[inA + inB]++;
        distinct.add(4 * (13 * (a >> 2) + (b >> 2)) + inA + 2 * inB);
      }
      return [counts, distinct.size];
    });
  });
  if (deals > DEALS_LIMIT) return Infinity;
  const orbits = Math.max(deals / suitSymmetries(board, dead).length, signatures);
  let flush = 0;
  for (let suit = 0; suit < 4; suit++) {
    const onBoard = board.filter((c) => (c & 3) === suit).length;
    const free = 13 - onBoard - dead.filter((c) => (c & 3) === suit).length;
    let below = 0, need = 0, expected = 0, passes = 1;
    for (let most = 0; most < 3; most++) {
      let share = 1;
      for (const player of held) {
        const [counts] = player[suit];
        let upTo = 0;
        for (let h = 0; h <= most; h++) upTo += counts[h];
        share *= upTo / (counts[0] + counts[1] + counts[2]);
      }
      let patterns = 0;
      for (let t = Math.max(0, 5 - onBoard - most); t <= missing; t++) patterns += choose(free, t) * MULTISETS[missing - t];
      if (patterns) need += share - below;
      expected += (share - below) * patterns;
      below = share;
    }
    for (const player of held) passes *= player[suit][1];
    if (need > 0) flush += Math.min(orbits * need, passes) * (PASS_COST + n * expected / need);
  }
  return SETUP_COST + deals * DEAL_COST + n * signatures * MULTISETS[missing] + flush;
}

/** Every deal of one combo per player sharing no card with another nor with ``board`` and ``dead``: {combos:
 * Int32Array(A·n), weight: Float64Array(A)} (the product of the players' weights). */
function compatibleDeals(live, board, dead) {
  const n = live.length, ids = liveCombos(live);
  const used = new Uint8Array(52);
  for (const c of [...board, ...dead]) used[c] = 1;
  const combos = [], weight = [], pick = new Int32Array(n);
  const walk = (p, product) => {
    if (p === n) { for (const c of pick) combos.push(c); weight.push(product); return; }
    for (const c of ids[p]) {
      const [a, b] = COMBOS[c];
      if (used[a] || used[b]) continue;
      used[a] = used[b] = 1;
      pick[p] = c;
      walk(p + 1, product * live[p][c]);
      used[a] = used[b] = 0;
    }
  };
  walk(0, 1);
  return { combos: Int32Array.from(combos), weight: Float64Array.from(weight) };
}

/** Deals grouped into orbits under the suit permutations ``perms``: one deal per orbit (its smallest image) and the
 * orbit's weight. */
function orbits({ combos, weight }, n, perms) {
  const count = weight.length, images = perms.map((g) => COMBO_IMAGES[g]);
  const smallest = Int32Array.from(combos);
  for (let i = 0; i < count; i++) {
    for (const image of images.slice(1)) {
      for (let p = 0; p < n; p++) {
        const x = image[combos[n * i + p]], y = smallest[n * i + p];
        if (x === y) continue;
        if (x < y) for (let q = 0; q < n; q++) smallest[n * i + q] = image[combos[n * i + q]];
        break;
      }
    }
  }
  const compare = (i, j) => {
    for (let p = 0; p < n; p++) {
      const d = smallest[n * i + p] - smallest[n * j + p];
      if (d) return d;
    }
    return 0;
  };
  const order = Int32Array.from({ length: count }, (_, i) => i).sort(compare);
  const reps = [], sums = [];
  order.forEach((i, k) => {
    if (k && !compare(i, order[k - 1])) sums[sums.length - 1] += weight[i];
    else { reps.push(i); sums.push(weight[i]); }
  });
  const out = new Int32Array(reps.length * n);
  reps.forEach((i, k) => out.set(smallest.subarray(n * i, n * i + n), n * k));
  return { combos: out, weight: Float64Array.from(sums) };
}

/**
 * One deal per orbit: {n, count, holes: Int32Array(count·2n), weight, made: Uint8Array (a player holds five cards
 * of a suit with the board), signature: Int32Array (its rank signature's row), signatures: Int32Array(S·2n) (one
 * deal's hole cards per signature)}.
 */
function canonicalDeals(live, board, dead) {
  const n = live.length, perms = suitSymmetries(board, dead);
  let deals = compatibleDeals(live, board, dead);
  if (perms.length > 1 && deals.weight.length) deals = orbits(deals, n, perms);
  const count = deals.weight.length, holes = new Int32Array(2 * n * count), made = new Uint8Array(count);
  const boardSuits = [0, 1, 2, 3].map((s) => board.filter((c) => (c & 3) === s).length);
  const signature = new Int32Array(count), rows = new Map(), signatures = [];
  for (let i = 0; i < count; i++) {
    let key = "";
    for (let p = 0; p < n; p++) {
      const [a, b] = COMBOS[deals.combos[n * i + p]];
      holes[2 * n * i + 2 * p] = a; holes[2 * n * i + 2 * p + 1] = b;
      key += String.fromCharCode(65 + 13 * (b >> 2) + (a >> 2));
      for (let s = 0; s < 4; s++) if (boardSuits[s] + ((a & 3) === s) + ((b & 3) === s) >= 5) made[i] = 1;
    }
    if (!rows.has(key)) { rows.set(key, rows.size); signatures.push(...holes.subarray(2 * n * i, 2 * n * (i + 1))); }
    signature[i] = rows.get(key);
  }
  return { n, count, holes, weight: deals.weight, made, signature, signatures: Int32Array.from(signatures) };
}

/** Rank keys of each evaluator's tables: {rankKey (13), multisetKey, subsetKey} (rank-key sums of each rank
 * multiset and of each rank set), computed once per tables object. */
const TABLE_KEYS = new WeakMap();
function tableKeys(t) {
  if (!TABLE_KEYS.has(t)) {
    const rankKey = Float64Array.from({ length: 13 }, (_, r) => t.cardRankKey[4 * r]);
    const multisetKey = new Float64Array(MULTISET_RANK.length / 5), subsetKey = new Float64Array(SUBSETS.length);
    for (let row = 0; row < multisetKey.length; row++) {
      for (let e = 0; e < 5; e++) multisetKey[row] += MULTISET_COUNT[5 * row + e] * rankKey[MULTISET_RANK[5 * row + e]];
    }
    SUBSETS.forEach((mask, u) => { for (let r = 0; r < 13; r++) if ((mask >> r) & 1) subsetKey[u] += rankKey[r]; });
    TABLE_KEYS.set(t, { rankKey, multisetKey, subsetKey });
  }
  return TABLE_KEYS.get(t);
}

/** tableKeys() with the board's rank-key sum and rank mask per suit. */
function patternKeys(t, board) {
  const { rankKey, multisetKey, subsetKey } = tableKeys(t), boardSuitRanks = new Int32Array(4);
  for (const c of board) boardSuitRanks[c & 3] |= 1 << (c >> 2);
  return { rankKey, multisetKey, subsetKey, boardSuitRanks, boardKey: board.reduce((k, c) => k + rankKey[c >> 2], 0) };
}

/** Ways to draw the rank multiset ``row`` when ``left[r]`` cards of rank r can be drawn. */
function completionsOf(left, row) {
  let count = 1;
  for (let e = 0; e < 5; e++) {
    const k = MULTISET_COUNT[5 * row + e];
    if (!k) break;
    count *= BINOMIAL[5 * left[MULTISET_RANK[5 * row + e]] + k];
  }
  return count;
}

/** Bit mask of the players with the best of ``strength`` (n ≤ 10 players). */
function winners(strength, n) {
  let best = -1, mask = 0;
  for (let p = 0; p < n; p++) {
    if (strength[p] > best) { best = strength[p]; mask = 1 << p; } else if (strength[p] === best) mask |= 1 << p;
  }
  return mask;
}

/** Add ``count`` to win[p] of a sole winner p, or to ties[p·(n−1) + k − 2] of each of k players tied, ``mask``. */
function credit(mask, n, count, win, ties) {
  const k = bitCount(mask);
  for (let p = 0; p < n; p++) {
    if (!((mask >> p) & 1)) continue;
    if (k === 1) win[p] += count;
    else ties[p * (n - 1) + k - 2] += count;
  }
}

/** Integer counts of the rank pass of signature ``i`` (over ``missing`` cards, no flushes) added to win, ties. */
function rankPass(t, deals, i, missing, keys, deck, win, ties) {
  const { n, signatures } = deals, left = Int32Array.from(deck), holeKey = new Float64Array(n), strength = new Int32Array(n);
  for (let p = 0; p < n; p++) {
    for (let h = 0; h < 2; h++) {
      const r = signatures[2 * n * i + 2 * p + h] >> 2;
      left[r]--;
      holeKey[p] += keys.rankKey[r];
    }
  }
  for (let row = MULTISET_START[missing]; row < MULTISET_START[missing + 1]; row++) {
    const count = completionsOf(left, row);
    if (!count) continue;
    const key = keys.boardKey + keys.multisetKey[row];
    for (let p = 0; p < n; p++) strength[p] = rankStrength(t, key + holeKey[p]);
    credit(winners(strength, n), n, count, win, ties);
  }
}

/** Scratch arrays of suitPass for n players. */
const passScratch = (n) => ({
  holeKey: new Float64Array(n), holeRanks: new Int32Array(n), inSuit: new Int32Array(n), used: new Uint8Array(52),
  other: new Int32Array(13), plain: new Int32Array(n), flush: new Int32Array(n), flushed: new Int32Array(n),
});

/**
 * Integer counts of the suit pass of deal ``i`` in ``suit`` (Python's _suit_passes): the flush patterns of the
 * suit, each its true outcome less the rank pass's (none when a player holds five cards of the suit already), into
 * ``win`` (n) and ``ties`` (n·(n−1)).
 */
function suitPass(t, deals, i, suit, missing, keys, known, s, win, ties) {
  const { n, holes } = deals, { holeKey, holeRanks, inSuit, used, other, plain, flush, flushed } = s;
  const { subsetKey, multisetKey, boardSuitRanks, boardKey } = keys;
  used.set(known);
  holeKey.fill(0); holeRanks.fill(0); inSuit.fill(0);
  let most = 0;
  for (let p = 0; p < n; p++) {
    for (let h = 0; h < 2; h++) {
      const c = holes[2 * n * i + 2 * p + h];
      used[c] = 1;
      holeKey[p] += keys.rankKey[c >> 2];
      if ((c & 3) === suit) { holeRanks[p] |= 1 << (c >> 2); inSuit[p]++; }
    }
    most = Math.max(most, inSuit[p]);
  }
  const onBoard = bitCount(boardSuitRanks[suit]), least = Math.max(0, 5 - onBoard - most), made = least === 0;
  let free = 0, nFree = 0;
  for (let r = 0; r < 13; r++) {
    other[r] = 0;
    for (let q = 0; q < 4; q++) {
      if (used[4 * r + q]) continue;
      if (q === suit) { free |= 1 << r; nFree++; } else other[r]++;
    }
  }
  for (let taken = least; taken <= Math.min(missing, nFree); taken++) {
    const rest = missing - taken;
    for (let u = SUBSET_START[taken]; u < SUBSET_START[taken + 1]; u++) {
      const ranks = SUBSETS[u];
      if (ranks & ~free) continue;
      for (let p = 0; p < n; p++) {
        flush[p] = inSuit[p] + onBoard + taken >= 5 ? t.flushValues[boardSuitRanks[suit] | holeRanks[p] | ranks] : -1;
      }
      for (let row = MULTISET_START[rest]; row < MULTISET_START[rest + 1]; row++) {
        const count = completionsOf(other, row);
        if (!count) continue;
        const key = boardKey + subsetKey[u] + multisetKey[row];
        for (let p = 0; p < n; p++) {
          plain[p] = rankStrength(t, key + holeKey[p]);
          flushed[p] = Math.max(plain[p], flush[p]);
        }
        const gained = winners(flushed, n), lost = made ? 0 : winners(plain, n); // the rank pass's outcome
        if (gained === lost) continue;
        credit(gained, n, count, win, ties);
        if (lost) credit(lost, n, -count, win, ties);
      }
    }
  }
}

/** Key of the suit pass of deal ``i`` in ``suit``: its rank signature, the suit and which of each player's cards
 * are of the suit (2 bits a player; so its ranks in the suit), on which its counts depend alone; -1 when no
 * completion gives a player five cards of the suit. */
function passKey(deals, i, suit, missing, onBoard) {
  const { n, holes } = deals;
  let key = 4 * deals.signature[i] + suit, most = 0;
  for (let p = 0; p < n; p++) {
    const a = holes[2 * n * i + 2 * p], b = holes[2 * n * i + 2 * p + 1], inA = (a & 3) === suit, inB = (b & 3) === suit;
    most = Math.max(most, inA + inB);
    key = 4 * key + (a >> 2 === b >> 2 ? inA || inB : inA + 2 * inB);
  }
  return 5 - onBoard - most <= missing ? key : -1;
}

/**
 * Weighted counts of the pattern method: {win: Float64Array(n), ties: n × Float64Array(n−1), total, boards, unit:
 * "deals"}, in the players' order. With ``parts`` > 1 only the orbits whose index ≡ ``part`` (mod parts) are counted,
 * so the parts' counts add up to the whole. ``onProgress(done, total, counts)``
 * every 64 orbits and at the end: ``done`` orbits of ``total`` walked (all parts' indices), ``counts`` the partial
 * counts so far with ``visited`` (orbits this part counted).
 */
export function patternCounts(t, live, board, dead, { part = 0, parts = 1, onProgress = () => {} } = {}) {
  const n = live.length, missing = 5 - board.length;
  const deals = canonicalDeals(live, board, dead), keys = patternKeys(t, board);
  const known = new Uint8Array(52), deck = new Int32Array(13);
  for (const c of [...board, ...dead]) known[c] = 1;
  for (let c = 0; c < 52; c++) if (!known[c]) deck[c >> 2]++;
  const mine = (i) => i % parts === part, k = n - 1;
  // the rank pass, once per signature that this part's deals without a made flush have
  const rankWin = new Float64Array(deals.signatures.length / 2), rankTies = new Float64Array(rankWin.length * k);
  const done = new Uint8Array(rankWin.length / n);
  for (let i = 0; i < deals.count; i++) {
    const row = deals.signature[i];
    if (!mine(i) || deals.made[i] || done[row]) continue;
    done[row] = 1;
    const [win, ties] = [rankWin.subarray(n * row, n * row + n), rankTies.subarray(n * k * row, n * k * (row + 1))];
    rankPass(t, deals, row, missing, keys, deck, win, ties);
  }
  const win = new Float64Array(n), ties = new Float64Array(n * k);
  const countWin = new Float64Array(n), countTies = new Float64Array(n * k);
  let weightTotal = 0, visited = 0;
  const passes = new Map(), onBoard = Array.from(keys.boardSuitRanks, bitCount); // suit passes by key: counts (n + n·k)
  const scratch = passScratch(n), boards = choose(52 - board.length - dead.length, missing);
  const held = choose(52 - board.length - dead.length - 2 * n, missing);
  const counts = () => ({ win: Float64Array.from(win), ties: Array.from({ length: n }, (_, p) => ties.slice(p * k, (p + 1) * k)),
    total: weightTotal * held, boards, unit: "deals" });
  for (let i = 0; i < deals.count; i++) {
    if (mine(i)) { // this deal's rank pass (its signature's, unless a flush is made) and suit passes, weighted
      const row = deals.signature[i], weight = deals.weight[i];
      if (!deals.made[i]) {
        countWin.set(rankWin.subarray(n * row, n * row + n));
        countTies.set(rankTies.subarray(n * k * row, n * k * (row + 1)));
      }
      for (let suit = 0; suit < 4; suit++) {
        const key = passKey(deals, i, suit, missing, onBoard[suit]);
        if (key < 0) continue;
        let pass = passes.get(key);
        if (!pass) {
          pass = new Float64Array(n + n * k);
          suitPass(t, deals, i, suit, missing, keys, known, scratch, pass.subarray(0, n), pass.subarray(n));
          passes.set(key, pass);
        }
        for (let p = 0; p < n; p++) countWin[p] += pass[p];
        for (let j = 0; j < n * k; j++) countTies[j] += pass[n + j];
      }
      for (let p = 0; p < n; p++) { win[p] += weight * countWin[p]; countWin[p] = 0; }
      for (let j = 0; j < n * k; j++) { ties[j] += weight * countTies[j]; countTies[j] = 0; }
      weightTotal += weight;
      visited++;
    }
    if (i % 64 === 63 || i === deals.count - 1) onProgress(i + 1, deals.count, { ...counts(), visited });
  }
  return counts();
}

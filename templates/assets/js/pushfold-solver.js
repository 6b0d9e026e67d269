// n-player push/fold (2..10 seats) in the browser: the game, discounted CFR and the NashConv of
// kernels/pushfold_table/, iterate for iterate (same start, alternating seat updates, regrets discounted
// after each iteration and floored at zero, averages weighted by iteration², a NashConv check every 5 iterations). The game and its stated
// approximations are in that module's docstring and docs/pushfold.md.
//
// Pure ES module: no DOM, no globals; runs in node ≥ 20 and in a Web Worker (pushfold-worker.js).
//   tableErrors(table) -> string[]                     (the messages of kernels.pushfold_table.table_errors)
//   loadEquities(matchupsBuffer, threewayBuffer|null)  (data/matchups.bin, data/threeway.bin)
//   solvePushfold(table, equities, {tolerance, maxIterations, start, onProgress, shouldStop}) -> solution
// table = {stacks (bb, first to act first; last two SB, BB), blinds: [sb, bb], ante, bbAnte, payouts|null}.
// Amounts are bb; ICM payoffs are prize units; NashConv is reported in bb (chip EV) or % of the pool (ICM).
//
// Speed: no dense K³ tensor. A 3-way pot's value for a seat, per class c, is a sum over the classes its
// two opponents play (their supports) against the compact sorted-triple table; a strategy is split
// into a constant (0, 1, or the start's 1/2) plus deviations, and the constant's part is read from
// marginals of the table computed once, so wide ranges cost as little as narrow ones. Vectors that depend only on a strategy (P(action | hero class)) are kept until it changes.

import { icm } from "./icm.js";
import { parseMatchupTable } from "./matchup-table.js";
import { formatG } from "./python-format.js";

export const MAX_SEATS = 10;
export const CHECK_EVERY = 5;
/** A warm start is used when its NashConv is ≤ START_WITHIN tolerances, with regrets of START_REGRET tolerances (as the build's tables). */
export const START_WITHIN = 2.5;
export const START_REGRET = 10;
/** Defaults of `allin pushfold`: NashConv ≤ 0.01 bb (chip EV) or ≤ 0.05% of the pool (ICM), ≤ 3,000 iterations. */
export const TOLERANCE_BB = 0.01;
export const TOLERANCE_POOL_PCT = 0.05;
/** The per-class rule (kernels.pushfold_table.RULE): every class's regret at every decision ≤ 0.01 bb / 0.01% of the pool. */
export const CLASS_TOLERANCE_BB = 0.01;
export const CLASS_TOLERANCE_POOL_PCT = 0.01;
/** Heads-up tables are held tighter: the NashConv HEADS_UP_SCALE times (the heads-up threshold table's 1e-5 bb),
 *  class regrets HEADS_UP_CLASS_SCALE times. */
export const HEADS_UP_SCALE = 1e-3;
export const HEADS_UP_CLASS_SCALE = 1e-2;
/** Decisions a class reaches less often than this have their regret divided by it instead of by their reach. */
export const REACH_FLOOR = 1e-2;
export const MAX_ITERATIONS = 5000;

const K = 169;
const RANKS = "AKQJT98765432";
/** The 169 class names in data-file order (index 13·row + column; pairs on the diagonal, suited above). */
export const CLASS_NAMES = Array.from({ length: K }, (_, i) => {
  const [row, col] = [Math.floor(i / 13), i % 13];
  if (row === col) return RANKS[row] + RANKS[row];
  return row < col ? `${RANKS[row]}${RANKS[col]}s` : `${RANKS[col]}${RANKS[row]}o`;
});
const COMBOS = CLASS_NAMES.map((name) => (name.length === 2 ? 6 : name[2] === "s" ? 4 : 12));

// The 13 weak orderings of three hands (ranks = hands strictly stronger), as kernels.threeway.core.ORDERINGS.
const ORDERINGS = [];
const ORDER_CODE = new Int32Array(27).fill(-1);
for (let a = 0; a < 3; a++) for (let b = 0; b < 3; b++) for (let c = 0; c < 3; c++) {
  const r = [a, b, c];
  if (r.every((x) => x === r.filter((y) => y < x).length)) {
    ORDER_CODE[9 * a + 3 * b + c] = ORDERINGS.length;
    ORDERINGS.push(r);
  }
}
const NO = ORDERINGS.length; // 13
const DUEL_ORDERINGS = [[0, 1], [0, 0], [1, 0]];
const code = (r) => ORDER_CODE[9 * r[0] + 3 * r[1] + r[2]];
// The 6 ways seats (0, 1, 2) of a frame sit in sorted class order (stable: equal classes keep frame order):
// sorted position j holds frame seat PERMS[p][j]; STORED[p][o]: the stored ordering of frame ordering o.
const PERMS = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]];
const STORED = PERMS.map((perm) => Int32Array.from(ORDERINGS, (r) => code(perm.map((seat) => r[seat]))));
const TRI3 = Int32Array.from({ length: K }, (_, k) => ((k + 2) * (k + 1) * k) / 6);
const TRI2 = Int32Array.from({ length: K }, (_, j) => ((j + 1) * j) / 2);
const N_TRIPLES = ((K + 2) * (K + 1) * K) / 6;

const THREEWAY_MAGIC = "ALLINTWY";
const THREEWAY_VERSION = 1;
const THREEWAY_HEADER_BYTES = 8 + 6 * 4;
const ROW_BYTES = 16;
const ROW_WORDS = ROW_BYTES / 2;
const WEIGHT_WORD = 7;

// ------------------------------------------------------------------------------------------- tables

export function positionNames(n) {
  const early = { 0: [], 1: ["CO"], 2: ["UTG", "CO"], 3: ["UTG", "HJ", "CO"], 4: ["UTG", "LJ", "HJ", "CO"],
    5: ["UTG", "UTG+1", "LJ", "HJ", "CO"], 6: ["UTG", "UTG+1", "UTG+2", "LJ", "HJ", "CO"],
    7: ["UTG", "UTG+1", "UTG+2", "MP", "LJ", "HJ", "CO"] };
  return n === 2 ? ["SB", "BB"] : [...early[n - 3], "BTN", "SB", "BB"];
}


function posted(table) {
  const n = table.stacks.length;
  const antes = new Array(n).fill(table.bbAnte ? 0 : table.ante);
  if (table.bbAnte) antes[n - 1] = table.ante;
  const blinds = new Array(n).fill(0);
  [blinds[n - 2], blinds[n - 1]] = table.blinds;
  return { antes, blinds };
}

/** Problems with a table as short sentences (empty when it can be solved): kernels.pushfold_table.table_errors. */
export function tableErrors(table) {
  const n = table.stacks.length;
  if (!(n >= 2 && n <= MAX_SEATS)) return [`${n} stacks given: push/fold needs 2 to ${MAX_SEATS} players`];
  const errors = [];
  const [small, big] = table.blinds;
  if (!(small >= 0 && small <= big && big > 0)) {
    errors.push(`blinds ${pyFloat(small)}/${pyFloat(big)}: need 0 <= small blind <= big blind and big blind > 0`);
  }
  if (table.ante < 0) errors.push(`ante ${pyFloat(table.ante)} is negative`);
  const { antes, blinds } = posted(table);
  table.stacks.forEach((stack, seat) => {
    const total = antes[seat] + blinds[seat];
    if (!(stack > total)) errors.push(`stack ${formatG(stack)} bb of seat ${seat + 1} does not cover its blind and ante (${formatG(total)} bb)`);
  });
  if (table.payouts != null) {
    if (table.payouts.length > n) errors.push(`${table.payouts.length} payouts for ${n} players`);
    if (table.payouts.some((p) => p < 0) || !(table.payouts.reduce((s, p) => s + p, 0) > 0)) {
      errors.push("payouts must be non-negative with a positive total");
    }
  }
  return errors;
}

/** Python's str() of a float (1 → "1.0"). */
function pyFloat(x) {
  return Number.isInteger(x) ? `${x}.0` : String(x);
}

// ------------------------------------------------------------------------------------------ equities

/** Class-level showdown data: matchups.bin (exact heads-up win / tie / loss, compatible combo pairs) and,
 *  for 3+ players, threeway.bin (docs/data-format.md). Throws Error on a damaged file. */
export function loadEquities(matchupsBuffer, threewayBuffer = null) {
  const m = parseMatchupTable(matchupsBuffer);
  const comboTotal = COMBOS.reduce((s, c) => s + c, 0);
  const prior = Float64Array.from(COMBOS, (c) => c / comboTotal);
  const cond = new Float64Array(K * K);
  const duel = new Float64Array(K * K * 3);
  let pairTotal = 0;
  for (let c = 0; c < K; c++) for (let d = 0; d < K; d++) pairTotal += m.pairs[c][d];
  const joint = new Float64Array(K * K);
  const condEquity = new Float64Array(K * K);
  for (let c = 0; c < K; c++) {
    let rowTotal = 0;
    for (let d = 0; d < K; d++) rowTotal += m.pairs[c][d];
    for (let d = 0; d < K; d++) {
      const total = m.pairs[c][d] * m.boards;
      const at = (c * K + d) * 3;
      duel[at] = m.win[c][d] / total;
      duel[at + 1] = m.tie[c][d] / total;
      duel[at + 2] = m.loss[c][d] / total;
      cond[c * K + d] = m.pairs[c][d] / rowTotal;
      joint[c * K + d] = m.pairs[c][d] / pairTotal;
      condEquity[c * K + d] = cond[c * K + d] * (duel[at] + duel[at + 1] / 2);
    }
  }
  return { prior, cond, duel, joint, condEquity, triple: threewayBuffer ? parseThreeway(threewayBuffer) : null };
}

function parseThreeway(buffer) {
  if (buffer.byteLength < THREEWAY_HEADER_BYTES) throw new Error("threeway.bin: truncated");
  const magic = String.fromCharCode(...new Uint8Array(buffer, 0, 8));
  const [version, classes, orderings, scale, boards, seed] = new Uint32Array(buffer.slice(8, THREEWAY_HEADER_BYTES));
  if (magic !== THREEWAY_MAGIC || version !== THREEWAY_VERSION || classes !== K || orderings !== NO) {
    throw new Error(`threeway.bin: not a version ${THREEWAY_VERSION} table of ${K} classes`);
  }
  if (buffer.byteLength !== THREEWAY_HEADER_BYTES + N_TRIPLES * (2 + NO)) throw new Error("threeway.bin: truncated");
  const compatible = new Uint16Array(buffer, THREEWAY_HEADER_BYTES, N_TRIPLES);
  const counts = new Uint8Array(buffer, THREEWAY_HEADER_BYTES + 2 * N_TRIPLES, N_TRIPLES * NO);
  // One 16-byte record per row (the 13 counts, then the compatible combo triples as uint16 at byte 14),
  // so that a row is one memory access: the solver's reads jump around a 13 MB table.
  const rows = new Uint8Array(N_TRIPLES * ROW_BYTES);
  const weights = new Uint16Array(rows.buffer);
  const rowMass = new Float64Array(N_TRIPLES); // Σ_o compatible · P(o)
  for (let row = 0; row < N_TRIPLES; row++) {
    let total = 0;
    for (let o = 0; o < NO; o++) {
      rows[row * ROW_BYTES + o] = counts[row * NO + o];
      total += counts[row * NO + o];
    }
    weights[row * ROW_WORDS + WEIGHT_WORD] = compatible[row];
    rowMass[row] = (compatible[row] * total) / scale;
  }
  const norm = new Float64Array(K); // Σ_{d,e} compatible(c, d, e): the 3-way weight of hero class c
  for (let c = 0; c < K; c++) {
    let total = 0;
    for (let d = 0; d < K; d++) for (let e = 0; e < K; e++) total += rowMass[sortedRow(c, d, e)];
    norm[c] = total;
  }
  return { rows, weights, scale, norm, boards, seed, marginals: null };
}

function sortedRow(a, b, c) {
  let t;
  if (a > b) { t = a; a = b; b = t; }
  if (b > c) { t = b; b = c; c = t; }
  if (a > b) { t = a; a = b; b = t; }
  return TRI3[c] + TRI2[b] + a;
}

/** visit(c, p, row) for every hero class c (or those of `heroes`) in frame (hero c, second d, third e):
 *  p indexes PERMS (equal classes keep frame order), row is the sorted triple's. The hero's class below,
 *  between and above the other two are three seatings with rows in closed form. */
function eachSeating(d, e, visit, heroes = null) {
  if (heroes) {
    for (const c of heroes) {
      const p = c <= d ? (d <= e ? 0 : c <= e ? 1 : 4) : c <= e ? 2 : d <= e ? 3 : 5;
      const sorted = PERMS[p].map((seat) => [c, d, e][seat]);
      visit(c, p, TRI3[sorted[2]] + TRI2[sorted[1]] + sorted[0]);
    }
  } else if (d <= e) { // c ≤ d ≤ e, then d < c ≤ e, then d ≤ e < c
    for (let c = 0; c <= d; c++) visit(c, 0, TRI3[e] + TRI2[d] + c);
    for (let c = d + 1; c <= e; c++) visit(c, 2, TRI3[e] + TRI2[c] + d);
    for (let c = e + 1; c < K; c++) visit(c, 3, TRI3[c] + TRI2[e] + d);
  } else { // c ≤ e < d, then e < c ≤ d, then e < d < c
    for (let c = 0; c <= e; c++) visit(c, 1, TRI3[d] + TRI2[e] + c);
    for (let c = e + 1; c <= d; c++) visit(c, 4, TRI3[d] + TRI2[c] + e);
    for (let c = d + 1; c < K; c++) visit(c, 5, TRI3[c] + TRI2[d] + e);
  }
}

/** The table's marginals in frame (hero, second, third), for the constant part of opponents' strategies:
 *  second[(c·K + d)·13 + o] = Σ_e mass[o, c, d, e], third[(c·K + e)·13 + o] = Σ_d mass, all[c·13 + o] = Σ_{d,e}. */
function marginals(triple) {
  if (triple.marginals) return triple.marginals;
  const { rows, weights, scale } = triple;
  const second = new Float64Array(K * K * NO);
  const third = new Float64Array(K * K * NO);
  for (let d = 0; d < K; d++) {
    for (let e = 0; e < K; e++) {
      eachSeating(d, e, (c, p, row) => {
        const w = weights[row * ROW_WORDS + WEIGHT_WORD] / scale;
        if (w === 0) return;
        const map = STORED[p];
        const base = row * ROW_BYTES;
        const s = (c * K + d) * NO;
        const t = (c * K + e) * NO;
        for (let o = 0; o < NO; o++) {
          const v = w * rows[base + map[o]];
          second[s + o] += v;
          third[t + o] += v;
        }
      });
    }
  }
  const all = new Float64Array(K * NO);
  for (let c = 0; c < K; c++) for (let d = 0; d < K; d++) for (let o = 0; o < NO; o++) all[c * NO + o] += second[(c * K + d) * NO + o];
  triple.marginals = { second, third, all };
  return triple.marginals;
}

// ------------------------------------------------------------------------------------------ the game

function payoffOf(table, final) {
  if (table.payouts == null) return final.map((chips, seat) => chips - table.stacks[seat]);
  return icm(final.map((chips) => Math.max(chips, 0)), table.payouts, { places: false }).equity;
}

function winnings(layers, allIn, ranks) {
  const won = new Array(allIn.length).fill(0);
  for (const { amount, eligible } of layers) {
    const best = Math.min(...eligible.map((s) => ranks[allIn.indexOf(s)]));
    const winners = eligible.filter((s) => ranks[allIn.indexOf(s)] === best);
    for (const s of winners) won[allIn.indexOf(s)] += amount / winners.length;
  }
  return won;
}

function evenSplit(layers, seats, final) {
  for (const { amount, eligible } of layers) {
    const among = eligible.filter((s) => seats.includes(s));
    for (const s of among) final[s] += amount / among.length;
  }
}

function makeTerminal(table, shover, callers) {
  const n = table.stacks.length;
  const { antes, blinds } = posted(table);
  const stacks = table.stacks;
  const base = stacks.map((s, i) => s - antes[i] - blinds[i]);
  if (shover < 0) {
    const final = base.slice();
    final[n - 1] += antes.reduce((a, b) => a + b, 0) + blinds.reduce((a, b) => a + b, 0);
    const payoff = payoffOf(table, final);
    return { shover, callers, allIn: [n - 1], payoff: payoff.map((p) => [p]), layers: [], base };
  }
  const allIn = [shover, ...callers];
  const behind = stacks.map((s, i) => s - antes[i]);
  const bets = allIn.map((s) => Math.min(behind[s], behind[shover]));
  allIn.forEach((s, i) => (base[s] = stacks[s] - antes[s] - bets[i]));
  let dead = antes.reduce((a, b) => a + b, 0);
  for (let s = 0; s < n; s++) if (!allIn.includes(s)) dead += blinds[s];
  const levels = [...new Set(bets)].sort((a, b) => a - b);
  const layers = [];
  let previous = 0;
  levels.forEach((level, k) => {
    let amount = 0;
    for (const b of bets) amount += Math.min(b, level) - Math.min(b, previous);
    if (k === 0) amount += dead;
    layers.push({ amount, eligible: allIn.filter((_, i) => bets[i] >= level) });
    previous = level;
  });
  const m = allIn.length;
  if (m <= 3) {
    const ranks = m === 1 ? [[0]] : m === 2 ? DUEL_ORDERINGS : ORDERINGS;
    const payoff = Array.from({ length: n }, () => new Array(ranks.length));
    ranks.forEach((rank, o) => {
      const won = winnings(layers, allIn, rank);
      const final = base.slice();
      allIn.forEach((s, i) => (final[s] += won[i]));
      payoffOf(table, final).forEach((p, seat) => (payoff[seat][o] = p));
    });
    return { shover, callers, allIn, payoff, layers, base };
  }
  const payoff = Array.from({ length: n }, () => new Array(3));
  for (let seat = 0; seat < n; seat++) {
    [true, false].forEach((heroWins, column) => {
      const final = base.slice();
      const rest = [];
      for (const { amount, eligible } of layers) {
        const others = eligible.filter((s) => s !== seat);
        if (eligible.includes(seat) && (heroWins || !others.length)) final[seat] += amount;
        else rest.push({ amount, eligible: others });
      }
      evenSplit(rest, allIn, final);
      payoff[seat][column] = payoffOf(table, final)[seat];
    });
  }
  const final = base.slice();
  evenSplit(layers, allIn, final);
  payoffOf(table, final).forEach((p, seat) => (payoff[seat][2] = p));
  return { shover, callers, allIn, payoff, layers, base };
}

function subsets(items) {
  const out = [];
  for (let size = 0; size <= items.length; size++) {
    const pick = (start, chosen) => {
      if (chosen.length === size) return out.push(chosen);
      for (let i = start; i < items.length; i++) pick(i + 1, [...chosen, items[i]]);
    };
    pick(0, []);
  }
  return out;
}

/** Terminals and information sets of a table, in the order of kernels.pushfold_table.make_game. */
function makeGame(table) {
  const errors = tableErrors(table);
  if (errors.length) throw new Error(errors.join("; "));
  const n = table.stacks.length;
  const infosets = [];
  for (let seat = 0; seat < n - 1; seat++) infosets.push({ seat, shover: null, before: [] });
  const terminals = [makeTerminal(table, -1, [])];
  const callSets = [];
  for (let shover = 0; shover < n - 1; shover++) {
    const later = Array.from({ length: n - 1 - shover }, (_, i) => shover + 1 + i);
    for (const callers of subsets(later)) terminals.push(makeTerminal(table, shover, callers));
    for (const seat of later) {
      for (const before of subsets(later.filter((s) => s < seat))) callSets.push({ seat, shover, before });
    }
  }
  infosets.push(...callSets);
  const index = new Map(infosets.map((info, i) => [infoKey(info.seat, info.shover, info.before), i]));
  for (const info of infosets) info.path = pathTo(info, index);
  for (const t of terminals) {
    t.decisions = [];
    for (let seat = 0; seat < n; seat++) {
      let decision = null;
      if (t.shover < 0) decision = seat < n - 1 ? { info: seat, action: 0 } : null;
      else if (seat <= t.shover) decision = { info: seat, action: seat === t.shover ? 1 : 0 };
      else decision = { info: index.get(infoKey(seat, t.shover, t.callers.filter((s) => s < seat))), action: t.callers.includes(seat) ? 1 : 0 };
      t.decisions.push(decision);
    }
    t.m = t.allIn.length;
    t.constant = t.payoff.map((row) => row.every((p) => p === row[0]));
    if (t.m === 3 && t.shover >= 0) prepareTriple(t, n);
  }
  return { table, n, terminals, infosets, icmGame: table.payouts != null };
}

/** The other seats' decisions {info, action} on the way to an information set (kernels.pushfold_table._path_to). */
function pathTo(info, index) {
  if (info.shover === null) return Array.from({ length: info.seat }, (_, s) => ({ info: s, action: 0 }));
  const path = Array.from({ length: info.shover }, (_, s) => ({ info: s, action: 0 }));
  path.push({ info: info.shover, action: 1 });
  for (let s = info.shover + 1; s < info.seat; s++) {
    path.push({ info: index.get(infoKey(s, info.shover, info.before.filter((b) => b < s))), action: info.before.includes(s) ? 1 : 0 });
  }
  return path;
}

function infoKey(seat, shover, before) {
  return shover === null ? `open ${seat}` : `call ${seat} ${shover} ${before.join(",")}`;
}

/** For each seat of a 3-way pot, its frame (itself, then the other two in pot order) and its payoff per
 *  stored ordering under each of the 6 seatings in sorted class order; and every seat's payoff in the pot's frame. */
function prepareTriple(t, n) {
  t.frames = t.allIn.map((seat) => {
    const order = [seat, ...t.allIn.filter((s) => s !== seat)];
    const position = order.map((s) => t.allIn.indexOf(s));
    const framePay = new Float64Array(NO);
    ORDERINGS.forEach((rank, o) => (framePay[code(position.map((i) => rank[i]))] = t.payoff[seat][o]));
    const stored = PERMS.map((_, p) => {
      const pay = new Float64Array(NO);
      for (let o = 0; o < NO; o++) pay[STORED[p][o]] = framePay[o];
      return pay;
    });
    return { seat, others: order.slice(1), framePay, stored };
  });
  t.seatPay = Array.from({ length: n }, (_, seat) => Float64Array.from(t.payoff[seat]));
}

// ------------------------------------------------------------------------------------- the strategies

/** Per information set: p (K) of the aggressive action, its support, a version
 *  counter, p as offset + deviation (tripleSums), and P(it acts aggressively | hero class c) = Σ_d cond[c, d] · p[d] (kept until p changes). */
class Strategy {
  constructor(count, eq) {
    this.eq = eq;
    this.p = Array.from({ length: count }, () => new Float64Array(K));
    this.version = new Int32Array(count);
    this.support = new Array(count);
    this.offset = new Float64Array(count);
    this.deviation = Array.from({ length: count }, () => new Float64Array(K));
    this.deviationSupport = new Array(count);
    this.reach = Array.from({ length: count }, () => [new Float64Array(K), new Float64Array(K)]);
    this.reachVersion = new Int32Array(count).fill(-1);
    this.wins = Array.from({ length: count }, () => new Float64Array(K));
    this.winsVersion = new Int32Array(count).fill(-1);
  }

  changed(i) {
    const p = this.p[i];
    this.version[i]++;
    const support = [];
    for (let c = 0; c < K; c++) if (p[c] > 0) support.push(c);
    this.support[i] = Int32Array.from(support);
    // p = offset + deviation with the fewest deviations: 0 + p, 1 + (p − 1) for wide ranges, or uniform
    let ones = 0;
    for (let c = 0; c < K; c++) if (p[c] === 1) ones++;
    const uniform = p.every((x) => x === p[0]);
    const offset = uniform ? p[0] : K - ones < support.length ? 1 : 0;
    const deviation = this.deviation[i];
    const deviating = [];
    for (let c = 0; c < K; c++) {
      deviation[c] = p[c] - offset;
      if (deviation[c] !== 0) deviating.push(c);
    }
    this.offset[i] = offset;
    this.deviationSupport[i] = Int32Array.from(deviating);
  }

  /** (K,) P(the set's action `action` | hero class). */
  given(i, action) {
    if (this.reachVersion[i] !== this.version[i]) {
      const { cond } = this.eq;
      const p = this.p[i];
      const support = this.support[i];
      const [fold, aggressive] = this.reach[i];
      for (let c = 0; c < K; c++) {
        let total = 0;
        const row = c * K;
        for (let j = 0; j < support.length; j++) total += cond[row + support[j]] * p[support[j]];
        aggressive[c] = total;
        fold[c] = 1.0 - total;
      }
      this.reachVersion[i] = this.version[i];
    }
    return this.reach[i][action];
  }

  /** (K,) the hero's equity against the set's range, given that the set plays: Σ_d cond[c, d] · equity(c vs d)
   *  · p[d] / P(plays | c) (0 where it never plays). */
  equityAgainst(i) {
    if (this.winsVersion[i] !== this.version[i]) {
      const { condEquity } = this.eq;
      const p = this.p[i];
      const support = this.support[i];
      const weight = this.given(i, 1);
      const wins = this.wins[i];
      for (let c = 0; c < K; c++) {
        let total = 0;
        for (let j = 0; j < support.length; j++) total += condEquity[c * K + support[j]] * p[support[j]];
        wins[c] = weight[c] > 0 ? total / weight[c] : 0;
      }
      this.winsVersion[i] = this.version[i];
    }
    return this.wins[i];
  }
}

// ------------------------------------------------------------------------------- counterfactual values

/** G[c·13 + o] = Σ_{d,e} p2[d] · p3[e] · mass[o, c, d, e] in frame (hero, second, third), for hero classes
 *  `heroes` (all when null); with `payoff` (a prepareTriple frame: the hero's payoff per frame ordering and
 *  per stored ordering under each of the 6 seatings) instead the (K,) Σ_o payoff[o] · G[c, o].
 *
 *  Each strategy is offset + deviation (Strategy.changed): the offsets' part is read from the table's
 *  marginals, and only the deviations' supports are summed over the table itself. */
function tripleSums(triple, strategy, second, third, heroes = null, payoff = null) {
  const [a2, a3] = [strategy.offset[second], strategy.offset[third]];
  const [d2, d3] = [strategy.deviation[second], strategy.deviation[third]];
  const [s2, s3] = [strategy.deviationSupport[second], strategy.deviationSupport[third]];
  const classes = heroes ?? ALL_CLASSES;
  const sums = new Float64Array(K * NO);
  let marginal = false;
  if (a2 !== 0 && a3 !== 0) {
    const { all } = marginals(triple);
    for (const c of classes) for (let o = 0; o < NO; o++) sums[c * NO + o] += a2 * a3 * all[c * NO + o];
    marginal = true;
  }
  for (const [offset, deviation, support, table] of [[a2, d3, s3, "third"], [a3, d2, s2, "second"]]) {
    if (offset === 0 || !support.length) continue;
    const m = marginals(triple)[table]; // summed over the seat whose strategy is the offset alone
    for (const c of classes) {
      for (const x of support) {
        const w = offset * deviation[x];
        const at = (c * K + x) * NO;
        for (let o = 0; o < NO; o++) sums[c * NO + o] += w * m[at + o];
      }
    }
    marginal = true;
  }
  if (payoff) {
    const out = marginal ? payoffSums(sums, payoff.framePay) : new Float64Array(K);
    if (s2.length && s3.length) {
      const sparse = tripleValues(triple, d2, s2, d3, s3, payoff.stored);
      for (let c = 0; c < K; c++) out[c] += sparse[c];
    }
    return out;
  }
  for (const d of s2) {
    for (const e of s3) {
      const w = d2[d] * d3[e];
      eachSeating(d, e, (c, p, row) => add(triple, sums, c, p, row, w), heroes);
    }
  }
  return sums;
}

/** (K,) Σ_o pay[o] · G[c, o] (pay per frame ordering). */
function payoffSums(sums, pay) {
  const out = new Float64Array(K);
  for (let c = 0; c < K; c++) {
    let total = 0;
    for (let o = 0; o < NO; o++) total += pay[o] * sums[c * NO + o];
    out[c] = total;
  }
  return out;
}

/** The sparse part with a payoff: (K,) Σ_{d ∈ s2, e ∈ s3} p2[d] · p3[e] · mass · payoff, one scalar per hero class.
 *  Per opponent pair (lo ≤ hi its classes) the hero's class c is below lo, between or above hi, each a
 *  seating of its own; each part is walked in the order that reads the table's rows nearly in sequence. */
function tripleValues(triple, p2, s2, p3, s3, stored) {
  const out = new Float64Array(K);
  for (const upward of [true, false]) { // second's class ≤ third's, or above it: different seatings
    const pairs = [];
    for (const d of s2) for (const e of s3) if ((d <= e) === upward) pairs.push(upward ? [d, e, p2[d] * p3[e]] : [e, d, p2[d] * p3[e]]);
    if (!pairs.length) continue;
    pairs.sort((x, y) => x[1] - y[1] || x[0] - y[0]); // by hi, then lo
    const count = pairs.length;
    const lo = Int32Array.from(pairs, (x) => x[0]), hi = Int32Array.from(pairs, (x) => x[1]), w = Float64Array.from(pairs, (x) => x[2]);
    const [below, between, above] = (upward ? [stored[0], stored[2], stored[3]] : [stored[1], stored[4], stored[5]]).map(rowDot);
    const { rows, weights } = triple;
    for (let q = 0; q < count; q++) { // c ≤ lo: rows TRI3[hi] + TRI2[lo] + c, consecutive
      const top = TRI3[hi[q]] + TRI2[lo[q]];
      for (let c = 0; c <= lo[q]; c++) out[c] += w[q] * below(rows, weights, top + c);
    }
    for (let first = 0; first < count;) { // lo < c ≤ hi: rows TRI3[hi] + TRI2[c] + lo, by hi then c, lo ascending
      let last = first;
      while (last < count && hi[last] === hi[first]) last++;
      const block = TRI3[hi[first]];
      for (let c = lo[first] + 1; c <= hi[first]; c++) {
        const start = block + TRI2[c];
        let total = 0;
        for (let q = first; q < last && lo[q] < c; q++) total += w[q] * between(rows, weights, start + lo[q]);
        out[c] += total;
      }
      first = last;
    }
    for (let c = hi[0] + 1; c < K; c++) { // c > hi: rows TRI3[c] + TRI2[hi] + lo, ascending over the pairs
      const block = TRI3[c];
      let total = 0;
      for (let q = 0; q < count && hi[q] < c; q++) total += w[q] * above(rows, weights, block + TRI2[hi[q]] + lo[q]);
      out[c] += total;
    }
  }
  for (let c = 0; c < K; c++) out[c] /= triple.scale;
  return out;
}

/** (rows, weights, row) → compatible[row] · Σ_o pay[o] · count[row, o] (times the scale), the 13 payoffs held in locals. */
function rowDot(pay) {
  const [p0, p1, p2, p3, p4, p5, p6, p7, p8, p9, p10, p11, p12] = pay;
  return (rows, weights, row) => {
    const b = row * ROW_BYTES;
    return weights[row * ROW_WORDS + WEIGHT_WORD] * (p0 * rows[b] + p1 * rows[b + 1] + p2 * rows[b + 2] + p3 * rows[b + 3]
      + p4 * rows[b + 4] + p5 * rows[b + 5] + p6 * rows[b + 6] + p7 * rows[b + 7] + p8 * rows[b + 8] + p9 * rows[b + 9]
      + p10 * rows[b + 10] + p11 * rows[b + 11] + p12 * rows[b + 12]);
  };
}

/** out[c·13 + o] += w · mass of frame ordering o, for hero class c seated by permutation p in sorted ``row``. */
function add(triple, out, c, p, row, w) {
  const x = (w * triple.weights[row * ROW_WORDS + WEIGHT_WORD]) / triple.scale;
  if (x === 0) return;
  const map = STORED[p];
  const rows = triple.rows;
  const base = row * ROW_BYTES;
  const at = c * NO;
  for (let o = 0; o < NO; o++) out[at + o] += x * rows[base + map[o]];
}
const ALL_CLASSES = Int32Array.from({ length: K }, (_, c) => c);

class Evaluator {
  constructor(game, eq, strategy) {
    this.game = game;
    this.eq = eq;
    this.strategy = strategy;
    this.cache = new Map();
  }

  /** Cached by the versions of the sets it depends on. */
  memo(key, sets, compute) {
    const stamp = sets.map((i) => this.strategy.version[i]).join(",");
    const hit = this.cache.get(key);
    if (hit && hit.stamp === stamp) return hit.value;
    const value = compute();
    this.cache.set(key, { stamp, value });
    return value;
  }

  /** {info index: [fold values (K), aggressive values (K)]} of every set of `seats`. */
  values(seats) {
    const { game, strategy } = this;
    const out = new Map();
    game.infosets.forEach((info, i) => {
      if (seats.includes(info.seat)) out.set(i, [new Float64Array(K), new Float64Array(K)]);
    });
    for (const t of game.terminals) {
      for (const seat of seats) {
        const decision = t.decisions[seat];
        if (decision === null) continue;
        const folders = new Float64Array(K).fill(1);
        for (let other = 0; other < game.n; other++) {
          const d = t.decisions[other];
          if (other !== seat && d !== null && !t.allIn.includes(other)) {
            const reach = strategy.given(d.info, d.action);
            for (let c = 0; c < K; c++) folders[c] *= reach[c];
          }
        }
        const value = this.seatValue(t, seat);
        const target = out.get(decision.info)[decision.action];
        for (let c = 0; c < K; c++) target[c] += folders[c] * value[c];
      }
    }
    return out;
  }

  seatValue(t, seat) {
    const { strategy } = this;
    if (!t.allIn.includes(seat) || t.shover < 0) {
      const reach = new Float64Array(K).fill(1);
      for (const s of t.allIn) {
        const d = t.decisions[s];
        if (s === seat || d === null) continue;
        const given = strategy.given(d.info, d.action);
        for (let c = 0; c < K; c++) reach[c] *= given[c];
      }
      const payoff = this.outcomePayoff(t, seat);
      for (let c = 0; c < K; c++) reach[c] *= payoff;
      return reach;
    }
    if (t.m === 1) return new Float64Array(K).fill(t.payoff[seat][0]);
    if (t.m === 2) return this.duelValue(t, seat);
    if (t.m === 3) return this.tripleValue(t, seat);
    return this.multiwayValue(t, seat);
  }

  duelValue(t, seat) {
    const { cond, duel } = this.eq;
    const opponent = t.allIn[t.allIn[0] === seat ? 1 : 0];
    const info = t.decisions[opponent].info;
    const p = this.strategy.p[info];
    const support = this.strategy.support[info];
    const pay = t.payoff[seat];
    const [w, l] = t.allIn[0] === seat ? [pay[0], pay[2]] : [pay[2], pay[0]];
    const tie = pay[1];
    const out = new Float64Array(K);
    for (let c = 0; c < K; c++) {
      let total = 0;
      for (let j = 0; j < support.length; j++) {
        const d = support[j];
        const at = (c * K + d) * 3;
        total += cond[c * K + d] * p[d] * (duel[at] * w + duel[at + 1] * tie + duel[at + 2] * l);
      }
      out[c] = total;
    }
    return out;
  }

  tripleValue(t, seat) {
    const frame = t.frames[t.allIn.indexOf(seat)];
    const [second, third] = frame.others.map((s) => t.decisions[s].info);
    const triple = this.eq.triple;
    const sums = this.memo(`${t.shover}|${t.callers}|${seat}`, [second, third], () => tripleSums(triple, this.strategy, second, third, null, frame));
    return sums.map((value, c) => (triple.norm[c] > 0 ? value / triple.norm[c] : 0));
  }

  /** A seat outside the pot (or any seat when all fold to the BB): its payoff averaged over the pot's outcomes. */
  outcomePayoff(t, seat) {
    if (t.m >= 4) return t.payoff[seat][2];
    if (t.m === 1 || t.constant[seat]) return t.payoff[seat][0];
    const probs = t.m === 2 ? this.duelOutcomes(t) : this.tripleOutcomes(t);
    let total = 0, value = 0;
    for (let o = 0; o < probs.length; o++) {
      total += probs[o];
      value += probs[o] * t.payoff[seat][o];
    }
    return value / Math.max(total, 1e-300);
  }

  duelOutcomes(t) {
    const [a, b] = t.allIn.map((s) => t.decisions[s].info);
    return this.memo(`${t.shover}|${t.callers}|outcomes`, [a, b], () => {
      const { joint, duel } = this.eq;
      const pa = this.strategy.p[a], pb = this.strategy.p[b];
      const probs = new Float64Array(3);
      for (const c of this.strategy.support[a]) {
        for (const d of this.strategy.support[b]) {
          const w = joint[c * K + d] * pa[c] * pb[d];
          for (let o = 0; o < 3; o++) probs[o] += w * duel[(c * K + d) * 3 + o];
        }
      }
      return probs;
    });
  }

  tripleOutcomes(t) {
    const [a, b, c] = t.allIn.map((s) => t.decisions[s].info);
    return this.memo(`${t.shover}|${t.callers}|outcomes`, [a, b, c], () => {
      const heroes = this.strategy.support[a].length === K ? null : this.strategy.support[a];
      const sums = tripleSums(this.eq.triple, this.strategy, b, c, heroes);
      const pa = this.strategy.p[a];
      const probs = new Float64Array(NO);
      for (const x of heroes ?? ALL_CLASSES) for (let o = 0; o < NO; o++) probs[o] += pa[x] * sums[x * NO + o];
      return probs;
    });
  }

  multiwayValue(t, seat) {
    const { strategy, game } = this;
    const opponents = t.allIn.filter((s) => s !== seat);
    const reach = new Float64Array(K).fill(1);
    const beats = new Map();
    for (const s of opponents) {
      const info = t.decisions[s].info;
      const weight = strategy.given(info, 1);
      for (let c = 0; c < K; c++) reach[c] *= weight[c];
      beats.set(s, strategy.equityAgainst(info));
    }
    const out = new Float64Array(K);
    if (!game.icmGame) {
      const base = t.base[seat] - game.table.stacks[seat];
      const won = new Float64Array(K);
      for (const { amount, eligible } of t.layers) {
        if (!eligible.includes(seat)) continue;
        const against = eligible.filter((s) => s !== seat).map((s) => beats.get(s));
        for (let c = 0; c < K; c++) {
          let p = 1;
          for (const b of against) p *= b[c];
          won[c] += p * amount;
        }
      }
      for (let c = 0; c < K; c++) out[c] = reach[c] * (base + won[c]);
      return out;
    }
    const [scoopPay, losePay] = t.payoff[seat];
    const against = opponents.map((s) => beats.get(s));
    for (let c = 0; c < K; c++) {
      let scoop = 1;
      for (const b of against) scoop *= b[c];
      out[c] = reach[c] * (scoop * scoopPay + (1 - scoop) * losePay);
    }
    return out;
  }

  /** {gains (n), values (n), nashConv, classRegret: {regret, info, class}}: best-response gain of every seat and
   *  its value, and the worst regret of a class at a decision (kernels.pushfold_table.class_regret), payoff units. */
  gains() {
    const { game, strategy } = this;
    const { prior } = this.eq;
    const gains = new Float64Array(game.n);
    const own = new Float64Array(game.n);
    const seats = Array.from({ length: game.n }, (_, s) => s);
    const worst = { regret: 0, info: 0, class: 0 };
    for (const [i, [fold, aggressive]] of this.values(seats)) {
      const seat = game.infosets[i].seat;
      const p = strategy.p[i];
      const reach = new Float64Array(K).fill(1);
      for (const step of game.infosets[i].path) {
        const given = strategy.given(step.info, step.action);
        for (let c = 0; c < K; c++) reach[c] *= given[c];
      }
      for (let c = 0; c < K; c++) {
        const current = (1 - p[c]) * fold[c] + p[c] * aggressive[c];
        const regret = Math.max(fold[c], aggressive[c]) - current;
        gains[seat] += prior[c] * regret;
        own[seat] += prior[c] * current;
        const atDecision = Math.max(regret, 0) / Math.max(reach[c], REACH_FLOOR);
        if (atDecision > worst.regret) Object.assign(worst, { regret: atDecision, info: i, class: c });
      }
    }
    const clipped = Array.from(gains, (x) => Math.max(x, 0));
    return { gains: clipped, values: Array.from(own), nashConv: clipped.reduce((a, b) => a + b, 0), classRegret: worst };
  }
}

// ------------------------------------------------------------------------------------------- solving

/** Discounted CFR as kernels/pushfold_table/: regrets floored at 0, positive ones × t^α / (t^α + 1) after
 *  iteration t (α = DISCOUNT_POSITIVE), iteration t's strategies weighted by t^AVERAGE_POWER. */
export const DISCOUNT_POSITIVE = 1.5;
export const AVERAGE_POWER = 2;

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

/** "BB vs BTN+SB" for the call set of the BB facing the BTN's shove and the SB's call (as generator/stages/pushfold_table.spot_name). */
export function spotName(names, info) {
  return `${names[info.seat]} vs ` + [info.shover, ...info.before].map((s) => names[s]).join("+");
}

/**
 * Discounted CFR on a table, yielding after every iteration: {iteration, nashConv | null, classRegret | null}
 * (payoff units, at every check). Returns {strategies (K-arrays per information set, as game.infosets),
 * nashConv, gains, values, classRegret, iterations, game, warmStarted}. Stops when the NashConv is ≤ `tolerance`
 * and the worst class regret ≤ `classTolerance` (payoff units; null: NashConv only). `start`: a
 * solution object whose strategies start the regrets (`startRegret` · (1 − p, p), payoff units), used
 * only when its NashConv is ≤ `startWithin` (null: always), as kernels.pushfold_table.solve.
 */
export function* solveSteps(table, equities, { tolerance, classTolerance = null, maxIterations = MAX_ITERATIONS, checkEvery = CHECK_EVERY,
  start = null, startRegret = 1e-3, startWithin = null } = {}) {
  const game = makeGame(table);
  if (game.n > 2 && !equities.triple) throw new Error("3+ players need the 3-way table (threeway.bin)");
  const count = game.infosets.length;
  let scale = 0;
  let initial = startStrategy(game, null);
  let warmStarted = false;
  if (start) {
    const given = startStrategy(game, start);
    if (startWithin === null || measure(game, equities, given, 1, 0).nashConv <= startWithin) {
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
    const discount = 1 / (1 + iteration ** -DISCOUNT_POSITIVE); // t^α / (t^α + 1)
    for (const r of regrets) for (let j = 0; j < r.length; j++) r[j] *= discount;
    const step = iteration ** AVERAGE_POWER;
    for (let i = 0; i < count; i++) for (let c = 0; c < K; c++) average[i][c] += step * current.p[i][c];
    weight += step;
    if (iteration % checkEvery === 0 || iteration === maxIterations) {
      result = { ...measure(game, equities, average, weight, iteration), warmStarted };
      yield { iteration, nashConv: result.nashConv, classRegret: result.classRegret.regret };
      if (result.nashConv <= tolerance && (classTolerance === null || result.classRegret.regret <= classTolerance)) break;
    } else {
      yield { iteration, nashConv: null, classRegret: null };
    }
  }
  return result;
}

function measure(game, equities, average, weight, iterations) {
  const strategy = new Strategy(average.length, equities);
  average.forEach((sum, i) => {
    for (let c = 0; c < K; c++) strategy.p[i][c] = sum[c] / weight;
    strategy.changed(i);
  });
  const { gains, values, nashConv, classRegret } = new Evaluator(game, equities, strategy).gains();
  return { game, strategies: strategy.p, nashConv, gains, values, classRegret, iterations };
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
    iterations: result.iterations,
    values: Object.fromEntries(names.map((name, seat) => [name, result.values[seat]])),
    table: { stacks: table.stacks, blinds: table.blinds, ante: table.ante, bb_ante: table.bbAnte, payouts: table.payouts ?? null },
  };
}

/** Reported units: NashConv in bb (chip EV) or in % of the pool (ICM). */
export function nashConvUnits(table) {
  return table.payouts == null ? "bb" : "pool_pct";
}

/** Payoff units per reported unit: 1 (bb) for chip EV, pool / 100 for ICM (% of the pool). */
export function payoffPerUnit(table) {
  return table.payouts == null ? 1 : table.payouts.reduce((a, b) => a + b, 0) / 100;
}

/** The stopping rule in payoff units, [NashConv, class regret] (kernels.pushfold_table.StoppingRule.tolerances):
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
 * target, bb for chip EV, % of the pool for ICM) or `maxIterations`. `onProgress({iteration, nashConv, classRegret})`
 * at every check (reported units); `shouldStop()` is asked after every iteration and, when true, the solve throws a
 * SolveCancelled error. `start`: a solution object to warm-start from. Returns a solution object.
 */
export function solvePushfold(table, equities, { tolerance, maxIterations = MAX_ITERATIONS, start = null, onProgress, shouldStop } = {}) {
  const toPayoff = payoffPerUnit(table);
  const [target, classTolerance] = payoffTolerances(table, tolerance);
  const steps = solveSteps(table, equities, { tolerance: target, classTolerance, maxIterations, start });
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

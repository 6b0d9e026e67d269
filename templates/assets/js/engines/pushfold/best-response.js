// Counterfactual values against a strategy profile and the best response (kernels/pushfold/best_response.py):
// each seat's gain (NashConv) and each class's regret at each decision.
// Pure ES module: no DOM, no globals (the solver's parts; pushfold-solver.js is their public face).

import { PUSHFOLD_REACH_FLOOR } from "../constants.js";
import { K, NO, ROW_BYTES, ROW_WORDS, STORED, TRI2, TRI3, WEIGHT_WORD, marginals, rowDot } from "./model.js";
import { contract, keptTensor, planTensor } from "./tensors.js";

/** Decisions a class reaches less often than this have their regret divided by it instead of by their reach. */
export const REACH_FLOOR = PUSHFOLD_REACH_FLOOR;

/** G[c·13 + o] = Σ_{d,e} p2[d] · p3[e] · mass[o, c, d, e] in frame (hero, second, third), for hero classes
 *  `heroes` (all when null); with `payoff` (a prepareTriple frame: the hero's payoff per frame ordering and
 *  per stored ordering under each of the 6 seatings) instead the (K,) Σ_o payoff[o] · G[c, o], read from the
 *  payoff's `tensor` when given (keptTensor), else from the 13 orderings.
 *
 *  Each strategy is offset + deviation (Strategy.changed): the offsets' part is read from the table's
 *  marginals, and only the deviations' supports are summed over the table itself. */
function tripleSums(triple, strategy, second, third, heroes = null, payoff = null, tensor = null) {
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
      const sparse = tensor ? contract(tensor, d2, s2, d3, s3) : tripleValues(triple, d2, s2, d3, s3, payoff.stored);
      for (let c = 0; c < K; c++) out[c] += sparse[c];
    }
    return out;
  }
  orderingSums(triple, sums, classes, d2, s2, d3, s3);
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
 *  An opponent pair (d, e) and its mirror (e, d) read the same sorted rows: each unordered pair lo ≤ hi is walked
 *  once, with the payoffs of both orientations weighted by their probabilities (pairPayoffs). The hero's class c is
 *  below lo, between or above hi, each a seating of its own; each part is walked in the order that reads the table's
 *  rows nearly in sequence. */
function tripleValues(triple, p2, s2, p3, s3, stored) {
  const out = new Float64Array(K);
  const { lo, hi, below, between, above } = pairPayoffs(p2, s2, p3, s3, stored);
  belowPart(triple, out, lo, hi, below);
  betweenPart(triple, out, lo, hi, between);
  abovePart(triple, out, lo, hi, above);
  for (let c = 0; c < K; c++) out[c] /= triple.scale;
  return out;
}

const upWeights = new Float64Array(K * K); // scratch of unorderedPairs by hi · K + lo, zero between calls
const downWeights = new Float64Array(K * K);
const listedPairs = new Uint8Array(K * K);

/** The unordered pairs lo[q] ≤ hi[q] of the opponents' supports, sorted by hi then lo, with the weights of their two
 *  orientations: up[q] = p2[lo] · p3[hi] (the second seat's class ≤ the third's), down[q] = p2[hi] · p3[lo] (0 when
 *  lo = hi or the orientation is not in the supports). */
function unorderedPairs(p2, s2, p3, s3) {
  const keys = new Int32Array(s2.length * s3.length);
  let n = 0;
  for (const d of s2) {
    for (const e of s3) {
      const key = d <= e ? e * K + d : d * K + e;
      if (!listedPairs[key]) {
        listedPairs[key] = 1;
        keys[n++] = key;
      }
      if (d <= e) upWeights[key] = p2[d] * p3[e];
      else downWeights[key] = p2[d] * p3[e];
    }
  }
  const sorted = keys.subarray(0, n).sort();
  const lo = new Int32Array(n), hi = new Int32Array(n), up = new Float64Array(n), down = new Float64Array(n);
  for (let q = 0; q < n; q++) {
    const key = sorted[q];
    lo[q] = key % K;
    hi[q] = (key - lo[q]) / K;
    up[q] = upWeights[key];
    down[q] = downWeights[key];
    listedPairs[key] = upWeights[key] = downWeights[key] = 0;
  }
  return { lo, hi, up, down };
}

/** The stored orderings of a frame's orderings with the hero's class below, between and above the opponents', for
 *  each orientation of the pair ([up, down]: STORED's seatings, eachSeating's closed forms). */
const SEATED = [[STORED[0], STORED[1]], [STORED[2], STORED[4]], [STORED[3], STORED[5]]];

/** unorderedPairs, and per pair and seating of the hero the payoff per stored ordering of the pot: below[13q + o] =
 *  up[q] · stored[0][o] + down[q] · stored[1][o] (the hero's class ≤ lo), between (stored 2 and 4), above (3 and 5). */
function pairPayoffs(p2, s2, p3, s3, stored) {
  const { lo, hi, up, down } = unorderedPairs(p2, s2, p3, s3);
  const weighted = (first, mirror) => {
    const pay = new Float64Array(lo.length * NO);
    for (let q = 0; q < lo.length; q++) {
      const u = up[q], v = down[q];
      for (let o = 0; o < NO; o++) pay[q * NO + o] = u * first[o] + v * mirror[o];
    }
    return pay;
  };
  return { lo, hi, below: weighted(stored[0], stored[1]), between: weighted(stored[2], stored[4]), above: weighted(stored[3], stored[5]) };
}

// The three parts of tripleValues for pairs (lo[q] ≤ hi[q]) sorted by hi then lo, each with its seating's payoffs
// per pair (pairPayoffs).

/** c ≤ lo: rows TRI3[hi] + TRI2[lo] + c, consecutive; a pair's 13 payoffs held in locals (2× faster in V8 than
 *  reading them from the array for every row, measured). */
function belowPart({ rows, weights }, out, lo, hi, pay) {
  for (let q = 0; q < lo.length; q++) {
    const top = TRI3[hi[q]] + TRI2[lo[q]];
    const b = q * NO;
    const [p0, p1, p2, p3, p4, p5, p6, p7, p8, p9, p10, p11, p12] = pay.subarray(b, b + NO);
    for (let c = 0; c <= lo[q]; c++) out[c] += rowDot(rows, weights, top + c, p0, p1, p2, p3, p4, p5, p6, p7, p8, p9, p10, p11, p12);
  }
}

/** lo < c ≤ hi: rows TRI3[hi] + TRI2[c] + lo, by hi then c, lo ascending. */
function betweenPart({ rows, weights }, out, lo, hi, pay) {
  const count = lo.length;
  for (let first = 0; first < count;) {
    let last = first;
    while (last < count && hi[last] === hi[first]) last++;
    const block = TRI3[hi[first]];
    for (let c = lo[first] + 1; c <= hi[first]; c++) {
      const start = block + TRI2[c];
      let total = 0;
      for (let q = first; q < last && lo[q] < c; q++) total += pairDot(rows, weights, start + lo[q], pay, q * NO);
      out[c] += total;
    }
    first = last;
  }
}

/** c > hi: rows TRI3[c] + TRI2[hi] + lo, ascending over the pairs (those with hi < c: a prefix). */
function abovePart({ rows, weights }, out, lo, hi, pay) {
  const at = Int32Array.from(lo, (x, q) => TRI2[hi[q]] + x);
  let end = 0;
  for (let c = hi[0] + 1; c < K; c++) {
    while (end < lo.length && hi[end] < c) end++;
    const block = TRI3[c];
    let total = 0;
    for (let q = 0; q < end; q++) total += pairDot(rows, weights, block + at[q], pay, q * NO);
    out[c] += total;
  }
}

/** rowDot with the payoffs pay[b … b + 12]. */
function pairDot(rows, weights, row, pay, b) {
  const r = row * ROW_BYTES;
  return weights[row * ROW_WORDS + WEIGHT_WORD] * (pay[b] * rows[r] + pay[b + 1] * rows[r + 1] + pay[b + 2] * rows[r + 2]
    + pay[b + 3] * rows[r + 3] + pay[b + 4] * rows[r + 4] + pay[b + 5] * rows[r + 5] + pay[b + 6] * rows[r + 6] + pay[b + 7] * rows[r + 7]
    + pay[b + 8] * rows[r + 8] + pay[b + 9] * rows[r + 9] + pay[b + 10] * rows[r + 10] + pay[b + 11] * rows[r + 11] + pay[b + 12] * rows[r + 12]);
}

/** sums[c·13 + o] += Σ_{d ∈ s2, e ∈ s3} p2[d] · p3[e] · mass of frame ordering o, for the hero classes `classes`:
 *  per unordered pair of the opponents' classes (unorderedPairs) each row read once for both orientations. */
function orderingSums({ rows, weights, scale }, sums, classes, p2, s2, p3, s3) {
  const { lo, hi, up, down } = unorderedPairs(p2, s2, p3, s3);
  for (let q = 0; q < lo.length; q++) {
    const l = lo[q], h = hi[q];
    for (let i = 0; i < classes.length; i++) {
      const c = classes[i];
      const seating = c <= l ? 0 : c <= h ? 1 : 2;
      const row = seating === 0 ? TRI3[h] + TRI2[l] + c : seating === 1 ? TRI3[h] + TRI2[c] + l : TRI3[c] + TRI2[h] + l;
      const mass = weights[row * ROW_WORDS + WEIGHT_WORD] / scale;
      if (mass === 0) continue;
      const [first, mirror] = SEATED[seating];
      const u = up[q] * mass, v = down[q] * mass;
      const base = row * ROW_BYTES;
      const at = c * NO;
      for (let o = 0; o < NO; o++) sums[at + o] += u * rows[base + first[o]] + v * rows[base + mirror[o]];
    }
  }
}

/** The cache key of a 3-way task: a seat's frame of terminal t, or (seat null) the pot's outcomes. */
const tripleKey = (t, seat) => (t.keys ??= {})[seat] ??= `${t.shover}|${t.callers}|${seat ?? "outcomes"}`;
const ALL_CLASSES = Int32Array.from({ length: K }, (_, c) => c);

/** (K) expected `payoff[0]` when the seat beats every opponent (the product of its equities `against`), else `payoff[1]`. */
function scoopOrNothing(against, [scoopPay, losePay]) {
  const out = new Float64Array(K);
  for (let c = 0; c < K; c++) {
    let scoop = 1;
    for (const b of against) scoop *= b[c];
    out[c] = scoop * scoopPay + (1 - scoop) * losePay;
  }
  return out;
}

/** Per terminal and seat, what does not change while solving (kept on the terminal): the decisions of the other
 *  seats that folded on the way (`folds`), and of the seat's all-in opponents (`opponents`: seat and decision). */
function terminalSeats(game, t) {
  t.seats ??= Array.from({ length: game.n }, (_, seat) => ({
    folds: t.decisions.filter((d, other) => other !== seat && d !== null && !t.allIn.includes(other)),
    opponents: t.allIn.filter((s) => s !== seat).map((s) => ({ seat: s, decision: t.decisions[s] })),
    layers: t.layers.filter(({ eligible }) => eligible.includes(seat))
      .map(({ amount, eligible }) => ({ amount, against: eligible.filter((s) => s !== seat) })),
  }));
  return t.seats;
}

// ------------------------------------------------------------------------------------------- 3-way tasks
// The 3-way sums of an evaluation are its cost (nine tenths of a full-ring solve). Evaluator.pending lists those that
// values() is about to read as tasks: a seat's value in a 3-way pot (its frame) or the pot's ordering probabilities
// for the seats outside it; runTask computes one from the strategies of the information sets it reads (taskInfos),
// wherever it runs: in the evaluator's thread or in a helper with its own copy of the table and game (pushfold/helper.js).

/** spec = {terminal (index in game.terminals), seat (the hero; null: the pot's outcomes), tensor (planTensor's
 *  decision)}: the information sets whose strategies the task reads. */
export function taskInfos(game, { terminal, seat }) {
  const t = game.terminals[terminal];
  if (seat === null) return t.allIn.map((s) => t.decisions[s].info);
  return t.frames[t.allIn.indexOf(seat)].others.map((s) => t.decisions[s].info);
}

/** A task's result from `strategy` (those of taskInfos must be current): the seat's frame sums (K, before the
 *  per-class norm; tripleSums with its payoff) or the pot's (13,) ordering probabilities. */
export function runTask({ game, triple }, strategy, spec) {
  const t = game.terminals[spec.terminal];
  if (spec.seat === null) {
    const [a, b, c] = taskInfos(game, spec);
    const heroes = strategy.support[a].length === K ? null : strategy.support[a];
    const sums = tripleSums(triple, strategy, b, c, heroes);
    const pa = strategy.p[a];
    const probs = new Float64Array(NO);
    for (const x of heroes ?? ALL_CLASSES) for (let o = 0; o < NO; o++) probs[o] += pa[x] * sums[x * NO + o];
    return probs;
  }
  const frame = t.frames[t.allIn.indexOf(spec.seat)];
  const [second, third] = taskInfos(game, spec);
  return tripleSums(triple, strategy, second, third, null, frame, spec.tensor ? keptTensor(triple, frame, game) : null);
}

export class Evaluator {
  constructor(game, eq, strategy) {
    this.game = game;
    this.eq = eq;
    this.strategy = strategy;
    this.cache = new Map();
    this.folders = new Float64Array(K);
    for (const t of game.terminals) terminalSeats(game, t);
  }

  /** Cached by the versions of the sets it depends on. */
  memo(key, sets, compute) {
    const stamp = this.stamp(sets);
    const hit = this.cache.get(key);
    if (hit && hit.stamp === stamp) return hit.value;
    const value = compute();
    this.cache.set(key, { stamp, value });
    return value;
  }

  stamp(sets) {
    return sets.map((i) => this.strategy.version[i]).join(",");
  }

  /** The 3-way tasks values(seats) reads and the cache does not hold for the current strategies, in the order it
   *  reads them (so that planTensor decides as it always does): [{key, stamp, spec, infos, cost}], cost in
   *  multiply-adds (an estimate, to share them out). */
  pending(seats) {
    const { game, strategy } = this;
    const tasks = [];
    const listed = new Set();
    game.terminals.forEach((t, terminal) => {
      if (t.m !== 3 || t.shover < 0) return;
      for (const seat of seats) {
        if (t.decisions[seat] === null) continue;
        const inPot = t.allIn.includes(seat);
        if (!inPot && t.constant[seat]) continue; // outcomePayoff needs no probabilities
        const spec = { terminal, seat: inPot ? seat : null, tensor: false };
        const key = tripleKey(t, spec.seat);
        const infos = taskInfos(game, spec);
        const stamp = this.stamp(infos);
        if (listed.has(key) || this.cache.get(key)?.stamp === stamp) continue;
        listed.add(key);
        const [s2, s3] = infos.slice(-2).map((i) => strategy.deviationSupport[i].length);
        let cost = K * NO * (s2 + s3 + 1); // the marginals' part
        if (!inPot) cost += 2 * NO * s2 * s3 * strategy.support[infos[0]].length; // orderingSums: 13 additions to memory a triple
        else if (s2 && s3) {
          spec.tensor = planTensor(this.eq.triple, t.frames[t.allIn.indexOf(seat)], game);
          cost += spec.tensor ? K * s2 * s3 : (NO * K * s2 * s3) / 2; // a pair and its mirror read once (tripleValues)
        }
        tasks.push({ key, stamp, spec, infos, cost });
      }
    });
    return tasks;
  }

  /** Keep a task's result (runTask's, computed here or elsewhere). */
  fill(task, value) {
    this.cache.set(task.key, { stamp: task.stamp, value });
  }

  /** A task as posted to a helper (pushfold/helper.js): {spec, strategies: [[info, p (K)], …] of taskInfos}. */
  message(task) {
    return { spec: task.spec, strategies: task.infos.map((i) => [i, this.strategy.p[i]]) };
  }

  /** Run tasks here. */
  complete(tasks) {
    const context = { game: this.game, triple: this.eq.triple };
    for (const task of tasks) this.fill(task, runTask(context, this.strategy, task.spec));
  }

  /** {info index: [fold values (K), aggressive values (K)]} of every set of `seats`. */
  values(seats) {
    this.complete(this.pending(seats));
    const { game, strategy } = this;
    const out = new Map();
    game.infosets.forEach((info, i) => {
      if (seats.includes(info.seat)) out.set(i, [new Float64Array(K), new Float64Array(K)]);
    });
    const folders = this.folders;
    for (const t of game.terminals) {
      for (const seat of seats) {
        const decision = t.decisions[seat];
        if (decision === null) continue;
        folders.fill(1);
        for (const d of t.seats[seat].folds) {
          const reach = strategy.given(d.info, d.action);
          for (let c = 0; c < K; c++) folders[c] *= reach[c];
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
    const triple = this.eq.triple;
    const sums = this.cache.get(tripleKey(t, seat)).value; // values() completed the pending tasks
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
    return this.cache.get(tripleKey(t, null)).value; // values() completed the pending tasks
  }

  multiwayValue(t, seat) {
    const { strategy, game } = this;
    const { opponents, layers } = t.seats[seat];
    const reach = new Float64Array(K).fill(1);
    const beats = new Array(game.n);
    for (const { seat: s, decision } of opponents) {
      const weight = strategy.given(decision.info, 1);
      for (let c = 0; c < K; c++) reach[c] *= weight[c];
      beats[s] = strategy.equityAgainst(decision.info);
    }
    const against = opponents.map(({ seat: s }) => beats[s]);
    if (game.icmGame) {
      const scoop = scoopOrNothing(against, t.payoff[seat]);
      for (let c = 0; c < K; c++) reach[c] *= scoop[c];
      return reach;
    }
    const base = t.base[seat] - game.table.stacks[seat];
    const won = new Float64Array(K);
    for (const { amount, against: layer } of layers) {
      for (let c = 0; c < K; c++) {
        let p = 1;
        for (const s of layer) p *= beats[s][c];
        won[c] += p * amount;
      }
    }
    // the chips layer by layer; the bounties (who busts decides them) scoop or nothing, as ICM payoffs
    const bounty = t.bounty ? scoopOrNothing(against, t.bounty[seat]) : null;
    for (let c = 0; c < K; c++) reach[c] *= bounty ? base + won[c] + bounty[c] : base + won[c];
    return reach;
  }

  /** {gains (n), values (n), nashConv, classRegret: {regret, info, class}, advantages}: best-response gain of every seat
   *  and its value, the worst regret of a class at a decision (kernels.pushfold.class_regret), and per information set
   *  what the aggressive action is worth over folding for each class at the decision (K, NaN where it is never
   *  reached), payoff units. */
  gains() {
    const { game, strategy } = this;
    const { prior } = this.eq;
    const gains = new Float64Array(game.n);
    const own = new Float64Array(game.n);
    const seats = Array.from({ length: game.n }, (_, s) => s);
    const worst = { regret: 0, info: 0, class: 0 };
    const advantages = new Array(game.infosets.length).fill(null);
    for (const [i, [fold, aggressive]] of this.values(seats)) {
      const seat = game.infosets[i].seat;
      const p = strategy.p[i];
      const reach = new Float64Array(K).fill(1);
      for (const step of game.infosets[i].path) {
        const given = strategy.given(step.info, step.action);
        for (let c = 0; c < K; c++) reach[c] *= given[c];
      }
      advantages[i] = Float64Array.from(reach, (r, c) => (r > 0 ? (aggressive[c] - fold[c]) / r : NaN));
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
    return { gains: clipped, values: Array.from(own), nashConv: clipped.reduce((a, b) => a + b, 0), classRegret: worst, advantages };
  }
}

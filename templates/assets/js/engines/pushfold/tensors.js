// Payoff-weighted 3-way tensors (kernels/pushfold/model.py payoff_tensor, loops.contract_packed and contract_pairs):
// for one payoff frame of a 3-way pot (the hero's payoff per ordering of hero, second and third seat),
// T[c, d, e] = Σ_o pay[o] · compatible · P(o) of the class triple (c, d, e) / scale, one float per ordered triple.
// A 3-way pot's value for the hero is then Σ_{d,e} p2[d] · p3[e] · T[c, d, e]: one multiply-add per triple instead
// of thirteen, read from one contiguous row per hero class. Built once per distinct payoff (pots with the same
// payoffs share it) and kept within a memory budget; a payoff beyond it is left to the 13-ordering sums. Float32
// (as Python's tensors), or the 3-way table's `tensorType` (Float64Array: the tests that compare with Python's
// float64 fixtures to 1e-9).
// Pure ES module: no DOM, no globals (the solver's parts; pushfold-solver.js is their public face).

import { K, ORDERINGS, TRI2, TRI3, code, rowDot } from "./model.js";

/** Bytes of tensors kept per 3-way table: six packed tensors of a full-ring chip-EV table (9.7 MB each) and more. */
export const TENSOR_BUDGET_BYTES = 96 * 2 ** 20;
/** Evaluations of a payoff by the 13-ordering sums before its tensor is built: building one costs about as much as
 *  twenty such evaluations of a narrow pot (measured), so only a payoff used again and again gets one. */
export const BUILD_AFTER_USES = 8;
/** Unordered class pairs (d ≤ e): the columns of a packed tensor. */
const PAIRS = (K * (K + 1)) / 2;
/** The first column of pairs (d, ·) in a packed tensor: Σ_{i<d} (K − i). */
const PAIR_START = Int32Array.from({ length: K }, (_, d) => d * K - (d * (d - 1)) / 2);
/** The frame ordering with the two opponents' ranks exchanged. */
const SWAP = Int32Array.from(ORDERINGS, (r) => code([r[0], r[2], r[1]]));

/** The tensors kept for `game` on the 3-way table: which frames' payoffs have one (planned, by planTensor), how often
 *  each payoff was evaluated, the bytes planned, the tensors built. They belong to one game at a time. */
function kept(triple, game) {
  const state = (triple.tensors ??= { game: null });
  if (state.game !== game) Object.assign(state, { game, planned: new Set(), uses: new Map(), bytes: 0, map: new Map() });
  return state;
}

/** Whether this evaluation of a payoff frame ({framePay, stored}, pushfold/game.js prepareTriple) of `game` reads its
 *  tensor (keptTensor): from its BUILD_AFTER_USES-th use on, while the budget is not spent on the game's other
 *  payoffs; else the 13-ordering sums. Counts the use: the decisions are made where the evaluations are listed
 *  (Evaluator.pending), in one order however the evaluations are then shared out, so that every run reads a tensor
 *  at the same evaluations. Packed (upper triangle in (d, e)) when the payoff does not change with which opponent is
 *  which: the mass is symmetric in them for d ≠ e, and the packed entry of (c, d, d) is the frame's own. */
export function planTensor(triple, frame, game) {
  const state = kept(triple, game);
  const key = frameKey(frame);
  if (state.planned.has(key)) return true;
  const uses = (state.uses.get(key) ?? 0) + 1;
  state.uses.set(key, uses);
  if (uses < BUILD_AFTER_USES) return false; // a short solve is done before a tensor would pay for itself
  const bytes = tensorType(triple).BYTES_PER_ELEMENT * K * (isPacked(frame) ? PAIRS : K * K);
  if (state.bytes + bytes > TENSOR_BUDGET_BYTES) return false;
  state.planned.add(key);
  state.bytes += bytes;
  return true;
}

/** The tensor of a frame of `game` (one planTensor planned), built on first use and kept with the game's others. */
export function keptTensor(triple, frame, game) {
  const { map } = kept(triple, game);
  const key = frameKey(frame);
  if (!map.has(key)) map.set(key, buildTensor(triple, frame.stored, isPacked(frame), tensorType(triple)));
  return map.get(key);
}

const frameKey = (frame) => (frame.key ??= frame.framePay.join(","));
const isPacked = ({ framePay }) => framePay.every((x, o) => x === framePay[SWAP[o]]);
const tensorType = (triple) => triple.tensorType ?? Float32Array;

/** {packed, values: `type`(columns · K)}: column (d, e) (packed: the pairs d ≤ e in order; else d · K + e) holds
 *  T[·, d, e], the K hero classes side by side, so that a pair of opponent classes is one contiguous read. */
function buildTensor({ rows, weights, scale }, stored, packed, type) {
  const columns = packed ? PAIRS : K * K;
  const values = new type(columns * K);
  const dots = stored.map(rowValue);
  for (let d = 0; d < K; d++) {
    for (let e = packed ? d : 0; e < K; e++) {
      const at = (packed ? PAIR_START[d] + e - d : d * K + e) * K;
      // the hero's class below, between and above the opponents' (eachSeating's three seatings, in closed form)
      const [lo, hi] = d <= e ? [d, e] : [e, d];
      const [below, between, above] = (d <= e ? [dots[0], dots[2], dots[3]] : [dots[1], dots[4], dots[5]]);
      for (let c = 0; c <= lo; c++) values[at + c] = below(rows, weights, TRI3[hi] + TRI2[lo] + c) / scale;
      for (let c = lo + 1; c <= hi; c++) values[at + c] = between(rows, weights, TRI3[hi] + TRI2[c] + lo) / scale;
      for (let c = hi + 1; c < K; c++) values[at + c] = above(rows, weights, TRI3[c] + TRI2[hi] + lo) / scale;
    }
  }
  return { packed, values };
}

/** (rows, weights, row) → rowDot with a seating's payoff per stored ordering `pay`. */
function rowValue(pay) {
  const [p0, p1, p2, p3, p4, p5, p6, p7, p8, p9, p10, p11, p12] = pay;
  return (rows, weights, row) => rowDot(rows, weights, row, p0, p1, p2, p3, p4, p5, p6, p7, p8, p9, p10, p11, p12);
}

const pairWeights = new Float64Array(K * K); // scratch of contract: a weight per column, zero between calls
const usedPairs = new Int32Array(K * K);
const usedWeights = new Float64Array(K * K);

/** (K,) Σ_{d ∈ s2, e ∈ s3} p2[d] · p3[e] · T[c, d, e] (bilinear: p2, p3 any K-vectors, summed over supports s2, s3):
 *  each opponent pair's column added once with its weight (packed: p2[d] p3[e] + p2[e] p3[d] for d < e). */
export function contract({ packed, values }, p2, s2, p3, s3) {
  const out = new Float64Array(K);
  let used = 0;
  for (let i = 0; i < s2.length; i++) {
    const d = s2[i];
    for (let j = 0; j < s3.length; j++) {
      const e = s3[j];
      const column = !packed ? d * K + e : d <= e ? PAIR_START[d] + e - d : PAIR_START[e] + d - e;
      if (pairWeights[column] === 0) usedPairs[used++] = column;
      pairWeights[column] += p2[d] * p3[e];
    }
  }
  for (let m = 0; m < used; m++) {
    usedWeights[m] = pairWeights[usedPairs[m]];
    pairWeights[usedPairs[m]] = 0;
  }
  let m = 0;
  for (; m + 3 < used; m += 4) { // four columns a pass: a quarter of the passes over out (2.3× faster in V8, measured)
    const b0 = usedPairs[m] * K, b1 = usedPairs[m + 1] * K, b2 = usedPairs[m + 2] * K, b3 = usedPairs[m + 3] * K;
    const w0 = usedWeights[m], w1 = usedWeights[m + 1], w2 = usedWeights[m + 2], w3 = usedWeights[m + 3];
    for (let c = 0; c < K; c++) out[c] += w0 * values[b0 + c] + w1 * values[b1 + c] + w2 * values[b2 + c] + w3 * values[b3 + c];
  }
  for (; m < used; m++) {
    const b0 = usedPairs[m] * K, w0 = usedWeights[m];
    for (let c = 0; c < K; c++) out[c] += w0 * values[b0 + c];
  }
  return out;
}

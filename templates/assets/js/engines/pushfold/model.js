// The class-level showdown data of the game (kernels/pushfold/model.py): the 169 classes, matchups.bin's
// heads-up tables and threeway.bin.gz's sorted class triples (decoded as kernels/threeway/compact.py), their
// seatings and marginals.
// Pure ES module: no DOM, no globals (the solver's parts; pushfold-solver.js is their public face).

import { CLASS_NAMES } from "../cards.js";
import { parseMatchupTable } from "../matchup-table.js";

export const K = 169;
/** The 169 class names in data-file order (index 13·row + column; pairs on the diagonal, suited above). */
export { CLASS_NAMES };
const COMBOS = CLASS_NAMES.map((name) => (name.length === 2 ? 6 : name[2] === "s" ? 4 : 12));

// The 13 weak orderings of three hands (ranks = hands strictly stronger), as kernels.threeway.core.ORDERINGS.
export const ORDERINGS = [];
const ORDER_CODE = new Int32Array(27).fill(-1);
for (let a = 0; a < 3; a++) for (let b = 0; b < 3; b++) for (let c = 0; c < 3; c++) {
  const r = [a, b, c];
  if (r.every((x) => x === r.filter((y) => y < x).length)) {
    ORDER_CODE[9 * a + 3 * b + c] = ORDERINGS.length;
    ORDERINGS.push(r);
  }
}
export const NO = ORDERINGS.length; // 13
export const DUEL_ORDERINGS = [[0, 1], [0, 0], [1, 0]];
export const code = (r) => ORDER_CODE[9 * r[0] + 3 * r[1] + r[2]];
// The 6 ways seats (0, 1, 2) of a frame sit in sorted class order (stable: equal classes keep frame order):
// sorted position j holds frame seat PERMS[p][j]; STORED[p][o]: the stored ordering of frame ordering o.
export const PERMS = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]];
export const STORED = PERMS.map((perm) => Int32Array.from(ORDERINGS, (r) => code(perm.map((seat) => r[seat]))));
export const TRI3 = Int32Array.from({ length: K }, (_, k) => ((k + 2) * (k + 1) * k) / 6);
export const TRI2 = Int32Array.from({ length: K }, (_, j) => ((j + 1) * j) / 2);
const N_TRIPLES = ((K + 2) * (K + 1) * K) / 6;

const THREEWAY_MAGIC = "ALLINTWY";
const THREEWAY_VERSION = 3;
const THREEWAY_HEADER_BYTES = 8 + 8 * 4;
const SCALE = 255;
/** Unordered class pairs x ≤ y, the rows of the file's corrections (kernels.threeway.compact.N_PAIRS). */
const N_PAIRS = (K * (K + 1)) / 2;
const CORRECTION_BYTES = 3 * 13 * N_PAIRS;
export const ROW_BYTES = 16;
export const ROW_WORDS = ROW_BYTES / 2;
export const WEIGHT_WORD = 7;

// ------------------------------------------------------------------------------------------ equities

/** Class-level showdown data: matchups.bin (exact heads-up win / tie / loss, compatible combo pairs) and,
 *  for 3+ players, threeway.bin.gz uncompressed (docs/data-format.md). Throws Error on a damaged file.
 *  `provisional`: provisionalEquities of the same matchups.bin, if at hand: its pairwise counts are the file's
 *  prediction, reused instead of computed again. */
export function loadEquities(matchupsBuffer, threewayBuffer = null, provisional = null) {
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
  const triple = threewayBuffer ? parseThreeway(threewayBuffer, duel, crc32(new Uint8Array(matchupsBuffer)), provisional?.triple ?? null) : null;
  return { prior, cond, duel, joint, condEquity, triple };
}

/** The header of an uncompressed threeway.bin.gz (docs/data-format.md) from its first bytes; throws on another file. */
export function threewayHeader(buffer) {
  if (buffer.byteLength < THREEWAY_HEADER_BYTES) throw new Error("threeway.bin.gz: truncated");
  const magic = String.fromCharCode(...new Uint8Array(buffer, 0, 8));
  const [version, classes, orderings, scale, boards, seed, step, matchupsCrc] = new Uint32Array(buffer.slice(8, THREEWAY_HEADER_BYTES));
  if (magic !== THREEWAY_MAGIC || version !== THREEWAY_VERSION || classes !== K || orderings !== NO) {
    throw new Error(`threeway.bin.gz: not a version ${THREEWAY_VERSION} table of ${K} classes`);
  }
  if (scale !== SCALE || step === 0) throw new Error(`threeway.bin.gz: damaged (scale ${scale}, step ${step})`);
  return { scale, boards, seed, step, matchupsCrc };
}

/** Bytes of an uncompressed threeway.bin.gz up to the end of its compatible counts, and in all. */
export const THREEWAY_WEIGHTS_END = THREEWAY_HEADER_BYTES + 2 * N_TRIPLES;
export const THREEWAY_BYTES = THREEWAY_WEIGHTS_END + CORRECTION_BYTES + NO * N_TRIPLES;

/** loadEquities with the provisional 3-way table of pairwiseThreeway instead of the Monte Carlo one: `prefix`,
 *  the first THREEWAY_WEIGHTS_END bytes (or more) of threeway.bin.gz uncompressed. */
export function provisionalEquities(matchupsBuffer, prefix) {
  const equities = loadEquities(matchupsBuffer, null);
  return { ...equities, triple: { ...pairwiseThreeway(prefix, equities.duel), matchupsCrc: crc32(new Uint8Array(matchupsBuffer)) } };
}

// CRC-32 (IEEE, as Python's zlib.crc32): the file names the matchups.bin its predictions were made from.
const CRC_TABLE = Int32Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c;
});
function crc32(bytes) {
  let c = -1;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ -1) >>> 0;
}

/** The sorted classes (a ≤ b ≤ c) of every row: classes[3·row + seat]. */
function tripleClasses() {
  const classes = new Uint8Array(3 * N_TRIPLES);
  let row = 0;
  for (let c = 0; c < K; c++) for (let b = 0; b <= c; b++) for (let a = 0; a <= b; a++, row++) {
    classes[3 * row] = a;
    classes[3 * row + 1] = b;
    classes[3 * row + 2] = c;
  }
  return classes;
}

const shareRank = (x, y) => {
  const xr = Math.floor(x / 13), xc = x % 13, yr = Math.floor(y / 13), yc = y % 13;
  return xr === yr || xr === yc || xc === yr || xc === yc ? 1 : 0;
};

/** Where each row's residuals sit in the file's planes (kernels.threeway.compact.row_order): rows grouped by how
 *  many of their three class pairs share a rank, in row order within a group. */
function rowPositions(classes) {
  const group = new Uint8Array(N_TRIPLES);
  const start = new Int32Array(4);
  for (let row = 0; row < N_TRIPLES; row++) {
    const a = classes[3 * row], b = classes[3 * row + 1], c = classes[3 * row + 2];
    group[row] = shareRank(a, b) + shareRank(a, c) + shareRank(b, c);
    start[group[row]]++;
  }
  for (let g = 3, total = N_TRIPLES; g >= 0; g--) start[g] = total -= start[g];
  const position = new Int32Array(N_TRIPLES);
  for (let row = 0; row < N_TRIPLES; row++) position[row] = start[group[row]]++;
  return position;
}

/** The model counts of sorted classes a ≤ b ≤ c (kernels.threeway.compact.model_counts): the pairwise counts `pc`
 *  plus the file's three corrections, clipped at 0 and rescaled to SCALE by largest remainder in integers. */
function modelCounts(pc, corrections, a, b, c, out, value, remainder) {
  const ab = (b * (b + 1)) / 2 + a, ac = (c * (c + 1)) / 2 + a, bc = (c * (c + 1)) / 2 + b;
  let total = 0;
  for (let o = 0; o < NO; o++) {
    const v = pc[o] + corrections[o * N_PAIRS + ab] + corrections[(NO + o) * N_PAIRS + ac] + corrections[(2 * NO + o) * N_PAIRS + bc];
    value[o] = Math.max(v, 0);
    total += value[o];
  }
  if (total === 0) {
    out.fill(0)[THREE_WAY_TIE] = SCALE;
    return out;
  }
  let short = SCALE;
  for (let o = 0; o < NO; o++) {
    out[o] = Math.floor((SCALE * value[o]) / total);
    remainder[o] = SCALE * value[o] - out[o] * total;
    short -= out[o];
  }
  for (; short > 0; short--) {
    let best = 0;
    for (let o = 1; o < NO; o++) if (remainder[o] > remainder[best]) best = o;
    out[best]++;
    remainder[best] = -1;
  }
  return out;
}

/** The 3-way table of threeway.bin.gz (uncompressed) version 3: each row's pairwise counts from `duel` (or the rows
 *  of `pairwise`, a provisional table of the same matchups.bin), the corrections, then the residual
 *  (kernels.threeway.compact.decode); `matchupsCrc`: CRC-32 of the matchups.bin that `duel` came from, which must be
 *  the one the file was written with. */
function parseThreeway(buffer, duel, matchupsCrc, pairwise = null) {
  const { scale, boards, seed, step, matchupsCrc: written } = threewayHeader(buffer);
  if (buffer.byteLength !== THREEWAY_BYTES) throw new Error("threeway.bin.gz: truncated");
  if (written !== matchupsCrc) throw new Error("threeway.bin.gz: written with another matchups.bin");
  const compatible = new Uint16Array(buffer, THREEWAY_HEADER_BYTES, N_TRIPLES);
  const corrections = new Int8Array(buffer, THREEWAY_WEIGHTS_END, CORRECTION_BYTES);
  const planes = new Int8Array(buffer, THREEWAY_WEIGHTS_END + CORRECTION_BYTES, N_TRIPLES * NO); // planes[o·T + position]
  const classes = tripleClasses();
  const position = rowPositions(classes);
  const probs = new Float64Array(NO);
  const pc = new Uint8Array(NO);
  const model = new Int32Array(NO);
  const value = new Int32Array(NO);
  const remainder = new Float64Array(NO);
  const reuse = pairwise?.pairwise && pairwise.matchupsCrc === matchupsCrc && pairwise.scale === scale ? pairwise.rows : null;
  return tripleTable(compatible, (row, counts) => {
    const a = classes[3 * row], b = classes[3 * row + 1], c = classes[3 * row + 2];
    if (reuse) pc.set(reuse.subarray(row * ROW_BYTES, row * ROW_BYTES + NO));
    else quantiseOrderings(pairwiseOrderings(duel, a, b, c, probs), scale, pc, remainder);
    modelCounts(pc, corrections, a, b, c, model, value, remainder);
    let anchor = 0;
    for (let o = 1; o < NO; o++) if (model[o] > model[anchor]) anchor = o;
    if (planes[anchor * N_TRIPLES + position[row]] !== 0) throw new Error("threeway.bin.gz: damaged (a residual where there is none)");
    let rest = SCALE;
    for (let o = 0; o < NO; o++) {
      if (o === anchor) continue;
      const count = Math.max(model[o] + step * planes[o * N_TRIPLES + position[row]], 0);
      if (count > SCALE) throw new Error("threeway.bin.gz: damaged (a count above the scale)");
      counts[o] = count;
      rest -= count;
    }
    if (rest < 0) throw new Error("threeway.bin.gz: damaged (a count below 0)");
    counts[anchor] = rest;
  }, scale, { boards, seed });
}

/** The solver's 3-way table from the compatible combo triples of each sorted triple and `fill(row, counts)`,
 *  which writes the row's 13 ordering counts (out of `scale`) into `counts`. */
function tripleTable(compatible, fill, scale, extra) {
  // One 16-byte record per row (the 13 counts, then the compatible combo triples as uint16 at byte 14),
  // so that a row is one memory access: the solver's reads jump around a 13 MB table.
  const rows = new Uint8Array(N_TRIPLES * ROW_BYTES);
  const weights = new Uint16Array(rows.buffer);
  const rowMass = new Float64Array(N_TRIPLES); // Σ_o compatible · P(o)
  const counts = new Uint8Array(NO);
  for (let row = 0; row < N_TRIPLES; row++) {
    if (compatible[row] === 0) continue;
    fill(row, counts);
    let total = 0;
    for (let o = 0; o < NO; o++) {
      rows[row * ROW_BYTES + o] = counts[o];
      total += counts[o];
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
  return { rows, weights, scale, norm, marginals: null, ...extra };
}

// The 3 pairs of a sorted triple's seats, and for each ordering whether the pair's first seat ranks better
// (0), ties (1) or worse (2): the column of the heads-up (win, tie, loss) it takes.
const PAIRS = [[0, 1], [0, 2], [1, 2]];
const PAIR_COLUMN = ORDERINGS.map((r) => PAIRS.map(([x, y]) => (r[x] < r[y] ? 0 : r[x] === r[y] ? 1 : 2)));
const THREE_WAY_TIE = code([0, 0, 0]);

/** The 13 ordering probabilities of three hands from their three heads-up results alone, as if the three
 *  showdowns were independent given a consistent ordering: P(o) ∝ Π over pairs of P(the pair's result in o)
 *  (kernels.threeway.pairwise.pairwise_orderings). `duel`: (win, tie, loss) of the first class, K·K·3 (as
 *  loadEquities); the classes a, b, c of seats 0, 1, 2. */
export function pairwiseOrderings(duel, a, b, c, out = new Float64Array(NO)) {
  const ab = (a * K + b) * 3, ac = (a * K + c) * 3, bc = (b * K + c) * 3;
  let total = 0;
  for (let o = 0; o < NO; o++) {
    const [i, j, k] = PAIR_COLUMN[o];
    out[o] = duel[ab + i] * duel[ac + j] * duel[bc + k];
    total += out[o];
  }
  if (total > 0) for (let o = 0; o < NO; o++) out[o] /= total;
  else out.fill(0)[THREE_WAY_TIE] = 1;
  return out;
}

/** Counts out of `scale` summing to it exactly, each the floor or ceiling of p · scale (largest remainder;
 *  equal remainders: the lower ordering first), as generator.data.datafiles.quantise_orderings. */
export function quantiseOrderings(probs, scale, out = new Uint8Array(NO), remainder = new Float64Array(NO)) {
  let short = scale;
  for (let o = 0; o < NO; o++) {
    const scaled = probs[o] * scale;
    out[o] = Math.floor(scaled);
    remainder[o] = scaled - out[o];
    short -= out[o];
  }
  for (let k = Math.round(short); k > 0; k--) {
    let best = 0;
    for (let o = 1; o < NO; o++) if (remainder[o] > remainder[best]) best = o;
    out[best]++;
    remainder[best] = -1;
  }
  return out;
}

/** A provisional 3-way table: the compatible combo triples of threeway.bin.gz (its first THREEWAY_WEIGHTS_END
 *  bytes, uncompressed) and ordering probabilities from the heads-up results (`duel` of loadEquities) by
 *  pairwiseOrderings, quantised as the file's. For a first answer while the Monte Carlo table downloads. */
export function pairwiseThreeway(prefix, duel) {
  const { scale } = threewayHeader(prefix);
  if (prefix.byteLength < THREEWAY_WEIGHTS_END) throw new Error("threeway.bin.gz: truncated");
  const compatible = new Uint16Array(prefix.slice(THREEWAY_HEADER_BYTES, THREEWAY_WEIGHTS_END));
  const classes = tripleClasses();
  const probs = new Float64Array(NO);
  return tripleTable(compatible, (r, counts) => {
    pairwiseOrderings(duel, classes[3 * r], classes[3 * r + 1], classes[3 * r + 2], probs);
    quantiseOrderings(probs, scale, counts);
  }, scale, { pairwise: true });
}

function sortedRow(a, b, c) {
  let t;
  if (a > b) { t = a; a = b; b = t; }
  if (b > c) { t = b; b = c; c = t; }
  if (a > b) { t = a; a = b; b = t; }
  return TRI3[c] + TRI2[b] + a;
}

/** compatible[row] · Σ_o pay[o] · count[row, o]: a stored row's counts weighted by a seating's payoff per stored
 *  ordering (the 13 payoffs p0…p12 as arguments, so that a caller's loop keeps them in registers). */
export function rowDot(rows, weights, row, p0, p1, p2, p3, p4, p5, p6, p7, p8, p9, p10, p11, p12) {
  const b = row * ROW_BYTES;
  return weights[row * ROW_WORDS + WEIGHT_WORD] * (p0 * rows[b] + p1 * rows[b + 1] + p2 * rows[b + 2] + p3 * rows[b + 3]
    + p4 * rows[b + 4] + p5 * rows[b + 5] + p6 * rows[b + 6] + p7 * rows[b + 7] + p8 * rows[b + 8] + p9 * rows[b + 9]
    + p10 * rows[b + 10] + p11 * rows[b + 11] + p12 * rows[b + 12]);
}

/** visit(c, p, row) for every hero class c in frame (hero c, second d, third e): p indexes PERMS (equal classes keep
 *  frame order), row is the sorted triple's. The hero's class below, between and above the other two are
 *  three seatings with rows in closed form. */
export function eachSeating(d, e, visit) {
  if (d <= e) { // c ≤ d ≤ e, then d < c ≤ e, then d ≤ e < c
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
export function marginals(triple) {
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

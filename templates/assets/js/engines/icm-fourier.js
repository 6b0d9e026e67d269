// ICM prize integrands at one quadrature node through the characteristic function of the clocks rung:
// the twin of kernels/icm/fourier.py (the method, its error bounds and its cost are described there and in
// docs/icm.md). Pure ES module, no DOM.
//   clockProbabilities(shares, t, fired, quiet)                 shares sorted ascending
//   fourierNode(shares, vectors, largest, fired, quiet, outs)   outs[v][j] = x_j q_j Σ_r a^v_r PB_r^{(-j)}(t)

// Shared with kernels/icm/fourier.py (spec/constants.json): window tails and dropped samples each below e^-LOG_TAIL of
// the largest prize, BLOCK players per partial product of the characteristic function, the interpolation error of H
// (CHEBYSHEV_TOL, relative to the largest prize), CHEBYSHEV_MAX (above it the direct sum over samples is used) and
// CHEBYSHEV_PER_SAMPLE (Clenshaw steps that cost about one direct complex division).
import {
  ICM_FOURIER_BLOCK as BLOCK, ICM_FOURIER_CHEBYSHEV_MAX as CHEBYSHEV_MAX, ICM_FOURIER_CHEBYSHEV_PER_SAMPLE as CHEBYSHEV_PER_SAMPLE,
  ICM_FOURIER_CHEBYSHEV_TOL as CHEBYSHEV_TOL, ICM_FOURIER_LOG_TAIL as LOG_TAIL,
} from "./constants.js";

/** Smallest s with variance h(s / variance) >= LOG_TAIL, h(u) = (1 + u) log(1 + u) - u (Bennett). */
function bennettSpread(variance) {
  if (variance <= 0) return 0;
  let low = 0;
  let high = Math.sqrt(2 * LOG_TAIL * variance) + LOG_TAIL;
  for (let i = 0; i < 60; i++) {
    const mid = 0.5 * (low + high);
    const u = mid / variance;
    if (variance * ((1 + u) * Math.log1p(u) - u) >= LOG_TAIL) high = mid;
    else low = mid;
    if (high - low < 1e-3) break;
  }
  return high;
}

/** fired = 1 - e^{-x t}, quiet = e^{-x t} for shares sorted ascending: expm1 below x t = log 2, exp above. */
export function clockProbabilities(shares, t, fired, quiet) {
  const m = shares.length;
  const cut = t > 0 ? Math.LN2 / t : Infinity;
  let split = 0;
  let top = m;
  while (split < top) { // first share >= cut (numpy.searchsorted, side left)
    const mid = (split + top) >> 1;
    if (shares[mid] < cut) split = mid + 1;
    else top = mid;
  }
  for (let j = 0; j < split; j++) {
    fired[j] = -Math.expm1(-shares[j] * t);
    quiet[j] = 1 - fired[j];
  }
  for (let j = split; j < m; j++) {
    quiet[j] = Math.exp(-shares[j] * t);
    fired[j] = 1 - quiet[j];
  }
}

/** {lo, size, othersVariance}: [lo, lo + size) holds every player's others' count but for 2 e^{-LOG_TAIL}. */
function countWindow(fired, quiet) {
  const m = fired.length;
  let mean = 0;
  let variance = 0;
  let largest = 0;
  for (let j = 0; j < m; j++) {
    const spread = fired[j] * quiet[j];
    mean += fired[j];
    variance += spread;
    largest = Math.max(largest, spread);
  }
  const reach = bennettSpread(variance);
  const lo = Math.max(0, Math.floor(mean - 1 - reach));
  const hi = Math.min(m - 1, Math.ceil(mean + reach));
  return { lo, size: hi - lo + 1, othersVariance: variance - largest };
}

/** S: samples s = 1..S of the size-point DFT that are not negligible. */
function sampleCount(size, othersVariance) {
  const half = Math.floor(size / 2);
  if (othersVariance <= 0) return half;
  const cosine = 1 - (LOG_TAIL + Math.log(size)) / othersVariance;
  if (cosine <= -1) return half;
  return Math.min(half, Math.trunc((size * Math.acos(cosine)) / (2 * Math.PI)) + 1);
}

/** [re, im] of A(s) = Σ_{lo <= r < lo + N} a_r e^{-2πi s r / N}, s = 0..count; cosines, sines: of 2πj/N. */
function payoutTransform(payouts, lo, count, cosines, sines) {
  const size = cosines.length;
  const re = new Float64Array(count + 1);
  const im = new Float64Array(count + 1);
  const stop = Math.min(lo + size, payouts.length);
  for (let s = 0; s <= count; s++) {
    let index = (s * lo) % size;
    let totalRe = 0;
    let totalIm = 0;
    for (let r = lo; r < stop; r++) {
      totalRe += payouts[r] * cosines[index];
      totalIm -= payouts[r] * sines[index];
      index += s;
      if (index >= size) index -= size;
    }
    re[s] = totalRe;
    im[s] = totalIm;
  }
  return [re, im];
}

/** [re, im] of φ(ω_s) = Π_j (q_j + p_j ω_s), s = 1..count, BLOCK players per partial product. The
 * products of kernels/icm/fourier.py in another loop order: one sample at a time, the players of a block in
 * two interleaved chains held in locals (2.5x faster in V8 than a sweep over the samples per player). */
function characteristic(fired, quiet, shiftedCos, sines, count) {
  const re = new Float64Array(count + 1).fill(1);
  const im = new Float64Array(count + 1);
  const m = fired.length;
  for (let s = 1; s <= count; s++) {
    const e = shiftedCos[s];
    const d = sines[s];
    let totalRe = 1;
    let totalIm = 0;
    for (let start = 0; start < m; start += BLOCK) {
      const stop = Math.min(start + BLOCK, m);
      let evenRe = 1;
      let evenIm = 0;
      let oddRe = 1;
      let oddIm = 0;
      for (let j = start; j < stop; j += 2) {
        let p = fired[j];
        let factorRe = quiet[j] - p + p * e;
        let factorIm = p * d;
        let x = evenRe * factorRe - evenIm * factorIm;
        evenIm = evenRe * factorIm + evenIm * factorRe;
        evenRe = x;
        if (j + 1 === stop) break;
        p = fired[j + 1];
        factorRe = quiet[j + 1] - p + p * e;
        factorIm = p * d;
        x = oddRe * factorRe - oddIm * factorIm;
        oddIm = oddRe * factorIm + oddIm * factorRe;
        oddRe = x;
      }
      const blockRe = evenRe * oddRe - evenIm * oddIm;
      const blockIm = evenRe * oddIm + evenIm * oddRe;
      const x = totalRe * blockRe - totalIm * blockIm;
      totalIm = totalRe * blockIm + totalIm * blockRe;
      totalRe = x;
    }
    re[s] = totalRe;
    im[s] = totalIm;
  }
  return [re, im];
}

/** Re Σ_{s >= 1} C_s / (q + p ω_s) with q - p = gap. */
function poleSum(cRe, cIm, shiftedCos, sines, p, gap) {
  let total = 0;
  for (let s = 1; s < cRe.length; s++) {
    const factorRe = gap + p * shiftedCos[s];
    const factorIm = p * sines[s];
    total += (cRe[s] * factorRe + cIm[s] * factorIm) / (factorRe * factorRe + factorIm * factorIm);
  }
  return total;
}

/** Degree of a Chebyshev interpolant of the pole sum within CHEBYSHEV_TOL * scale (analytic bound), 0 when
 * the sum vanishes, or CHEBYSHEV_MAX + 1 when none is cheap (kernels/icm/fourier.py _chebyshev_degree). */
function chebyshevDegree(cRe, cIm, angle, scale) {
  const count = cRe.length - 1;
  if (count === 0) return 0;
  const nearest = 1 / Math.tan(0.5 * angle * count);
  if (nearest <= 0.05) return CHEBYSHEV_MAX + 1;
  let best = CHEBYSHEV_MAX + 1;
  const rMax = nearest + Math.sqrt(nearest * nearest + 1);
  for (const fraction of [0.3, 0.5, 0.7, 0.85]) {
    const r = 1 + fraction * (rMax - 1);
    const minor = 0.5 * (r - 1 / r);
    let bound = 0;
    for (let s = 1; s <= count; s++) {
      const half = 0.5 * angle * s;
      bound += Math.hypot(cRe[s], cIm[s]) / Math.sin(half) / (1 / Math.tan(half) - minor);
    }
    if (bound === 0) return 0;
    const degree = Math.ceil(Math.log((4 * bound) / ((r - 1) * CHEBYSHEV_TOL * scale)) / Math.log(r));
    best = Math.min(best, Math.max(degree, 1));
  }
  return best;
}

/** c_0..c_D (c_0, c_D halved) of the interpolant in Chebyshev points of the second kind, u = 2p - 1. */
function chebyshevCoefficients(cRe, cIm, shiftedCos, sines, degree) {
  const values = new Float64Array(degree + 1);
  for (let k = 0; k <= degree; k++) {
    const u = Math.cos((Math.PI * k) / degree);
    values[k] = poleSum(cRe, cIm, shiftedCos, sines, 0.5 * (1 + u), -u);
  }
  const coefficients = new Float64Array(degree + 1);
  for (let d = 0; d <= degree; d++) {
    let total = 0.5 * (values[0] + values[degree] * (d % 2 === 0 ? 1 : -1));
    for (let k = 1; k < degree; k++) total += values[k] * Math.cos((Math.PI * d * k) / degree);
    coefficients[d] = (total * 2) / degree;
  }
  coefficients[0] *= 0.5;
  coefficients[degree] *= 0.5;
  return coefficients;
}

/** out[j] = Σ_d c_d T_d(p_j - q_j), Clenshaw's recurrence: kernels/icm/fourier.py's in another loop
 * order, two players at a time with their recurrences in locals (2.8x faster in V8 than sweeps over a chunk). */
function clenshaw(coefficients, fired, quiet, out) {
  const degree = coefficients.length - 1;
  const m = fired.length;
  for (let j = 0; j < m; j += 2) {
    const u = fired[j] - quiet[j];
    const v = j + 1 < m ? fired[j + 1] - quiet[j + 1] : 0;
    const twiceU = 2 * u;
    const twiceV = 2 * v;
    let u1 = 0;
    let u2 = 0;
    let v1 = 0;
    let v2 = 0;
    for (let d = degree; d > 0; d--) {
      const c = coefficients[d];
      const u0 = c + twiceU * u1 - u2;
      u2 = u1;
      u1 = u0;
      const v0 = c + twiceV * v1 - v2;
      v2 = v1;
      v1 = v0;
    }
    out[j] = coefficients[0] + u * u1 - u2;
    if (j + 1 < m) out[j + 1] = coefficients[0] + v * v1 - v2;
  }
}

/** out[j] = the pole sum at player j's (p_j, q_j), S complex divisions each. */
function direct(cRe, cIm, shiftedCos, sines, fired, quiet, out) {
  const m = fired.length;
  out.fill(0, 0, m);
  for (let s = 1; s < cRe.length; s++) {
    const [a, b, e, d] = [cRe[s], cIm[s], shiftedCos[s], sines[s]];
    for (let j = 0; j < m; j++) {
      const p = fired[j];
      const factorRe = quiet[j] - p + p * e;
      const factorIm = p * d;
      out[j] += (a * factorRe + b * factorIm) / (factorRe * factorRe + factorIm * factorIm);
    }
  }
}

/**
 * outs[v][j] = x_j q_j H^v_j(t) for each payout vector (all of one length k <= m; largest[v] its largest
 * prize in absolute value) at one node, the characteristic function built once for all of them
 * (kernels/icm/fourier.py node_integrands). shares (m) sorted ascending; fired, quiet: p_j, q_j at t
 * (clockProbabilities).
 */
export function fourierNode(shares, vectors, largest, fired, quiet, outs) {
  const m = shares.length;
  const { lo, size, othersVariance } = countWindow(fired, quiet);
  if (lo >= vectors[0].length) {
    outs.forEach((out) => out.fill(0, 0, m));
    return;
  }
  const count = sampleCount(size, othersVariance);
  const angle = (2 * Math.PI) / size;
  const cosines = new Float64Array(size);
  const allSines = new Float64Array(size);
  for (let index = 0; index < size; index++) {
    cosines[index] = Math.cos(angle * index);
    allSines[index] = Math.sin(angle * index);
  }
  const shiftedCos = cosines.slice(0, count + 1).map((cosine) => 1 + cosine);
  const sines = allSines.subarray(0, count + 1);
  const [phiRe, phiIm] = characteristic(fired, quiet, shiftedCos, sines, count);
  vectors.forEach((payouts, v) => {
    const out = outs[v];
    const [aRe, aIm] = payoutTransform(payouts, lo, count, cosines, allSines);
    const cRe = new Float64Array(count + 1);
    const cIm = new Float64Array(count + 1);
    for (let s = 1; s <= count; s++) {
      const pair = 2 * s === size ? 1 : 2;
      cRe[s] = (pair * (aRe[s] * phiRe[s] - aIm[s] * phiIm[s])) / size;
      cIm[s] = (pair * (aRe[s] * phiIm[s] + aIm[s] * phiRe[s])) / size;
    }
    const degree = chebyshevDegree(cRe, cIm, angle, largest[v]);
    if (degree === 0) { // no sample left, or every C_s is 0 (no paid place in the window): H is A(0) / N
      out.fill(0, 0, m);
    } else if (degree <= CHEBYSHEV_MAX && degree < CHEBYSHEV_PER_SAMPLE * count) {
      clenshaw(chebyshevCoefficients(cRe, cIm, shiftedCos, sines, degree), fired, quiet, out);
    } else {
      direct(cRe, cIm, shiftedCos, sines, fired, quiet, out);
    }
    const base = aRe[0] / size;
    for (let j = 0; j < m; j++) out[j] = shares[j] * quiet[j] * (base + out[j]);
  });
}

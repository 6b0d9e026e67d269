// A strategy profile as the solver holds it: per information set the probability of the aggressive action
// per class, split into a constant and deviations, with the per-class action probabilities it implies.
// Pure ES module: no DOM, no globals (the solver's parts; pushfold-solver.js is their public face).

import { K } from "./model.js";

// ------------------------------------------------------------------------------------- the strategies

/** Per information set: p (K) of the aggressive action, its support, a version
 *  counter, p as offset + deviation (tripleSums), and P(it acts aggressively | hero class c) = Σ_d cond[c, d] · p[d] (kept until p changes). */
export class Strategy {
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

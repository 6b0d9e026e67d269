// One equity computation in Web Workers (equity-worker.js, through the pool equity-pool.js), for the calculator page and the hand
// pages: the worker's message protocol in one place, cancelling by terminating the worker, and how
// progress and results read.

import { EquityPool } from "./equity-pool.js";
import { Z_975, progressResult } from "../engines/range-equity.js";

/** Rejection reason of a cancelled run. */
export class Cancelled extends Error {}

// a worker resolves URLs against its own script, so hand it absolute ones
const absolute = (path) => new URL(path, location.href).href;

/**
 * Start one run. ``urls``: {worker, tables, matchups, exactPlayers} (site-relative, from the page's data-*;
 * ``exactPlayers``: "2,3" or "2,3,4", the table sizes the build counted exactly);
 * ``weights``: one Float64Array(1326) per player; ``board``, ``dead``: card ids;
 * ``onProgress({done, total, counts} | {samples, se, counts})`` about every 100 ms, with the running
 * counts merged across the pool's workers (progressShower shows them).
 * ``exact``: enumerate whatever the work; ``seed`` of the sampling (default: a fresh random one, so a second
 * visit does not repeat the first one's sample).
 * Returns {done: Promise<{result, ms}> (rejects with Error{player} or Cancelled), cancel()}.
 */
export function startEquity(urls, { weights, board, dead, targetSe = 1e-3, exact = false, seed = randomSeed() }, onProgress) {
  const worker = new EquityPool(urls.worker, { type: "module" }); // one or several workers, one interface
  let fail;
  const done = new Promise((resolve, reject) => {
    fail = (error) => {
      worker.terminate();
      reject(error);
    };
    worker.onmessage = (e) => {
      if (e.data.progress) return onProgress(e.data.progress);
      worker.terminate();
      if (e.data.error) reject(Object.assign(new Error(e.data.error), { player: e.data.player, blockers: e.data.blockers ?? [] }));
      else resolve({ result: e.data.result, ms: e.data.ms });
    };
    worker.onerror = (e) => fail(new Error(`the calculator failed: ${e.message}`));
  });
  worker.postMessage({
    id: 1, tablesUrl: absolute(urls.tables), matchupsUrl: absolute(urls.matchups),
    exactPlayers: (urls.exactPlayers ?? "2,3").split(",").map(Number),
    weights: weights.map((w) => Array.from(w)), board, dead, targetSe, exact, seed,
  });
  return { done, cancel: () => fail(new Cancelled("Cancelled.")) };
}

/** A random 32-bit seed. */
export const randomSeed = () => crypto.getRandomValues(new Uint32Array(1))[0];

const pct = (x, digits = 2) => (x === null ? "–" : `${(100 * x).toFixed(digits)}%`); // null: not in the answer
const count = (n) => n.toLocaleString("en-US");
/** "12.3 s" or "450 ms". */
const duration = (ms) => (ms < 1000 ? `${ms.toFixed(0)} ms` : `${(ms / 1000).toFixed(1)} s`);

/**
 * An ``onProgress`` for startEquity, while ``isCurrent()``: fills ``bar`` (a <progress>, unhidden) and
 * ``text`` with the boards (or deals of hole cards) counted so far, or the deals sampled and the largest standard error, and the
 * time; hands the running figures (progressResult: partial, Monte Carlo with ± CI) to ``onFigures``.
 */
export function progressShower(bar, text, isCurrent, onFigures = () => {}) {
  const started = performance.now();
  return (p) => {
    if (!isCurrent()) return;
    const ms = performance.now() - started;
    bar.hidden = false;
    bar.value = p.total ? p.done / p.total : Math.min(1, 1e-3 / p.se);
    const [units, unit] = p.counts?.unit === "deals" ? ["deals of hole cards", "deal"] : ["boards", "board"];
    text.textContent = p.total
      ? `Enumerating… so far ${count(p.done)} of ${count(p.total)} ${units} (${pct(p.done / p.total, 0)}, ${duration(ms)}): the figures are partial until every ${unit} is counted.`
      : `Sampling… ${count(p.samples)} deals so far, largest standard error ${pct(p.se, 3)} (${duration(ms)}): current estimates, ± is the 95% confidence interval.`;
    const figures = progressResult(p);
    if (figures) onFigures(figures);
  };
}

const TABLE_NAMES = { 2: "heads-up", 3: "three-handed", 4: "four-handed" };

/** How a result was reached, in ``ms``: "Exact: 1,176 boards enumerated in 415 ms." and the like. */
export function methodText(result, ms) {
  return result.method === "table" && result.exact
    ? `Exact, from the ${TABLE_NAMES[result.equity.length]} table (${duration(ms)}).`
    : result.method.includes("table") ? `From the multiway table: ${count(result.samples)} deals; ± is the 95% confidence interval (${duration(ms)}).`
    : result.exact ? `Exact: ${count(result.boards)} boards enumerated in ${duration(ms)}.`
    : `Monte Carlo: ${count(result.samples)} deals in ${duration(ms)}; ± is the 95% confidence interval.`;
}

/** Player ``p``'s figures as shown: {equity, half ("exact", "± 0.20%", or "so far" while an
 * enumeration runs), win, tie} (percent strings;
 * "–" where the answer has none, as a table answer may lack win and tie of some players). */
export function playerFigures(result, p) {
  return {
    equity: pct(result.equity[p]),
    half: result.seEquity ? `± ${pct(Z_975 * result.seEquity[p])}` : result.partial ? "so far" : "exact",
    win: pct(result.win[p]),
    tie: pct(result.ties[p] ? result.ties[p].reduce((a, b) => a + b, 0) : null),
  };
}

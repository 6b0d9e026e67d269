// One equity computation in a Web Worker (equity-worker.js), for the calculator page and the hand
// pages: the worker's message protocol in one place, and cancelling by terminating the worker.

/** Rejection reason of a cancelled run. */
export class Cancelled extends Error {}

// a worker resolves URLs against its own script, so hand it absolute ones
const absolute = (path) => new URL(path, location.href).href;

/**
 * Start one run. ``urls``: {worker, tables, matchups} (site-relative, from the page's data-*);
 * ``weights``: one Float64Array(1326) per player; ``board``, ``dead``: card ids;
 * ``onProgress({done, total} | {samples, se})`` about every 100 ms.
 * Returns {done: Promise<{result, ms}> (rejects with Error{player} or Cancelled), cancel()}.
 */
export function startEquity(urls, { weights, board, dead, targetSe = 1e-3 }, onProgress) {
  const worker = new Worker(urls.worker, { type: "module" });
  let fail;
  const done = new Promise((resolve, reject) => {
    fail = (error) => {
      worker.terminate();
      reject(error);
    };
    worker.onmessage = (e) => {
      if (e.data.progress) return onProgress(e.data.progress);
      worker.terminate();
      if (e.data.error) reject(Object.assign(new Error(e.data.error), { player: e.data.player }));
      else resolve({ result: e.data.result, ms: e.data.ms });
    };
    worker.onerror = (e) => fail(new Error(`the calculator failed: ${e.message}`));
  });
  worker.postMessage({
    id: 1, tablesUrl: absolute(urls.tables), matchupsUrl: absolute(urls.matchups),
    weights: weights.map((w) => Array.from(w)), board, dead, targetSe,
  });
  return { done, cancel: () => fail(new Cancelled("Cancelled.")) };
}

let ranking = null;
/** Class indices best first by exact heads-up equity vs a random hand (headsup.json counts, as Python); cached. */
export function loadRanking(url) {
  ranking ??= fetch(url).then(async (response) => {
    if (!response.ok) throw new Error(`headsup.json: HTTP ${response.status}`);
    const h = await response.json();
    const equity = h.win.map((w, i) => (w + h.tie[i] / 2) / h.total[i]);
    return equity.map((_, i) => i).sort((a, b) => equity[b] - equity[a] || a - b);
  });
  return ranking;
}

/** "12.3 s" or "450 ms". */
export const duration = (ms) => (ms < 1000 ? `${ms.toFixed(0)} ms` : `${(ms / 1000).toFixed(1)} s`);
/** Progress text of a run: boards enumerated, or deals sampled and the largest standard error so far. */
export function progressText(p, ms) {
  const pct = (x, digits) => `${(100 * x).toFixed(digits)}%`;
  return p.total ? `Enumerating… ${pct(p.done / p.total, 0)} of ${p.total.toLocaleString("en-US")} boards (${duration(ms)})`
    : `Sampling… ${p.samples.toLocaleString("en-US")} deals, largest standard error ${pct(p.se, 3)} (${duration(ms)})`;
}

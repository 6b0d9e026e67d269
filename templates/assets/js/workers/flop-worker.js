// Module Web Worker of the flop equity engines (engines/flop-equity.js): the equity distribution of range A
// against range B on a board, and the every-flop report or a part of it, off the main thread. Messages:
//   in:  {type: "distribution", id, tablesUrl, weightsA, weightsB, board, dead?}
//          weights: 1,326 numbers each (Float64Array or array); board: 3, 4 or 5 card ids; dead: card ids
//        {type: "report", id, tablesUrl, weightsA, weightsB, part?, parts?, names?}
//          part k of parts (default 0 of 1): the board classes whose index ≡ k (mod parts), so that several
//          workers share one report (each takes a part; their counts add up, exactly when the weights are dyadic);
//          names: the ranges' names in a NotSuitSymmetricError's message (default ["range A", "range B"])
//        {type: "cancel", id}    stops that job at its next yield (the report yields every ~50 ms); terminating
//                                the worker also cancels
//   out: {type: "progress", id, done, total}   at most every 100 ms: completions of the board counted
//          (distribution) or board classes of the part counted (report)
//        {type: "distribution", id, equities, distribution, ms}
//          equities: comboEquities' {combos, rangeWeight, win, tie, total, boards, equity, weight};
//          distribution: equityDistribution's {combos, equity, weight, cumulative, quantiles, above, overall}
//        {type: "counts", id, part, parts, counts, ms}
//          counts: flopWalk's {win, tie, total (Float64Array(1755)), visited}; the page adds the parts' counts
//          (mergeFlopCounts) and reads them with flopReport (per flop: cards, weight, equity, share, texture)
//        {type: "error", id, message, kind, player, blockers}
//          kind: "NoDealError" (player: 0 for A, 1 for B, or null; blockers: [[card, holder], ...]),
//          "NotSuitSymmetricError" (a report of a range that is not suit-symmetric; player: 0 or 1), or "Error"
//          (a bad spot: a board of the wrong size, a card twice)
//        {type: "cancelled", id}
// The evaluator tables are fetched once per tablesUrl. Jobs run one after another in the order they came.
import { parseTables } from "../engines/evaluator.js";
import { comboEquities, equityDistribution, flopWalk } from "../engines/flop-equity.js";

const PROGRESS_EVERY_MS = 100;
const YIELD_EVERY_MS = 50;
/** Board classes counted between two looks at the clock (a few ms of work). */
const STEP = 256;
const tables = {};
const cancelled = new Set();
let queue = Promise.resolve();

const loadTables = (url) => (tables[url] ??= fetch(url).then(async (response) => {
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return parseTables(await response.arrayBuffer());
}));
const pause = () => new Promise((resolve) => setTimeout(resolve, 0));

/** A progress poster for job ``id`` that posts at most every PROGRESS_EVERY_MS (and always the last count). */
function progressPoster(id) {
  let last = 0;
  return (done, total) => {
    const now = performance.now();
    if (now - last < PROGRESS_EVERY_MS && done < total) return;
    last = now;
    self.postMessage({ type: "progress", id, done, total });
  };
}

async function distribution({ id, tablesUrl, weightsA, weightsB, board, dead = [] }) {
  const t = await loadTables(tablesUrl);
  const started = performance.now();
  const equities = comboEquities(t, Float64Array.from(weightsA), Float64Array.from(weightsB), board, dead, { onProgress: progressPoster(id) });
  self.postMessage({ type: "distribution", id, equities, distribution: equityDistribution(equities), ms: performance.now() - started });
}

async function report({ id, tablesUrl, weightsA, weightsB, part = 0, parts = 1, names }) {
  const t = await loadTables(tablesUrl);
  const started = performance.now();
  const walk = flopWalk(t, Float64Array.from(weightsA), Float64Array.from(weightsB), { part, parts, names });
  const progress = progressPoster(id);
  let lastYield = performance.now();
  while (!walk.step(STEP)) {
    progress(walk.done, walk.size);
    if (performance.now() - lastYield >= YIELD_EVERY_MS) {
      await pause();
      lastYield = performance.now();
      if (cancelled.has(id)) return;
    }
  }
  progress(walk.done, walk.size);
  self.postMessage({ type: "counts", id, part, parts, counts: walk.counts(), ms: performance.now() - started });
}

const JOBS = { distribution, report };
const KINDS = ["NoDealError", "NotSuitSymmetricError"];

self.onmessage = (e) => {
  const message = e.data ?? {};
  if (message.type === "cancel") {
    cancelled.add(message.id);
    self.postMessage({ type: "cancelled", id: message.id });
    return;
  }
  const job = JOBS[message.type];
  if (!job) return;
  queue = queue.then(async () => {
    if (cancelled.has(message.id)) return;
    try {
      await job(message);
    } catch (error) {
      const kind = KINDS.includes(error.name) ? error.name : "Error";
      self.postMessage({ type: "error", id: message.id, message: error.message, kind, player: error.player ?? null, blockers: error.blockers ?? [] });
    }
  });
};

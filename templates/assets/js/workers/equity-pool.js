// Several equity workers behind the interface of one (new EquityPool(url, options): postMessage,
// onmessage, onerror, terminate), for equity-page.js. A spot that is enumerated or sampled is split
// across navigator.hardwareConcurrency − 1 workers (at least 1, at most MAX_WORKERS): each enumerates every
// parts-th board or samples its own random stream, and the pool adds their counts up, so an exact
// result is the one a single worker gives (weights are summed exactly when they are dyadic, e.g.
// 1, 0.5, 0.25; other weights may differ in the last bits). Table answers (matchups.bin, multiway.json)
// are read on this thread (a 169×169 sum: well under a millisecond once the file is loaded); errors
// and small enumerations go to one worker.
import {
  NoDealError, classTableDocument, classTableFile, enumerationWork, equityFromCounts, mcStatistics, mergeCounts, mergeSamples, monteCarloResult, planEquity,
  tableAnswer,
} from "../engines/range-equity.js";
import { parseMatchupTable } from "../engines/matchup-table.js";

export const MAX_WORKERS = 8;
/** Below this much enumeration work (range-equity.js units) one worker answers before a second starts. */
const SPLIT_WORK = 1e7; // ~0.3 s of one worker: below it, starting a second costs more than it saves

/** Workers for a machine with navigator.hardwareConcurrency cores: one core is left to the page and the
 * browser (on 2 cores that is one worker: two measured slower than one on the busy 2-core machine). */
export const defaultSize = (cores = globalThis.navigator?.hardwareConcurrency || 1) => Math.min(MAX_WORKERS, Math.max(1, cores - 1));

export class EquityPool {
  constructor(url, options = {}, size = defaultSize()) {
    Object.assign(this, { url, options, size, workers: [], run: 0, onmessage: null, onerror: null });
  }

  /** The worker message {id, weights, board, dead, …} (equity-worker.js), answered through onmessage. */
  postMessage(message) {
    this.terminate();
    const run = this.run;
    const plan = this.plan(message);
    if (!plan.table) return this.start(message, plan.parts);
    const started = performance.now();
    tableAnswerOf(message, plan.table).then((result) => {
      if (run !== this.run) return; // cancelled or replaced
      if (result) this.onmessage?.({ data: { id: message.id, result, ms: performance.now() - started } });
      else this.start(message, this.size); // no table: a preflop spot without one is sampled
    });
  }

  start(message, parts) {
    const answers = new Array(parts), progress = new Array(parts);
    for (let part = 0; part < parts; part++) {
      const worker = new Worker(this.url, this.options);
      this.workers.push(worker);
      worker.onerror = (e) => { this.terminate(); this.onerror?.(e); };
      worker.onmessage = (e) => {
        const data = e.data;
        if (parts === 1 || data.error) {
          if (!data.progress) this.terminate();
          this.onmessage?.({ data });
          return;
        }
        if (data.progress) {
          progress[part] = data.progress;
          this.onmessage?.({ data: { id: data.id, progress: combinedProgress(progress.filter(Boolean)) } });
          return;
        }
        answers[part] = data;
        if (answers.filter(Boolean).length === parts) {
          this.terminate();
          this.onmessage?.({ data: merged(data.id, answers) });
        }
      };
      worker.postMessage(parts === 1 ? message : { ...message, part, parts });
    }
  }

  /** {parts: how many workers share the spot, table: its plan when a table answers it (on this thread)}. */
  plan(message) {
    try {
      const plan = planEquity(message.weights, message.board, message.dead, { exactLimit: message.exact ? Infinity : undefined });
      if (plan.method === "table" || plan.method === "multiway table") return { parts: 1, table: plan };
      const split = plan.method === "monte carlo" || enumerationWork(plan.live, message.board, message.dead) > SPLIT_WORK;
      return { parts: split ? this.size : 1, table: null };
    } catch {
      return { parts: 1, table: null }; // the worker reports the error in the usual way
    }
  }

  terminate() {
    this.run++;
    this.workers.forEach((worker) => worker.terminate());
    this.workers = [];
  }
}

const tables = {};
/** The table answer of a planned spot (matchups.bin, or threehanded.json / fourhanded.json / multiway.json beside it; each fetched once per
 * page), or null when the table is missing or does not hold the answer (then a worker computes it). */
async function tableAnswerOf(message, { method, live }) {
  const players = live.length;
  const exactPlayers = message.exactPlayers ?? [3];
  const url = method === "table" ? message.matchupsUrl : new URL(classTableFile(players, exactPlayers), message.matchupsUrl).href;
  const read = method === "table" ? async (r) => parseMatchupTable(await r.arrayBuffer())
    : async (r) => classTableDocument(players, await r.json(), exactPlayers);
  tables[url] ??= fetch(url).then((response) => (response.ok ? read(response) : null)).catch(() => null);
  const table = await tables[url];
  try {
    return table && tableAnswer(method, live, table);
  } catch {
    return null; // no deal (NoDealError): the worker says so in the usual way
  }
}

/**
 * One progress message of the pool from the latest message of each part that has reported (the
 * worker's shapes, see equity-worker.js): enumeration — the parts' partial counts added up, ``done``
 * the boards (or deals, ``counts.unit``) they have counted between them; sampling — the integer counts added up, ``se`` the
 * largest standard error of the merged counts.
 */
export function combinedProgress(progress) {
  const counts = progress.map((p) => p.counts);
  if (progress[0].total) {
    const visited = counts.reduce((s, c) => s + c.visited, 0);
    return { done: visited, total: progress[0].total, counts: { ...mergeCounts(counts), visited } };
  }
  const merged = mergeSamples(counts);
  return { samples: merged.samples, se: Math.max(...mcStatistics(merged.win, merged.ties, merged.samples).se), counts: merged };
}

/** The answer of one worker, {id, result, ms} or {id, error, player}, from the parts' counts. */
function merged(id, answers) {
  const ms = Math.max(...answers.map((a) => a.ms));
  try {
    const counts = answers.map((a) => a.counts);
    const result = answers[0].method === "enumeration" ? equityFromCounts(mergeCounts(counts)) : monteCarloResult(mergeSamples(counts));
    return { id, result, ms };
  } catch (error) {
    if (!(error instanceof NoDealError)) throw error;
    return { id, error: error.message, player: null };
  }
}

// Several equity workers behind the interface of one (new EquityPool(url, options): postMessage,
// onmessage, onerror, terminate), for equity-page.js. A spot that is enumerated or sampled is split
// across navigator.hardwareConcurrency workers (at most MAX_WORKERS): each enumerates every
// parts-th board or samples its own random stream, and the pool adds their counts up, so an exact
// result is the one a single worker gives (weights are summed exactly when they are dyadic, e.g.
// 1, 0.5, 0.25; other weights may differ in the last bits). Table answers and errors go to one worker.
import { NoDealError, enumerationWork, equityFromCounts, mergeCounts, mergeSamples, monteCarloResult, planEquity } from "./range-equity.js";

export const MAX_WORKERS = 8;
/** Below this much enumeration work (range-equity.js units) one worker answers before a second starts. */
const SPLIT_WORK = 2e5;

export class EquityPool {
  constructor(url, options = {}, size = Math.min(MAX_WORKERS, globalThis.navigator?.hardwareConcurrency || 1)) {
    Object.assign(this, { url, options, size, workers: [], onmessage: null, onerror: null });
  }

  /** The worker message {id, weights, board, dead, …} (equity-worker.js), answered through onmessage. */
  postMessage(message) {
    this.terminate();
    const parts = this.size > 1 ? this.parts(message) : 1;
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
          this.onmessage?.({ data: { id: data.id, progress: combinedProgress(progress.filter(Boolean), parts) } });
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

  /** How many workers share the spot: 1 for table answers, small enumerations and bad input. */
  parts(message) {
    try {
      const { method, live } = planEquity(message.weights, message.board, message.dead);
      if (method === "monte carlo" || (method === "enumeration" && enumerationWork(live, message.board, message.dead) > SPLIT_WORK)) return this.size;
    } catch {
      // the worker reports the error in the usual way
    }
    return 1;
  }

  terminate() {
    this.workers.forEach((worker) => worker.terminate());
    this.workers = [];
  }
}

function combinedProgress(progress, parts) {
  if (progress[0].total) return { done: progress.reduce((s, p) => s + p.done, 0) / progress.length, total: progress[0].total };
  return { samples: progress.reduce((s, p) => s + p.samples, 0), se: Math.max(...progress.map((p) => p.se)) / Math.sqrt(parts) };
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

// The flop worker's jobs for a page (workers/flop-worker.js): one distribution in one worker, and the every-flop
// report split across several workers (each counts every parts-th board class; their counts are added and read
// with flopReport). Cancelling terminates the workers.

import { flopReport, mergeFlopCounts } from "../engines/flop-equity.js";

/** Rejection reason of a cancelled run. */
export class Cancelled extends Error {}

/** Workers of a report: two by default (its benchmark's setting on the 2-core machine), at most 8. */
export const REPORT_WORKERS = 2;

/** An Error of a worker's error message: {message, kind, player, blockers} as fields. */
const failure = (data) => Object.assign(new Error(data.message), { kind: data.kind, player: data.player, blockers: data.blockers });

/**
 * Run ``message`` (a flop-worker.js job without id) in ``parts`` workers at ``workerUrl`` (absolute), part k in
 * the k-th; ``onProgress(done, total)`` sums the parts' progress. Resolves with the parts' answers in order.
 * Returns {done: Promise<answers>, cancel()}.
 */
function runParts(workerUrl, message, parts, onProgress) {
  const workers = Array.from({ length: parts }, () => new Worker(workerUrl, { type: "module" }));
  const answers = new Array(parts), progress = new Array(parts).fill([0, 0]);
  const stop = () => workers.forEach((worker) => worker.terminate());
  let fail;
  const done = new Promise((resolve, reject) => {
    fail = (error) => { stop(); reject(error); };
    workers.forEach((worker, part) => {
      worker.onerror = (e) => fail(new Error(`the flop calculator failed: ${e.message}`));
      worker.onmessage = ({ data }) => {
        if (data.type === "progress") {
          progress[part] = [data.done, data.total];
          onProgress(progress.reduce((s, p) => s + p[0], 0), progress.reduce((s, p) => s + p[1], 0));
        } else if (data.type === "error") {
          fail(failure(data));
        } else if (data.type !== "cancelled") {
          answers[part] = data;
          if (answers.filter(Boolean).length === parts) { stop(); resolve(answers); }
        }
      };
      worker.postMessage({ ...message, id: part, part, parts });
    });
  });
  return { done, cancel: () => fail(new Cancelled("Cancelled.")) };
}

/** The equity distribution of ``weightsA`` against ``weightsB`` on ``board`` with ``dead`` (card ids) in one worker.
 *  Returns {done: Promise<{equities, distribution, ms}>, cancel()}. */
export function startDistribution(workerUrl, tablesUrl, { weightsA, weightsB, board, dead = [] }, onProgress = () => {}) {
  const run = runParts(workerUrl, { type: "distribution", tablesUrl, weightsA, weightsB, board, dead }, 1, onProgress);
  return { done: run.done.then(([answer]) => answer), cancel: run.cancel };
}

/** The every-flop report of ``weightsA`` against ``weightsB`` (suit-symmetric) in ``workers`` workers. Returns
 *  {done: Promise<{report (flopReport's), ms (the slowest part's)}>, cancel()}. */
export function startFlopReport(workerUrl, tablesUrl, { weightsA, weightsB }, onProgress = () => {}, workers = REPORT_WORKERS) {
  const run = runParts(workerUrl, { type: "report", tablesUrl, weightsA, weightsB }, workers, onProgress);
  const done = run.done.then((answers) => ({
    report: flopReport(mergeFlopCounts(answers.map((a) => a.counts))), ms: Math.max(...answers.map((a) => a.ms)),
  }));
  return { done, cancel: run.cancel };
}

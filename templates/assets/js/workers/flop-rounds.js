// The every-flop report in rounds, for a page that shows its best answer so far: the walk is cut into
// workers × rounds parts (part k: the board classes whose index ≡ k mod parts, flop-worker.js's "report" job),
// each worker is handed its parts at once (it runs them one after another), and after every part the counts so far
// are added (mergeFlopCounts) and read (flopReport): an estimate from an even sample of the board classes, until
// the last part makes it the exact report. Stopping terminates the workers and keeps the last estimate.

import { flopReport, mergeFlopCounts } from "../engines/flop-equity.js";
import { N_BOARD_CLASSES } from "../engines/flop-boards.js";
import { REPORT_WORKERS } from "./flop-run.js";

/** Parts per worker: the first estimate comes after about 1 / ROUNDS of the run. */
export const ROUNDS = 4;

/**
 * Start the report of ``weightsA`` against ``weightsB`` (suit-symmetric Float64Array(1326)) in ``workers`` module
 * workers at ``workerUrl`` (absolute), the evaluator tables at ``tablesUrl`` (absolute).
 * ``onProgress({done, total, ms})``: board classes counted of the 134,459, at most every 100 ms per worker;
 * ``onPartial({report, counts, parts, of, ms})``: the report and the counts (mergeFlopCounts') of the parts counted so
 * far, after each part but the last.
 * Returns {done: Promise<{report, counts, ms}> (rejects with an Error carrying the worker's kind, player and blockers),
 * stop()}: stop() ends the run, and done then rejects with a Stopped error.
 */
export function startRounds(workerUrl, tablesUrl, { weightsA, weightsB }, { onProgress = () => {}, onPartial = () => {} } = {},
  workers = REPORT_WORKERS, rounds = ROUNDS) {
  const parts = workers * rounds, started = performance.now();
  const pool = Array.from({ length: workers }, () => new Worker(workerUrl, { type: "module" }));
  const counted = new Array(parts).fill(0), counts = new Array(parts);
  let received = 0;
  const end = () => pool.forEach((worker) => worker.terminate());
  let finish;
  const done = new Promise((resolve, reject) => {
    finish = (error, answer) => {
      end();
      if (error) reject(error);
      else resolve(answer);
    };
    pool.forEach((worker) => {
      worker.onerror = (e) => finish(new Error(`the flop calculator failed: ${e.message}`));
      worker.onmessage = ({ data }) => {
        if (data.type === "progress") {
          counted[data.id] = data.done;
          onProgress({ done: counted.reduce((a, b) => a + b, 0), total: N_BOARD_CLASSES, ms: performance.now() - started });
        } else if (data.type === "error") {
          finish(Object.assign(new Error(data.message), { kind: data.kind, player: data.player, blockers: data.blockers }));
        } else if (data.type === "counts") {
          counts[data.part] = data.counts;
          received++;
          try { // in part order, whatever order they came in: the same sums every time
            const merged = mergeFlopCounts(counts.filter(Boolean)), report = flopReport(merged);
            if (received < parts) onPartial({ report, counts: merged, parts: received, of: parts, ms: performance.now() - started });
            else finish(null, { report, counts: merged, ms: performance.now() - started });
          } catch (error) {
            finish(error); // NoDealError: no deal gives both players a hand
          }
        }
      };
    });
    for (let part = 0; part < parts; part++) {
      pool[part % workers].postMessage({ type: "report", id: part, tablesUrl, weightsA, weightsB, part, parts });
    }
  });
  return { done, stop: () => finish(Object.assign(new Error("Stopped."), { kind: "Stopped" })) };
}

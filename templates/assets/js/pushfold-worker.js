// Module Web Worker of the push/fold solver: downloads the equity tables once, runs pushfold-solver.js
// off the main thread and reports progress. Messages (docs/pushfold.md, "Browser solver"):
//   in:  {type: "solve", table, dataUrl, start?, tolerance?, maxIterations?}  (dataUrl: the site's data/ folder, ending in "/")
//        {type: "cancel"}
//   out: {type: "progress", phase: "download", loaded, total}       (bytes; total null when the server does not say)
//        {type: "progress", phase: "solve", iteration, nashConv, classRegret, target, classTarget, units}
//          (the stopping rule's figures and targets in units "bb" | "pool_pct"; the figures null until the first check)
//        {type: "result", solution, warmStarted} | {type: "error", message} (one sentence for the reader) | {type: "cancelled"}
// `start` (a solution object) is used when its NashConv is within START_WITHIN tolerances (warmStarted says whether it was).
// A new "solve" replaces the one running. The solve yields to the message queue every ~50 ms so "cancel" is heard.
import {
  loadEquities, nashConvUnits, payoffPerUnit, payoffTolerances, solutionObject, solveSteps, START_REGRET, START_WITHIN, tableErrors,
} from "./pushfold-solver.js";

const YIELD_EVERY_MS = 50;
const PROGRESS_EVERY_MS = 100;
const buffers = {}; // url -> Promise<ArrayBuffer>, kept for the next solves
let equities = { headsUp: null, full: null };
let job = 0; // the running solve's number; a cancel or a new solve moves it on

class Cancelled extends Error {}
/** An error whose message is already the sentence the reader sees. */
class ReaderError extends Error {}

async function download(url, onBytes) {
  let response;
  try {
    response = await fetch(url);
  } catch {
    throw new ReaderError("Could not download the equity tables: open the page from a web server (not as a file) and check the connection.");
  }
  if (!response.ok) throw new ReaderError(`Could not download the equity tables (${url.split("/").pop()}: HTTP ${response.status}).`);
  const total = Number(response.headers.get("Content-Length")) || null;
  onBytes(0, total);
  if (!response.body) {
    const buffer = await response.arrayBuffer();
    onBytes(buffer.byteLength, total);
    return buffer;
  }
  const reader = response.body.getReader();
  const chunks = [];
  let loaded = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    chunks.push(value);
    loaded += value.byteLength;
    onBytes(loaded, total);
  }
  const bytes = new Uint8Array(loaded);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes.buffer;
}

/** The equities a table needs (the 3-way table only for 3+ players), downloaded once with progress. */
async function tablesFor(players, dataUrl) {
  const names = players > 2 ? ["matchups.bin", "threeway.bin"] : ["matchups.bin"];
  const urls = names.map((name) => new URL(name, dataUrl).href);
  const progress = urls.map(() => ({ loaded: 0, total: null }));
  let lastPost = 0;
  const report = (final = false) => {
    const now = performance.now();
    if (!final && now - lastPost < PROGRESS_EVERY_MS) return;
    lastPost = now;
    const totals = progress.map((p) => p.total);
    self.postMessage({ type: "progress", phase: "download", loaded: progress.reduce((s, p) => s + p.loaded, 0),
      total: totals.every((t) => t !== null) ? totals.reduce((s, t) => s + t, 0) : null });
  };
  const pending = urls.filter((url) => !buffers[url]);
  const loaded = await Promise.all(urls.map((url, i) => {
    buffers[url] ??= download(url, (bytes, total) => {
      progress[i] = { loaded: bytes, total };
      report();
    }).catch((error) => {
      delete buffers[url];
      throw error;
    });
    return buffers[url];
  }));
  if (pending.length) report(true);
  const key = players > 2 ? "full" : "headsUp";
  if (!equities[key] || equities[key].urls !== urls.join(" ")) {
    try {
      equities[key] = { urls: urls.join(" "), value: loadEquities(loaded[0], loaded[1] ?? null) };
    } catch {
      throw new ReaderError("The equity tables on this site are damaged or of another version: rebuild the site.");
    }
  }
  return equities[key].value;
}

const pause = () => new Promise((resolve) => setTimeout(resolve, 0));

async function solve(number, { table, dataUrl, start = null, tolerance, maxIterations }) {
  const errors = tableErrors(table);
  if (errors.length) throw new ReaderError(`${errors[0][0].toUpperCase()}${errors[0].slice(1)}.`);
  const eq = await tablesFor(table.stacks.length, dataUrl);
  if (number !== job) throw new Cancelled();
  const units = nashConvUnits(table);
  const toPayoff = payoffPerUnit(table);
  const [target, classTolerance] = payoffTolerances(table, tolerance);
  const steps = solveSteps(table, eq, {
    tolerance: target, classTolerance, maxIterations, start, startRegret: START_REGRET * target, startWithin: START_WITHIN * target,
  });
  let measured = null;
  let worst = null;
  let lastYield = performance.now();
  let lastPost = 0;
  for (;;) {
    const { value, done } = steps.next();
    if (done) return { solution: solutionObject(table, value), warmStarted: value.warmStarted };
    if (value.nashConv !== null) [measured, worst] = [value.nashConv / toPayoff, value.classRegret / toPayoff];
    const now = performance.now();
    if (value.nashConv !== null || now - lastPost >= PROGRESS_EVERY_MS) {
      lastPost = now;
      self.postMessage({ type: "progress", phase: "solve", iteration: value.iteration, nashConv: measured, classRegret: worst, units,
        target: target / toPayoff, classTarget: classTolerance / toPayoff });
    }
    if (now - lastYield >= YIELD_EVERY_MS) {
      await pause();
      lastYield = performance.now();
      if (number !== job) throw new Cancelled();
    }
  }
}

self.onmessage = async (e) => {
  const message = e.data ?? {};
  if (message.type === "cancel") {
    job++;
    self.postMessage({ type: "cancelled" });
    return;
  }
  if (message.type !== "solve") return;
  const number = ++job;
  try {
    const { solution, warmStarted } = await solve(number, message);
    if (number === job) self.postMessage({ type: "result", solution, warmStarted });
  } catch (error) {
    if (error instanceof Cancelled || number !== job) return;
    const text = error instanceof ReaderError ? error.message : `The solver stopped: ${error?.message ?? error}.`;
    self.postMessage({ type: "error", message: text });
  }
};

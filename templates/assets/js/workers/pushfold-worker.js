// Module Web Worker of the push/fold solver: downloads the equity tables once, runs pushfold-solver.js
// off the main thread and reports progress. Messages (docs/pushfold.md, "Browser solver"):
//   in:  {type: "solve", table, dataUrl, start?, tolerance?, maxIterations?}  (dataUrl: the site's data/ folder, ending in "/")
//        {type: "cancel"}
//   out: {type: "progress", phase: "download", loaded, total}       (bytes; total null when the server does not say)
//        {type: "progress", phase: "solve", iteration, nashConv, classRegret, target, classTarget, units, provisional}
//          (the stopping rule's figures and targets in units "bb" | "pool_pct"; the figures null until the first check)
//        {type: "forming", solution, provisional}  (the averages at a check: the answer so far, at most every FORMING_EVERY_MS;
//          a slow solve's first one measured early, FIRST_ANSWER_MS)
//        {type: "result", solution, warmStarted, provisional} | {type: "error", message} (one sentence for the reader)
//        | {type: "cancelled"}
// 3+ players: while threeway.bin.gz (1 MB) downloads, the table is solved on a provisional 3-way table built from
// the heads-up results (pushfold/model.js pairwiseThreeway) and that answer is posted with provisional: true; then
// it is solved again on the downloaded table, the answer posted with provisional: false. A provisional solve still
// running when the download ends is dropped. Both start from `start` (a solution object), used when its NashConv is
// within START_WITHIN tolerances (warmStarted says whether it was). A new "solve" replaces the one running. A solve
// yields to the message queue every ~50 ms so "cancel" is heard.
// Two cores: a table of SHARE_FROM_PLAYERS or more is solved with a helper, this same script started again as a
// second worker (nested, at the solve's start so that it loads while the tables download), which runs about half of
// each evaluation's 3-way sums (solveSteps' `share`; the iterates, checks and answer are those of one thread).
// Messages to the helper: {type: "helper-solve", table}, {type: "helper-table", triple} (helperTable, once per 3-way
// table), {type: "helper-tasks", id, messages}; from it {type: "helper-results", id, results | error}.
import {
  CHECK_EVERY, FALLBACK_DISCOUNT, helperTable, loadEquities, MEASURE, nashConvUnits, payoffPerUnit, payoffTolerances, provisionalEquities, solutionObject,
  solveSteps, START_REGRET, START_WITHIN, tableErrors, TaskRunner, THREEWAY_BYTES, THREEWAY_WEIGHTS_END,
} from "../engines/pushfold-solver.js";

const YIELD_EVERY_MS = 50;
const PROGRESS_EVERY_MS = 100;
/** The answer so far is posted at the first check and then at most this often (each one is drawn on the page). */
const FORMING_EVERY_MS = 2500;
/** When this long has passed since the solve was asked for and no answer so far has been posted, the averages are
 *  measured after the iteration that just ended (MEASURE) and posted: a full-ring ICM table's first iterations take
 *  about a second each on 2 cores (the SNG of BENCHMARKS.md: 60 iterations and their checks in 48 s), its first check
 *  (the fifth) would come after several seconds. */
const FIRST_ANSWER_MS = 1000;
/** Tables of this many players or more are shared with a helper worker where the browser has two cores or more: a
 *  smaller one's 3-way sums take less time than starting the helper and copying it the 3-way table (15 MB). */
const SHARE_FROM_PLAYERS = 6;
const MATCHUPS = "matchups.bin";
const THREEWAY = "threeway.bin.gz";
const downloads = {}; // url -> {full: Promise<ArrayBuffer>, prefix: Promise<ArrayBuffer>, done, loaded, total}, kept for the next solves
const equities = {}; // "provisional" | "headsUp" | "full" -> {urls, value}
let job = 0; // the running solve's number; a cancel or a new solve moves it on

class Cancelled extends Error {}
/** The provisional solve, dropped because the 3-way table arrived. */
class Superseded extends Error {}
/** An error whose message is already the sentence the reader sees. */
class ReaderError extends Error {}

const isGzip = (bytes) => bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;

/** Start downloading `url` (once per url): `full` resolves to its bytes, gunzipped on the fly when they are gzip
 *  (a server that already decoded them sends them plain); `prefix` resolves as soon as the first `prefixBytes`
 *  uncompressed bytes are in (a copy); `loaded` / `total` count the bytes on the wire. */
function startDownload(url, { size = null, prefixBytes = 0 } = {}) {
  if (downloads[url]) return downloads[url];
  const entry = { done: false, loaded: 0, total: null, listeners: new Set() };
  let gotPrefix;
  entry.prefix = new Promise((resolve) => (gotPrefix = resolve));
  const notify = () => entry.listeners.forEach((listener) => listener());
  entry.full = (async () => {
    let response;
    try {
      response = await fetch(url);
    } catch {
      throw new ReaderError("Could not download the equity tables: open the page from a web server (not as a file) and check the connection.");
    }
    if (!response.ok) throw new ReaderError(`Could not download the equity tables (${url.split("/").pop()}: HTTP ${response.status}).`);
    entry.total = Number(response.headers.get("Content-Length")) || null;
    notify();
    const wire = response.body.getReader();
    const first = await wire.read();
    const counted = (chunk) => {
      entry.loaded += chunk.byteLength;
      notify();
      return chunk;
    };
    let body = new ReadableStream({
      start(controller) {
        if (first.done) controller.close();
        else controller.enqueue(counted(first.value));
      },
      async pull(controller) {
        const { value, done } = await wire.read();
        if (done) controller.close();
        else controller.enqueue(counted(value));
      },
    });
    if (!first.done && isGzip(first.value)) body = body.pipeThrough(new DecompressionStream("gzip"));
    const reader = body.getReader();
    let bytes = new Uint8Array(size ?? 1 << 20);
    let at = 0;
    let prefixSent = false;
    for (;;) {
      let chunk;
      try {
        chunk = await reader.read();
      } catch {
        throw new ReaderError("The equity tables on this site are damaged or of another version: rebuild the site.");
      }
      if (chunk.done) break;
      if (at + chunk.value.byteLength > bytes.length) {
        const grown = new Uint8Array(Math.max(2 * bytes.length, at + chunk.value.byteLength));
        grown.set(bytes.subarray(0, at));
        bytes = grown;
      }
      bytes.set(chunk.value, at);
      at += chunk.value.byteLength;
      if (!prefixSent && prefixBytes && at >= prefixBytes) {
        prefixSent = true;
        gotPrefix(bytes.slice(0, at).buffer);
      }
    }
    entry.done = true;
    gotPrefix(bytes.slice(0, at).buffer); // a short file: its reader says it is truncated
    notify();
    return bytes.slice(0, at).buffer;
  })();
  entry.full.catch(() => delete downloads[url]);
  return entry;
}

/** Post the download progress of `entries` (bytes on the wire) while they run: at most every PROGRESS_EVERY_MS, and
 *  the last state always (a trailing post); at once when the last size becomes known, so that "x MB of y MB" is
 *  posted before the download ends however fast it goes. Returns the function that stops reporting. */
function reportDownloads(entries) {
  let lastPost = -Infinity;
  let trailing = null;
  let sized = false; // every entry's size was known at the last post
  const post = () => {
    clearTimeout(trailing);
    trailing = null;
    lastPost = performance.now();
    const totals = entries.map((e) => e.total);
    sized = totals.every((t) => t !== null);
    self.postMessage({ type: "progress", phase: "download", loaded: entries.reduce((s, e) => s + e.loaded, 0),
      total: totals.every((t) => t !== null) ? totals.reduce((s, t) => s + t, 0) : null });
  };
  const report = () => {
    if (entries.every((e) => e.done)) {
      post();
      stop();
    } else if (performance.now() - lastPost >= PROGRESS_EVERY_MS || (!sized && entries.every((e) => e.total !== null))) {
      post();
    } else {
      trailing ??= setTimeout(post, PROGRESS_EVERY_MS);
    }
  };
  const stop = () => {
    clearTimeout(trailing);
    entries.forEach((e) => e.listeners.delete(report));
  };
  if (entries.every((e) => e.done)) return stop;
  entries.forEach((e) => e.listeners.add(report));
  report();
  return stop;
}

/** The equities of `kind` (`parse()` of the downloaded buffers), parsed once per set of `urls`. */
function equitiesFor(kind, urls, parse) {
  if (!equities[kind] || equities[kind].urls !== urls) {
    try {
      equities[kind] = { urls, value: parse() };
    } catch {
      throw new ReaderError("The equity tables on this site are damaged or of another version: rebuild the site.");
    }
  }
  return equities[kind].value;
}

const pause = () => new Promise((resolve) => setTimeout(resolve, 0));

let helper = null; // {worker, triple (the 3-way table it holds), batches: Map(id -> {resolve, reject}), next}, kept for the next solves
let helperFailed = false; // a helper could not start or stopped: the next solves run alone

/** The helper worker, started if need be, told the table to solve next; null where there are no nested workers,
 *  fewer than two cores, or a helper failed before. */
function startHelper(table) {
  if (helperFailed || typeof Worker === "undefined" || !(navigator.hardwareConcurrency >= 2)) return null;
  if (!helper) {
    let worker;
    try {
      worker = new Worker(new URL(import.meta.url), { type: "module" });
    } catch {
      helperFailed = true; // no module workers inside a worker here: solved alone
      return null;
    }
    const own = (helper = { worker, triple: null, batches: new Map(), next: 0 });
    const fail = (message) => {
      helperFailed = true;
      own.batches.forEach(({ reject }) => reject(new Error(message)));
      own.batches.clear();
      if (helper === own) helper = null;
      worker.terminate();
    };
    worker.onmessage = ({ data }) => {
      const batch = own.batches.get(data.id);
      own.batches.delete(data.id);
      if (data.error) fail(data.error);
      else batch?.resolve(data.results);
    };
    worker.onerror = (event) => {
      event.preventDefault();
      fail(`the helper worker failed (${event.message || "it could not start"})`);
    };
  }
  helper.worker.postMessage({ type: "helper-solve", table });
  return helper;
}

/** The helper (startHelper's), sent `eq`'s 3-way table if it does not hold it; null without one. */
function helperFor(eq) {
  if (helper && helper.triple !== eq.triple) {
    helper.worker.postMessage({ type: "helper-table", triple: helperTable(eq.triple) });
    helper.triple = eq.triple;
  }
  return helper;
}

/** Post a batch of tasks to the helper; resolves to its results, or to the same computed here if the helper fails
 *  (by a TaskRunner on this thread's copy of the table: the same results). */
function dispatch(own, messages, eq, table) {
  const id = ++own.next;
  own.worker.postMessage({ type: "helper-tasks", id, messages });
  return new Promise((resolve, reject) => own.batches.set(id, { resolve, reject })).catch(() => {
    if (alone?.triple !== eq.triple || alone.table !== table) {
      alone = { triple: eq.triple, table, runner: new TaskRunner() };
      alone.runner.setTriple(helperTable(eq.triple));
      alone.runner.setTable(table);
    }
    return alone.runner.run(messages);
  });
}
let alone = null; // {triple, table, runner}: the helper's tasks of a solve run here after it failed

const runner = new TaskRunner(); // the helper's side

/** A message to this script when it runs as a helper; the answer to post, if any. */
function helperMessage(message) {
  if (message.type === "helper-table") runner.setTriple(message.triple);
  else if (message.type === "helper-solve") runner.setTable(message.table);
  else if (message.type === "helper-tasks") {
    try {
      return { id: message.id, results: runner.run(message.messages) };
    } catch (error) {
      return { id: message.id, error: `the helper worker stopped: ${error?.message ?? error}` };
    }
  }
  return null;
}

/** Run the solver on `eq` to the stopping rule, posting progress; `abandon()` (checked when yielding) drops it. */
async function run(number, table, eq, { start, tolerance, maxIterations, provisional, requested, abandon = () => false }) {
  const units = nashConvUnits(table);
  const toPayoff = payoffPerUnit(table);
  const [target, classTolerance] = payoffTolerances(table, tolerance);
  const shared = provisional || table.stacks.length < SHARE_FROM_PLAYERS ? null : helperFor(eq);
  const steps = solveSteps(table, eq, {
    tolerance: target, classTolerance, maxIterations, start, startRegret: START_REGRET * target, startWithin: START_WITHIN * target,
    fallbackDiscount: FALLBACK_DISCOUNT, share: shared !== null,
  });
  let results = null; // the helper's answer to the last dispatch
  let measured = null;
  let worst = null;
  let lastYield = performance.now();
  let lastPost = 0;
  let lastForming = -Infinity;
  let request;
  for (;;) {
    const { value, done } = steps.next(request);
    if (done) return { solution: solutionObject(table, value), warmStarted: value.warmStarted };
    if (value.dispatch) { // the helper runs these while this thread runs its own share
      [results, request] = [dispatch(shared, value.dispatch, eq, table), undefined];
      continue;
    }
    if (value.collect) {
      request = await results;
      if (number !== job) throw new Cancelled();
      continue;
    }
    if (value.nashConv !== null) [measured, worst] = [value.nashConv / toPayoff, value.classRegret / toPayoff];
    const now = performance.now();
    const checkNext = (value.iteration + 1) % CHECK_EVERY === 0;
    request = value.nashConv === null && lastForming < 0 && !checkNext && now - requested >= FIRST_ANSWER_MS ? MEASURE : undefined;
    if (value.current && now - lastForming >= FORMING_EVERY_MS) {
      lastForming = now;
      self.postMessage({ type: "forming", solution: solutionObject(table, value.current), provisional });
    }
    if (value.nashConv !== null || now - lastPost >= PROGRESS_EVERY_MS) {
      lastPost = now;
      self.postMessage({ type: "progress", phase: "solve", iteration: value.iteration, nashConv: measured, classRegret: worst, units,
        target: target / toPayoff, classTarget: classTolerance / toPayoff, provisional });
    }
    if (now - lastYield >= YIELD_EVERY_MS) {
      await pause();
      lastYield = performance.now();
      if (number !== job) throw new Cancelled();
      if (abandon()) throw new Superseded();
    }
  }
}

async function solve(number, { table, dataUrl, start = null, tolerance, maxIterations }) {
  const errors = tableErrors(table);
  if (errors.length) throw new ReaderError(`${errors[0][0].toUpperCase()}${errors[0].slice(1)}.`);
  const options = { start, tolerance, maxIterations, requested: performance.now() };
  if (table.stacks.length >= SHARE_FROM_PLAYERS) startHelper(table); // it loads while the tables download

  const matchupsUrl = new URL(MATCHUPS, dataUrl).href;
  const matchups = startDownload(matchupsUrl);
  if (table.stacks.length === 2) {
    const stop = reportDownloads([matchups]);
    const buffer = await matchups.full.finally(stop);
    if (number !== job) throw new Cancelled();
    const eq = equitiesFor("headsUp", matchupsUrl, () => loadEquities(buffer, null));
    return run(number, table, eq, { ...options, provisional: false });
  }
  const threewayUrl = new URL(THREEWAY, dataUrl).href;
  const threeway = startDownload(threewayUrl, { size: THREEWAY_BYTES, prefixBytes: THREEWAY_WEIGHTS_END });
  const stop = reportDownloads([matchups, threeway]);
  threeway.full.catch(() => {}).finally(stop);
  const urls = `${matchupsUrl} ${threewayUrl}`;
  if (!threeway.done) {
    const [buffer, prefix] = await Promise.all([matchups.full, Promise.race([threeway.prefix, threeway.full])]);
    if (number !== job) throw new Cancelled();
    if (!threeway.done) {
      const eq = equitiesFor("provisional", urls, () => provisionalEquities(buffer, prefix));
      try {
        const first = await run(number, table, eq, { ...options, provisional: true, abandon: () => threeway.done });
        if (number !== job) throw new Cancelled();
        self.postMessage({ type: "result", ...first, provisional: true });
      } catch (error) {
        if (!(error instanceof Superseded)) throw error;
      }
    }
  }
  const [buffer, full] = await Promise.all([matchups.full, threeway.full]);
  if (number !== job) throw new Cancelled();
  const provisional = equities.provisional?.urls === urls ? equities.provisional.value : null; // its pairwise counts are reused
  const eq = equitiesFor("full", urls, () => loadEquities(buffer, full, provisional));
  return run(number, table, eq, { ...options, provisional: false });
}

self.onmessage = async (e) => {
  const message = e.data ?? {};
  if (message.type?.startsWith("helper-")) {
    const answer = helperMessage(message);
    if (answer) self.postMessage({ type: "helper-results", ...answer });
    return;
  }
  if (message.type === "cancel") {
    job++;
    self.postMessage({ type: "cancelled" });
    return;
  }
  if (message.type !== "solve") return;
  const number = ++job;
  try {
    const { solution, warmStarted } = await solve(number, message);
    if (number === job) self.postMessage({ type: "result", solution, warmStarted, provisional: false });
  } catch (error) {
    if (error instanceof Cancelled || number !== job) return;
    const text = error instanceof ReaderError ? error.message : `The solver stopped: ${error?.message ?? error}.`;
    self.postMessage({ type: "error", message: text });
  }
};

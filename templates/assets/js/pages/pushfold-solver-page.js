// The push/fold solver page: the reader's table (a stack per seat, blinds, ante or big-blind ante,
// payouts, KO / PKO bounties) lives in the URL. A table of the build's precomputed set (data/pushfold/index.json)
// is shown at once; any other (every table with bounties) is solved by pushfold-worker.js (download and solve
// progress, Cancel), warm-started from the nearest precomputed table of the same game. The main thread only reads
// the form and draws the result (pushfold-view.js).

import { modelLine } from "../widgets/bounty-fields.js";
import { positionNames, tableErrors } from "../engines/pushfold-solver.js";
import { findPrecomputed, nearestPrecomputed, queryFromState, readTable, stateFromQuery } from "./pushfold-setup.js";
import { formatG } from "../engines/python-format.js";
import { renderSolution, solutionProblem } from "../widgets/pushfold-view.js";

const CANCEL_GRACE_MS = 1500; // a worker that has not confirmed a cancel by then is terminated
const form = document.getElementById("solver-form");
const input = (id) => document.getElementById(id);
const stackFields = input("stack-fields");
const errorList = input("table-error");
const method = input("solver-method");
const progress = input("solver-progress");
const cancelButton = input("cancel");
const results = input("solver-results");

let worker = null;
let busy = false; // the worker is running a solve (a new one terminates it rather than queueing)
let runId = 0;
let running = null; // the state of the worker's current run (runWorker): what a stop leaves on the page
const indexPromise = form?.dataset.index
  ? fetch(form.dataset.index).then((r) => (r.ok ? r.json() : null)).catch(() => null)
  : Promise.resolve(null);

function seatField(name, seat, value) {
  const field = document.createElement("div");
  field.className = "field";
  field.innerHTML = `<label for="stack-${seat}"></label><input id="stack-${seat}" name="stack" inputmode="decimal" autocomplete="off" aria-describedby="stacks-help table-error">`;
  field.querySelector("label").textContent = name;
  field.querySelector("input").value = value;
  return field;
}

function buildSeats(texts) {
  const names = positionNames(texts.length);
  stackFields.replaceChildren(...texts.map((text, seat) => seatField(names[seat], seat, text)));
  input("players").value = String(texts.length);
}

const stackTexts = () => [...stackFields.querySelectorAll("input")].map((i) => i.value);

function readState() {
  return { stacks: stackTexts(), blinds: [input("sb").value, input("bb").value], ante: input("ante").value, bbAnte: input("bbante").checked,
    payouts: input("payouts").value, bounties: input("bounties").value, share: input("share").value };
}

function writeState(state) {
  buildSeats(state.stacks);
  [input("sb").value, input("bb").value] = state.blinds;
  input("ante").value = state.ante;
  input("bbante").checked = state.bbAnte;
  input("payouts").value = state.payouts;
  input("bounties").value = state.bounties;
  input("share").value = state.share;
}

/** A new player count keeps the blinds' stacks: seats are dropped or added (copying the first) in front. */
function changePlayers() {
  const texts = stackTexts(), n = Number(input("players").value);
  const kept = texts.slice(Math.max(0, texts.length - n));
  while (kept.length < n) kept.unshift(kept[0] ?? "10");
  buildSeats(kept);
}

/** Each message in the list of its field (the bounty fields have their own, every other field the table's), and
 *  aria-invalid on every field named. */
function showErrors(errors) {
  const lists = { bounties: input("bounties-error"), share: input("share-error") };
  for (const list of [errorList, ...Object.values(lists)]) {
    list.replaceChildren(...errors.filter((e) => (lists[e.field] ?? errorList) === list)
      .map((e) => Object.assign(document.createElement("li"), { textContent: e.message })));
  }
  const bad = new Set(errors.map((e) => e.field));
  for (const field of form.querySelectorAll("input:not([type=checkbox]), select, textarea")) {
    const name = field.id.startsWith("stack-") ? field.id : field.id === "sb" || field.id === "bb" ? "blinds" : field.id;
    field.setAttribute("aria-invalid", String(bad.has(name)));
  }
}

function tableText(table) {
  const names = positionNames(table.stacks.length);
  const ante = table.ante > 0 ? `ante ${formatG(table.ante)}${table.bbAnte ? " (big-blind ante)" : " each"}` : "no ante";
  const payoff = table.payouts ? `ICM, payouts ${table.payouts.map(formatG).join("/")}` : "chip EV";
  const bounties = table.bounties ? ` · bounties ${table.bounties.map(formatG).join("/")}` : "";
  return `${table.stacks.length} players (${table.stacks.map((s, k) => `${names[k]} ${formatG(s)}`).join(", ")}) · blinds ${table.blinds.map(formatG).join("/")} · ${ante} · ${payoff}${bounties}`;
}

function fileName(table) {
  const payoff = table.payouts ? `icm-${table.payouts.map(formatG).join("-")}` : "chipev";
  const bounties = table.bounties ? `-bounties-${table.bounties.map(formatG).join("-")}${table.bountyShare === 1 ? "" : `-share-${formatG(table.bountyShare)}`}` : "";
  return `pushfold-${table.stacks.length}p-${table.stacks.map(formatG).join("-")}-${payoff}${bounties}.json`;
}

/** Draw a solution, or say why it cannot be drawn (a damaged file or message); a `provisional` one (3-way pots priced
 *  from heads-up results while the 3-way table downloads) is marked so on its container (data-provisional), and so is
 *  an answer still forming (`solution.forming`: the start, or the averages at a check; data-forming). */
function show(table, solution, source, provisional = false) {
  const problem = solutionProblem(solution);
  if (problem) {
    method.textContent = "";
    showErrors([{ field: "", message: `The solution cannot be shown: ${problem}.` }]);
    return;
  }
  input("solver-table").textContent = tableText(table);
  const model = input("solver-bounty-model");
  model.hidden = !table.bounties;
  model.textContent = table.bounties ? modelLine(table.bounties, table.bountyShare) : "";
  results.hidden = false;
  input("solver-solution").toggleAttribute("data-provisional", provisional);
  input("solver-solution").toggleAttribute("data-forming", solution.forming === true);
  renderSolution(input("solver-solution"), solution, { root: form.dataset.root, source, filename: fileName(table) });
}

function setRunning(running) {
  cancelButton.hidden = !running;
  progress.hidden = !running;
  if (running) progress.removeAttribute("value");
}

const megabytes = (bytes) => `${(bytes / 1048576).toFixed(1)} MB`;
const figure = (x) => (x >= 1e-3 || x === 0 ? x.toFixed(4) : x.toExponential(1));
const convText = (x, units) => (!Number.isFinite(x) ? "not measured yet" : units === "pool_pct" ? `${figure(x)}% of the pool` : `${figure(x)} bb`);

const iterationCount = (n) => `${n} iteration${n === 1 ? "" : "s"}`;

/** The status line while the worker runs: the download and the solve, each as last reported (`state`). */
function progressText({ download, solve, provisionalShown }) {
  const parts = [];
  if (solve) {
    const text = (x) => convText(x, solve.units);
    const what = solve.provisional ? "Solving a first answer (3-way pots priced from heads-up results)" : provisionalShown ? "Solving again with the 3-way table" : "Solving";
    parts.push(`${what}: iteration ${solve.iteration}, NashConv ${text(solve.nashConv)} (target ${text(solve.target)}), `
      + `worst regret of a hand ${text(solve.classRegret)} (target ${text(solve.classTarget)})…`);
  } else if (provisionalShown) {
    parts.push("First answer shown: it will be solved again with the 3-way table once that has downloaded.");
  }
  if (download && !download.finished) {
    const total = download.total > 0 ? ` of ${megabytes(download.total)}` : "";
    parts.push(`Downloading the equity tables: ${megabytes(download.loaded)}${total}…`);
  }
  return parts.join(" ");
}

/** What a stop leaves on the page: the answer so far (not within the stopping rule yet), the start drawn before it
 *  (another table's), or nothing new. */
function stoppedText({ forming, startShown, provisionalShown }) {
  if (forming) {
    return `Stopped: the answer shown is the one after ${iterationCount(forming.iterations)}, before it met the stopping rule `
      + "(its NashConv and worst regret are in the figures above the charts).";
  }
  if (startShown) return `Cancelled: the charts shown are those of ${startShown}, where the solve started, not of this table.`;
  return provisionalShown ? "Cancelled: the first answer shown (3-way pots priced from heads-up results) was not solved again with the 3-way table." : "Cancelled.";
}

function showProgress(state) {
  const { download, solve } = state;
  if (download && !download.finished && download.total > 0 && !solve) {
    progress.max = download.total;
    progress.value = Math.min(download.loaded, download.total);
  } else {
    progress.removeAttribute("value");
  }
  method.textContent = progressText(state);
}

function stopWorker() {
  worker?.terminate();
  worker = null;
  busy = false;
}

function runWorker(id, table, start, near) {
  if (busy) stopWorker();
  worker ??= new Worker(form.dataset.worker, { type: "module" });
  busy = true;
  setRunning(true);
  const started = performance.now();
  const nearest = near ? `the precomputed table with stacks ${near.stacks.map(formatG).join(", ")} bb` : "";
  method.textContent = "Starting the solver…";
  const state = { download: null, solve: null, provisionalShown: false, forming: null, startShown: null };
  running = state;
  if (start) { // the nearest precomputed table, drawn at once: the solve starts from it (or from uniform, it says)
    show(table, { ...start, forming: true }, `Starting point: ${nearest}, until the solve below replaces it`);
    state.startShown = nearest;
  }
  worker.onmessage = (event) => {
    if (id !== runId) return;
    const message = event.data;
    if (message.type === "forming") { // the answer so far, redrawn as the solve refines it
      state.forming = message.solution;
      const { iterations, exploitability, class_regret: worst } = message.solution;
      const unit = exploitability.bb !== null ? "bb" : "pool_pct";
      show(table, { ...message.solution, forming: true }, `Forming: the answer after ${iterationCount(iterations)} (NashConv `
        + `${convText(exploitability[unit], unit)}, worst regret of a hand ${convText(worst[unit], unit)}); the solve goes on`, message.provisional);
      return;
    }
    if (message.type === "progress") {
      if (message.phase === "download") state.download = { ...message, finished: message.total !== null && message.loaded >= message.total };
      else state.solve = message;
      showProgress(state);
      return;
    }
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const iterations = message.type === "result" && Number.isFinite(message.solution.iterations) ? `${iterationCount(message.solution.iterations)}, ` : "";
    if (message.type === "result" && message.provisional) { // the worker goes on with the 3-way table
      Object.assign(state, { solve: null, provisionalShown: true });
      show(table, message.solution, `First answer, solved in your browser (${iterations}${seconds} s) with 3-way pots priced from heads-up `
        + "results while the 3-way table downloads; it is replaced by the answer on the 3-way table when that is solved", true);
      showProgress(state);
      return;
    }
    busy = false;
    setRunning(false);
    if (message.type === "result") {
      const warm = !near ? "" : message.warmStarted ? ` It started from ${nearest}.`
        : ` It started from a uniform strategy: ${nearest} was too far from this table's equilibrium to help.`;
      const rule = message.solution.rule_met ? " The stopping rule is met: the NashConv and every hand's regret at every decision are within its tolerances." : "";
      method.textContent = `Solved in your browser (${iterations}${seconds} s).${warm}${rule}`;
      show(table, message.solution, `Solved in your browser (${iterations}${seconds} s)`);
    } else if (message.type === "cancelled") {
      method.textContent = stoppedText(state);
    } else {
      method.textContent = "";
      showErrors([{ field: "", message: message.message ?? "The solver failed." }]);
    }
  };
  worker.onerror = (event) => {
    if (id !== runId) return;
    event.preventDefault();
    stopWorker();
    setRunning(false);
    method.textContent = "";
    showErrors([{ field: "", message: `The solver stopped: ${event.message || "it could not be loaded"}.` }]);
  };
  worker.postMessage({ type: "solve", table, dataUrl: new URL(form.dataset.data, location.href).href, ...(start ? { start } : {}) });
}

async function fetchSolution(path) {
  const response = await fetch(new URL(path, new URL(form.dataset.data, location.href)));
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
  return response.json();
}

async function solve() {
  const id = ++runId;
  if (busy) stopWorker();
  setRunning(false);
  results.hidden = true; // no charts beside a table they do not answer
  delete input("solver-solution").dataset.state; // nor a "drawn" state (tests and scripts wait for the new table's)
  const state = readState();
  const { table, errors } = readTable(state, tableErrors);
  showErrors(errors);
  if (!table) {
    method.textContent = "";
    return;
  }
  history.replaceState(null, "", `${location.pathname}?${queryFromState(state)}`);
  method.textContent = "Looking for the table in the precomputed set…";
  const index = await indexPromise;
  const found = findPrecomputed(index, table);
  if (found) {
    try {
      const solution = await fetchSolution(found.path);
      if (id !== runId) return;
      method.textContent = "Precomputed: this table is in the build's set, so nothing was solved in your browser.";
      show(table, solution, `Precomputed by the build (${found.group.id})`);
      return;
    } catch {
      if (id !== runId) return; // the file is missing: solve it here instead
    }
  }
  const near = nearestPrecomputed(index, table);
  const start = near ? await fetchSolution(near.path).catch(() => null) : null;
  if (id !== runId) return;
  runWorker(id, table, start, start ? near : null);
}

if (form) {
  const { state, notes } = stateFromQuery(location.search);
  writeState(state);
  input("players").addEventListener("change", changePlayers);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    solve();
  });
  cancelButton.addEventListener("click", () => {
    const id = runId;
    method.textContent = "Cancelling…";
    worker?.postMessage({ type: "cancel" });
    setTimeout(() => {
      if (id !== runId || !busy) return;
      stopWorker();
      setRunning(false);
      method.textContent = stoppedText(running ?? {});
    }, CANCEL_GRACE_MS);
    input("solve").focus();
  });
  if (notes.length) Object.assign(input("solver-link-note"), { hidden: false, textContent: notes.join(" ") });
  solve();
}

// Flop calculator page: your range and the villain's (ranges.js grammar, typed or painted in a 13×13 picker), a
// board and dead cards (typed or picked), and three views: the hit table (flop-categories.js, on the main thread:
// milliseconds), the equity distribution (flop-equity.js in flop-worker.js, with progress and Stop) and the
// every-flop report (in two workers by rounds, flop-rounds.js: progress, time left, the estimate so far, Stop).
// The spot of the answer shown lives in the URL (?range=…&villain=…&board=…&dead=…&view=hits|graph|flops):
// computing a new spot or view adds an entry, so back and forward return to earlier answers; the hit table follows
// the form as it is typed, and its entry with it. Pressing a flop of the report puts it on the board and shows its
// hit table. The page loads what its first answer, the hit table, needs; the runs' modules come when first asked
// for (loadRunModules).

import { parseTables } from "../engines/evaluator.js";
import { rangeHitTable } from "../engines/flop-categories.js";
import { COMBOS, CardsError, cardName, normalise, parseCards, parseRange } from "../engines/ranges.js";
import { loadRanking } from "../widgets/class-ranking.js";
import { HitView, combosText, plural } from "../widgets/flop-hits.js";
import { showDistribution } from "../widgets/flop-graph.js";
import { CardPicker, RangePicker } from "../widgets/pickers.js";

const form = document.getElementById("flop-form");
const $ = (id) => document.getElementById(id);
const VIEWS = ["hits", "graph", "flops"];
const DEFAULTS = { range: "22+,A2s+,KTs+,QTs+,JTs,T9s,98s,ATo+,KJo+", villain: "TT+,AQs+,AKo", board: "Ks9d4c", dead: "", view: "hits" };
const NAMES = { range: "Your range", villain: "Villain's range" };
/** Which inputs each view answers for: a shown answer is stale once they change. */
const INPUTS = { hits: ["range", "board", "dead"], graph: ["range", "villain", "board", "dead"], flops: ["range", "villain"] };
const FIELDS = ["range", "villain", "board", "dead"];
const absolute = (path) => new URL(path, location.href).href;
const duration = (ms) => (ms < 1000 ? `${Math.max(1, Math.round(ms))} ms` : `${(ms / 1000).toFixed(1)} s`);
const count = (n) => n.toLocaleString("en-US");

const sections = Object.fromEntries(VIEWS.map((v) => [v, $(`${v}-view`)]));
const shownFor = {}; // view -> key of the inputs its answer is for
const latest = {}; // view -> id of its latest run
const rangePickers = {}, cardPickers = {};
let tables = null, runModules = null, run = null, runId = 0, typing = 0, reportView = null;

/** The distribution's and the report's modules, loaded once: {startDistribution, Cancelled, startRounds,
 *  checkSuitSymmetric, blockerText, ReportView, flopParam, suitDistinctFlops}. */
async function loadRunModules() {
  const [workers, rounds, equity, rangeEquity, report, flopTable, flops] = await Promise.all([
    import("../workers/flop-run.js"), import("../workers/flop-rounds.js"), import("../engines/flop-equity.js"),
    import("../engines/range-equity.js"), import("../widgets/flop-report.js"), import("../engines/flop-table.js"),
    import("../engines/flops.js"),
  ]);
  runModules ??= {
    startDistribution: workers.startDistribution, Cancelled: workers.Cancelled, startRounds: rounds.startRounds,
    checkSuitSymmetric: equity.checkSuitSymmetric, blockerText: rangeEquity.blockerText, ReportView: report.ReportView,
    flopParam: flopTable.flopParam, suitDistinctFlops: flops.suitDistinctFlops,
  };
  reportView ??= new runModules.ReportView({
    table: $("flops-table"), list: $("flops-list"), more: $("flops-more"), filters: { suits: $("filter-suits"), pairing: $("filter-pairing"), high: $("filter-high") },
    filtered: $("flops-filtered"), overall: $("flops-overall"), svg: $("flops-svg"), summary: $("flops-chart-summary"), groups: $("flops-groups"),
  }, (cards) => pickFlop(cards));
  return runModules;
}

/** The evaluator tables on the main thread (the hit table's), fetched once. */
const loadTables = () => (tables ??= fetch(form.dataset.tables).then(async (response) => {
  if (!response.ok) throw new Error(`evaluator tables: HTTP ${response.status}`);
  return parseTables(await response.arrayBuffer());
}));

const currentView = () => form.elements.view.value;
const spot = () => ({ ...Object.fromEntries(FIELDS.map((f) => [f, form.elements[f].value.trim()])), view: currentView() });
const keyOf = (state, view) => INPUTS[view].map((f) => state[f]).join("|");

function query(state) {
  const params = new URLSearchParams();
  for (const name of [...FIELDS, "view"]) if (state[name]) params.set(name, state[name]);
  return `?${params}`;
}

/** Write the spot in the address: a new entry (``push``) or in place of the current one. */
function saveUrl(push = false) {
  const search = query(spot());
  if (search === location.search) return;
  history[push ? "pushState" : "replaceState"](null, "", `${location.pathname}${search}`);
}

/** Fill the form from the address (the default spot when it names no range, board or dead cards). */
function loadUrl() {
  const params = new URLSearchParams(location.search), empty = !FIELDS.some((n) => params.has(n));
  for (const name of FIELDS) form.elements[name].value = params.get(name) ?? (empty ? DEFAULTS[name] : "");
  form.elements.view.value = VIEWS.includes(params.get("view")) ? params.get("view") : DEFAULTS.view;
  for (const name of FIELDS) syncPicker(name);
}

/** A range's weights (the class ranking is fetched for an x%), or throws with the field's name in front. */
async function readRange(name, text) {
  try {
    const ranking = text.includes("%") ? await rankingFor() : null;
    return parseRange(text, ranking).weights;
  } catch (error) {
    throw new Error(`${NAMES[name]}: ${error.message}`);
  }
}

function rankingFor() {
  if (!form.dataset.headsup) throw new Error("x% needs the heads-up table, which this site was built without");
  return loadRanking(form.dataset.headsup);
}

/** Every problem of the spot for ``view`` (one line each; a bad range's under its field), or its inputs. */
async function readSpot(state, view) {
  const errors = [], out = {};
  const cards = (name, label) => {
    try {
      return parseCards(state[name], label);
    } catch (error) {
      if (!(error instanceof CardsError)) throw error;
      errors.push(error.message);
      return [];
    }
  };
  let badRange = false;
  for (const name of ["range", "villain"]) {
    const field = form.elements[name], message = $(`${name}-error`);
    try {
      out[name] = await readRange(name, state[name]);
      message.textContent = "";
      field.setAttribute("aria-invalid", "false");
    } catch (error) {
      message.textContent = error.message;
      field.setAttribute("aria-invalid", "true");
      badRange ||= INPUTS[view].includes(name);
    }
  }
  if (view !== "flops") {
    out.board = cards("board", "Board");
    out.dead = cards("dead", "Dead cards");
    if (![3, 4, 5].includes(out.board.length)) {
      errors.push(`Board: the ${view === "hits" ? "hit table" : "equity graph"} needs a flop, turn or river (3, 4 or 5 cards), got ${out.board.length}`);
    }
    const both = out.dead.filter((c) => out.board.includes(c));
    if (both.length) errors.push(`Dead cards: ${both.map(cardName).join(", ")} also on the board`);
  }
  return { errors, badRange, ...out };
}

function showErrors(messages) {
  $("flop-error").replaceChildren(...messages.map((m) => Object.assign(document.createElement("li"), { textContent: m })));
}

/** The spot in words for the results' headings: "QQ+ on Kh8d3c (dead 2c)". */
function spotText(state, view) {
  const versus = view === "hits" ? state.range : `${state.range} against ${state.villain}`;
  return view === "flops" ? versus : `${versus} on ${state.board}${state.dead ? ` (dead ${state.dead})` : ""}`;
}

function showView(view) {
  for (const v of VIEWS) sections[v].hidden = v !== view || !shownFor[v];
}

// ---- the three views --------------------------------------------------------------------------------------------

const hitView = new HitView({
  tables: { made: $("hits-made"), draws: $("hits-draws") }, grid: $("hits-grid"), selected: $("hits-selected"), detail: $("combo-detail"),
});

async function computeHits(state, inputs) {
  const t = await loadTables();
  const started = performance.now();
  const table = rangeHitTable(t, COMBOS, inputs.range, inputs.board, inputs.dead);
  const ms = performance.now() - started;
  hitView.show(table);
  $("hits-method").dataset.shownMs = performance.now() - started; // the table and the grid drawn too
  const street = { 3: "flop", 4: "turn", 5: "river" }[inputs.board.length];
  $("hits-spot").textContent = spotText(state, "hits");
  $("hits-method").textContent = `Exact: ${plural(table.kept.length, "combo")} of your range left on this ${street} (${combosText(table.total)} weighted), `
    + `sorted into categories and draws in ${duration(ms)}.`;
  $("hits-method").dataset.ms = ms;
}

/** Stop the run in progress (graph or report, whichever view it is in), keeping what it has shown. */
function stopRun() {
  if (!run) return;
  run.stop();
  run = null;
}

/** Run ``id`` of ``view`` is over: its progress and Stop go. */
function runEnded(view, id) {
  if (run?.id === id) run = null;
  $(`${view}-progress`).hidden = true;
  $(`${view}-stop`).hidden = true;
  sections[view].removeAttribute("aria-busy");
}

/** A failed run's message in words: whose range lost every hand to which cards, or the engine's message. */
function failureText(error, state) {
  if (error.kind === "NoDealError" && error.player !== null && error.player !== undefined) {
    const name = error.player === 0 ? "range" : "villain";
    return `${NAMES[name]} (${state[name]}): no hand left: every hand in it holds a card already taken: ${runModules.blockerText(error.blockers)}`;
  }
  return error.message;
}

/** Start a run of ``view`` (begin(id) → {done, stop}), stopping any other; its progress, answer (onAnswer), Stop
 *  and failure shown in its view while it is that view's latest run. */
function startRun(view, state, begin, onAnswer) {
  stopRun();
  const id = ++runId, started = performance.now();
  latest[view] = id;
  const method = $(`${view}-method`), bar = $(`${view}-progress`);
  $(`${view}-answer`).hidden = true;
  method.textContent = "Starting…";
  for (const key of ["done", "ms", "firstMs", "partial"]) delete method.dataset[key];
  bar.value = 0;
  bar.hidden = false;
  $(`${view}-stop`).hidden = false;
  sections[view].setAttribute("aria-busy", "true");
  run = { ...begin(id), id };
  run.done.then((answer) => {
    if (id !== latest[view]) return;
    runEnded(view, id);
    const ms = performance.now() - started; // from the start of the workers to the answer
    onAnswer(answer, ms);
    Object.assign(method.dataset, { done: "true", ms });
  }, (error) => {
    if (id !== latest[view]) return; // a newer run of the view (a run stopped for another view's says so below)
    runEnded(view, id);
    if (error.kind === "Stopped") {
      method.textContent = `Stopped after ${duration(performance.now() - started)}. ${method.dataset.partial ?? ""}`;
      method.dataset.done = "stopped";
      return;
    }
    shownFor[view] = null;
    showView(currentView());
    showErrors([failureText(error, state)]);
  });
}

function computeGraph(state, inputs) {
  const spotLine = spotText(state, "graph");
  $("graph-spot").textContent = spotLine;
  startRun("graph", state, (id) => {
    const started = runModules.startDistribution(absolute(form.dataset.worker), absolute(form.dataset.tables),
      { weightsA: inputs.range, weightsB: inputs.villain, board: inputs.board, dead: inputs.dead }, (done, total) => {
        if (id !== runId) return;
        $("graph-progress").value = total ? done / total : 0;
        $("graph-method").textContent = `Counting every ${inputs.board.length === 3 ? "turn and river" : inputs.board.length === 4 ? "river" : "showdown"}… ${Math.round(100 * done / total)}%`;
      });
    const stopped = (error) => { throw error instanceof runModules.Cancelled ? Object.assign(error, { kind: "Stopped" }) : error; };
    return { done: started.done.catch(stopped), stop: () => started.cancel() };
  }, ({ equities, distribution }, ms) => {
    showDistribution({
      svg: $("graph-svg"), summary: $("graph-summary"), overall: $("graph-overall"), quantiles: $("graph-quantiles"), classes: $("graph-classes"),
    }, distribution, spotLine);
    const over = equities.boards === 1 ? "at showdown on this river" : `over each of the ${count(equities.boards)} ways the board can end`;
    $("graph-method").textContent = `Exact: ${plural(distribution.combos.length, "combo")} of your range against the villain's ${over}, in ${duration(ms)}.`;
    $("graph-answer").hidden = false;
  });
}

function computeReport(state, inputs) {
  $("flops-spot").textContent = spotText(state, "flops");
  startRun("flops", state, (id) => runModules.startRounds(absolute(form.dataset.worker), absolute(form.dataset.tables),
    { weightsA: inputs.range, weightsB: inputs.villain }, {
      onProgress: ({ done, total, ms }) => {
        if (id !== runId) return;
        $("flops-progress").value = done / total;
        const left = done ? (ms * (total - done)) / done : null;
        $("flops-method").textContent = `Counting every flop, turn and river… ${count(done)} of ${count(total)} board classes `
          + `(${Math.round(100 * done / total)}%), ${duration(ms)} so far${left === null ? "" : `, about ${duration(left)} left`}. `
          + ($("flops-method").dataset.partial ?? "");
      },
      onPartial: ({ report, counts, parts, of, ms }) => {
        if (id !== runId) return;
        $("flops-method").dataset.firstMs ??= ms;
        $("flops-method").dataset.partial = `The figures shown: an estimate from ${parts} of ${of} parts of the boards (the table of every flop waits for all of them).`;
        reportView.show(report, counts, true);
        $("flops-answer").hidden = false;
      },
    }), ({ report, counts }, ms) => {
    reportView.show(report, counts);
    delete $("flops-method").dataset.partial;
    $("flops-method").textContent = `Exact: every flop, turn and river of the 134,459 board classes (all 2,598,960 boards) counted in ${duration(ms)}.`;
    $("flops-answer").hidden = false;
  });
  // the 1,755 flops the report reads its counts by, listed while the workers count (one short task of its own, not
  // a part of the first estimate's)
  setTimeout(() => runModules.suitDistinctFlops(), 0);
}

// ---- computing --------------------------------------------------------------------------------------------------

/** Compute ``view`` for the spot in the form (``force``: even if its answer is for these inputs already). */
async function compute(view = currentView(), { force = true } = {}) {
  const state = spot(), key = keyOf(state, view), id = ++typing;
  showView(view);
  if (!force && shownFor[view] === key) return;
  const { errors, badRange, ...inputs } = await readSpot(state, view);
  if (id !== typing) return; // a newer edit or view
  showErrors(errors);
  if (errors.length || badRange) {
    if (view !== "hits" || !shownFor.hits) sections[view].hidden = true; // no answer next to input it does not answer
    return;
  }
  if (view !== "hits") {
    await loadRunModules();
    await new Promise((resolve) => setTimeout(resolve)); // a task of its own after the modules' evaluation
    if (id !== typing) return;
  }
  if (view === "flops") {
    try {
      runModules.checkSuitSymmetric(inputs.range, NAMES.range);
      runModules.checkSuitSymmetric(inputs.villain, NAMES.villain);
    } catch (error) {
      showErrors([error.message]);
      sections.flops.hidden = true;
      return;
    }
  }
  shownFor[view] = key;
  sections[view].hidden = false;
  try {
    if (view === "hits") await computeHits(state, inputs);
    else if (view === "graph") computeGraph(state, inputs);
    else computeReport(state, inputs);
  } catch (error) {
    shownFor[view] = null;
    sections[view].hidden = true;
    showErrors([view === "hits" ? `${NAMES.range}: ${error.message}` : error.message]);
  }
}

/** A flop pressed in the report: onto the board (the dead cards cleared), and its hit table. */
function pickFlop(cards) {
  form.elements.board.value = runModules.flopParam(cards);
  form.elements.dead.value = "";
  syncPicker("board");
  syncPicker("dead");
  form.elements.view.value = "hits";
  saveUrl(true);
  compute("hits").then(() => $("hits-title").focus());
}

// ---- pickers ----------------------------------------------------------------------------------------------------

/** Show a field's text in its picker, if that is open (a range only when it parses). */
async function syncPicker(name) {
  const text = form.elements[name].value;
  if (rangePickers[name]) {
    try {
      const weights = await readRange(name, text);
      rangePickers[name].set(weights, text);
    } catch {
      // the message shows on Compute; the picker keeps its last range
    }
  }
  if (cardPickers[name]) {
    try {
      cardPickers[name].set(parseCards(text, name), usedCards(name));
    } catch {
      // likewise
    }
  }
  refreshCardPickers();
}

/** Cards the other card field holds. */
function usedCards(except) {
  const used = new Set();
  for (const name of ["board", "dead"]) {
    if (name === except) continue;
    try {
      parseCards(form.elements[name].value, name).forEach((c) => used.add(c));
    } catch {
      // a field being typed
    }
  }
  return used;
}

function refreshCardPickers() {
  for (const [name, picker] of Object.entries(cardPickers)) picker.set(picker.cards, usedCards(name));
}

function setUpPickers() {
  for (const details of form.querySelectorAll("details[data-range]")) {
    const name = details.dataset.range;
    details.addEventListener("toggle", () => {
      if (!details.open || rangePickers[name]) return;
      const panel = document.createElement("div");
      details.append(panel);
      const edited = (text) => {
        form.elements[name].value = text;
        edit();
      };
      rangePickers[name] = new RangePicker(panel, NAMES[name], { onPaint: (w) => edited(normalise(w)), onTop: (percent) => edited(`${percent}%`) });
      syncPicker(name);
    });
  }
  for (const details of form.querySelectorAll("details[data-cards]")) {
    const name = details.dataset.cards, label = name === "board" ? "Board" : "Dead cards";
    details.addEventListener("toggle", () => {
      if (!details.open || cardPickers[name]) return;
      cardPickers[name] = new CardPicker(details, label, name === "board" ? 5 : 52, (cards) => {
        form.elements[name].value = cards.map(cardName).join("");
        edit();
      });
      syncPicker(name);
    });
  }
}

/** After any edit: the hit table follows at once (it takes milliseconds), and the address with it; the other
 *  views keep the address of the answer they show until Compute. */
function edit(event) {
  const name = event?.target?.name;
  if (name && FIELDS.includes(name)) syncPicker(name);
  if (currentView() !== "hits") return;
  saveUrl();
  compute("hits", { force: false });
}

if (form) {
  loadUrl();
  setUpPickers();
  for (const name of FIELDS) form.elements[name].addEventListener("input", edit);
  for (const radio of form.elements.view) {
    radio.addEventListener("change", () => {
      saveUrl(true);
      compute(currentView(), { force: false });
    });
  }
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    saveUrl(true);
    compute();
  });
  for (const view of ["graph", "flops"]) $(`${view}-stop`).addEventListener("click", () => {
    stopRun();
    form.elements.compute.focus();
  });
  window.addEventListener("popstate", () => {
    loadUrl();
    compute(currentView(), { force: false });
  });
  compute();
}

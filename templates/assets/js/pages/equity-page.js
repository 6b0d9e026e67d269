// Equity calculator page: 2–10 seats, each a range typed (ranges.js grammar) or painted in a 13×13
// picker, kept in sync both ways (a painted range is written back as normalise()'s text); board and
// dead cards typed or picked (cards held elsewhere are unavailable). Errors name the player, token
// and column. The run goes to equity-run.js (a Web Worker; Cancel terminates it) and the spot lives
// in the URL as it is edited (?p=AsKs&p=QQ%2B&board=Kh8d3c&dead=2c); opening such a URL computes it.

import { defaultSize } from "../workers/equity-pool.js";
import { methodText, playerFigures, progressShower, startEquity } from "../workers/equity-run.js";
import { loadRanking } from "../widgets/class-ranking.js";
import { WORK_PER_SECOND, blockerText, enumerationWork, planEquity } from "../engines/range-equity.js";
import { MAX_SEATS } from "../engines/constants.js";
import { CardPicker, RangePicker } from "../widgets/pickers.js";
import { COMBOS, CardsError, cardName, normalise, parseCards, parseRange } from "../engines/ranges.js";

const MIN_SEATS = 2;
const form = document.getElementById("equity-form");
const seatList = document.getElementById("seats");
const addButton = document.getElementById("add-seat");
const errorList = document.getElementById("equity-error");
const results = document.getElementById("equity-results");
const method = document.getElementById("equity-method");
const progress = document.getElementById("equity-progress");
const cancelButton = document.getElementById("cancel");
const more = document.getElementById("equity-more");
const longerButton = document.getElementById("run-longer");
const exactButton = document.getElementById("run-exact");
/** The first run's target standard error; "Run longer" divides the last one by LONGER (LONGER² times the deals). */
const TARGET_SE = 1e-3, LONGER = 3;
let lastTargetSe = TARGET_SE;
const seats = []; // {item, input, label, error, remove, details, picker (once opened), weights (null if the text is bad), version}
const cardFields = {}; // board / dead: {input, picker (once opened), cards (ids, the last valid text)}
let nextSeatId = 1;
let run = null;
let runId = 0;

/** Weights of a range string (the class ranking is fetched when the text has an x%). */
async function parseSeat(text) {
  const ranking = text.includes("%") ? await loadRanking(form.dataset.headsup) : null;
  return parseRange(text, ranking).weights;
}

/** Cards nobody else may pick: every seat holding one exact combo, and the other card field. */
function usedCards(except) {
  const used = new Set();
  for (const seat of seats) {
    const first = seat.weights ? seat.weights.findIndex((w) => w > 0) : -1;
    if (first >= 0 && seat.weights.findIndex((w, i) => w > 0 && i > first) < 0) COMBOS[first].forEach((c) => used.add(c));
  }
  for (const [name, field] of Object.entries(cardFields)) if (name !== except) field.cards.forEach((c) => used.add(c));
  return used;
}

function refreshCardPickers() {
  for (const [name, field] of Object.entries(cardFields)) field.picker?.set(field.cards, usedCards(name));
}

/** Read a seat's text: show its error under the field or its range in the picker. */
async function syncSeat(seat) {
  const version = ++seat.version;
  let weights = null, message = "";
  try {
    weights = await parseSeat(seat.input.value);
  } catch (error) {
    message = error.message; // a RangeError, or the ranking of x% could not be fetched
  }
  if (version !== seat.version) return;
  seat.weights = weights;
  seat.error.textContent = message;
  seat.input.setAttribute("aria-invalid", String(Boolean(message)));
  if (weights) seat.picker?.set(weights, seat.input.value);
  refreshCardPickers();
  saveUrl(spot());
}

function renumber() {
  seats.forEach((seat, k) => {
    seat.label.textContent = `Player ${k + 1}`;
    seat.remove.setAttribute("aria-label", `Remove player ${k + 1}`);
    seat.remove.hidden = seats.length <= MIN_SEATS;
    seat.details.querySelector("summary").textContent = `Range picker, player ${k + 1}`;
    seat.picker?.grid.setAttribute("aria-label", `Player ${k + 1}: 169 hand classes`);
  });
  addButton.disabled = seats.length >= MAX_SEATS;
  addButton.textContent = seats.length >= MAX_SEATS ? `${MAX_SEATS} players at most` : "Add a player";
}

function addSeat(value) {
  const id = `seat-${nextSeatId++}`;
  const item = document.createElement("li");
  item.className = "seat";
  item.innerHTML = `<div class="seat-head"><label for="${id}"></label> <button type="button" class="ghost remove">Remove</button></div>
    <input type="text" id="${id}" name="p" autocomplete="off" spellcheck="false" aria-describedby="${id}-error seats-help">
    <p class="error seat-error" id="${id}-error" aria-live="polite"></p>
    <details class="picker"><summary></summary></details>`;
  const seat = {
    item, input: item.querySelector("input"), label: item.querySelector("label"), error: item.querySelector(".seat-error"),
    remove: item.querySelector(".remove"), details: item.querySelector("details"), picker: null, weights: null, version: 0,
  };
  seat.input.value = value;
  seat.input.addEventListener("input", () => syncSeat(seat));
  seat.remove.addEventListener("click", () => {
    const k = seats.indexOf(seat);
    seats.splice(k, 1);
    item.remove();
    renumber();
    refreshCardPickers();
    saveUrl(spot());
    seats[Math.min(k, seats.length - 1)].input.focus();
  });
  seat.details.addEventListener("toggle", () => {
    if (!seat.details.open || seat.picker) return;
    const panel = document.createElement("div");
    seat.details.append(panel);
    seat.picker = new RangePicker(panel, seat.label.textContent, {
      onPaint: (weights) => {
        seat.input.value = normalise(weights);
        syncSeat(seat);
      },
      onTop: (percent) => {
        seat.input.value = `${percent}%`;
        syncSeat(seat);
      },
    });
    if (seat.weights) seat.picker.set(seat.weights, seat.input.value);
  });
  seats.push(seat);
  seatList.append(item);
  renumber();
  syncSeat(seat);
  return seat;
}

/** Board or dead cards: the text field and its 52-card picker (built when first opened), in sync. */
function setUpCards(name, label, max) {
  const field = { input: form.elements[name], picker: null, cards: [] };
  cardFields[name] = field;
  const read = () => {
    try {
      field.cards = parseCards(field.input.value, label);
    } catch (error) {
      if (!(error instanceof CardsError)) throw error;
      return;
    }
    refreshCardPickers();
    saveUrl(spot());
  };
  field.input.addEventListener("input", read);
  const details = form.querySelector(`details[data-cards="${name}"]`);
  details.addEventListener("toggle", () => {
    if (!details.open || field.picker) return;
    field.picker = new CardPicker(details, label, max, (cards) => {
      field.cards = cards;
      field.input.value = cards.map(cardName).join("");
      refreshCardPickers();
      saveUrl(spot());
    });
    refreshCardPickers();
  });
  read();
}

function showErrors(messages) {
  errorList.replaceChildren(...messages.map((m) => Object.assign(document.createElement("li"), { textContent: m })));
}

function spot() {
  return {
    ranges: seats.map((s) => s.input.value.trim()),
    board: form.elements.board.value.trim(),
    dead: form.elements.dead.value.trim(),
  };
}

function saveUrl({ ranges, board, dead }) {
  const params = new URLSearchParams();
  ranges.forEach((r) => params.append("p", r));
  if (board) params.set("board", board);
  if (dead) params.set("dead", dead);
  history.replaceState(null, "", `${location.pathname}?${params}`);
}

/** Every problem of the spot, one line each (the player, token and column of a bad range), or the inputs of a run. */
async function readSpot(state) {
  const errors = [];
  const cards = (text, label) => {
    try {
      return parseCards(text, label);
    } catch (error) {
      if (!(error instanceof CardsError)) throw error;
      errors.push(error.message);
      return [];
    }
  };
  const board = cards(state.board, "Board"), dead = cards(state.dead, "Dead cards");
  if (![0, 3, 4, 5].includes(board.length)) errors.push(`Board: a board has 0, 3, 4 or 5 cards, got ${board.length}`);
  if (dead.some((c) => board.includes(c))) errors.push("Dead cards: a dead card is also on the board");
  const weights = [];
  for (const [k, text] of state.ranges.entries()) {
    try {
      weights.push(await parseSeat(text));
    } catch (error) {
      errors.push(`Player ${k + 1}: ${error.message}`); // a RangeError, or the x% ranking was not fetched
    }
  }
  return { errors, weights, board, dead };
}

/** The per-seat rows of ``result``; ``partial`` (a run in progress) marks the table as not final. */
function renderRows(state, result, partial = false) {
  const table = document.getElementById("equity-table");
  table.dataset.state = partial ? "partial" : "final";
  table.tBodies[0].replaceChildren(...state.ranges.map((range, p) => {
    const row = document.createElement("tr");
    const shown = playerFigures(result, p);
    row.innerHTML = `<th scope="row">${p + 1}</th><td class="range"></td><td class="equity" data-equity="${result.equity[p]}">${shown.equity}</td><td class="ci">${shown.half}</td><td>${shown.win}</td><td>${shown.tie}</td>`;
    row.querySelector(".range").textContent = range;
    return row;
  }));
}

/** "about 3 s", "about 2 min": the time enumerating ``work`` units takes the page's workers. */
function aboutTime(work) {
  const seconds = work / WORK_PER_SECOND / defaultSize();
  return seconds < 90 ? `about ${Math.max(1, Math.round(seconds))} s` : `about ${Math.round(seconds / 60)} min`;
}

function render(state, result, ms, spotInputs) {
  renderRows(state, result);
  method.textContent = methodText(result, ms);
  method.dataset.method = result.method;
  more.hidden = result.method !== "monte carlo";
  if (!more.hidden) {
    const { live } = planEquity(spotInputs.weights, spotInputs.board, spotInputs.dead);
    exactButton.textContent = `Enumerate exactly (${aboutTime(enumerationWork(live, spotInputs.board, spotInputs.dead))})`;
    longerButton.textContent = `Run longer (interval ÷ ${LONGER})`;
  }
}

function stop() {
  run?.cancel();
  run = null;
  cancelButton.hidden = true;
  progress.hidden = true;
  results.removeAttribute("aria-busy");
}

/** Compute the spot in the form: ``exact`` enumerates whatever the work; ``targetSe`` of a sampled run;
 *  ``keepFocus`` (a button that hides while the run works was pressed): the focus goes to Cancel, then to
 *  "Run longer" (still sampled) or Compute. */
async function compute({ exact = false, targetSe = TARGET_SE, keepFocus = false } = {}) {
  const state = spot();
  saveUrl(state);
  stop();
  more.hidden = true;
  lastTargetSe = targetSe;
  const id = ++runId;
  const { errors, weights, board, dead } = await readSpot(state);
  if (id !== runId) return;
  showErrors(errors);
  seats.forEach((seat) => seat.input.setAttribute("aria-invalid", String(errors.some((e) => e.startsWith(`Player ${seats.indexOf(seat) + 1}:`)))));
  if (errors.length) {
    results.hidden = true; // no figures next to input they do not answer
    return;
  }
  const started = performance.now();
  method.textContent = "Computing…";
  delete method.dataset.method;
  results.hidden = false;
  results.setAttribute("aria-busy", "true");
  cancelButton.hidden = false;
  if (keepFocus) cancelButton.focus();
  document.querySelector("#equity-table tbody").replaceChildren(); // no figures of the previous spot
  run = startEquity(form.dataset, { weights, board, dead, exact, targetSe },
    progressShower(progress, method, () => id === runId, (partial) => renderRows(state, partial, true)));
  try {
    const { result } = await run.done;
    if (id === runId) render(state, result, performance.now() - started, { weights, board, dead });
  } catch (error) {
    if (id !== runId) return; // cancelled, or replaced by a newer run
    if (error.player !== null && error.player !== undefined) {
      showErrors([`Player ${error.player + 1} (${state.ranges[error.player]}): no hand left: every hand in it holds a card already taken: ${blockerText(error.blockers)}`]);
    } else {
      showErrors([error.message]);
    }
    method.textContent = "";
    results.hidden = true; // no empty table under the message
  }
  if (id === runId) {
    const focused = document.activeElement === cancelButton;
    run = null;
    cancelButton.hidden = true;
    progress.hidden = true;
    results.removeAttribute("aria-busy");
    if (keepFocus && focused) (more.hidden ? form.elements.compute : longerButton).focus();
  }
}

if (form) {
  const params = new URLSearchParams(location.search);
  const all = params.getAll("p"), given = all.slice(0, MAX_SEATS);
  const start = given.length >= MIN_SEATS ? given : given.length ? [...given, "random"] : ["AsKs", "QQ+,AKo"];
  form.elements.board.value = params.get("board") ?? "";
  form.elements.dead.value = params.get("dead") ?? "";
  start.forEach((r) => addSeat(r));
  setUpCards("board", "Board", 5);
  setUpCards("dead", "Dead cards", 52);
  addButton.addEventListener("click", () => addSeat("random").input.focus());
  cancelButton.addEventListener("click", () => {
    runId++;
    stop();
    method.textContent = "Cancelled.";
    form.elements.compute.focus();
  });
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    compute();
  });
  longerButton.addEventListener("click", () => compute({ targetSe: lastTargetSe / LONGER, keepFocus: true }));
  exactButton.addEventListener("click", () => compute({ exact: true, keepFocus: true }));
  if (all.length > MAX_SEATS) {
    // Not cut silently: the link asks a question with more players than the calculator takes.
    showErrors([`This link names ${all.length} players; the calculator takes ${MIN_SEATS} to ${MAX_SEATS}. ` +
      `The first ${MAX_SEATS} are filled in (${all.slice(MAX_SEATS).join(", ")} left out): press Compute for them.`]);
    results.hidden = true;
  } else {
    compute();
  }
}

// Equity calculator page: seats with hands or ranges (ranges.js), board and dead cards; checks the
// input on the main thread (errors name the range, token and column, as the CLI does), computes in
// equity-worker.js (range-equity.js; terminated to cancel), and keeps the spot in the URL
// (?p=AsKs&p=QQ%2B&board=Kh8d3c&dead=2c).

import { Z_975 } from "./range-equity.js";
import { RANKS, SUITS, RangeError, parseRange, rankingFromHeadsup } from "./ranges.js";

const MAX_SEATS = 10;
const pct = (x, digits = 2) => `${(100 * x).toFixed(digits)}%`;
const count = (n) => n.toLocaleString("en-US");
const form = document.getElementById("equity-form");
const seats = document.getElementById("seats");
const errorList = document.getElementById("equity-error");
const results = document.getElementById("equity-results");
const method = document.getElementById("equity-method");
const cancelButton = document.getElementById("cancel");
let ranking = null; // promise of the class ranking for x%
let worker = null;
let runId = 0;
// a worker resolves URLs against its own script, so hand it absolute ones
const absolute = (path) => new URL(path, location.href).href;

function addSeat(value = "") {
  if (seats.children.length >= MAX_SEATS) return;
  const n = seats.children.length + 1;
  const item = document.createElement("li");
  item.innerHTML = `<label>Player ${n} <input type="text" name="p" autocomplete="off" spellcheck="false" aria-describedby="seats-help"></label>`;
  item.querySelector("input").value = value;
  seats.append(item);
}

/** Class indices best first by exact heads-up equity vs a random hand (headsup.json counts, as Python). */
async function loadRanking() {
  const response = await fetch(form.dataset.headsup);
  if (!response.ok) throw new Error(`headsup.json: HTTP ${response.status}`);
  return rankingFromHeadsup(await response.json());
}

/** "Kh8d3c" → card ids; throws Error with a one-line message naming the field. */
function parseCards(text, field) {
  const clean = text.replace(/[\s,]+/g, "");
  if (clean.length % 2) throw new Error(`${field}: cards are two characters each (e.g. Kh8d3c)`);
  const cards = [];
  for (let i = 0; i < clean.length; i += 2) {
    const rank = RANKS.indexOf(clean[i].toUpperCase()), suit = SUITS.indexOf(clean[i + 1].toLowerCase());
    if (rank < 0 || suit < 0) throw new Error(`${field}: "${clean.slice(i, i + 2)}" is not a card (ranks ${RANKS}, suits ${SUITS})`);
    if (cards.includes(4 * rank + suit)) throw new Error(`${field}: duplicate card ${clean.slice(i, i + 2)}`);
    cards.push(4 * rank + suit);
  }
  return cards;
}

function showError(message) {
  errorList.replaceChildren(...(message ? [Object.assign(document.createElement("li"), { textContent: message })] : []));
}

function spot() {
  return {
    ranges: [...seats.querySelectorAll("input")].map((i) => i.value.trim()),
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

function render(state, result, ms) {
  const rows = state.ranges.map((range, p) => {
    const half = result.seEquity ? pct(Z_975 * result.seEquity[p]) : "exact";
    const tie = result.ties[p].reduce((a, b) => a + b, 0);
    return `<tr><th scope="row">${p + 1}</th><td class="range"></td><td class="equity" data-equity="${result.equity[p]}">${pct(result.equity[p])}</td><td class="ci">${half}</td><td>${pct(result.win[p])}</td><td>${pct(tie)}</td></tr>`;
  });
  const body = document.querySelector("#equity-table tbody");
  body.innerHTML = rows.join("");
  body.querySelectorAll("td.range").forEach((cell, p) => (cell.textContent = state.ranges[p]));
  const time = ms < 1000 ? `${ms.toFixed(0)} ms` : `${(ms / 1000).toFixed(1)} s`;
  method.textContent = result.method === "table" ? `Exact, from the heads-up table (${time}).`
    : result.exact ? `Exact: ${count(result.boards)} boards enumerated in ${time}.`
    : `Monte Carlo: ${count(result.samples)} deals in ${time}; ± is the 95% confidence interval.`;
  method.dataset.method = result.method;
  results.hidden = false;
}

function stop() {
  worker?.terminate();
  worker = null;
  cancelButton.hidden = true;
}

async function compute() {
  const state = spot();
  saveUrl(state);
  stop();
  const id = ++runId;
  let weights, board, dead;
  try {
    board = parseCards(state.board, "Board");
    if (![0, 3, 4, 5].includes(board.length)) throw new Error(`Board: a board has 0, 3, 4 or 5 cards, got ${board.length}`);
    dead = parseCards(state.dead, "Dead cards");
    const shared = dead.filter((c) => board.includes(c));
    if (shared.length) throw new Error("Dead cards: a dead card is also on the board");
    const order = state.ranges.some((r) => r.includes("%")) ? await (ranking ??= loadRanking()) : null;
    weights = state.ranges.map((text, k) => {
      try {
        return parseRange(text, order).weights;
      } catch (error) {
        if (error instanceof RangeError) throw new Error(`range ${k + 1}, ${error.message}`);
        throw error;
      }
    });
  } catch (error) {
    showError(error.message);
    return;
  }
  if (id !== runId) return;
  showError("");
  method.textContent = "Computing…";
  cancelButton.hidden = false;
  worker = new Worker(form.dataset.worker, { type: "module" });
  const started = performance.now();
  worker.onmessage = (e) => {
    if (e.data.id !== id) return;
    if (e.data.progress) {
      const p = e.data.progress;
      method.textContent = p.total ? `Enumerating… ${pct(p.done / p.total, 0)} of ${count(p.total)} boards`
        : `Sampling… ${count(p.samples)} deals, largest standard error ${pct(p.se, 3)}`;
      results.hidden = false;
      return;
    }
    stop();
    if (e.data.error) {
      const who = e.data.player === null ? "" : `range ${e.data.player + 1} (${state.ranges[e.data.player]}): `;
      showError(e.data.player === null ? e.data.error : `${who}empty after removing the board, dead cards and other players' cards`);
      method.textContent = "";
      return;
    }
    render(state, e.data.result, performance.now() - started);
  };
  worker.onerror = (e) => { stop(); showError(`the calculator failed: ${e.message}`); };
  worker.postMessage({
    id, tablesUrl: absolute(form.dataset.tables), matchupsUrl: absolute(form.dataset.matchups),
    weights: weights.map((w) => Array.from(w)), board, dead, targetSe: 1e-3,
  });
}

if (form) {
  const params = new URLSearchParams(location.search);
  const given = params.getAll("p").slice(0, MAX_SEATS);
  (given.length >= 2 ? given : ["AsKs", "QQ+,AKo"]).forEach((r) => addSeat(r));
  form.elements.board.value = params.get("board") ?? "";
  form.elements.dead.value = params.get("dead") ?? "";
  document.getElementById("add-seat").addEventListener("click", () => addSeat("random"));
  document.getElementById("remove-seat").addEventListener("click", () => seats.children.length > 2 && seats.lastElementChild.remove());
  cancelButton.addEventListener("click", () => {
    stop();
    runId++;
    method.textContent = "Cancelled.";
  });
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    compute();
  });
  compute();
}

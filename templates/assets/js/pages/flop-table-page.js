// The flop table page (templates/flop-table.html): loads data/flops.bin (engines/flop-table.js), draws a row per
// suit-distinct flop (sortable by sortable.js, filtered by texture) and, for the flop picked (click, Enter, or the
// URL), the 13×13 chart of every hand's equity against a random hand with a one-line summary. The state lives in
// the URL: ?flop=AhKd7c&suits=rainbow&pairing=unpaired&high=A&straights=none&sort=-spread.

import { CLASS_NAMES, RANKS } from "../engines/cards.js";
import { CHART_BUCKETS as BUCKETS } from "../engines/constants.js";
import { CardsError } from "../engines/ranges.js";
import {
  PAIRINGS, SUIT_TEXTURES, flopCards, flopEquity, flopExtremes, flopLabel, flopParam, flopRows, flopText, parseFlop, parseFlopTable,
} from "../engines/flop-table.js";
import "../widgets/sortable.js"; // the column buttons

const atlas = document.getElementById("flop-atlas");
const form = document.getElementById("flop-filters");
const table = document.getElementById("flop-table");
const body = table.tBodies[0];
const headers = [...table.tHead.rows[0].cells];
const status = document.getElementById("flop-status"), errorLine = document.getElementById("flop-error");
const progress = document.getElementById("flop-progress"), stopButton = document.getElementById("flop-stop");
const chartTitle = document.getElementById("flop-chart-title"), summary = document.getElementById("flop-summary");
const cells = [...document.querySelectorAll("#flop-grid a[data-i]")];
const TOTAL = Number(atlas.dataset.total);
const FILTERS = ["suits", "pairing", "high", "straights"];
const DEFAULT_SORT = "-flop";

const pct = (x, digits = 1) => `${(100 * x).toFixed(digits)}%`;
const count = (n) => n.toLocaleString("en-US");
/** Colour bucket of an equity on the absolute 0..100% scale (generator/site/charts.py bucket(e, 0, 1)). */
const bucket = (e) => Math.max(0, Math.min(BUCKETS - 1, Math.floor(e * BUCKETS)));
const capital = (word) => word[0].toUpperCase() + word.slice(1);
const cardsHtml = (cards) => `<span class="flop-cards" aria-hidden="true">${flopCards(cards).map(([rank, symbol, suit]) => `<span class="s${suit}">${rank}${symbol}</span>`).join("")}</span><span class="visually-hidden">${flopLabel(cards)}</span>`;

let data = null, rowOf = null, selected = null;
let rows = []; // every flop's row, in the Flop column's order (highest ranks first); the table shows those the filters pass
const position = new Map(), rowOfFlop = [];

/** The table's rows: one per flop, highest ranks first (the Flop column's order, descending). */
function makeRows() {
  const stats = Array.from({ length: data.count }, (_, f) => flopExtremes(data, f));
  const ranks = data.cards.map((cards) => [...cards].sort((a, b) => b - a).map((c) => c >> 2));
  const key = ranks.map(([a, b, c]) => (a * 13 + b) * 13 + c);
  const order = Array.from({ length: data.count }, (_, f) => f).sort((f, g) => key[g] - key[f] || f - g);
  const holder = document.createElement("tbody");
  holder.innerHTML = order.map((f) => {
    const { best, bestEquity, worst, worstEquity, spread } = stats[f];
    const often = data.weights[f] / TOTAL;
    return `<tr data-f="${f}"><th scope="row" data-sort="${key[f]}"><a href="?flop=${flopParam(data.cards[f])}" data-f="${f}">${cardsHtml(data.cards[f])}</a></th>`
      + `<td data-sort="${data.weights[f]}">${pct(often, 3)}</td><td data-sort="${data.suits[f]}">${capital(SUIT_TEXTURES[data.suits[f]])}</td>`
      + `<td data-sort="${data.pairing[f]}">${capital(PAIRINGS[data.pairing[f]])}</td><td data-sort="${data.high[f]}">${RANKS[data.high[f]]}</td>`
      + `<td data-sort="${data.straights[f]}">${data.straights[f]}</td><td data-sort="${bestEquity}">${CLASS_NAMES[best]} ${pct(bestEquity)}</td>`
      + `<td data-sort="${worstEquity}">${CLASS_NAMES[worst]} ${pct(worstEquity)}</td><td data-sort="${spread}">${(100 * spread).toFixed(1)}</td></tr>`;
  }).join("");
  rows = [...holder.rows];
  rows.forEach((row, k) => {
    position.set(row, k);
    rowOfFlop[Number(row.dataset.f)] = row;
  });
}

/** Whether flop f passes the filters of the form. */
function passes(f) {
  const { suits, pairing, high, straights } = form.elements;
  return (!suits.value || SUIT_TEXTURES[data.suits[f]] === suits.value)
    && (!pairing.value || PAIRINGS[data.pairing[f]] === pairing.value)
    && (!high.value || RANKS[data.high[f]] === high.value)
    && (!straights.value || (straights.value === "some") === (data.straights[f] > 0));
}

/** The rows the filters pass, in the order of the sorted column (ties: the Flop column's order); the others are
 *  left out of the page (not merely hidden: a short table stays light). */
function show() {
  const th = headers.find((h) => h.hasAttribute("aria-sort"));
  const column = headers.indexOf(th), sign = th.getAttribute("aria-sort") === "descending" ? -1 : 1;
  const shown = rows.filter((row) => passes(Number(row.dataset.f)));
  const key = new Map(shown.map((row) => [row, Number(row.cells[column].dataset.sort)]));
  shown.sort((a, b) => sign * (key.get(a) - key.get(b)) || position.get(a) - position.get(b));
  body.replaceChildren(...shown);
  const weight = shown.reduce((sum, row) => sum + data.weights[Number(row.dataset.f)], 0);
  status.textContent = shown.length === data.count
    ? `All ${count(data.count)} flops shown.`
    : `${count(shown.length)} of ${count(data.count)} flops shown: ${pct(weight / TOTAL)} of the ${count(TOTAL)} flops.`;
}

/** The sort of the table as the URL's sort= value ("spread" ascending, "-spread" descending). */
function sortState() {
  const th = headers.find((h) => h.hasAttribute("aria-sort"));
  return th ? `${th.getAttribute("aria-sort") === "descending" ? "-" : ""}${th.dataset.key}` : DEFAULT_SORT;
}

/** Mark the column of the URL's sort= value sorted (show() orders the rows); false if it names none. */
function setSort(value) {
  const descending = value.startsWith("-"), column = headers.findIndex((h) => h.dataset.key === value.replace(/^-/, ""));
  if (column < 0) return false;
  headers.forEach((h) => h.removeAttribute("aria-sort"));
  headers[column].setAttribute("aria-sort", descending ? "descending" : "ascending");
  return true;
}

function writeUrl() {
  const params = new URLSearchParams();
  if (selected !== null) params.set("flop", flopParam(data.cards[selected]));
  for (const name of FILTERS) if (form.elements[name].value) params.set(name, form.elements[name].value);
  if (sortState() !== DEFAULT_SORT) params.set("sort", sortState());
  const search = params.toString();
  history.replaceState(null, "", `${location.pathname}${search ? `?${search}` : ""}${location.hash}`);
}

/** Show flop f's chart and summary, and mark its row. */
function select(f) {
  if (selected !== null) {
    rowOfFlop[selected].classList.remove("selected");
    rowOfFlop[selected].querySelector("a").removeAttribute("aria-current");
  }
  selected = f;
  const cards = data.cards[f], text = flopText(cards);
  const row = rowOfFlop[f];
  row.classList.add("selected");
  row.querySelector("a").setAttribute("aria-current", "true");
  chartTitle.innerHTML = `Flop ${cardsHtml(cards)}`;
  cells.forEach((a, c) => {
    const e = flopEquity(data, f, c), name = CLASS_NAMES[c];
    const none = Number.isNaN(e);
    a.parentElement.className = none ? "cell none" : `cell e${bucket(e)}`;
    a.dataset.equity = none ? "" : String(e);
    a.querySelector(".v-eq").textContent = none ? "—" : pct(e);
    a.querySelector(".v-short").textContent = none ? "—" : (100 * e).toFixed(0);
    a.title = a.querySelector(".visually-hidden").textContent = none ? `${name} on ${text}: no combo left` : `${name} on ${text}: equity ${pct(e, 2)} against a random hand`;
  });
  const { best, bestEquity, worst, worstEquity, spread } = flopExtremes(data, f);
  summary.textContent = `On ${text} (${pct(data.weights[f] / TOTAL, 3)} of flops) the best hand is ${CLASS_NAMES[best]} at ${pct(bestEquity)}, `
    + `the worst ${CLASS_NAMES[worst]} at ${pct(worstEquity)}: a spread of ${(100 * spread).toFixed(1)} points.`;
  writeUrl();
}

/** The state in the URL, applied; a value that is not one is named in the error line. */
function readUrl() {
  const params = new URLSearchParams(location.search), problems = [];
  for (const name of FILTERS) {
    const value = params.get(name) ?? "", choice = form.elements[name];
    if ([...choice.options].some((o) => o.value === value)) choice.value = value;
    else problems.push(`${name}=${value} is not one of the choices`);
  }
  if (params.has("sort") && !setSort(params.get("sort"))) problems.push(`sort=${params.get("sort")} is not a column`);
  show();
  if (params.has("flop")) {
    try {
      const f = rowOf(parseFlop(params.get("flop")));
      if (f === null) throw new CardsError("not in the table");
      select(f);
      const row = rowOfFlop[f];
      if (row.isConnected) table.parentElement.scrollTop = row.offsetTop - table.tHead.offsetHeight; // in view inside its region
    } catch (e) {
      if (!(e instanceof CardsError)) throw e;
      problems.push(`flop=${params.get("flop")}: ${e.message}`);
    }
  }
  errorLine.textContent = problems.length ? `In the address: ${problems.join("; ")}.` : "";
}

/** flops.bin, with a progress bar and a Stop button while it downloads. */
async function download(signal) {
  const response = await fetch(atlas.dataset.source, { signal });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  const size = Number(response.headers.get("Content-Length")) || 0;
  const reader = response.body.getReader(), parts = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
    received += value.length;
    if (size) progress.value = received / size;
  }
  const bytes = new Uint8Array(received);
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.length;
  }
  return bytes.buffer;
}

async function load() {
  const controller = new AbortController();
  status.textContent = "Loading the flop table…";
  errorLine.textContent = "";
  progress.hidden = stopButton.hidden = false;
  stopButton.textContent = "Stop";
  stopButton.onclick = () => controller.abort();
  try {
    data = parseFlopTable(await download(controller.signal));
  } catch (e) {
    status.textContent = "";
    errorLine.textContent = controller.signal.aborted ? "Stopped: the flop table was not loaded." : `Could not load the flop table (${atlas.dataset.source}): ${e.message}`;
    stopButton.textContent = "Load the table";
    stopButton.onclick = load;
    progress.hidden = true;
    return;
  }
  progress.hidden = stopButton.hidden = true;
  rowOf = flopRows(data);
  makeRows();
  readUrl();
  table.dataset.state = "drawn";
}

body.addEventListener("click", (e) => {
  const link = e.target.closest("a[data-f]");
  if (!link || e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
  e.preventDefault();
  select(Number(link.dataset.f));
  const box = document.getElementById("flop-chart").getBoundingClientRect();
  if (box.bottom < 0 || box.top > innerHeight) document.getElementById("flop-chart").scrollIntoView({ block: "start" });
});
table.tHead.addEventListener("click", (e) => { // after sortable.js set aria-sort (its listener is on the button)
  if (!data || !e.target.closest("button.sort")) return;
  show();
  writeUrl();
});
form.addEventListener("change", () => {
  if (!data) return;
  show();
  writeUrl();
});
form.addEventListener("submit", (e) => e.preventDefault());
load();

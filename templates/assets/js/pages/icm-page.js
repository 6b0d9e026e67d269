// ICM calculator page: parse the form, show every invalid field inline, compute with icm.js
// (in a Web Worker for large fields so the page never freezes), keep the state in the URL. With
// bounties (KO/PKO), bounty.js adds each player's bounty equity, and the bubble factors count it.

import { bountyEquity, bountyErrors } from "../engines/bounty.js";
import { modelLine, readBounties } from "../widgets/bounty-fields.js";
import { chipShares, parsePayouts, icm, parseNumberList, validateField } from "../engines/icm.js";

const WORKER_FROM_PLAYERS = 40;
const MAX_PLACE_ROWS = 200; // larger fields: a summary, a paged table and an aggregated heatmap (fieldSummary)
const PAGE_ROWS = 100;
const HEATMAP_GROUPS = 10; // players grouped by stack rank for the aggregated place heatmap
const MAX_PLACE_COLUMNS = 20;
const BUBBLE_MAX_PLAYERS = 200; // the matrix is computed in the worker: ~0.35 s at 100 players, ~3 s at 200 (node)
const BUBBLE_SHOWN = 12; // a larger field shows the rows and columns of chosen players only
const METHODS = {
  dp: "exact recursion over subsets of players",
  integral: "one integral per player and place",
  fourier: "one integral per player, summed over places through the characteristic function",
};
let payoutsInPercent = false; // the payouts were typed as percentages of the pool ("50% 30% 20%"): money shown in %
const money = (x) => x.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 }) + (payoutsInPercent ? "%" : "");
const pct = (x, digits = 2) => `${(100 * x).toFixed(digits)}%`;
const SUFFIX = { 1: "st", 2: "nd", 3: "rd" };
const ordinal = (n) => `${n}${(n % 100 > 10 && n % 100 < 14) ? "th" : SUFFIX[n % 10] || "th"}`;

const form = document.getElementById("icm-form");
const fields = { stacks: form.elements.stacks, payouts: form.elements.payouts, bounties: form.elements.bounties, share: form.elements.share };
const errors = {
  stacks: document.getElementById("stacks-error"),
  payouts: document.getElementById("payouts-error"),
  bounties: document.getElementById("bounties-error"),
  share: document.getElementById("share-error"),
  form: document.getElementById("form-error"),
};
const results = document.getElementById("icm-results");
const presets = JSON.parse(document.getElementById("icm-presets").textContent);
let worker = null;
let pending = 0;

const POOL_TOO_BIG = "payouts: the prize pool adds up to more than 1.8e308; give the prizes in a larger unit";

const PARSE_IN_WORKER_FROM = 20000; // characters: a longer typed list is read in the worker

/** {values, percent} typed in a field (icm.js's list grammar; payouts may be percentages), or null after
 * noting the reason in byField; a long list is read in the worker, off the main thread. */
async function parseField(name, byField) {
  const text = fields[name].value;
  try {
    if (text.length >= PARSE_IN_WORKER_FROM) return await inWorker(`parse-${name}`, null, null, { text });
    return name === "payouts" ? parsePayouts(text, name) : { values: parseNumberList(text, name), percent: false };
  } catch (error) {
    byField[name].push(error.message);
    return null;
  }
}

function showErrors(byField) {
  for (const [name, list] of Object.entries(errors)) {
    const messages = byField[name] || [];
    list.replaceChildren(...messages.map((m) => Object.assign(document.createElement("li"), { textContent: m })));
    if (fields[name]) fields[name].setAttribute("aria-invalid", messages.length ? "true" : "false");
  }
  return Object.values(byField).some((m) => m.length);
}

/** "N players, M paid" (", K bounties" when some are typed) as read from the form, shown before any
 * result (or any message). */
function echoCount(stacks, payouts, bounties) {
  const players = stacks === null ? "stacks not read" : `${stacks.length} player${stacks.length === 1 ? "" : "s"}`;
  const paid = payouts === null ? "payouts not read" : `${payouts.length} paid`;
  const heads = bounties === null ? "" : `, ${bounties.length} bount${bounties.length === 1 ? "y" : "ies"}`;
  document.getElementById("icm-count").textContent = `Read as ${players}, ${paid}${heads}.`;
}

/** A new task for the rest of the work: long fields are read and shown in pieces, so that no single
 * task on the main thread runs long (the page's promise: never blocked for more than 100 ms). */
const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

/** The form as numbers ({stacks, payouts, bounties (null: none), share}), or null after showing
 * every problem under its field. */
let runs = 0; // the latest run's number: an older run that finishes after it changes nothing

/** The form's numbers, or null when a field is wrong (its errors shown); also null, showing nothing, when a newer
 * run (``run`` is not ``runs``) began while this one read the fields. */
async function validate(run) {
  const byField = { stacks: [], payouts: [], bounties: [], share: [], form: [] };
  const stacks = (await parseField("stacks", byField))?.values ?? null;
  await nextTask();
  const typed = await parseField("payouts", byField);
  const payouts = typed?.values ?? null;
  payoutsInPercent = typed?.percent ?? false;
  const { bounties, share, errors: bountyReading } = readBounties(fields.bounties.value, fields.share.value, payoutsInPercent);
  for (const error of bountyReading) byField[error.field].push(error.message);
  echoCount(stacks, payouts, bounties);
  if (stacks !== null && payouts !== null) {
    await nextTask();
    for (const error of validateField(stacks, payouts)) (byField[error.field] ?? byField.form).push(error.message);
    if (!byField.payouts.length && !Number.isFinite(payouts.reduce((a, b) => a + b, 0))) byField.payouts.push(POOL_TOO_BIG);
  }
  if (stacks !== null && bounties !== null && !byField.stacks.length) {
    for (const error of bountyErrors(stacks, bounties)) byField[error.field].push(error.message);
  }
  if (run !== runs) return null;
  return showErrors(byField) ? null : { stacks, payouts, bounties, share };
}

const waiting = new Map(); // message id -> {resolve, reject}

/** icm.js's `kind` ("icm" | "bubble") in the worker; resolves with its result (a newer request of the
 * same kind supersedes an older one: the older promise never settles). */
function inWorker(kind, stacks, payouts, extra = {}) {
  if (!worker) {
    worker = new Worker(form.dataset.worker, { type: "module" });
    worker.onmessage = (e) => {
      const handlers = waiting.get(e.data.id);
      waiting.delete(e.data.id);
      if (handlers) (e.data.error ? handlers.reject(new Error(e.data.error)) : handlers.resolve(e.data.result));
    };
    worker.onerror = (e) => { for (const handlers of waiting.values()) handlers.reject(new Error(e.message)); waiting.clear(); };
  }
  const id = ++pending;
  for (const [key, handlers] of waiting) if (handlers.kind === kind) waiting.delete(key);
  return new Promise((resolve, reject) => {
    waiting.set(id, { kind, resolve, reject });
    worker.postMessage({ id, kind, stacks, payouts, ...extra });
  });
}

function compute(stacks, payouts) {
  if (stacks.length < WORKER_FROM_PLAYERS) return Promise.resolve(icm(stacks, payouts));
  return inWorker("icm", stacks, payouts);
}

const BOUNTY_COLUMNS = ["Bounty", "Prize", "Bounty equity", "Total"];

/** A table's column headers. */
function writeHeader(table, columns) {
  document.querySelector(`${table} thead`).innerHTML = `<tr>${columns.map((name) => `<th scope="col">${name}</th>`).join("")}</tr>`;
}

/** {bounties, equity (chip-proportional bounty equity, bounty.js)} of the form's bounties, or null without. */
const bountyPart = ({ stacks, bounties }) => (bounties === null ? null : { bounties, equity: bountyEquity(stacks, bounties) });

/** Player i's money cells: his prize equity (`prize`), and with bounties (`bounty` of bountyPart) his
 * bounty before it and his bounty equity and total after it (the columns BOUNTY_COLUMNS). */
function moneyCells(i, prize, bounty) {
  const prizeCell = `<td class="ev">${money(prize[i])}</td>`;
  if (bounty === null) return prizeCell;
  return `<td>${money(bounty.bounties[i])}</td>${prizeCell}<td class="bounty-ev">${money(bounty.equity[i])}</td>` +
    `<td class="total-ev">${money(prize[i] + bounty.equity[i])}</td>`;
}

/** The sentence naming the bounty model under the method, or nothing without bounties. */
function showBountyModel({ bounties, share }) {
  const line = document.getElementById("icm-bounty-model");
  line.hidden = bounties === null;
  line.textContent = bounties === null ? "" : modelLine(bounties, share);
}

function renderResults(input, result) {
  const { stacks, payouts } = input;
  const shares = chipShares(stacks); // scaled by the largest stack: no Infinity for 1e308 stacks
  const pool = payouts.reduce((a, b) => a + b, 0);
  const bounty = bountyPart(input);
  if (![...shares, ...result.equity, ...(bounty?.equity ?? [])].every(Number.isFinite)) throw new Error("a result is not a finite number; check the stacks and payouts");
  document.getElementById("icm-method").textContent =
    `${stacks.length} players, ${payouts.length} paid, prize pool ${money(pool)}; ${METHODS[result.method] ?? result.method}.`;
  showBountyModel(input);
  // with bounties, the prize-only columns (% of the pool, $ per chip) give way to the bounty columns, as in the CLI
  writeHeader("#icm-table", ["Player", "Stack", "Chips", ...(bounty ? BOUNTY_COLUMNS : ["$EV", "% of pool", "$ / chip ratio"])]);
  document.getElementById("icm-table").classList.toggle("with-bounties", bounty !== null);
  const body = document.querySelector("#icm-table tbody");
  body.replaceChildren(...stacks.map((stack, i) => {
    const row = document.createElement("tr");
    const ratio = shares[i] > 0 && pool > 0 ? (result.equity[i] / pool) / shares[i] : 0;
    row.innerHTML = `<th scope="row">${i + 1}</th><td>${stack.toLocaleString("en-US")}</td><td>${pct(shares[i])}</td>` +
      moneyCells(i, result.equity, bounty) + (bounty ? "" : `<td>${pct(result.equity[i] / pool)}</td><td>${ratio.toFixed(3)}</td>`);
    return row;
  }));
  const paid = Math.min(payouts.length, stacks.length, MAX_PLACE_COLUMNS);
  const shown = Math.min(stacks.length, MAX_PLACE_ROWS);
  const head = document.querySelector("#icm-places thead");
  head.innerHTML = `<tr><th scope="col">Player</th>${Array.from({ length: paid }, (_, r) => `<th scope="col">${ordinal(r + 1)}</th>`).join("")}</tr>`;
  const rows = [];
  for (let i = 0; i < shown; i++) {
    const cells = result.places[i].slice(0, paid).map((p) => {
      const q = Math.min(9, Math.floor(p * 10));
      return `<td class="e${q}">${pct(p, 1)}</td>`;
    });
    rows.push(`<tr><th scope="row">${i + 1}</th>${cells.join("")}</tr>`);
  }
  document.querySelector("#icm-places tbody").innerHTML = rows.join("");
  const table = document.getElementById("icm-places");
  table.querySelector("caption")?.remove();
  if (stacks.length > shown || payouts.length > paid) {
    table.createCaption().textContent = `First ${shown} players and ${paid} places shown.`;
  }
  results.hidden = false;
  renderBubbleFactors(input);
}

/** Players whose rows and columns the matrix shows (0-based): the typed list in #bubble-players, or
 * every player for a small field, or the BUBBLE_SHOWN largest stacks. Null after showing why not. */
function chosenPlayers(stacks) {
  const input = document.getElementById("bubble-players");
  const error = document.getElementById("bubble-players-error");
  error.replaceChildren();
  input.setAttribute("aria-invalid", "false");
  const refuse = (message) => {
    error.replaceChildren(Object.assign(document.createElement("li"), { textContent: message }));
    input.setAttribute("aria-invalid", "true");
    return null;
  };
  if (input.value.trim() === "") {
    if (stacks.length <= BUBBLE_SHOWN) return stacks.map((_, i) => i);
    return stacks.map((stack, i) => [stack, i]).sort((a, b) => b[0] - a[0]).slice(0, BUBBLE_SHOWN).map(([, i]) => i).sort((a, b) => a - b);
  }
  let numbers;
  try { numbers = parseNumberList(input.value, "players"); } catch (e) { return refuse(e.message); }
  const bad = numbers.find((k) => !Number.isInteger(k) || k < 1 || k > stacks.length);
  if (bad !== undefined) return refuse(`players: ${bad} is not a player number (1 to ${stacks.length})`);
  const chosen = [...new Set(numbers.map((k) => k - 1))];
  if (chosen.length < 2) return refuse("players: choose at least two players");
  if (chosen.length > BUBBLE_SHOWN) return refuse(`players: choose at most ${BUBBLE_SHOWN} players`);
  return chosen;
}

let bubbleRequest = 0;
let lastBubble = null; // {key: the field, result: its bubbleFactors}: choosing players recomputes nothing

/** The shade of a bubble factor, lighter where risking chips is cheaper: 1.00 (lightest) to 2.00 in ten
 * steps; with bounties, where a factor can fall below 1, 0.50 to 2.00 on a log scale (1.00 mid-way). */
function factorShade(factor, withBounties) {
  const position = withBounties ? (Math.log2(Math.max(factor, 0.5)) + 1) / 2 : factor - 1;
  return `e${9 - Math.max(0, Math.min(9, Math.round(position * 9)))}`;
}

/** The bubble-factor matrix, computed in the worker (with bounties: of prize + bounty equity): numbers
 * in the cells (readable without colour), shade by size, the required equity and risk premium of a cell
 * under the matrix when it is tapped, clicked or focused (and in its title, for mouse hover).
 * Fields above BUBBLE_SHOWN players show chosen players' rows and columns. */
async function renderBubbleFactors({ stacks, payouts, bounties, share }) {
  const table = document.getElementById("icm-bubble");
  const region = table.closest(".table-scroll"); // hidden while it has no matrix: no empty stop for the keyboard
  const note = document.getElementById("icm-bubble-note");
  const request = ++bubbleRequest;
  document.getElementById("bubble-choose").hidden = stacks.length <= BUBBLE_SHOWN || stacks.length > BUBBLE_MAX_PLAYERS;
  if (stacks.length > BUBBLE_MAX_PLAYERS) {
    region.hidden = true;
    note.textContent = `Bubble factors are computed here for up to ${BUBBLE_MAX_PLAYERS} players (this field has ${stacks.length}); ` +
      "the command line computes them too: allin icm --bubble-factors.";
    return;
  }
  const chosen = chosenPlayers(stacks);
  if (chosen === null) { region.hidden = true; return; }
  const key = `${stacks.join(",")}/${payouts.join(",")}/${bounties?.join(",")}/${share}`;
  document.getElementById("icm-bubble-bounties").hidden = bounties === null;
  if (lastBubble?.key !== key) {
    note.textContent = "Computing bubble factors…";
    try {
      lastBubble = { key, result: await inWorker("bubble", stacks, payouts, { bounties, share }) };
    } catch (error) {
      if (request === bubbleRequest) { region.hidden = true; note.textContent = `Could not compute bubble factors: ${error.message}`; }
      return;
    }
    if (request !== bubbleRequest) return;
  }
  const { result } = lastBubble;
  const { bubbleFactor, requiredEquity, riskPremium } = result;
  const header = chosen.map((j) => `<th scope="col"><span class="vs-word">vs </span>${j + 1}</th>`).join(""); // "vs" read, not shown, on a phone
  table.querySelector("thead").innerHTML = `<tr><th scope="col">Risks</th>${header}</tr>`;
  table.querySelector("tbody").innerHTML = chosen.map((i) => {
    const cells = chosen.map((j) => {
      const factor = bubbleFactor[i][j];
      if (factor === null || !Number.isFinite(factor)) return "<td>–</td>"; // a player against himself: no shade (1.00's would say "chips worth the same")
      const title = `Player ${i + 1} all in against player ${j + 1}: needs ${pct(requiredEquity[i][j], 1)} equity ` +
        `(risk premium ${riskPremium[i][j] >= 0 ? "+" : ""}${(100 * riskPremium[i][j]).toFixed(1)} points)`;
      return `<td class="${factorShade(factor, bounties !== null)}" tabindex="0" title="${title}" data-bf="${factor}" data-detail="${title}">${factor.toFixed(2)}</td>`;
    });
    return `<tr><th scope="row">${i + 1}</th>${cells.join("")}</tr>`;
  }).join("");
  region.hidden = false;
  showBubbleDetail(null);
  note.textContent = chosen.length < stacks.length
    ? `Players ${chosen.map((i) => i + 1).join(", ")} of ${stacks.length} shown${document.getElementById("bubble-players").value.trim() ? "" : " (the largest stacks)"}.`
    : "";
}

const BUBBLE_PROMPT = "Tap, click or focus a number: what the row player needs to call shows here.";

/** Writes the chosen cell's sentence (the equity needed, the risk premium) under the matrix, where a
 * tap, a click or keyboard focus puts it (a title shows on mouse hover only); null: the prompt. */
function showBubbleDetail(cell) {
  const detail = document.getElementById("icm-bubble-detail");
  document.querySelectorAll("#icm-bubble td[aria-current]").forEach((td) => td.removeAttribute("aria-current"));
  if (!cell) { detail.textContent = BUBBLE_PROMPT; return; }
  cell.setAttribute("aria-current", "true");
  detail.textContent = `${cell.dataset.detail}.`;
}

for (const type of ["focusin", "click"]) {
  document.getElementById("icm-bubble").addEventListener(type, (event) => {
    const cell = event.target.closest?.("td[data-detail]");
    if (cell) showBubbleDetail(cell);
  });
}

/** Bands of places for the aggregated heatmap: 1st, 2nd–3rd, 4th–9th, then the paid places in up to
 * three bands ([first, last], 1-based). */
function placeBands(players, paid) {
  const bands = [[1, 1], [2, 3], [4, 9]].filter(([first]) => first <= Math.min(players, paid));
  bands.forEach((band) => { band[1] = Math.min(band[1], paid, players); });
  const rest = paid - 9;
  if (rest > 0) {
    const size = Math.ceil(rest / 3);
    for (let first = 10; first <= paid; first += size) bands.push([first, Math.min(first + size - 1, paid)]);
  }
  return bands;
}

const placeName = ([first, last]) => (first === last ? ordinal(first) : `${ordinal(first)}–${ordinal(last)}`);

/** Players the summary names (0-based): typed in #summary-players, else the largest, the median and the smallest stack. */
function summaryPlayers(stacks) {
  const text = document.getElementById("summary-players").value;
  const error = document.getElementById("summary-players-error");
  error.replaceChildren();
  if (text.trim()) {
    try {
      const numbers = parseNumberList(text, "players");
      const bad = numbers.find((k) => !Number.isInteger(k) || k < 1 || k > stacks.length);
      if (bad === undefined && numbers.length <= 20) return [...new Set(numbers.map((k) => k - 1))];
      throw new Error(bad === undefined ? "players: at most 20" : `players: ${bad} is not a player number (1 to ${stacks.length})`);
    } catch (e) {
      error.replaceChildren(Object.assign(document.createElement("li"), { textContent: e.message }));
    }
  }
  const { order } = bigField.summary;
  return [...new Set([order[0], order[Math.floor(order.length / 2)], order[order.length - 1]])];
}

let bigField = null; // {stacks, payouts, summary, bounty, page}: the last large field, for paging without recomputing

function summaryRow(i) {
  const { stacks, summary, shares, pool, bounty } = bigField;
  const perChip = shares[i] > 0 ? (summary.equity[i] / pool) / shares[i] : 0;
  return `<tr><th scope="row">${i + 1}</th><td>${stacks[i].toLocaleString("en-US")}</td><td>${pct(shares[i])}</td>` +
    `${moneyCells(i, summary.equity, bounty)}<td>${pct(summary.cash[i], 1)}</td>` +
    `<td>${pct(summary.finalTable[i], 1)}</td><td>${summary.finish[i].toFixed(1)}</td>${bounty ? "" : `<td>${perChip.toFixed(3)}</td>`}</tr>`;
}

function renderBigPage() {
  const { stacks, page } = bigField;
  const pages = Math.ceil(stacks.length / PAGE_ROWS);
  const first = page * PAGE_ROWS;
  const rows = [];
  for (let i = first; i < Math.min(first + PAGE_ROWS, stacks.length); i++) rows.push(summaryRow(i));
  document.querySelector("#icm-big-table tbody").innerHTML = rows.join("");
  document.getElementById("icm-page-label").textContent =
    `Players ${first + 1}–${Math.min(first + PAGE_ROWS, stacks.length)} of ${stacks.length.toLocaleString("en-US")} (page ${page + 1} of ${pages})`;
  document.getElementById("icm-prev").disabled = page === 0;
  document.getElementById("icm-next").disabled = page >= pages - 1;
}

/** A large field: the summary of chosen players first, then the paged table and the heatmap of stack
 * groups × bands of places (mean probability in each group). All numbers come from the worker. */
async function renderBigField(input, summary, bands) {
  const { stacks, payouts } = input;
  const shares = chipShares(stacks);
  const pool = payouts.reduce((a, b) => a + b, 0);
  const bounty = bountyPart(input);
  await nextTask();
  const finite = [summary.equity, summary.cash, summary.finalTable, summary.finish, ...summary.bands, bounty?.equity ?? []].every((list) => list.every(Number.isFinite));
  if (!finite || !shares.every(Number.isFinite)) throw new Error("a result is not a finite number; check the stacks and payouts");
  await nextTask();
  bigField = { stacks, payouts, summary, shares, pool, bounty, page: 0 }; // before summaryPlayers, which reads its order
  document.getElementById("icm-method").textContent =
    `${stacks.length.toLocaleString("en-US")} players, ${payouts.length.toLocaleString("en-US")} paid, prize pool ${money(pool)}; ${METHODS[summary.method] ?? summary.method}.`;
  showBountyModel(input);
  const columns = ["Player", "Stack", "Chips", ...(bounty ? BOUNTY_COLUMNS : ["$EV"]), "Cash", "Final table", "Expected finish",
    ...(bounty ? [] : ["$ / chip ratio"])];
  for (const table of ["#icm-summary", "#icm-big-table"]) writeHeader(table, columns);
  document.querySelector("#icm-summary tbody").innerHTML = summaryPlayers(stacks).map(summaryRow).join("");
  renderBigPage();
  await nextTask();
  const names = [...bands.map(placeName), "not paid"];
  document.querySelector("#icm-heatmap thead").innerHTML =
    `<tr><th scope="col">Stacks (rank)</th>${names.map((name) => `<th scope="col">${name}</th>`).join("")}</tr>`;
  document.querySelector("#icm-heatmap tbody").innerHTML = summary.heatmap[0].map(({ first, last }, g) => {
    const label = `${ordinal(first)}–${ordinal(last)} largest`;
    const cells = summary.heatmap.map((column, c) => {
      const { mean } = column[g];
      const q = Math.min(9, Math.floor(mean * 10));
      return `<td class="e${q}" title="${label} stacks: ${pct(mean, 2)} to finish ${names[c]}">${pct(mean, 1)}</td>`;
    });
    return `<tr><th scope="row">${label}</th>${cells.join("")}</tr>`;
  }).join("");
  document.getElementById("icm-small").hidden = true;
  document.getElementById("icm-big").hidden = false;
  results.hidden = false;
  renderBubbleFactors(input);
}

/** The form in the address bar: the stacks, the payouts (with their % signs when typed as percentages),
 * the bounties and the share as typed when there are bounties, and the `players` chosen for the matrix. */
function writeUrl(input, players = "") {
  let url = `?stacks=${input.stacks.join(",")}&payouts=${encodeURIComponent(input.payouts.map((p) => `${p}${payoutsInPercent ? "%" : ""}`).join(","))}`;
  if (input.bounties !== null) {
    url += `&bounties=${input.bounties.join(",")}`;
    if (fields.share.value.trim()) url += `&share=${encodeURIComponent(fields.share.value.trim())}`;
  }
  if (players) url += `&players=${encodeURIComponent(players.split(/[\s,;]+/).filter(Boolean).join(","))}`;
  history.replaceState(null, "", url);
}

async function run() {
  const run = ++runs;
  document.getElementById("icm-progress").textContent = ""; // an older run's "Computing …" ends with it
  const input = await validate(run);
  if (run !== runs) return;
  if (!input) { results.hidden = true; return; }
  if (input.stacks.length > MAX_PLACE_ROWS) {
    await nextTask();
    if (run !== runs) return;
    writeUrl(input);
    const bands = placeBands(input.stacks.length, input.payouts.length);
    document.getElementById("icm-progress").textContent = `Computing ${input.stacks.length.toLocaleString("en-US")} players…`;
    try {
      const summary = await inWorker("summary", input.stacks, input.payouts, { bands, groups: HEATMAP_GROUPS });
      if (run !== runs) return;
      await renderBigField(input, summary, bands);
      document.getElementById("icm-progress").textContent = "";
    } catch (error) {
      if (run !== runs) return;
      document.getElementById("icm-progress").textContent = "";
      showErrors({ form: [`Could not compute: ${error.message}`] });
      results.hidden = true;
    }
    return;
  }
  document.getElementById("icm-small").hidden = false;
  document.getElementById("icm-big").hidden = true;
  writeUrl(input, document.getElementById("bubble-players").value.trim());
  try {
    const answer = await compute(input.stacks, input.payouts);
    if (run === runs) renderResults(input, answer);
  } catch (error) {
    if (run !== runs) return;
    showErrors({ form: [`Could not compute: ${error.message}`] });
    results.hidden = true;
  }
}

/** Example stacks for n players: decreasing, averaging 1,000 chips (edit them). */
function exampleStacks(n) {
  return Array.from({ length: n }, (_, i) => Math.round((2000 * (n - i)) / (n + 1)));
}

function applyPreset(preset) {
  fields.payouts.value = preset.payouts.join(", ");
  let current = 0;
  try { current = parseNumberList(fields.stacks.value, "stacks").length; } catch { current = 0; }
  if (preset.players && preset.players !== current) fields.stacks.value = exampleStacks(preset.players).join(", ");
}

function restoreFromUrl() {
  const params = new URLSearchParams(location.search);
  if (params.has("stacks")) fields.stacks.value = params.get("stacks").split(",").join(", ");
  if (params.has("payouts")) fields.payouts.value = params.get("payouts").split(",").join(", ");
  if (params.has("bounties")) fields.bounties.value = params.get("bounties").split(",").join(", ");
  if (params.has("share")) fields.share.value = params.get("share");
  if (params.has("players")) document.getElementById("bubble-players").value = params.get("players").split(",").join(", ");
}

let timer = null;
form.addEventListener("input", (e) => {
  if (e.target.id === "preset") return;
  document.getElementById("preset").value = "";
  clearTimeout(timer);
  timer = setTimeout(run, 300);
});
document.getElementById("bubble-players").addEventListener("input", () => {
  clearTimeout(timer);
  timer = setTimeout(run, 300);
});
document.getElementById("icm-prev").addEventListener("click", () => { bigField.page -= 1; renderBigPage(); });
document.getElementById("icm-next").addEventListener("click", () => { bigField.page += 1; renderBigPage(); });
document.getElementById("summary-players").addEventListener("input", () => {
  if (bigField) document.querySelector("#icm-summary tbody").innerHTML = summaryPlayers(bigField.stacks).map(summaryRow).join("");
});
form.addEventListener("submit", (e) => { e.preventDefault(); clearTimeout(timer); run(); });
document.getElementById("preset").addEventListener("change", (e) => {
  if (e.target.value === "") return;
  applyPreset(presets[Number(e.target.value)]);
  run();
});
restoreFromUrl();
run();

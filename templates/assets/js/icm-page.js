// ICM calculator page: parse the form, show every invalid field inline, compute with icm.js
// (in a Web Worker for large fields so the page never freezes), keep the state in the URL.

import { icm, validateField } from "./icm.js";

const WORKER_FROM_PLAYERS = 40;
const MAX_PLACE_ROWS = 200;
const MAX_PLACE_COLUMNS = 20;
const METHODS = { dp: "exact recursion over subsets of players", integral: "one integral per player and place" };
const money = (x) => x.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const pct = (x, digits = 2) => `${(100 * x).toFixed(digits)}%`;
const SUFFIX = { 1: "st", 2: "nd", 3: "rd" };
const ordinal = (n) => `${n}${(n % 100 > 10 && n % 100 < 14) ? "th" : SUFFIX[n % 10] || "th"}`;

const form = document.getElementById("icm-form");
const fields = { stacks: form.elements.stacks, payouts: form.elements.payouts };
const errors = {
  stacks: document.getElementById("stacks-error"),
  payouts: document.getElementById("payouts-error"),
  form: document.getElementById("form-error"),
};
const results = document.getElementById("icm-results");
const presets = JSON.parse(document.getElementById("icm-presets").textContent);
let worker = null;
let pending = 0;

/** "500, 300\n200" → ["500", "300", "200"] (icm.js validates the entries). */
const entries = (text) => text.split(/[\s,;]+/).filter(Boolean);

function showErrors(byField) {
  for (const [name, list] of Object.entries(errors)) {
    const messages = byField[name] || [];
    list.replaceChildren(...messages.map((m) => Object.assign(document.createElement("li"), { textContent: m })));
    if (fields[name]) fields[name].setAttribute("aria-invalid", messages.length ? "true" : "false");
  }
  return Object.values(byField).some((m) => m.length);
}

function validate() {
  const stacks = entries(fields.stacks.value);
  const payouts = entries(fields.payouts.value);
  const byField = { stacks: [], payouts: [], form: [] };
  for (const error of validateField(stacks, payouts)) (byField[error.field] ?? byField.form).push(error.message);
  return showErrors(byField) ? null : { stacks: stacks.map(Number), payouts: payouts.map(Number) };
}

function compute(stacks, payouts) {
  if (stacks.length < WORKER_FROM_PLAYERS) return Promise.resolve(icm(stacks, payouts));
  worker ??= new Worker(form.dataset.worker, { type: "module" });
  const id = ++pending;
  return new Promise((resolve, reject) => {
    worker.onmessage = (e) => { if (e.data.id === id) (e.data.error ? reject(new Error(e.data.error)) : resolve(e.data.result)); };
    worker.onerror = (e) => reject(new Error(e.message));
    worker.postMessage({ id, stacks, payouts });
  });
}

function renderResults({ stacks, payouts }, result) {
  const chips = stacks.reduce((a, b) => a + b, 0);
  const pool = payouts.reduce((a, b) => a + b, 0);
  document.getElementById("icm-method").textContent =
    `${stacks.length} players, ${payouts.length} paid, prize pool ${money(pool)}; ${METHODS[result.method] ?? result.method}.`;
  const body = document.querySelector("#icm-table tbody");
  body.replaceChildren(...stacks.map((stack, i) => {
    const row = document.createElement("tr");
    const ratio = stack > 0 ? (result.equity[i] / pool) / (stack / chips) : 0;
    row.innerHTML = `<th scope="row">${i + 1}</th><td>${stack.toLocaleString("en-US")}</td><td>${pct(stack / chips)}</td>` +
      `<td class="ev">${money(result.equity[i])}</td><td>${pct(result.equity[i] / pool)}</td><td>${ratio.toFixed(3)}</td>`;
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
      return `<td class="e${q}${q >= 6 ? " light" : ""}">${pct(p, 1)}</td>`;
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
}

async function run() {
  const input = validate();
  if (!input) { results.hidden = true; return; }
  const url = `?stacks=${input.stacks.join(",")}&payouts=${input.payouts.join(",")}`;
  history.replaceState(null, "", url);
  try {
    renderResults(input, await compute(input.stacks, input.payouts));
  } catch (error) {
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
  const current = entries(fields.stacks.value).length;
  if (preset.players && preset.players !== current) fields.stacks.value = exampleStacks(preset.players).join(", ");
}

function restoreFromUrl() {
  const params = new URLSearchParams(location.search);
  if (params.has("stacks")) fields.stacks.value = params.get("stacks").split(",").join(", ");
  if (params.has("payouts")) fields.payouts.value = params.get("payouts").split(",").join(", ");
}

let timer = null;
form.addEventListener("input", (e) => {
  if (e.target.id === "preset") return;
  document.getElementById("preset").value = "";
  clearTimeout(timer);
  timer = setTimeout(run, 300);
});
form.addEventListener("submit", (e) => { e.preventDefault(); clearTimeout(timer); run(); });
document.getElementById("preset").addEventListener("change", (e) => {
  if (e.target.value === "") return;
  applyPreset(presets[Number(e.target.value)]);
  run();
});
restoreFromUrl();
run();

// Matchup explorer: the exact heads-up result of one hand against another. Class against class is
// looked up in matchups.bin (the compact twin of matchups.json, fetched at the first such question);
// as soon as a hand is two exact cards (AsKs), every board of every card-compatible combo pair is
// enumerated by evaluator.js in matchup-worker.js, with a progress bar after 300 ms.
// The two hands live in the URL (?a=AsKs&b=QQ) so a result can be shared.

import { BOARDS_PER_MATCHUP, comboPairs, conflict, parseHand } from "../engines/evaluator.js";
import { classIndex, parseMatchupTable } from "../engines/matchup-table.js";

const pct = (x, digits = 2) => `${(100 * x).toFixed(digits)}%`;
const count = (n) => n.toLocaleString("en-US");
const TYPING_PAUSE_MS = 300;
const PROGRESS_AFTER_MS = 300;

const form = document.getElementById("matchup-form");
const out = document.getElementById("matchup-result");
const errorLine = document.getElementById("matchup-error");
const inputs = form ? [form.elements.a, form.elements.b] : [];
let matchupsData = null; // promise of the class table (matchups.bin), fetched when first needed
let worker = null; // the running enumeration: {thread, cancel}
let requestId = 0;
let typingTimer = 0;
let shownQuestion = null; // the two hands of the result on screen (or being computed)

function loadMatchups() {
  matchupsData ??= fetch(form.dataset.source).then(async (response) => {
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    return parseMatchupTable(await response.arrayBuffer());
  });
  matchupsData.catch(() => { matchupsData = null; }); // asking again retries
  return matchupsData;
}

/** {win, tie, loss, pairs, equity, equityB} of class a against class b from the class table. */
function classResult(m, a, b) {
  const [i, j] = [classIndex(a.name), classIndex(b.name)];
  return { win: m.win[i][j], tie: m.tie[i][j], loss: m.loss[i][j], pairs: m.pairs[i][j], equity: m.equity[i][j], equityB: m.equity[j][i] };
}

/** Counts from the worker with the two equities as exact fractions of the boards. */
function enumeratedResult({ win, tie, loss, pairs }) {
  const total = win + tie + loss;
  return { win, tie, loss, pairs, equity: (win + tie / 2) / total, equityB: (loss + tie / 2) / total };
}

function resultHtml(a, b, r, source) {
  const total = r.win + r.tie + r.loss;
  // The same name on both sides (AKs against AKs): say which hand, first or second, each line is about.
  const same = a.name === b.name;
  const [nameA, nameB] = same ? [`First ${a.name}`, `Second ${b.name}`] : [a.name, b.name];
  const link = (hand, name) => `<a href="${form.dataset.hands}${hand.className}/index.html">${name}</a>`;
  return `
    <div class="versus">
      <div><p>${link(a, nameA)} equity</p><p class="big" data-equity="${r.equity}">${pct(r.equity)}</p></div>
      <div><p>${link(b, nameB)} equity</p><p class="big">${pct(r.equityB)}</p></div>
    </div>
    <div class="split" aria-hidden="true"><i class="w" style="width:${(100 * r.win) / total}%"></i><i class="t" style="width:${(100 * r.tie) / total}%"></i></div>
    <table class="data">
      <thead><tr><th scope="col">${a.name} against ${b.name}</th><th scope="col">Boards</th><th scope="col">Share</th></tr></thead>
      <tbody>
        <tr><th scope="row">${nameA} wins</th><td class="win">${count(r.win)}</td><td>${pct(r.win / total)}</td></tr>
        <tr><th scope="row">Tie (split pot)</th><td class="tie">${count(r.tie)}</td><td>${pct(r.tie / total)}</td></tr>
        <tr><th scope="row">${nameB} wins</th><td class="loss">${count(r.loss)}</td><td>${pct(r.loss / total)}</td></tr>
        <tr><th scope="row">All</th><td class="total">${count(total)}</td><td>${count(r.pairs)} combo pair${r.pairs === 1 ? "" : "s"} × ${count(BOARDS_PER_MATCHUP)} boards</td></tr>
      </tbody>
    </table>
    <p class="method">${source}</p>`;
}

function showError(message, invalid) {
  errorLine.textContent = message;
  inputs.forEach((input, k) => input.setAttribute("aria-invalid", invalid[k] ? "true" : "false"));
}

function stopWorker() {
  worker?.thread.terminate();
  worker?.cancel();
  worker = null;
}

/** Enumerate in a fresh worker; `onProgress(fraction)` while it runs. Resolves to the summed counts. */
function enumerate(a, b, onProgress) {
  stopWorker(); // a newer question replaces a running one
  const tablesUrl = new URL(form.dataset.tables, location.href).href;
  return new Promise((resolve, reject) => {
    const thread = new Worker(form.dataset.worker, { type: "module" });
    worker = { thread, cancel: () => reject(new Error("cancelled")) };
    thread.onmessage = ({ data }) => {
      if (data.progress !== undefined) onProgress(data.progress);
      else if (data.error) reject(new Error(data.error));
      else resolve(data.result);
    };
    thread.onerror = (e) => reject(new Error(e.message || "the worker could not start"));
    thread.postMessage({ tablesUrl, combosA: a.combos, combosB: b.combos });
  });
}

function showProgress(boards, fraction) {
  out.innerHTML = `<p class="note">Enumerating ${count(boards)} boards in your browser… <span class="done">${pct(fraction, 0)}</span></p>
    <progress class="matchup-progress" max="1" value="${fraction}"></progress>`;
}

function updateProgress(fraction) {
  const bar = out.querySelector(".matchup-progress");
  if (!bar) return;
  bar.value = fraction;
  out.querySelector(".done").textContent = pct(fraction, 0);
}

async function combosResultHtml(a, b, id) {
  const boards = comboPairs(a.combos, b.combos).length * BOARDS_PER_MATCHUP;
  let fraction = 0;
  const progressTimer = setTimeout(() => { if (id === requestId) showProgress(boards, fraction); }, PROGRESS_AFTER_MS);
  try {
    const counts = await enumerate(a, b, (f) => {
      fraction = f;
      if (id === requestId) updateProgress(f);
    });
    return resultHtml(a, b, enumeratedResult(counts), `Enumerated in your browser in ${(counts.ms / 1000).toFixed(2)} s.`);
  } finally {
    clearTimeout(progressTimer);
  }
}

async function show() {
  const [a, b] = inputs.map((input) => parseHand(input.value));
  const question = inputs.map((input, k) => [a, b][k].name ?? input.value.trim());
  if (question.join(" ") === shownQuestion) return; // e.g. the change event after typing
  shownQuestion = question.join(" ");
  const id = ++requestId;
  history.replaceState(null, "", `?a=${encodeURIComponent(question[0])}&b=${encodeURIComponent(question[1])}`);

  const clash = a.error || b.error ? null : conflict(a, b);
  showError(a.error || b.error || clash || "", clash ? [true, true] : [Boolean(a.error), Boolean(b.error)]);
  if (a.error || b.error || clash) {
    stopWorker();
    out.replaceChildren();
    out.removeAttribute("aria-busy");
    return;
  }
  out.setAttribute("aria-busy", "true");
  try {
    let html;
    if (a.kind === "class" && b.kind === "class") {
      stopWorker();
      html = resultHtml(a, b, classResult(await loadMatchups(), a, b), "From the precomputed class table (matchups.json).");
    } else {
      html = await combosResultHtml(a, b, id);
    }
    if (id === requestId) out.innerHTML = html;
  } catch (error) {
    if (id === requestId) {
      shownQuestion = null; // asking again retries
      out.innerHTML = `<p class="notice">Could not compute this matchup (${error.message}). The explorer needs the site served over http (allin serve): pages opened from disk cannot load data files or start workers.</p>`;
    }
  } finally {
    if (id === requestId) out.removeAttribute("aria-busy");
  }
}

function main() {
  if (!form) return;
  const params = new URLSearchParams(location.search);
  inputs.forEach((input) => { if (params.get(input.name)) input.value = params.get(input.name); });
  form.addEventListener("input", () => {
    clearTimeout(typingTimer);
    typingTimer = setTimeout(show, TYPING_PAUSE_MS);
  });
  form.addEventListener("change", () => { clearTimeout(typingTimer); show(); });
  form.addEventListener("submit", (e) => { e.preventDefault(); clearTimeout(typingTimer); show(); });
  document.getElementById("swap").addEventListener("click", () => {
    [inputs[0].value, inputs[1].value] = [inputs[1].value, inputs[0].value];
    show();
  });
  show();
}

main();

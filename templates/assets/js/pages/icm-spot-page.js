// ICM call-or-fold page: read the table, run icm-spot.js in the ICM worker (the main thread only
// parses and renders), show the verdict and a 13×13 chart of the EV difference; state in the URL.
// With bounties (KO/PKO) the verdict shows the ICM and the bounty parts of the EV apart, as the CLI does.
import { bountyErrors } from "../engines/bounty.js";
import { modelLine, readBounties } from "../widgets/bounty-fields.js";
import { parseNumber, parseNumberList, parsePayouts, validateField } from "../engines/icm.js";
import { heroAverage, spotFields } from "../engines/icm-spot.js";
import { gainShort } from "../widgets/cell-figures.js";

const form = document.getElementById("spot-form");
const results = document.getElementById("spot-results");
const ERROR_LISTS = ["stacks", "payouts", "table", "range", "hand", "bounties", "share", "form"];
const INPUT_LISTS = ["stacks", "payouts", "range", "hand", "bounties", "share"]; // error lists of one input each
const LIST_FIELDS = ["stacks", "bounties"]; // typed lists, kept in the URL as numbers
const NUMBER_FIELDS = { sb: "small blind", bb: "big blind", ante: "ante", "bb-ante": "big-blind ante" };
const PLAYER_FIELDS = { shover: "shover", caller: "caller", "sb-player": "small blind player", "bb-player": "big blind player" };
/** A page-relative URL made absolute: the worker resolves relative URLs against its own script, not the page. */
const absolute = (path) => new URL(path, location.href).href;
const URL_KEYS = { stacks: "stacks", payouts: "payouts", sb: "sb", bb: "bb", ante: "ante", "bb-ante": "bbante", shover: "shover",
  caller: "caller", "sb-player": "sbp", "bb-player": "bbp", range: "range", hand: "hand", bounties: "bounties", share: "share" };
const pct = (x, digits = 2) => `${(100 * x).toFixed(digits)}%`;
const signed = (x, digits) => `${x >= 0 ? "+" : "−"}${Math.abs(x).toFixed(digits)}`;
const amount = (x) => x.toLocaleString("en-US", { maximumFractionDigits: 4 });
const input = (id) => document.getElementById(id);
const side = () => form.elements.side.value;

let worker = null;
let latest = 0;

function showErrors(byList) {
  for (const name of ERROR_LISTS) {
    const messages = byList[name] || [];
    input(`${name}-error`).replaceChildren(...messages.map((m) => Object.assign(document.createElement("li"), { textContent: m })));
  }
  for (const id of INPUT_LISTS) input(id).setAttribute("aria-invalid", byList[id]?.length ? "true" : "false");
  return Object.values(byList).some((list) => list.length);
}

/** {request: the form as numbers and text, or null after showing every problem found on this thread;
 * byList: those problems}. The range and hand are read in the worker (a % range needs the ranking). */
function readForm() {
  const byList = { stacks: [], payouts: [], table: [], range: [], hand: [], bounties: [], share: [], form: [] };
  const list = (id) => {
    try {
      return id === "payouts" ? parsePayouts(input(id).value, id) : { values: parseNumberList(input(id).value, id), percent: false };
    } catch (error) { byList[id].push(error.message); return { values: null, percent: false }; }
  };
  const stacks = list("stacks").values;
  const { values: payouts, percent } = list("payouts");
  const { bounties, share, errors: bountyReading } = readBounties(input("bounties").value, input("share").value, percent);
  for (const error of bountyReading) byList[error.field].push(error.message);
  input("spot-count").textContent = `Read as ${stacks ? `${stacks.length} player${stacks.length === 1 ? "" : "s"}` : "stacks not read"}, ` +
    `${payouts ? `${payouts.length} paid` : "payouts not read"}.`;
  if (stacks && payouts) {
    for (const error of validateField(stacks, payouts)) byList[error.field]?.push(error.message);
    if (!byList.payouts.length && !Number.isFinite(payouts.reduce((a, b) => a + b, 0))) {
      byList.payouts.push("payouts: the prize pool adds up to more than 1.8e308; give the prizes in a larger unit");
    }
  }
  const numbers = {};
  for (const [id, name] of Object.entries(NUMBER_FIELDS)) {
    const text = input(id).value.trim() || "0";
    try {
      const value = parseNumber(text, name); // "1,000" is a thousand here: one number, not a list
      if (value < 0) throw new Error(`${name}: must be >= 0`);
      numbers[id] = value;
    } catch (error) { byList.table.push(error.message); }
  }
  const players = {};
  for (const [id, name] of Object.entries(PLAYER_FIELDS)) {
    const text = input(id).value.trim();
    if (!text && (id === "sb-player" || id === "bb-player")) { players[id] = null; continue; }
    const k = Number(text);
    if (!Number.isInteger(k) || k < 1 || (stacks && k > stacks.length)) {
      byList.table.push(`${name}: "${text}" is not a player number${stacks ? ` (1 to ${stacks.length})` : ""}`);
    } else players[id] = k - 1;
  }
  if (stacks && bounties && !byList.stacks.length) {
    for (const error of bountyErrors(stacks, bounties)) byList[error.field].push(error.message);
  }
  if (!input("range").value.trim()) byList.range.push("range: give the opponent's range (22+, A2s+ or 20%)");
  const spot = { smallBlind: numbers.sb, bigBlind: numbers.bb, ante: numbers.ante, bigBlindAnte: numbers["bb-ante"],
    shover: players.shover, caller: players.caller, smallBlindPlayer: players["sb-player"], bigBlindPlayer: players["bb-player"] };
  if (stacks && !byList.stacks.length && !byList.table.length) {
    try { // who posts and who plays (the shover is not the caller, …): found here, with the other problems
      spotFields(stacks, { ...spot, smallBlindPlayer: spot.smallBlindPlayer ?? spot.shover, bigBlindPlayer: spot.bigBlindPlayer ?? spot.caller });
    } catch (error) { byList.form.push(error.message); }
  }
  const request = showErrors(byList) ? null
    : { side: side(), stacks, payouts, range: input("range").value, hand: input("hand").value, spot, bounties, share };
  return { request, byList };
}

function compute(request) {
  worker ??= new Worker(form.dataset.worker, { type: "module" });
  const id = ++latest;
  return new Promise((resolve, reject) => {
    worker.onmessage = (e) => {
      if (e.data.id !== latest) return; // superseded
      if (e.data.error) reject(Object.assign(new Error(e.data.error), { field: e.data.field, fields: e.data.fields }));
      else resolve(e.data.result);
    };
    worker.onerror = (e) => reject(new Error(e.message));
    worker.postMessage({ id, kind: "spot", ...request, matchupsUrl: absolute(form.dataset.matchups), headsupUrl: absolute(form.dataset.headsup) });
  });
}

const CLASS_NAME = (index) => document.querySelector(`#spot-chart a[data-i="${index}"] b`).textContent;

/** The hero's hand (one class) or range (heroAverage: combo-weighted) with a name to show. */
function heroSummary(answer) {
  const hero = heroAverage(answer.hands, answer.hero.weights);
  const name = hero.classes.length === 1 ? CLASS_NAME(hero.classes[0])
    : `${input("hand").value.trim()} (average over ${Math.round(hero.combos * 100) / 100} combos)`;
  return { ...hero, name };
}

function paragraph(text, className = "") {
  return Object.assign(document.createElement("p"), { textContent: text, className });
}

/** With bounties, the hero's bounty equity by outcome (`labels`: outcome -> its name), naming whom his
 * win knocks out, as the CLI's line; else nothing. */
function bountyEquityLines(request, answer, hero, victim, labels) {
  if (request.bounties === null) return [];
  const parts = Object.entries(labels).map(([outcome, label]) => {
    const knocked = outcome === "win" && answer.fields.win[victim] === 0;
    return `${label} ${amount(answer.bounty[outcome])}${knocked ? ` (knocking out player ${victim + 1})` : ""}`;
  });
  return [paragraph(`Bounty equity of player ${hero + 1}: ${parts.join(", ")}.`)];
}

function render(request, answer) {
  const shover = request.spot.shover + 1, caller = request.spot.caller + 1;
  const e = answer.equity;
  const withBounties = request.bounties !== null;
  const pool = withBounties ? "the prize pool" : "the pool"; // the EV's unit: the payouts, bounties not included
  const lines = withBounties ? [paragraph(modelLine(request.bounties, request.share))] : [];
  const numbersShown = [...Object.values(e), ...Object.values(answer.bounty), ...Object.values(answer.chips),
    ...answer.hands.flatMap((h) => [h.ev, h.evIcm])];
  if (!numbersShown.every(Number.isFinite)) throw new Error("a result is not a finite number; check the stacks, blinds and payouts");
  const rangeText = `${request.range.trim()} (${answer.rangeCombos} combos)`;
  if (answer.side === "call") {
    lines.push(paragraph(`Player ${shover} shoves ${rangeText}; player ${caller} calls or folds (fold: ${amount(answer.chips.fold)} chips, call and win: ${amount(answer.chips.win)}, call and lose: ${amount(answer.chips.lose)}).`));
    lines.push(paragraph(withBounties
      ? `Equity needed to call: ${pct(answer.requiredTotal)} with bounties (${pct(answer.requiredIcm)} under ICM alone), ${pct(answer.requiredChips)} in chips.`
      : `Equity needed to call: ${pct(answer.requiredIcm)} under ICM, ${pct(answer.requiredChips)} in chips (ICM adds ${signed(100 * (answer.requiredIcm - answer.requiredChips), 2)} points).`, "big-line"));
    lines.push(paragraph(`ICM equity of player ${caller}: fold ${amount(e.fold)}, call and win ${amount(e.win)}, tie ${amount(e.tie)}, lose ${amount(e.lose)} (prize pool ${amount(answer.pool)}).`));
    lines.push(...bountyEquityLines(request, answer, request.spot.caller, request.spot.shover,
      { fold: "fold", win: "call and win", tie: "tie", lose: "lose" }));
  } else {
    lines.push(paragraph(`Player ${shover} shoves or folds; player ${caller} calls with ${rangeText}.`));
    lines.push(paragraph(`ICM equity of player ${shover}: fold ${amount(e.fold)}, steal the blinds ${amount(e.steal)}, called and win ${amount(e.win)}, tie ${amount(e.tie)}, lose ${amount(e.lose)} (prize pool ${amount(answer.pool)}).`));
    lines.push(...bountyEquityLines(request, answer, request.spot.shover, request.spot.caller,
      { fold: "fold", steal: "steal the blinds", win: "called and win", tie: "tie", lose: "lose" }));
  }
  if (answer.hero) {
    const hero = heroSummary(answer);
    const action = answer.side === "call" ? "call" : "shove";
    const equity = hero.win + hero.tie / 2;
    lines.push(paragraph(answer.side === "call"
      ? `${hero.name} against ${rangeText}: equity ${pct(equity)} (win ${pct(hero.win)}, tie ${pct(hero.tie)}).`
      : `${hero.name}: called ${pct(hero.call)} of the time; equity when called ${pct(equity)} (win ${pct(hero.win)}, tie ${pct(hero.tie)}).`));
    const parts = withBounties ? ` (ICM ${signed(hero.evIcm, 4)}, bounties ${signed(hero.ev - hero.evIcm, 4)})` : "";
    const verdict = paragraph(`EV(${action}) − EV(fold) = ${signed(hero.ev, 4)} (${signed(100 * hero.ev / answer.pool, 3)}% of ${pool}): ${hero.ev > 0 ? action : "fold"}${parts}.`, "verdict");
    verdict.id = "spot-verdict";
    lines.push(verdict);
  }
  input("spot-summary").replaceChildren(...lines);
  const action = answer.side === "call" ? "call" : "shove";
  input("chart-title").textContent = answer.side === "call" ? "Every hand: call or fold" : "Every hand: shove or fold";
  const what = `EV(${action}) − EV(fold)${withBounties ? " with bounties" : ""}`;
  input("chart-help").textContent = `Each cell: ${what} in % of the prize pool. Positive (+, dark): ${action}; negative (−, light): fold.`;
  for (const link of input("spot-chart").querySelectorAll("a[data-i]")) {
    const i = Number(link.dataset.i);
    const share = answer.hands[i].ev / answer.pool;
    const name = link.querySelector("b").textContent;
    link.querySelector(".v-ev").textContent = signed(100 * share, 2);
    link.querySelector(".v-short").textContent = gainShort(100 * share);
    // the name read out: the hidden words (the cell's visible figures are aria-hidden, shorter on a phone)
    link.querySelector(".visually-hidden").textContent = `${name} ${signed(100 * share, 2)}: ${what} in % of ${pool}, ${share > 0 ? action : "fold"}`;
    link.title = link.querySelector(".visually-hidden").textContent;
    link.dataset.ev = String(answer.hands[i].ev);
    link.parentElement.className = `cell ${share > 0 ? "e1 plays" : "e8"}`;
  }
  results.hidden = false;
}

function writeUrl() {
  const params = new URLSearchParams({ side: side() });
  for (const [id, key] of Object.entries(URL_KEYS)) {
    const value = input(id).value.trim();
    if (value) params.set(key, LIST_FIELDS.includes(id) ? parseNumberList(value, id).join(",") : value);
  }
  history.replaceState(null, "", `?${params}`);
}

function restoreFromUrl() {
  const params = new URLSearchParams(location.search);
  if (params.get("side") === "shove") input("side-shove").checked = true;
  for (const [id, key] of Object.entries(URL_KEYS)) {
    if (!params.has(key)) continue;
    input(id).value = LIST_FIELDS.includes(id) ? params.get(key).split(",").join(", ") : params.get(key);
  }
}

function labelSide() {
  input("range-label").textContent = side() === "call" ? "The shover's range" : "The caller's calling range";
}

async function run() {
  labelSide();
  const { request, byList } = readForm();
  if (request) writeUrl();
  else results.hidden = true;
  const mine = latest + 1;
  try {
    // With other problems the worker still reads the range and hand, so that every problem shows at once.
    const answer = await compute(request ?? { range: input("range").value, hand: input("hand").value, check: true });
    if (mine === latest && request) render(request, answer);
  } catch (error) {
    if (mine !== latest) return;
    for (const { field, message } of error.fields ?? [{ field: error.field, message: error.message }]) {
      const list = ["range", "hand", "bounties"].includes(field) ? field : "form"; // bounties: one all in for an ante
      byList[list].push(list === "form" ? `Could not compute: ${message}` : message);
    }
    showErrors(byList);
    results.hidden = true;
  }
}

let timer = null;
form.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(run, 300); });
form.addEventListener("change", (e) => { if (e.target.name === "side") { clearTimeout(timer); run(); } });
form.addEventListener("submit", (e) => { e.preventDefault(); clearTimeout(timer); run(); });
restoreFromUrl();
run();

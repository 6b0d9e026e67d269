// The 13×13 equity chart: tooltip on hover / focus / tap (keyboard moves: grid-nav.js), the
// Show (equity / rank) and View (grid / table) choices kept in the URL and across player counts,
// and, when served from this machine (allin serve) while `allin compute multiway` runs, live
// numbers from its latest checkpoint.
// The HTML already holds every number; this module only enhances it.

import "../widgets/grid-nav.js";
import { CHART_BUCKETS as BUCKETS, Z_975 } from "../engines/constants.js";

const POLL_MS = 4000;
const pct = (x, digits = 1) => `${(100 * x).toFixed(digits)}%`;
const count = (n) => n.toLocaleString("en-US");

// Same rules as generator/site/charts.py (bucket, rank_bucket, cell_label).
const bucket = (v, lo, hi) => (hi <= lo ? BUCKETS - 1 : Math.max(0, Math.min(BUCKETS - 1, Math.floor(((v - lo) / (hi - lo)) * BUCKETS))));
const rankBucket = (rank, n) => Math.floor(((n - rank) * BUCKETS) / n);

function ci(t, i) {
  const half = Z_975 * t.se_equity[i];
  return [t.equity[i] - half, t.equity[i] + half];
}

function cellLabel(t, i) {
  const [lo, hi] = ci(t, i);
  const precision = t.exact ? "exact" : `95% CI ${pct(lo, 2)} to ${pct(hi, 2)}, ${count(t.samples[i])} samples`;
  return `${t.classes[i]}, ${t.players} players: equity ${pct(t.equity[i], 2)} (${precision}); ` +
    `win ${pct(t.win[i])}, tie ${pct(t.tie[i])}, lose ${pct(t.loss[i])}; rank ${t.rank[i]} of ${t.classes.length}`;
}

function ranks(equity) {
  const order = equity.map((e, i) => i).sort((a, b) => equity[b] - equity[a] || a - b);
  const rank = new Array(equity.length);
  order.forEach((index, position) => { rank[index] = position + 1; });
  return rank;
}

function tableFromMultiway(json, players) {
  const block = json.by_players && json.by_players[String(players)];
  if (!block) return null;
  return { ...block, players, exact: false, classes: json.classes, rank: ranks(block.equity) };
}

function tooltipHtml(t, i, href) {
  const [lo, hi] = ci(t, i);
  const rows = [
    ["Equity", pct(t.equity[i], 2)],
    ["95% CI", t.exact ? "exact" : `${pct(lo, 2)} – ${pct(hi, 2)}`],
    ["Win", pct(t.win[i], 2)],
  ];
  t.tie_k[i].forEach((p, k) => { if (p > 0) rows.push([`${k + 2}-way tie`, pct(p, 2)]); });
  rows.push(["Lose", pct(t.loss[i], 2)], ["Rank", `${t.rank[i]} of ${t.classes.length}`],
    [t.exact ? "Showdowns" : "Samples", count(t.samples[i])]);
  const list = rows.map(([k, v]) => `<dt>${k}</dt><dd>${v}</dd>`).join("");
  return `<h3>${t.classes[i]} · ${t.players} players</h3><dl>${list}</dl><a href="${href}">${t.classes[i]} page →</a>`;
}

class Chart {
  constructor(root) {
    this.root = root;
    this.tip = root.querySelector("#tip");
    this.links = [...root.querySelectorAll("a[data-i]")];
    const payload = JSON.parse(document.getElementById("chart-data").textContent);
    this.players = payload.players;
    this.generated = payload.generated;
    this.table = payload.table;
    this.active = null;
    this.running = false; // a multiway run is live (data/multiway-live.json)
    this.stale = false; // the last multiway.json download was older than announced
    this.listen();
  }

  listen() {
    const grid = this.root.querySelector(".grid");
    grid.addEventListener("pointerover", (e) => { const a = e.target.closest("a[data-i]"); if (a && e.pointerType === "mouse") this.show(a); });
    // The tip touches its cell and lies inside the chart, so the pointer can move onto its link.
    this.root.addEventListener("pointerleave", (e) => { if (e.pointerType === "mouse") this.hide(); });
    grid.addEventListener("focusin", (e) => { const a = e.target.closest("a[data-i]"); if (a) this.show(a); });
    // A first tap on a touch screen shows the detail; a second tap on the same cell follows the link.
    // (Remember what was shown before the tap: the tap's own focus event shows the cell too.)
    grid.addEventListener("pointerdown", (e) => { this.touch = e.pointerType !== "mouse"; this.shownBeforeTap = this.active; });
    grid.addEventListener("click", (e) => {
      const a = e.target.closest("a[data-i]");
      if (a && this.touch && this.shownBeforeTap !== a) { e.preventDefault(); this.show(a); }
    });
    document.addEventListener("keydown", (e) => { if (e.key === "Escape") this.hide(); });
    document.addEventListener("pointerdown", (e) => { if (!this.root.contains(e.target)) this.hide(); });
  }

  show(a) {
    if (!this.table) return;
    if (this.active) this.active.classList.remove("active");
    this.active = a;
    a.classList.add("active");
    this.tip.innerHTML = tooltipHtml(this.table, Number(a.dataset.i), a.getAttribute("href"));
    this.tip.hidden = false;
    const box = this.root.getBoundingClientRect();
    const cell = a.getBoundingClientRect();
    const tip = this.tip.getBoundingClientRect();
    let left = cell.left - box.left + cell.width / 2 - tip.width / 2;
    left = Math.max(0, Math.min(left, box.width - tip.width));
    const below = cell.bottom - box.top;
    const above = cell.top - box.top - tip.height;
    this.tip.style.left = `${left}px`;
    this.tip.style.top = `${cell.bottom + tip.height > window.innerHeight && above >= 0 ? above : below}px`;
  }

  hide() {
    this.tip.hidden = true;
    if (this.active) this.active.classList.remove("active");
    this.active = null;
  }

  update(table) {
    this.table = table;
    const lo = Math.min(...table.equity);
    const hi = Math.max(...table.equity);
    this.links.forEach((a, i) => {
      const cell = a.parentElement;
      cell.className = `cell e${bucket(table.equity[i], lo, hi)} r${rankBucket(table.rank[i], table.classes.length)}`;
      a.querySelector(".visually-hidden").textContent = cellLabel(table, i);
      a.querySelector(".v-eq").textContent = pct(table.equity[i]);
      a.querySelector(".v-short").textContent = (100 * table.equity[i]).toFixed(0);
      a.querySelector(".v-rank").textContent = table.rank[i];
      const [win, tie] = a.querySelectorAll(".wtl i");
      win.style.width = `${(100 * table.win[i]).toFixed(2)}%`;
      tie.style.width = `${(100 * table.tie[i]).toFixed(2)}%`;
    });
    updateTableView(table);
    if (this.active) this.show(this.active);
  }

  // A multiway run rewrites data/multiway.json at every checkpoint and announces it in the small
  // data/multiway-live.json ({running, generated, expires}). Read that (a conditional request: `allin serve`
  // answers an unchanged file with a 304), download multiway.json only when it names a checkpoint not shown yet, and
  // poll again only while the run is live.
  async watch(statusUrl, dataUrl) {
    let running = this.running;
    try {
      const status = await fetchJson(statusUrl, "no-cache");
      // a run killed with no chance to say it stopped leaves "running" behind: its `expires` (Unix seconds) passes
      running = status.running && !(Number.isFinite(status.expires) && Date.now() / 1000 > status.expires);
      if (status.generated && status.generated !== this.generated) await this.refresh(dataUrl, status.generated);
    } catch {
      // A file being replaced, or the server gone: keep the last known state.
    }
    this.running = running;
    if (running) setTimeout(() => this.watch(statusUrl, dataUrl), POLL_MS);
  }

  async refresh(dataUrl, announced) {
    // A host validating by Last-Modified alone (one-second resolution) could answer 304 for a
    // checkpoint written in the same second as the copy we hold: a mismatch forces a full download.
    const json = await fetchJson(dataUrl, this.stale ? "reload" : "no-cache");
    const stamp = json.meta && json.meta.generated;
    this.stale = stamp !== announced;
    const table = tableFromMultiway(json, this.players);
    if (!table || stamp === this.generated) return;
    this.generated = stamp;
    this.update(table);
    const live = document.getElementById("live");
    live.hidden = false;
    live.textContent = `Live: numbers from the checkpoint of ${stamp} (up to ${count(Math.max(...table.samples))} samples per hand).`;
  }
}

async function fetchJson(url, cache) {
  const response = await fetch(url, { cache });
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return response.json();
}

/** The table view's rows (one per class, `data-i` = class index) after a live update. */
function updateTableView(t) {
  for (const row of document.querySelectorAll("#chart-table tbody tr[data-i]")) {
    const i = Number(row.dataset.i);
    const [lo, hi] = ci(t, i);
    const set = (name, sort, text) => { const td = row.querySelector(`td.${name}`); td.dataset.sort = sort; td.textContent = text; };
    set("rank", t.rank[i], t.rank[i]);
    set("eq", t.equity[i], pct(t.equity[i], 2));
    set("win", t.win[i], pct(t.win[i], 2));
    set("tie", t.tie[i], pct(t.tie[i], 2));
    row.querySelector("td.ci").textContent = `${pct(lo, 2)}\u00a0– ${pct(hi, 2)}`;
  }
}

/** Show (equity / rank) and View (grid / table) live in the URL (?mode=rank&view=table), and the
 * player-count links carry them, so a choice survives switching the table size. */
function keepChoicesInUrl() {
  const radios = [...document.querySelectorAll('input[name="mode"], input[name="view"]')];
  const params = new URLSearchParams(location.search);
  for (const radio of radios) {
    if (params.get(radio.name) === radio.value) radio.checked = true;
  }
  const apply = () => {
    const query = new URLSearchParams(location.search);
    for (const radio of radios) {
      if (!radio.checked) continue;
      if (radio.defaultChecked) query.delete(radio.name); else query.set(radio.name, radio.value);
    }
    const search = query.toString() ? `?${query}` : "";
    history.replaceState(null, "", location.pathname + search + location.hash);
    for (const a of document.querySelectorAll(".switch a[href]")) a.search = search;
  };
  radios.forEach((radio) => radio.addEventListener("change", apply));
  apply();
}

keepChoicesInUrl();
const root = document.getElementById("chart");
if (root) {
  const chart = new Chart(root);
  const local = ["localhost", "127.0.0.1"].includes(location.hostname);
  const data = (name) => new URL(`../../data/${name}`, location.href).href;
  if (local && chart.players > 2) chart.watch(data("multiway-live.json"), data("multiway.json"));
}

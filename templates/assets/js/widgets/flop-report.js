// The flop page's every-flop report (flop-equity.js's flopReport and flopGroup): a row per suit-distinct flop (its
// cards, texture, chance with these ranges and the range's equity there), sortable (sortable.js's headers) and
// filtered by texture, drawn ROWS at a time from the sorted data ("Show more": a table of all 1,755 rows takes
// the browser a few hundred ms to lay out); the equity by texture group as a chart (inline SVG: per group the
// middle half of its flops by chance, their range and the mean) with its data table; and the equity on the flops
// shown (on all of them: the preflop equity). An estimate (part of the boards counted) shows the figures but not yet
// the table. The flop buttons are one Tab stop (arrow keys, Home, End); pressing one calls onPick(cards).

import { RANKS } from "../engines/cards.js";
import { flopGroup } from "../engines/flop-equity.js";
import { flopCards, flopLabel } from "../engines/flop-table.js";
import { sortable } from "./sortable.js";
import { pctText } from "./flop-hits.js";

const SUITS = ["rainbow", "two-tone", "monotone"], PAIRINGS = ["unpaired", "paired", "trips"];
const capital = (word) => word[0].toUpperCase() + word.slice(1);
const count = (n) => n.toLocaleString("en-US");
const W = 640, LEFT = 120, RIGHT = 76, TOP = 8, ROW = 26, BOTTOM = 46;
/** Rows of the table drawn at a time. */
export const ROWS = 100;

/** The texture groups: [name, test(flop)] — suits, pairing, high card (A first). */
export const GROUPS = [
  ...SUITS.map((s) => [s, (f) => f.texture.suits === s]),
  ...PAIRINGS.map((p) => [p, (f) => f.texture.pairing === p]),
  ...[...RANKS].reverse().map((r, k) => [`${r}-high`, (f) => f.texture.high === 12 - k]),
];

/** Figures of ``flops`` (report rows) from the report's ``counts``: {n, chance (their share of the deal), equity (on
 *  them: flopGroup's, null if no deal reaches them), q25, q75 (quartiles of their equities by chance), min, max}. */
export function groupFigures(flops, counts) {
  const ids = new Set(flops.map((f) => f.index)), { equity, share } = flopGroup(counts, (f) => ids.has(f));
  const known = flops.filter((f) => f.equity !== null && f.share > 0).sort((a, b) => a.equity - b.equity);
  if (equity === null || !known.length) return { n: flops.length, chance: share, equity: null };
  const weight = known.reduce((s, f) => s + f.share, 0);
  const at = (q) => {
    let sum = 0;
    for (const f of known) if ((sum += f.share) >= q * weight) return f.equity;
    return known.at(-1).equity;
  };
  return { n: flops.length, chance: share, equity, q25: at(0.25), q75: at(0.75), min: known[0].equity, max: known.at(-1).equity };
}

/** The chart's markup for ``groups`` ([name, figures]): per row a line from min to max, a box of the middle half, the mean. */
export function stripsMarkup(groups) {
  const height = TOP + ROW * groups.length + BOTTOM, x = (e) => +(LEFT + e * (W - LEFT - RIGHT)).toFixed(1);
  const parts = [0, 0.25, 0.5, 0.75, 1].map((v) => `<line class="gridline" x1="${x(v)}" x2="${x(v)}" y1="${TOP}" y2="${height - BOTTOM}"/>`
    + `<text class="tick" x="${x(v)}" y="${height - BOTTOM + 20}" text-anchor="middle">${100 * v}%</text>`);
  groups.forEach(([name, g], k) => {
    const y = TOP + ROW * k + ROW / 2;
    parts.push(`<text class="tick" x="${LEFT - 8}" y="${y + 4}" text-anchor="end">${capital(name)}</text>`);
    if (g.equity === null) return parts.push(`<text class="tick" x="${x(0) + 6}" y="${y + 4}">none</text>`);
    parts.push(`<line class="errorbar" x1="${x(g.min)}" x2="${x(g.max)}" y1="${y}" y2="${y}"/>`,
      `<rect class="band" x="${x(g.q25)}" y="${y - 7}" width="${Math.max(1, x(g.q75) - x(g.q25)).toFixed(1)}" height="14"/>`,
      `<circle r="5" cx="${x(g.equity)}" cy="${y}"/>`,
      `<text class="tick" x="${W - RIGHT + 6}" y="${y + 4}">${pctText(g.equity)}</text>`);
  });
  parts.push(`<text class="axis-label" x="${(LEFT + W - RIGHT) / 2}" y="${height - 8}" text-anchor="middle">your range's equity on the flop</text>`);
  return { markup: parts.join(""), height };
}

/** The flop as shown (A♥K♦7♣, hidden from screen readers) and in words (their name for it). */
const cardsHtml = (cards) => `<span class="flop-cards" aria-hidden="true">${flopCards(cards).map(([rank, symbol, suit]) => `<span class="s${suit}">${rank}${symbol}</span>`).join("")}</span>`
  + `<span class="visually-hidden">${flopLabel(cards)}</span>`;
/** Sort key of a flop's ranks, highest first (the Flop column's order). */
const rankKey = (cards) => {
  const [a, b, c] = [...cards].map((card) => card >> 2).sort((p, q) => q - p);
  return (a * 13 + b) * 13 + c;
};
const textureText = (t) => `${capital(t.suits)}, ${t.pairing}`;
/** Each sortable column's key of a report row (the Flop, Chance and Equity columns). */
const SORT_KEYS = { 0: (f) => rankKey(f.cards), 2: (f) => f.share, 3: (f) => f.equity ?? -1 };

/** A report row as a table row. */
function rowHtml(f) {
  const equity = f.equity === null ? "–" : pctText(f.equity);
  return `<tr data-f="${f.index}"><th scope="row"><button type="button" class="fc-flop" data-f="${f.index}" tabindex="-1">${cardsHtml(f.cards)}</button></th>`
    + `<td>${textureText(f.texture)}</td><td>${pctText(f.share, 3)}</td><td data-equity="${f.equity ?? ""}">${equity}</td></tr>`;
}

export class ReportView {
  /** ``parts``: {table (its header's aria-sort: the first order), list (the table's frame, hidden while estimating),
   *  more (the "Show more" button), filters: {suits, pairing, high} (<select>s), filtered, overall, svg, summary,
   *  groups (a <table>)}; ``onPick(cards)`` when a flop is pressed. */
  constructor(parts, onPick) {
    const first = [...parts.table.tHead.rows[0].cells].find((th) => th.hasAttribute("aria-sort"));
    Object.assign(this, { parts, onPick, report: null, counts: null, partial: false, shown: [], drawn: 0,
      order: { column: first.cellIndex, descending: first.getAttribute("aria-sort") === "descending" } });
    sortable(parts.table, (column, descending) => {
      this.order = { column, descending };
      this.filter();
    });
    for (const select of Object.values(parts.filters)) select.addEventListener("change", () => this.filter());
    parts.more.addEventListener("click", () => this.draw());
    const body = parts.table.tBodies[0];
    body.addEventListener("click", (e) => {
      const button = e.target.closest("button[data-f]");
      if (button) onPick(this.report.flops[Number(button.dataset.f)].cards);
    });
    body.addEventListener("keydown", (e) => {
      const button = e.target.closest("button[data-f]");
      if (!button) return;
      const shown = [...body.querySelectorAll("button[data-f]")], k = shown.indexOf(button);
      const next = { ArrowDown: k + 1, ArrowUp: k - 1, Home: 0, End: shown.length - 1 }[e.key];
      if (next === undefined) return;
      e.preventDefault();
      if (next >= 0 && next < shown.length) this.focusable(shown[next]).focus();
    });
    body.addEventListener("focusin", (e) => {
      const button = e.target.closest("button[data-f]");
      if (button) this.focusable(button);
    });
  }

  /** Make ``button`` the table's one Tab stop. */
  focusable(button) {
    this.parts.table.querySelectorAll("button[data-f][tabindex='0']").forEach((b) => (b.tabIndex = -1));
    button.tabIndex = 0;
    return button;
  }

  /** Show ``report`` (flopReport's) of ``counts`` (mergeFlopCounts'); ``partial``: an estimate from part of the boards. */
  show(report, counts, partial = false) {
    Object.assign(this, { report, counts, partial });
    this.parts.list.hidden = partial;
    this.parts.overall.textContent = `Your range's equity before the flop (its equity on every flop, weighted by the flop's chance): `
      + `${pctText(report.overall, 2)}${partial ? ", estimated so far" : ""}`;
    this.parts.overall.dataset.equity = report.overall;
    this.parts.overall.dataset.state = partial ? "partial" : "final";
    this.filter();
  }

  /** Whether report row ``f`` passes the texture filters. */
  passes(f) {
    const { suits, pairing, high } = this.parts.filters;
    return (!suits.value || f.texture.suits === suits.value) && (!pairing.value || f.texture.pairing === pairing.value)
      && (!high.value || f.texture.high === Number(high.value));
  }

  /** The flops that pass the filters, in the table's order; the first ROWS of them drawn (none while estimating). */
  filter() {
    if (!this.report) return;
    const shown = this.report.flops.filter((f) => this.passes(f));
    const key = SORT_KEYS[this.order.column], sign = this.order.descending ? -1 : 1;
    this.shown = [...shown].sort((f, g) => sign * (key(f) - key(g)) || f.index - g.index);
    this.drawn = 0;
    this.parts.table.tBodies[0].replaceChildren();
    if (!this.partial) this.draw();
    const all = groupFigures(shown, this.counts);
    const whole = shown.length === this.report.flops.length;
    this.parts.filtered.textContent = whole
      ? `All ${count(shown.length)} suit-distinct flops.`
      : `${count(shown.length)} of ${count(this.report.flops.length)} flops, ${pctText(all.chance)} of the deals: your equity on them ${all.equity === null ? "–" : pctText(all.equity, 2)}.`;
    this.parts.filtered.dataset.equity = all.equity ?? "";
    this.showGroups(shown);
  }

  /** Draw the next ROWS rows of the flops shown. */
  draw() {
    const body = this.parts.table.tBodies[0];
    body.insertAdjacentHTML("beforeend", this.shown.slice(this.drawn, this.drawn + ROWS).map(rowHtml).join(""));
    this.drawn = Math.min(this.shown.length, this.drawn + ROWS);
    if (!body.querySelector("button[tabindex='0']") && body.rows.length) this.focusable(body.querySelector("button"));
    const left = this.shown.length - this.drawn;
    this.parts.more.hidden = left === 0;
    this.parts.more.textContent = `Show ${Math.min(ROWS, left)} more (${count(this.drawn)} of ${count(this.shown.length)} shown)`;
  }

  showGroups(shown) {
    const groups = GROUPS.map(([name, test]) => [name, groupFigures(shown.filter(test), this.counts)]).filter(([, g]) => g.n > 0);
    const { markup, height } = stripsMarkup(groups);
    this.parts.svg.setAttribute("viewBox", `0 0 ${W} ${height}`);
    this.parts.svg.innerHTML = markup;
    const best = groups.filter(([, g]) => g.equity !== null).sort((a, b) => b[1].equity - a[1].equity);
    this.parts.summary.textContent = best.length
      ? `Your range's equity by texture of the flops shown (a dot: the mean; a box: the middle half of the flops by chance; a line: the lowest to the highest): `
        + `best on ${best[0][0]} flops (${pctText(best[0][1].equity)}), worst on ${best.at(-1)[0]} flops (${pctText(best.at(-1)[1].equity)}).`
      : "No flop shown.";
    this.parts.groups.tBodies[0].replaceChildren(...groups.map(([name, g]) => {
      const row = document.createElement("tr");
      row.innerHTML = `<th scope="row"></th><td>${count(g.n)}</td><td>${pctText(g.chance)}</td><td>${g.equity === null ? "–" : pctText(g.equity, 2)}</td>`;
      row.cells[0].textContent = capital(name);
      return row;
    }));
  }
}

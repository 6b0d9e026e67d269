// The flop page's equity distribution (Equilab's graph) from flop-equity.js's equityDistribution: the combos of
// the range sorted by equity as a step curve in inline SVG (x: share of the range's weight in the deal, weakest
// first; y: equity), the 50/70/90% lines and the quantiles marked, a sentence that says it in words, the
// quantile and threshold table, and by hand class a sortable data table (the curve's data, for every reader).

import { COMBO_CLASS, className } from "../engines/ranges.js";
import { sortRows } from "./sortable.js";
import { pctText, plural } from "./flop-hits.js";

const W = 640, H = 320, LEFT = 84, RIGHT = 28, TOP = 14, BOTTOM = 52;
const X = (share) => +(LEFT + share * (W - LEFT - RIGHT)).toFixed(1);
const Y = (equity) => +(TOP + (1 - equity) * (H - TOP - BOTTOM)).toFixed(1);
const QUANTILE_NAMES = { 0.1: "10th percentile", 0.25: "25th percentile", 0.5: "Median", 0.75: "75th percentile", 0.9: "90th percentile" };

/** The SVG's inner markup: axes, threshold lines, the area under the step curve, the curve and the quantiles. */
export function curveMarkup(d) {
  const ticks = [0, 0.25, 0.5, 0.75, 1];
  const parts = ticks.map((v) => `<line class="gridline" x1="${LEFT}" x2="${W - RIGHT}" y1="${Y(v)}" y2="${Y(v)}"/>`
    + `<text class="tick" x="${LEFT - 8}" y="${Y(v) + 4}" text-anchor="end">${100 * v}%</text>`
    + `<text class="tick" x="${X(v)}" y="${H - BOTTOM + 20}" text-anchor="middle">${100 * v}%</text>`);
  parts.push(...[0.7, 0.9].map((v) => `<line class="fair" x1="${LEFT}" x2="${W - RIGHT}" y1="${Y(v)}" y2="${Y(v)}"/>`));
  let path = `M${X(0)} ${Y(d.equity[0])}`, previous = d.equity[0];
  d.equity.forEach((e, k) => {
    if (e !== previous) path += `V${Y(e)}`;
    path += `H${X(d.cumulative[k])}`;
    previous = e;
  });
  parts.push(`<path class="band" d="${path}V${Y(0)}H${X(0)}Z"/>`, `<path class="line" d="${path}"/>`);
  parts.push(...d.quantiles.map(([q, e]) => `<circle r="4" cx="${X(q)}" cy="${Y(e)}"/>`));
  parts.push(`<text class="axis-label" x="${(LEFT + W - RIGHT) / 2}" y="${H - 8}" text-anchor="middle">share of your range, weakest to strongest</text>`,
    `<text class="axis-label" transform="translate(16 ${(TOP + H - BOTTOM) / 2}) rotate(-90)" text-anchor="middle">equity</text>`);
  return parts.join("");
}

/** The graph in words: the overall equity, the median and the shares above the thresholds. */
export function summaryText(d, spot) {
  const median = d.quantiles.find(([q]) => q === 0.5)?.[1];
  const above = d.above.map(([t, share]) => `${pctText(share)} above ${100 * t}%`).join(", ");
  return `${spot}: each of ${plural(d.combos.length, "combo")} of your range by its equity, weakest first, `
    + `each as wide as its weight in the deal. Overall equity ${pctText(d.overall, 2)}; the median combo has ${pctText(median)}; `
    + `of the range (by weight), ${above}.`;
}

/** Per class of the range: combos, share of the range's weight in the deal, and equity (weighted mean). */
export function classRows(d) {
  const rows = new Map();
  let whole = 0;
  d.combos.forEach((combo, k) => {
    const cls = COMBO_CLASS[combo], row = rows.get(cls) ?? { cls, n: 0, w: 0, we: 0 };
    row.n++;
    row.w += d.weight[k];
    row.we += d.weight[k] * d.equity[k];
    whole += d.weight[k];
    rows.set(cls, row);
  });
  return [...rows.values()].map((r) => ({ cls: r.cls, combos: r.n, share: r.w / whole, equity: r.w ? r.we / r.w : 0 }));
}

/** Fill the graph's parts: {svg, summary, overall, quantiles (a <table>), classes (a sortable <table>)}. */
export function showDistribution(parts, d, spot) {
  parts.svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  parts.svg.innerHTML = curveMarkup(d);
  parts.summary.textContent = summaryText(d, spot);
  parts.overall.textContent = `Your range's equity: ${pctText(d.overall, 2)}`;
  parts.overall.dataset.equity = d.overall;
  const rows = [
    ...d.quantiles.map(([q, e]) => [QUANTILE_NAMES[q] ?? `${100 * q}% quantile`, pctText(e), e]),
    ...d.above.map(([t, share]) => [`Share with more than ${100 * t}% equity`, pctText(share), share]),
  ];
  parts.quantiles.tBodies[0].replaceChildren(...rows.map(([name, text, value]) => {
    const row = document.createElement("tr");
    row.innerHTML = `<th scope="row"></th><td data-value="${value}">${text}</td>`;
    row.cells[0].textContent = name;
    return row;
  }));
  parts.classes.tBodies[0].replaceChildren(...classRows(d).map((r) => {
    const row = document.createElement("tr");
    row.innerHTML = `<th scope="row" data-sort="${r.cls}">${className(r.cls)}</th><td data-sort="${r.combos}">${r.combos}</td>`
      + `<td data-sort="${r.share}">${pctText(r.share)}</td><td data-sort="${r.equity}">${pctText(r.equity)}</td>`;
    return row;
  }));
  const headers = [...parts.classes.tHead.rows[0].cells], sorted = headers.findIndex((th) => th.hasAttribute("aria-sort"));
  sortRows(parts.classes, sorted, headers[sorted].getAttribute("aria-sort") === "descending");
}

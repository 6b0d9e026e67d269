// The flop page's hit table (engines/flop-categories.js's rangeHitTable): one row per made category and per
// draw with its combos (weighted) and share of the range; pressing rows chooses them, and the 13×13 grid shows how
// each class of the range splits: its cell shaded by the share of its live combos (weighted) in the chosen rows
// (without a choice, by the share of the class left live in the range), the viridis buckets of the charts; a class
// with none of them chosen stays plain.
// Pressing a cell lists its combos, each with its category and draws. The grid is one Tab stop (grid-nav.js).

import { DRAWS, MADE_CATEGORIES } from "../engines/flop-categories.js";
import { CHART_BUCKETS } from "../engines/constants.js";
import { COMBO_CLASS, cardName, className } from "../engines/ranges.js";
import { rovingGrid } from "./grid-nav.js";

const CLASS_SIZE = Array.from({ length: 169 }, (_, c) => COMBO_CLASS.filter((k) => k === c).length);
/** "12", "12.5", "0.25": combos (weighted) to two decimals at most. */
export const combosText = (x) => `${+x.toFixed(2)}`;
/** "8.3%": a share to one decimal. */
export const pctText = (x, digits = 1) => `${(100 * x).toFixed(digits)}%`;
/** "1 combo", "1,326 combos". */
export const plural = (n, word) => `${n.toLocaleString("en-US")} ${word}${n === 1 ? "" : "s"}`;

/** A row key: "made 9" (top pair) or "draws 1" (nut flush draw). */
const rowName = (key) => {
  const [kind, k] = key.split(" ");
  return kind === "made" ? MADE_CATEGORIES[k] : DRAWS[k];
};
const inRow = (table, position, key) => {
  const [kind, k] = key.split(" ");
  return kind === "made" ? table.made[position] === Number(k) : Boolean((table.draws[position] >> k) & 1);
};

export class HitView {
  /** ``tables``: {made, draws} (<table>s with an empty body); ``grid``: the 13×13 table of buttons (data-i);
   *  ``selected``: the line summing the chosen rows; ``detail``: where a class's combos are listed. */
  constructor({ tables, grid, selected, detail }) {
    Object.assign(this, { tables, selected, detail, table: null, chosen: new Set(), shownClass: null });
    this.cells = [...grid.querySelectorAll("button[data-i]")];
    for (const [kind, names] of [["made", MADE_CATEGORIES], ["draws", DRAWS]]) {
      tables[kind].tBodies[0].replaceChildren(...names.map((name, k) => {
        const row = document.createElement("tr");
        row.innerHTML = `<th scope="row"><button type="button" class="hit-row" aria-pressed="false" data-row="${kind} ${k}"></button></th>`
          + "<td class=\"combos\"></td><td class=\"share\"></td>";
        row.querySelector("button").textContent = name;
        return row;
      }));
      tables[kind].addEventListener("click", (e) => {
        const button = e.target.closest("button.hit-row");
        if (!button) return;
        const key = button.dataset.row;
        if (this.chosen.has(key)) this.chosen.delete(key); else this.chosen.add(key);
        button.setAttribute("aria-pressed", String(this.chosen.has(key)));
        this.showGrid();
      });
    }
    this.listenGrid(grid);
  }

  listenGrid(grid) {
    rovingGrid(grid, { cells: "button[data-i]", enter: "Enter lists the class's combos with their categories and draws." });
    grid.addEventListener("click", (e) => {
      const cell = e.target.closest("button[data-i]");
      if (!cell) return;
      this.shownClass = Number(cell.dataset.i);
      this.showDetail();
    });
  }

  /** Show ``table``: rangeHitTable's answer for the 1,326 combos in order (its ``kept`` are combo ids). */
  show(table) {
    this.table = table;
    for (const [kind, weight, share] of [["made", table.madeWeight, table.madeShare], ["draws", table.drawWeight, table.drawShare]]) {
      [...this.tables[kind].tBodies[0].rows].forEach((row, k) => {
        const combos = row.cells[1], part = row.cells[2];
        combos.textContent = combosText(weight[k]);
        combos.dataset.combos = weight[k];
        part.textContent = pctText(share[k]);
        part.dataset.share = share[k];
        part.style.setProperty("--share", share[k]);
        row.classList.toggle("zero", weight[k] === 0);
      });
    }
    this.showGrid();
  }

  /** Per class: live combos and weight, and those in the chosen rows ({n, w, inN, inW} or null: none live). */
  classFigures() {
    const figures = new Array(169).fill(null), keys = [...this.chosen];
    this.table.kept.forEach((combo, position) => {
      const cls = COMBO_CLASS[combo], w = this.table.weights[position];
      const f = (figures[cls] ??= { n: 0, w: 0, inN: 0, inW: 0 });
      f.n++;
      f.w += w;
      if (keys.some((key) => inRow(this.table, position, key))) { f.inN++; f.inW += w; }
    });
    return figures;
  }

  showGrid() {
    if (!this.table) return;
    const figures = this.classFigures(), choosing = this.chosen.size > 0;
    const names = [...this.chosen].map(rowName).join(" or ");
    this.cells.forEach((cell, cls) => {
      const f = figures[cls], td = cell.parentElement;
      td.className = "cell";
      if (!f) {
        td.classList.add("out");
        cell.querySelector(".v-n").textContent = "";
        cell.querySelector(".visually-hidden").textContent = `${className(cls)}: not in the range, or every combo blocked`;
        return;
      }
      const share = choosing ? f.inW / f.w : f.w / CLASS_SIZE[cls];
      td.classList.add(share > 0 ? `e${Math.min(CHART_BUCKETS - 1, Math.floor(share * CHART_BUCKETS))}` : "none"); // none chosen: plain
      td.dataset.share = share;
      cell.querySelector(".v-n").textContent = choosing ? `${f.inN}/${f.n}` : `${f.n}`;
      cell.querySelector(".visually-hidden").textContent = choosing
        ? `${className(cls)}: ${f.inN} of ${plural(f.n, "live combo")} in ${names} (${pctText(share)} weighted)`
        : `${className(cls)}: ${plural(f.n, "live combo")}, ${pctText(share)} of the class in the range`;
    });
    let weight = 0;
    this.table.weights.forEach((w, position) => {
      if ([...this.chosen].some((key) => inRow(this.table, position, key))) weight += w;
    });
    this.selected.textContent = choosing
      ? `On the grid: ${names}: ${combosText(weight)} combos, ${pctText(weight / this.table.total)} of the range.`
      : `On the grid: each class's live combos. Press rows of the table to see where they are.`;
    this.selected.dataset.weight = weight;
    this.showDetail();
  }

  /** The combos of the class last pressed, each with its category and draws. */
  showDetail() {
    if (this.shownClass === null || !this.table) return this.detail.replaceChildren();
    const cls = this.shownClass, items = [];
    this.table.kept.forEach((combo, position) => {
      if (COMBO_CLASS[combo] !== cls) return;
      const [a, b] = this.table.combos[position];
      const draws = DRAWS.filter((_, d) => (this.table.draws[position] >> d) & 1);
      const weight = this.table.weights[position] === 1 ? "" : ` (weight ${combosText(this.table.weights[position])})`;
      const item = document.createElement("li");
      item.textContent = `${cardName(Math.max(a, b))}${cardName(Math.min(a, b))}${weight}: ${MADE_CATEGORIES[this.table.made[position]]}`
        + (draws.length ? `; ${draws.join(", ")}` : "");
      items.push(item);
    });
    const heading = document.createElement("p");
    heading.textContent = items.length ? `${className(cls)}: ${plural(items.length, "live combo")}` : `${className(cls)}: no live combo in the range`;
    const list = document.createElement("ul");
    list.append(...items);
    this.detail.replaceChildren(heading, ...(items.length ? [list] : []));
  }
}


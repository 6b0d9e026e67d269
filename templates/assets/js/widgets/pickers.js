// Pickers of the equity calculator: a 13×13 range picker (click or drag to paint classes with a
// weight, a top-x% slider, selected combos per class) and a 52-card picker. Both are one tab stop:
// arrow keys, Home and End move inside the grid, Space or Enter toggles the focused cell.

import { RANKS, cardName, className } from "../engines/cards.js";
import { COMBO_CLASS, N_COMBOS } from "../engines/ranges.js";

const CLASS_COMBOS = Array.from({ length: 169 }, () => []);
COMBO_CLASS.forEach((cls, i) => CLASS_COMBOS[cls].push(i));
const RANK_NAMES = ["Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Jack", "Queen", "King", "Ace"];
const SUIT_NAMES = ["clubs", "diamonds", "hearts", "spades"];
const SUIT_SYMBOLS = ["♣", "♦", "♥", "♠"];
const pct = (x) => `${+(100 * x).toFixed(1)}%`;

function element(tag, attributes = {}, text = "") {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  node.textContent = text;
  return node;
}

/** Arrow keys, Home and End move the focus between ``buttons`` laid out ``columns`` wide; one tab stop. */
function rovingFocus(container, buttons, columns) {
  let current = 0;
  buttons.forEach((button, i) => (button.tabIndex = i === current ? 0 : -1));
  const moveTo = (i) => {
    buttons[current].tabIndex = -1;
    current = i;
    buttons[i].tabIndex = 0;
  };
  container.addEventListener("focusin", (e) => buttons.includes(e.target) && moveTo(buttons.indexOf(e.target)));
  container.addEventListener("keydown", (e) => {
    const i = buttons.indexOf(e.target);
    if (i < 0) return;
    const row = Math.floor(i / columns), col = i % columns, rows = buttons.length / columns;
    const target = {
      ArrowLeft: [row, col - 1], ArrowRight: [row, col + 1], ArrowUp: [row - 1, col], ArrowDown: [row + 1, col],
      Home: [row, 0], End: [row, columns - 1],
    }[e.key];
    if (!target) return;
    e.preventDefault();
    const [r, c] = target;
    if (r < 0 || r >= rows || c < 0 || c >= columns) return;
    moveTo(r * columns + c);
    buttons[current].focus();
  });
}

/**
 * The 13×13 range picker of one seat. ``onPaint(weights)`` after a click, a drag or a key press
 * (weights: Float64Array(1326)); ``onTop(percent)`` when the top-x% slider moves.
 */
export class RangePicker {
  constructor(container, label, { onPaint, onTop }) {
    this.weights = new Float64Array(N_COMBOS);
    this.onPaint = onPaint;
    const tools = element("div", { class: "picker-tools" });
    const weightLabel = element("label", {}, "Paint weight ");
    this.paintWeight = element("select");
    for (const w of [1, 0.75, 0.5, 0.25]) this.paintWeight.append(element("option", { value: w }, pct(w)));
    weightLabel.append(this.paintWeight);
    const topLabel = element("label", {}, "Top ");
    this.top = element("input", { type: "range", min: 0, max: 100, step: 0.5, value: 0 });
    this.topValue = element("output", {}, "0%");
    this.top.addEventListener("input", () => {
      this.topValue.textContent = `${this.top.value}%`;
      onTop(Number(this.top.value));
    });
    topLabel.append(this.top, " ", this.topValue);
    const clear = element("button", { type: "button", class: "ghost" }, "Clear");
    clear.addEventListener("click", () => this.paint(new Float64Array(N_COMBOS)));
    tools.append(weightLabel, topLabel, clear);
    this.grid = element("div", { class: "range-grid", role: "group", "aria-label": `${label}: 169 hand classes` });
    this.cells = Array.from({ length: 169 }, (_, cls) => {
      const cell = element("button", { type: "button", class: "rc", "data-class": className(cls) });
      // accessible name "AKs 2 of 4 combos, weight 50%": the visible name and count, the rest visually hidden
      cell.append(element("span", { class: "n" }, className(cls)), element("span", { class: "c" }));
      return cell;
    });
    this.grid.append(...this.cells);
    this.summary = element("p", { class: "picker-summary", "aria-live": "polite" });
    container.append(tools, this.grid, this.summary);
    rovingFocus(this.grid, this.cells, 13);
    this.listen();
    this.set(this.weights);
  }

  /** Click or drag to paint: the stroke sets every class it crosses to the paint weight, or clears
   * them when it starts on a class that already has that weight. Keyboard clicks toggle one class. */
  listen() {
    let stroke = null;
    const classAt = (x, y) => this.cells.indexOf(document.elementFromPoint(x, y)?.closest(".rc"));
    const apply = (cls) => {
      if (cls < 0 || stroke.done.has(cls)) return;
      stroke.done.add(cls);
      for (const i of CLASS_COMBOS[cls]) this.weights[i] = stroke.value;
      this.show(cls);
    };
    this.grid.addEventListener("pointerdown", (e) => {
      const cls = this.cells.indexOf(e.target.closest(".rc"));
      if (cls < 0 || e.button !== 0) return;
      e.preventDefault();
      this.cells[cls].focus();
      stroke = { value: this.toggledValue(cls), done: new Set() };
      apply(cls);
    });
    this.grid.addEventListener("pointermove", (e) => stroke && apply(classAt(e.clientX, e.clientY)));
    const end = () => {
      if (!stroke) return;
      stroke = null;
      this.paint(this.weights);
    };
    window.addEventListener("pointerup", end);
    window.addEventListener("pointercancel", end);
    this.grid.addEventListener("click", (e) => {
      const cls = this.cells.indexOf(e.target.closest(".rc"));
      if (cls < 0 || e.detail !== 0) return; // pointer clicks were painted on pointerdown
      const value = this.toggledValue(cls);
      for (const i of CLASS_COMBOS[cls]) this.weights[i] = value;
      this.paint(this.weights);
    });
  }

  toggledValue(cls) {
    const value = Number(this.paintWeight.value);
    return CLASS_COMBOS[cls].every((i) => this.weights[i] === value) ? 0 : value;
  }

  paint(weights) {
    this.set(weights);
    this.onPaint(Float64Array.from(this.weights));
  }

  /** Show ``weights`` (Float64Array(1326)) without calling back. The slider shows the range's size (its
   * share of the 1,326 combos), or x itself for a text "x%". */
  set(weights, text = "") {
    this.weights = Float64Array.from(weights);
    this.cells.forEach((_, cls) => this.show(cls));
    const combos = this.weights.reduce((a, b) => a + b, 0);
    const top = /^\s*([0-9.]+)%\s*$/.exec(text);
    if (top && Number(top[1]) <= 100) {
      this.top.value = Number(top[1]);
      this.topValue.textContent = `${this.top.value}%`;
    } else {
      const size = (100 * combos) / N_COMBOS;
      this.top.value = Math.round(2 * size) / 2; // the slider's step
      this.topValue.textContent = `${+size.toFixed(1)}%`;
    }
    this.summary.textContent = `${+combos.toFixed(2)} combos, ${pct(combos / N_COMBOS)} of all 1,326.`;
  }

  show(cls) {
    const members = CLASS_COMBOS[cls], cell = this.cells[cls];
    const chosen = members.filter((i) => this.weights[i] > 0).length;
    const mean = members.reduce((a, i) => a + this.weights[i], 0) / members.length;
    if (cell.dataset.shown === `${chosen} ${mean}`) return; // unchanged: no style or layout work
    cell.dataset.shown = `${chosen} ${mean}`;
    cell.setAttribute("aria-pressed", mean === 1 ? "true" : chosen ? "mixed" : "false");
    cell.style.setProperty("--w", mean);
    const weight = chosen ? `, weight ${pct(mean * members.length / chosen)}` : "";
    const detail = element("span", { class: "visually-hidden" }, `${chosen ? "" : "0"} of ${members.length} combos${weight}`);
    cell.querySelector(".c").replaceChildren(chosen ? `${chosen}` : "", detail);
  }
}

/**
 * A 52-card picker for up to ``max`` cards: four rows (spades, hearts, diamonds, clubs) of A…2.
 * ``onPick(cards)`` (card ids in the order picked) after each click or key press.
 */
export class CardPicker {
  constructor(container, label, max, onPick) {
    this.cards = [];
    this.used = new Set();
    this.max = max;
    this.grid = element("div", { class: "card-grid", role: "group", "aria-label": label });
    this.buttons = [];
    for (let suit = 3; suit >= 0; suit--) {
      for (let rank = 12; rank >= 0; rank--) {
        const card = 4 * rank + suit;
        const button = element("button", { type: "button", class: `card s${suit}`, "data-card": cardName(card), "aria-label": `${RANKS[rank]}${SUIT_SYMBOLS[suit]}, ${RANK_NAMES[rank]} of ${SUIT_NAMES[suit]}` }, RANKS[rank] + SUIT_SYMBOLS[suit]);
        button.addEventListener("click", () => {
          if (button.getAttribute("aria-disabled") === "true") return;
          this.cards = this.cards.includes(card) ? this.cards.filter((c) => c !== card) : [...this.cards, card];
          this.show();
          onPick([...this.cards]);
        });
        this.buttons[card] = button;
        this.grid.append(button);
      }
    }
    container.append(this.grid);
    rovingFocus(this.grid, [...this.grid.children], 13);
    this.show();
  }

  /** Show ``cards`` (ids) as picked and ``used`` (a Set of ids taken elsewhere) as unavailable. */
  set(cards, used = this.used) {
    this.cards = [...cards];
    this.used = used;
    this.show();
  }

  show() {
    const full = this.cards.length >= this.max;
    this.buttons.forEach((button, card) => {
      const picked = this.cards.includes(card);
      button.setAttribute("aria-pressed", String(picked));
      button.setAttribute("aria-disabled", String(!picked && (full || this.used.has(card))));
    });
  }
}

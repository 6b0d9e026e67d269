// Hand pages: the page's class against 1..9 random opponents on a board the reader types or picks.
// With no board the figures are the page's own table (the build's numbers); with one, equity-run.js
// computes them in a Web Worker (Cancel stops it), the figures updating as it works (marked partial
// until the end). The calculator link follows the chosen spot.

import { methodText, playerFigures, progressShower, startEquity } from "../workers/equity-run.js";
import { CardPicker } from "../widgets/pickers.js";
import { Z_975 } from "../engines/range-equity.js";
import { CardsError, N_COMBOS, cardName, parseCards, parseRange } from "../engines/ranges.js";

const form = document.getElementById("hand-equity");
const pct = (x, digits = 2) => `${(100 * x).toFixed(digits)}%`;

function setUp() {
  const hand = form.dataset.hand;
  const table = JSON.parse(form.dataset.table);
  const board = form.elements.board, opponents = form.elements.opponents;
  const error = document.getElementById("hand-error"), method = document.getElementById("hand-method");
  const resultTable = document.getElementById("hand-result"), progress = document.getElementById("hand-progress");
  const cancelButton = document.getElementById("hand-cancel"), link = form.querySelector("a.equity-link");
  const details = form.querySelector("details.picker");
  let picker = null, run = null, runId = 0;

  const cards = () => parseCards(board.value, "Board");
  const showFigures = (equity, { half, win, tie }, partial = false) => {
    const cells = resultTable.tBodies[0].rows[0].cells;
    [pct(equity), half, win, tie].forEach((value, i) => (cells[i].textContent = value));
    cells[0].dataset.equity = equity;
    resultTable.dataset.state = partial ? "partial" : "final";
    resultTable.hidden = false;
  };
  const show = (equity, figures, text, name) => {
    showFigures(equity, figures);
    method.textContent = text;
    method.dataset.method = name;
  };
  const updateLink = () => {
    const params = new URLSearchParams([["p", hand], ...Array.from({ length: Number(opponents.value) }, () => ["p", "random"])]);
    if (board.value.trim()) params.set("board", board.value.trim());
    link.search = `?${params}`;
  };
  const stop = () => {
    runId++;
    run?.cancel();
    run = null;
    cancelButton.hidden = progress.hidden = true;
  };

  async function compute() {
    stop();
    const id = runId;
    updateLink();
    delete method.dataset.method;
    let boardCards;
    try {
      boardCards = cards();
      if (![0, 3, 4, 5].includes(boardCards.length)) throw new CardsError(`Board: a board has 0, 3, 4 or 5 cards, got ${boardCards.length}`);
    } catch (e) {
      if (!(e instanceof CardsError)) throw e;
      error.textContent = e.message;
      board.setAttribute("aria-invalid", "true");
      resultTable.hidden = true; // no figures next to a board they do not answer
      method.textContent = "";
      return;
    }
    error.textContent = "";
    board.setAttribute("aria-invalid", "false");
    const players = Number(opponents.value) + 1;
    const row = table[players];
    if (!boardCards.length && row) {
      const half = row.exact ? "exact" : `± ${pct(Z_975 * row.se_equity)}`;
      const how = row.exact ? "exact, every board" : `Monte Carlo, ${row.samples.toLocaleString("en-US")} deals`;
      return show(row.equity, { half, win: pct(row.win), tie: pct(row.tie) }, `Preflop, from the table above (${how}).`, "table");
    }
    const weights = [parseRange(hand).weights, ...Array.from({ length: players - 1 }, () => new Float64Array(N_COMBOS).fill(1))];
    const started = performance.now();
    method.textContent = "Computing…";
    cancelButton.hidden = false;
    resultTable.hidden = true; // until the first running figures of this board
    run = startEquity(form.dataset, { weights, board: boardCards, dead: [] },
      progressShower(progress, method, () => id === runId, (partial) => showFigures(partial.equity[0], playerFigures(partial, 0), true)));
    try {
      const { result } = await run.done;
      if (id !== runId) return;
      show(result.equity[0], playerFigures(result, 0), methodText(result, performance.now() - started), result.method);
    } catch (e) {
      if (id !== runId) return;
      error.textContent = e.player === 0 ? `${hand} has no combo left on this board` : e.message;
      method.textContent = "";
    }
    if (id === runId) {
      run = null;
      cancelButton.hidden = progress.hidden = true;
    }
  }

  board.addEventListener("input", () => {
    try {
      picker?.set(cards());
    } catch (e) {
      if (!(e instanceof CardsError)) throw e;
    }
  });
  details.addEventListener("toggle", () => {
    if (!details.open || picker) return;
    picker = new CardPicker(details, "Board", 5, (picked) => {
      board.value = picked.map(cardName).join("");
      updateLink();
    });
    board.dispatchEvent(new Event("input"));
  });
  opponents.addEventListener("change", compute);
  cancelButton.addEventListener("click", () => {
    stop();
    method.textContent = "Cancelled.";
    document.getElementById("hand-compute").focus();
  });
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    compute();
  });
  compute();
}

if (form) setUp();

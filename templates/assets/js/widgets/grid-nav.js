// Keyboard use of the 13×13 class grids (equity chart, push/fold charts, a hand's matchup grid, the flop
// calculator's grid of buttons): the grid is one Tab stop (roving tabindex); arrow keys move between cells,
// Home / End to the first / last cell of the row, Ctrl+Home / Ctrl+End to the first / last cell of the grid,
// Enter follows the cell's link (or presses its button). Without JavaScript every cell stays an ordinary link.

const SIZE = 13;

const LINKS_HELP = "Enter opens the cell's page.";

/** Make one `table.grid` (169 cells, links with `data-i` = class index 0..168, or the elements ``cells`` selects)
 *  a single Tab stop; ``enter``: what Enter does there, for the grid's hidden key help. */
export function rovingGrid(table, { cells = "a[data-i]", enter = LINKS_HELP } = {}) {
  const links = [...table.querySelectorAll(cells)];
  if (links.length !== SIZE * SIZE || table.dataset.roving) return;
  table.dataset.roving = "on";
  let current = links[0];
  links.forEach((a) => a.setAttribute("tabindex", a === current ? "0" : "-1"));
  table.setAttribute("aria-describedby", keyHelp(table, enter).id);

  table.addEventListener("focusin", (e) => {
    const a = e.target.closest(cells);
    if (!a || a === current) return;
    current.setAttribute("tabindex", "-1");
    a.setAttribute("tabindex", "0");
    current = a;
  });
  table.addEventListener("keydown", (e) => {
    const a = e.target.closest(cells);
    if (!a || e.altKey || e.metaKey) return;
    const next = target(Number(a.dataset.i), e.key, e.ctrlKey);
    if (next === null) return;
    e.preventDefault();
    links[next].focus();
  });
}

/** Index of the cell a key moves to from cell `i`, or null (key not handled, or the edge). */
export function target(i, key, ctrl = false) {
  const row = Math.floor(i / SIZE);
  const col = i % SIZE;
  const moves = {
    ArrowLeft: col > 0 ? i - 1 : null,
    ArrowRight: col < SIZE - 1 ? i + 1 : null,
    ArrowUp: row > 0 ? i - SIZE : null,
    ArrowDown: row < SIZE - 1 ? i + SIZE : null,
    Home: ctrl ? 0 : row * SIZE,
    End: ctrl ? SIZE * SIZE - 1 : row * SIZE + SIZE - 1,
  };
  return key in moves ? moves[key] : null;
}

/** One hidden sentence per page (per kind of cell) telling screen-reader users how to move in the grids. */
function keyHelp(table, enter) {
  const id = enter === LINKS_HELP ? "grid-keys" : "grid-keys-buttons";
  let help = document.getElementById(id);
  if (!help) {
    help = document.createElement("p");
    help.id = id;
    help.className = "visually-hidden";
    help.textContent = `Arrow keys move between cells; Home and End go to the start and end of the row, Control+Home and Control+End to the first and last cell; ${enter}`;
    table.after(help);
  }
  return help;
}

globalThis.document?.querySelectorAll("table.grid").forEach((table) => rovingGrid(table)); // (none when imported by node tests)

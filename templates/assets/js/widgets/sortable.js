// Sortable data tables: each column header of a `table.sortable` marked `data-sortable` becomes a
// button; pressing it sorts the rows by that column's `data-sort` numbers (a hand column sorts by
// class index, i.e. chart order), pressing again reverses; `aria-sort` on the header says the
// order. The rows are in the HTML already, so the table reads the same without JavaScript. A table whose rows a
// script draws from its data (a part of them at a time) passes its own ``onSort``.

/** Enhance one table: its sortable headers get a button each; pressing one calls ``onSort(column, descending)``, by
 *  default sortRows. */
export function sortable(table, onSort = (column, descending) => sortRows(table, column, descending)) {
  const headers = [...table.tHead.rows[0].cells];
  headers.forEach((th, column) => {
    if (!("sortable" in th.dataset)) return;
    const button = document.createElement("button");
    button.type = "button";
    button.className = "sort";
    button.append(...th.childNodes);
    th.append(button);
    button.addEventListener("click", () => {
      const descending = th.getAttribute("aria-sort") === "ascending";
      onSort(column, descending);
      headers.forEach((other) => other.removeAttribute("aria-sort"));
      th.setAttribute("aria-sort", descending ? "descending" : "ascending");
    });
  });
}

/** Reorder the body rows of `table` by the `data-sort` numbers of column `column` (stable). */
export function sortRows(table, column, descending) {
  const body = table.tBodies[0];
  const rows = [...body.rows].map((row, position) => ({ row, position, key: Number(row.cells[column].dataset.sort) }));
  rows.sort((a, b) => (descending ? b.key - a.key : a.key - b.key) || a.position - b.position);
  body.append(...rows.map((r) => r.row));
}

document.querySelectorAll("table.sortable").forEach((table) => sortable(table));

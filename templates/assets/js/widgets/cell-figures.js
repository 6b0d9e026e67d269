// Signed figures for the 13×13 grids' cells (the solver's gain over folding, the call-or-fold page's EV): two
// decimals where a cell is wide, three characters at most on a phone (the cell's label always has the figure).
// Pure ES module: no DOM.

/** "+0.23", "−1.4", "+12", "±0.00". */
export function gainText(x) {
  const sign = x > 0 ? "+" : x < 0 ? "−" : "±";
  const a = Math.abs(x);
  return sign + (a >= 10 ? a.toFixed(0) : a >= 1 ? a.toFixed(1) : a.toFixed(2));
}

/** "+3", "+.9", "−.2", "+12", "0": at most three characters. */
export function gainShort(x) {
  const sign = x > 0 ? "+" : "−";
  const a = Math.abs(x);
  if (a < 0.05) return "0";
  if (a < 0.95) return `${sign}.${Math.round(a * 10)}`;
  return a < 99.5 ? `${sign}${Math.round(a)}` : `${sign}99`;
}

// Card and class names, as kernels/cards.py: the one place the browser's modules take them from.
// Card id = 4 · rank + suit (ranks 23456789TJQKA, suits cdhs); the 169 classes in the data files' chart
// order, index 13 · row + column with aces first: pairs on the diagonal, suited above it, offsuit below.
// Pure ES module: no DOM.

export const RANKS = "23456789TJQKA";
export const SUITS = "cdhs";

/** Name of card id ``card`` ("As"). */
export const cardName = (card) => RANKS[card >> 2] + SUITS[card & 3];

/** Name of class ``index`` ("AA", "AKs", "AKo", ...). */
export function className(index) {
  const row = Math.floor(index / 13), col = index % 13;
  if (row === col) return RANKS[12 - row].repeat(2);
  return RANKS[12 - Math.min(row, col)] + RANKS[12 - Math.max(row, col)] + (row < col ? "s" : "o");
}

/** The 169 class names in chart order (kernels.cards.CLASS_NAMES). */
export const CLASS_NAMES = Object.freeze(Array.from({ length: 169 }, (_, i) => className(i)));

/** Index of a class name ("AKs", "AKo", "TT", as parseHand names it) in chart order. */
export function classIndex(name) {
  const [a, b] = [12 - RANKS.indexOf(name[0]), 12 - RANKS.indexOf(name[1])];
  return name[2] === "o" ? 13 * b + a : 13 * a + b;
}

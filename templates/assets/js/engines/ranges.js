// Range strings ("QQ+, AKs, 0.5(KQo), A5s-A2s, 15%") → a weight for each of the 1,326 combos.
//
// The same grammar as kernels/ranges.py (docs/equity.md), checked against it on the goldens of
// spec/ranges.json (spec/engines/ranges.py, tests/js/ranges.test.mjs):
//
//   range  := item ("," item)*
//   item   := number "(" atom ("," atom)* ")" | atom [":" number]
//   atom   := "random" | number "%" | combo | class | class "+" | class "-" class
//
// Combos are indexed like Python's kernels.cards.ALL_COMBOS: pairs of card ids a < b in
// lexicographic order, card id = 4 · rank + suit (ranks 23456789TJQKA, suits cdhs). Columns in
// errors count characters from 1, as Python does.

import { RANKS, SUITS, cardName, className } from "./cards.js";

export { RANKS, SUITS, cardName, className };
export const N_COMBOS = 1326;

const NUMBER = "(?:[0-9]+(?:\\.[0-9]*)?|\\.[0-9]+)";
const SPACE = " \t\r\n";
const GROUP = new RegExp(`^(${NUMBER})[ \\t\\r\\n]*\\(([\\s\\S]*)\\)$`);
const SUFFIXED = new RegExp(`^([\\s\\S]*?)[ \\t\\r\\n]*:[ \\t\\r\\n]*(${NUMBER})$`);
const PERCENT = new RegExp(`^(${NUMBER})%$`);

/** Index into the 1,326 combos of two distinct card ids (either order). */
export function comboIndex(x, y) {
  const [a, b] = x < y ? [x, y] : [y, x];
  return a * 51 - (a * (a - 1)) / 2 + (b - a - 1);
}

/** Class index (13 × 13 chart, AA = 0, AKs = 1, AKo = 13) of two distinct card ids. */
export function classOfCards(x, y) {
  const high = Math.max(x >> 2, y >> 2), low = Math.min(x >> 2, y >> 2);
  const rowHigh = 12 - high, rowLow = 12 - low;
  if (high === low) return 13 * rowHigh + rowHigh;
  return (x & 3) === (y & 3) ? 13 * rowHigh + rowLow : 13 * rowLow + rowHigh;
}

/** The combos as [a, b] card pairs and the class of each (Python's ALL_COMBOS, COMBO_CLASS). */
export const COMBOS = [];
export const COMBO_CLASS = new Int32Array(N_COMBOS);
for (let a = 0; a < 52; a++) for (let b = a + 1; b < 52; b++) COMBOS.push([a, b]);
COMBOS.forEach(([a, b], i) => (COMBO_CLASS[i] = classOfCards(a, b)));


/** Characters of a token shown in an error (kernels/ranges.py SHOWN_TOKEN_CHARS). */
const SHOWN_TOKEN_CHARS = 40;
/** Python's str.isprintable: not a control, format, surrogate, private-use or unassigned character, nor a separator but " ". */
const UNPRINTABLE = /[\p{C}\p{Z}]/u;

/** A token as an error shows it (kernels/ranges.py shown_token): unprintable characters escaped as Python writes them,
 *  at most SHOWN_TOKEN_CHARS characters, then "…". */
export function shownToken(token) {
  const chars = Array.from(token);
  const escaped = (c) => {
    if (c === " " || !UNPRINTABLE.test(c)) return c;
    const code = c.codePointAt(0);
    const hex = (width) => code.toString(16).padStart(width, "0");
    return code < 0x100 ? `\\x${hex(2)}` : code < 0x10000 ? `\\u${hex(4)}` : `\\U${hex(8)}`;
  };
  return chars.slice(0, SHOWN_TOKEN_CHARS).map(escaped).join("") + (chars.length > SHOWN_TOKEN_CHARS ? "…" : "");
}

/** A token outside the grammar; ``message`` names the token (shownToken) and its column. */
export class RangeError extends Error {
  constructor(token, column, reason) {
    super(`token "${shownToken(token)}" (column ${column}): ${reason}`);
    this.name = "RangeError";
    Object.assign(this, { token, column, reason });
  }
}

const strip = (text) => {
  let start = 0, end = text.length;
  while (start < end && SPACE.includes(text[start])) start++;
  while (end > start && SPACE.includes(text[end - 1])) end--;
  return [text.slice(start, end), start];
};

// Split full.slice(from, to) at commas outside parentheses: [piece stripped, offset in full].
function split(full, from, to) {
  const pieces = [];
  let depth = 0, begin = from;
  for (let i = from; i <= to; i++) {
    const char = i < to ? full[i] : ",";
    if (char === "(") depth++;
    else if (char === ")") depth--;
    else if (char === "," && (depth <= 0 || i === to)) {
      const [piece, lead] = strip(full.slice(begin, i));
      pieces.push([piece, begin + lead]);
      begin = i + 1;
    }
  }
  return pieces;
}

function weightOf(text, token, column) {
  const value = Number(text);
  if (!(value >= 0 && value <= 1)) throw new RangeError(token, column, `weight ${text} is not between 0 and 1`);
  return value;
}

function rankOf(char, token, column) {
  const upper = char.toUpperCase();
  if (!RANKS.includes(upper) || upper === "") throw new RangeError(token, column, `'${shownToken(char)}' is not a rank (${RANKS})`);
  return RANKS.indexOf(upper);
}

// [high rank, low rank, kind]: kind "p" pair, "s", "o", or "" (suited and offsuit).
function parseClass(text, token, column) {
  const chars = Array.from(text);
  if (chars.length !== 2 && chars.length !== 3) {
    throw new RangeError(token, column, "not a class (AKs, AKo, AK, TT), a combo (AsKd), x% or random");
  }
  const first = rankOf(chars[0], token, column), second = rankOf(chars[1], token, column);
  const kind = chars.length === 3 ? chars[2].toLowerCase() : "";
  if (!["", "s", "o"].includes(kind)) throw new RangeError(token, column, `'${shownToken(chars[2])}' is not s (suited) or o (offsuit)`);
  if (first === second) {
    if (kind) throw new RangeError(token, column, "a pair takes no s/o suffix");
    return [first, second, "p"];
  }
  return [Math.max(first, second), Math.min(first, second), kind];
}

function classesOf(high, low, kind) {
  const rh = 12 - high, rl = 12 - low;
  if (kind === "p") return [13 * rh + rh];
  const out = [];
  if (kind !== "o") out.push(13 * rh + rl);
  if (kind !== "s") out.push(13 * rl + rh);
  return out;
}

function combosOfClasses(classes) {
  const wanted = new Set(classes);
  const out = [];
  for (let i = 0; i < N_COMBOS; i++) if (wanted.has(COMBO_CLASS[i])) out.push(i);
  return out;
}

/** Class indices best first by exact heads-up equity vs a random hand, from headsup.json's counts
 * (kernels.ranges.ranking_from_equity: ties by class index): the order of "x%" ranges. */
export function rankingFromHeadsup(h) {
  const equity = h.win.map((w, i) => (w + h.tie[i] / 2) / h.total[i]);
  return equity.map((_, i) => i).sort((a, b) => equity[b] - equity[a] || a - b);
}

/** Combo indices of the top ``percent`` % (closest prefix of ``ranking``, class indices best first). */
export function topPercent(percent, ranking) {
  const target = (percent * N_COMBOS) / 100;
  const sizes = new Int32Array(169);
  for (const c of COMBO_CLASS) sizes[c]++;
  let count = 0, best = 0, bestDistance = Math.abs(0 - target);
  ranking.forEach((cls, i) => {
    count += sizes[cls];
    const distance = Math.abs(count - target);
    if (distance <= bestDistance) [best, bestDistance] = [i + 1, distance];
  });
  if (percent > 0) best = Math.max(best, 1);
  return combosOfClasses(ranking.slice(0, best));
}

function parseAtom(text, column, ranking) {
  const token = text;
  const chars = Array.from(text);
  if (text.toLowerCase() === "random") return COMBOS.map((_, i) => i);
  const percent = PERCENT.exec(text);
  if (percent) {
    const value = Number(percent[1]);
    if (!(value >= 0 && value <= 100)) throw new RangeError(token, column, "a percentage lies between 0 and 100");
    if (!ranking) throw new RangeError(token, column, "x% needs the class ranking (none was given)");
    return topPercent(value, ranking);
  }
  if (chars.length === 4 && SUITS.includes(chars[1].toLowerCase()) && SUITS.includes(chars[3].toLowerCase())) {
    const first = 4 * rankOf(chars[0], token, column) + SUITS.indexOf(chars[1].toLowerCase());
    const second = 4 * rankOf(chars[2], token, column) + SUITS.indexOf(chars[3].toLowerCase());
    if (first === second) throw new RangeError(token, column, "the two cards are the same");
    return [comboIndex(first, second)];
  }
  let steps, kind;
  if (text.endsWith("+")) {
    const [high, low, k] = parseClass(text.slice(0, -1), token, column);
    kind = k;
    steps = [];
    if (kind === "p") for (let r = low; r < 13; r++) steps.push([r, r]);
    else for (let r = low; r < high; r++) steps.push([high, r]);
  } else if (text.includes("-")) {
    const dash = text.indexOf("-");
    const a = parseClass(strip(text.slice(0, dash))[0], token, column);
    const b = parseClass(strip(text.slice(dash + 1))[0], token, column);
    if (a[2] !== b[2]) throw new RangeError(token, column, "both ends of a dash must be pairs, or both suited, offsuit or neither");
    kind = a[2];
    steps = [];
    if (a[0] === b[0] && kind !== "p") {
      for (let r = Math.min(a[1], b[1]); r <= Math.max(a[1], b[1]); r++) steps.push([a[0], r]);
    } else if (a[0] - a[1] === b[0] - b[1]) {
      const gap = a[0] - a[1];
      for (let h = Math.min(a[0], b[0]); h <= Math.max(a[0], b[0]); h++) steps.push([h, h - gap]);
    } else {
      throw new RangeError(token, column, "a dash joins classes with the same first rank (A5s-A2s) or the same gap (T9s-65s, JJ-99)");
    }
  } else {
    const [high, low, k] = parseClass(text, token, column);
    kind = k;
    steps = [[high, low]];
  }
  return combosOfClasses(steps.flatMap(([h, l]) => classesOf(h, l, kind)));
}

/**
 * Parse a range string; ``ranking``: class indices best first (needed for x%).
 * Returns { text, weights: Float64Array(1326) }; throws RangeError naming the first bad token and its column.
 */
export function parseRange(text, ranking = null) {
  const weights = new Float64Array(N_COMBOS);
  // Every character before the first bad token is ASCII (no other character is in the grammar), so a
  // UTF-16 offset + 1 is Python's code-point column.
  const columnAt = (offset) => offset + 1;
  if (!strip(text)[0]) throw new RangeError(text, 1, "empty range");
  for (const [item, offset] of split(text, 0, text.length)) {
    const column = columnAt(offset);
    if (!item) throw new RangeError(item, column, "empty item (two commas in a row, or a comma at an end)");
    const group = GROUP.exec(item);
    let weight, atoms;
    if (group) {
      weight = weightOf(group[1], item, column);
      const inner = offset + item.indexOf("(") + 1;
      atoms = split(text, inner, offset + item.length - 1).map(([atom, at]) => [atom, columnAt(at)]);
    } else if (item.includes("(") || item.includes(")")) {
      throw new RangeError(item, column, "parentheses go around a list after a weight, e.g. 0.5(KQo, AJs)");
    } else {
      const suffixed = SUFFIXED.exec(item);
      if (suffixed) [weight, atoms] = [weightOf(suffixed[2], item, column), [[suffixed[1], column]]];
      else [weight, atoms] = [1, [[item, column]]];
    }
    for (const [atom, atomColumn] of atoms) {
      if (!atom) throw new RangeError(atom, atomColumn, "empty item (two commas in a row, or a comma at an end)");
      for (const combo of parseAtom(atom, atomColumn, ranking)) weights[combo] = weight;
    }
  }
  return { text, weights };
}

// Python's np.format_float_positional(w, trim="-"): the shortest round-trip digits, never an exponent.
/** The class indices along which whole classes are written as runs, each from its top down: the pairs
 * (AA … 22), then the suited and then the offsuit classes of each first rank (as _lines in kernels/ranges.py). */
const LINES = (() => {
  const line = (rank) => 12 - rank, down = (h) => Array.from({ length: h }, (_, j) => h - 1 - j);
  const highs = Array.from({ length: 12 }, (_, j) => 12 - j);
  return [
    Array.from({ length: 13 }, (_, j) => line(12 - j) * 14),
    ...highs.map((h) => down(h).map((k) => line(h) * 13 + line(k))),
    ...highs.map((h) => down(h).map((k) => line(k) * 13 + line(h))),
  ];
})();

/** Whole classes (Map class → weight) as the fewest tokens: consecutive classes of one line with the same
 * weight are one run, QQ+ / ATs+ from the top of the line, else JJ-99 / A9s-A5s (as _runs in Python). */
function runs(whole) {
  const items = [];
  for (const members of LINES) {
    let k = 0;
    while (k < members.length) {
      if (!whole.has(members[k])) { k++; continue; }
      let end = k;
      while (end + 1 < members.length && whole.get(members[end + 1]) === whole.get(members[k])) end++;
      const top = className(members[k]), bottom = className(members[end]);
      items.push([end === k ? top : k === 0 ? `${bottom}+` : `${top}-${bottom}`, whole.get(members[k])]);
      k = end + 1;
    }
  }
  return items;
}

function formatWeight(weight) {
  const text = String(weight);
  if (!text.includes("e")) return text;
  const [digits, exponent] = text.split("e");
  const [whole, fraction = ""] = digits.split(".");
  const shift = Number(exponent);
  return shift < 0 ? `0.${"0".repeat(-shift - 1)}${whole}${fraction}` : `${whole}${fraction}${"0".repeat(shift - fraction.length)}`;
}

/**
 * A canonical range string for ``weights`` (1,326): whole classes by name, other combos one by one,
 * weights other than 1 as ":w"; equal to Python's kernels.ranges.normalise (shared fixtures).
 */
export function normalise(weights) {
  if (weights.every((w) => w === 1)) return "random";
  const members = Array.from({ length: 169 }, () => []);
  COMBO_CLASS.forEach((cls, i) => members[cls].push(i));
  const whole = new Map();
  members.forEach((combos, cls) => {
    const first = weights[combos[0]];
    if (first > 0 && combos.every((i) => weights[i] === first)) whole.set(cls, first);
  });
  const items = runs(whole);
  members.forEach((combos, cls) => {
    if (whole.has(cls)) return;
    for (const i of combos) {
      if (weights[i] <= 0) continue;
      const [a, b] = COMBOS[i];
      const [high, low] = b >> 2 > a >> 2 || ((b >> 2) === (a >> 2) && b > a) ? [b, a] : [a, b];
      items.push([cardName(high) + cardName(low), weights[i]]);
    }
  });
  return items.map(([name, w]) => (w === 1 ? name : `${name}:${formatWeight(w)}`)).join(",");
}

/** A card error of a board or dead-card field: ``message`` names the field. */
export class CardsError extends Error {
  name = "CardsError";
}

/** "Kh8d3c" (spaces and commas allowed) → card ids; throws CardsError naming ``field``. */
export function parseCards(text, field) {
  const clean = text.replace(/[\s,]+/g, "");
  if (clean.length % 2) throw new CardsError(`${field}: cards are two characters each (e.g. Kh8d3c)`);
  const cards = [];
  for (let i = 0; i < clean.length; i += 2) {
    const rank = RANKS.indexOf(clean[i].toUpperCase()), suit = SUITS.indexOf(clean[i + 1].toLowerCase());
    if (rank < 0 || suit < 0) throw new CardsError(`${field}: "${clean.slice(i, i + 2)}" is not a card (ranks ${RANKS}, suits ${SUITS})`);
    if (cards.includes(4 * rank + suit)) throw new CardsError(`${field}: duplicate card ${clean.slice(i, i + 2)}`);
    cards.push(4 * rank + suit);
  }
  return cards;
}
